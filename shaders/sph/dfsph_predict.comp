#version 450
// The non-pressure forces of a DFSPH substep and the density solve's warm
// start: v* = v + dt (gravity, damping, the interactive force) + XSPH
// (c dt sum_j (m / rho_j) (v_j - v_i) W_ij, c per second) + the viscosity
// force of sph_forces (dt (mu m / rho_i) sum_j (v_j - v_i) lap W_ij / rho_j,
// the viscosity-kernel Laplacian; sph_common.glsl's sph_visc_gain) - dt sum_j m
// (k_i / rho_i + k_j / rho_j) grad W_ij with k the last step's kappa
// (dfsph_warm of it),
// over the pairs and their images.
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "dfsph_common.glsl"

struct sums {
    vec3 xi, vi;
    float ki; // the warm kappa_i / rho_i
    vec3 xsph, dv;
    vec3 visc;  // sum_j (1 - r/h) (v_j - v_i) / rho_j (the viscosity)
    float diag; // sum_j (1 - r/h) / rho_j over the others (its diagonal)
};

void term(inout sums s, vec3 x, vec3 v, float rho, float kj)
{
    vec3 d = s.xi - x;
    float r2 = dot(d, d);
    if (!(r2 < prm.h2))
        return;
    float t = 1.0 - r2 * prm.inv_h * prm.inv_h;
    s.xsph += (prm.mass / rho * prm.poly6 * t * t * t) * (v - s.vi);
    s.dv -= (prm.mass * (s.ki + kj)) * dfsph_grad(d);
    if (r2 > 1e-12 * prm.h2) {
        float omq = (1.0 - sqrt(r2) * prm.inv_h) / rho;
        s.visc += omq * (v - s.vi);
        s.diag += omq;
    }
}

void visit(inout sums s, sph_mirrors m, uint j)
{
    vec3 xj = x_at(j);
    vec3 d = s.xi - xj;
    if (!(dot(d, d) < prm.h2))
        return;
    vec3 vj = v_at(j);
    float rho = dens_at(j).x;
    float kj = dfsph_warm * warm_at(j).x / rho;
    term(s, xj, vj, rho, kj);
    SPH_FOR_IMAGE_SETS(m, term(s, sph_mirror(xj, mask, m, false), sph_mirror(vj, mask, m, true), rho, kj);)
}

void main()
{
    uint i;
    if (!dfsph_particle(i))
        return;
    float dt = ctl.dt;
    sums s;
    s.xi = x_at(i);
    s.vi = v_at(i);
    float rho_i = dens_at(i).x;
    s.ki = dfsph_warm * warm_at(i).x / rho_i;
    s.xsph = vec3(0.0);
    s.dv = vec3(0.0);
    s.visc = vec3(0.0);
    s.diag = 0.0;
    sph_mirrors m = sph_mirrors_at(s.xi);
    DFSPH_FOR_NEIGHBOURS(i, s.xi, visit(s, m, j);)
    vec3 v = s.vi + dt * sph_external(s.xi, s.vi, pc.interact, pc.strength) + min(prm.xsph * dt, 1.0) * s.xsph +
             sph_visc_gain(dt, rho_i, s.diag) * s.visc + dt * s.dv;
    vstar[i] = vec4(v, 0.0);
}
