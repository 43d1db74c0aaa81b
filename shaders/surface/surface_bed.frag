#version 450
// Pool floor, terrain, walls and obstacles (surface_common.glsl's
// surface_bed_shade): procedural texture, Lambert sun and sky light, flat
// normals from screen-space derivatives.
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) in vec3 world;
layout(location = 1) in vec2 dom;
layout(location = 2) in float bedh;
layout(location = 3) in float solid;
layout(location = 0) out vec4 color;

void main()
{
    vec3 n = normalize(cross(dFdx(world), dFdy(world)));
    if (dot(n, fr.eye.xyz - world) < 0.0)
        n = -n;
    color = vec4(surface_bed_shade(n, dom, bedh, solid), 1.0);
}
