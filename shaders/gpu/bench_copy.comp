#version 450
// Bench: dst[i] = src[i] for i < count, one uvec4 per invocation: the
// device-local bandwidth that the shader cores reach.
#include "shared.h"

layout(local_size_x = VF_WG_1D) in;
layout(std430, binding = VF_BENCH_COPY_BIND_SRC) readonly buffer Src { uvec4 src[]; };
layout(std430, binding = VF_BENCH_COPY_BIND_DST) writeonly buffer Dst { uvec4 dst[]; };
VF_PUSH(vf_bench_copy_push)

void main()
{
    uint i = vf_group_linear() * VF_WG_1D + gl_LocalInvocationID.x;
    if (i < pc.count)
        dst[i] = src[i];
}
