// grid_sweep_tile.glsl: sweeps of the pressure operator over a tile in one
// dispatch (GLSL only), for grid_jacobi.comp (Jacobi iterations) and
// grid_mg_smooth_tile.comp (red-black Gauss-Seidel half-sweeps, optionally
// after adding the prolongated coarse correction). Include it after
// grid_common.glsl and the declarations of x_in, b, wx, wy and x_out, with
// VF_TILE_RED_BLACK and VF_TILE_PROLONG defined (0 or 1); with
// VF_TILE_PROLONG also after grid_mg_prolong.glsl and its XC, WXC, WYC.
//
// pc.count = k sweeps in this dispatch: Jacobi iterations, each
// x_out = (sum w x_in - h^2 b) / sum w (the operator of grid_mg_op.glsl; 0
// where sum w = 0), or red-black half-sweeps, each updating the cells of one
// colour ((i + j) & 1, the first pc.color, then alternating) in place from
// the other colour's values. A workgroup owns a square region of R x R cells
// (R = VF_GRID_JT_CELLS x the workgroup side); it writes the inner tile of
// (R - 2k) x (R - 2k) cells, the region being that tile plus a halo of k
// cells. Each invocation keeps a block of VF_GRID_JT_CELLS x VF_GRID_JT_CELLS
// cells in registers: x and b are loaded once (with the prolongated
// correction added where pc.mode has VF_GRID_TILE_PROLONG), then every sweep
// shares the block's border through shared memory (two arrays, alternating,
// one barrier per sweep) and updates the block from its own cells and the
// neighbours' borders. A value at distance d from the region's edge stays
// exact for d sweeps (what is wrong spreads one cell a sweep), so the inner
// tile equals k separate sweeps. Cells outside a non-periodic side hold 0 and
// are never updated (the operator's x = 0 outside the box); outside a
// periodic side they are the wrapped cells, updated like them (red-black:
// the level's size is even along a periodic side, so the colour of a cell
// and of its image agree). The face weights follow from the side types (open
// variant) or are read once from wx / wy, as in grid_mg_op.glsl, and the
// sums take the same terms in the same order.
// The workgroup side is a specialization constant the host sets from the
// device's limits (invocations, workgroup size, shared memory); the shared
// arrays grow with it.

#if VF_GRID_JT_CELLS != 4
#error "grid_jacobi.comp keeps each row of a block in a vec4"
#endif
const uint RX = gl_WorkGroupSize.x * 4u, RY = gl_WorkGroupSize.y * 4u;
shared float sm[2 * RX * RY];

// The block's columns (or rows) from global column i: the box's column of
// each (its periodic image, else clamped into the box), and 1 where it is in
// the box or an image, 0 outside a non-periodic side.
void block_lines(int i, int n, bool periodic, out ivec4 at, out vec4 in_box)
{
    for (int q = 0; q < 4; q++) {
        int c = i + q;
        in_box[q] = periodic || (c >= 0 && c < n) ? 1.0 : 0.0;
        at[q] = periodic ? wrapi(c, n) : clamp(c, 0, n - 1);
    }
}

// The cell at box column i, row j (a = it is in the box or an image): its x
// and b, and the weights of its left, right, bottom and top faces (all 0
// outside a non-periodic side: the cell stays 0). pi, pj: the coarse
// columns and rows of the prolongation.
void load_cell(int i, int j, bool a, ivec2 pi, ivec2 pj, out float xv, out float bv, out vec4 w)
{
    int nx = NX(), ny = NY();
    int k = cidx(i, j);
    xv = a ? x_in[k] : 0.0;
    bv = a ? b[k] : 0.0;
    if (!a)
        w = vec4(0.0);
    else if (grid_open)
        w = vec4(i > 0 ? 1.0 : side_weight(VF_GRID_SIDE_LEFT), i < nx - 1 ? 1.0 : side_weight(VF_GRID_SIDE_RIGHT),
                 j > 0 ? 1.0 : side_weight(VF_GRID_SIDE_BOTTOM), j < ny - 1 ? 1.0 : side_weight(VF_GRID_SIDE_TOP));
    else
        w = vec4(wx[uidx(i, j)], wx[uidx(i + 1, j)], wy[vidx(i, j)], wy[vidx(i, j + 1)]);
#if VF_TILE_PROLONG
    // the correction in cells with an open face only
    if (a && (pc.mode & VF_GRID_TILE_PROLONG) != 0u && w.x + w.y + w.z + w.w > 0.0) {
        vec2 c = mg_prolong_from(pi, pj, nx / 2);
        if (c.y > 0.0)
            xv += c.x / c.y;
    }
#endif
}

// One row of a block (box row j, the block's columns ci): x, b and the face
// weights as vectors along the row.
void load_row(ivec4 ci, vec4 ca, int j, bool ra, ivec2 pi[4], ivec2 pj, out vec4 xr, out vec4 br, out vec4 wl,
              out vec4 wr, out vec4 wb, out vec4 wt)
{
    vec4 w0, w1, w2, w3;
    load_cell(ci.x, j, ra && ca.x > 0.0, pi[0], pj, xr.x, br.x, w0);
    load_cell(ci.y, j, ra && ca.y > 0.0, pi[1], pj, xr.y, br.y, w1);
    load_cell(ci.z, j, ra && ca.z > 0.0, pi[2], pj, xr.z, br.z, w2);
    load_cell(ci.w, j, ra && ca.w > 0.0, pi[3], pj, xr.w, br.w, w3);
    wl = vec4(w0.x, w1.x, w2.x, w3.x);
    wr = vec4(w0.y, w1.y, w2.y, w3.y);
    wb = vec4(w0.z, w1.z, w2.z, w3.z);
    wt = vec4(w0.w, w1.w, w2.w, w3.w);
}

// One Jacobi update of a row from its left, right, lower and upper
// neighbours: the terms of grid_mg_op.glsl in its order; 0 where sum w = 0.
vec4 update(vec4 l, vec4 r, vec4 d, vec4 u, vec4 bv, vec4 wl, vec4 wr, vec4 wb, vec4 wt, float h2)
{
    vec4 s = wl * l, ws = wl;
    s += wr * r;
    ws += wr;
    s += wb * d;
    ws += wb;
    s += wt * u;
    ws += wt;
    return mix(vec4(0.0), (s - h2 * bv) / ws, greaterThan(ws, vec4(0.0)));
}

void put(int base, int rx, ivec2 c, float v)
{
    sm[base + c.y * rx + c.x] = v;
}

float get(int base, int rx, int i, int j)
{
    return sm[base + j * rx + i];
}

void main()
{
    int k = int(pc.count);
    int nx = NX(), ny = NY();
    int rx = int(RX), ry = int(RY);
    ivec2 tile = ivec2(rx - 2 * k, ry - 2 * k);
    ivec2 org = ivec2(gl_WorkGroupID.xy) * tile - k; // the region's first cell
    ivec2 lb = ivec2(gl_LocalInvocationID.xy) * 4;   // the block's first cell in the region
    ivec2 g = org + lb;
    float h2 = pc.h * pc.h;
    vec4 x0, x1, x2, x3, b0, b1, b2, b3;
    vec4 wl0, wl1, wl2, wl3, wr0, wr1, wr2, wr3, wb0, wb1, wb2, wb3, wt0, wt1, wt2, wt3;
    bool px = per_x(), py = per_y();
    ivec4 ci, rj;
    vec4 col_a, row_a;
    block_lines(g.x, nx, px, ci, col_a);
    block_lines(g.y, ny, py, rj, row_a);
    ivec2 pi[4], pj[4];
    for (int q = 0; q < 4; q++) {
        pi[q] = ivec2(0);
        pj[q] = ivec2(0);
#if VF_TILE_PROLONG
        pi[q] = mg_prolong_pair(ci[q], nx / 2, px);
        pj[q] = mg_prolong_pair(rj[q], ny / 2, py);
#endif
    }
    load_row(ci, col_a, rj.x, row_a.x > 0.0, pi, pj[0], x0, b0, wl0, wr0, wb0, wt0);
    load_row(ci, col_a, rj.y, row_a.y > 0.0, pi, pj[1], x1, b1, wl1, wr1, wb1, wt1);
    load_row(ci, col_a, rj.z, row_a.z > 0.0, pi, pj[2], x2, b2, wl2, wr2, wb2, wt2);
    load_row(ci, col_a, rj.w, row_a.w > 0.0, pi, pj[3], x3, b3, wl3, wr3, wb3, wt3);
    // open variant: the weights are products of a column's and a row's
    // factors (1, a side's weight, or 0 outside a non-periodic side), kept as
    // 6 vectors instead of 16 and multiplied out in every iteration (exact)
    vec4 col_l, col_r, row_b, row_t;
    if (grid_open) {
        for (int q = 0; q < 4; q++) {
            int i = px ? ci[q] : g.x + q, j = py ? rj[q] : g.y + q;
            col_l[q] = i > 0 ? 1.0 : side_weight(VF_GRID_SIDE_LEFT);
            col_r[q] = i < nx - 1 ? 1.0 : side_weight(VF_GRID_SIDE_RIGHT);
            row_b[q] = j > 0 ? 1.0 : side_weight(VF_GRID_SIDE_BOTTOM);
            row_t[q] = j < ny - 1 ? 1.0 : side_weight(VF_GRID_SIDE_TOP);
        }
    }
    // the neighbours' border cells (clamped at the region's edge: a value
    // there is wrong anyway and never reaches the inner tile)
    int xl = max(lb.x - 1, 0), xr = min(lb.x + 4, rx - 1);
    int yb = max(lb.y - 1, 0), yt = min(lb.y + 4, ry - 1);
    for (int it = 0; it < k; it++) {
        int base = (it & 1) * rx * ry;
        // the block's border: rows 0 and 3, the ends of rows 1 and 2
        put(base, rx, lb + ivec2(0, 0), x0.x);
        put(base, rx, lb + ivec2(1, 0), x0.y);
        put(base, rx, lb + ivec2(2, 0), x0.z);
        put(base, rx, lb + ivec2(3, 0), x0.w);
        put(base, rx, lb + ivec2(0, 1), x1.x);
        put(base, rx, lb + ivec2(3, 1), x1.w);
        put(base, rx, lb + ivec2(0, 2), x2.x);
        put(base, rx, lb + ivec2(3, 2), x2.w);
        put(base, rx, lb + ivec2(0, 3), x3.x);
        put(base, rx, lb + ivec2(1, 3), x3.y);
        put(base, rx, lb + ivec2(2, 3), x3.z);
        put(base, rx, lb + ivec2(3, 3), x3.w);
        barrier();
        vec4 lc = vec4(get(base, rx, xl, lb.y), get(base, rx, xl, lb.y + 1), get(base, rx, xl, lb.y + 2),
                       get(base, rx, xl, lb.y + 3));
        vec4 rc = vec4(get(base, rx, xr, lb.y), get(base, rx, xr, lb.y + 1), get(base, rx, xr, lb.y + 2),
                       get(base, rx, xr, lb.y + 3));
        vec4 bot = vec4(get(base, rx, lb.x, yb), get(base, rx, lb.x + 1, yb), get(base, rx, lb.x + 2, yb),
                        get(base, rx, lb.x + 3, yb));
        vec4 top = vec4(get(base, rx, lb.x, yt), get(base, rx, lb.x + 1, yt), get(base, rx, lb.x + 2, yt),
                        get(base, rx, lb.x + 3, yt));
        if (grid_open) {
            vec4 a0 = col_a * row_a.x, a1 = col_a * row_a.y, a2 = col_a * row_a.z, a3 = col_a * row_a.w;
            wl0 = col_l * a0;
            wl1 = col_l * a1;
            wl2 = col_l * a2;
            wl3 = col_l * a3;
            wr0 = col_r * a0;
            wr1 = col_r * a1;
            wr2 = col_r * a2;
            wr3 = col_r * a3;
            wb0 = row_b.x * a0;
            wb1 = row_b.y * a1;
            wb2 = row_b.z * a2;
            wb3 = row_b.w * a3;
            wt0 = row_t.x * a0;
            wt1 = row_t.y * a1;
            wt2 = row_t.z * a2;
            wt3 = row_t.w * a3;
        }
        vec4 y0 = update(vec4(lc.x, x0.xyz), vec4(x0.yzw, rc.x), bot, x1, b0, wl0, wr0, wb0, wt0, h2);
        vec4 y1 = update(vec4(lc.y, x1.xyz), vec4(x1.yzw, rc.y), x0, x2, b1, wl1, wr1, wb1, wt1, h2);
        vec4 y2 = update(vec4(lc.z, x2.xyz), vec4(x2.yzw, rc.z), x1, x3, b2, wl2, wr2, wb2, wt2, h2);
        vec4 y3 = update(vec4(lc.w, x3.xyz), vec4(x3.yzw, rc.w), x2, top, b3, wl3, wr3, wb3, wt3, h2);
#if VF_TILE_RED_BLACK
        // only the cells of this half-sweep's colour: in row 0 of the block
        // the even cells when the block's first cell has it, the odd ones
        // otherwise; the next row the other way round
        int col = (int(pc.color) + it) & 1;
        bvec4 ev = bvec4(true, false, true, false), od = bvec4(false, true, false, true);
        bool first = ((g.x + g.y) & 1) == col;
        bvec4 m0 = first ? ev : od, m1 = first ? od : ev;
        x0 = mix(x0, y0, m0);
        x1 = mix(x1, y1, m1);
        x2 = mix(x2, y2, m0);
        x3 = mix(x3, y3, m1);
#else
        x0 = y0;
        x1 = y1;
        x2 = y2;
        x3 = y3;
#endif
    }
    // the inner tile
    bool rows_in[4], cols_in[4];
    for (int q = 0; q < 4; q++) {
        int ri = lb.x + q, rj = lb.y + q;
        cols_in[q] = ri >= k && ri < k + tile.x && org.x + ri < nx;
        rows_in[q] = rj >= k && rj < k + tile.y && org.y + rj < ny;
    }
    vec4 rows[4] = vec4[4](x0, x1, x2, x3);
    for (int cy = 0; cy < 4; cy++)
        for (int cx = 0; cx < 4; cx++)
            if (rows_in[cy] && cols_in[cx])
                x_out[cidx(g.x + cx, g.y + cy)] = rows[cy][cx];
}
