#version 450
// Semi-Lagrangian self-advection of the MAC velocity: each open face traces
// back through (U, V) with RK2 and samples (U_SRC, V_SRC) bilinearly. Fixed
// faces get their wall / solid / inflow value. Writes every face of _out.
#include "shared.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_AV_U) readonly buffer U { float u[]; };
layout(std430, binding = VF_GRID_AV_V) readonly buffer V { float v[]; };
layout(std430, binding = VF_GRID_AV_U_SRC) readonly buffer USrc { float u_src[]; };
layout(std430, binding = VF_GRID_AV_V_SRC) readonly buffer VSrc { float v_src[]; };
layout(std430, binding = VF_GRID_AV_U_OUT) writeonly buffer UOut { float u_out[]; };
layout(std430, binding = VF_GRID_AV_V_OUT) writeonly buffer VOut { float v_out[]; };
layout(std430, binding = VF_GRID_AV_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_AV_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_AV_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_AV_SU) readonly buffer Su { float su[]; };
layout(std430, binding = VF_GRID_AV_SV) readonly buffer Sv { float sv[]; };

#define MASKSOLID(k) (!VF_GRID_IS_FLUID(mask, k))
VF_GRID_U_FETCH(fu, u)
VF_GRID_V_FETCH(fv, v)
VF_GRID_U_SAMPLE(sample_u, fu)
VF_GRID_V_SAMPLE(sample_v, fv)
VF_GRID_U_FETCH(fus, u_src)
VF_GRID_V_FETCH(fvs, v_src)
VF_GRID_U_SAMPLE(sample_us, fus)
VF_GRID_V_SAMPLE(sample_vs, fvs)
VF_GRID_TRACE(sample_u, sample_v)
VF_GRID_SOLID_VEL(solid_u, mask, su)
VF_GRID_SOLID_VEL(solid_v, mask, sv)
VF_GRID_FIXED_U(fixed_u, solid_u)
VF_GRID_FIXED_V(fixed_v, solid_v)

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
