#version 450
// The multigrid tail: one V-cycle over the levels from the tail level (q = 0
// here; the push constants are its nx, ny, h) down to the coarsest (q =
// color - 1), run by ONE workgroup in shared memory, so these levels cost one
// dispatch instead of 2 (pre + post) + 2 per level and one coarse solve.
// Per level above the coarsest: `pre` red-black sweeps (as grid_mg_smooth),
// the residual restricted to the next level (as grid_mg_restrict_res), and
// after the coarser levels the prolongation (as grid_mg_prolong.glsl) and `post`
// sweeps; the coarsest gets `count` red-black SOR sweeps (omega = a.x, as
// grid_mg_coarse). Each step ends with a workgroup barrier. The tail level's
// x is read into shared memory and written back; its b stays in the buffer.
// Nothing depends on the subgroup size; the workgroup size and the shared
// array are specialization constants the host sets from the device's limits.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)

layout(local_size_x = VF_GRID_TAIL_DEFAULT_WG, local_size_x_id = VF_GRID_SPEC_TAIL_WG) in;
layout(constant_id = VF_GRID_SPEC_TAIL_FLOATS) const int tail_floats = VF_GRID_TAIL_DEFAULT_FLOATS;
shared float sm[tail_floats];

// the level being worked on (set by set_level)
int lv_q, lv_nx, lv_ny, lv_x, lv_b;
float lv_h;

#define VF_GRID_LEVEL_DIMS
int NX()
{
    return lv_nx;
}

int NY()
{
    return lv_ny;
}
#include "grid_common.glsl"

layout(std430, binding = VF_GRID_TAIL_X) buffer X { float x[]; };
layout(std430, binding = VF_GRID_TAIL_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_TAIL_WX0 + 0) readonly buffer Wx0 { float wx0[]; };
layout(std430, binding = VF_GRID_TAIL_WX0 + 1) readonly buffer Wx1 { float wx1[]; };
layout(std430, binding = VF_GRID_TAIL_WX0 + 2) readonly buffer Wx2 { float wx2[]; };
layout(std430, binding = VF_GRID_TAIL_WX0 + 3) readonly buffer Wx3 { float wx3[]; };
layout(std430, binding = VF_GRID_TAIL_WY0 + 0) readonly buffer Wy0 { float wy0[]; };
layout(std430, binding = VF_GRID_TAIL_WY0 + 1) readonly buffer Wy1 { float wy1[]; };
layout(std430, binding = VF_GRID_TAIL_WY0 + 2) readonly buffer Wy2 { float wy2[]; };
layout(std430, binding = VF_GRID_TAIL_WY0 + 3) readonly buffer Wy3 { float wy3[]; };
#if VF_GRID_TAIL_MAX_LEVELS != 4
#error "grid_mg_tail.comp declares 4 weight pairs"
#endif

float wx_at(int q, int k)
{
    return q == 0 ? wx0[k] : (q == 1 ? wx1[k] : (q == 2 ? wx2[k] : wx3[k]));
}

float wy_at(int q, int k)
{
    return q == 0 ? wy0[k] : (q == 1 ? wy1[k] : (q == 2 ? wy2[k] : wy3[k]));
}

#define XVAL(k) sm[lv_x + (k)]
#define WX(k) wx_at(lv_q, k)
#define WY(k) wy_at(lv_q, k)
#include "grid_mg_op.glsl"

int cells(int q)
{
    return (int(pc.nx) >> q) * (int(pc.ny) >> q);
}

// shared layout: x of level 0, then x and b of level 1, 2, ...
int x_offset(int q)
{
    int o = cells(0);
    for (int l = 1; l < q; l++)
        o += 2 * cells(l);
    return q == 0 ? 0 : o;
}

void set_level(int q)
{
    lv_q = q;
    lv_nx = int(pc.nx) >> q;
    lv_ny = int(pc.ny) >> q;
    lv_x = x_offset(q);
    lv_b = lv_x + lv_nx * lv_ny;
    lv_h = pc.h * float(1 << q);
}

float bval(int k)
{
    return lv_q == 0 ? b[k] : sm[lv_b + k];
}

void sync()
{
    memoryBarrierShared();
    barrier();
}

const int WG = int(gl_WorkGroupSize.x);

// the m-th cell of colour `color` on the current level (nx even), or of all
// cells when nx is odd (the caller skips the other colour)
ivec2 colour_cell(int m, int color, bool even)
{
    if (!even)
        return ivec2(m % lv_nx, m / lv_nx);
    int half_nx = lv_nx >> 1;
    int j = m / half_nx;
    return ivec2(2 * (m - j * half_nx) + ((j + color) & 1), j);
}

// red-black sweeps; omega < 0: Gauss-Seidel (grid_mg_smooth), else SOR
void sweeps(uint n, float omega)
{
    float h2 = lv_h * lv_h;
    bool even = (lv_nx & 1) == 0;
    int count = even ? (lv_nx * lv_ny) >> 1 : lv_nx * lv_ny;
    for (uint s = 0u; s < n; s++) {
        for (int color = 0; color < 2; color++) {
            for (int m = int(gl_LocalInvocationIndex); m < count; m += WG) {
                ivec2 c = colour_cell(m, color, even);
                if (((c.x + c.y) & 1) != color)
                    continue;
                vec2 nb = mg_neighbours(c.x, c.y);
                int k = cidx(c.x, c.y);
                if (omega < 0.0)
                    XVAL(k) = nb.y > 0.0 ? (nb.x - h2 * bval(k)) / nb.y : 0.0;
                else if (nb.y > 0.0)
                    XVAL(k) += omega * ((nb.x - h2 * bval(k)) / nb.y - XVAL(k));
            }
            sync();
        }
    }
}

float residual(int i, int j)
{
    vec2 n = mg_neighbours(i, j);
    int k = cidx(i, j);
    return n.y > 0.0 ? bval(k) - (n.x - n.y * XVAL(k)) / (lv_h * lv_h) : 0.0;
}

// level q's residual, restricted: level q + 1's b (mean of 4) and x = 0
void restrict_residual(int q)
{
    set_level(q);
    int cnx = lv_nx >> 1, cn = cnx * (lv_ny >> 1);
    int cx = x_offset(q + 1), cb = cx + cn;
    for (int c = int(gl_LocalInvocationIndex); c < cn; c += WG) {
        int j = c / cnx, i = c - j * cnx;
        float r00 = residual(2 * i, 2 * j), r10 = residual(2 * i + 1, 2 * j);
        float r01 = residual(2 * i, 2 * j + 1), r11 = residual(2 * i + 1, 2 * j + 1);
        sm[cb + c] = 0.25 * (r00 + r10 + r01 + r11);
        sm[cx + c] = 0.0;
    }
    sync();
}

bool cell_open(int q, int i, int j, int nx)
{
    if (grid_open)
        return true;
    return wx_at(q, j * (nx + 1) + i) + wx_at(q, j * (nx + 1) + i + 1) + wy_at(q, j * nx + i) +
               wy_at(q, (j + 1) * nx + i) > 0.0;
}

// level q += the bilinear interpolation of level q + 1's correction
void prolong(int q)
{
    set_level(q);
    int nx = lv_nx, ny = lv_ny, cnx = nx >> 1, cny = ny >> 1, cx = x_offset(q + 1);
    for (int k = int(gl_LocalInvocationIndex); k < nx * ny; k += WG) {
        int j = k / nx, i = k - j * nx;
        if (!cell_open(q, i, j, nx))
            continue;
        int I = i >> 1, J = j >> 1;
        int In = (i & 1) != 0 ? I + 1 : I - 1;
        int Jn = (j & 1) != 0 ? J + 1 : J - 1;
        In = per_x() ? wrapi(In, cnx) : clamp(In, 0, cnx - 1);
        Jn = per_y() ? wrapi(Jn, cny) : clamp(Jn, 0, cny - 1);
        int ci[4] = int[4](I, In, I, In);
        int cj[4] = int[4](J, J, Jn, Jn);
        float cw[4] = float[4](0.5625, 0.1875, 0.1875, 0.0625);
        float s = 0.0, ws = 0.0;
        for (int t = 0; t < 4; t++) {
            if (!cell_open(q + 1, ci[t], cj[t], cnx))
                continue;
            s += cw[t] * sm[cx + cj[t] * cnx + ci[t]];
            ws += cw[t];
        }
        if (ws > 0.0)
            XVAL(k) += s / ws;
    }
    sync();
}

void main()
{
    int levels = int(pc.color);
    uint pre = pc.mode & 0xffffu, post = pc.mode >> 16;
    int n0 = cells(0);
    for (int k = int(gl_LocalInvocationIndex); k < n0; k += WG)
        sm[k] = x[k];
    sync();
    for (int q = 0; q < levels - 1; q++) {
        set_level(q);
        sweeps(pre, -1.0);
        restrict_residual(q);
    }
    set_level(levels - 1);
    sweeps(pc.count, pc.a.x);
    for (int q = levels - 2; q >= 0; q--) {
        prolong(q);
        sweeps(post, -1.0);
    }
    for (int k = int(gl_LocalInvocationIndex); k < n0; k += WG)
        x[k] = sm[k];
}
