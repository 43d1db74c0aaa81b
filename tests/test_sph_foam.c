/* Spray, foam and bubbles: the GPU's surface normals, potentials (trapped
 * air, wave crest, kinetic energy) and generated counts against the CPU
 * reference on a splashing block; the classes of the diffuse particles by
 * fluid neighbour count against the CPU; spray moving ballistically; the
 * per-class counts adding up; and the scene keys' checks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "solver_sph.h"
#include "sph_foam.h"
#include "testlib.h"
#include "sph_foam_ref.h"

static uint32_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static double frand(uint64_t *s)
{
    return (rng(s) & 0xffffff) / 16777216.0;
}

static vf_result run_foam(vf_gpu *gpu, vf_sph *sph, vf_foam *foam, double dt)
{
    VkCommandBuffer cmd;
    vf_result r = vf_cmd_oneshot_begin(gpu, &cmd);
    if (r != VF_OK)
        return r;
    if ((r = vf_sph_record_binning(sph, cmd, NULL)) == VF_OK)
        r = vf_foam_record(foam, cmd, NULL, dt);
    if (r != VF_OK) {
        vf_cmd_oneshot_abandon(gpu, cmd);
        return r;
    }
    return vf_cmd_oneshot_submit(gpu, cmd);
}

static void test_gpu_cpu(vf_gpu *gpu)
{
    vf_test_section("potentials and classes, gpu against cpu");
    /* A block of 10 x 6 x 10 particles with a swirling, noisy velocity:
     * converging flows trap air, the top layer moves up and outwards. */
    const double s = 0.02, h = 2.41 * s;
    const uint32_t nx = 10, ny = 6, nz = 10;
    uint32_t n = nx * ny * nz;
    float(*pos)[4] = calloc(n, sizeof *pos), (*vel)[4] = calloc(n, sizeof *vel);
    if (!CHECK(pos && vel))
        return;
    uint64_t seed = 5;
    uint32_t i = 0;
    for (uint32_t z = 0; z < nz; z++)
        for (uint32_t y = 0; y < ny; y++)
            for (uint32_t x = 0; x < nx; x++, i++) {
                pos[i][0] = (float)(0.1 + (x + 0.5) * s + 0.1 * s * (frand(&seed) - 0.5));
                pos[i][1] = (float)(0.05 + (y + 0.5) * s + 0.1 * s * (frand(&seed) - 0.5));
                pos[i][2] = (float)(0.1 + (z + 0.5) * s + 0.1 * s * (frand(&seed) - 0.5));
                double cx = pos[i][0] - 0.2, cz = pos[i][2] - 0.2;
                vel[i][0] = (float)(-12 * cz + 1.5 * (frand(&seed) - 0.5));
                vel[i][1] = (float)(y >= ny - 2 ? 2.0 : 0.0) + (float)(1.5 * (frand(&seed) - 0.5));
                vel[i][2] = (float)(12 * cx + 1.5 * (frand(&seed) - 0.5));
            }
    vf_sph_desc d = {.hi = {0.4, 0.4, 0.4}, .spacing = s, .h = h, .rho0 = 1000, .sound_speed = 20, .cfl = 0.25,
                     .gravity = {0, -9.81, 0}, .frame_dt = 1.0 / 60, .count = n};
    d.pos = (const float(*)[4])pos;
    d.vel = (const float(*)[4])vel;
    vf_sph *sph = NULL;
    vf_foam *foam = NULL;
    char err[256] = "";
    vf_result r = vf_sph_create(gpu, &d, &sph, NULL, err, sizeof err);
    if (!CHECK_MSG(r == VF_OK, "sph: %s", err))
        goto done;
    vf_foam_desc fd = {.capacity = 20000, .trapped_air = 3000, .wave_crest = 3000, .ta_min = 0.5, .ta_max = 8,
                       .wc_min = 0.2, .wc_max = 3, .ke_min = 0.1, .ke_max = 3, .life_min = 1, .life_max = 2};
    r = vf_foam_create(gpu, sph, &fd, &foam, NULL, err, sizeof err);
    if (!CHECK_MSG(r == VF_OK, "foam: %s", err))
        goto done;
    const double dt = 1.0 / 60;
    if (!CHECK(run_foam(gpu, sph, foam, dt) == VF_OK))
        goto done;

    /* Frame 1: potentials of the fluid as the GPU saw it. */
    vf_sph_snapshot snap = {0};
    if (!CHECK(vf_sph_read(sph, false, &snap) == VF_OK))
        goto done;
    float(*gpot)[4] = calloc(n, sizeof *gpot), (*gnorm)[4] = calloc(n, sizeof *gnorm);
    float(*cpot)[4] = calloc(n, sizeof *cpot), (*cnorm)[4] = calloc(n, sizeof *cnorm);
    vf_foam_push push = *vf_foam_get_push(foam);
    push.frame = 0; /* the frame just recorded */
    push.rate[2] = (float)dt;
    if (CHECK(gpot && gnorm && cpot && cnorm) && CHECK(vf_foam_read_potentials(foam, n, gpot, gnorm) == VF_OK)) {
        const vf_sph_params *prm = vf_sph_get_params(sph);
        vf_foam_ref_potentials(prm, &push, snap.count, (const float(*)[4])snap.pos, (const float(*)[4])snap.vel, snap.id,
                               cnorm, cpot);
        /* fp32 on both sides, the neighbours in another order, and a driver
         * may fuse multiply-adds (NVIDIA does, lavapipe does not). Normals:
         * each component within 1e-4 relative or 1e-5 of the sum of the
         * weights (normal.w, which bounds the sum of |terms|: |d / r| <= 1;
         * a sum of up to ~80 terms rounds by ~80 eps of it). The potentials
         * are then taken from the GPU's own normals, so that a normal's
         * rounding does not move a neighbour's direction (ill-conditioned
         * where the normal is short): trapped air within 1e-4 relative or
         * 1e-5 of sum(w) times the largest |v_i - v_j| (terms of
         * |v_ij| (1 - cos) w, cancelling in 1 - cos), wave crests likewise
         * with 2 for the velocity (terms of (1 - n_i.n_j) w), kinetic energy
         * and the sum of the weights 1e-4 relative (1e-3 absolute floor). Generated counts (a floor)
         * equal, except that at most 1% may differ by one at a rounding
         * step. A lost neighbour moves a value by ~1/50 of sum(w). */
        double vmax = 0;
        for (uint32_t k = 0; k < snap.count; k++)
            vmax = fmax(vmax, sqrt((double)snap.vel[k][0] * snap.vel[k][0] + (double)snap.vel[k][1] * snap.vel[k][1] +
                                   (double)snap.vel[k][2] * snap.vel[k][2]));
        uint64_t bad = 0, bad_gen = 0, near = 0, gen = 0, ta_on = 0, wc_on = 0, surf = 0;
        double worst = 0;
        for (uint32_t k = 0; k < snap.count; k++) {
            double wsum = cnorm[k][3];
            for (int c = 0; c < 4; c++) {
                double en = fabs(gnorm[k][c] - cnorm[k][c]) / fmax(1e-4 * fabs(cnorm[k][c]), c < 3 ? 1e-5 * wsum + 1e-9 : 1e-7);
                worst = fmax(worst, en);
                bad += !(en <= 1.0);
            }
        }
        vf_foam_ref_potentials_of(prm, &push, snap.count, (const float(*)[4])snap.pos, (const float(*)[4])snap.vel,
                                  snap.id, (const float(*)[4])gnorm, cpot);
        for (uint32_t k = 0; k < snap.count; k++) {
            double wsum = cnorm[k][3];
            const double floor[3] = {1e-5 * wsum * 2 * vmax + 1e-9, 1e-5 * wsum * 2 + 1e-9, 1e-7};
            for (int c = 0; c < 3; c++) {
                double e = fabs(gpot[k][c] - cpot[k][c]) / fmax(1e-4 * fabs(cpot[k][c]), floor[c]);
                worst = fmax(worst, e);
                bad += !(e <= 1.0);
            }
            double dg = fabs(gpot[k][3] - cpot[k][3]);
            near += dg == 1.0;
            bad_gen += dg > 1.0;
            gen += (uint64_t)gpot[k][3];
            ta_on += cpot[k][0] > push.limits[0];
            wc_on += cpot[k][1] > 0;
            surf += sqrtf(cnorm[k][0] * cnorm[k][0] + cnorm[k][1] * cnorm[k][1] + cnorm[k][2] * cnorm[k][2]) >
                    0.3f * cnorm[k][3];
        }
        printf("%u fluid particles: %llu at the surface, %llu with trapped air above its minimum, %llu on wave crests, "
               "%llu diffuse generated; worst difference %.2g of its tolerance, generated counts differing by one: %llu\n",
               snap.count, (unsigned long long)surf, (unsigned long long)ta_on, (unsigned long long)wc_on,
               (unsigned long long)gen, worst, (unsigned long long)near);
        CHECK_EQ_U64(bad, 0);
        CHECK_EQ_U64(bad_gen, 0);
        CHECK_MSG(near <= snap.count / 100, "%llu generated counts differ (at most 1%% may, by one, at a rounding step)",
                  (unsigned long long)near);
        CHECK(surf > 0 && surf < snap.count);
        CHECK(ta_on > 0 && wc_on > 0 && gen > 0);

        vf_foam_host a, b;
        if (CHECK(vf_foam_read(foam, &a) == VF_OK)) {
            CHECK_EQ_U64(a.count, gen);
            CHECK_EQ_U64(a.state[VF_FOAM_STATE_SPRAY], gen); /* new particles start as spray */
            /* Frame 2 (the fluid unchanged): classes from the fluid
             * neighbours at the particles' positions before the move. */
            if (CHECK(run_foam(gpu, sph, foam, dt) == VF_OK) && CHECK(vf_foam_read(foam, &b) == VF_OK)) {
                uint64_t wrong = 0, cls[3] = {0, 0, 0}, spray_bad = 0;
                CHECK(b.count >= a.count);
                for (uint32_t k = 0; k < a.count && k < b.count; k++) {
                    uint32_t want_cls = vf_foam_ref_class(prm, &push, snap.count, (const float(*)[4])snap.pos, a.pos[k]);
                    uint32_t got = (uint32_t)b.vel[k][3];
                    wrong += got != want_cls;
                    cls[want_cls < 3 ? want_cls : 0]++;
                    if (got == VF_FOAM_SPRAY && want_cls == VF_FOAM_SPRAY) {
                        for (int c = 0; c < 3; c++) {
                            float v = a.vel[k][c] + prm->gravity[c] * (float)dt;
                            float x = a.pos[k][c] + v * (float)dt;
                            x = fminf(fmaxf(x, prm->lo[c]), prm->hi[c]);
                            spray_bad += fabsf(x - b.pos[k][c]) > 1e-6f;
                        }
                    }
                }
                printf("frame 2: %u diffuse particles (%u kept from %u): spray %llu, foam %llu, bubbles %llu (cpu); "
                       "gpu counts %u %u %u; %llu classes differ\n",
                       b.count, a.count, a.count, (unsigned long long)cls[0], (unsigned long long)cls[1],
                       (unsigned long long)cls[2], b.state[VF_FOAM_STATE_SPRAY], b.state[VF_FOAM_STATE_FOAM],
                       b.state[VF_FOAM_STATE_BUBBLE], (unsigned long long)wrong);
                CHECK_EQ_U64(wrong, 0);
                CHECK_EQ_U64(spray_bad, 0);
                CHECK(cls[0] > 0 && cls[1] + cls[2] > 0);
                CHECK_EQ_U64((uint64_t)b.state[VF_FOAM_STATE_SPRAY] + b.state[VF_FOAM_STATE_FOAM] +
                                 b.state[VF_FOAM_STATE_BUBBLE],
                             b.count);
                /* every particle survived frame 2: all generated are stored or dropped */
                CHECK_EQ_U64(b.state[VF_FOAM_STATE_GENERATED], (uint64_t)b.count + b.state[VF_FOAM_STATE_DROPPED]);
                vf_foam_host_free(&b);
            }
            vf_foam_host_free(&a);
        }
    }
    free(gpot);
    free(gnorm);
    free(cpot);
    free(cnorm);
    vf_sph_snapshot_free(&snap);
done:
    vf_foam_destroy(&foam);
    vf_sph_destroy(&sph);
    free(pos);
    free(vel);
}

static void test_bad_ranges(vf_gpu *gpu)
{
    vf_test_section("bad ranges");
    float pos[1][4] = {{0.1f, 0.1f, 0.1f, 0}};
    vf_sph_desc d = {.hi = {0.2, 0.2, 0.2}, .spacing = 0.02, .h = 0.05, .rho0 = 1000, .sound_speed = 20, .cfl = 0.25,
                     .frame_dt = 1.0 / 60, .count = 1};
    d.pos = (const float(*)[4])pos;
    vf_sph *sph = NULL;
    vf_foam *foam = NULL;
    char err[256] = "";
    if (!CHECK(vf_sph_create(gpu, &d, &sph, NULL, err, sizeof err) == VF_OK))
        return;
    vf_foam_desc fd = {.spray_max = 30, .bubble_min = 20};
    CHECK(vf_foam_create(gpu, sph, &fd, &foam, NULL, err, sizeof err) == VF_ERR_INVALID_ARG && !foam);
    CHECK(strstr(err, "bubble_min") != NULL);
    fd = (vf_foam_desc){.capacity = 4000000000u};
    CHECK(vf_foam_create(gpu, sph, &fd, &foam, NULL, err, sizeof err) == VF_ERR_TOO_LARGE && !foam);
    printf("too many: %s\n", err);
    CHECK(strstr(err, "foam_capacity") != NULL);
    vf_foam_destroy(&foam);
    vf_sph_destroy(&sph);
}

/* The scene keys: on in dam-break, counted in summary.json; a bad range is
 * one line naming the key, exit 2. */
static void test_cli(void)
{
    vf_test_section("scene keys and summary.json");
    char out[4096];
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run dam-break --set foam_ta_max=1 --steps 1 --quiet 2>&1",
                                 vf_t.vkfluid);
    CHECK_EQ_INT(rc, 2);
    CHECK_MSG(strstr(out, "foam_ta_max") && strstr(out, "foam_ta_min"), "message: %s", out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' run dam-break --set foam_life_max=0.5 --steps 1 --quiet 2>&1",
                             vf_t.vkfluid);
    CHECK_EQ_INT(rc, 2);
    CHECK_MSG(strstr(out, "foam_life_max") != NULL, "message: %s", out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' run dam-break --set foam_capacity=2.5 --steps 1 --quiet 2>&1",
                             vf_t.vkfluid);
    CHECK_EQ_INT(rc, 2);
    const char *dir = vf_test_path("run");
    rc = vf_test_run("rm -rf '%s' && '%s' run dam-break --set spacing=0.025 --steps 2 --export '%s' --quiet >/dev/null",
                     dir, vf_t.vkfluid, dir);
    CHECK_EQ_INT(rc, 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *json = vf_test_read_file(path, NULL);
    const char *d = json ? strstr(json, "\"diffuse\": {\"count\": ") : NULL;
    if (CHECK_MSG(d, "summary.json has the diffuse counts")) {
        unsigned count, spray, foam, bubbles;
        CHECK(sscanf(d, "\"diffuse\": {\"count\": %u, \"spray\": %u, \"foam\": %u, \"bubbles\": %u", &count, &spray,
                     &foam, &bubbles) == 4 &&
              count == spray + foam + bubbles);
        printf("dam-break, 2 frames: %.120s\n", d);
    }
    free(json);
    rc = vf_test_run("rm -rf '%s' && '%s' run dam-break --set spacing=0.025 --set foam=false --steps 1 --export '%s' --quiet "
                     ">/dev/null",
                     dir, vf_t.vkfluid, dir);
    CHECK_EQ_INT(rc, 0);
    json = vf_test_read_file(path, NULL);
    CHECK(json && !strstr(json, "\"diffuse\""));
    free(json);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    test_bad_ranges(gpu);
    test_gpu_cpu(gpu);
    vf_test_gpu_done(&gpu);
    test_cli();
    return vf_test_finish();
}
