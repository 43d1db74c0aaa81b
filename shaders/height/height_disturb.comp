#version 450
// Disturbances of one substep, applied to wet cells:
//  - drops (rain): drop k of the run is centred at hash-drawn (x, y) and digs
//    a crater with a rim whose integral is zero (volume neutral);
//  - coupling=divergence (Klein et al. 2003): every flow step of length dt_f
//    adds -s delta / (1 + eta^2), delta the divergence of the flow's
//    tentative velocity (a mass surplus, delta < 0, raises the surface); as a
//    rate: eta -= dt s (delta / dt_f) / (1 + eta^2), the flow giving delta / dt_f;
//  - coupling=pressure (Chen & Lobo 1995): eta follows h0 + p / (rho g): the
//    change of p / (rho g) since the last substep is added, and the pressure
//    height is kept in pres[] (the integrators treat it as a potential, so
//    waves ride on the pressure-shaped surface instead of flattening it);
//    with any coupling, a bound flow pressure is kept in pres[] for the views.
// With the PREV flag (ADI) eta^(n-1) moves by the same amount (no velocity kick).
// Built with height_volume (the frame's last pass) it also sums the volume of the result.
#include "shared_height.h"
#include "height_common.glsl"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_HEIGHT_DIST_BIND_ETA) buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_DIST_BIND_PREV) buffer Prev { float prev[]; };
layout(std430, binding = VF_HEIGHT_DIST_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_DIST_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_DIST_BIND_PRES) buffer Pres { float pres[]; };
layout(std430, binding = VF_HEIGHT_DIST_BIND_FLOW_P) readonly buffer FlowP { float flow_p[]; };
layout(std430, binding = VF_HEIGHT_DIST_BIND_FLOW_DIV) readonly buffer FlowDiv { float flow_div[]; };
VF_PUSH(vf_height_disturb_push)
#define VOL_WG (VF_WG_2D_X * VF_WG_2D_Y)
#define VOL_BIND_PARTIAL VF_HEIGHT_DIST_BIND_PARTIAL
#define VOL_BIND_RESULT VF_HEIGHT_DIST_BIND_RESULT
#include "height_volume_sum.glsl"

// Bilinear sample of a flow field (cell-centred, flow_nx x flow_ny over the
// same domain) at the centre of height cell (i, j).
float sample_flow_p(uint i, uint j)
{
    float fx = clamp((float(i) + 0.5) * float(pc.flow_nx) / float(pc.nx) - 0.5, 0.0, float(pc.flow_nx - 1u));
    float fy = clamp((float(j) + 0.5) * float(pc.flow_ny) / float(pc.ny) - 0.5, 0.0, float(pc.flow_ny - 1u));
    uint x0 = min(uint(fx), pc.flow_nx - 1u), y0 = min(uint(fy), pc.flow_ny - 1u);
    uint x1 = min(x0 + 1u, pc.flow_nx - 1u), y1 = min(y0 + 1u, pc.flow_ny - 1u);
    float tx = fx - float(x0), ty = fy - float(y0);
    float a = mix(flow_p[y0 * pc.flow_nx + x0], flow_p[y0 * pc.flow_nx + x1], tx);
    float c = mix(flow_p[y1 * pc.flow_nx + x0], flow_p[y1 * pc.flow_nx + x1], tx);
    return mix(a, c, ty);
}

float div_at(float fx, float fy)
{
    fx = clamp(fx, 0.0, float(pc.flow_nx - 1u));
    fy = clamp(fy, 0.0, float(pc.flow_ny - 1u));
    uint x0 = min(uint(fx), pc.flow_nx - 1u), y0 = min(uint(fy), pc.flow_ny - 1u);
    uint x1 = min(x0 + 1u, pc.flow_nx - 1u), y1 = min(y0 + 1u, pc.flow_ny - 1u);
    float tx = fx - float(x0), ty = fy - float(y0);
    float a = mix(flow_div[y0 * pc.flow_nx + x0], flow_div[y0 * pc.flow_nx + x1], tx);
    float c = mix(flow_div[y1 * pc.flow_nx + x0], flow_div[y1 * pc.flow_nx + x1], tx);
    return mix(a, c, ty);
}

// The divergence at the centre of height cell (i, j), low-passed with a 3x3
// binomial filter over flow cells (zero response at the flow grid's Nyquist
// frequency): a one-cell-wide source would start waves of every length, and
// the short ones would fill the surface with speckle.
float sample_flow_div(uint i, uint j)
{
    float fx = (float(i) + 0.5) * float(pc.flow_nx) / float(pc.nx) - 0.5;
    // open ends: the boundary columns' divergence is the boundary condition's
    if (pc.edge_cells > 0u && (fx < float(pc.edge_cells) || fx > float(pc.flow_nx) - 1.0 - float(pc.edge_cells)))
        return 0.0;
    float fy = (float(j) + 0.5) * float(pc.flow_ny) / float(pc.ny) - 0.5;
    float s = 0.0;
    for (int oy = -1; oy <= 1; oy++)
        for (int ox = -1; ox <= 1; ox++)
            s += float((2 - abs(ox)) * (2 - abs(oy))) * div_at(fx + float(ox), fy + float(oy));
    return s / 16.0;
}

// Disturbs cell (i, j) and adds its new height to the volume sums.
void disturb(uint i, uint j, inout float ve, inout float vd, inout uint vw)
{
    if (i >= pc.nx || j >= pc.ny)
        return;
    uint idx = j * pc.nx + i;
    uint f = flags[idx];
    if ((f & VF_HEIGHT_SOLID) != 0u)
        return;
    float e = eta[idx], b = bed[idx];
    float delta = 0.0;
    if ((pc.flags & VF_HEIGHT_DISTURB_TRACK_P) != 0u) {
        float ph = sample_flow_p(i, j) * pc.inv_rho_g;
        if (pc.coupling == VF_HEIGHT_COUPLE_PRESSURE)
            delta += ph - pres[idx];
        pres[idx] = ph;
    }
    if (e - b > 0.0) {
        float xc = (float(i) + 0.5) * pc.dx, yc = (float(j) + 0.5) * pc.dx;
        float lx = float(pc.nx) * pc.dx, ly = float(pc.ny) * pc.dx;
        for (uint k = 0u; k < pc.drop_count; k++) {
            uint id = pc.drop_base + k;
            float px = vf_hash01(pc.seed, 3u * id) * lx;
            float py = vf_hash01(pc.seed, 3u * id + 1u) * ly;
            float amp = pc.drop_amp * (0.5 + vf_hash01(pc.seed, 3u * id + 2u));
            float rx = xc - px, ry = yc - py;
            delta -= amp * height_drop_shape(rx * rx + ry * ry, pc.drop_sigma);
        }
        if (pc.user_amp != 0.0) {
            float rx = xc - pc.user_x, ry = yc - pc.user_y;
            delta -= pc.user_amp * height_drop_shape(rx * rx + ry * ry, pc.user_sigma);
        }
        if (pc.coupling == VF_HEIGHT_COUPLE_DIVERGENCE)
            delta -= pc.dt * pc.strength * pc.div_scale * sample_flow_div(i, j) / (1.0 + e * e);
    }
    float en = e;
    if (delta != 0.0) {
        en = max(e + delta, b);
        eta[idx] = en;
        if ((pc.flags & VF_HEIGHT_DISTURB_PREV) != 0u)
            prev[idx] += en - e;
    }
    height_volume_cell(en, b, f, ve, vd, vw);
}

void main()
{
    float ve = 0.0, vd = 0.0;
    uint vw = 0u;
    // height_rows consecutive rows per invocation (as height_explicit.comp)
    uint j0 = (gl_WorkGroupID.y * VF_WG_2D_Y + gl_LocalInvocationID.y) * height_rows;
    for (uint r = 0u; r < height_rows; r++)
        disturb(gl_GlobalInvocationID.x, j0 + r, ve, vd, vw);
    if (height_volume)
        height_volume_sum(ve, vd, vw, pc.volume_target);
}
