#version 450
// The potentials of Ihmsen et al. 2012 per fluid particle i, over the
// neighbours j within h (W~ = 1 - r/h):
//   trapped air   I_ta = sum |v_ij| (1 - v^_ij . x^_ij) W~
//   wave crest    I_wc = sum (1 - n^_i . n^_j) W~ over j behind the surface
//                 (x^_ji . n^_i < 0), when the particle moves outwards
//                 (v^_i . n^_i >= threshold) and is at the surface
//                 (|sum of the neighbour directions| > 0.3 x sum of weights)
//   kinetic       E_k = |v_i|^2 / 2 (per unit mass, J/kg)
// and how many diffuse particles it makes this frame:
//   floor(dt phi(E_k) (k_ta phi(I_ta) + k_wc phi(I_wc)) + random).
#include "shared_sph.h"
#include "shared_foam.h"
#include "foam_common.glsl"

void main()
{
    uint i = foam_index();
    if (i > pc.fluid_cap)
        return;
    if (i >= st.count) {
        gen[i] = 0u;
        return;
    }
    vec3 xi = pos[i].xyz, vi = vel[i].xyz;
    vec3 ni_raw = normal[i].xyz;
    // at the surface: the directions to the neighbours do not cancel
    // (|sum| above 0.3 of the weights' sum; about 0.5 at a flat surface)
    bool surface = length(ni_raw) > 0.3 * normal[i].w;
    vec3 ni = foam_unit(ni_raw);
    ivec3 c = sph_cell3(xi);
    float ta = 0.0, wc = 0.0;
    vec3 f = sph_rows_at(xi);
    ivec2 lo, hi;
    sph_row_bounds(c, f, lo, hi);
    sph_rows grid_rows = sph_rows_of();
    for (int row = 0; row < SPH_ROWS; row++) {
        uint b, e;
        sph_row_candidates_of(grid_rows, row, c, f, lo, hi, b, e);
        for (uint j = b; j < e; j++) {
            vec3 xij = xi - pos[j].xyz;
            float r = length(xij);
            if (j == i || !(r < prm.h) || r <= 0.0)
                continue;
            float w = foam_weight(r);
            vec3 vij = vi - vel[j].xyz;
            ta += length(vij) * (1.0 - dot(foam_unit(vij), xij / r)) * w;
            if (dot(-xij / r, ni) < 0.0)
                wc += (1.0 - dot(ni, foam_unit(normal[j].xyz))) * w;
        }
    }
    if (!surface || dot(foam_unit(vi), ni) < pc.motion.z)
        wc = 0.0;
    float ek = 0.5 * dot(vi, vi);
    float rate = foam_clamp(ek, pc.energy.x, pc.energy.y) *
                 (pc.rate.x * foam_clamp(ta, pc.limits.x, pc.limits.y) + pc.rate.y * foam_clamp(wc, pc.limits.z, pc.limits.w));
    float want = pc.rate.z * rate + foam_random(ids[i], 0u);
    uint k = uint(min(floor(want), 64.0));
    gen[i] = k;
    potential[i] = vec4(ta, wc, ek, float(k));
}
