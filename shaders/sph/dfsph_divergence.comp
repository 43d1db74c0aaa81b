#version 450
// The divergence solve's error pass (Bender & Koschier 2017, Algorithm 2):
// D rho_i / Dt = sum_j m (v_i - v_j) . grad W_ij over the pairs and their
// images (velocities reflected: the walls do not let the fluid through;
// no-slip is the viscosity's business), kept only where it
// compresses and the particle is not at the free surface (rho_i >= 0.95
// rho0: the divergence there is the surface's, not an error), and the
// correction kappa_v = D rho / Dt alpha_i for dfsph_div_update: a Jacobi
// step that only raises the pressure (as SPlisHSPlasH's; one that may
// lower it diverges). The average error max(D rho / Dt, 0) dt / rho0
// decides whether the solve goes on (dfsph_error_sum).
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
    vec3 vj = v_at(j);
    term(s, xj, vj);
    SPH_FOR_IMAGE_SETS(m, term(s, sph_mirror(xj, mask, m, false), sph_reflect(vj, mask, m));)
}

void main()
{
    uint i;
    float e = 0.0;
    if (dfsph_particle(i)) {
        sums s;
        s.xi = x_at(i);
        s.vi = v_at(i);
        s.div = 0.0;
        sph_mirrors m = sph_mirrors_at(s.xi);
        DFSPH_FOR_NEIGHBOURS(i, s.xi, visit(s, m, j);)
        vec2 ra = dens_at(i);
        float div = ra.x >= 0.95 * prm.rho0 ? max(s.div, 0.0) : 0.0;
        kappa[i] = div * ra.y;
        e = div * ctl.dt / prm.rho0;
    }
    dfsph_error_sum(e, true);
}
