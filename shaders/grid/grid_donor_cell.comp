#version 450
// Klein et al. (2003)'s convection: one explicit Euler step of the MAC
// momentum's convective terms, discretised as in Griebel, Dornseifer &
// Neunhoeffer's book, which they follow: central differences blended with
// the donor-cell (upwind) scheme by gamma = pc.a.x (0 central, 1 pure donor
// cell), in conservative form:
//   u_out = u - dt (d(u^2)/dx + d(uv)/dy),  v_out = v - dt (d(uv)/dx + d(v^2)/dy)
// on the open faces inside the box (face weight != 0, not on a non-periodic
// side); every other face is copied (the boundary pass sets them). Ghost rows
// and columns come from the sides' conditions (grid_common.glsl's fetch).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_DC_U_IN) readonly buffer UIn { float u_in[]; };
layout(std430, binding = VF_GRID_DC_V_IN) readonly buffer VIn { float v_in[]; };
layout(std430, binding = VF_GRID_DC_U_OUT) writeonly buffer UOut { float u_out[]; };
layout(std430, binding = VF_GRID_DC_V_OUT) writeonly buffer VOut { float v_out[]; };
layout(std430, binding = VF_GRID_DC_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_DC_WY) readonly buffer Wy { float wy[]; };

float load_u(int k)
{
    return u_in[k];
}

float load_v(int k)
{
    return v_in[k];
}

VF_GRID_U_FETCH(fetch_u, load_u)
VF_GRID_V_FETCH(fetch_v, load_v)

// u at face column i (wrapped when periodic), row j in [-1, ny]
float uf(int i, int j)
{
    return fetch_u(per_x() ? wrapi(i, NX()) : i, j);
}

// v at cell column i in [-1, nx], face row j (wrapped when periodic)
float vf(int i, int j)
{
    return fetch_v(i, per_y() ? wrapi(j, NY()) : j);
}

// One direction's flux difference: (a (c + r) / 2 - b (l + c) / 2) / h
// blended with its donor-cell form, for the transported value c between
// l and r carried by the face speeds a (ahead) and b (behind).
float conv(float l, float c, float r, float a, float b, float g)
{
    float central = a * (c + r) * 0.5 - b * (l + c) * 0.5;
    float donor = abs(a) * (c - r) * 0.5 - abs(b) * (l - c) * 0.5;
    return (central + g * donor) / pc.h;
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    float g = pc.a.x, dt = pc.dt;
    if (i <= nx && j < ny) {
        int ie = (per_x() && i == nx) ? 0 : i;
        float c = u_in[uidx(ie, j)], r = c;
        bool inside = per_x() || (i > 0 && i < nx);
        if (inside && VF_GRID_WX_AT(wx, ie, j) != 0.0) {
            float ul = uf(ie - 1, j), ur = uf(ie + 1, j);
            float ub = uf(ie, j - 1), ut = uf(ie, j + 1);
            float vt = 0.5 * (vf(wrap_near(ie - 1, nx), j + 1) + vf(ie, j + 1));
            float vb = 0.5 * (vf(wrap_near(ie - 1, nx), j) + vf(ie, j));
            float du2dx = conv(ul, c, ur, 0.5 * (c + ur), 0.5 * (ul + c), g);
            float duvdy = conv(ub, c, ut, vt, vb, g);
            r = c - dt * (du2dx + duvdy);
        }
        u_out[uidx(i, j)] = r;
    }
    if (i < nx && j <= ny) {
        int je = (per_y() && j == ny) ? 0 : j;
        float c = v_in[vidx(i, je)], r = c;
        bool inside = per_y() || (j > 0 && j < ny);
        if (inside && VF_GRID_WY_AT(wy, i, je) != 0.0) {
            float vb = vf(i, je - 1), vt = vf(i, je + 1);
            float vl = vf(i - 1, je), vr = vf(i + 1, je);
            float ur = 0.5 * (uf(i + 1, wrap_near(je - 1, ny)) + uf(i + 1, je));
            float ul = 0.5 * (uf(i, wrap_near(je - 1, ny)) + uf(i, je));
            float dv2dy = conv(vb, c, vt, 0.5 * (c + vt), 0.5 * (vb + c), g);
            float duvdx = conv(vl, c, vr, ur, ul, g);
            r = c - dt * (duvdx + dv2dy);
        }
        v_out[vidx(i, j)] = r;
    }
}
