#version 450
// Self-advection of the MAC velocity. mode 0 (semi-Lagrangian): each open face
// traces back through VEL with RK2 and samples SRC (= VEL) trilinearly.
// mode 1 (MacCormack, Selle et al. 2008): SRC holds the semi-Lagrangian
// result; out = SRC + (VEL - SRC traced forward) / 2, clamped to the range of
// the 8 values of VEL around the departure point (the limiter). Faces on the
// box sides or touching solids are copied (the boundary pass sets them).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_AV_VEL) readonly buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_AV_SRC) readonly buffer Src { float src[]; };
layout(std430, binding = VF_G3_AV_OUT) writeonly buffer Out { float outv[]; };
layout(std430, binding = VF_G3_AV_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL
G3_FACE_SAMPLER(sample_vel, vel)
G3_FACE_SAMPLER(sample_src, src)
G3_TRACE(sample_vel)

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    for (int c = 0; c < 3; c++) {
        if (!in_faces(c, p))
            continue;
        int k = fidx(c, p);
        if (face_kind(c, p) != 0) {
            outv[k] = vel[k];
            continue;
        }
        vec3 x = face_pos(c, p);
        float lo, hi, r;
        if (pc.mode == 0u) {
            r = sample_src(c, trace(x, pc.a.x), lo, hi);
        } else {
            sample_vel(c, trace(x, pc.a.x), lo, hi);
            float l2, h2;
            float back = sample_src(c, trace(x, -pc.a.x), l2, h2);
            r = clamp(src[k] + 0.5 * (vel[k] - back), lo, hi);
        }
        outv[k] = r;
    }
}
