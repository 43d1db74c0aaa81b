#version 450
// Copies the scene's linear colour into the output target (encoding sRGB
// when the target is UNORM): the backdrop the fluid or particles go over.
#include "shared_ssf.h"
#include "ssf_common.glsl"

layout(binding = VF_SSF_BIND_BACKGROUND) uniform sampler2D scene_color;
layout(location = 0) out vec4 out_color;

void main()
{
    vec3 c = texelFetch(scene_color, ivec2(gl_FragCoord.xy), 0).rgb;
    out_color = vec4(ssf_output(c), 1.0);
}
