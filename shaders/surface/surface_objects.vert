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
    float sz = o.size;
    // box size (length along heading, width, height) and centre offset (forward, up), metres
    vec3 ext, off;
    if (o.kind == VF_HEIGHT_OBJ_LEAF) {
        ext = part == 0u ? vec3(sz, 0.6 * sz, 0.04 * sz) : vec3(0.0);
        off = vec3(0.0, 0.0, 0.02 * sz);
        albedo = (k & 1u) != 0u ? vec3(0.85, 0.42, 0.08) : vec3(0.72, 0.62, 0.10); // autumn leaves
    } else if (o.kind == VF_HEIGHT_OBJ_DUCK) {
        ext = part == 0u ? vec3(sz, 0.6 * sz, 0.45 * sz) : vec3(0.32 * sz, 0.3 * sz, 0.32 * sz);
        off = part == 0u ? vec3(0.0, 0.0, 0.12 * sz) : vec3(0.38 * sz, 0.0, 0.5 * sz);
        albedo = part == 0u ? vec3(1.0, 0.82, 0.08) : vec3(1.0, 0.75, 0.05);
    } else if (o.kind == VF_HEIGHT_OBJ_DOZER) { // the terrain's bulldozer: body and blade
        ext = part == 0u ? vec3(sz, 0.6 * sz, 0.45 * sz) : vec3(0.1 * sz, 0.9 * sz, 0.3 * sz);
        off = part == 0u ? vec3(0.0, 0.0, 0.22 * sz) : vec3(0.55 * sz, 0.0, 0.15 * sz);
        albedo = part == 0u ? vec3(0.95, 0.68, 0.08) : vec3(0.3, 0.3, 0.32);
    } else {
        ext = part == 0u ? vec3(sz, 0.38 * sz, 0.22 * sz) : vec3(0.32 * sz, 0.26 * sz, 0.2 * sz);
        off = part == 0u ? vec3(0.0, 0.0, 0.04 * sz) : vec3(-0.12 * sz, 0.0, 0.25 * sz);
        albedo = part == 0u ? vec3(0.92, 0.92, 0.95) : vec3(0.80, 0.16, 0.10);
    }
    // frame: up = surface normal, forward = heading projected onto the surface
    vec2 pos = vec2(o.x, o.y);
    float e = dom_dx();
    float gx = (sample_eta(pos + vec2(e, 0.0)) - sample_eta(pos - vec2(e, 0.0))) / (2.0 * e);
    float gy = (sample_eta(pos + vec2(0.0, e)) - sample_eta(pos - vec2(0.0, e))) / (2.0 * e);
    vec3 up = normalize(vec3(-gx, 1.0, -gy));                 // world axes (x, up, z = domain y)
    vec3 fwd = vec3(cos(o.heading), 0.0, sin(o.heading));
    fwd = normalize(fwd - up * dot(fwd, up));
    vec3 side = cross(up, fwd);
    vec3 local = c * ext + off;                               // (forward, side, up) in metres
    vec3 wpos = vec3(pos.x, o.z, pos.y) + fwd * local.x + side * local.y + up * local.z;
    float s = world_scale();
    world = wpos * s;
    gl_Position = view_proj() * vec4(world, 1.0);
}
