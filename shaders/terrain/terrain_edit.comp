#version 450
// Changes of the ground, once per frame, in place:
//  - the bulldozer's blade cuts the ground down to blade_level inside a
//    rectangle (half_len along its travel, half_width across) at its place;
//  - the pointer's brush raises (brush_delta > 0) or digs (< 0) the ground
//    by brush_delta (1 - r^2 / R^2)^2 within radius R.
// The water depth of every cell stays as it is: water on changed ground
// moves with it, and flows once the surface is uneven. The invocation of
// the blade's cell also puts the bulldozer (object 0) on its new ground.
#include "shared_terrain.h"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_TERRAIN_EDIT_BIND_BED) buffer Bed { float bed[]; };
layout(std430, binding = VF_TERRAIN_EDIT_BIND_OBJECTS) buffer Objects { vf_height_object objects[]; };
VF_PUSH(vf_terrain_edit_push)

void main()
{
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    if (i >= pc.nx || j >= pc.ny)
        return;
    uint c = j * pc.nx + i;
    float x = (float(i) + 0.5) * pc.dx, y = (float(j) + 0.5) * pc.dx;
    float b = bed[c];
    if ((pc.flags & VF_TERRAIN_EDIT_BLADE) != 0u) {
        float rx = x - pc.blade_x, ry = y - pc.blade_y;
        float along = rx * pc.blade_cos + ry * pc.blade_sin, across = ry * pc.blade_cos - rx * pc.blade_sin;
        if (abs(along) <= pc.blade_half_len && abs(across) <= pc.blade_half_width)
            b = min(b, pc.blade_level);
    }
    if ((pc.flags & VF_TERRAIN_EDIT_BRUSH) != 0u) {
        float rx = x - pc.brush_x, ry = y - pc.brush_y;
        float s = 1.0 - (rx * rx + ry * ry) / (pc.brush_radius * pc.brush_radius);
        if (s > 0.0)
            b += pc.brush_delta * s * s;
    }
    bed[c] = b;
    uint bi = min(uint(max(pc.blade_x / pc.dx, 0.0)), pc.nx - 1u), bj = min(uint(max(pc.blade_y / pc.dx, 0.0)), pc.ny - 1u);
    if ((pc.flags & VF_TERRAIN_EDIT_DOZER) != 0u && i == bi && j == bj)
        objects[0] = vf_height_object(pc.blade_x, pc.blade_y, max(b, pc.blade_level), atan(pc.blade_sin, pc.blade_cos),
                                      0.0, 0.0, pc.dozer_size, VF_HEIGHT_OBJ_DOZER);
}
