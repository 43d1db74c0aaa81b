#version 450
// Implicit viscosity (I - nu dt L) x = rhs on one velocity component's faces
// (mode 0: u, 1: v), one red-black Gauss-Seidel colour per dispatch, in place
// on x (a face's neighbours have the other colour). Faces whose pressure
// weight is not 1 (walls, solids, inflow, outflow) keep their value and act as
// Dirichlet neighbours; the sides give ghost values (no-slip: 2 g - x,
// free-slip: x). count == 0: copies rhs into x (the starting guess).
#include "shared.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_DIF_RHS) readonly buffer Rhs { float rhs[]; };
layout(std430, binding = VF_GRID_DIF_X) buffer X { float x[]; };
layout(std430, binding = VF_GRID_DIF_W) readonly buffer W { float w[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    bool is_u = pc.mode == 0u;
    // the face grid: along = the component's direction (faces 0..n), across = cells
    int W = is_u ? nx + 1 : nx, H = is_u ? ny : ny + 1;
    if (i >= W || j >= H)
        return;
    int k = j * W + i;
    if (pc.count == 0u) {
        x[k] = rhs[k];
        return;
    }
    if (((i + j) & 1) != int(pc.color) || w[k] != 1.0)
        return;
    bool pa = is_u ? per_x() : per_y(); // periodic along the component
    bool pc2 = is_u ? per_y() : per_x(); // periodic across
    int na = is_u ? nx : ny;             // cells along
    int nc = is_u ? ny : nx;             // cells across
    int ia = is_u ? i : j, ic = is_u ? j : i;
    if (pa && ia == na)
        return; // the duplicate face: written together with face 0
    float alpha = pc.a.x;
    float diag = 1.0, acc = rhs[k];
    // along: faces ia - 1 and ia + 1 (always inside for an open face)
    int am = pa ? wrapi(ia - 1, na) : ia - 1;
    int ap = pa ? wrapi(ia + 1, na) : ia + 1;
    int km = is_u ? j * W + am : am * W + i;
    int kp = is_u ? j * W + ap : ap * W + i;
    diag += 2.0 * alpha;
    acc += alpha * (x[km] + x[kp]);
    // across: rows ic - 1 and ic + 1, ghosts at the sides
    for (int s = -1; s <= 1; s += 2) {
        int cn = ic + s;
        if (cn >= 0 && cn < nc) {
            diag += alpha;
            acc += alpha * x[is_u ? cn * W + i : j * W + cn];
        } else if (pc2) {
            cn = wrapi(cn, nc);
            diag += alpha;
            acc += alpha * x[is_u ? cn * W + i : j * W + cn];
        } else {
            uint side = is_u ? (s < 0 ? VF_GRID_SIDE_BOTTOM : VF_GRID_SIDE_TOP) : (s < 0 ? VF_GRID_SIDE_LEFT : VF_GRID_SIDE_RIGHT);
            uint t = side_type(side);
            if (t == VF_GRID_BC_NOSLIP || t == VF_GRID_BC_INFLOW) {
                float g = is_u ? pc.side_u[side] : pc.side_v[side];
                diag += 2.0 * alpha;
                acc += 2.0 * alpha * g;
            }
        }
    }
    float r = acc / diag;
    x[k] = r;
    if (pa && ia == 0)
        x[is_u ? j * W + na : na * W + i] = r;
}
