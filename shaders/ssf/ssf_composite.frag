#version 450
// Composite (raster pass): the scene's colour was drawn first
// (ssf_background.frag); this pass shades the smoothed fluid surface over it
// (ssf_composite.glsl) and writes its depth, tested against the scene's
// depth buffer so floor and tank edges in front of the fluid stay in front.
#include "shared_ssf.h"
#include "ssf_common.glsl"

#define SSF_COMPOSITE_BIND(name) VF_SSF_BIND_##name
#include "ssf_composite.glsl"

layout(location = 0) out vec4 out_color;

void main()
{
    vec3 c;
    float depth;
    if (!ssf_composite_shade(ivec2(gl_FragCoord.xy), gl_FragCoord.xy, c, depth))
        discard;
    out_color = vec4(ssf_output(c), 1.0);
    gl_FragDepth = depth;
}
