#version 450
// Implicit viscosity (I - nu dt L) x = rhs on both velocity components' faces
// (thread (i, j) handles u face (i, j) and v face (i, j)), one red-black SOR
// colour per dispatch (omega = a.y), in place on x (a face's neighbours have
// the other colour). Faces whose pressure weight is not 1 (walls, solids,
// inflow, outflow) keep their value and act as Dirichlet neighbours; the sides
// give ghost values (no-slip: 2 g - x, free-slip: x). count == 0: copies rhs
// into x (the starting guess).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_DIF_RHS_U) readonly buffer RhsU { float rhs_u[]; };
layout(std430, binding = VF_GRID_DIF_X_U) buffer XU { float x_u[]; };
layout(std430, binding = VF_GRID_DIF_W_U) readonly buffer WU { float w_u[]; };
layout(std430, binding = VF_GRID_DIF_RHS_V) readonly buffer RhsV { float rhs_v[]; };
layout(std430, binding = VF_GRID_DIF_X_V) buffer XV { float x_v[]; };
layout(std430, binding = VF_GRID_DIF_W_V) readonly buffer WV { float w_v[]; };

float X(bool is_u, int k)
{
    return is_u ? x_u[k] : x_v[k];
}

void sweep(bool is_u, int i, int j)
{
    int nx = NX(), ny = NY();
    int W = is_u ? nx + 1 : nx;
    int k = j * W + i;
    if (pc.count == 0u) {
        if (is_u)
            x_u[k] = rhs_u[k];
        else
            x_v[k] = rhs_v[k];
        return;
    }
    if (((i + j) & 1) != int(pc.color) || (is_u ? w_u[k] : w_v[k]) != 1.0)
        return;
    bool pa = is_u ? per_x() : per_y(); // periodic along the component
    bool pc2 = is_u ? per_y() : per_x(); // periodic across
    int na = is_u ? nx : ny;             // cells along
    int nc = is_u ? ny : nx;             // cells across
    int ia = is_u ? i : j, ic = is_u ? j : i;
    if (pa && ia == na)
        return; // the duplicate face: written together with face 0
    float alpha = pc.a.x;
    float diag = 1.0, acc = is_u ? rhs_u[k] : rhs_v[k];
    // along: faces ia - 1 and ia + 1 (always inside for an open face)
    int am = pa ? wrapi(ia - 1, na) : ia - 1;
    int ap = pa ? wrapi(ia + 1, na) : ia + 1;
    diag += 2.0 * alpha;
    acc += alpha * (X(is_u, is_u ? j * W + am : am * W + i) + X(is_u, is_u ? j * W + ap : ap * W + i));
    // across: rows ic - 1 and ic + 1, ghosts at the sides
    for (int s = -1; s <= 1; s += 2) {
        int cn = ic + s;
        if (cn >= 0 && cn < nc) {
            diag += alpha;
            acc += alpha * X(is_u, is_u ? cn * W + i : j * W + cn);
        } else if (pc2) {
            cn = wrapi(cn, nc);
            diag += alpha;
            acc += alpha * X(is_u, is_u ? cn * W + i : j * W + cn);
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
    float old = X(is_u, k);
    float r = old + pc.a.y * (acc / diag - old);
    int kd = is_u ? j * W + na : na * W + i; // the duplicate of face 0
    if (is_u) {
        x_u[k] = r;
        if (pa && ia == 0)
            x_u[kd] = r;
    } else {
        x_v[k] = r;
        if (pa && ia == 0)
            x_v[kd] = r;
    }
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    if (i <= nx && j < ny)
        sweep(true, i, j);
    if (i < nx && j <= ny)
        sweep(false, i, j);
}
