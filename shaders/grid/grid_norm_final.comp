#version 450
// Second stage: sums `count` partials and writes stats[slot] =
// (mean, rms, count, max |x|).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)

layout(local_size_x = VF_GRID_NORM_FINAL_WG) in;
layout(std430, binding = VF_GRID_NORMF_PARTIALS) readonly buffer Partials { vec4 partials[]; };
layout(std430, binding = VF_GRID_NORMF_STATS) buffer Stats { vec4 stats[]; };

shared vec4 red[VF_GRID_NORM_FINAL_WG];

void main()
{
    uint lid = gl_LocalInvocationIndex;
    vec4 acc = vec4(0.0);
    for (uint k = lid; k < pc.count; k += VF_GRID_NORM_FINAL_WG) {
        vec4 o = partials[k];
        acc = vec4(acc.xyz + o.xyz, max(acc.w, o.w));
    }
    red[lid] = acc;
    memoryBarrierShared();
    barrier();
    for (uint s = VF_GRID_NORM_FINAL_WG / 2u; s > 0u; s >>= 1u) {
        if (lid < s) {
            vec4 o = red[lid + s];
            vec4 m = red[lid];
            red[lid] = vec4(m.xyz + o.xyz, max(m.w, o.w));
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0u) {
        vec4 t = red[0];
        float n = max(t.z, 1.0);
        stats[pc.color] = vec4(t.x / n, sqrt(t.y / n), t.z, t.w);
    }
}
