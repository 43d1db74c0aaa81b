#version 450
// The density constraint of one PBF iteration (Macklin & Mueller 2013, eq. 11):
// C_i = rho_i / rho0 - 1 (clamped at 0 unless negative pressures are kept),
// lambda_i = -C_i / (sum_k |grad_k C_i|^2 + epsilon) with grad_k C_i =
// V grad W_ik (V = m / rho0, the spiky gradient), over the pairs within h
// and their mirror images near walls and obstacles (pbf_common.glsl).
// Writes the record (x_i, lambda_i) pbf_delta reads and (density, sum of
// the iterations' lambda). The first iteration (VF_PBF_FIRST) reads the
// binned positions, walks the rows of cells as sph_density does and writes
// the neighbour bits (the candidates within h: the pairs of the substep);
// the others read this iteration's positions and visit the pairs.
#define SPH_STATE_ACCESS
#include "shared.h"
#include "pbf_common.glsl"

layout(std430, binding = VF_PBF_BIND_DENS) buffer Dens { vec2 dens[]; };
layout(std430, binding = VF_PBF_LAMBDA_BIND_X) readonly buffer X { vec4 xk[]; };
layout(binding = VF_PBF_LAMBDA_BIND_X_T) uniform samplerBuffer xk_t;
layout(std430, binding = VF_PBF_LAMBDA_BIND_REC) writeonly buffer Rec { vec4 rec[]; };

struct sums {
    vec3 xi;
    float w;    // sum of the poly6 shapes
    vec3 grad;  // sum_j V grad W_ij (= grad_i C_i)
    float sq;   // sum_j |V grad W_ij|^2
    float h2, r_min2, volume;
    bool first;
};

vec3 x_at(sums s, uint j)
{
    if (s.first)
        return x0_at(j);
    return sph_texel ? texelFetch(xk_t, int(j)).xyz : xk[j].xyz;
}

// A point at offset d from x_i (a pair or an image).
void term(inout sums s, vec3 d)
{
    float r2 = dot(d, d);
    if (!(r2 < s.h2))
        return;
    s.w += pbf_w(r2);
    if (r2 > s.r_min2) {
        vec3 g = s.volume * pbf_grad(d, r2);
        s.grad += g;
        s.sq += dot(g, g);
    }
}

// Candidate j: its term and its images when it lies within h; true then.
bool visit(inout sums s, sph_mirrors m, uint j)
{
    vec3 xj = x_at(s, j);
    vec3 d = s.xi - xj;
    bool near = dot(d, d) < s.h2;
    if (near) {
        term(s, d);
        PBF_FOR_IMAGE_SETS(m, term(s, s.xi - sph_mirror(xj, mask, m, false));)
    }
    return near;
}

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    sums s;
    s.first = (pc.flags & VF_PBF_FIRST) != 0u;
    vec3 x0 = x0_at(i);
    s.xi = x_at(s, i);
    s.w = 0.0;
    s.grad = vec3(0.0);
    s.sq = 0.0;
    s.h2 = prm.h2;
    s.r_min2 = 1e-12 * prm.h2;
    s.volume = prm.volume;
    sph_mirrors m = sph_mirrors_at(s.xi);
    if (s.first) {
        // the rows of x0, as sph_density, writing the bits
        ivec3 c = sph_cell3(x0);
        vec3 f = sph_rows_at(x0);
        uvec4 m0 = uvec4(0u), m1 = uvec4(0u);
        uint at = 0u, acc = 0u;
        ivec2 lo0, hi0;
        sph_row_bounds(c, f, lo0, hi0);
        sph_rows g = sph_rows_of();
        for (int r = 0; r < SPH_ROWS; r++) {
            uint b, e;
            sph_row_candidates_of(g, r, c, f, lo0, hi0, b, e);
            uint rbits = 0u, bit = 1u;
            for (uint j = b; j < e; j++) {
                rbits |= visit(s, m, j) ? bit : 0u;
                bit <<= 1u;
            }
            sph_mask_push(m0, m1, acc, at, rbits, min(e - b, 32u));
        }
        sph_mask_flush(m0, m1, acc, at);
        for (uint k = 0u; k < VF_SPH_MASK_WORDS; k++)
            bits[VF_SPH_MASK_WORDS * i + k] = k < 4u ? m0[k & 3u] : m1[k & 3u];
    } else {
        PBF_FOR_NEIGHBOURS(i, x0, visit(s, m, j);)
    }
    float rho = prm.mass * prm.poly6 * s.w;
    float c = rho / prm.rho0 - 1.0;
    if (prm.clamp_pressure != 0u)
        c = max(c, 0.0);
    float lambda = -c / (dot(s.grad, s.grad) + s.sq + prm.pbf_relax);
    rec[i] = vec4(s.xi, lambda);
    dens[i] = vec2(rho, s.first ? lambda : dens[i].y + lambda);
}
