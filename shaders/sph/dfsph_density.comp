#version 450
// DFSPH after the binning (Bender & Koschier 2017, eq. 11): the density and
// the factor alpha_i = rho_i / (|sum_j m grad W_ij|^2 + sum_j |m grad W_ij|^2)
// over the pairs within h and their mirror images (sph_density's images; an
// image's velocity is its original's mirrored, so its gradient counts with
// its original's, and a particle's own images' in the first sum), the
// neighbour bits of the substep (as sph_density), and the divergence solve's
// warm start: the last step's kappa_v (dfsph_warm of it), v_i -= sum_j m
// (k_i + k_j) / rho0 grad W_ij (the densities of this step are not known
// yet: rho0 stands in).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "dfsph_common.glsl"

struct sums {
    vec3 xi;
    float w;    // sum of the kernel's shapes (dfsph_shape)
    vec3 grad;  // sum_j m grad W_ij over the pairs and images
    float sq;   // sum over the other particles j of |their coefficient in D rho_i / Dt|^2
    vec3 own;   // the particle's own images' gradients, moved as their velocity is (a_ii = grad - own)
    vec3 dv;    // the warm start
    float ki;   // the particle's warm kappa_v
};

// A point at offset d (a pair or an image) with warm kappa_v kj: its shape,
// the warm start, and its gradient m grad W (0 beyond h and for i itself).
vec3 term(inout sums s, vec3 d, float kj)
{
    float r2 = dot(d, d);
    if (!(r2 < prm.h2))
        return vec3(0.0);
    s.w += dfsph_shape(r2);
    vec3 g = prm.mass * dfsph_grad(d);
    s.grad += g;
    s.dv -= (s.ki + kj) * g;
    return g;
}

// Candidate j within h: its term and its images'. In D rho_i / Dt the
// velocity of j's image is j's reflected (dfsph_divergence), so the
// coefficient of v_j is its gradient plus its images' reflected back; for
// j = i those of the images belong to the diagonal.
bool visit(inout sums s, sph_mirrors m, uint j, uint i)
{
    vec3 xj = x_at(j);
    vec3 d = s.xi - xj;
    if (!(dot(d, d) < prm.h2))
        return false;
    float kj = dfsph_warm * warm_at(j).y;
    vec3 c = term(s, d, kj);
    SPH_FOR_IMAGE_SETS(m, c += sph_reflect(term(s, s.xi - sph_mirror(xj, mask, m, false), kj), mask, m);)
    if (j == i)
        s.own += c;
    else
        s.sq += dot(c, c);
    return true;
}

void main()
{
    uint i;
    if (!dfsph_particle(i))
        return;
    sums s;
    s.xi = x_at(i);
    s.w = 0.0;
    s.grad = vec3(0.0);
    s.sq = 0.0;
    s.dv = vec3(0.0);
    s.own = vec3(0.0);
    s.ki = dfsph_warm * warm_at(i).y;
    sph_mirrors m = sph_mirrors_at(s.xi);
    ivec3 c = sph_cell3(s.xi);
    vec3 f = sph_rows_at(s.xi);
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
            rbits |= visit(s, m, j, i) ? bit : 0u;
            bit <<= 1u;
        }
        sph_mask_push(m0, m1, acc, at, rbits, min(e - b, 32u));
    }
    sph_mask_flush(m0, m1, acc, at);
    for (uint k = 0u; k < VF_SPH_MASK_WORDS; k++)
        bits[VF_SPH_MASK_WORDS * i + k] = k < 4u ? m0[k & 3u] : m1[k & 3u];
    float rho = prm.mass * prm.dfsph_w * s.w;
    vec3 a = s.grad - s.own;
    float denom = dot(a, a) + s.sq;
    float scale = prm.mass * prm.dfsph_grad * prm.h; // the gradients' scale (at most 0.105 of it, at r = h / 4)
    float alpha = denom > 1e-6 * scale * scale ? rho / denom : 0.0;
    dens[i] = vec2(rho, alpha);
    vel[i].xyz += s.dv / prm.rho0;
}
