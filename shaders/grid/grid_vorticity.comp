#version 450
// Vorticity at cell centres: the mean of the MAC curl
// (dv/dx - du/dy) at the cell's four corners (ghost values at the sides).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_VORT_U) readonly buffer U { float u[]; };
layout(std430, binding = VF_GRID_VORT_V) readonly buffer V { float v[]; };
layout(std430, binding = VF_GRID_VORT_OMEGA) writeonly buffer Omega { float omega[]; };

float u_at(int k) { return u[k]; }
float v_at(int k) { return v[k]; }
VF_GRID_U_FETCH(fu, u_at)
VF_GRID_V_FETCH(fv, v_at)

float corner(int i, int j)
{
    return (fv(i, j) - fv(i - 1, j) - fu(i, j) + fu(i, j - 1)) / pc.h;
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    omega[cidx(i, j)] = 0.25 * (corner(i, j) + corner(i + 1, j) + corner(i, j + 1) + corner(i + 1, j + 1));
}
