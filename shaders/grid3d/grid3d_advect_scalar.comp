#version 450
// Advection of density and temperature (both channels) through VEL.
// mode 0 (semi-Lagrangian): out = SRC at the RK2 departure point.
// mode 1 (MacCormack): HAT holds the semi-Lagrangian result; out = HAT +
// (SRC - HAT traced forward) / 2 clamped to the range of the 8 values of SRC
// around the departure point. Solid cells get 0.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_AS_VEL) readonly buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_AS_SRC) readonly buffer Src { float src[]; };
layout(std430, binding = VF_G3_AS_HAT) readonly buffer Hat { float hat[]; };
layout(std430, binding = VF_G3_AS_OUT) writeonly buffer Out { float outv[]; };
layout(std430, binding = VF_G3_AS_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL
G3_FACE_SAMPLER(sample_vel, vel)
G3_CELL_SAMPLER(sample_src, src)
G3_CELL_SAMPLER(sample_hat, hat)
G3_TRACE(sample_vel)

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p))
        return;
    int k = cidx(p), nc = ncells();
    if (solid(p)) {
        outv[k] = 0.0;
        outv[nc + k] = 0.0;
        return;
    }
    vec3 x = cell_pos(p);
    vec3 xb = trace(x, pc.a.x);
    vec3 xf = pc.mode == 0u ? x : trace(x, -pc.a.x);
    for (int ch = 0; ch < 2; ch++) {
        float lo, hi, r;
        r = sample_src(ch, xb, lo, hi);
        if (pc.mode != 0u) {
            float l2, h2;
            float back = sample_hat(ch, xf, l2, h2);
            r = clamp(hat[ch * nc + k] + 0.5 * (src[ch * nc + k] - back), lo, hi);
        }
        outv[ch * nc + k] = r;
    }
}
