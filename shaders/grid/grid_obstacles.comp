#version 450
// Obstacles: the solid mask and the solids' velocities for this step = the
// static mask (shapes, painted and inflow cells) plus a moving shape that
// imposes its velocity on the fluid around it.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_OBS_MASK_STATIC) readonly buffer MaskStatic { uint mask_static[]; };
layout(std430, binding = VF_GRID_OBS_SU_STATIC) readonly buffer SuStatic { float su_static[]; };
layout(std430, binding = VF_GRID_OBS_SV_STATIC) readonly buffer SvStatic { float sv_static[]; };
layout(std430, binding = VF_GRID_OBS_MASK) writeonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_OBS_SU) writeonly buffer Su { float su[]; };
layout(std430, binding = VF_GRID_OBS_SV) writeonly buffer Sv { float sv[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int k = cidx(i, j);
    uint m = mask_static[k];
    float vx = su_static[k], vy = sv_static[k];
    uint shape = uint(pc.a.w);
    if (shape != 0u) {
        vec2 p = (vec2(i, j) + 0.5) * pc.h;
        vec2 d = abs(p - pc.a.xy);
        bool inside = shape == 1u ? dot(d, d) <= pc.a.z * pc.a.z : max(d.x, d.y) <= pc.a.z;
        if (inside) {
            m = VF_GRID_CELL_SOLID;
            vx = pc.b.x;
            vy = pc.b.y;
        }
    }
    mask[k] = m;
    su[k] = vx;
    sv[k] = vy;
}
