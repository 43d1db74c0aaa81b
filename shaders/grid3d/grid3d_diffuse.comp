#version 450
// Implicit viscosity: one red-black Gauss-Seidel half-sweep (faces with
// (i + j + k) % 2 == color) of (I - a L) x = rhs per component on the open
// faces, a = nu dt / h^2. Across a side of the box the tangential ghost face
// mirrors x (free-slip, outflow) or negates it (no-slip, inflow); faces
// touching solids hold 0 (set by the boundary pass).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_DIF_RHS) readonly buffer Rhs { float rhs[]; };
layout(std430, binding = VF_G3_DIF_X) buffer X { float x[]; };
layout(std430, binding = VF_G3_DIF_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (((p.x + p.y + p.z) & 1) != int(pc.color))
        return;
    float a = pc.a.x;
    for (int c = 0; c < 3; c++) {
        if (!in_faces(c, p) || face_kind(c, p) != 0)
            continue;
        int k = fidx(c, p);
        float self = x[k], sum = 0.0;
        for (int n = 0; n < 6; n++) {
            int ax = n >> 1, dir = (n & 1) == 0 ? -1 : 1;
            ivec3 q = p;
            q[ax] += dir;
            if (in_faces(c, q) || wraps(ax)) { /* fidx wraps a periodic axis */
                sum += x[fidx(c, q)];
            } else {
                uint t = side_type(uint(2 * ax) + (dir < 0 ? 0u : 1u));
                sum += (t == VF_G3_BC_FREESLIP || t == VF_G3_BC_OUTFLOW) ? self : -self;
            }
        }
        x[k] = (rhs[k] + a * sum) / (1.0 + 6.0 * a);
    }
}
