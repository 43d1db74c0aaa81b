#version 450
// Forces and sources: a Gaussian splat of acceleration (fx, fy) and of RGB
// dye per second around (cx, cy), buoyancy b * (mean dye) upward, and dye
// stripes set in the first column (a channel's inflow). Ping-pong: reads the
// _in fields, writes every face and cell of the _out fields.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_SPLAT_U_IN) readonly buffer UIn { float u_in[]; };
layout(std430, binding = VF_GRID_SPLAT_V_IN) readonly buffer VIn { float v_in[]; };
layout(std430, binding = VF_GRID_SPLAT_U_OUT) writeonly buffer UOut { float u_out[]; };
layout(std430, binding = VF_GRID_SPLAT_V_OUT) writeonly buffer VOut { float v_out[]; };
layout(std430, binding = VF_GRID_SPLAT_R_IN) readonly buffer RIn { float r_in[]; };
layout(std430, binding = VF_GRID_SPLAT_G_IN) readonly buffer GIn { float g_in[]; };
layout(std430, binding = VF_GRID_SPLAT_B_IN) readonly buffer BIn { float b_in[]; };
layout(std430, binding = VF_GRID_SPLAT_R_OUT) writeonly buffer ROut { float r_out[]; };
layout(std430, binding = VF_GRID_SPLAT_G_OUT) writeonly buffer GOut { float g_out[]; };
layout(std430, binding = VF_GRID_SPLAT_B_OUT) writeonly buffer BOut { float b_out[]; };
layout(std430, binding = VF_GRID_SPLAT_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_SPLAT_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_SPLAT_MASK) readonly buffer Mask { uint mask[]; };

float gauss(vec2 p)
{
    vec2 d = p - pc.a.xy;
    return exp(-dot(d, d) / (pc.a.z * pc.a.z));
}

float dye_mean(int i, int j)
{
    int k = cidx(i, j);
    return mask[k] == VF_GRID_CELL_FLUID ? (r_in[k] + g_in[k] + b_in[k]) * (1.0 / 3.0) : 0.0;
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    bool vel = (pc.mode & VF_GRID_SPLAT_VELOCITY) != 0u;
    if (i <= nx && j < ny) {
        int k = uidx(i, j);
        float u = u_in[k];
        int ie = (per_x() && i == nx) ? 0 : i;
        if (vel && wx[k] != 0.0)
            u += pc.dt * pc.b.x * gauss(vec2(float(ie), float(j) + 0.5) * pc.h);
        u_out[k] = u;
    }
    if (i < nx && j <= ny) {
        int k = vidx(i, j);
        float v = v_in[k];
        int je = (per_y() && j == ny) ? 0 : j;
        if (wy[k] != 0.0) {
            if (vel)
                v += pc.dt * pc.b.y * gauss(vec2(float(i) + 0.5, float(je)) * pc.h);
            if ((pc.mode & VF_GRID_SPLAT_BUOYANCY) != 0u) {
                int jb = je > 0 ? je - 1 : (per_y() ? ny - 1 : -1);
                int jt = je < ny ? je : (per_y() ? 0 : -1);
                float s = 0.0, n = 0.0;
                if (jb >= 0) { s += dye_mean(i, jb); n += 1.0; }
                if (jt >= 0) { s += dye_mean(i, jt); n += 1.0; }
                v += pc.dt * pc.b.z * (n > 0.0 ? s / n : 0.0);
            }
        }
        v_out[k] = v;
    }
    if (i < nx && j < ny) {
        int k = cidx(i, j);
        vec3 c = vec3(r_in[k], g_in[k], b_in[k]);
        if (mask[k] != VF_GRID_CELL_FLUID) {
            c = vec3(0.0);
        } else {
            if ((pc.mode & VF_GRID_SPLAT_DYE) != 0u)
                c += pc.dt * pc.c.xyz * gauss((vec2(i, j) + 0.5) * pc.h);
            if ((pc.mode & VF_GRID_SPLAT_STRIPES) != 0u && i == 0) {
                uint stripe = uint(j) * pc.count / uint(ny);
                uint pick = (stripe / 2u) % 3u;
                c = (stripe & 1u) != 0u ? vec3(0.0) : vec3(pick == 0u ? 1.0 : 0.0, pick == 1u ? 1.0 : 0.0, pick == 2u ? 1.0 : 0.0);
            }
        }
        r_out[k] = c.r;
        g_out[k] = c.g;
        b_out[k] = c.b;
    }
}
