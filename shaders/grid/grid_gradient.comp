#version 450
// Subtracts the pressure gradient from open faces: u -= dt w (p_b - p_a) / h
// (w = face weight; outside the box p = 0, which with w = 2 is p = 0 at an
// outflow side). Ping-pong: writes every face of _out.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_GRAD_U_IN) readonly buffer UIn { float u_in[]; };
layout(std430, binding = VF_GRID_GRAD_V_IN) readonly buffer VIn { float v_in[]; };
layout(std430, binding = VF_GRID_GRAD_P) readonly buffer P { float p[]; };
layout(std430, binding = VF_GRID_GRAD_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_GRAD_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_GRAD_U_OUT) writeonly buffer UOut { float u_out[]; };
layout(std430, binding = VF_GRID_GRAD_V_OUT) writeonly buffer VOut { float v_out[]; };

float pcell(int i, int j)
{
    int nx = NX(), ny = NY();
    if (per_x())
        i = wrapi(i, nx);
    if (per_y())
        j = wrapi(j, ny);
    if (i < 0 || i >= nx || j < 0 || j >= ny)
        return 0.0;
    return p[cidx(i, j)];
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    if (i <= nx && j < ny) {
        int ie = (per_x() && i == nx) ? 0 : i;
        int k = uidx(ie, j);
        float w = wx[k], r = u_in[k];
        if (w != 0.0)
            r -= pc.dt * w * (pcell(ie, j) - pcell(ie - 1, j)) / pc.h;
        u_out[uidx(i, j)] = r;
    }
    if (i < nx && j <= ny) {
        int je = (per_y() && j == ny) ? 0 : j;
        int k = vidx(i, je);
        float w = wy[k], r = v_in[k];
        if (w != 0.0)
            r -= pc.dt * w * (pcell(i, je) - pcell(i, je - 1)) / pc.h;
        v_out[vidx(i, j)] = r;
    }
}
