// grid_mg_op.glsl: the multigrid pressure operator (GLSL only). Include it
// after grid_common.glsl and the buffer declarations.
// The pressure operator of one multigrid level at cell (i, j):
//   (A x)_ij = sum_faces w_f (x_nb - x_ij) / h^2, x outside the box = 0
// (periodic sides wrap). Returns (sum w_f x_nb, sum w_f). The shader defines
// XVAL(k), WX(k), WY(k).
//
// Specialized with VF_GRID_SPEC_OPEN = 1 (no solid cell anywhere): the
// weights follow from the position and the side types, so only the four
// neighbours are loaded, without branches or modulo. The sums are the same
// terms in the same order (a closed side adds w x = 0 x 0).

vec2 mg_neighbours_open(int i, int j)
{
    int nx = NX(), ny = NY(), k = cidx(i, j);
    bool px = per_x(), py = per_y();
    bool l = i > 0, r = i < nx - 1, b = j > 0, t = j < ny - 1;
    float wl = l ? 1.0 : side_weight(VF_GRID_SIDE_LEFT), wr = r ? 1.0 : side_weight(VF_GRID_SIDE_RIGHT);
    float wb = b ? 1.0 : side_weight(VF_GRID_SIDE_BOTTOM), wt = t ? 1.0 : side_weight(VF_GRID_SIDE_TOP);
    // outside the box: the periodic image, else 0 (outflow) or weight 0 (wall)
    float xl = l ? XVAL(k - 1) : (px ? XVAL(k + nx - 1) : 0.0);
    float xr = r ? XVAL(k + 1) : (px ? XVAL(k - nx + 1) : 0.0);
    float xb = b ? XVAL(k - nx) : (py ? XVAL(k + (ny - 1) * nx) : 0.0);
    float xt = t ? XVAL(k + nx) : (py ? XVAL(k - (ny - 1) * nx) : 0.0);
    float s = 0.0, ws = 0.0;
    s += wl * xl;
    ws += wl;
    s += wr * xr;
    ws += wr;
    s += wb * xb;
    ws += wb;
    s += wt * xt;
    ws += wt;
    return vec2(s, ws);
}

vec2 mg_neighbours(int i, int j)
{
    if (grid_open)
        return mg_neighbours_open(i, j);
    int nx = NX(), ny = NY();
    float s = 0.0, ws = 0.0, w;
    w = WX(uidx(i, j));
    if (w != 0.0) {
        int a = i - 1;
        if (a >= 0 || per_x())
            s += w * XVAL(cidx(wrapi(a, nx), j));
        ws += w;
    }
    w = WX(uidx(i + 1, j));
    if (w != 0.0) {
        int a = i + 1;
        if (a < nx || per_x())
            s += w * XVAL(cidx(wrapi(a, nx), j));
        ws += w;
    }
    w = WY(vidx(i, j));
    if (w != 0.0) {
        int a = j - 1;
        if (a >= 0 || per_y())
            s += w * XVAL(cidx(i, wrapi(a, ny)));
        ws += w;
    }
    w = WY(vidx(i, j + 1));
    if (w != 0.0) {
        int a = j + 1;
        if (a < ny || per_y())
            s += w * XVAL(cidx(i, wrapi(a, ny)));
        ws += w;
    }
    return vec2(s, ws);
}
