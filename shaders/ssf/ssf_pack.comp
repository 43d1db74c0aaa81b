#version 450
// Interleaves structure-of-arrays particle positions (x[], y[], z[] and an
// optional w[]) into the vec4 positions the sphere passes read.
// Mirrors vf_ssf_pack_ref().
#include "shared_ssf.h"

layout(local_size_x = VF_SSF_WG_PACK) in;
layout(std430, binding = VF_SSF_PACK_BIND_X) readonly buffer xb { float xs[]; };
layout(std430, binding = VF_SSF_PACK_BIND_Y) readonly buffer yb { float ys[]; };
layout(std430, binding = VF_SSF_PACK_BIND_Z) readonly buffer zb { float zs[]; };
layout(std430, binding = VF_SSF_PACK_BIND_W) readonly buffer wb { float ws[]; };
layout(std430, binding = VF_SSF_PACK_BIND_OUT) writeonly buffer ob { vec4 outp[]; };
VF_PUSH(vf_ssf_pack_push)

void main()
{
    uint i = vf_group_linear() * VF_SSF_WG_PACK + gl_LocalInvocationID.x;
    if (i >= pc.count)
        return;
    outp[i] = vec4(xs[i], ys[i], zs[i], pc.has_w != 0u ? ws[i] : pc.w_const);
}
