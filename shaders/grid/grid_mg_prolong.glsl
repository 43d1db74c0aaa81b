// grid_mg_prolong.glsl: the prolongation of a coarse correction (GLSL only).
// Include it after grid_common.glsl; the shader defines XC(k), WXC(k) and
// WYC(k), the coarse level's x and face weights.
// At fine cell (i, j) of an nx x ny level (the coarse level nx/2 x ny/2):
// bilinear interpolation of the coarse x (cell-centred weights 9/16, 3/16,
// 3/16, 1/16), using only coarse cells that have an open face; sides clamp,
// periodic sides wrap. Returns (sum w x, sum w): the correction is
// s.x / s.y where s.y > 0, none otherwise. In the open variant every coarse
// cell has an open face and no weight is loaded.

bool mg_coarse_open(int I, int J, int cnx)
{
    if (grid_open)
        return true;
    return WXC(J * (cnx + 1) + I) + WXC(J * (cnx + 1) + I + 1) + WYC(J * cnx + I) + WYC((J + 1) * cnx + I) > 0.0;
}

vec2 mg_prolong(int i, int j, int nx, int ny)
{
    int cnx = nx / 2, cny = ny / 2;
    int I = i >> 1, J = j >> 1;
    // the other coarse neighbour in each direction and the weights 3/4, 1/4
    int In = (i & 1) != 0 ? I + 1 : I - 1;
    int Jn = (j & 1) != 0 ? J + 1 : J - 1;
    In = per_x() ? wrapi(In, cnx) : clamp(In, 0, cnx - 1);
    Jn = per_y() ? wrapi(Jn, cny) : clamp(Jn, 0, cny - 1);
    int ci[4] = int[4](I, In, I, In);
    int cj[4] = int[4](J, J, Jn, Jn);
    float cw[4] = float[4](0.5625, 0.1875, 0.1875, 0.0625);
    float s = 0.0, ws = 0.0;
    for (int q = 0; q < 4; q++) {
        if (!mg_coarse_open(ci[q], cj[q], cnx))
            continue;
        s += cw[q] * XC(cj[q] * cnx + ci[q]);
        ws += cw[q];
    }
    return vec2(s, ws);
}
