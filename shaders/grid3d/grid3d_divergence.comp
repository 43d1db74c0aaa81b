#version 450
// out = a.x * div(vel) at fluid cells (a.x = 1/dt: the pressure right-hand
// side; 1: the divergence itself), 0 at solid cells.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_DIV_VEL) readonly buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_DIV_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_G3_DIV_OUT) writeonly buffer Out { float outv[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p))
        return;
    float d = 0.0;
    if (!solid(p)) {
        for (int c = 0; c < 3; c++) {
            ivec3 q = p;
            q[c] += 1;
            d += vel[fidx(c, q)] - vel[fidx(c, p)];
        }
        d *= pc.a.x / pc.h;
    }
    outv[cidx(p)] = d;
}
