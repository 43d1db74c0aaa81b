#version 450
// MacCormack correction for up to 3 scalars: phi = phi^ + (phi^n - phi~) / 2,
// phi~ = phi^ at the forward trace, clamped to the range of the phi^n stencil
// of the backward trace (the limiter keeps it bounded and monotone).
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
    if (!VF_GRID_IS_FLUID(mask_at, k)) {
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
    o0[k] = clamp(h0_at(k) + 0.5 * (s0_at(k) - sampleh0(fst, l2, h2v)), lo, hi);
    if (pc.count > 1u) {
        sample1(bst, lo, hi);
        o1[k] = clamp(h1_at(k) + 0.5 * (s1_at(k) - sampleh1(fst, l2, h2v)), lo, hi);
    }
    if (pc.count > 2u) {
        sample2(bst, lo, hi);
        o2[k] = clamp(h2_at(k) + 0.5 * (s2_at(k) - sampleh2(fst, l2, h2v)), lo, hi);
    }
}
