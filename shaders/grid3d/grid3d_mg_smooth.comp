#version 450
// One red-black SOR half-sweep (cells with (i + j + k) % 2 == color, omega
// a.x; 1 = Gauss-Seidel) of A x = b, A x = sum_f w_f (x_nb - x) / h^2 over the six faces (weights:
// pweight). Solid cells hold 0.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_MG_X) buffer X { float x[]; };
layout(std430, binding = VF_G3_MG_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_G3_MG_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p) || ((p.x + p.y + p.z) & 1) != int(pc.color))
        return;
    int k = cidx(p);
    if (solid(p)) {
        x[k] = 0.0;
        return;
    }
    float s = 0.0, acc = 0.0;
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
    if (s > 0.0)
        x[k] = (1.0 - pc.a.x) * x[k] + pc.a.x * (acc - pc.h * pc.h * b[k]) / s;
}
