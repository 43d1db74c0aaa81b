#version 450
// MacCormack correction for up to 3 scalars: phi = phi^ + (phi^n - phi~) / 2,
// phi~ = phi^ at the forward trace, clamped to the range of the phi^n stencil
// of the backward trace (the limiter keeps it bounded and monotone).
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
layout(std430, binding = VF_GRID_AS_HAT0) readonly buffer H0 { float h0[]; };
layout(std430, binding = VF_GRID_AS_HAT1) readonly buffer H1 { float h1[]; };
layout(std430, binding = VF_GRID_AS_HAT2) readonly buffer H2 { float h2[]; };
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
VF_GRID_C_SAMPLE(sampleh0, h0, mask)
VF_GRID_C_SAMPLE(sampleh1, h1, mask)
VF_GRID_C_SAMPLE(sampleh2, h2, mask)

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int k = cidx(i, j);
    if (!VF_GRID_IS_FLUID(mask, k)) {
        o0[k] = 0.0;
        if (pc.count > 1u)
            o1[k] = 0.0;
        if (pc.count > 2u)
            o2[k] = 0.0;
        return;
    }
    vec2 p = (vec2(i, j) + 0.5) * pc.h;
    vf_cell_stencil bst = cell_stencil(trace(p, pc.a.x));
    vf_cell_stencil fst = cell_stencil(trace(p, -pc.a.x));
    float lo, hi, l2, h2v;
    sample0(bst, lo, hi);
    o0[k] = clamp(h0[k] + 0.5 * (s0[k] - sampleh0(fst, l2, h2v)), lo, hi);
    if (pc.count > 1u) {
        sample1(bst, lo, hi);
        o1[k] = clamp(h1[k] + 0.5 * (s1[k] - sampleh1(fst, l2, h2v)), lo, hi);
    }
    if (pc.count > 2u) {
        sample2(bst, lo, hi);
        o2[k] = clamp(h2[k] + 0.5 * (s2[k] - sampleh2(fst, l2, h2v)), lo, hi);
    }
}
