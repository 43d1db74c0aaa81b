#version 450
// Restriction to a coarse level (nx, ny = coarse cells): coarse b = mean of
// the 4 fine residuals, coarse x = 0.
#include "shared.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_RST_R_F) readonly buffer RF { float rf[]; };
layout(std430, binding = VF_GRID_RST_B_C) writeonly buffer BC { float bc[]; };
layout(std430, binding = VF_GRID_RST_X_C) writeonly buffer XC { float xc[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int fnx = 2 * NX();
    int f = 2 * j * fnx + 2 * i;
    bc[cidx(i, j)] = 0.25 * (rf[f] + rf[f + 1] + rf[f + fnx] + rf[f + fnx + 1]);
    xc[cidx(i, j)] = 0.0;
}
