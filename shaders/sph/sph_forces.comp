#version 450
// Accelerations: symmetric pressure force with the spiky gradient
// (a_i = -sum m (p_i/rho_i^2 + p_j/rho_j^2) grad W), viscosity with the
// viscosity-kernel Laplacian (Mueller 2003), surface tension from the colour
// field (when prm.tension > 0), gravity, velocity damping and the interactive
// push/pull force. Same 27-cell row loop as sph_density, with the mirror
// images of the neighbours near walls (including the particle's own image).
#include "shared.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_FORCES_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_POS) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_VEL) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_DENS) readonly buffer Dens { vec2 dens[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_ACC) writeonly buffer Acc { vec4 acc[]; };
VF_PUSH(vf_sph_forces_push)

// Sums of one particle's pair terms (the constant factors are applied once
// at the end).
vec3 sp, sv, sn;
float slap;
vec3 vi;
float pterm_i;
bool tension;

// One neighbour (or image) at offset d = x_i - x_j with r2 = |d|^2 < h^2.
void pair(vec3 d, float r2, vec3 vj, float pterm_j, float inv_rhoj)
{
    float r = sqrt(r2);
    float q = r * prm.inv_h;
    float omq = 1.0 - q;
    if (r > 1e-6 * prm.h)
        sp += ((pterm_i + pterm_j) * omq * omq / r) * d;
    sv += (vj - vi) * (omq * inv_rhoj);
    if (tension) {
        float t = 1.0 - q * q;
        sn -= (t * t * inv_rhoj) * d;
        slap -= t * (3.0 - 7.0 * q * q) * inv_rhoj;
    }
}

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 xi = pos[i].xyz;
    vi = vel[i].xyz;
    vec2 di = dens[i];
    float inv_rhoi = 1.0 / di.x;
    pterm_i = di.y * inv_rhoi * inv_rhoi;
    tension = prm.tension > 0.0;
    sp = vec3(0.0);
    sv = vec3(0.0);
    sn = vec3(0.0);
    slap = 0.0;
    ivec3 c = sph_cell3(xi);
    ivec3 n = sph_grid();
    vec3 f = sph_rows_at(xi);
    float h2 = prm.h2;
    sph_mirrors m = sph_mirrors_at(xi);
    bool mirrored = m.axes != 0u || m.obstacle;
    for (int z = max(c.z - VF_SPH_CELL_DIV, 0); z <= min(c.z + VF_SPH_CELL_DIV, n.z - 1); z++) {
        for (int y = max(c.y - VF_SPH_CELL_DIV, 0); y <= min(c.y + VF_SPH_CELL_DIV, n.y - 1); y++) {
            int x0, x1;
            if (!sph_row_range(f, c, y, z, x0, x1))
                continue;
            uint row = prm.grid_x * (uint(y) + prm.grid_y * uint(z));
            uint b = start[row + uint(x0)], e = start[row + uint(x1) + 1u];
            for (uint j = b; j < e; j++) {
                vec3 xj = pos[j].xyz;
                vec3 d = xi - xj;
                float r2 = dot(d, d);
                if (r2 >= h2)
                    continue;
                vec3 vj = vel[j].xyz;
                vec2 dj = dens[j];
                float inv_rhoj = 1.0 / dj.x;
                float pterm_j = dj.y * inv_rhoj * inv_rhoj;
                if (j != i)
                    pair(d, r2, vj, pterm_j, inv_rhoj);
                if (!mirrored)
                    continue;
                for (uint mask = m.axes; mask != 0u; mask = (mask - 1u) & m.axes) {
                    d = xi - sph_mirror_axes(xj, mask, m.plane);
                    r2 = dot(d, d);
                    if (r2 < h2)
                        pair(d, r2, sph_mirror_axes(vj, mask, vec3(0.0)), pterm_j, inv_rhoj);
                }
                if (m.obstacle) {
                    d = xi - sph_mirror_plane(xj, m.n, m.c);
                    r2 = dot(d, d);
                    if (r2 < h2)
                        pair(d, r2, sph_mirror_plane(vj, m.n, 0.0), pterm_j, inv_rhoj);
                }
            }
        }
    }
    float mass = prm.mass;
    vec3 a = (mass * prm.spiky) * sp + (prm.viscosity * mass * prm.visc * inv_rhoi) * sv + prm.gravity.xyz -
             prm.damping * vi;
    if (tension) {
        vec3 normal = (mass * prm.poly6_grad * prm.inv_h) * sn;
        float lap = mass * prm.poly6_lap * (slap - 3.0 * inv_rhoi);
        float len = length(normal);
        if (len > prm.tension_threshold)
            a -= (prm.tension * lap * inv_rhoi / len) * normal;
    }
    float radius = pc.interact.w;
    if (radius > 0.0) {
        vec3 d = xi - pc.interact.xyz;
        float len = length(d);
        if (len < radius && len > 1e-6 * radius)
            a += (pc.strength * (1.0 - len / radius) / len) * d;
    }
    acc[i] = vec4(a, 0.0);
}
