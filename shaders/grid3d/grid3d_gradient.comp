#version 450
// Projection: vel -= dt grad p on the open faces and on outflow sides (p = 0
// half a cell outside, the weight-2 face of the pressure operator). Faces on
// walls, inflow sides and solids keep their value. In place.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_GRAD_VEL) buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_GRAD_P) readonly buffer P { float pr[]; };
layout(std430, binding = VF_G3_GRAD_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    for (int c = 0; c < 3; c++) {
        if (!in_faces(c, p))
            continue;
        int kind = face_kind(c, p);
        ivec3 q = p;
        q[c] -= 1;
        float g;
        if (kind == 0) {
            g = (pr[cidx(p)] - pr[cidx(q)]) / pc.h;
        } else if (kind == 1 && side_type(face_side(c, p)) == VF_G3_BC_OUTFLOW) {
            g = p[c] == 0 ? 2.0 * pr[cidx(p)] / pc.h : -2.0 * pr[cidx(q)] / pc.h;
        } else {
            continue;
        }
        vel[fidx(c, p)] -= pc.a.x * g;
    }
}
