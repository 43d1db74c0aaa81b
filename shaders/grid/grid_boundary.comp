#version 450
// Boundary conditions on the velocity before the projection: closed faces
// (weight 0) get the wall / solid / inflow velocity, outflow faces copy their
// inner neighbour (zero gradient), periodic faces nx / ny repeat face 0.
// Ping-pong: writes every face of _out.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_BND_U_IN) readonly buffer UIn { float u_in[]; };
layout(std430, binding = VF_GRID_BND_V_IN) readonly buffer VIn { float v_in[]; };
layout(std430, binding = VF_GRID_BND_U_OUT) writeonly buffer UOut { float u_out[]; };
layout(std430, binding = VF_GRID_BND_V_OUT) writeonly buffer VOut { float v_out[]; };
layout(std430, binding = VF_GRID_BND_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_BND_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_BND_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_BND_SU) readonly buffer Su { float su[]; };
layout(std430, binding = VF_GRID_BND_SV) readonly buffer Sv { float sv[]; };

uint mask_at(int k) { return mask[k]; }
#define MASKSOLID(k) (!VF_GRID_IS_FLUID(mask_at, k))
VF_GRID_SOLID_VEL(solid_u, mask_at, su)
VF_GRID_SOLID_VEL(solid_v, mask_at, sv)
VF_GRID_FIXED_U(fixed_u, solid_u)
VF_GRID_FIXED_V(fixed_v, solid_v)

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    if (i <= nx && j < ny) {
        int ie = (per_x() && i == nx) ? 0 : i;
        int k = uidx(ie, j);
        float w = VF_GRID_WX_AT(wx, ie, j), r;
        if (w == 0.0)
            r = fixed_u(ie, j);
        else if (w == 2.0)
            r = u_in[uidx(ie == 0 ? 1 : nx - 1, j)];
        else
            r = u_in[k];
        u_out[uidx(i, j)] = r;
    }
    if (i < nx && j <= ny) {
        int je = (per_y() && j == ny) ? 0 : j;
        int k = vidx(i, je);
        float w = VF_GRID_WY_AT(wy, i, je), r;
        if (w == 0.0)
            r = fixed_v(i, je);
        else if (w == 2.0)
            r = v_in[vidx(i, je == 0 ? 1 : ny - 1)];
        else
            r = v_in[k];
        v_out[vidx(i, j)] = r;
    }
}
