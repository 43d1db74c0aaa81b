#version 450
// Floating objects by vertex pulling: 72 vertices (two boxes) per object,
// oriented by the object's heading and tilted with the surface normal under
// it. Leaf: one thin box; duck: body and head; boat: hull and cabin;
// bulldozer (terrain): body and blade.
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) out vec3 world;
layout(location = 1) flat out vec3 albedo;

// the 36 corners of a unit cube [-0.5, 0.5]^3 as 12 triangles
const vec3 cube[8] = vec3[](vec3(-0.5, -0.5, -0.5), vec3(0.5, -0.5, -0.5), vec3(0.5, 0.5, -0.5), vec3(-0.5, 0.5, -0.5),
                            vec3(-0.5, -0.5, 0.5), vec3(0.5, -0.5, 0.5), vec3(0.5, 0.5, 0.5), vec3(-0.5, 0.5, 0.5));
const int tri[36] = int[](0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6,
                          1, 6, 5);

void main()
{
    uint k = uint(gl_VertexIndex) / 72u, part = (uint(gl_VertexIndex) % 72u) / 36u;
    vec3 c = cube[tri[gl_VertexIndex % 36]];
    vf_height_object o = objects[k];
    // box size (length along heading, width, height) and centre offset (forward, side, up), metres
    vec3 ext, off;
    surface_object_box(o, k, part, ext, off, albedo);
    // frame: up = surface normal, forward = heading projected onto the surface
    vec3 centre, fwd, side, up;
    surface_object_frame(o, centre, fwd, side, up);
    vec3 local = c * ext + off; // (forward, side, up) in metres
    vec3 wpos = centre + fwd * local.x + side * local.y + up * local.z;
    float s = world_scale();
    world = wpos * s;
    gl_Position = view_proj() * vec4(world, 1.0);
}
