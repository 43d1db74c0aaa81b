#version 450
// Face velocities fixed by the boundary: faces touching a solid cell get 0
// (static obstacles); faces on a wall side get 0, on an inflow side the
// inflow speed, on an outflow side the value of the next face inside (zero
// gradient; 0 when that face touches a solid). On a periodic axis the face on
// the far side (index n) takes the value of face 0, the same face (0 when it
// touches a solid). In place.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_BND_VEL) buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_BND_MASK) readonly buffer Mask { uint mask[]; };
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
        if (wraps(c) && p[c] == N()[c]) {
            ivec3 q = p;
            q[c] = 0;
            vel[fidx(c, p)] = kind == 0 ? vel[fidx(c, q)] : 0.0;
            continue;
        }
        if (kind == 0)
            continue;
        float r = 0.0;
        if (kind == 1) {
            uint s = face_side(c, p);
            uint t = side_type(s);
            if (t == VF_G3_BC_INFLOW) {
                r = inflow_normal(s);
            } else if (t == VF_G3_BC_OUTFLOW) {
                ivec3 q = p;
                q[c] += p[c] == 0 ? 1 : -1;
                r = face_kind(c, q) == 0 ? vel[fidx(c, q)] : 0.0;
            }
        }
        vel[fidx(c, p)] = r;
    }
}
