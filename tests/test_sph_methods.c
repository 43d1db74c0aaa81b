/* The large-step SPH solvers (method=pbf, position-based fluids; method=dfsph,
 * divergence-free SPH) against physics, next to the weakly compressible one.
 * The goals are stated first; where a solver does not reach one yet, the
 * test checks the level it holds today (so that a change for the worse
 * fails), prints the measurement, and docs/testing.md gives both.
 *  - hydrostatic column: the test_sph_hydro box (14 x 14 particles across,
 *    18 deep, spacing 1 cm, h = 2.41 spacings) settles for 1 s under gravity
 *    with velocity damping (20 1/s) and the scene's viscosity (viscosity +
 *    artificial_viscosity: 2.3 Pa s, dfsph 4.6), free-slip walls. For every
 *    particle more than 2h from the free surface and the walls: the SPH
 *    interpolant of the pressure (sum_j V_j p_j W_ij / sum_j V_j W_ij, see
 *    test_sph_hydro) against rho0 g z, z the depth below the free surface
 *    (goal: within 1 %); the density error at rest, mean (rho - rho0) / rho0,
 *    after 1 s and averaged over the frames of 0.5-1 s (pbf's goal: within
 *    1 % on average);
 *    the vertical acceleration the pressures give, -(V / rho0) sum_j (p_i +
 *    p_j) dW/dy (the gradient the method's shaders take), in units of g (1
 *    when the pressures alone hold the column). pbf's pressure is the virial
 *    of a substep's corrections, the artificial pressure's included
 *    (pbf_common.glsl's pbf_pressure), dfsph's (kappa + kappa_v / dt) rho;
 *    the mean pressure error is also printed averaged over the frames of
 *    0.5-1 s. Checked (pbf,
 *    dfsph): that acceleration within 20 %, 2 % of g, the mean pressure
 *    error within 15 %, 1 %, the worst within 30 %, 3 %, the density error
 *    within 2 %, 0.1 %, its average within 1 % (the goal), 0.1 %, and the
 *    kinetic energy after 1 s (goal 0) at most 1e-3, 1e-4 J/kg.
 *  - dam break against Martin & Moyce (1952), at spacing 0.02 (a = 0.25 m,
 *    column 2a high, 3 600 particles), all three solvers at their defaults:
 *    the front (the largest x of a particle) over a at the measured
 *    T = t sqrt(2 g / a), interpolated between frames, RMS over their 15
 *    points (goals, both checked: dfsph no worse than wcsph, pbf within
 *    0.15; also dfsph and wcsph within 0.1). The mean compression (mean
 *    over particles of max(rho / rho0 - 1, 0); a free surface's particles
 *    read low densities), averaged over the frames: within 1 % for pbf and
 *    dfsph.
 *  - 10 s of the dam break at spacing 0.03125 (1 024 particles) for pbf and
 *    dfsph: no NaN, no particle lost or outside the tank, the mean
 *    compression within 1 %, and the centre of mass of the settled water
 *    (its kinetic energy printed) at half the depth N spacing^3 / (tank
 *    area): within 25 % for pbf, 6 % for dfsph (goal 3 %; a layer three
 *    particles deep, the free surface's particles, which have no neighbours
 *    above, set it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "scenes.h"
#include "solver.h"
#include "solver_sph.h"
#include "testlib.h"

/* Mean over the particles of max(rho / rho0 - 1, 0). */
static double compression(const vf_sph_snapshot *snap, double rho0)
{
    double sum = 0;
    for (uint32_t k = 0; k < snap->count; k++)
        sum += fmax(snap->dens[k][0] / rho0 - 1, 0);
    return snap->count ? sum / snap->count : 0;
}

/* The levels a method holds (the relative tolerances of the checks). */
typedef struct hydro_levels {
    double accel, mean, worst, density, energy; /* energy: J/kg after 1 s */
    double density_avg; /* the density error at rest averaged over the frames of 0.5-1 s */
} hydro_levels;

static void hydrostatic(vf_gpu *gpu, vf_sph_method method, const char *name, hydro_levels lv)
{
    vf_test_section(name);
    vf_sph_desc d;
    float(*pos)[4] = vf_test_sph_column(&d);
    vf_solver *solver = NULL;
    if (!CHECK(pos != NULL))
        return;
    /* the scene defaults of the method's keys */
    /* viscosity + artificial_viscosity: 2.3 Pa s (dfsph: 4.6, vf_sph_alpha_scale) */
    d.viscosity = 0.001 + d.rho0 * 0.05 * vf_sph_alpha_scale(method) * d.h * d.sound_speed / 10;
    d.damping = 20;
    d.method = method;
    d.pbf_relaxation = 0.01;
    d.pbf_omega = VF_SPH_PBF_OMEGA;
    d.pbf_tensile_k = 0.1;
    d.pbf_tensile_dq = 0.2;
    d.pbf_tensile_n = 4;
    d.xsph = 12;
    vf_sph *sph = vf_test_sph(gpu, &d);
    if (!sph || !CHECK(vf_sph_solver_wrap(sph, gpu, &solver) == VF_OK)) /* owns sph, also on failure */
        goto done;
    /* 15 frames at a time, each frame from 0.5 s on (the density error at
     * rest averaged there: a column that still moves reads differently from
     * frame to frame) */
    const uint32_t frames = 60, chunk = 15, settled = 30;
    double ke_end = 0, dsum = 0, msum = 0;
    uint32_t dcount = 0;
    for (uint32_t f = 0; f < frames;) {
        uint32_t step = f < settled ? chunk : 1;
        if (!vf_test_frames(gpu, solver, step))
            goto done;
        f += step;
        vf_sph_snapshot snap;
        if (!CHECK(vf_sph_read(sph, false, &snap) == VF_OK))
            goto done;
        if (f > settled) {
            vf_test_hydrostatic fr = vf_test_sph_hydrostatic(&snap, vf_sph_get_params(sph), &d);
            dsum += fr.density;
            msum += fr.mean;
            dcount++;
        }
        ke_end = vf_test_sph_kinetic(&snap);
        if (f % chunk == 0)
            printf("  t = %.3f s: kinetic energy %.3e J/kg\n", f * d.frame_dt, ke_end);
        vf_sph_snapshot_free(&snap);
    }
    double density_avg = dcount ? dsum / dcount : 0, mean_avg = dcount ? msum / dcount : 0;
    vf_sph_snapshot snap;
    if (CHECK(vf_sph_read(sph, false, &snap) == VF_OK)) {
        vf_test_hydrostatic r = vf_test_sph_hydrostatic(&snap, vf_sph_get_params(sph), &d);
        double g = -d.gravity[1];
        printf("  surface at %.4f m; %d particles more than 2h = %.3g m from the surface and walls: pressure vs "
               "rho0 g z: worst %.2f%%, mean %+.2f%% (raw per-particle pressure: worst %.2f%%); density error at "
               "rest %+.3f%%; the pressures' vertical acceleration -(V / rho0) sum_j (p_i + p_j) dW/dy: mean %.3f g\n",
               r.surface, r.used, 2 * d.h, 100 * r.worst, 100 * r.mean, 100 * r.worst_raw, 100 * r.density,
               r.accel / g);
        printf("  averaged over the %u frames of %.2f-%.2f s: density error at rest %+.3f%%, mean pressure error "
               "%+.2f%%\n",
               dcount, (settled + 1) * d.frame_dt, frames * d.frame_dt, 100 * density_avg, 100 * mean_avg);
        /* the levels the solvers hold today (docs/testing.md); the goal of
         * the pressure within 1 % everywhere is met by neither, pbf's of the
         * density within 1 % on average is checked */
        CHECK(r.used >= 100);
        if (r.used) {
            CHECK_REL(r.accel, g, lv.accel, 0);
            CHECK_LE(fabs(r.mean), lv.mean);
            CHECK_LE(r.worst, lv.worst);
        }
        CHECK_LE(fabs(r.density), lv.density);
        CHECK_LE(fabs(density_avg), lv.density_avg);
        CHECK_LE(ke_end, lv.energy);
        vf_sph_snapshot_free(&snap);
    }
done:
    vf_solver_destroy(&solver);
    free(pos);
}

/* Martin & Moyce (1952), a = 2 1/4 in, n^2 = 2: the surge front Z = x / a
 * at T = t sqrt(2 g / a). */
static const double mm_T[] = {0.41, 0.84, 1.19, 1.43, 1.63, 1.83, 1.98, 2.20, 2.32, 2.51, 2.65, 2.83, 2.98, 3.11, 3.33};
static const double mm_Z[] = {1.11, 1.22, 1.44, 1.67, 1.89, 2.11, 2.33, 2.56, 2.78, 3.00, 3.22, 3.44, 3.67, 3.89, 4.11};
#define MM_POINTS (sizeof mm_T / sizeof mm_T[0])

typedef struct front_result {
    double rms, compression_mean, compression_max;
    bool ok;
} front_result;

/* Starts the section "<title>, <method>" and makes the dam-break scene with
 * that method at a particle spacing (no foam); NULL (the failure checked)
 * when it cannot. */
static vf_solver *dam_break(vf_gpu *gpu, const char *title, const char *method, const char *spacing)
{
    char name[96], set[64];
    snprintf(name, sizeof name, "%s, %s", title, method);
    vf_test_section(name);
    snprintf(set, sizeof set, "method=%s", method);
    const char *sets[] = {spacing, "foam=false", set};
    vf_solver *solver = vf_test_scene(gpu, "dam-break", sets, 3);
    if (!CHECK(solver && vf_sph_from_solver(solver)))
        vf_solver_destroy(&solver);
    return solver;
}

/* Runs `frames` more frames (none at f = 0) and reads the particles into
 * snap; at f = 0 their count into *n0. False (the failure checked) when
 * either fails. */
static bool frames_then_read(vf_gpu *gpu, vf_solver *solver, uint32_t f, uint32_t frames, vf_sph_snapshot *snap,
                             uint32_t *n0)
{
    if (f && !vf_test_frames(gpu, solver, frames))
        return false;
    if (!CHECK(vf_sph_read(vf_sph_from_solver(solver), false, snap) == VF_OK))
        return false;
    if (!f)
        *n0 = snap->count;
    return true;
}

static front_result dam_break_front(vf_gpu *gpu, const char *method)
{
    front_result r = {0};
    vf_solver *solver = dam_break(gpu, "dam break front", method, "spacing=0.02");
    if (!solver)
        return r;
    vf_sph *sph = vf_sph_from_solver(solver);
    const vf_sph_desc *d = vf_sph_get_desc(sph);
    const double a = 0.25, g = 9.81, t_end = mm_T[MM_POINTS - 1] / sqrt(2 * g / a);
    const uint32_t frames = (uint32_t)ceil(t_end / d->frame_dt) + 1;
    double *front = calloc(frames + 1, sizeof *front);
    uint32_t n0 = 0, got = 0;
    double csum = 0;
    for (uint32_t f = 0; f <= frames; f++) {
        vf_sph_snapshot snap;
        if (!frames_then_read(gpu, solver, f, 1, &snap, &n0))
            break;
        front[f] = 0;
        for (uint32_t k = 0; k < snap.count; k++)
            front[f] = fmax(front[f], snap.pos[k][0]);
        double c = compression(&snap, d->rho0);
        r.compression_max = fmax(r.compression_max, c);
        csum += c;
        CHECK_EQ_INT(snap.count, n0);
        vf_sph_snapshot_free(&snap);
        got = f + 1;
    }
    if (CHECK_MSG(got == frames + 1, "%u of %u frames ran", got, frames + 1)) {
        double se = 0;
        printf("  %u particles, %u frames; Z - Z(Martin & Moyce):", n0, frames);
        for (size_t p = 0; p < MM_POINTS; p++) {
            double t = mm_T[p] / sqrt(2 * g / a), u = t / d->frame_dt;
            uint32_t k = (uint32_t)u;
            double x = front[k] + (u - k) * (front[k + 1] - front[k]);
            printf(" %+.2f", x / a - mm_Z[p]);
            se += (x / a - mm_Z[p]) * (x / a - mm_Z[p]);
        }
        r.rms = sqrt(se / MM_POINTS);
        r.compression_mean = csum / got;
        printf("\n  RMS error in Z %.3f; mean compression: average over frames %.3f%%, largest %.3f%%\n", r.rms,
               100 * r.compression_mean, 100 * r.compression_max);
        r.ok = true;
    }
    free(front);
    vf_solver_destroy(&solver);
    return r;
}

static void ten_seconds(vf_gpu *gpu, const char *method, double com_tol)
{
    vf_solver *solver = dam_break(gpu, "dam break, 10 s", method, "spacing=0.03125");
    if (!solver)
        return;
    vf_sph *sph = vf_sph_from_solver(solver);
    const vf_sph_desc *d = vf_sph_get_desc(sph);
    const uint32_t frames = (uint32_t)lround(10 / d->frame_dt), chunk = 60;
    uint32_t n0 = 0, bad_nan = 0, bad_out = 0;
    for (uint32_t f = 0; f <= frames; f += chunk) {
        vf_sph_snapshot snap;
        if (!frames_then_read(gpu, solver, f, chunk, &snap, &n0))
            break;
        double com = 0, ke = 0;
        for (uint32_t k = 0; k < snap.count; k++) {
            bool nan = false, out = false;
            for (int c = 0; c < 3; c++) {
                nan |= !isfinite(snap.pos[k][c]) || !isfinite(snap.vel[k][c]);
                out |= snap.pos[k][c] < d->lo[c] || snap.pos[k][c] > d->hi[c];
                ke += 0.5 * snap.vel[k][c] * snap.vel[k][c];
            }
            bad_nan += nan;
            bad_out += out;
            com += snap.pos[k][1];
        }
        com /= snap.count ? snap.count : 1;
        double depth = snap.count * d->spacing * d->spacing * d->spacing /
                       ((d->hi[0] - d->lo[0]) * (d->hi[2] - d->lo[2]));
        double c = compression(&snap, d->rho0);
        printf("  t = %5.2f s: %u particles, kinetic energy %.2e J/kg, centre of mass at %.4f m (depth / 2 = %.4f m), "
               "mean compression %.3f%%\n",
               f * d->frame_dt, snap.count, ke / (snap.count ? snap.count : 1), com, depth / 2, 100 * c);
        CHECK_EQ_INT(snap.count, n0);
        if (f + chunk > frames) {
            CHECK_REL(com, depth / 2, com_tol, 0);
            CHECK_LE(c, 0.01);
        }
        vf_sph_snapshot_free(&snap);
    }
    CHECK_EQ_INT(bad_nan, 0);
    CHECK_EQ_INT(bad_out, 0);
    vf_solver_destroy(&solver);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    hydrostatic(gpu, VF_SPH_PBF, "hydrostatic column, pbf", (hydro_levels){0.2, 0.15, 0.3, 0.02, 1e-3, 0.01});
    hydrostatic(gpu, VF_SPH_DFSPH, "hydrostatic column, dfsph", (hydro_levels){0.02, 0.01, 0.03, 1e-3, 1e-4, 1e-3});
    front_result pbf = dam_break_front(gpu, "pbf");
    front_result dfsph = dam_break_front(gpu, "dfsph");
    front_result wcsph = dam_break_front(gpu, "wcsph");
    if (CHECK(pbf.ok && dfsph.ok && wcsph.ok)) {
        printf("RMS error in Z against Martin & Moyce: pbf %.3f, dfsph %.3f, wcsph %.3f\n", pbf.rms, dfsph.rms,
               wcsph.rms);
        /* the goals: pbf within 0.15, dfsph no worse than wcsph */
        CHECK_LE(pbf.rms, 0.15);
        CHECK_LE(dfsph.rms, 0.1);
        CHECK_LE(dfsph.rms, wcsph.rms);
        CHECK_LE(wcsph.rms, 0.1);
        CHECK_LE(pbf.compression_mean, 0.01);
        CHECK_LE(dfsph.compression_mean, 0.01);
    }
    ten_seconds(gpu, "pbf", 0.25);
    ten_seconds(gpu, "dfsph", 0.06);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
