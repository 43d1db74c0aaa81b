#version 450
// The divergence solve's error pass (Bender & Koschier 2017, Algorithm 2):
// D rho_i / Dt = sum_j m (v_i - v_j) . grad W_ij over the pairs and their
// images (velocities reflected or reversed: the walls), and the step's
// kappa_v raised by D rho / Dt alpha_i but kept >= 0 (a projected Jacobi
// step on the total, so the warm start can come down) and 0 at the free
// surface (rho_i < 0.95 rho0: the divergence there is the surface's, not an
// error); its change goes to dfsph_div_update. The average error
// max(D rho / Dt, 0) dt / rho0 decides whether the solve goes on
// (dfsph_error_sum).
#define SPH_STATE_ACCESS
#include "shared.h"
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
    SPH_FOR_IMAGE_SETS(m, term(s, sph_mirror(xj, mask, m, false), sph_mirror(vj, mask, m, true));)
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
        bool surface = ra.x < 0.95 * prm.rho0;
        float now = warm[i].y * (pc.mode == 0u ? dfsph_warm : 1.0); // the step's kappa_v so far
        float next = surface ? 0.0 : max(now + s.div * ra.y, 0.0);
        kappa[i] = next - now; // the correction: the pressure stays >= 0
        e = surface ? 0.0 : max(s.div, 0.0) * ctl.dt / prm.rho0;
    }
    dfsph_error_sum(e, true);
}
