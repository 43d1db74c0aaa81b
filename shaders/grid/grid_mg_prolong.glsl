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

// The coarse columns (or rows) fine column i takes: its own, I = i >> 1,
// and the other neighbour (weights 3/4, 1/4), clamped or wrapped (periodic)
// into the cn coarse columns.
ivec2 mg_prolong_pair(int i, int cn, bool periodic)
{
    int I = i >> 1;
    int In = (i & 1) != 0 ? I + 1 : I - 1;
    In = periodic ? wrap_near(In, cn) : clamp(In, 0, cn - 1);
    return ivec2(I, In);
}

// The interpolation from coarse columns ci and rows cj (mg_prolong_pair) of
// a level with cnx coarse columns.
vec2 mg_prolong_from(ivec2 ci, ivec2 cj, int cnx)
{
    int ii[4] = int[4](ci.x, ci.y, ci.x, ci.y);
    int jj[4] = int[4](cj.x, cj.x, cj.y, cj.y);
    float cw[4] = float[4](0.5625, 0.1875, 0.1875, 0.0625);
    float s = 0.0, ws = 0.0;
    for (int q = 0; q < 4; q++) {
        if (!mg_coarse_open(ii[q], jj[q], cnx))
            continue;
        s += cw[q] * XC(jj[q] * cnx + ii[q]);
        ws += cw[q];
    }
    return vec2(s, ws);
}

vec2 mg_prolong(int i, int j, int nx, int ny)
{
    return mg_prolong_from(mg_prolong_pair(i, nx / 2, per_x()), mg_prolong_pair(j, ny / 2, per_y()), nx / 2);
}
