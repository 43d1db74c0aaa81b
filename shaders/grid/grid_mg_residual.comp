#version 450
// Residual r = b - A x of the pressure equation on one level (0 in cells with
// no open face).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#define XVAL(k) x[k]
#define WX(k) wx[k]
#define WY(k) wy[k]
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_MG_X) readonly buffer X { float x[]; };
layout(std430, binding = VF_GRID_MG_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_MG_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_MG_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_MG_R) writeonly buffer R { float r[]; };
#include "grid_mg_op.glsl"

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    vec2 n = mg_neighbours(i, j);
    int k = cidx(i, j);
    r[k] = n.y > 0.0 ? b[k] - (n.x - n.y * x[k]) / (pc.h * pc.h) : 0.0;
}
