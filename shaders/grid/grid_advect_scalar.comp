#version 450
// Semi-Lagrangian advection of up to 3 cell-centred scalars (dye, texture
// coordinates): RK2 trace back through the MAC velocity, bilinear sample that
// ignores solid cells. Solid cells get 0 (dye never enters a solid).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_advect.glsl"

VF_GRID_LOCAL

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int k = cidx(i, j);
    float r0 = 0.0, r1 = 0.0, r2 = 0.0, lo, hi;
    if (VF_GRID_IS_FLUID(mask_at, k)) {
        vf_cell_stencil st = cell_stencil(trace((vec2(i, j) + 0.5) * pc.h, pc.a.x));
        r0 = sample0(st, lo, hi);
        if (pc.count > 1u)
            r1 = sample1(st, lo, hi);
        if (pc.count > 2u)
            r2 = sample2(st, lo, hi);
    }
    o0[k] = r0;
    if (pc.count > 1u)
        o1[k] = r1;
    if (pc.count > 2u)
        o2[k] = r2;
}
