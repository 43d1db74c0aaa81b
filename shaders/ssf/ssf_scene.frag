#version 450
// Scene pass: ray-casts the procedural scene per pixel (ssf_scene.glsl) into
// linear colour and writes the hit's depth, so the fluid passes can
// depth-test against it.
#include "shared_ssf.h"
#include "ssf_common.glsl"

#define SSF_FLOOR_FOOTPRINT(uv, frag) fwidth(uv)
#include "ssf_scene.glsl"

layout(location = 0) out vec4 out_color;

void main()
{
    float depth;
    vec3 color = ssf_scene_cast(gl_FragCoord.xy, depth);
    gl_FragDepth = depth;
    out_color = vec4(color, 1.0);
}
