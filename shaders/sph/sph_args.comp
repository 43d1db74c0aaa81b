#version 450
// One invocation: updates the live particle count (after an emit or a
// compacting scatter), the indirect dispatch size of the per-particle passes
// (split over y beyond maxComputeWorkGroupCount[0]) and the indirect draw
// arguments a renderer may use (6 vertices x count instances).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = 1) in;
layout(std430, binding = VF_SPH_ARGS_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_ARGS_BIND_DISPATCH) writeonly buffer Dispatch { uvec4 dispatch_args; uvec4 draw_args; };
VF_PUSH(vf_sph_args_push)

void main()
{
    uint n = st.count;
    if (pc.mode == VF_SPH_ARGS_EMIT) {
        uint add = st.pending;
        n += add;
        st.next_id += add;
        st.emitted += add;
        st.pending = 0u;
    } else if (pc.mode == VF_SPH_ARGS_COMPACT) {
        uint live = start[prm.cells];
        st.removed += n - live;
        n = live;
    }
    st.count = n;
    uint groups = (n + VF_SPH_WG - 1u) / VF_SPH_WG;
    uint gx = groups, gy = 1u;
    if (groups > prm.max_groups_x) {
        gy = (groups + prm.max_groups_x - 1u) / prm.max_groups_x;
        gx = (groups + gy - 1u) / gy;
    }
    dispatch_args = uvec4(gx, gy, 1u, 0u);
    draw_args = uvec4(6u, n, 0u, 0u); // sphere impostors: 6 vertices per particle
}
