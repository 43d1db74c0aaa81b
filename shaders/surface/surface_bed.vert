#version 450
// The pool: bed / terrain mesh by vertex pulling, with three rings around the
// domain (inner wall up to the rim, a flat rim top, the outer wall down to a
// foot below the deepest bed). Mesh vertex (m, k) for m in [-3, mesh_x + 2]:
// inside [0, mesh_x - 1] it samples the cells around the corner point (solid
// cells win, so obstacles stand as columns). A terrain (misc.w = 1) stands
// on a block instead: its sides go from the edge's ground down to misc.y.
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) out vec3 world;
layout(location = 1) out vec2 dom;
layout(location = 2) out float bedh;
layout(location = 3) out float solid;

void main()
{
    // an instance per row of quads; the index names the vertex (shared_height.h)
    int stride = int(VF_SURFACE_MESH_STRIDE);
    ivec2 v = ivec2(gl_VertexIndex % stride, gl_InstanceIndex + gl_VertexIndex / stride);
    ivec2 m = v - 3;
    float lx = float(fr.nx) * dom_dx(), ly = float(fr.ny) * dom_dx();
    float wall = 0.02 * max(lx, ly);
    float rim = fr.misc.y, base = -1.15 * fr.grid.w - rim;
    ivec2 mm = ivec2(fr.mesh_x, fr.mesh_y);
    // rings outside the domain: -3 outer foot, -2 outer rim, -1 inner rim (x = 0); mirrored at the far side
    vec2 p = vec2(m.x <= -2 ? -wall : m.x == -1 ? 0.0 : m.x == mm.x ? lx : m.x > mm.x ? lx + wall
                                                : float(m.x) / float(mm.x - 1) * lx,
                  m.y <= -2 ? -wall : m.y == -1 ? 0.0 : m.y == mm.y ? ly : m.y > mm.y ? ly + wall
                                                : float(m.y) / float(mm.y - 1) * ly);
    bool foot = m.x == -3 || m.y == -3 || m.x == mm.x + 2 || m.y == mm.y + 2;
    bool edge = m.x < 0 || m.y < 0 || m.x >= mm.x || m.y >= mm.y;
    float h;
    solid = 0.0;
    if (edge && terrain_style()) {
        // a terrain's block: its sides follow the ground at the edge down to the foot (misc.y)
        vec2 c = clamp(p, vec2(0.0), vec2(lx, ly)) / dom_dx();
        h = foot || m.x <= -2 || m.y <= -2 || m.x > mm.x || m.y > mm.y ? rim : bed[cell_index(int(c.x), int(c.y))];
        solid = 1.0;
    } else if (edge) {
        h = foot ? base : rim;
        solid = 1.0;
    } else {
        // the four cells around the corner point
        vec2 c = p / dom_dx();
        ivec2 i1 = ivec2(floor(c + 0.5)), i0 = i1 - 1;
        float sum = 0.0, top = -1e30;
        for (int k = 0; k < 4; k++) {
            uint ci = cell_index(k % 2 == 0 ? i0.x : i1.x, k < 2 ? i0.y : i1.y);
            sum += bed[ci];
            if (cell_solid(ci))
                top = max(top, bed[ci]);
        }
        h = top > -1e29 ? top : 0.25 * sum;
        solid = top > -1e29 ? 1.0 : 0.0;
    }
    bedh = h;
    dom = p;
    world = to_world(p, h);
    gl_Position = view_proj() * vec4(world, 1.0);
}
