#version 450
// One Jacobi iteration of the pressure equation: x_out = (sum w x_in - h^2 b) / sum w.
#include "shared.h"
VF_PUSH(vf_grid_push)
#define XVAL(k) x_in[k]
#define WX(k) wx[k]
#define WY(k) wy[k]
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_JAC_X_IN) readonly buffer XIn { float x_in[]; };
layout(std430, binding = VF_GRID_JAC_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_JAC_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_JAC_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_JAC_X_OUT) writeonly buffer XOut { float x_out[]; };
#include "grid_mg_op.glsl"

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    vec2 n = mg_neighbours(i, j);
    int k = cidx(i, j);
    x_out[k] = n.y > 0.0 ? (n.x - pc.h * pc.h * b[k]) / n.y : 0.0;
}
