#version 450
// The coarsest multigrid level solved by one workgroup: `count` red-black SOR
// sweeps (omega = a.x) on a copy of x in shared memory (nx, ny <=
// VF_GRID_COARSE_MAX), then written back.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#define XVAL(k) xs[k]
#define WX(k) wx[k]
#define WY(k) wy[k]
shared float xs[VF_GRID_COARSE_MAX * VF_GRID_COARSE_MAX];
#include "grid_common.glsl"

layout(local_size_x = VF_GRID_COARSE_WG) in;
layout(std430, binding = VF_GRID_MG_X) buffer X { float x[]; };
layout(std430, binding = VF_GRID_MG_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_MG_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_MG_WY) readonly buffer Wy { float wy[]; };
#include "grid_mg_op.glsl"

void main()
{
    int nx = NX(), n = NX() * NY();
    int lid = int(gl_LocalInvocationIndex);
    float h2 = pc.h * pc.h;
    for (int k = lid; k < n; k += VF_GRID_COARSE_WG)
        xs[k] = x[k];
    memoryBarrierShared();
    barrier();
    for (uint it = 0u; it < pc.count; it++) {
        for (int color = 0; color < 2; color++) {
            for (int k = lid; k < n; k += VF_GRID_COARSE_WG) {
                int i = k % nx, j = k / nx;
                if (((i + j) & 1) != color)
                    continue;
                vec2 nb = mg_neighbours(i, j);
                if (nb.y > 0.0)
                    xs[k] += pc.a.x * ((nb.x - h2 * b[k]) / nb.y - xs[k]);
            }
            memoryBarrierShared();
            barrier();
        }
    }
    for (int k = lid; k < n; k += VF_GRID_COARSE_WG)
        x[k] = xs[k];
}
