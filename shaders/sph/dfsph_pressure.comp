#version 450
// The density solve's error pass (Bender & Koschier 2017, Algorithm 3): the
// predicted density rho*_i = rho_i + dt sum_j m (v*_i - v*_j) . grad W_ij
// over the pairs and their images (velocities reflected, as in
// dfsph_divergence), and the correction kappa_i =
// max(rho*_i - rho0, 0) alpha_i / dt^2 for dfsph_press_update: a Jacobi
// step that only raises the pressure (as SPlisHSPlasH's; one that may lower
// it diverges). The average error max(rho* - rho0, 0) / rho0 decides
// whether the solve goes on (dfsph_error_sum).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "dfsph_common.glsl"

struct sums {
    vec3 xi, vi;
    float div;
};

void term(inout sums s, vec3 x, vec3 v)
{
    s.div += prm.mass * dot(s.vi - v, dfsph_grad(s.xi - x));
}

void visit(inout sums s, sph_mirrors m, uint j)
{
    vec3 xj = x_at(j);
    vec3 d = s.xi - xj;
    if (!(dot(d, d) < prm.h2))
        return;
    vec3 vj = vstar_at(j);
    term(s, xj, vj);
    SPH_FOR_IMAGE_SETS(m, term(s, sph_mirror(xj, mask, m, false), sph_reflect(vj, mask, m));)
}

void main()
{
    uint i;
    float e = 0.0;
    if (dfsph_particle(i)) {
        float dt = ctl.dt;
        sums s;
        s.xi = x_at(i);
        s.vi = vstar_at(i);
        s.div = 0.0;
        sph_mirrors m = sph_mirrors_at(s.xi);
        DFSPH_FOR_NEIGHBOURS(i, s.xi, visit(s, m, j);)
        vec2 ra = dens_at(i);
        float excess = max(ra.x + dt * s.div - prm.rho0, 0.0);
        kappa[i] = excess * ra.y / (dt * dt);
        e = excess / prm.rho0;
    }
    dfsph_error_sum(e, false);
}
