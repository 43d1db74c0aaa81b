#version 450
// Vorticity confinement: f = eps h (N x omega), N = grad|omega| / |grad|omega||,
// evaluated at cell centres and averaged onto the faces; u += dt f on open
// faces. Ping-pong: writes every face of the _out fields.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_CONF_U_IN) readonly buffer UIn { float u_in[]; };
layout(std430, binding = VF_GRID_CONF_V_IN) readonly buffer VIn { float v_in[]; };
layout(std430, binding = VF_GRID_CONF_OMEGA) readonly buffer Omega { float omega[]; };
layout(std430, binding = VF_GRID_CONF_U_OUT) writeonly buffer UOut { float u_out[]; };
layout(std430, binding = VF_GRID_CONF_V_OUT) writeonly buffer VOut { float v_out[]; };
layout(std430, binding = VF_GRID_CONF_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_CONF_WY) readonly buffer Wy { float wy[]; };

int nbx(int i)
{
    return per_x() ? wrapi(i, NX()) : clamp(i, 0, NX() - 1);
}

int nby(int j)
{
    return per_y() ? wrapi(j, NY()) : clamp(j, 0, NY() - 1);
}

vec2 force(int i, int j)
{
    float gx = (abs(omega[cidx(nbx(i + 1), j)]) - abs(omega[cidx(nbx(i - 1), j)])) * 0.5;
    float gy = (abs(omega[cidx(i, nby(j + 1))]) - abs(omega[cidx(i, nby(j - 1))])) * 0.5;
    float len = sqrt(gx * gx + gy * gy);
    if (len < 1e-20)
        return vec2(0.0);
    float w = omega[cidx(i, j)];
    return pc.a.x * pc.h * vec2(gy, -gx) / len * w;
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    if (i <= nx && j < ny) {
        int k = uidx(i, j);
        float u = u_in[k];
        if (wx[k] != 0.0) {
            int ie = (per_x() && i == nx) ? 0 : i;
            float s = 0.0, n = 0.0;
            if (ie > 0 || per_x()) { s += force(nbx(ie - 1), j).x; n += 1.0; }
            if (ie < nx) { s += force(ie, j).x; n += 1.0; }
            u += pc.dt * s / n;
        }
        u_out[k] = u;
    }
    if (i < nx && j <= ny) {
        int k = vidx(i, j);
        float v = v_in[k];
        if (wy[k] != 0.0) {
            int je = (per_y() && j == ny) ? 0 : j;
            float s = 0.0, n = 0.0;
            if (je > 0 || per_y()) { s += force(i, nby(je - 1)).y; n += 1.0; }
            if (je < ny) { s += force(i, je).y; n += 1.0; }
            v += pc.dt * s / n;
        }
        v_out[k] = v;
    }
}
