#version 450
// Self-test: out[i] = 3 * i + 1 for i < count (checks dispatch_1d indexing).
#include "shared.h"

layout(local_size_x = VF_WG_1D) in;
layout(std430, binding = VF_SELFTEST_BIND_OUT) writeonly buffer Out { uint outv[]; };
VF_PUSH(vf_selftest_push)

void main()
{
    uint i = vf_group_linear() * VF_WG_1D + gl_LocalInvocationID.x;
    if (i < pc.width)
        outv[i] = 3u * i + 1u;
}
