/* SPH density and forces on the GPU against the CPU brute-force O(N^2)
 * reference (tests/ref/solver_sph_ref.c), for a random configuration: a jittered
 * lattice (+-40% of the spacing) with random velocities, with surface
 * tension, damping and the interactive force on, for both equations of state.
 * Tolerance: 1e-4 relative, per particle, with the scale of each quantity
 * floored at 1e-3 of its largest value over the particles (a near-zero
 * pressure or force is compared against that floor instead of itself).
 * Also one integration step per mode against the CPU integrator. Cases: the
 * two equations of state and integrators; without surface tension (its terms
 * are specialized out of the force pass); and the neighbours read from the
 * storage buffers instead of texel views (the path of devices that cannot
 * address the particles as texels); and h = 4 spacings, where the force
 * loop's neighbour bits overflow (rows of more than 32 candidates, more
 * candidates than the bits hold) and it takes the rest of the candidates
 * whole: dropping either part fails the case. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "solver_sph.h"
#include "solver_sph_ref.h"
#include "testlib.h"

static uint64_t rng_state = 987654321;

/* Largest |a - b| / max(|b|, floor) over n vec3s (b in input order, a in GPU order via id). */
static double vec_err(uint32_t count, const uint32_t *id, const float (*a)[4], const double (*b)[3], uint32_t n, double floor_)
{
    double e = 0;
    for (uint32_t k = 0; k < count; k++) {
        uint32_t j = id[k];
        if (j >= n)
            return INFINITY;
        double diff[3] = {a[k][0] - b[j][0], a[k][1] - b[j][1], a[k][2] - b[j][2]};
        e = fmax(e, vf_test_norm3(diff) / fmax(vf_test_norm3(b[j]), floor_));
    }
    return e;
}

/* The largest speed the state holds: the larger of its two words
 * (VF_SPH_DRIFT_ODD). */
static double state_max_speed(const vf_sph_state *st)
{
    uint32_t bits = st->max_speed_bits > st->max_speed_bits_odd ? st->max_speed_bits : st->max_speed_bits_odd;
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The largest speed of n velocities, or of was. */
static double speeds_max(uint32_t n, const float (*v)[4], double was)
{
    for (uint32_t i = 0; i < n; i++)
        was = fmax(was, sqrt((double)v[i][0] * v[i][0] + (double)v[i][1] * v[i][1] + (double)v[i][2] * v[i][2]));
    return was;
}

/* One whole GPU step against the CPU: integrate (leapfrog drift or nothing),
 * brute-force density and forces at the new positions, integrate (kick or
 * symplectic Euler). start is the read-back state in GPU order. With fused
 * (leapfrog) two steps: the first a substep inside a frame, whose forces
 * pass also records its closing kick and the second's drift
 * (sph_forces_drift; on the CPU a kick, then a drift), the second a
 * whole step from there. The state's largest speed against the speeds the
 * integration passes see (after each drift and each closing kick). */
static void check_step(vf_gpu *gpu, vf_sph *sph, const vf_sph_snapshot *start, vf_sph_integrator integ, const vf_sph_forces_push *push,
                       bool fused)
{
    const vf_sph_params *prm = vf_sph_get_params(sph);
    uint32_t n = start->count;
    float dt = (float)vf_sph_dt(sph);
    float(*p)[4] = malloc(16ull * n), (*v)[4] = malloc(16ull * n), (*a)[4] = malloc(16ull * n);
    double *rho = malloc(8ull * n), *press = malloc(8ull * n), (*acc)[3] = malloc(24ull * n);
    double(*pd)[3] = malloc(24ull * n), (*vd)[3] = malloc(24ull * n);
    memcpy(p, start->pos, 16ull * n);
    memcpy(v, start->vel, 16ull * n);
    memcpy(a, start->acc, 16ull * n);
    double speed = state_max_speed(&start->state);
    for (int step = 0; step < (fused ? 2 : 1); step++) {
        if (integ == VF_SPH_LEAPFROG) {
            if (step) {
                /* the closing kick, then the drift (sph_kick_drift: the
                 * same operations), and the speed between them */
                vf_sph_ref_integrate(prm, VF_SPH_INTEGRATE_KICK, dt, n, p, v, (const float (*)[4])a);
                speed = speeds_max(n, (const float (*)[4])v, speed);
            }
            vf_sph_ref_integrate(prm, VF_SPH_INTEGRATE_DRIFT, dt, n, p, v, (const float (*)[4])a);
            speed = speeds_max(n, (const float (*)[4])v, speed);
        }
        vf_sph_ref_density(prm, n, (const float (*)[4])p, rho, press);
        vf_sph_ref_forces(prm, push, n, (const float (*)[4])p, (const float (*)[4])v, rho, press, acc);
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                a[i][k] = (float)acc[i][k];
    }
    vf_sph_ref_integrate(prm, integ == VF_SPH_LEAPFROG ? VF_SPH_INTEGRATE_KICK : VF_SPH_INTEGRATE_EULER, dt, n, p, v,
                         (const float (*)[4])a);
    speed = speeds_max(n, (const float (*)[4])v, speed);
    /* reference indexed by id */
    uint32_t *where = malloc(4ull * n);
    for (uint32_t i = 0; i < n; i++)
        where[i] = start->id[i] < n ? start->id[i] : 0;
    double vmax = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            pd[where[i]][k] = p[i][k];
            vd[where[i]][k] = v[i][k];
            vmax = fmax(vmax, fabs(v[i][k]));
        }
    if (fused) {
        /* a substep that leaves its closing kick to the forces pass, as the
         * substeps inside a frame do; a read or an evaluate before the next
         * substep is refused */
        VkCommandBuffer cmd;
        if (CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
            if (CHECK(vf_sph_record_substep(sph, cmd, NULL, vf_sph_dt(sph), false) == VF_OK)) {
                CHECK(vf_sph_record_evaluate(sph, cmd, NULL) == VF_ERR_INVALID_ARG);
                CHECK(vf_sph_record_substep(sph, cmd, NULL, 2 * vf_sph_dt(sph), true) == VF_ERR_INVALID_ARG);
                CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
            } else {
                vf_cmd_oneshot_abandon(gpu, cmd);
            }
        }
    }
    CHECK(vf_test_sph_steps(gpu, sph, 1) == VF_OK);
    vf_sph_snapshot after;
    if (CHECK(vf_sph_read(sph, false, &after) == VF_OK)) {
        CHECK_EQ_INT(after.count, n);
        /* positions: absolute, against the smoothing radius; velocities: relative */
        double ep = vec_err(after.count, after.id, (const float (*)[4])after.pos, (const double (*)[3])pd, n, 1e30) * 1e30 / prm->h;
        double ev = vec_err(after.count, after.id, (const float (*)[4])after.vel, (const double (*)[3])vd, n, 1e-3 * vmax);
        printf("  one %s step%s (dt %.3g s): max position error %.2e h, max velocity error %.2e relative\n",
               integ == VF_SPH_LEAPFROG ? "leapfrog" : "symplectic euler",
               fused ? " after one whose forces pass kicked and drifted" : "", dt, ep, ev);
        CHECK_LE(ep, 1e-5);
        CHECK_LE(ev, 1e-4);
        double gpu_speed = state_max_speed(&after.state);
        printf("  largest speed %.6g m/s (cpu %.6g, at the start %.6g)\n", gpu_speed, speed,
               state_max_speed(&start->state));
        CHECK_REL(gpu_speed, speed, 1e-4, 0);
        vf_sph_snapshot_free(&after);
    }
    free(where);
    free(p);
    free(v);
    free(a);
    free(rho);
    free(press);
    free(acc);
    free(pd);
    free(vd);
}

/* One cluster against the CPU reference. tension: surface tension on (its
 * terms are a specialization of the force pass); buffer_reads: the fallback
 * that reads the neighbours from storage buffers instead of texel views;
 * smoothing: h over the spacing (4: rows of more than 32 candidates, and
 * more candidates than the neighbour bits hold, whose force loop takes them
 * all; shared_sph.h). */
static void run_case(vf_gpu *gpu, vf_sph_eos eos, bool keep_negative, vf_sph_integrator integ, bool tension,
                     bool buffer_reads, double smoothing)
{
    const double s = 0.02, h = smoothing * s;
    const int m = 12; /* 12^3 = 1728 particles, less those in the obstacles */
    vf_test_cluster cl = vf_test_sph_cluster(&rng_state, m, s, 0.009, 0.8, 1.0);
    float(*pos)[4] = cl.pos, (*vel)[4] = cl.vel;
    uint32_t n = cl.n;
    vf_sph_desc d = {0};
    for (int k = 0; k < 3; k++)
        d.hi[k] = 0.5;
    d.spacing = s;
    d.h = h;
    d.rho0 = 1000;
    d.eos = eos;
    d.keep_negative_pressure = keep_negative;
    d.sound_speed = 12;
    d.viscosity = 0.5;
    d.tension = tension ? 0.5 : 0;
    d.buffer_reads = buffer_reads;
    d.damping = 0.3;
    d.restitution = 0.5;
    d.gravity[1] = -9.81;
    d.cfl = 0.25;
    d.frame_dt = 1.0 / 60;
    d.interact[0] = d.interact[1] = d.interact[2] = 0.12;
    d.interact[3] = 0.08;
    d.interact_strength = 30;
    d.integrator = integ;
    vf_test_sph_obstacles(&d); /* obstacles in the cluster: the step pushes particles out */
    d.count = n;
    d.pos = (const float (*)[4])pos;
    d.vel = (const float (*)[4])vel;
    vf_sph *sph = vf_test_sph(gpu, &d);
    if (!sph)
        goto done;
    const vf_sph_params *prm = vf_sph_get_params(sph);
    vf_sph_forces_push push = {0};
    for (int k = 0; k < 4; k++)
        push.interact[k] = (float)d.interact[k];
    push.strength = (float)d.interact_strength;

    double *rho = malloc(sizeof *rho * n), *press = malloc(sizeof *press * n);
    double(*acc)[3] = malloc(sizeof *acc * n);
    vf_sph_ref_density(prm, n, (const float (*)[4])pos, rho, press);
    vf_sph_ref_forces(prm, &push, n, (const float (*)[4])pos, (const float (*)[4])vel, rho, press, acc);
    double rho_max = 0, p_max = 0, a_max = 0, rho_min = 1e30;
    for (uint32_t i = 0; i < n; i++) {
        rho_max = fmax(rho_max, rho[i]);
        rho_min = fmin(rho_min, rho[i]);
        p_max = fmax(p_max, fabs(press[i]));
        a_max = fmax(a_max, vf_test_norm3(acc[i]));
    }

    vf_sph_snapshot snap;
    if (!CHECK(vf_sph_read(sph, true, &snap) == VF_OK))
        goto free_ref;
    CHECK_EQ_INT(snap.count, n);
    double e_rho = 0, e_p = 0, e_a = 0, e_eos = 0;
    for (uint32_t k = 0; k < snap.count; k++) {
        uint32_t j = snap.id[k];
        if (j >= n)
            continue;
        e_rho = fmax(e_rho, fabs(snap.dens[k][0] - rho[j]) / fmax(fabs(rho[j]), 1e-3 * rho_max));
        e_p = fmax(e_p, fabs(snap.dens[k][1] - press[j]) / fmax(fabs(press[j]), 1e-3 * p_max));
        double p_eos = vf_sph_ref_pressure(prm, snap.dens[k][0]);
        e_eos = fmax(e_eos, fabs(snap.dens[k][1] - p_eos) / fmax(fabs(p_eos), 1e-3 * p_max));
        double diff[3] = {snap.acc[k][0] - acc[j][0], snap.acc[k][1] - acc[j][1], snap.acc[k][2] - acc[j][2]};
        e_a = fmax(e_a, vf_test_norm3(diff) / fmax(vf_test_norm3(acc[j]), 1e-3 * a_max));
    }
    printf("%s%s%s%s, h = %.2f spacings: %u particles, density %.1f..%.1f, |p| <= %.4g Pa, |a| <= %.4g m/s^2; max relative error: "
           "density %.2e, acceleration %.2e; pressure %.2e against the reference (cancellation in rho - rho0), "
           "%.2e against the equation of state of the gpu density\n",
           eos == VF_SPH_TAIT ? "tait" : "linear", keep_negative ? " (negative pressure kept)" : "",
           tension ? "" : " (no tension)", buffer_reads ? " (storage-buffer reads)" : "", smoothing, n, rho_min, rho_max,
           p_max, a_max, e_rho, e_a, e_p, e_eos);
    CHECK_LE(e_rho, 1e-4);
    CHECK_LE(e_eos, 1e-4);
    CHECK_LE(e_a, 1e-4);

    check_step(gpu, sph, &snap, integ, &push, false);
    vf_sph_snapshot_free(&snap);
    /* from the state the whole step left (its accelerations included): a
     * substep inside a frame, then a whole step; twice (the second time the
     * forces pass keeps its largest speed in the other word, VF_SPH_DRIFT_ODD) */
    for (int k = 0; k < 2 && integ == VF_SPH_LEAPFROG; k++)
        if (CHECK(vf_sph_read(sph, true, &snap) == VF_OK)) {
            check_step(gpu, sph, &snap, integ, &push, true);
            vf_sph_snapshot_free(&snap);
        }
free_ref:
    free(rho);
    free(press);
    free(acc);
done:
    vf_sph_destroy(&sph);
    free(pos);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    run_case(gpu, VF_SPH_TAIT, false, VF_SPH_LEAPFROG, true, false, 1.91);
    run_case(gpu, VF_SPH_TAIT, true, VF_SPH_SYMPLECTIC_EULER, true, false, 1.91);
    run_case(gpu, VF_SPH_LINEAR, true, VF_SPH_LEAPFROG, true, false, 1.91);
    run_case(gpu, VF_SPH_TAIT, false, VF_SPH_LEAPFROG, false, false, 1.91);
    run_case(gpu, VF_SPH_TAIT, false, VF_SPH_LEAPFROG, true, true, 1.91);
    run_case(gpu, VF_SPH_TAIT, false, VF_SPH_LEAPFROG, false, false, 4.0);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
