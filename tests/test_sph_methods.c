/* The large-step SPH solvers (method=pbf, position-based fluids; method=dfsph,
 * divergence-free SPH) against physics, next to the weakly compressible one.
 * The goals are stated first; where a solver does not reach one yet, the
 * test checks the level it holds today (so that a change for the worse
 * fails), prints the measurement, and docs/testing.md gives both.
 *  - hydrostatic column: the test_sph_hydro box (14 x 14 particles across,
 *    18 deep, spacing 1 cm, h = 2.41 spacings) settles for 1 s under gravity
 *    with velocity damping (20 1/s) and the scene's viscosity (viscosity +
 *    artificial_viscosity: 2.3 Pa s), free-slip walls. For every particle more than 2h from the
 *    free surface and the walls: the SPH interpolant of the pressure
 *    (sum_j V_j p_j W_ij / sum_j V_j W_ij, see test_sph_hydro) against
 *    rho0 g z, z the depth below the free surface (goal: within 1 %); the
 *    density error at rest, mean (rho - rho0) / rho0; the vertical
 *    acceleration the pressures give, -(V / rho0) sum_j (p_i + p_j) dW/dy, in
 *    units of g (1 when the pressures alone hold the column). pbf's pressure
 *    is -rho0 (sum of a substep's lambdas) / dt^2, dfsph's (kappa + kappa_v /
 *    dt) rho. Checked (pbf, dfsph): that acceleration within 20 %, 10 % of
 *    g, the mean pressure error within 30 %, 5 %, the density error within
 *    2 %, 1 %, and the kinetic energy after 1 s (the column does not come to
 *    rest: goal 0) at most 1e-3, 2e-3 J/kg.
 *  - dam break against Martin & Moyce (1952), at spacing 0.02 (a = 0.25 m,
 *    column 2a high, 3 600 particles), all three solvers at their defaults:
 *    the front (the largest x of a particle) over a at the measured
 *    T = t sqrt(2 g / a), interpolated between frames, RMS over their 15
 *    points (goals: dfsph no worse than wcsph, pbf within 0.15; checked:
 *    pbf within 0.15, dfsph within 0.1, wcsph within 0.1). The mean compression (mean
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
#include "solver_sph_ref.h"
#include "testlib.h"

/* Records and submits frames of s. */
static bool run_frames(vf_gpu *gpu, vf_solver *s, uint32_t frames)
{
    for (uint32_t f = 0; f < frames; f++) {
        VkCommandBuffer cmd;
        if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
            return false;
        if (!CHECK(vf_solver_record_frame(s, cmd, NULL) == VF_OK)) {
            vf_cmd_oneshot_abandon(gpu, cmd);
            return false;
        }
        if (!CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK) || !CHECK(vf_solver_frame_done(s) == VF_OK))
            return false;
    }
    return true;
}

static vf_solver *make_scene(vf_gpu *gpu, const char *scene, const char *const *sets, int nsets)
{
    const vf_scene_info *info = vf_scene_find(scene);
    if (!CHECK_MSG(info != NULL, "scene %s is registered", scene))
        return NULL;
    void *desc = calloc(1, info->desc_size);
    vf_scene_defaults(info, desc);
    char err[512] = "";
    for (int i = 0; i < nsets; i++)
        if (!CHECK_MSG(vf_params_set(info->params, info->param_count, desc, sets[i], err, sizeof err) == VF_OK, "%s: %s",
                       sets[i], err)) {
            free(desc);
            return NULL;
        }
    vf_solver *s = NULL;
    if (CHECK_MSG(info->validate(info, desc, NULL, err, sizeof err) == VF_OK, "validate: %s", err))
        CHECK_MSG(info->create(info, gpu, desc, &s, NULL, err, sizeof err) == VF_OK, "create %s: %s", scene, err);
    free(desc);
    return s;
}

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
    double accel, mean, density, energy; /* energy: J/kg after 1 s */
} hydro_levels;

static void hydrostatic(vf_gpu *gpu, vf_sph_method method, const char *name, hydro_levels lv)
{
    vf_test_section(name);
    const double s = 0.01, g = 9.81, rho0 = 1000, hs = 2.41;
    const int nx = 14, ny = 18;
    const double W = nx * s, D = ny * s;
    uint32_t n = (uint32_t)(nx * nx * ny);
    float(*pos)[4] = calloc(n, sizeof *pos);
    uint32_t i = 0;
    for (int y = 0; y < ny; y++)
        for (int z = 0; z < nx; z++)
            for (int x = 0; x < nx; x++, i++) {
                pos[i][0] = (float)((x + 0.5) * s);
                pos[i][1] = (float)((y + 0.5) * s);
                pos[i][2] = (float)((z + 0.5) * s);
            }
    /* the scene defaults of the method's keys */
    vf_sph_desc d = {0};
    d.hi[0] = d.hi[2] = W;
    d.hi[1] = 1.5 * D;
    d.spacing = s;
    d.h = hs * s;
    d.rho0 = rho0;
    d.speed_ref = sqrt(2 * g * D);
    d.sound_speed = 10 * d.speed_ref;
    d.viscosity = 0.001 + rho0 * 0.05 * d.h * d.sound_speed / 10; /* viscosity + artificial_viscosity (2.3 Pa s) */
    d.damping = 20;
    d.restitution = 0.2;
    d.gravity[1] = -g;
    d.cfl = 0.25;
    d.frame_dt = 1.0 / 60;
    d.method = method;
    d.pbf_relaxation = 0.01;
    d.pbf_tensile_k = 0.1;
    d.pbf_tensile_dq = 0.2;
    d.pbf_tensile_n = 4;
    d.xsph = 12;
    d.count = n;
    d.pos = (const float (*)[4])pos;
    vf_sph *sph = vf_test_sph(gpu, &d);
    vf_solver *solver = NULL;
    if (!sph || !CHECK(vf_sph_solver_wrap(sph, gpu, &solver) == VF_OK)) /* owns sph, also on failure */
        goto done;
    const uint32_t frames = 60, chunk = 15;
    double ke_end = 0;
    for (uint32_t f = 0; f < frames; f += chunk) {
        if (!run_frames(gpu, solver, chunk))
            goto done;
        vf_sph_snapshot snap;
        if (!CHECK(vf_sph_read(sph, false, &snap) == VF_OK))
            goto done;
        double ke = 0;
        for (uint32_t k = 0; k < snap.count; k++)
            ke += 0.5 * (snap.vel[k][0] * snap.vel[k][0] + snap.vel[k][1] * snap.vel[k][1] + snap.vel[k][2] * snap.vel[k][2]);
        ke_end = snap.count ? ke / snap.count : 0;
        printf("  t = %.3f s: kinetic energy %.3e J/kg\n", (f + chunk) * d.frame_dt, ke_end);
        vf_sph_snapshot_free(&snap);
    }
    vf_sph_snapshot snap;
    if (CHECK(vf_sph_read(sph, false, &snap) == VF_OK)) {
        const vf_sph_params *prm = vf_sph_get_params(sph);
        double surface = snap.count * s * s * s / (W * W), h = d.h;
        double worst = 0, worst_raw = 0, sum = 0, derr = 0, ay = 0;
        int used = 0;
        for (uint32_t k = 0; k < snap.count; k++) {
            double x = snap.pos[k][0], y = snap.pos[k][1], z = snap.pos[k][2];
            double depth = surface - y;
            if (depth < 2 * h || y < 2 * h || x < 2 * h || x > W - 2 * h || z < 2 * h || z > W - 2 * h)
                continue;
            double num = 0, den = 0;
            for (uint32_t j = 0; j < snap.count; j++) {
                double dx = x - snap.pos[j][0], dy = y - snap.pos[j][1], dz = z - snap.pos[j][2];
                if (j != k) {
                    double dd[3] = {dx, dy, dz}, grad[3];
                    vf_sph_ref_spiky_grad(dd, h, grad);
                    ay -= prm->mass / (rho0 * rho0) * (snap.dens[k][1] + snap.dens[j][1]) * grad[1];
                }
                double w = vf_sph_ref_poly6(sqrt(dx * dx + dy * dy + dz * dz), h) * prm->mass / snap.dens[j][0];
                num += w * snap.dens[j][1];
                den += w;
            }
            double expect = rho0 * g * depth;
            double e = (num / den - expect) / expect;
            worst = fmax(worst, fabs(e));
            worst_raw = fmax(worst_raw, fabs(snap.dens[k][1] - expect) / expect);
            sum += e;
            derr += snap.dens[k][0] / rho0 - 1;
            used++;
        }
        derr = used ? derr / used : 0;
        printf("  surface at %.4f m; %d particles more than 2h = %.3g m from the surface and walls: pressure vs "
               "rho0 g z: worst %.2f%%, mean %+.2f%% (raw per-particle pressure: worst %.2f%%); density error at "
               "rest %+.3f%%; the pressures' vertical acceleration -(V / rho0) sum_j (p_i + p_j) dW/dy: mean %.3f g\n",
               surface, used, 2 * h, 100 * worst, used ? 100 * sum / used : 0, 100 * worst_raw, 100 * derr,
               used ? ay / used / g : 0);
        /* the levels the solvers hold today (docs/testing.md); the goals,
         * the pressure within 1 % everywhere and at rest, are not met by
         * either */
        CHECK(used >= 100);
        if (used) {
            CHECK_REL(ay / used, g, lv.accel, 0);
            CHECK_LE(fabs(sum / used), lv.mean);
        }
        CHECK_LE(fabs(derr), lv.density);
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

static front_result dam_break_front(vf_gpu *gpu, const char *method)
{
    front_result r = {0};
    char name[96], set[64];
    snprintf(name, sizeof name, "dam break front, %s", method);
    vf_test_section(name);
    snprintf(set, sizeof set, "method=%s", method);
    const char *sets[] = {"spacing=0.02", "foam=false", set};
    vf_solver *solver = make_scene(gpu, "dam-break", sets, 3);
    vf_sph *sph = solver ? vf_sph_from_solver(solver) : NULL;
    if (!CHECK(sph != NULL)) {
        vf_solver_destroy(&solver);
        return r;
    }
    const vf_sph_desc *d = vf_sph_get_desc(sph);
    const double a = 0.25, g = 9.81, t_end = mm_T[MM_POINTS - 1] / sqrt(2 * g / a);
    const uint32_t frames = (uint32_t)ceil(t_end / d->frame_dt) + 1;
    double *front = calloc(frames + 1, sizeof *front);
    uint32_t n0 = 0, got = 0;
    double csum = 0;
    for (uint32_t f = 0; f <= frames; f++) {
        if (f && !run_frames(gpu, solver, 1))
            break;
        vf_sph_snapshot snap;
        if (!CHECK(vf_sph_read(sph, false, &snap) == VF_OK))
            break;
        if (!f)
            n0 = snap.count;
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
    char name[96], set[64];
    snprintf(name, sizeof name, "dam break, 10 s, %s", method);
    vf_test_section(name);
    snprintf(set, sizeof set, "method=%s", method);
    const char *sets[] = {"spacing=0.03125", "foam=false", set};
    vf_solver *solver = make_scene(gpu, "dam-break", sets, 3);
    vf_sph *sph = solver ? vf_sph_from_solver(solver) : NULL;
    if (!CHECK(sph != NULL)) {
        vf_solver_destroy(&solver);
        return;
    }
    const vf_sph_desc *d = vf_sph_get_desc(sph);
    const uint32_t frames = (uint32_t)lround(10 / d->frame_dt), chunk = 60;
    uint32_t n0 = 0, bad_nan = 0, bad_out = 0;
    for (uint32_t f = 0; f <= frames; f += chunk) {
        if (f && !run_frames(gpu, solver, chunk))
            break;
        vf_sph_snapshot snap;
        if (!CHECK(vf_sph_read(sph, false, &snap) == VF_OK))
            break;
        if (!f)
            n0 = snap.count;
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
    vf_test_init(argc, argv);
    vf_gpu *gpu = vf_test_gpu();
    hydrostatic(gpu, VF_SPH_PBF, "hydrostatic column, pbf", (hydro_levels){0.2, 0.3, 0.02, 1e-3});
    hydrostatic(gpu, VF_SPH_DFSPH, "hydrostatic column, dfsph", (hydro_levels){0.1, 0.05, 0.01, 2e-3});
    front_result pbf = dam_break_front(gpu, "pbf");
    front_result dfsph = dam_break_front(gpu, "dfsph");
    front_result wcsph = dam_break_front(gpu, "wcsph");
    if (CHECK(pbf.ok && dfsph.ok && wcsph.ok)) {
        printf("RMS error in Z against Martin & Moyce: pbf %.3f, dfsph %.3f, wcsph %.3f\n", pbf.rms, dfsph.rms,
               wcsph.rms);
        /* pbf's goal (<= 0.15) holds; dfsph's (no worse than wcsph) is
         * not met: the level held today (docs/testing.md) */
        CHECK_LE(pbf.rms, 0.15);
        CHECK_LE(dfsph.rms, 0.1);
        CHECK_LE(wcsph.rms, 0.1);
        CHECK_LE(pbf.compression_mean, 0.01);
        CHECK_LE(dfsph.compression_mean, 0.01);
    }
    ten_seconds(gpu, "pbf", 0.25);
    ten_seconds(gpu, "dfsph", 0.06);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
