#version 450
// Removes the mean of b over the fluid cells (stats[color].x * a.x: the mean
// the norm reduction wrote, unscaled): a closed box's Neumann problem is solvable only for
// a right-hand side of zero mean.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_MEAN_B) buffer B { float b[]; };
layout(std430, binding = VF_GRID_MEAN_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_MEAN_STATS) readonly buffer Stats { vec4 stats[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int k = cidx(i, j);
    if (mask[k] == VF_GRID_CELL_FLUID)
        b[k] -= stats[pc.color].x * pc.a.x;
}
