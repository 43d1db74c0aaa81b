#version 450
// Volume, correction: changes the depth of every wet cell by the fraction the
// final pass computed (eta^(n-1) by the same amount under ADI, so no velocity
// is created).
#include "shared.h"

layout(local_size_x = VF_WG_1D) in;
layout(std430, binding = VF_HEIGHT_VOL_BIND_ETA) buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_VOL_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_VOL_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_APPLY_BIND_RESULT) readonly buffer Result { vf_height_volume_result result; };
layout(std430, binding = VF_HEIGHT_APPLY_BIND_PREV) buffer Prev { float prev[]; };
VF_PUSH(vf_height_volume_push)

void main()
{
    uint idx = vf_group_linear() * VF_WG_1D + gl_LocalInvocationID.x;
    if (idx >= pc.nx * pc.ny || (flags[idx] & VF_HEIGHT_SOLID) != 0u)
        return;
    float e = eta[idx], b = bed[idx];
    if (e - b <= 0.0)
        return;
    float en = e + result.scale * (e - b);
    eta[idx] = en;
    if ((pc.flags & VF_HEIGHT_DISTURB_PREV) != 0u)
        prev[idx] += en - e;
}
