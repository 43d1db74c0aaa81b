#version 450
// Buoyancy on the open v faces, v += dt (alpha (T - ambient) - beta rho) with
// T and rho averaged over the two cells, plus an optional Gaussian push
// c.xyz exp(-|x - b.xyz|^2 / b.w^2) on every open face (the viewer's mouse).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_BUOY_VEL) buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_BUOY_SCAL) readonly buffer Scal { float scal[]; };
layout(std430, binding = VF_G3_BUOY_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    for (int c = 0; c < 3; c++) {
        if (!in_faces(c, p) || face_kind(c, p) != 0)
            continue;
        float acc = 0.0;
        if (c == 1) {
            ivec3 q = p - ivec3(0, 1, 0);
            int k0 = cidx(q), k1 = cidx(p), nc = ncells();
            float t = 0.5 * (scal[nc + k0] + scal[nc + k1]);
            float rho = 0.5 * (scal[k0] + scal[k1]);
            acc += pc.a.x * (t - pc.a.z) - pc.a.y * rho;
        }
        if (pc.b.w > 0.0) {
            vec3 d = face_pos(c, p) - pc.b.xyz;
            acc += pc.c[c] * exp(-dot(d, d) / (pc.b.w * pc.b.w));
        }
        vel[fidx(c, p)] += pc.dt * acc;
    }
}
