#version 450
// A correction of the density solve (Bender & Koschier 2017, eq. 7):
// v*_i -= dt sum_j m (kappa_i / rho_i + kappa_j / rho_j) grad W_ij over the
// pairs and their images, with kappa the correction dfsph_pressure made, and the
// step's kappa summed (the first correction starts from what the warm start
// applied).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "dfsph_common.glsl"

struct sums {
    vec3 xi;
    float ki; // kappa_i / rho_i
    vec3 dv;
};

void term(inout sums s, vec3 x, float kj)
{
    s.dv -= (prm.mass * (s.ki + kj)) * dfsph_grad(s.xi - x);
}

void visit(inout sums s, sph_mirrors m, uint j)
{
    vec3 xj = x_at(j);
    vec3 d = s.xi - xj;
    if (!(dot(d, d) < prm.h2))
        return;
    float kj = kappa_at(j) / dens_at(j).x;
    term(s, xj, kj);
    SPH_FOR_IMAGE_SETS(m, term(s, sph_mirror(xj, mask, m, false), kj);)
}

void main()
{
    uint i;
    if (!dfsph_particle(i))
        return;
    sums s;
    s.xi = x_at(i);
    float k = kappa_at(i);
    s.ki = k / dens_at(i).x;
    s.dv = vec3(0.0);
    sph_mirrors m = sph_mirrors_at(s.xi);
    DFSPH_FOR_NEIGHBOURS(i, s.xi, visit(s, m, j);)
    vstar[i].xyz += ctl.dt * s.dv;
    vec2 w = warm[i];
    warm[i] = vec2((pc.mode == 0u ? dfsph_warm * w.x : w.x) + k, w.y);
}
