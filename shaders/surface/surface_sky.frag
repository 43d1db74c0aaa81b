#version 450
// Background: the procedural sky along each pixel's view ray.
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main()
{
    mat4 inv = mat4(fr.inv_view_proj[0], fr.inv_view_proj[1], fr.inv_view_proj[2], fr.inv_view_proj[3]);
    vec4 far = inv * vec4(uv * 2.0 - 1.0, 1.0, 1.0);
    vec3 dir = far.xyz / far.w - fr.eye.xyz;
    color = vec4(sky_color(dir), 1.0);
}
