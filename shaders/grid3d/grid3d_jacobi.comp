#version 450
// One weighted Jacobi iteration of A x = b (A: see grid3d_mg_smooth):
// x_out = (1 - omega) x + omega (sum_f w_f x_nb - h^2 b) / sum_f w_f.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_JAC_X_IN) readonly buffer X { float x[]; };
layout(std430, binding = VF_G3_JAC_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_G3_JAC_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_G3_JAC_X_OUT) writeonly buffer XOut { float xo[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p))
        return;
    int k = cidx(p);
    float s = 0.0, acc = 0.0;
    if (!solid(p)) {
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
    }
    xo[k] = s > 0.0 ? (1.0 - pc.a.x) * x[k] + pc.a.x * (acc - pc.h * pc.h * b[k]) / s : 0.0;
}
