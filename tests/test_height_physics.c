/* Height-field water against physics:
 *  - closed basin, flat bed, eta = A cos(pi x/L): the period of the first mode
 *    matches 2L/sqrt(g d) within 1% and the scheme's discrete dispersion
 *    relation (explicit: sin(w dt/2) = C sin(pi/(2N)));
 *  - ADI at 10x the explicit limit stays bounded and keeps the period within
 *    5% (explicit at that dt blows up: checked on the CPU reference);
 *  - 10 000 steps of rain (explicit and ADI) keep the volume within 1e-5;
 *  - waves slow down over a shallow shelf: measured speeds match sqrt(g d)
 *    within 5% in the deep part and on the shelf;
 *  - coupling=pressure: eta follows p/(rho g) (Chen & Lobo);
 *  - absorbing edges let a pulse leave; a slow boat's hull makes its
 *    hydrostatic depression; leaves follow a uniform flow;
 *  - the river scene (grid channel flow past a pillar under the surface,
 *    coupling=divergence): the surface is disturbed around the pillar and
 *    hardly anywhere else, not at all with coupling=none; leaves drift
 *    downstream at about the inflow speed; later the vortices the pillar
 *    sheds leave a wake: the surface moves more than twice as much just behind
 *    the pillar than just ahead of it; in steady flow the surface rises
 *    in front of the pillar and dips beside it (Bernoulli's pattern); the dye the flow carries (drawn on
 *    the water) drifts U t downstream;
 *  - advect: a bump on nearly still water (g tiny) in a uniform current
 *    moves with the current (its centroid by U t within 2%), and stays put
 *    without advect. */
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "scenes_height.h"
#include "solver.h"
#include "solver_height.h"
#include "solver_height_ref.h"
#include "testlib.h"
#include "scenes.h"

#define PI 3.14159265358979323846

/* Records `count` frames in one submit. */
static void run_frames(vf_gpu *gpu, vf_solver *s, int count)
{
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        return;
    for (int f = 0; f < count; f++) {
        vf_solver_record_frame(s, cmd, NULL);
        vf_solver_frame_done(s);
    }
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
}

/* Records `count` substeps in one submit. */
static void steps(vf_gpu *gpu, vf_solver *s, int count)
{
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        return;
    for (int k = 0; k < count; k++) {
        vf_height_state st;
        vf_height_get_state(s, &st);
        vf_height_step_push sp = vf_height_step_params(s, st.time);
        vf_height_disturb_push dp = vf_height_disturb_params(s, s->steps);
        vf_height_record_step(s, cmd, NULL, &sp, &dp, false);
    }
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
}

static float probe(vf_solver *s, size_t idx)
{
    vf_height_state st;
    vf_height_get_state(s, &st);
    float v = NAN;
    vf_buffer_read(st.eta, idx * 4, &v, 4);
    return v;
}

/* Times (s) where a sampled series changes sign, linearly interpolated. */
static int crossings(const float *v, int n, double dt, double *out, int max)
{
    int c = 0;
    for (int k = 0; k + 1 < n && c < max; k++)
        if ((v[k] > 0) != (v[k + 1] > 0))
            out[c++] = dt * (k + (double)v[k] / ((double)v[k] - (double)v[k + 1]));
    return c;
}

static vf_height_desc basin(double depth)
{
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = 64;
    d.ny = 16;
    d.dx = 0.1;
    d.g = 9.81;
    d.surface = depth;
    d.bed = 0.0;
    d.damping = 0.0;
    d.volume_fix = false;
    d.init = VF_HEIGHT_INIT_COSINE;
    d.init_amplitude = 1e-3;
    return d;
}

typedef struct basin_run {
    double period;            /* measured (s) */
    double peak;              /* largest |eta| at the probe */
    double rms_first, rms_last; /* rms of eta at the probe over the first and last third */
} basin_run;

/* Runs a basin for `periods` analytic periods sampling eta at (0, ny/2). */
static basin_run measure_period(vf_gpu *gpu, const vf_height_desc *d, double periods)
{
    basin_run r = {NAN, 0, 0, 0};
    vf_solver *s = vf_test_height_solver(gpu, d);
    if (!s)
        return r;
    const double c = sqrt(d->g * d->surface), t_an = 2 * d->nx * d->dx / c, dt = vf_height_dt(s);
    const int n = (int)ceil(periods * t_an / dt) + 1;
    float *v = malloc(n * sizeof(float));
    size_t idx = (size_t)(d->ny / 2) * d->nx;
    for (int k = 0; k < n; k++) {
        if (k)
            steps(gpu, s, 1);
        v[k] = probe(s, idx);
        r.peak = fmax(r.peak, fabs(v[k]));
    }
    int third = n / 3;
    for (int k = 0; k < third; k++) {
        r.rms_first += (double)v[k] * v[k];
        r.rms_last += (double)v[n - 1 - k] * v[n - 1 - k];
    }
    r.rms_first = sqrt(r.rms_first / third);
    r.rms_last = sqrt(r.rms_last / third);
    double t[64];
    int m = crossings(v, n, dt, t, 64);
    r.period = m >= 3 ? (t[m - 1] - t[0]) / (0.5 * (m - 1)) : NAN;
    printf("  %d steps of %.4g s, %d zero crossings, measured period %.6g s\n", n - 1, dt, m, r.period);
    free(v);
    vf_solver_destroy(&s);
    return r;
}

static void test_period_explicit(vf_gpu *gpu)
{
    vf_test_section("closed basin, first mode, explicit (C = 0.5)");
    vf_height_desc d = basin(1.0);
    const double c = sqrt(d.g * d.surface), L = d.nx * d.dx;
    d.dt = 0.5 * d.dx / c;
    d.frame_dt = d.dt;
    basin_run br = measure_period(gpu, &d, 2.6);
    double t = br.period;
    double t_an = 2 * L / c;
    double C = c * d.dt / d.dx, w = 2.0 / d.dt * asin(C * sin(PI / (2.0 * d.nx)));
    double t_disc = 2 * PI / w;
    printf("  analytic 2L/sqrt(gd) = %.6g s (error %.3g%%), discrete dispersion %.6g s (error %.3g%%)\n", t_an,
           100 * (t - t_an) / t_an, t_disc, 100 * (t - t_disc) / t_disc);
    CHECK_REL(t, t_an, 0.01, 0);
    CHECK_REL(t, t_disc, 0.002, 0);
    CHECK_LE(br.peak, 1.001e-3);
}

static void test_adi_large_dt(vf_gpu *gpu)
{
    vf_test_section("closed basin, first mode, adi at 10x the explicit limit");
    vf_height_desc d = basin(1.0);
    d.integrator = VF_HEIGHT_INT_ADI;
    const double c = sqrt(d.g * d.surface), L = d.nx * d.dx, limit = vf_height_explicit_limit(&d);
    d.dt = 10 * limit;
    d.frame_dt = d.dt;
    const double t_an = 2 * L / c;
    const double lam = 4 * c * c / (d.dx * d.dx) * pow(sin(PI / (2.0 * d.nx)), 2), a = d.dt * d.dt * lam;
    for (int form = 0; form < 2; form++) {
        d.adi_form = form;
        /* kass-miller damps by 1/sqrt(1 + a) per step: after 3 periods the
         * mode is down to 5%, later zero crossings drown in rounding */
        basin_run br = measure_period(gpu, &d, form ? 3 : 10);
        double t = br.period;
        double theta = form == 0 ? 2 * atan(sqrt(a) / 2) : atan(sqrt(a));
        double t_scheme = 2 * PI * d.dt / theta;
        /* starting at rest (eta^(n-1) = eta^n) puts the mode half a step off
         * its turning point: amplitude A / cos(theta/2) */
        double a0 = 1e-3 * cos(PI / (2.0 * d.nx)), amp = a0 / cos(theta / 2);
        printf("  %s: dt = %.4g s (10 x %.4g), period error vs 2L/sqrt(gd) %.3g%%, vs the scheme %.3g%%; peak |eta| "
               "%.5g (amplitude %.5g), rms last third / first third %.4f\n",
               form ? "kass-miller" : "trapezoidal", d.dt, limit, 100 * (t - t_an) / t_an, 100 * (t - t_scheme) / t_scheme,
               br.peak, form ? a0 : amp, br.rms_last / br.rms_first);
        if (form == 0) {
            CHECK_REL(t, t_an, 0.05, 0);
            CHECK_REL(t, t_scheme, 0.005, 0);
            CHECK_LE(br.peak, 1.01 * amp);                     /* bounded */
            CHECK_LE(br.rms_last, 1.005 * br.rms_first);       /* and not growing over 10 periods */
        } else {
            /* the paper's first-order form: stable, slower by atan(w dt)/(w dt), damped */
            CHECK_REL(t, t_scheme, 0.005, 0);
            CHECK_LE(br.peak, 1.0001 * a0);
            CHECK_LE(br.rms_last, 0.2 * br.rms_first);
        }
    }
    /* a rough 2D field at 10x the limit: bounded under ADI; the explicit
     * step (CPU reference, bypassing the dt check) blows up */
    d.adi_form = 0;
    d.init = VF_HEIGHT_INIT_REST;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    size_t n = (size_t)d.nx * d.ny;
    float *eta = malloc(n * 4), *vel = calloc(n, 4), *out = malloc(n * 4), *bed = malloc(n * 4), *pres = calloc(n, 4);
    uint32_t *flags = calloc(n, 4);
    uint32_t r = 7;
    double l2_0 = 0;
    for (size_t i = 0; i < n; i++) {
        r = r * 1664525u + 1013904223u;
        eta[i] = 1e-3f * ((float)(r >> 8) / 16777216.0f - 0.5f);
        bed[i] = -1.0f;
        l2_0 += (double)eta[i] * eta[i];
    }
    CHECK(vf_height_upload(s, eta, eta) == VF_OK);
    steps(gpu, s, 200);
    float *g = malloc(n * 4);
    CHECK(vf_height_download(s, g, NULL) == VF_OK);
    double l2 = 0;
    for (size_t i = 0; i < n; i++)
        l2 += (double)g[i] * g[i];
    vf_height_step_push sp = vf_height_step_params(s, 0);
    for (int k = 0; k < 50; k++) {
        vf_height_ref_explicit(&sp, eta, bed, flags, pres, vel, out);
        memcpy(eta, out, n * 4);
    }
    double l2_expl = 0;
    for (size_t i = 0; i < n; i++)
        l2_expl += (double)eta[i] * eta[i];
    printf("  random field: |eta|_2 after 200 adi steps %.3g x the initial; after 50 explicit steps at the same dt %.3g x\n",
           sqrt(l2 / l2_0), sqrt(l2_expl / l2_0));
    CHECK_LE(sqrt(l2 / l2_0), 1.0 + 1e-3);
    CHECK(!(sqrt(l2_expl / l2_0) < 1e3));
    free(eta), free(vel), free(out), free(bed), free(pres), free(flags), free(g);
    vf_solver_destroy(&s);
}

static void test_rain_volume(vf_gpu *gpu, int integrator, bool fix)
{
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = d.ny = 32;
    d.dx = 0.05;
    d.surface = 0.5;
    d.bed = 0.0;
    d.bed_shape = VF_HEIGHT_BED_BEACH; /* dry cells and a moving shoreline */
    d.shelf_x = 0.6;
    d.rain = 40;
    d.drop_radius = 0.06;
    d.drop_amplitude = 0.02;
    d.damping = 0.5;
    d.seed = 3;
    d.integrator = integrator;
    d.volume_fix = fix;
    double limit = vf_height_explicit_limit(&d);
    d.dt = integrator ? 2 * limit : 0.9 * limit;
    d.frame_dt = 10 * d.dt;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    double v0 = 0, v1 = 0;
    CHECK(vf_height_volume(s, &v0) == VF_OK);
    const int frames = 1000, batch = 50;
    for (int f = 0; f < frames; f += batch)
        run_frames(gpu, s, batch);
    CHECK(vf_height_volume(s, &v1) == VF_OK);
    char msg[256] = "";
    vf_result chk = vf_solver_check(s, msg, sizeof msg);
    double drift = (v1 - v0) / v0;
    printf("  %s, volume_fix=%s: %llu steps, %.0f s simulated, volume %.9g -> %.9g m^3, drift %.3g relative\n",
           integrator ? "adi" : "explicit", fix ? "on" : "off", (unsigned long long)s->steps, s->time, v0, v1, drift);
    CHECK_EQ_U64(s->steps, 10000);
    CHECK(chk == VF_OK);
    if (fix)
        CHECK_LE(fabs(drift), 1e-5);
    vf_solver_destroy(&s);
}

static void test_volume(vf_gpu *gpu)
{
    vf_test_section("volume over 10 000 steps of rain (32x32, beach with dry cells)");
    test_rain_volume(gpu, 0, false);
    test_rain_volume(gpu, 0, true);
    test_rain_volume(gpu, 1, true);
}

/* Time of the largest sample in [0, t_cut], parabola through the peak. */
static double peak_time(const float *v, int n, double dt, double t_cut)
{
    int best = 1, last = (int)fmin(n - 2, t_cut / dt);
    for (int k = 1; k <= last; k++)
        if (v[k] > v[best])
            best = k;
    double a = v[best - 1], b = v[best], c = v[best + 1];
    double off = 0.5 * (a - c) / (a - 2 * b + c);
    return dt * (best + off);
}

static void test_shelf(vf_gpu *gpu)
{
    vf_test_section("waves slow over a shallow shelf (deep 1 m, shelf 0.25 m from x = 10 m)");
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = 400;
    d.ny = 16;
    d.dx = 0.05;
    d.surface = 1.0;
    d.bed = 0.0;
    d.bed_shape = VF_HEIGHT_BED_SHELF;
    d.shelf_x = 0.5;
    d.shelf_depth = 0.25;
    d.damping = 0.0;
    d.volume_fix = false;
    d.dt = 0.9 * vf_height_explicit_limit(&d);
    d.frame_dt = d.dt;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    /* a plane pulse (uniform in y) centred at x = 4 m */
    size_t n = (size_t)d.nx * d.ny;
    float *eta = malloc(n * 4), *vel = calloc(n, 4), *row = malloc(d.nx * 4);
    for (int j = 0; j < d.ny; j++)
        for (int i = 0; i < d.nx; i++) {
            double x = (i + 0.5) * d.dx;
            eta[(size_t)j * d.nx + i] = (float)(0.002 * exp(-(x - 4.0) * (x - 4.0)));
        }
    CHECK(vf_height_upload(s, eta, vel) == VF_OK);
    const double probes[4] = {6.0, 8.0, 12.0, 18.0}, cut[4] = {2.0, 2.2, 4.6, 8.8};
    const int steps_n = (int)ceil(9.0 / d.dt);
    float *series[4];
    for (int p = 0; p < 4; p++)
        series[p] = malloc((steps_n + 1) * sizeof(float));
    vf_height_state st;
    vf_height_get_state(s, &st);
    for (int k = 0; k <= steps_n; k++) {
        if (k)
            steps(gpu, s, 1);
        vf_height_get_state(s, &st);
        vf_buffer_read(st.eta, (size_t)(d.ny / 2) * d.nx * 4, row, d.nx * 4);
        for (int p = 0; p < 4; p++)
            series[p][k] = row[(int)(probes[p] / d.dx)];
    }
    double t[4];
    for (int p = 0; p < 4; p++)
        t[p] = peak_time(series[p], steps_n + 1, d.dt, cut[p]);
    double c_deep = sqrt(d.g * 1.0), c_shelf = sqrt(d.g * 0.25);
    double m_deep = (probes[1] - probes[0]) / (t[1] - t[0]), m_shelf = (probes[3] - probes[2]) / (t[3] - t[2]);
    printf("  peaks at x = 6, 8, 12, 18 m: t = %.4f, %.4f, %.4f, %.4f s (dt %.4g s)\n", t[0], t[1], t[2], t[3], d.dt);
    printf("  deep: %.4f m/s vs sqrt(g d) = %.4f (error %.2f%%); shelf: %.4f m/s vs %.4f (error %.2f%%)\n", m_deep, c_deep,
           100 * (m_deep - c_deep) / c_deep, m_shelf, c_shelf, 100 * (m_shelf - c_shelf) / c_shelf);
    double arrive18 = (10.0 - 4.0) / c_deep + (18.0 - 10.0) / c_shelf;
    printf("  arrival at x = 18 m: %.4f s vs %.4f s from sqrt(g d) (error %.2f%%)\n", t[3], arrive18,
           100 * (t[3] - arrive18) / arrive18);
    CHECK_REL(m_deep, c_deep, 0.05, 0);
    CHECK_REL(m_shelf, c_shelf, 0.05, 0);
    CHECK_REL(t[3], arrive18, 0.05, 0);
    for (int p = 0; p < 4; p++)
        free(series[p]);
    free(eta), free(vel), free(row);
    vf_solver_destroy(&s);
}

static void test_pressure_coupling(vf_gpu *gpu)
{
    vf_test_section("coupling=pressure: the surface follows p/(rho g)");
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = d.ny = 32;
    d.dx = 0.1;
    d.surface = 1.0;
    d.coupling = VF_HEIGHT_COUPLE_PRESSURE;
    d.rho = 1000;
    d.damping = 1.0;
    d.volume_fix = false; /* the coupling alone (the mean of p adds volume) */
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    const uint32_t fn = 16;
    float p[16 * 16];
    for (uint32_t j = 0; j < fn; j++)
        for (uint32_t i = 0; i < fn; i++) {
            double x = (i + 0.5) / fn - 0.5, y = (j + 0.5) / fn - 0.5;
            p[j * fn + i] = (float)(300.0 * exp(-(x * x + y * y) / 0.02)); /* up to 3 cm of water */
        }
    vf_buffer *bp = NULL;
    vf_buffer_desc bd = {.size = sizeof p, .name = "test flow pressure"};
    CHECK(vf_buffer_create(gpu, &bd, &bp) == VF_OK);
    CHECK(vf_buffer_write(bp, 0, p, sizeof p) == VF_OK);
    vf_height_flow flow = {.pressure = bp, .nx = fn, .ny = fn};
    CHECK(vf_height_set_flow(s, &flow) == VF_OK);
    run_frames(gpu, s, 30);
    size_t n = (size_t)d.nx * d.ny;
    float *eta = malloc(n * 4), *ph = malloc(n * 4);
    vf_height_state st;
    vf_height_get_state(s, &st);
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    CHECK(vf_buffer_read(st.pres, 0, ph, n * 4) == VF_OK);
    double mean = 0, worst = 0, pmax = 0;
    for (size_t i = 0; i < n; i++)
        mean += eta[i] - ph[i], pmax = fmax(pmax, ph[i]);
    mean /= n;
    for (size_t i = 0; i < n; i++)
        worst = fmax(worst, fabs(eta[i] - ph[i] - mean));
    printf("  after 30 frames: max |eta - p/(rho g) - const| = %.3g m (p/(rho g) up to %.3g m, const %.3g m)\n", worst,
           pmax, mean);
    CHECK(pmax > 0.02);
    CHECK_LE(worst, 1e-4 * pmax + 1e-6);
    free(eta), free(ph);
    vf_solver_destroy(&s);
    vf_buffer_destroy(&bp);
}

/* Largest |eta| left in a channel after a plane pulse from its middle had
 * time to reach both ends and come back. */
static double leftover(vf_gpu *gpu, int edges)
{
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = 160;
    d.ny = 16;
    d.dx = 0.05;
    d.surface = 1.0;
    d.damping = 0.0;
    d.volume_fix = false;
    d.edges = edges;
    d.dt = 0.9 * vf_height_explicit_limit(&d);
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return NAN;
    size_t n = (size_t)d.nx * d.ny;
    float *eta = malloc(n * 4), *vel = calloc(n, 4);
    for (int j = 0; j < d.ny; j++)
        for (int i = 0; i < d.nx; i++) {
            double x = (i + 0.5) * d.dx - 4.0;
            eta[(size_t)j * d.nx + i] = (float)(0.002 * exp(-x * x / 0.25));
        }
    CHECK(vf_height_upload(s, eta, vel) == VF_OK);
    int total = (int)ceil(3.5 / vf_height_dt(s));
    for (int k = 0; k < total; k += 100)
        steps(gpu, s, total - k < 100 ? total - k : 100);
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    double m = vf_test_max_abs(eta, n);
    free(eta), free(vel);
    vf_solver_destroy(&s);
    return m;
}

static void test_absorbing(vf_gpu *gpu)
{
    vf_test_section("absorbing edges (edges=open-ends): a plane pulse leaves the channel");
    double walls = leftover(gpu, VF_HEIGHT_EDGES_WALLS), absorbing = leftover(gpu, VF_HEIGHT_EDGES_OPEN_ENDS);
    printf("  max |eta| after 3.5 s (pulse 2 mm): walls %.3g m, open ends %.3g m (%.2g%% of the walls case)\n", walls,
           absorbing, 100 * absorbing / walls);
    CHECK(walls > 5e-4);
    CHECK_LE(absorbing, 0.05 * walls);
}

static void test_boat(vf_gpu *gpu)
{
    vf_test_section("a slow boat pushes the water aside: hydrostatic depression under the hull");
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = 128;
    d.ny = 48;
    d.dx = 0.05;
    d.surface = 0.5;
    d.boat = true;
    d.boat_length = 0.8;
    d.boat_width = 0.4;
    d.boat_draft = 0.05;
    d.wake_speed = 0.1; /* Froude number 0.05: nearly hydrostatic */
    d.damping = 2.0;
    d.edges = VF_HEIGHT_EDGES_WALLS;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    double v0 = 0, v1 = 0;
    CHECK(vf_height_volume(s, &v0) == VF_OK);
    run_frames(gpu, s, 240);
    CHECK(vf_height_volume(s, &v1) == VF_OK);
    vf_height_object boat;
    CHECK(vf_height_read_objects(s, &boat) == VF_OK);
    size_t n = (size_t)d.nx * d.ny;
    float *eta = malloc(n * 4);
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    int bi = (int)(boat.x / d.dx), bj = (int)(boat.y / d.dx);
    double under = eta[(size_t)bj * d.nx + bi], far = eta[(size_t)bj * d.nx + (bi < d.nx / 2 ? d.nx - 4 : 3)];
    printf("  boat at (%.2f, %.2f) m: eta under the hull %.4f m, far away %.4f m, difference %.4f (draft %.3f); volume "
           "drift %.2g\n",
           boat.x, boat.y, under, far, far - under, d.boat_draft, (v1 - v0) / v0);
    CHECK_REL(far - under, d.boat_draft, 0.15, 0);
    CHECK_LE(fabs(v1 - v0) / v0, 1e-5);
    free(eta);
    vf_solver_destroy(&s);
}

static void test_objects_follow_flow(vf_gpu *gpu)
{
    vf_test_section("floating leaves follow a uniform flow (drag relaxation)");
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = d.ny = 32;
    d.dx = 0.1;
    d.leaves = 6;
    d.drag_time = 0.2;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    const float u = 0.3f, v = -0.1f;
    float fv[4 * 4 * 2];
    for (int i = 0; i < 16; i++)
        fv[2 * i] = u, fv[2 * i + 1] = v;
    vf_buffer *bv = NULL;
    vf_buffer_desc bd = {.size = sizeof fv, .name = "test uniform flow"};
    CHECK(vf_buffer_create(gpu, &bd, &bv) == VF_OK);
    CHECK(vf_buffer_write(bv, 0, fv, sizeof fv) == VF_OK);
    vf_height_flow flow = {.velocity = bv, .nx = 4, .ny = 4};
    CHECK(vf_height_set_flow(s, &flow) == VF_OK);
    vf_height_object a[6], b[6];
    CHECK(vf_height_read_objects(s, a) == VF_OK);
    const int frames = 60;
    run_frames(gpu, s, frames);
    CHECK(vf_height_read_objects(s, b) == VF_OK);
    /* the exact discrete path: v_n = U (1 - q^n), q = exp(-dt/tau), x += dt v_n */
    double q = exp(-d.frame_dt / d.drag_time), travel = 0, vn = 0;
    for (int f = 1; f <= frames; f++) {
        vn = 1 - pow(q, f);
        travel += d.frame_dt * vn;
    }
    int checked = 0;
    for (int k = 0; k < 6; k++) {
        if (a[k].x > 2.6f || a[k].y < 0.4f)
            continue; /* would reach a wall */
        checked++;
        printf("  leaf %d: moved (%.4f, %.4f) m, expected (%.4f, %.4f); velocity (%.4f, %.4f)\n", k, b[k].x - a[k].x,
               b[k].y - a[k].y, u * travel, v * travel, b[k].vx, b[k].vy);
        CHECK_REL(b[k].x - a[k].x, u * travel, 0.01, 0);
        CHECK_REL(b[k].y - a[k].y, v * travel, 0.01, 0);
        CHECK_REL(b[k].vx, u * vn, 1e-3, 0);
    }
    CHECK(checked >= 2);
    vf_solver_destroy(&s);
    vf_buffer_destroy(&bv);
}

/* The river scene, smaller: a 8 m x 2 m reach at dx = 0.0625 m, a
 * `flow_cells`-cell flow grid. Runs `frames` frames and returns the solver. */
static vf_solver *river_tweaked(vf_gpu *gpu, int coupling, int frames, int flow_cells, double re, double damping,
                                vf_height_desc *d)
{
    const vf_scene_info *sc = vf_scene_find("river");
    if (!CHECK_MSG(sc != NULL, "the river scene is registered"))
        return NULL;
    vf_height_scene_desc sd;
    vf_scene_defaults(sc, &sd);
    *d = sd.solver;
    d->nx = 128;
    d->ny = 32;
    d->dx = 0.0625;
    d->flow_cells = flow_cells;
    if (re > 0)
        d->re = re;
    if (damping > 0)
        d->damping = damping;
    d->leaves = 16;
    d->recycle = false;
    d->coupling = coupling;
    char err[256] = "";
    vf_solver *s = NULL;
    sd.solver = *d;
    vf_result r = sc->validate(sc, &sd, NULL, err, sizeof err);
    if (r == VF_OK)
        r = sc->create(sc, gpu, &sd, &s, NULL, err, sizeof err);
    if (!CHECK_MSG(r == VF_OK, "river: %s (%s)", vf_result_message(r), err))
        return NULL;
    vf_test_frames(gpu, s, frames);
    return s;
}

static vf_solver *river_cells(vf_gpu *gpu, int coupling, int frames, int flow_cells, vf_height_desc *d)
{
    return river_tweaked(gpu, coupling, frames, flow_cells, 0, 0, d);
}

static vf_solver *river(vf_gpu *gpu, int coupling, int frames, vf_height_desc *d)
{
    return river_cells(gpu, coupling, frames, 24, d);
}

static void test_river(vf_gpu *gpu)
{
    vf_test_section("river: the channel flow disturbs the surface at the pillar, leaves drift downstream");
    const int early = 12, frames = 60;
    vf_height_desc d;
    /* coupling=none: the flow moves the leaves but never the surface */
    vf_solver *s = river(gpu, VF_HEIGHT_COUPLE_NONE, early, &d);
    if (!s)
        return;
    size_t n = (size_t)d.nx * d.ny;
    float *eta = malloc(n * sizeof(float));
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    vf_height_state st;
    vf_height_get_state(s, &st);
    uint32_t *flags = malloc(n * sizeof(uint32_t));
    CHECK(vf_buffer_read(st.flags, 0, flags, n * sizeof(uint32_t)) == VF_OK);
    double still = 0;
    for (size_t k = 0; k < n; k++)
        if (!(flags[k] & VF_HEIGHT_SOLID))
            still = fmax(still, fabs(eta[k]));
    free(flags);
    printf("  coupling=none: max |eta| %.3g m after %d frames\n", still, early);
    CHECK_LE(still, 1e-7);
    vf_solver_destroy(&s);

    /* coupling=divergence, first frame (the start flow is already projected
     * around the pillar): the flow slows towards the stagnation point in
     * front of the pillar, so the tentative velocity converges there and the
     * surface rises, more than behind the pillar; later the bumps ring as
     * waves and the sign at a point alternates. */
    s = river(gpu, VF_HEIGHT_COUPLE_DIVERGENCE, 1, &d);
    if (!s)
        return;
    const double px = d.pillar_x * d.nx * d.dx, py = d.pillar_y * d.ny * d.dx, r = d.pillar_r;
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    double side[2] = {0, 0};
    int side_n[2] = {0, 0};
    for (int j = 0; j < d.ny; j++)
        for (int i = 0; i < d.nx; i++) {
            double x = (i + 0.5) * d.dx - px, y = (j + 0.5) * d.dx - py;
            if (fabs(x) > r && fabs(x) < 2 * r && fabs(y) < 0.5 * r) {
                side[x > 0] += eta[(size_t)j * d.nx + i];
                side_n[x > 0]++;
            }
        }
    side[0] /= side_n[0] ? side_n[0] : 1;
    side[1] /= side_n[1] ? side_n[1] : 1;
    printf("  coupling=divergence after 1 frame: mean eta in front of the pillar %.3g m, behind %.3g m (%d, %d cells)\n",
           side[0], side[1], side_n[0], side_n[1]);
    CHECK(side_n[0] > 0 && side_n[1] > 0);
    CHECK(side[0] > 1e-4);
    CHECK(side[0] > side[1] + 1e-4);

    /* after `early` frames (0.2 s: waves at sqrt(g d) = 2 m/s have gone at
     * most 0.4 m) the disturbance still sits at the pillar. Near: within 2 r
     * of its edge; far: more than 1 m from its centre. */
    vf_test_frames(gpu, s, early - 1);
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    double near_max = 0, far_max = 0;
    for (int j = 0; j < d.ny; j++)
        for (int i = 0; i < d.nx; i++) {
            double x = (i + 0.5) * d.dx - px, y = (j + 0.5) * d.dx - py, dist = hypot(x, y);
            double e = fabs(eta[(size_t)j * d.nx + i]);
            if (dist <= r)
                continue;
            if (dist < 3 * r)
                near_max = fmax(near_max, e);
            if (dist > 1.0)
                far_max = fmax(far_max, e);
        }
    printf("  coupling=divergence after %d frames: max |eta| near the pillar %.3g m, far %.3g m\n", early, near_max,
           far_max);
    CHECK(near_max > 1e-3);
    CHECK(near_max > 10 * far_max);
    vf_solver_destroy(&s);

    /* leaves over 1 s: every leaf that starts more than 1 m before the outlet
     * moves downstream; the mean drift is the inflow speed times the drag's
     * discrete travel within 30% (the pillar slows leaves in front of it and
     * speeds those beside it) */
    s = river(gpu, VF_HEIGHT_COUPLE_DIVERGENCE, 0, &d);
    if (!s) {
        free(eta);
        return;
    }
    vf_height_get_state(s, &st);
    vf_height_object *a = calloc(st.object_count, sizeof *a), *b = calloc(st.object_count, sizeof *b);
    CHECK(vf_height_read_objects(s, a) == VF_OK);
    vf_test_frames(gpu, s, frames);
    CHECK(vf_height_read_objects(s, b) == VF_OK);
    double q = exp(-d.frame_dt / d.drag_time), travel = 0;
    for (int f = 1; f <= frames; f++)
        travel += d.frame_dt * (1 - pow(q, f));
    const double expect = d.inflow * travel, lx = d.nx * d.dx;
    double sum = 0, worst = 1e9;
    int counted = 0;
    for (uint32_t k = 0; k < st.object_count; k++) {
        if (a[k].x > lx - 1.0)
            continue;
        double moved = b[k].x - a[k].x;
        sum += moved;
        worst = fmin(worst, moved);
        counted++;
    }
    double mean = counted ? sum / counted : 0;
    printf("  %d leaves over %d frames: mean downstream drift %.3f m (expected %.3f m at the inflow speed), least %.3f m\n",
           counted, frames, mean, expect, worst);
    CHECK(counted >= 8);
    CHECK(worst > 0.1 * expect);
    CHECK_REL(mean, expect, 0.3, 0);
    free(a);
    free(b);
    free(eta);
    vf_solver_destroy(&s);
}

static void test_river_steady(vf_gpu *gpu)
{
    vf_test_section("river, steady flow (re 20, damping 2): the surface rises in front of the pillar, dips beside it");
    /* a steady source S = -s b (b = div u* / dt) against the damped wave
     * equation settles at g d lap(eta) = -damping S, the same Poisson problem
     * as the flow's pressure: eta ~ damping s p / (g d), high at the
     * stagnation point, low beside and behind the pillar (Bernoulli's
     * pattern, as coupling=pressure gives) */
    vf_height_desc d;
    vf_solver *s = river_tweaked(gpu, VF_HEIGHT_COUPLE_DIVERGENCE, 300, 32, 20, 2, &d);
    if (!s)
        return;
    size_t n = (size_t)d.nx * d.ny;
    float *eta = malloc(n * sizeof(float));
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    const double px = d.pillar_x * d.nx * d.dx, py = d.pillar_y * d.ny * d.dx, r = d.pillar_r;
    double front = 0, flank = 0;
    int nf = 0, nk = 0;
    for (int j = 0; j < d.ny; j++)
        for (int i = 0; i < d.nx; i++) {
            double x = (i + 0.5) * d.dx - px, y = (j + 0.5) * d.dx - py, e = eta[(size_t)j * d.nx + i];
            if (x < -r && x > -r - 0.2 && fabs(y) < 0.5 * r)
                front += e, nf++;
            if (fabs(x) < 0.5 * r && fabs(y) > r && fabs(y) < r + 0.2)
                flank += e, nk++;
        }
    front /= nf ? nf : 1;
    flank /= nk ? nk : 1;
    printf("  after 5 s: mean eta in front of the pillar %.4f m (%d cells), beside it %.4f m (%d cells)\n", front, nf,
           flank, nk);
    CHECK(nf > 0 && nk > 0);
    CHECK(front > 2e-3);
    CHECK(flank < -1e-3);
    free(eta);
    vf_solver_destroy(&s);
}

/* Temporal standard deviation of eta over the wet cells of a box
 * [x0, x1] x [y0, y1] (m), from `count` snapshots of n cells each. */
static double box_std(const float *snaps, int count, const vf_height_desc *d, const uint32_t *flags, double x0,
                      double x1, double y0, double y1)
{
    double sum = 0;
    int cells = 0;
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++) {
            double x = (i + 0.5) * d->dx, y = (j + 0.5) * d->dx;
            size_t k = (size_t)j * d->nx + i;
            if (x < x0 || x > x1 || y < y0 || y > y1 || (flags[k] & VF_HEIGHT_SOLID))
                continue;
            double m = 0, m2 = 0;
            for (int t = 0; t < count; t++) {
                double e = snaps[(size_t)t * d->nx * d->ny + k];
                m += e;
                m2 += e * e;
            }
            m /= count;
            sum += sqrt(fmax(m2 / count - m * m, 0));
            cells++;
        }
    return cells ? sum / cells : 0;
}

static void test_river_wake(vf_gpu *gpu)
{
    vf_test_section("river: vortices shed by the pillar leave a wake of surface waves downstream");
    /* 12 s at a 32-cell flow grid (the pillar 4.8 flow cells across, MacCormack
     * advection keeps the street alive); snapshots every 0.25 s from 6 s on,
     * when the street has formed. The wake: the surface's temporal standard
     * deviation in a 1 m x 1 m box just behind the pillar, against the same box
     * just ahead of it (the waves the vortices start also run upstream, at
     * sqrt(g d) = 5 U, so the box ahead is not still: 2.9x at this size, the
     * same at a quarter of the time step) */
    const int start = 360, every = 15, count = 25;
    vf_height_desc d;
    vf_solver *s = river_cells(gpu, VF_HEIGHT_COUPLE_DIVERGENCE, start, 32, &d);
    if (!s)
        return;
    size_t n = (size_t)d.nx * d.ny;
    float *snaps = malloc(n * count * sizeof(float));
    uint32_t *flags = malloc(n * sizeof(uint32_t));
    vf_height_state st;
    vf_height_get_state(s, &st);
    CHECK(vf_buffer_read(st.flags, 0, flags, n * sizeof(uint32_t)) == VF_OK);
    for (int t = 0; t < count; t++) {
        vf_test_frames(gpu, s, every);
        CHECK(vf_height_download(s, snaps + (size_t)t * n, NULL) == VF_OK);
    }
    const double px = d.pillar_x * d.nx * d.dx, py = d.pillar_y * d.ny * d.dx, r = d.pillar_r;
    double ahead = box_std(snaps, count, &d, flags, px - r - 1.0, px - r, py - 0.5, py + 0.5);
    double behind = box_std(snaps, count, &d, flags, px + r, px + r + 1.0, py - 0.5, py + 0.5);
    double far = box_std(snaps, count, &d, flags, px + r + 1.0, px + r + 2.0, py - 0.5, py + 0.5);
    printf("  std of eta over 6..12 s: ahead of the pillar %.3g m, behind %.3g m, 1..2 m further %.3g m\n", ahead,
           behind, far);
    CHECK(behind > 5e-4);
    CHECK(behind > 2 * ahead);
    CHECK(far > ahead);

    /* the dye (the river's inflow stripes, drawn on the water) drifts with the
     * flow: in the rows more than 0.5 m from the pillar's axis the farthest
     * dyed cell has come U t from the inflow, within 15% */
    vf_height_get_state(s, &st);
    if (CHECK_MSG(st.dye[0] && st.dye[1] && st.dye[2] && st.flow_nx > 0, "the river's flow carries dye")) {
        size_t fc = (size_t)st.flow_nx * st.flow_ny;
        float *dye = malloc(3 * fc * sizeof(float));
        for (int c = 0; c < 3; c++)
            CHECK(vf_buffer_read(st.dye[c], 0, dye + c * fc, fc * sizeof(float)) == VF_OK);
        const double lx = d.nx * d.dx, fh = lx / st.flow_nx, t = st.time;
        double sum = 0;
        int rows = 0;
        for (uint32_t j = 0; j < st.flow_ny; j++) {
            double y = (j + 0.5) * fh;
            if (fabs(y - py) < 0.5)
                continue;
            int front = -1;
            for (uint32_t i = 0; i < st.flow_nx; i++) {
                size_t k = (size_t)j * st.flow_nx + i;
                if (dye[k] + dye[fc + k] + dye[2 * fc + k] > 0.2)
                    front = (int)i;
            }
            sum += (front + 0.5) * fh;
            rows++;
        }
        double mean = rows ? sum / rows : 0;
        printf("  dye front %.2f m from the inflow after %.2f s (U t = %.2f m, %d rows)\n", mean, t, d.inflow * t, rows);
        CHECK(rows > 4);
        CHECK_REL(mean, d.inflow * t, 0.15, 0);
        free(dye);
    }
    free(snaps);
    free(flags);
    vf_solver_destroy(&s);
}

/* Centroid of eta along x (m), weighted by eta (a positive bump on a flat bed). */
static double centroid_x(vf_solver *s, const vf_height_desc *d, float *eta)
{
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    double m = 0, mx = 0;
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++) {
            double e = eta[(size_t)j * d->nx + i];
            m += e;
            mx += e * (i + 0.5) * d->dx;
        }
    return m > 0 ? mx / m : NAN;
}

static void test_advect_bump(vf_gpu *gpu)
{
    vf_test_section("advect: a bump drifts with a uniform current (g tiny: the waves hardly spread)");
    const float u = 0.5f, v = 0.1f;
    float fv[4 * 4 * 2];
    for (int i = 0; i < 16; i++)
        fv[2 * i] = u, fv[2 * i + 1] = v;
    vf_buffer *bv = NULL;
    vf_buffer_desc bd = {.size = sizeof fv, .name = "test uniform current"};
    CHECK(vf_buffer_create(gpu, &bd, &bv) == VF_OK);
    CHECK(vf_buffer_write(bv, 0, fv, sizeof fv) == VF_OK);
    for (int adv = 0; adv < 2; adv++) {
        vf_height_desc d;
        vf_height_desc_defaults(&d);
        d.nx = 64;
        d.ny = 32;
        d.dx = 0.05;
        d.g = 1e-3; /* c = sqrt(g d) = 0.035 m/s: the bump spreads 4 cm in 1 s */
        d.surface = 1.2;
        d.damping = 0;
        d.init = VF_HEIGHT_INIT_BUMP;
        d.init_x = 0.3;
        d.init_y = 0.4;
        d.init_width = 0.2;
        d.init_amplitude = 0.05;
        d.volume_fix = false;
        d.advect = adv;
        vf_solver *s = vf_test_height_solver(gpu, &d);
        if (!s)
            continue;
        vf_height_flow flow = {.velocity = bv, .nx = 4, .ny = 4};
        CHECK(vf_height_set_flow(s, &flow) == VF_OK);
        float *eta = malloc((size_t)d.nx * d.ny * sizeof(float));
        double x0 = centroid_x(s, &d, eta);
        const int frames = 60;
        run_frames(gpu, s, frames);
        double x1 = centroid_x(s, &d, eta), expect = adv ? u * frames * d.frame_dt : 0.0;
        printf("  advect=%d: centroid moved %.4f m in %g s (expected %.4f m)\n", adv, x1 - x0, frames * d.frame_dt,
               expect);
        if (adv)
            CHECK_REL(x1 - x0, expect, 0.02, 0);
        else
            CHECK_LE(fabs(x1 - x0), 0.002);
        free(eta);
        vf_solver_destroy(&s);
    }
    vf_buffer_destroy(&bv);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    test_period_explicit(gpu);
    test_adi_large_dt(gpu);
    test_shelf(gpu);
    test_volume(gpu);
    test_pressure_coupling(gpu);
    test_absorbing(gpu);
    test_boat(gpu);
    test_objects_follow_flow(gpu);
    test_river(gpu);
    test_river_wake(gpu);
    test_river_steady(gpu);
    test_advect_bump(gpu);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
