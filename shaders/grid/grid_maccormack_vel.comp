#version 450
// MacCormack correction of the velocity advection: with u^n = (U, V) and the
// semi-Lagrangian result u^ = (U_SRC, V_SRC),
//   u = u^ + (u^n - u~) / 2, u~ = u^ sampled at the forward trace,
// clamped to the range of the u^n stencil the backward trace sampled.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#define VF_GRID_ADVECT_VELOCITY
#include "grid_advect.glsl"

VF_GRID_LOCAL

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    float lo, hi, dummy0, dummy1;
    if (i <= nx && j < ny) {
        int ie = (per_x() && i == nx) ? 0 : i;
        int k = uidx(ie, j);
        float r;
        if (VF_GRID_WX_AT(wx, ie, j) == 0.0) {
            r = fixed_u(ie, j);
        } else {
            vec2 p = vec2(float(ie), float(j) + 0.5) * pc.h;
            sample_u(trace(p, pc.a.x), lo, hi);
            float back = sample_us(trace(p, -pc.a.x), dummy0, dummy1);
            r = clamp(u_src_at(k) + 0.5 * (u_at(k) - back), lo, hi);
        }
        u_out[uidx(i, j)] = r;
    }
    if (i < nx && j <= ny) {
        int je = (per_y() && j == ny) ? 0 : j;
        int k = vidx(i, je);
        float r;
        if (VF_GRID_WY_AT(wy, i, je) == 0.0) {
            r = fixed_v(i, je);
        } else {
            vec2 p = vec2(float(i) + 0.5, float(je)) * pc.h;
            sample_v(trace(p, pc.a.x), lo, hi);
            float back = sample_vs(trace(p, -pc.a.x), dummy0, dummy1);
            r = clamp(v_src_at(k) + 0.5 * (v_at(k) - back), lo, hi);
        }
        v_out[vidx(i, j)] = r;
    }
}
