#version 450
// Injects density and temperature at a constant rate per second in the fluid
// cells whose centre lies inside the source sphere (in place): uniformly, or
// with the smooth profile of shared_grid3d.h (VF_G3_SOURCE_SMOOTH). With a
// cooling factor below 1 (b.z = exp(-cooling dt)) every fluid cell's
// temperature first relaxes towards the ambient (b.w) by that factor.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_SRC_SCAL) buffer Scal { float scal[]; };
layout(std430, binding = VF_G3_SRC_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p) || solid(p))
        return;
    int k = cidx(p);
    if (pc.b.z < 1.0)
        scal[ncells() + k] = pc.b.w + (scal[ncells() + k] - pc.b.w) * pc.b.z;
    vec3 d = cell_pos(p) - pc.a.xyz;
    if (dot(d, d) > pc.a.w * pc.a.w)
        return;
    float w = 1.0;
    if (pc.mode == VF_G3_SOURCE_SMOOTH) {
        float q = 1.0 - dot(d, d) / (pc.a.w * pc.a.w);
        w = float(VF_G3_SMOOTH_PEAK) * q * q;
    }
    scal[k] += pc.dt * pc.b.x * w;
    scal[ncells() + k] += pc.dt * pc.b.y * w;
}
