// Accelerations: symmetric pressure force with the spiky gradient
// (a_i = -sum m (p_i/rho_i^2 + p_j/rho_j^2) grad W), viscosity with the
// viscosity-kernel Laplacian (Mueller 2003), surface tension from the colour
// field (when the tension is on: specialization constant), gravity, velocity
// damping and the interactive push/pull force. The same rows as
// sph_density, a slab of 5 at a time, visiting the candidates its neighbour
// bits mark; then, in loops entered only by particles near a wall or an
// obstacle, the mirror images of the neighbours (including the particle's
// own image), one image set at a time.
//
// Included by sph_forces.comp (writes the accelerations) and, with
// SPH_FORCES_DRIFT defined, by sph_forces_drift.comp: the closing kick of
// this step and the drift (and binning) of the next in the same pass
// (sph_kick_drift), on the (x, v) the records already hold. A substep inside
// a frame then needs no pass of its own to integrate.
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(constant_id = VF_SPH_SPEC_TENSION) const bool tension = false;
layout(std430, binding = VF_SPH_FORCES_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_NB_X) readonly buffer NbX { vec4 nb_x[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_NB_V) readonly buffer NbV { vec4 nb_v[]; };
#ifndef SPH_FORCES_DRIFT
layout(std430, binding = VF_SPH_FORCES_BIND_ACC) writeonly buffer Acc { vec4 acc[]; };
#endif
layout(binding = VF_SPH_FORCES_BIND_START_T) uniform usamplerBuffer start_t;
layout(binding = VF_SPH_FORCES_BIND_NB_X_T) uniform samplerBuffer nb_x_t;
layout(binding = VF_SPH_FORCES_BIND_NB_V_T) uniform samplerBuffer nb_v_t;
layout(std430, binding = VF_SPH_FORCES_BIND_NB_BITS) readonly buffer NbBits { uint nb_bits[]; };
layout(binding = VF_SPH_FORCES_BIND_NB_BITS_T) uniform usamplerBuffer nb_bits_t;
#ifdef SPH_FORCES_DRIFT
layout(std430, binding = VF_SPH_FORCES_BIND_POS) writeonly buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_VEL) writeonly buffer Vel { vec4 vel[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_DENS) readonly buffer Dens { vec2 dens[]; };
layout(binding = VF_SPH_FORCES_BIND_DENS_T) uniform samplerBuffer dens_t;
layout(std430, binding = VF_SPH_FORCES_BIND_CELL) writeonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_SLOT) writeonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_SPH_FORCES_BIND_COUNTS) buffer Counts { uint counts[]; };
#endif
VF_PUSH(vf_sph_forces_push)

uint start_at(uint k) { return sph_texel ? texelFetch(start_t, int(k)).x : start[k]; }
vec4 nb_x_at(uint j) { return sph_texel ? texelFetch(nb_x_t, int(j)) : nb_x[j]; } // (x, p / rho^2)
vec4 nb_v_at(uint j) { return sph_texel ? texelFetch(nb_v_t, int(j)) : nb_v[j]; } // (v, 1 / rho)

// The particle i and the sums of its pair terms (the constant factors are
// applied once at the end). Local variables, not shader globals: llvmpipe
// keeps a global's value in memory across the loop, which cost the force
// pass about 5 %.
struct sph_sums {
    vec3 vi;       // velocity of i
    float pterm_i; // p_i / rho_i^2
    float inv_h, r_min; // 1 / h and 1e-6 h (read once: sph_rows)
    vec3 p, v, n;  // pressure, viscosity and colour-field gradient sums
    float lap;     // colour-field Laplacian sum
};

// One neighbour (or image) at offset d = x_i - x_j, r2 = |d|^2 < h^2, with
// pterm_j = p_j / rho_j^2. The pressure term of a pair closer than 1e-6 h
// (the particle itself) is left out by a select, not a branch.
void pair(inout sph_sums s, vec3 d, float r2, float pterm_j, vec3 vj, float inv_rhoj)
{
    float r = sqrt(r2);
    float q = r * s.inv_h;
    float omq = 1.0 - q;
    float w = (s.pterm_i + pterm_j) * omq * omq / r;
    s.p += (r > s.r_min ? w : 0.0) * d;
    s.v += (vj - s.vi) * (omq * inv_rhoj);
    if (tension) {
        float t = 1.0 - q * q;
        s.n -= (t * t * inv_rhoj) * d;
        s.lap -= t * (3.0 - 7.0 * q * q) * inv_rhoj;
    }
}

// Candidate j of particle i (at xi): its pair terms if it lies within h and
// is not i.
void candidate(inout sph_sums s, vec3 xi, uint i, uint j, float h2)
{
    vec4 xj = nb_x_at(j);
    vec3 d = xi - xj.xyz;
    float r2 = dot(d, d);
    if (r2 < h2 && j != i) {
        vec4 vj = nb_v_at(j);
        pair(s, d, r2, xj.w, vj.xyz, vj.w);
    }
}

// The acceleration of particle i; xi and vi: its position and velocity.
vec3 acceleration(uint i, out vec3 xi, out vec3 vi)
{
    vec4 xr = nb_x_at(i), vr = nb_v_at(i);
    xi = xr.xyz;
    vi = vr.xyz;
    float inv_rhoi = vr.w;
    sph_sums s;
    s.vi = vi;
    s.pterm_i = xr.w;
    s.inv_h = prm.inv_h;
    s.r_min = 1e-6 * prm.h;
    s.p = vec3(0.0);
    s.v = vec3(0.0);
    s.n = vec3(0.0);
    s.lap = 0.0;
    ivec3 c = sph_cell3(xi);
    vec3 f = sph_rows_at(xi);
    float h2 = prm.h2;
    ivec2 lo0, hi0;
    sph_row_bounds(c, f, lo0, hi0);
    sph_rows g = sph_rows_of();
    uvec4 m0, m1;
    SPH_READ_BITS(i, nb_bits_t, nb_bits, m0, m1)
    uint at = 0u; // its position
    // The rows a slab of equal z at a time (SPH_ROW_SPAN rows of y): one
    // loop over the slab's set bits, row after row, then one over the rows'
    // candidates past their 32nd (rare, and the bits do not cover them). A
    // device that runs every lane until the busiest is done (llvmpipe) runs
    // the slab's loop as long as the lane with the most neighbours in the
    // slab, not as long as the busiest lane of each row added up; and the
    // second loop, which no lane enters in most slabs, keeps its selection
    // out of the first.
    for (int zs = 0; zs < SPH_ROW_SPAN; zs++) {
        uint rb[SPH_ROW_SPAN], re[SPH_ROW_SPAN], rw[SPH_ROW_SPAN], rr[SPH_ROW_SPAN];
        for (int k = 0; k < SPH_ROW_SPAN; k++) {
            uint b, e;
            sph_row_candidates_of(g, zs * SPH_ROW_SPAN + k, c, f, lo0, hi0, b, e);
            uint len = min(e - b, 32u);
            rw[k] = sph_mask_bits(m0, m1, at, len);
            at += len;
            rb[k] = b;
            re[k] = e;
            rr[k] = b + 32u; // the row's next candidate past its 32nd
        }
        for (;;) {
            bool found = false;
            uint j = 0u;
            for (int k = 0; k < SPH_ROW_SPAN; k++) {
                bool bit = !found && rw[k] != 0u;
                j = bit ? rb[k] + uint(findLSB(rw[k])) : j;
                rw[k] &= bit ? rw[k] - 1u : ~0u;
                found = found || bit;
            }
            if (!found)
                break;
            candidate(s, xi, i, j, h2);
        }
        for (;;) {
            bool found = false;
            uint j = 0u;
            for (int k = 0; k < SPH_ROW_SPAN; k++) {
                bool rest = !found && rr[k] < re[k];
                j = rest ? rr[k] : j;
                rr[k] += rest ? 1u : 0u;
                found = found || rest;
            }
            if (!found)
                break;
            candidate(s, xi, i, j, h2);
        }
    }
    sph_mirrors m = sph_mirrors_at(xi);
    uint set = m.axes, mask;
    bool obstacle = m.obstacle;
    while (sph_next_image_set(m, set, obstacle, mask)) {
        vec3 xm = sph_mirror(xi, mask, m, false);
        ivec3 cm = sph_cell3(xm);
        vec3 fm = sph_rows_at_image(xm);
        ivec2 lo, hi;
        sph_row_bounds(cm, fm, lo, hi);
        for (int z = lo.y; z <= hi.y; z++)
        for (int y = lo.x; y <= hi.x; y++) {
            uint b, e;
            sph_row_candidates_at(g, y, z, cm, fm, b, e);
            for (uint j = b; j < e; j++) {
                vec4 xr = nb_x_at(j);
                vec3 d = xi - xr.xyz;
                if (dot(d, d) >= h2)
                    continue; // the images of the neighbours within h only (as sph_density)
                vec4 vr = nb_v_at(j);
                d = xi - sph_mirror(xr.xyz, mask, m, false);
                float r2 = dot(d, d);
                if (r2 < h2)
                    pair(s, d, r2, xr.w, sph_mirror(vr.xyz, mask, m, true), vr.w);
            }
        }
    }
    float mass = prm.mass;
    vec3 a = (mass * prm.spiky) * s.p + (prm.viscosity * mass * prm.visc * inv_rhoi) * s.v + prm.gravity.xyz -
             prm.damping * vi;
    if (tension) {
        vec3 normal = (mass * prm.poly6_grad * prm.inv_h) * s.n;
        float lap = mass * prm.poly6_lap * (s.lap - 3.0 * inv_rhoi);
        float len = length(normal);
        if (len > prm.tension_threshold)
            a -= (prm.tension * lap * inv_rhoi / len) * normal;
    }
    return a + sph_interaction(xi, pc.interact, pc.strength);
}

#ifndef SPH_FORCES_DRIFT
void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 xi, vi;
    acc[i] = vec4(acceleration(i, xi, vi), 0.0);
}
#else
// As sph_integrate's drift (pos.w: pressure, vel.w: density, the largest
// speed after the closing kick and after the drift), and the closing kick
// before it.
void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 x, v;
    vec3 a = acceleration(i, x, v);
    vec2 rp = sph_texel ? texelFetch(dens_t, int(i)).xy : dens[i];
    uint speed_bits = sph_kick_drift(x, v, a, pc.dt, pc.dt);
    pos[i] = vec4(x, rp.y);
    vel[i] = vec4(v, rp.x);
    speed_bits = max(speed_bits, floatBitsToUint(length(v))); // NaN sorts above +inf as uint
    SPH_DRIFT_END((pc.flags & VF_SPH_DRIFT_BIN) != 0u, x, i, speed_bits)
}
#endif
