#version 450
// Resolve of the compute path: the splat's accumulators into the float
// images the filters and the composite read: the depth word's bits as the
// linear view depth (VF_SSF_DEPTH_NONE: 0, no fluid), the thickness words
// in metres. One invocation per output pixel (and thickness pixel).
#include "shared_ssf.h"
#include "ssf_common.glsl"

layout(local_size_x = VF_SSF_WG_X, local_size_y = VF_SSF_WG_Y) in;
layout(std430, binding = VF_SSF_CS_DEPTH_ACC) readonly buffer DepthAcc { uint depth_acc[]; };
layout(std430, binding = VF_SSF_CS_THICK_ACC) readonly buffer ThickAcc { uint thick_acc[]; };
layout(binding = VF_SSF_CS_DEPTH_OUT, r32f) uniform writeonly image2D depth_out;
layout(binding = VF_SSF_CS_THICK_OUT, r32f) uniform writeonly image2D thick_out;

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(fr.viewport.xy), tsize = ivec2(fr.thick_size.xy);
    if (p.x < size.x && p.y < size.y) {
        uint b = depth_acc[p.y * size.x + p.x];
        imageStore(depth_out, p, vec4(b == VF_SSF_DEPTH_NONE ? 0.0 : uintBitsToFloat(b)));
    }
    if (p.x < tsize.x && p.y < tsize.y)
        imageStore(thick_out, p, vec4(float(thick_acc[p.y * tsize.x + p.x]) * (1.0 / VF_SSF_THICK_UNITS)));
}
