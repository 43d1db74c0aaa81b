#version 450
// Volume, first level: each workgroup sums the excess depth
// max(eta - bed, 0) - max(-bed, 0) (depth above the rest depth; small numbers,
// so fp32 sums stay accurate), the depth and the wet cells of its block.
#include "shared.h"

layout(local_size_x = VF_HEIGHT_REDUCE_WG) in;
layout(std430, binding = VF_HEIGHT_VOL_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_VOL_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_VOL_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_VOL_BIND_PARTIAL) writeonly buffer Partial { vf_height_partial partial[]; };
VF_PUSH(vf_height_volume_push)

shared float s_e[VF_HEIGHT_REDUCE_WG];
shared float s_d[VF_HEIGHT_REDUCE_WG];
shared uint s_w[VF_HEIGHT_REDUCE_WG];

void main()
{
    uint group = vf_group_linear();
    uint lid = gl_LocalInvocationID.x;
    uint total = pc.nx * pc.ny;
    float e = 0.0, dsum = 0.0;
    uint w = 0u;
    for (uint k = 0u; k < VF_HEIGHT_REDUCE_PER_THREAD; k++) {
        uint idx = group * VF_HEIGHT_REDUCE_BLOCK + k * VF_HEIGHT_REDUCE_WG + lid;
        if (idx < total && (flags[idx] & VF_HEIGHT_SOLID) == 0u) {
            float d = eta[idx] - bed[idx];
            e += max(d, 0.0) - max(-bed[idx], 0.0);
            dsum += max(d, 0.0);
            w += d > 0.0 ? 1u : 0u;
        }
    }
    s_e[lid] = e;
    s_d[lid] = dsum;
    s_w[lid] = w;
    barrier();
    for (uint off = VF_HEIGHT_REDUCE_WG / 2u; off > 0u; off >>= 1u) {
        if (lid < off) {
            s_e[lid] += s_e[lid + off];
            s_d[lid] += s_d[lid + off];
            s_w[lid] += s_w[lid + off];
        }
        barrier();
    }
    if (lid == 0u && group < pc.partials)
        partial[group] = vf_height_partial(s_e[0], s_d[0], s_w[0], 0u);
}
