#version 450
// Residual and restriction in one pass: each coarse cell (i, j) computes the
// residual r = b - A x of its 4 fine cells (as grid_mg_residual, 0 in cells
// with no open face) and stores their mean as the coarse b, and coarse x = 0
// (as grid_mg_restrict). The push constants are the FINE level's; the
// dispatch covers the coarse cells (fine nx / 2 by ny / 2, both even).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#define XVAL(k) x[k]
#define WX(k) wx[k]
#define WY(k) wy[k]
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_RR_X_F) readonly buffer X { float x[]; };
layout(std430, binding = VF_GRID_RR_B_F) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_RR_WX_F) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_RR_WY_F) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_RR_B_C) writeonly buffer BC { float bc[]; };
layout(std430, binding = VF_GRID_RR_X_C) writeonly buffer XC { float xc[]; };
#include "grid_mg_op.glsl"

float residual(int i, int j)
{
    vec2 n = mg_neighbours(i, j);
    int k = cidx(i, j);
    return n.y > 0.0 ? b[k] - (n.x - n.y * x[k]) / (pc.h * pc.h) : 0.0;
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int cnx = NX() / 2;
    if (i >= cnx || j >= NY() / 2)
        return;
    float r00 = residual(2 * i, 2 * j), r10 = residual(2 * i + 1, 2 * j);
    float r01 = residual(2 * i, 2 * j + 1), r11 = residual(2 * i + 1, 2 * j + 1);
    int c = j * cnx + i;
    bc[c] = 0.25 * (r00 + r10 + r01 + r11);
    xc[c] = 0.0;
}
