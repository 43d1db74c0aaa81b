/* Position-based fluids (VF_SPH_METHOD_PBF) on the GPU against the CPU
 * brute-force reference of a whole substep (tests/ref/solver_sph_ref.c:
 * prediction, density-constraint iterations, final velocity, XSPH, the
 * viscosity force, vorticity and its confinement), for a random
 * configuration: a jittered
 * lattice (+-40 % of the spacing) with random velocities (+-0.5 m/s) against
 * the walls, a sphere and a box obstacle, with the interactive force on (in
 * the case of two substeps neither: gravity and the force drive particles
 * into the obstacles, whose surfaces gather them so close that the
 * direction between two of them is set by rounding); no-slip walls; in the two last cases +-10 % and +-0.25 or +-0.1 m/s, and in the last a
 * relaxation of 10 (at h = 4 spacings the lattice's poly6 sum is not 1 and
 * the first correction is large): at +-40 % their results move by 2e-5 to
 * 3e-5 h when the input moves by one ulp (fp32 cannot hold them to 1e-5 h).
 * Tolerances: positions 1e-5 h; velocities 1e-4 relative with a floor of
 * 1e-3 of the largest; densities 1e-4 relative; the pressures (the virial
 * of the substep's corrections, pbf_common.glsl's pbf_pressure), 1e-3
 * relative with a floor of 1e-2 of the largest (a lambda is a difference of
 * densities near rho0 over sums of squared gradients: fp32 keeps about 4
 * digits of it, fewer where it is near 0). Cases: one iteration without XSPH, vorticity or the
 * artificial pressure; three iterations with all of them and negative
 * pressures kept; the same reading the neighbours from storage buffers; two
 * substeps inside a frame (the first one's last pass predicts and bins the
 * second); h = 4 spacings, where the neighbour bits overflow; and the
 * viscosity: alone at mu 5 Pa s (dt mu m lap W sum / rho^2 about 0.2: the
 * update moves a velocity about 20 % of the way to its neighbours' mean)
 * and at 1e4 Pa s, where the gain is held to 1 / diag (sph_visc_gain:
 * the velocities become their neighbours' means, a tenth of their size, so
 * the lattice is jittered by +-10 % only, which keeps the positions'
 * rounding, 1e-5 m/s in (x - x0) / dt, below 1e-4 of them), and
 * at 5 Pa s in two substeps of a frame with XSPH and confinement (the
 * cases are drawn in this order from one random sequence). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "solver_sph.h"
#include "solver_sph_ref.h"
#include "testlib.h"

static uint64_t rng_state = 192837465;

typedef struct pbf_case {
    const char *name;
    uint32_t iterations, substeps;
    double xsph, vorticity, tensile_k, smoothing;
    double viscosity; /* mu, Pa s */
    bool keep_negative, buffer_reads;
    double jitter, speed; /* of the lattice, in spacings; of the random velocities, m/s */
    uint32_t per_frame;   /* substeps a frame (the substep is 1/60 s over it) */
    double relaxation;
    bool push, obstacles; /* the interactive force on; the sphere and the box */
} pbf_case;

/* The GPU's state after `substeps` substeps (the last with finish) against
 * the reference's. */
static void compare(const vf_sph_params *prm, const vf_sph_snapshot *after, uint32_t n, const uint32_t *where,
                    const float (*p)[4], const float (*v)[4], const double *rho, const double *press)
{
    double vmax = 0, pmax = 0;
    for (uint32_t i = 0; i < n; i++) {
        vmax = fmax(vmax, vf_test_norm3((double[]){v[i][0], v[i][1], v[i][2]}));
        pmax = fmax(pmax, fabs(press[i]));
    }
    double ep = 0, ev = 0, er = 0, el = 0;
    for (uint32_t k = 0; k < after->count; k++) {
        uint32_t j = after->id[k] < n ? where[after->id[k]] : 0;
        double dp[3], dv[3];
        for (int a = 0; a < 3; a++) {
            dp[a] = after->pos[k][a] - p[j][a];
            dv[a] = after->vel[k][a] - v[j][a];
        }
        ep = fmax(ep, vf_test_norm3(dp) / prm->h);
        ev = fmax(ev, vf_test_norm3(dv) / fmax(vf_test_norm3((double[]){v[j][0], v[j][1], v[j][2]}), 1e-3 * vmax));
        er = fmax(er, fabs(after->dens[k][0] - rho[j]) / rho[j]);
        /* the substep's end reports the pressure of its corrections */
        el = fmax(el, fabs(after->dens[k][1] - press[j]) / fmax(fabs(press[j]), 1e-2 * pmax));
    }
    printf("  max error: position %.2e h, velocity %.2e, density %.2e, pressure %.2e (largest |p| %.3g Pa, "
           "speed %.3g m/s)\n",
           ep, ev, er, el, pmax, vmax);
    CHECK_LE(ep, 1e-5);
    CHECK_LE(ev, 1e-4);
    CHECK_LE(er, 1e-4);
    CHECK_LE(el, 1e-3);
}

static void run_case(vf_gpu *gpu, const pbf_case *c)
{
    vf_test_section(c->name);
    const double s = 0.02, h = c->smoothing * s;
    const int m = 10;
    vf_test_cluster cl = vf_test_sph_cluster(&rng_state, m, s, 0.011, 2 * c->jitter, 2 * c->speed);
    float(*pos)[4] = cl.pos, (*vel)[4] = cl.vel;
    uint32_t n = cl.n;
    vf_sph_desc d = {0};
    for (int k = 0; k < 3; k++)
        d.hi[k] = 0.3;
    d.spacing = s;
    d.h = h;
    d.rho0 = 1000;
    d.sound_speed = 12;
    d.keep_negative_pressure = c->keep_negative;
    d.buffer_reads = c->buffer_reads;
    d.damping = 0.3;
    d.restitution = 0.5;
    d.gravity[1] = -9.81;
    d.cfl = 0.25;
    d.frame_dt = 1.0 / 60;
    d.method = VF_SPH_PBF;
    d.walls = VF_SPH_WALLS_NOSLIP;
    d.pbf_substeps = c->per_frame;
    d.pbf_iterations = c->iterations;
    d.pbf_relaxation = c->relaxation;
    d.pbf_tensile_k = c->tensile_k;
    d.pbf_tensile_dq = 0.2;
    d.pbf_tensile_n = 4;
    d.xsph = c->xsph;
    d.viscosity = c->viscosity;
    d.vorticity = c->vorticity;
    d.interact[0] = d.interact[1] = d.interact[2] = 0.12;
    d.interact[3] = c->push ? 0.08 : 0;
    d.interact_strength = 30;
    vf_test_sph_obstacles(&d);
    d.sphere_count = d.box_count = c->obstacles ? 1 : 0;
    d.count = n;
    d.pos = (const float (*)[4])pos;
    d.vel = (const float (*)[4])vel;
    vf_sph *sph = vf_test_sph(gpu, &d);
    if (!sph)
        goto done;
    const vf_sph_params *prm = vf_sph_get_params(sph);
    vf_pbf_push push = {.strength = (float)d.interact_strength};
    for (int k = 0; k < 4; k++)
        push.interact[k] = (float)d.interact[k];
    double dt = vf_sph_dt(sph);
    printf("  %u particles, h = %.2f spacings, dt %.4g s, %u iteration(s), xsph %g, viscosity %g Pa s, vorticity %g m/s, "
           "s_corr k %g\n",
           n, c->smoothing, dt, c->iterations, c->xsph, c->viscosity, c->vorticity, c->tensile_k);

    vf_sph_snapshot start;
    if (!CHECK(vf_sph_read(sph, false, &start) == VF_OK))
        goto done;
    n = start.count;
    float(*p)[4] = malloc(16ull * n), (*v)[4] = malloc(16ull * n);
    double *rho = malloc(8ull * n), *press = malloc(8ull * n);
    uint32_t *where = vf_test_sph_where(&start, n);
    memcpy(p, start.pos, 16ull * n);
    memcpy(v, start.vel, 16ull * n);
    for (uint32_t sub = 0; sub < c->substeps; sub++)
        CHECK(vf_sph_ref_pbf_substep(prm, &push, c->iterations, (float)dt, n, p, v, rho, press) == VF_OK);

    VkCommandBuffer cmd;
    if (CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
        vf_result r = VF_OK;
        for (uint32_t sub = 0; sub < c->substeps && r == VF_OK; sub++)
            r = vf_sph_record_substep(sph, cmd, NULL, dt, sub + 1 == c->substeps);
        if (CHECK(r == VF_OK))
            CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        else
            vf_cmd_oneshot_abandon(gpu, cmd);
    }
    vf_sph_snapshot after;
    if (CHECK(vf_sph_read(sph, false, &after) == VF_OK)) {
        CHECK_EQ_INT(after.count, n);
        compare(prm, &after, n, where, (const float (*)[4])p, (const float (*)[4])v, rho, press);
        vf_sph_snapshot_free(&after);
    }
    vf_sph_snapshot_free(&start);
    free(p);
    free(v);
    free(rho);
    free(press);
    free(where);
done:
    vf_sph_destroy(&sph);
    free(pos);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    const pbf_case cases[] = {
        {"one iteration, no XSPH, viscosity, vorticity or artificial pressure", 1, 1, 0, 0, 0, 2.41, 0, false, false, 0.4, 0.5, 2, 0.01, true, true},
        {"two iterations", 2, 1, 0, 0, 0, 2.41, 0, false, false, 0.4, 0.5, 2, 0.01, true, true},
        {"one iteration, XSPH", 1, 1, 6.0, 0, 0, 2.41, 0, false, false, 0.4, 0.5, 2, 0.01, true, true},
        {"one iteration, artificial pressure", 1, 1, 0, 0, 0.1, 2.41, 0, false, false, 0.4, 0.5, 2, 0.01, true, true},
        {"three iterations, XSPH, vorticity confinement, artificial pressure, negative pressure kept", 3, 1, 6.0, 0.5,
         0.1, 2.41, 0, true, false, 0.4, 0.5, 2, 0.01, true, true},
        {"the same, neighbours from storage buffers", 3, 1, 6.0, 0.5, 0.1, 2.41, 0, true, true, 0.4, 0.5, 2, 0.01, true, true},
        {"two substeps of a frame (the first one's last pass predicts and bins the second)", 2, 2, 6.0, 0.5, 0.1,
         2.41, 0, false, false, 0.1, 0.25, 2, 0.01, false, false},
        {"h = 4 spacings (the neighbour bits overflow)", 2, 1, 6.0, 0, 0.1, 4.0, 0, false, false, 0.1, 0.1, 2, 10.0, true, true},
        {"one iteration, viscosity", 1, 1, 0, 0, 0, 2.41, 5.0, false, false, 0.4, 0.5, 2, 0.01, true, true},
        {"one iteration, a viscosity past the step's limit (the gain held)", 1, 1, 0, 0, 0, 2.41, 1e4, false, false, 0.1, 0.5, 2, 0.01, true, true},
        {"two substeps of a frame with XSPH, confinement and the viscosity", 2, 2, 6.0, 0.5, 0.1, 2.41, 5.0, false, false,
         0.1, 0.25, 2, 0.01, false, false},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        run_case(gpu, &cases[k]);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
