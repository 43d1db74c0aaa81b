#version 450
// The limit of each cell: the quanta it would send through its four faces
// this substep (terrain_face_quanta without a limit) against the quanta it
// holds; when they exceed it, limit = held / sent (the update then scales
// every face the cell sends through, with a margin, so the depth never goes
// below zero), else 1. Under the CFL condition HLL with the hydrostatic
// reconstruction keeps depths positive by itself: the limit only catches
// rounding and steps beyond the condition.
#include "shared_terrain.h"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_TERRAIN_LIMIT_BIND_DEPTH) readonly buffer Depth { uint depth[]; };
layout(std430, binding = VF_TERRAIN_LIMIT_BIND_FACE_X) readonly buffer FaceX { vec4 face_x[]; };
layout(std430, binding = VF_TERRAIN_LIMIT_BIND_FACE_Y) readonly buffer FaceY { vec4 face_y[]; };
layout(std430, binding = VF_TERRAIN_LIMIT_BIND_LIMIT) writeonly buffer Limit { float limit[]; };
VF_PUSH(vf_terrain_step_push)
#include "terrain_common.glsl"

void main()
{
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    if (i >= pc.nx || j >= pc.ny)
        return;
    uint c = terrain_cell(i, j), wx = pc.nx + 1u;
    float left = face_x[j * wx + i].x, right = face_x[j * wx + i + 1u].x;
    float below = face_y[j * pc.nx + i].x, above = face_y[(j + 1u) * pc.nx + i].x;
    // what leaves: a negative flux on the left and bottom, a positive one on the right and top
    uint sent = (left < 0.0 ? terrain_face_quanta(left, pc.quanta, 1.0) : 0u) +
                (right > 0.0 ? terrain_face_quanta(right, pc.quanta, 1.0) : 0u) +
                (below < 0.0 ? terrain_face_quanta(below, pc.quanta, 1.0) : 0u) +
                (above > 0.0 ? terrain_face_quanta(above, pc.quanta, 1.0) : 0u);
    uint held = depth[c];
    limit[c] = sent > held ? float(held) / float(sent) : 1.0;
}
