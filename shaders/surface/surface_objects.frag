#version 450
// Floating objects: flat normals, sun and sky light.
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) in vec3 world;
layout(location = 1) flat in vec3 albedo;
layout(location = 0) out vec4 color;

void main()
{
    vec3 n = normalize(cross(dFdx(world), dFdy(world)));
    if (dot(n, fr.eye.xyz - world) < 0.0)
        n = -n;
    float lambert = max(dot(n, normalize(fr.sun.xyz)), 0.0);
    color = vec4(albedo * (0.4 + 0.7 * lambert), 1.0);
}
