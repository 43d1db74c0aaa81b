#version 450
// Pool floor, terrain, walls and obstacles: procedural texture, Lambert sun
// and sky light, flat normals from screen-space derivatives.
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
    vec3 base = terrain_style() ? (solid > 0.5 ? vec3(0.42, 0.34, 0.25) : terrain_color(dom, abs(n.y)))
                                : floor_color(dom, bedh, solid > 0.5);
    float lambert = max(dot(n, normalize(fr.sun.xyz)), 0.0);
    vec3 c = base * (0.35 + 0.75 * lambert) ;
    color = vec4(c, 1.0);
}
