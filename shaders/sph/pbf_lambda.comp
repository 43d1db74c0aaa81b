#version 450
// The density constraint of one PBF iteration (Macklin & Mueller 2013, eq. 11):
// C_i = rho_i / rho0 - 1 (clamped at 0 unless negative pressures are kept),
// lambda_i = -C_i / (sum_k |grad_k C_i|^2 + epsilon) with grad_k C_i =
// V grad W_ik (V = m / rho0, the spiky gradient), over the pairs within h
// and their mirror images near walls and obstacles (pbf_common.glsl: in a
// second walk over the pairs); an image moves with its original (reflected),
// so its gradient counts with its original's in grad_k C_i, and a
// particle's own images in grad_i C_i.
// Writes the record (x_i, lambda_i) pbf_delta reads and the density. The
// first iteration (VF_PBF_FIRST) reads the
// binned positions, walks the rows of cells as sph_density does and writes
// the neighbour bits (the candidates within h: the pairs of the substep);
// the others read this iteration's positions and visit the pairs.
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "pbf_common.glsl"

layout(std430, binding = VF_PBF_LAMBDA_BIND_X) readonly buffer X { vec4 xk[]; };
layout(binding = VF_PBF_LAMBDA_BIND_X_T) uniform samplerBuffer xk_t;
layout(std430, binding = VF_PBF_LAMBDA_BIND_REC) writeonly buffer Rec { vec4 rec[]; };

struct sums {
    vec3 xi;
    float w;    // sum of the poly6 shapes
    vec3 grad;  // sum_j V grad W_ij over the pairs and images (= grad_i C_i, but for the particle's own images)
    float sq;   // sum_j |grad_j C_i|^2 over the other particles
    vec3 own;   // the reflected gradients of the particle's own images (grad_i C_i = grad - own)
    float h2, r_min2, volume;
    bool first;
};

vec3 x_at(sums s, uint j)
{
    if (s.first)
        return x0_at(j);
    return sph_texel ? texelFetch(xk_t, int(j)).xyz : xk[j].xyz;
}

// A point at offset d from x_i (a pair or an image): its poly6 shape; its
// gradient V grad W (0 beyond h and for the particle itself).
vec3 term(inout sums s, vec3 d)
{
    float r2 = dot(d, d);
    if (!(r2 < s.h2))
        return vec3(0.0);
    s.w += pbf_w(r2);
    if (!(r2 > s.r_min2))
        return vec3(0.0);
    vec3 g = s.volume * pbf_grad(d, r2);
    s.grad += g;
    return g;
}

// Candidate j: its term when it lies within h; true then.
bool visit(inout sums s, uint j, uint i)
{
    vec3 xj = x_at(s, j);
    vec3 d = s.xi - xj;
    bool near = dot(d, d) < s.h2;
    if (near) {
        vec3 c = term(s, d);
        if (j != i)
            s.sq += dot(c, c);
    }
    return near;
}

// The images of pair j (the second walk): grad_j C_i = -(its gradient c +
// its images' reflected back, ci), so |grad_j C_i|^2 gains 2 c.ci + |ci|^2
// over the first walk's |c|^2; for j = i (c = 0) the images' reflected
// gradients belong to grad_i C_i (an image moves with i).
void visit_images(inout sums s, sph_mirrors m, uint j, uint i)
{
    vec3 xj = x_at(s, j);
    vec3 d = s.xi - xj;
    float r2 = dot(d, d);
    if (r2 < s.h2) {
        vec3 c = r2 > s.r_min2 ? s.volume * pbf_grad(d, r2) : vec3(0.0);
        vec3 ci = vec3(0.0);
        PBF_FOR_IMAGE_SETS(m, ci += sph_reflect(term(s, s.xi - sph_mirror(xj, mask, m, false)), mask, m);)
        if (j == i)
            s.own += ci;
        else
            s.sq += dot(ci, ci) + 2.0 * dot(c, ci);
    }
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
    s.own = vec3(0.0);
    s.h2 = prm.h2;
    s.r_min2 = 1e-12 * prm.h2;
    s.volume = prm.volume;
    sph_mirrors m = sph_mirrors_at(s.xi);
    uvec4 m0 = uvec4(0u), m1 = uvec4(0u); // the neighbour bits
    if (s.first) {
        // the rows of x0, as sph_density, writing the bits
        ivec3 c = sph_cell3(x0);
        vec3 f = sph_rows_at(x0);
        uint at = 0u, acc = 0u;
        ivec2 lo0, hi0;
        sph_row_bounds(c, f, lo0, hi0);
        sph_rows g = sph_rows_of();
        for (int r = 0; r < SPH_ROWS; r++) {
            uint b, e;
            sph_row_candidates_of(g, r, c, f, lo0, hi0, b, e);
            uint rbits = 0u, bit = 1u;
            for (uint j = b; j < e; j++) {
                rbits |= visit(s, j, i) ? bit : 0u;
                bit <<= 1u;
            }
            sph_mask_push(m0, m1, acc, at, rbits, min(e - b, 32u));
        }
        sph_mask_flush(m0, m1, acc, at);
        for (uint k = 0u; k < VF_SPH_MASK_WORDS; k++)
            bits[VF_SPH_MASK_WORDS * i + k] = k < 4u ? m0[k & 3u] : m1[k & 3u];
    } else {
        pbf_bits(i, m0, m1);
        PBF_FOR_PAIRS(x0, m0, m1, visit(s, j, i);)
    }
    PBF_FOR_PAIR_IMAGES(m, x0, m0, m1, visit_images(s, m, j, i);)
    float rho = prm.mass * prm.poly6 * s.w;
    float c = rho / prm.rho0 - 1.0;
    if (prm.clamp_pressure != 0u)
        c = max(c, 0.0);
    vec3 gi = s.grad - s.own;
    float lambda = -c / (dot(gi, gi) + s.sq + prm.pbf_relax);
    rec[i] = vec4(s.xi, lambda);
    dens[i].x = rho;
}
