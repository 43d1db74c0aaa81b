#version 450
// The coarsest multigrid level: `mode` red-black SOR sweeps (omega a.x) of
// A x = b (A: see grid3d_mg_smooth) in one workgroup, on shared-memory copies
// of x, b and the mask (at most VF_G3_COARSE_CELLS cells; the host checks).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(local_size_x = VF_G3_COARSE_WG) in;
layout(std430, binding = VF_G3_MG_X) buffer X { float x[]; };
layout(std430, binding = VF_G3_MG_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_G3_MG_MASK) readonly buffer Mask { uint mask[]; };
#include "grid3d_common.glsl"

shared float sx[VF_G3_COARSE_CELLS];
shared float sb[VF_G3_COARSE_CELLS];
shared uint sm[VF_G3_COARSE_CELLS];

float sweight(ivec3 p, int a, int dir)
{
    ivec3 q = p;
    q[a] += dir;
    if ((q[a] < 0 || q[a] >= N()[a]) && !wraps(a))
        return side_type(uint(2 * a) + (dir < 0 ? 0u : 1u)) == VF_G3_BC_OUTFLOW ? 2.0 : 0.0;
    return sm[cidx(q)] != VF_G3_CELL_FLUID ? 0.0 : 1.0;
}

void main()
{
    int nc = ncells(), lid = int(gl_LocalInvocationIndex), nx = int(pc.nx), ny = int(pc.ny);
    for (int k = lid; k < nc; k += VF_G3_COARSE_WG) {
        sx[k] = x[k];
        sb[k] = b[k];
        sm[k] = mask[k];
    }
    barrier();
    float h2 = pc.h * pc.h, w = pc.a.x;
    for (uint it = 0u; it < pc.mode; it++) {
        for (int color = 0; color < 2; color++) {
            for (int k = lid; k < nc; k += VF_G3_COARSE_WG) {
                ivec3 p = ivec3(k % nx, (k / nx) % ny, k / (nx * ny));
                if (((p.x + p.y + p.z) & 1) != color)
                    continue;
                if (sm[k] != VF_G3_CELL_FLUID) {
                    sx[k] = 0.0;
                    continue;
                }
                float s = 0.0, acc = 0.0;
                for (int n = 0; n < 6; n++) {
                    int a = n >> 1, dir = (n & 1) == 0 ? -1 : 1;
                    float wt = sweight(p, a, dir);
                    if (wt == 1.0) {
                        ivec3 q = p;
                        q[a] += dir;
                        acc += sx[cidx(q)];
                    }
                    s += wt;
                }
                if (s > 0.0)
                    sx[k] = (1.0 - w) * sx[k] + w * (acc - h2 * sb[k]) / s;
            }
            barrier();
        }
    }
    for (int k = lid; k < nc; k += VF_G3_COARSE_WG)
        x[k] = sx[k];
}
