#version 450
// Paints a disc into the static obstacle mask: solid cells with an imposed
// velocity (a.w = 1: walls or inflow cells) or fluid again (a.w = 0).
// a = (cx, cy, radius, solid), b = (vx, vy, -, -).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_PAINT_MASK_STATIC) buffer MaskStatic { uint mask_static[]; };
layout(std430, binding = VF_GRID_PAINT_SU_STATIC) buffer SuStatic { float su_static[]; };
layout(std430, binding = VF_GRID_PAINT_SV_STATIC) buffer SvStatic { float sv_static[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    vec2 d = (vec2(i, j) + 0.5) * pc.h - pc.a.xy;
    if (dot(d, d) > pc.a.z * pc.a.z)
        return;
    int k = cidx(i, j);
    bool solid = pc.a.w != 0.0;
    mask_static[k] = solid ? VF_GRID_CELL_SOLID : VF_GRID_CELL_FLUID;
    su_static[k] = solid ? pc.b.x : 0.0;
    sv_static[k] = solid ? pc.b.y : 0.0;
}
