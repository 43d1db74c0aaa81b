#version 450
// Prolongation (nx, ny = fine cells): fine x += bilinear interpolation of the
// coarse correction (cell-centred weights 9/16, 3/16, 3/16, 1/16), using only
// coarse cells that have an open face (weights renormalised); sides clamp,
// periodic sides wrap. Cells with no open face are left alone.
#include "shared.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_PRO_X_C) readonly buffer XC { float xc[]; };
layout(std430, binding = VF_GRID_PRO_WX_C) readonly buffer WxC { float wxc[]; };
layout(std430, binding = VF_GRID_PRO_WY_C) readonly buffer WyC { float wyc[]; };
layout(std430, binding = VF_GRID_PRO_X_F) buffer XF { float xf[]; };
layout(std430, binding = VF_GRID_PRO_WX_F) readonly buffer WxF { float wxf[]; };
layout(std430, binding = VF_GRID_PRO_WY_F) readonly buffer WyF { float wyf[]; };

bool coarse_open(int I, int J, int cnx)
{
    return wxc[J * (cnx + 1) + I] + wxc[J * (cnx + 1) + I + 1] + wyc[J * cnx + I] + wyc[(J + 1) * cnx + I] > 0.0;
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    if (i >= nx || j >= ny)
        return;
    if (wxf[uidx(i, j)] + wxf[uidx(i + 1, j)] + wyf[vidx(i, j)] + wyf[vidx(i, j + 1)] <= 0.0)
        return;
    int cnx = nx / 2, cny = ny / 2;
    int I = i >> 1, J = j >> 1;
    // the other coarse neighbour in each direction and the weights 3/4, 1/4
    int In = (i & 1) != 0 ? I + 1 : I - 1;
    int Jn = (j & 1) != 0 ? J + 1 : J - 1;
    In = per_x() ? wrapi(In, cnx) : clamp(In, 0, cnx - 1);
    Jn = per_y() ? wrapi(Jn, cny) : clamp(Jn, 0, cny - 1);
    int ci[4] = int[4](I, In, I, In);
    int cj[4] = int[4](J, J, Jn, Jn);
    float cw[4] = float[4](0.5625, 0.1875, 0.1875, 0.0625);
    float s = 0.0, ws = 0.0;
    for (int q = 0; q < 4; q++) {
        if (!coarse_open(ci[q], cj[q], cnx))
            continue;
        s += cw[q] * xc[cj[q] * cnx + ci[q]];
        ws += cw[q];
    }
    if (ws > 0.0)
        xf[cidx(i, j)] += s / ws;
}
