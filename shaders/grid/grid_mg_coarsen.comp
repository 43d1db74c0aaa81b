#version 450
// Face weights of a coarse multigrid level (nx, ny = coarse cells): the mean
// of the two fine faces each coarse face covers (the open fraction).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_CW_WX_F) readonly buffer WxF { float wxf[]; };
layout(std430, binding = VF_GRID_CW_WY_F) readonly buffer WyF { float wyf[]; };
layout(std430, binding = VF_GRID_CW_WX_C) writeonly buffer WxC { float wxc[]; };
layout(std430, binding = VF_GRID_CW_WY_C) writeonly buffer WyC { float wyc[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    int fnx = 2 * nx;
    if (i <= nx && j < ny)
        wxc[uidx(i, j)] = 0.5 * (wxf[(2 * j) * (fnx + 1) + 2 * i] + wxf[(2 * j + 1) * (fnx + 1) + 2 * i]);
    if (i < nx && j <= ny)
        wyc[vidx(i, j)] = 0.5 * (wyf[(2 * j) * fnx + 2 * i] + wyf[(2 * j) * fnx + 2 * i + 1]);
}
