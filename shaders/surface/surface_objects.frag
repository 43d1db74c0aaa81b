#version 450
// Floating objects: flat normals, sun and sky light (surface_object_shade).
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
    color = vec4(surface_object_shade(n, albedo), 1.0);
}
