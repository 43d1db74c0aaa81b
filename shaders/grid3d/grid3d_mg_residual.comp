#version 450
// r = b - A x at fluid cells, 0 at solid cells (A: see grid3d_mg_smooth).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_MG_X) readonly buffer X { float x[]; };
layout(std430, binding = VF_G3_MG_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_G3_MG_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_G3_MG_R) writeonly buffer R { float r[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p))
        return;
    int k = cidx(p);
    if (solid(p)) {
        r[k] = 0.0;
        return;
    }
    float s = 0.0, acc = 0.0, xc = x[k];
    for (int n = 0; n < 6; n++) {
        int a = n >> 1, dir = (n & 1) == 0 ? -1 : 1;
        float w = pweight(p, a, dir);
        if (w == 1.0) {
            ivec3 q = p;
            q[a] += dir;
            acc += x[cidx(q)];
        }
        s += w;
    }
    r[k] = b[k] - (acc - s * xc) / (pc.h * pc.h);
}
