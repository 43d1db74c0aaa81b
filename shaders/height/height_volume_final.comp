#version 450
// Volume, second level (one workgroup): sums the partials and computes the
// relative depth change that brings the excess volume back to the target.
#include "shared.h"

layout(local_size_x = VF_HEIGHT_REDUCE_WG) in;
layout(std430, binding = VF_HEIGHT_FINAL_BIND_PARTIAL) readonly buffer Partial { vf_height_partial partial[]; };
layout(std430, binding = VF_HEIGHT_FINAL_BIND_RESULT) buffer Result { vf_height_volume_result result; };
VF_PUSH(vf_height_volume_push)

shared float s_e[VF_HEIGHT_REDUCE_WG];
shared float s_d[VF_HEIGHT_REDUCE_WG];
shared uint s_w[VF_HEIGHT_REDUCE_WG];

void main()
{
    uint lid = gl_LocalInvocationID.x;
    float e = 0.0, dsum = 0.0;
    uint w = 0u;
    for (uint k = lid; k < pc.partials; k += VF_HEIGHT_REDUCE_WG) {
        e += partial[k].excess;
        dsum += partial[k].depth;
        w += partial[k].wet;
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
    if (lid == 0u) {
        result.excess = s_e[0];
        result.depth = s_d[0];
        result.wet = s_w[0];
        // relative depth change that restores the target (bounded: never
        // empties a cell; the error of the large depth sum only scales the
        // small correction)
        result.scale = s_d[0] > 0.0 ? clamp((pc.target - s_e[0]) / s_d[0], -0.5, 0.5) : 0.0;
        result.corrections += 1u;
    }
}
