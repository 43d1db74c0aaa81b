#version 450
// Sets pc.count uint words to zero (the per-cell counts before binning).
#include "shared_sph.h"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_CLEAR_BIND_DATA) writeonly buffer Data { uint data[]; };
VF_PUSH(vf_sph_clear_push)

void main()
{
    uint i = vf_group_linear() * VF_SPH_WG + gl_LocalInvocationID.x;
    if (i < pc.count)
        data[i] = 0u;
}
