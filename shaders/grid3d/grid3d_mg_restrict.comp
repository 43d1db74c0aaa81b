#version 450
// Restriction to the coarse level (the push describes the coarse level):
// b_c = mean of the 8 fine residuals, x_c = 0.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_RST_R_F) readonly buffer Rf { float rf[]; };
layout(std430, binding = VF_G3_RST_B_C) writeonly buffer Bc { float bc[]; };
layout(std430, binding = VF_G3_RST_X_C) writeonly buffer Xc { float xc[]; };
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p))
        return;
    int fnx = 2 * int(pc.nx), fny = 2 * int(pc.ny);
    float s = 0.0;
    for (int n = 0; n < 8; n++) {
        ivec3 q = 2 * p + ivec3(n & 1, (n >> 1) & 1, (n >> 2) & 1);
        s += rf[(q.z * fny + q.y) * fnx + q.x];
    }
    bc[cidx(p)] = 0.125 * s;
    xc[cidx(p)] = 0.0;
}
