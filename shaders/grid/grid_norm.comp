#version 450
// First stage of a norm over the fluid cells of a cell field (x scale): each
// workgroup reduces a tile to (sum, sum of squares, count, max |x|).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_NORM_FIELD) readonly buffer F { float field[]; };
layout(std430, binding = VF_GRID_NORM_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_NORM_PARTIALS) writeonly buffer Partials { vec4 partials[]; };

shared vec4 red[VF_GRID_WG_X * VF_GRID_WG_Y];

void main()
{
    int nx = NX(), ny = NY();
    int lx = int(gl_LocalInvocationID.x), ly = int(gl_LocalInvocationID.y);
    int bx = int(gl_WorkGroupID.x) * VF_GRID_WG_X * VF_GRID_NORM_PER;
    int by = int(gl_WorkGroupID.y) * VF_GRID_WG_Y * VF_GRID_NORM_PER;
    vec4 acc = vec4(0.0);
    for (int b = 0; b < VF_GRID_NORM_PER; b++) {
        int j = by + b * VF_GRID_WG_Y + ly;
        if (j >= ny)
            break;
        for (int a = 0; a < VF_GRID_NORM_PER; a++) {
            int i = bx + a * VF_GRID_WG_X + lx;
            if (i >= nx)
                break;
            int k = cidx(i, j);
            if (mask[k] != VF_GRID_CELL_FLUID)
                continue;
            float x = field[k] * pc.a.x;
            acc += vec4(x, x * x, 1.0, 0.0);
            acc.w = max(acc.w, abs(x));
        }
    }
    uint lid = gl_LocalInvocationIndex;
    red[lid] = acc;
    memoryBarrierShared();
    barrier();
    for (uint s = (VF_GRID_WG_X * VF_GRID_WG_Y) / 2u; s > 0u; s >>= 1u) {
        if (lid < s) {
            vec4 o = red[lid + s];
            vec4 m = red[lid];
            red[lid] = vec4(m.xyz + o.xyz, max(m.w, o.w));
        }
        memoryBarrierShared();
        barrier();
    }
    if (lid == 0u)
        partials[gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = red[0];
}
