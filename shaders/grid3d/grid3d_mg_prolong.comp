#version 450
// Prolongation (the push describes the fine level): x_f += the trilinear
// interpolation of the coarse correction at the fine cell centre (clamped at
// the box sides), on fluid cells.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_PRO_X_C) readonly buffer Xc { float xc[]; };
layout(std430, binding = VF_G3_PRO_MASK_F) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_G3_PRO_X_F) buffer Xf { float xf[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p) || solid(p))
        return;
    ivec3 dc = N() / 2;
    vec3 g = clamp((vec3(p) + 0.5) * 0.5 - 0.5, vec3(0.0), vec3(dc - 1));
    ivec3 i0 = min(ivec3(floor(g)), dc - 2);
    vec3 f = g - vec3(i0);
    float v[8];
    for (int n = 0; n < 8; n++) {
        ivec3 q = i0 + ivec3(n & 1, (n >> 1) & 1, (n >> 2) & 1);
        v[n] = xc[(q.z * dc.y + q.y) * dc.x + q.x];
    }
    float x00 = mix(v[0], v[1], f.x), x10 = mix(v[2], v[3], f.x);
    float x01 = mix(v[4], v[5], f.x), x11 = mix(v[6], v[7], f.x);
    xf[cidx(p)] += mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);
}
