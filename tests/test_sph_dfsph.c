/* Divergence-free SPH (VF_SPH_METHOD_DFSPH) on the GPU against the CPU
 * brute-force reference of a whole substep (tests/ref/solver_sph_ref.c:
 * density and alpha, the divergence solve, external forces, XSPH and the
 * viscosity force, the density solve, both warm starts, the advection),
 * for a random
 * configuration: a jittered lattice (+-30 % of the spacing) with random
 * velocities (+-0.3 m/s) against the walls, a sphere and a box obstacle,
 * with the interactive force on. The frame records one substep, which the
 * GPU must fill whole (its step is the frame), so the step is known; the
 * tolerances of the solves are 0, so each runs its recorded iterations and
 * the counts are known too. Then a second frame from the first's warm
 * start. Tolerances: positions 1e-5 h, velocities 1e-4 relative with a
 * floor of 1e-3 of the largest, densities 1e-4 relative, the warm start
 * 1e-3 relative with a floor of 1e-2 of the largest. Also the control: a
 * frame of several substeps ends at frame_dt exactly (the time the GPU
 * kept), the solves stop at their tolerance when it is reachable, and with
 * more substeps needed than recorded the last ones are counted as capped.
 * The viscosity: mu 20 Pa s (dt mu m lap W sum / rho^2 about 0.3: the
 * update moves a velocity about 30 % of the way to its neighbours' mean),
 * and 1e4 Pa s with no-slip walls, where the gain is held to 1 / diag
 * (sph_visc_gain). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "solver.h"
#include "solver_sph.h"
#include "solver_sph_ref.h"
#include "testlib.h"

static uint64_t rng_state = 246813579;

static void base_desc(vf_sph_desc *d, double s)
{
    memset(d, 0, sizeof *d);
    for (int k = 0; k < 3; k++)
        d->hi[k] = 0.3;
    d->spacing = s;
    d->h = 2.41 * s;
    d->rho0 = 1000;
    d->sound_speed = 12;
    d->damping = 0.3;
    d->restitution = 0.5;
    d->gravity[1] = -9.81;
    d->cfl = 0.25;
    d->method = VF_SPH_DFSPH;
    d->xsph = 6;
    d->speed_ref = 1;
}

/* The kernels: frames of one recorded substep (the frame's step) and solves
 * that run every recorded iteration, against the CPU. */
static void kernels(vf_gpu *gpu, const char *name, bool noslip, bool buffer_reads, double viscosity)
{
    vf_test_section(name);
    const double s = 0.02;
    const int m = 9;
    vf_test_cluster cl = vf_test_sph_cluster(&rng_state, m, s, 0.011, 2 * 0.3, 2 * 0.3);
    float(*pos)[4] = cl.pos, (*vel)[4] = cl.vel;
    uint32_t n = cl.n;
    vf_sph_desc d;
    base_desc(&d, s);
    d.walls = noslip ? VF_SPH_WALLS_NOSLIP : VF_SPH_WALLS_FREESLIP;
    d.buffer_reads = buffer_reads;
    d.viscosity = viscosity;
    d.frame_dt = 0.003; /* the one substep's step */
    d.dfsph_dt_max = 1;
    d.dfsph_substeps = 1;
    d.dfsph_max_iterations = 3;
    d.dfsph_eta = d.dfsph_eta_v = 1e-30; /* every recorded iteration runs */
    d.interact[0] = d.interact[1] = d.interact[2] = 0.12;
    d.interact[3] = 0.08;
    d.interact_strength = 30;
    vf_test_sph_obstacles(&d);
    d.count = n;
    d.pos = (const float (*)[4])pos;
    d.vel = (const float (*)[4])vel;
    vf_sph *sph = vf_test_sph(gpu, &d);
    vf_solver *solver = NULL;
    if (!sph || !CHECK(vf_sph_solver_wrap(sph, gpu, &solver) == VF_OK))
        goto done;
    const vf_sph_params *prm = vf_sph_get_params(sph);
    vf_dfsph_push push = {.strength = (float)d.interact_strength};
    for (int k = 0; k < 4; k++)
        push.interact[k] = (float)d.interact[k];
    vf_sph_snapshot start;
    if (!CHECK(vf_sph_read(sph, false, &start) == VF_OK))
        goto done;
    n = start.count;
    float(*p)[4] = malloc(16ull * n), (*v)[4] = malloc(16ull * n), (*w)[2] = calloc(n, 8), (*gw)[2] = calloc(n, 8);
    double *rho = malloc(8ull * n);
    uint32_t *where = vf_test_sph_where(&start, n);
    memcpy(p, start.pos, 16ull * n);
    memcpy(v, start.vel, 16ull * n);
    printf("  %u particles, h = 2.41 spacings, %s walls%s, step %.3g s, %u iterations a solve, viscosity %g Pa s\n", n,
           noslip ? "no-slip" : "free-slip", buffer_reads ? ", storage-buffer reads" : "", d.frame_dt,
           prm->dfsph_max_iterations, viscosity);
    for (int frame = 0; frame < 2; frame++) {
        uint32_t it[2];
        CHECK(vf_sph_ref_dfsph_substep(prm, &push, d.frame_dt, n, p, v, w, rho, it) == VF_OK);
        if (!vf_test_frames(gpu, solver, 1))
            break;
        vf_sph_snapshot after;
        vf_dfsph_ctl ctl;
        if (!CHECK(vf_sph_read(sph, false, &after) == VF_OK))
            break;
        if (CHECK(vf_sph_read_dfsph(sph, gw, n, &ctl) == VF_OK)) {
            double vmax = 0, wmax[2] = {0, 0}, ep = 0, ev = 0, er = 0, ew = 0;
            for (uint32_t i = 0; i < n; i++) {
                vmax = fmax(vmax, vf_test_norm3((double[]){v[i][0], v[i][1], v[i][2]}));
                for (int c = 0; c < 2; c++)
                    wmax[c] = fmax(wmax[c], fabs(w[i][c]));
            }
            for (uint32_t k = 0; k < after.count; k++) {
                uint32_t j = after.id[k] < n ? where[after.id[k]] : 0;
                double dp[3], dv[3];
                for (int a = 0; a < 3; a++) {
                    dp[a] = after.pos[k][a] - p[j][a];
                    dv[a] = after.vel[k][a] - v[j][a];
                }
                ep = fmax(ep, vf_test_norm3(dp) / prm->h);
                ev = fmax(ev, vf_test_norm3(dv) / fmax(vf_test_norm3((double[]){v[j][0], v[j][1], v[j][2]}), 1e-3 * vmax));
                er = fmax(er, fabs(after.dens[k][0] - rho[j]) / rho[j]);
                for (int c = 0; c < 2; c++)
                    ew = fmax(ew, fabs(gw[k][c] - w[j][c]) / fmax(fabs(w[j][c]), 1e-2 * wmax[c]));
            }
            printf("  frame %d: max error position %.2e h, velocity %.2e, density %.2e, warm start %.2e; "
                   "iterations %u + %u (cpu %u + %u), substeps %u, step %.4g s\n",
                   frame, ep, ev, er, ew, ctl.div_iterations, ctl.dens_iterations, it[0], it[1], ctl.substeps,
                   ctl.dt);
            CHECK_LE(ep, 1e-5);
            CHECK_LE(ev, 1e-4);
            CHECK_LE(er, 1e-4);
            CHECK_LE(ew, 1e-3);
            CHECK_EQ_INT(ctl.substeps, (uint32_t)frame + 1);
            CHECK_EQ_INT(ctl.div_iterations, (frame + 1) * it[0]);
            CHECK_EQ_INT(ctl.dens_iterations, (frame + 1) * it[1]);
            CHECK_REL(ctl.dt, d.frame_dt, 1e-6, 0);
        }
        vf_sph_snapshot_free(&after);
    }
    vf_sph_snapshot_free(&start);
    free(p);
    free(v);
    free(w);
    free(gw);
    free(rho);
    free(where);
done:
    if (solver)
        vf_solver_destroy(&solver);
    else
        vf_sph_destroy(&sph);
    free(pos);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    kernels(gpu, "free-slip walls, viscosity", false, false, 20);
    kernels(gpu, "no-slip walls, a viscosity past the step's limit (the gain held)", true, false, 1e4);
    kernels(gpu, "no-slip walls, viscosity, neighbours from storage buffers", true, true, 20);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
