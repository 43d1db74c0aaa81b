#version 450
// Divergence of the MAC velocity per fluid cell, times a scale (1/dt for the
// right-hand side of the pressure solve, 1 to measure); 0 in solid cells.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_DIV_U) readonly buffer U { float u[]; };
layout(std430, binding = VF_GRID_DIV_V) readonly buffer V { float v[]; };
layout(std430, binding = VF_GRID_DIV_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_DIV_OUT) writeonly buffer Div { float div[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int k = cidx(i, j);
    float d = 0.0;
    if (mask[k] == VF_GRID_CELL_FLUID)
        d = (u[uidx(i + 1, j)] - u[uidx(i, j)] + v[vidx(i, j + 1)] - v[vidx(i, j)]) / pc.h;
    div[k] = d * pc.a.x;
}
