// grid_mg_op.glsl: the multigrid pressure operator (GLSL only). Include it
// after grid_common.glsl and the buffer declarations.
// The pressure operator of one multigrid level at cell (i, j):
//   (A x)_ij = sum_faces w_f (x_nb - x_ij) / h^2, x outside the box = 0
// (periodic sides wrap). Returns (sum w_f x_nb, sum w_f). The shader defines
// XVAL(k), WX(k), WY(k).
vec2 mg_neighbours(int i, int j)
{
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
