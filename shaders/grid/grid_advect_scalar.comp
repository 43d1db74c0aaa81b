#version 450
// Semi-Lagrangian advection of up to 3 cell-centred scalars (dye, texture
// coordinates): RK2 trace back through the MAC velocity, bilinear sample that
// ignores solid cells. Solid cells get 0 (dye never enters a solid).
#include "shared.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_AS_U) readonly buffer U { float u[]; };
layout(std430, binding = VF_GRID_AS_V) readonly buffer V { float v[]; };
layout(std430, binding = VF_GRID_AS_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_AS_SRC0) readonly buffer S0 { float s0[]; };
layout(std430, binding = VF_GRID_AS_SRC1) readonly buffer S1 { float s1[]; };
layout(std430, binding = VF_GRID_AS_SRC2) readonly buffer S2 { float s2[]; };
layout(std430, binding = VF_GRID_AS_OUT0) writeonly buffer O0 { float o0[]; };
layout(std430, binding = VF_GRID_AS_OUT1) writeonly buffer O1 { float o1[]; };
layout(std430, binding = VF_GRID_AS_OUT2) writeonly buffer O2 { float o2[]; };

VF_GRID_U_FETCH(fu, u)
VF_GRID_V_FETCH(fv, v)
VF_GRID_U_SAMPLE(sample_u, fu)
VF_GRID_V_SAMPLE(sample_v, fv)
VF_GRID_TRACE(sample_u, sample_v)
VF_GRID_C_SAMPLE(sample0, s0, mask)
VF_GRID_C_SAMPLE(sample1, s1, mask)
VF_GRID_C_SAMPLE(sample2, s2, mask)

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int k = cidx(i, j);
    float r0 = 0.0, r1 = 0.0, r2 = 0.0, lo, hi;
    if (VF_GRID_IS_FLUID(mask, k)) {
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
