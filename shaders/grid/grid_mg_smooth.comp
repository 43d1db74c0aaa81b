#version 450
// One red-black Gauss-Seidel colour of the pressure equation A x = b on one
// multigrid level, in place (a cell's neighbours have the other colour).
// Cells with no open face (solid) keep x = 0.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#define XVAL(k) x[k]
#define WX(k) wx[k]
#define WY(k) wy[k]
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_MG_X) buffer X { float x[]; };
layout(std430, binding = VF_GRID_MG_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_MG_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_MG_WY) readonly buffer Wy { float wy[]; };
#include "grid_mg_op.glsl"

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY() || ((i + j) & 1) != int(pc.color))
        return;
    vec2 n = mg_neighbours(i, j);
    int k = cidx(i, j);
    x[k] = n.y > 0.0 ? (n.x - pc.h * pc.h * b[k]) / n.y : 0.0;
}
