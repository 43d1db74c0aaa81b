#version 450
// Chen & Lobo's penalty pressure, eps p + div u = 0, with their explicit
// update (equations 9-11) taken in sub-steps of dtau over the substep dt:
//   u_{m+1} = u_m + dtau f - dtau grad p_m,   p_{m+1} = -div(u_{m+1}) / eps,
// where f, the convective, viscous and source terms, is what the solver's
// own passes did over the substep, (u* - u^n) / dt, spread evenly over the
// K = dt / dtau sub-steps. With div(grad p) = A p (the operator of
// grid_mg_op.glsl, the same face weights as the gradient and divergence
// passes), div u^n = -eps p_0 (the previous substep ended on
// p = -div(u) / eps) and b = div(u*) / dt, the pressure alone obeys
//   p_{m+1} = p_m + (dtau / eps) A p_m - ((dtau / eps) b + p_0 / K),
// and the velocity after the K sub-steps is u* - dtau grad S,
// S = p_0 + ... + p_{K-1}. This kernel runs pc.count of those sub-steps on p
// and on the running sum S (S_in = 0 when pc.mode has
// VF_GRID_PENALTY_FIRST); the gradient pass then applies dtau grad S and the
// divergence pass sets p = -div(u) / eps. A steady state solves
// (A - eps / dt) p = b and leaves div u = -eps p, the paper's.
//
// A workgroup keeps a region of R x R cells in shared memory (p, two
// copies: one barrier a sub-step) and each invocation C x C of its cells in
// registers (p, S, b, p_0, the face weights). Along an axis of at most R
// cells (pc.mode VF_GRID_PENALTY_FULL_X / _Y) the region is the whole axis:
// a periodic side wraps inside it and any number of sub-steps runs in one
// dispatch. Along a longer axis the region is its tile of R - 2k cells plus
// a halo of k = pc.count cells on each side (wrapped at a periodic side, 0
// outside a wall), and only the tile is written: what the region's edge
// gets wrong spreads one cell a sub-step. Cells outside the box hold 0 and
// have no open face, so they never change.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

layout(local_size_x = VF_GRID_PEN_DEFAULT_WG, local_size_y = VF_GRID_PEN_DEFAULT_WG) in;
layout(local_size_x_id = VF_GRID_SPEC_PEN_WG, local_size_y_id = VF_GRID_SPEC_PEN_WG) in;
layout(constant_id = VF_GRID_SPEC_PEN_CELLS) const int CELLS = VF_GRID_PEN_DEFAULT_CELLS;

layout(std430, binding = VF_GRID_PEN_P_IN) readonly buffer PIn { float p_in[]; };
layout(std430, binding = VF_GRID_PEN_S_IN) readonly buffer SIn { float s_in[]; };
layout(std430, binding = VF_GRID_PEN_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_PEN_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_PEN_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_PEN_P_OUT) writeonly buffer POut { float p_out[]; };
layout(std430, binding = VF_GRID_PEN_S_OUT) writeonly buffer SOut { float s_out[]; };
layout(std430, binding = VF_GRID_PEN_P0) readonly buffer P0 { float p0[]; };

const int R = int(gl_WorkGroupSize.x) * CELLS;
shared float sm[2 * R * R];

#define MAXC (VF_GRID_PEN_MAX_CELLS * VF_GRID_PEN_MAX_CELLS)

// The region along one axis: its extent (cells held), its first cell, and
// whether it is the whole axis.
struct axis_region {
    int extent, org;
    bool full;
};

axis_region region(uint bit, int n, uint group, int k)
{
    axis_region a;
    a.full = (pc.mode & bit) != 0u;
    a.extent = a.full ? n : R;
    a.org = a.full ? 0 : int(group) * (R - 2 * k) - k;
    return a;
}

// A neighbour's value in shared memory at region index q (one step off the
// cell's) of an axis whose other coordinate gives the row base.
float nb(int base, int q, int stride, axis_region a, bool periodic)
{
    if (q < 0 || q >= a.extent) {
        if (!a.full)
            q = clamp(q, 0, a.extent - 1); // the halo's edge: wrong, never reaches the tile
        else if (periodic)
            q = q < 0 ? a.extent - 1 : 0;
        else
            return 0.0; // outside a wall or an outflow side: p = 0 there
    }
    return sm[base + q * stride];
}

void main()
{
    int nx = NX(), ny = NY(), k = int(pc.count);
    bool px = per_x(), py = per_y(), first = (pc.mode & VF_GRID_PENALTY_FIRST) != 0u;
    axis_region ax = region(VF_GRID_PENALTY_FULL_X, nx, gl_WorkGroupID.x, k);
    axis_region ay = region(VF_GRID_PENALTY_FULL_Y, ny, gl_WorkGroupID.y, k);
    int wg = int(gl_WorkGroupSize.x);
    ivec2 lid = ivec2(gl_LocalInvocationID.xy);
    float pv[MAXC], sv[MAXC], bv[MAXC];
    vec4 wv[MAXC];
    ivec2 loc[MAXC], glo[MAXC];
    bool held[MAXC], inbox[MAXC];
    for (int q = 0; q < CELLS * CELLS; q++) {
        ivec2 l = lid + wg * ivec2(q % CELLS, q / CELLS);
        ivec2 g = ivec2(ax.org, ay.org) + l;
        g.x = px ? wrapi(g.x, nx) : g.x;
        g.y = py ? wrapi(g.y, ny) : g.y;
        loc[q] = l;
        glo[q] = g;
        held[q] = l.x < ax.extent && l.y < ay.extent;
        inbox[q] = held[q] && g.x >= 0 && g.x < nx && g.y >= 0 && g.y < ny;
        int c = inbox[q] ? cidx(g.x, g.y) : 0;
        pv[q] = inbox[q] ? p_in[c] : 0.0;
        sv[q] = inbox[q] && !first ? s_in[c] : 0.0;
        /* the constant part of a sub-step: (dtau / eps) b + p_0 / K */
        bv[q] = inbox[q] ? pc.a.y * b[c] + pc.a.z * p0[c] : 0.0;
        wv[q] = inbox[q] ? vec4(wx[uidx(g.x, g.y)], wx[uidx(g.x + 1, g.y)], wy[vidx(g.x, g.y)], wy[vidx(g.x, g.y + 1)])
                         : vec4(0.0);
    }
    float alpha = pc.a.x;
    for (int it = 0; it < k; it++) {
        int buf = (it & 1) * R * R;
        for (int q = 0; q < CELLS * CELLS; q++)
            if (held[q])
                sm[buf + loc[q].y * ax.extent + loc[q].x] = pv[q];
        barrier();
        for (int q = 0; q < CELLS * CELLS; q++) {
            if (!held[q])
                continue;
            int row = buf + loc[q].y * ax.extent;
            float l = nb(row, loc[q].x - 1, 1, ax, px), r = nb(row, loc[q].x + 1, 1, ax, px);
            float d = nb(buf + loc[q].x, loc[q].y - 1, ax.extent, ay, py);
            float t = nb(buf + loc[q].x, loc[q].y + 1, ax.extent, ay, py);
            vec4 w = wv[q];
            // the terms of grid_mg_op.glsl in its order
            float s = 0.0, ws = 0.0;
            s += w.x * l;
            ws += w.x;
            s += w.y * r;
            ws += w.y;
            s += w.z * d;
            ws += w.z;
            s += w.w * t;
            ws += w.w;
            float lap = s - ws * pv[q];
            sv[q] += pv[q];
            pv[q] = pv[q] + alpha * lap - bv[q];
        }
    }
    for (int q = 0; q < CELLS * CELLS; q++) {
        bool tile_x = ax.full || (loc[q].x >= k && loc[q].x < R - k);
        bool tile_y = ay.full || (loc[q].y >= k && loc[q].y < R - k);
        if (inbox[q] && tile_x && tile_y) {
            int c = cidx(glo[q].x, glo[q].y);
            p_out[c] = pv[q];
            s_out[c] = sv[q];
        }
    }
}
