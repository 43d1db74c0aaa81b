#version 450
// Semi-Lagrangian self-advection of the MAC velocity: each open face traces
// back through (U, V) with RK2 and samples (U_SRC, V_SRC) bilinearly. Fixed
// faces get their wall / solid / inflow value. Writes every face of _out.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#define VF_GRID_ADVECT_VELOCITY
#include "grid_advect.glsl"

VF_GRID_LOCAL

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    float lo, hi;
    if (i <= nx && j < ny) {
        int ie = (per_x() && i == nx) ? 0 : i;
        float r;
        if (VF_GRID_WX_AT(wx, ie, j) == 0.0)
            r = fixed_u(ie, j);
        else
            r = sample_us(trace(vec2(float(ie), float(j) + 0.5) * pc.h, pc.a.x), lo, hi);
        u_out[uidx(i, j)] = r;
    }
    if (i < nx && j <= ny) {
        int je = (per_y() && j == ny) ? 0 : j;
        float r;
        if (VF_GRID_WY_AT(wy, i, je) == 0.0)
            r = fixed_v(i, je);
        else
            r = sample_vs(trace(vec2(float(i) + 0.5, float(je)) * pc.h, pc.a.x), lo, hi);
        v_out[vidx(i, j)] = r;
    }
}
