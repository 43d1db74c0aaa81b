/* Water over a terrain against known answers:
 *  - Ritter's dam break over a dry bed (1892): the depth profile (L1 error
 *    relative to the exact water in the domain) and the front (where the
 *    depth falls to 1 % of h0) at two times, at four resolutions: the errors
 *    fall under refinement and the finest is within the stated tolerances;
 *  - a basin filled by a source: the volume is exactly rate x time (in
 *    quanta), and once settled the level is volume / area everywhere;
 *  - a lake at rest over hills with islands stays at rest for 10 000 steps
 *    (well-balanced): speeds below RESTING_SPEED, volume exact;
 *  - the volume over 10 000 steps while a bulldozer cuts the valley's dam,
 *    soil slips, the pointer digs and raises, with rain, a source and a
 *    drain: the total is exactly what it started with plus what rain and
 *    the source added less what the drain took (drift 0, the bound is
 *    1e-6 relative);
 *  - the bulldozer breaches the terrain scene's dam and the lake runs out;
 *  - a heightmap from a scene file (tests/shapes/terrain_heightmap.json, a
 *    16-bit PNG) and the same map as raw floats give the ground the map's
 *    function has at the cell centres, the right way round. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "scene_file.h"
#include "solver_terrain.h"
#include "testlib.h"

#define RESTING_SPEED 1e-4 /* m/s: the bound for the lake at rest */

/* A flat desc of nx x ny cells of dx, nothing else. */
static vf_terrain_desc flat_desc(int nx, int ny, double dx)
{
    vf_terrain_desc d;
    vf_terrain_desc_defaults(&d);
    d.nx = nx;
    d.ny = ny;
    d.dx = dx;
    d.ground = VF_TERRAIN_GROUND_FLAT;
    d.relief = 0;
    d.water_x1 = 0; /* no lake */
    d.dozer = false;
    d.repose = 90;
    d.manning = 0;
    d.source.rate = 0;
    d.drain.rate = 0;
    d.rain = 0;
    return d;
}

/* ------------------------------------------------------------------ Ritter */

#define RITTER_L 40.0  /* m */
#define RITTER_H0 1.0  /* m */
#define RITTER_THRESHOLD 0.01 /* the front: where the depth falls to this fraction of h0 */

typedef struct ritter_error {
    double l1;    /* sum |h - exact| / sum exact */
    double front; /* (front - exact front) / distance the exact front travelled */
} ritter_error;

/* Errors of the depth along the strip's first row at time t, the dam at x0. */
static ritter_error ritter_measure(const uint32_t *depth, int nx, double dx, double t)
{
    const double g = 9.81, c0 = sqrt(g * RITTER_H0), x0 = RITTER_L / 3, thr = RITTER_THRESHOLD * RITTER_H0;
    double e1 = 0, sum = 0, front = x0;
    for (int i = 0; i < nx; i++) {
        double xi = ((i + 0.5) * dx - x0) / t, h = depth[i] * VF_TERRAIN_QUANTUM;
        double exact = xi < -c0 ? RITTER_H0 : xi > 2 * c0 ? 0.0 : (2 * c0 - xi) * (2 * c0 - xi) / (9 * g);
        e1 += fabs(h - exact);
        sum += exact;
        if (h >= thr && i + 1 < nx) {
            double h1 = depth[i + 1] * VF_TERRAIN_QUANTUM;
            if (h1 < thr)
                front = (i + 0.5) * dx + dx * (h - thr) / (h - h1);
        }
    }
    double exact_front = x0 + t * (2 * c0 - 3 * sqrt(g * thr));
    return (ritter_error){.l1 = e1 / sum, .front = (front - exact_front) / (exact_front - x0)};
}

static void test_ritter(vf_gpu *gpu)
{
    vf_test_section("Ritter's dam break over a dry bed");
    static const int sizes[] = {120, 240, 480, 960};
    static const double times[2] = {1.5, 3.0}; /* s: the rarefaction and the front stay inside the 40 m strip */
    ritter_error e[4][2];
    for (int k = 0; k < 4; k++) {
        const int nx = sizes[k];
        vf_terrain_desc d = flat_desc(nx, 4, RITTER_L / nx);
        d.water_level = RITTER_H0;
        d.water_x0 = 0;
        d.water_x1 = 1.0 / 3.0; /* nx is a multiple of 3: the dam on a face */
        d.frame_dt = 0.05;
        vf_solver *s = vf_test_terrain(gpu, &d);
        if (!s)
            return;
        uint32_t *depth = malloc((size_t)nx * 4 * 4);
        for (int ti = 0; ti < 2; ti++) {
            vf_test_frames(gpu, s, (int)lround((times[ti] - s->time) / d.frame_dt));
            CHECK(vf_terrain_download(s, NULL, depth, NULL) == VF_OK);
            e[k][ti] = ritter_measure(depth, nx, d.dx, s->time);
            printf("nx %4d (dx %.4f m, dt %.4g s), t = %.2f s: L1 %.4f, front %+.2f %% of its run\n", nx, d.dx,
                   vf_terrain_dt(s), s->time, e[k][ti].l1, 100 * e[k][ti].front);
        }
        /* the strip's rows agree (the y walls carry nothing) */
        bool same = true;
        for (int j = 1; j < 4; j++)
            same = same && !memcmp(depth, depth + (size_t)j * nx, (size_t)nx * 4);
        CHECK(same);
        free(depth);
        vf_solver_destroy(&s);
    }
    for (int ti = 0; ti < 2; ti++) {
        printf("t = %.1f s: observed order of the L1 error %.2f, %.2f, %.2f; front error %.1f%% -> %.1f%%\n", times[ti],
               log2(e[0][ti].l1 / e[1][ti].l1), log2(e[1][ti].l1 / e[2][ti].l1), log2(e[2][ti].l1 / e[3][ti].l1),
               100 * e[0][ti].front, 100 * e[3][ti].front);
        for (int k = 1; k < 4; k++)
            CHECK_LE(e[k][ti].l1, 0.8 * e[k - 1][ti].l1); /* converges under refinement */
        CHECK_LE(e[3][ti].l1, 0.01);                      /* the finest: within 1 % */
        CHECK_LE(fabs(e[3][ti].front), 0.07);             /* its front within 7 % of the distance run */
        CHECK_LE(fabs(e[3][ti].front), 0.7 * fabs(e[0][ti].front));
    }
}

/* ------------------------------------------------------------------ basin */

static void test_basin(vf_gpu *gpu)
{
    vf_test_section("a basin filled by a source");
    const int nx = 40, ny = 30;
    vf_terrain_desc d = flat_desc(nx, ny, 0.5);
    d.source = (vf_terrain_spot){.x = 0.3, .y = 0.6, .radius = 1.0, .rate = 3.0};
    d.manning = 0.15; /* strong friction: the water settles within the test */
    d.frame_dt = 0.1;
    vf_solver *s = vf_test_terrain(gpu, &d);
    if (!s)
        return;
    vf_test_frames(gpu, s, 100); /* 10 s of filling */
    vf_terrain_volume v;
    CHECK(vf_terrain_read_volume(s, &v) == VF_OK);
    const double m3 = VF_TERRAIN_QUANTUM * v.cell_area, area = nx * ny * v.cell_area, volume = v.total * m3;
    printf("after %.1f s: %.6f m^3 (rate x time %.6f)\n", s->time, volume, 3.0 * s->time);
    CHECK_EQ_U64(v.total, v.initial + v.added);
    CHECK_NEAR(volume, 3.0 * s->time, 1e-5 * 3.0 * s->time);
    uint32_t *depth = malloc((size_t)nx * ny * 4);
    float *mom = malloc((size_t)nx * ny * 8);
    CHECK(vf_terrain_download(s, NULL, depth, mom) == VF_OK);
    vf_solver_destroy(&s);
    /* the same water without the source, left to settle for 120 s */
    d.source.rate = 0;
    if (!(s = vf_test_terrain(gpu, &d))) {
        free(depth), free(mom);
        return;
    }
    CHECK(vf_terrain_upload(s, NULL, depth, mom) == VF_OK);
    vf_test_frames(gpu, s, 1200);
    CHECK(vf_terrain_download(s, NULL, depth, mom) == VF_OK);
    double lo = 1e9, hi = -1e9, sum = 0, level = volume / area;
    for (int i = 0; i < nx * ny; i++) {
        double h = depth[i] * VF_TERRAIN_QUANTUM;
        lo = fmin(lo, h);
        hi = fmax(hi, h);
        sum += h;
    }
    printf("settled: depth %.6f .. %.6f m, volume / area %.6f m\n", lo, hi, level);
    CHECK_NEAR(sum / (nx * ny), level, 1e-9);
    CHECK_NEAR(lo, level, 1e-3);
    CHECK_NEAR(hi, level, 1e-3);
    free(depth), free(mom);
    vf_solver_destroy(&s);
}

/* ------------------------------------------------------------------ lake at rest */

static void test_lake_at_rest(vf_gpu *gpu)
{
    vf_test_section("a lake at rest over hills (well-balanced)");
    vf_terrain_desc d = flat_desc(48, 40, 1.0);
    d.ground = VF_TERRAIN_GROUND_HILLS;
    d.relief = 4;
    d.seed = 3;
    d.water_level = 2.0; /* hills stand out as islands */
    d.water_x0 = 0;
    d.water_x1 = 1;
    d.frame_dt = 0.25;
    vf_solver *s = vf_test_terrain(gpu, &d);
    if (!s)
        return;
    const double dt = vf_terrain_dt(s);
    const int frames = (int)ceil(10000 * dt / d.frame_dt);
    vf_test_frames(gpu, s, frames);
    const size_t n = 48 * 40;
    uint32_t *depth = malloc(n * 4);
    float *mom = malloc(n * 8), *bed = malloc(n * 4);
    CHECK(vf_terrain_download(s, bed, depth, mom) == VF_OK);
    double fastest = 0, dev = 0;
    size_t wet = 0, dry = 0;
    vf_terrain_state st;
    vf_terrain_get_state(s, &st);
    for (size_t i = 0; i < n; i++) {
        double h = depth[i] * VF_TERRAIN_QUANTUM;
        if (h > d.dry_depth) {
            wet++;
            fastest = fmax(fastest, hypot(mom[2 * i], mom[2 * i + 1]) / h);
            dev = fmax(dev, fabs(bed[i] + st.datum + h - d.water_level));
        } else {
            dry++;
        }
    }
    vf_terrain_volume v;
    CHECK(vf_terrain_read_volume(s, &v) == VF_OK);
    printf("%llu steps (dt %.4g s): %zu wet cells, %zu dry; fastest %.3g m/s, surface within %.3g m of the level\n",
           (unsigned long long)s->steps, dt, wet, dry, fastest, dev);
    CHECK(s->steps >= 10000);
    CHECK(wet > n / 4 && dry > n / 20);
    CHECK_LE(fastest, RESTING_SPEED);
    CHECK_LE(dev, 1e-5);
    CHECK_EQ_U64(v.total, v.initial);
    free(depth), free(mom), free(bed);
    vf_solver_destroy(&s);
}

/* ------------------------------------------------------------------ volume with the terrain changing */

static void test_volume_changing(vf_gpu *gpu)
{
    vf_test_section("volume over 10 000 steps with the terrain changing");
    vf_terrain_desc d;
    vf_terrain_desc_defaults(&d); /* the terrain scene's valley, dam and bulldozer, at 64 x 32 */
    d.nx = 64;
    d.ny = 32;
    d.dx = 2.0;
    d.rain = 50;
    d.source.rate = 1.0;
    d.source.radius = 5; /* 21 cells */
    d.drain.rate = 5.0;
    d.drain.radius = 6;
    d.frame_dt = 0.05;
    vf_solver *s = vf_test_terrain(gpu, &d);
    if (!s)
        return;
    const size_t n = 64 * 32;
    float *bed0 = malloc(n * 4), *bed = malloc(n * 4);
    CHECK(vf_terrain_download(s, bed0, NULL, NULL) == VF_OK);
    const double dt = vf_terrain_dt(s);
    const int frames = (int)ceil(10000 * dt / d.frame_dt);
    double worst = 0;
    for (int f = 0; f < frames; f++) {
        /* the pointer digs for a second in the lake's far end, then raises the hillside for one */
        vf_interaction in = {.active = f >= 40 && f < 80, .button = f < 60 ? 0 : 1,
                             .pos = {f < 60 ? 0.15f : 0.6f, f < 60 ? 0.45f : 0.2f}};
        s->vt->interact(s, &in);
        vf_test_frames(gpu, s, 1);
        if (f % 40 == 39 || f + 1 == frames) {
            vf_terrain_volume v;
            CHECK(vf_terrain_read_volume(s, &v) == VF_OK);
            double drift = ((double)v.total - ((double)v.initial + (double)v.added - (double)v.drained)) / (double)v.initial;
            worst = fmax(worst, fabs(drift));
            if (f + 1 == frames)
                printf("%llu steps: %.6g m^3 at the start, %+.6g added, %.6g drained, %.6g now: drift %.3g (worst %.3g)\n",
                       (unsigned long long)s->steps, v.initial * VF_TERRAIN_QUANTUM * v.cell_area,
                       v.added * VF_TERRAIN_QUANTUM * v.cell_area, v.drained * VF_TERRAIN_QUANTUM * v.cell_area,
                       v.total * VF_TERRAIN_QUANTUM * v.cell_area, drift, worst);
            CHECK(v.drained > 0 || f < 400);
        }
    }
    CHECK(s->steps >= 10000);
    CHECK_LE(worst, 1e-6);
    CHECK_EQ_INT(worst == 0, 1); /* exact, in quanta */
    CHECK(vf_terrain_download(s, bed, NULL, NULL) == VF_OK);
    double cut = 0, raised = 0;
    for (size_t i = 0; i < n; i++) {
        cut = fmax(cut, bed0[i] - bed[i]);
        raised = fmax(raised, bed[i] - bed0[i]);
    }
    printf("the ground moved: cut by up to %.3g m, raised by up to %.3g m\n", cut, raised);
    CHECK(cut > 2.0 && raised > 1.0);
    char msg[256] = "";
    CHECK(vf_solver_check(s, msg, sizeof msg) == VF_OK);
    vf_terrain_stats st;
    CHECK(vf_terrain_read_stats(s, &st) == VF_OK);
    float cfl;
    memcpy(&cfl, &st.cfl_bits, sizeof cfl);
    printf("largest CFL number %.3g, speeds held at the cap in %u cell-substeps\n", cfl, st.capped);
    CHECK_EQ_INT(st.capped, 0); /* the automatic substep needs no cap here */
    free(bed0), free(bed);
    vf_solver_destroy(&s);
}

/* ------------------------------------------------------------------ the scene's breach */

static void test_breach(vf_gpu *gpu)
{
    vf_test_section("the bulldozer breaches the dam");
    vf_terrain_desc d;
    vf_terrain_desc_defaults(&d);
    d.nx = 128;
    d.ny = 64;
    d.dx = 1.0;
    d.source.rate = 0;
    d.drain.rate = 0;
    d.frame_dt = 0.1;
    vf_solver *s = vf_test_terrain(gpu, &d);
    if (!s)
        return;
    const size_t n = 128 * 64;
    uint32_t *depth = malloc(n * 4);
    /* the water below the dam (x beyond its downstream toe) */
    const int toe = (int)((d.dam_x * 128 * d.dx + 0.5 * d.dam_crest + 2 * d.dam_height) / d.dx) + 1;
    double below[2];
    for (int k = 0; k < 2; k++) {
        vf_test_frames(gpu, s, k == 0 ? 10 : 150); /* 1 s: the bulldozer is still on its way; 16 s */
        CHECK(vf_terrain_download(s, NULL, depth, NULL) == VF_OK);
        below[k] = 0;
        for (int j = 0; j < 64; j++)
            for (int i = toe; i < 128; i++)
                below[k] += depth[(size_t)j * 128 + i] * VF_TERRAIN_QUANTUM * d.dx * d.dx;
    }
    printf("water below the dam: %.4g m^3 after 1 s, %.4g m^3 after 16 s\n", below[0], below[1]);
    CHECK(below[0] == 0);
    CHECK(below[1] > 100);
    free(depth);
    vf_solver_destroy(&s);
}

/* ------------------------------------------------------------------ heightmaps */

/* The function tests/shapes/terrain_heightmap.{png,f32} sample (u, v: fractions of x and y). */
static double map_z(double u, double v)
{
    return 2.0 + 6.0 * ((u - 0.5) * (u - 0.5) * 4 + (v - 0.5) * (v - 0.5) * 4) / 2 + 1.5 * sin(3.1 * u) * cos(2.3 * v);
}

/* Creates the scene of a file (text written to name in the scratch folder
 * when text is not NULL, else tests/shapes/name) and reads its ground (m). */
static float *load_ground(vf_gpu *gpu, const char *name, const char *text, int *nx, int *ny, double *dx)
{
    char path[1024], err[1024] = "";
    if (text) {
        snprintf(path, sizeof path, "%s", vf_test_path(name));
        FILE *f = fopen(path, "w");
        if (!CHECK(f != NULL))
            return NULL;
        fputs(text, f);
        fclose(f);
    } else {
        snprintf(path, sizeof path, "%s/tests/shapes/%s", vf_t.source, name);
    }
    vf_scene_loaded sc;
    vf_solver *s = NULL;
    vf_result r = vf_scene_load_file(path, &sc, err, sizeof err);
    if (r == VF_OK && (r = vf_scene_validate(sc.info, sc.desc, path, err, sizeof err)) == VF_OK)
        r = sc.info->create(sc.info, gpu, sc.desc, &s, NULL, err, sizeof err);
    vf_scene_loaded_free(&sc);
    if (!CHECK_MSG(r == VF_OK, "%s: %s", name, err))
        return NULL;
    vf_terrain_state st;
    vf_terrain_get_state(s, &st);
    float *g = malloc((size_t)st.nx * st.ny * 4);
    CHECK(vf_terrain_download(s, g, NULL, NULL) == VF_OK);
    for (size_t i = 0; i < (size_t)st.nx * st.ny; i++)
        g[i] += (float)st.datum;
    *nx = (int)st.nx;
    *ny = (int)st.ny;
    *dx = st.dx;
    vf_solver_destroy(&s);
    return g;
}

static void test_heightmap(vf_gpu *gpu)
{
    vf_test_section("heightmaps: a 16-bit png and raw floats");
    int nx, ny, rx, ry;
    double dx, rdx;
    float *png = load_ground(gpu, "terrain_heightmap.json", NULL, &nx, &ny, &dx);
    char text[1024];
    snprintf(text, sizeof text,
             "{\"solver\": \"terrain\", \"scene\": \"terrain\",\n"
             " \"terrain\": {\"nx\": 48, \"dozer\": false, \"repose\": 90},\n"
             " \"heightmap\": {\"file\": \"%s/tests/shapes/terrain_heightmap.f32\", \"size\": [64, 32], \"width\": 64, "
             "\"height\": 32}}\n",
             vf_t.source);
    float *raw = load_ground(gpu, "raw.json", text, &rx, &ry, &rdx);
    if (png && raw && CHECK(nx == 48 && ny == 24 && rx == nx && ry == ny)) {
        /* bilinear between the map's samples at the cell centres (pixel centres at (k + 0.5) / W) */
        double worst = 0, worst_raw = 0;
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++) {
                double u = ((i + 0.5) / nx * 64 - 0.5), v = ((1.0 - (j + 0.5) / ny) * 32 - 0.5);
                u = fmin(fmax(u, 0), 63);
                v = fmin(fmax(v, 0), 31);
                int u0 = (int)u, v0 = (int)v, u1 = u0 < 63 ? u0 + 1 : u0, v1 = v0 < 31 ? v0 + 1 : v0;
                double tu = u - u0, tv = v - v0;
#define S(c, r) map_z(((c) + 0.5) / 64, 1.0 - ((r) + 0.5) / 32)
                double want = (S(u0, v0) * (1 - tu) + S(u1, v0) * tu) * (1 - tv) + (S(u0, v1) * (1 - tu) + S(u1, v1) * tu) * tv;
#undef S
                worst = fmax(worst, fabs(png[j * nx + i] - want));
                worst_raw = fmax(worst_raw, fabs(raw[j * nx + i] - want));
            }
        printf("48 x 24 cells of %.4g m: the png's ground within %.3g m of the map, the raw file's within %.3g m\n", dx,
               worst, worst_raw);
        CHECK_NEAR(dx, 64.0 / 48, 1e-6); /* the state's float */
        CHECK_LE(worst, 2e-4); /* 16 bits over 10 m */
        CHECK_LE(worst_raw, 1e-5);
        /* the right way round: the map's lowest point is near the middle, its high corner at x = 0, y = 0 */
        CHECK(png[0] > png[(ny / 2) * nx + nx / 2]);
        CHECK(fabs(png[0] - map_z(0.5 / 48, 0.5 / 24)) < 0.05);
    }
    free(png);
    free(raw);
}

/* ------------------------------------------------------------------ bad input */

static void test_bad_input(void)
{
    vf_test_section("bad input: one line naming the key, exit 2, nothing written");
    static const vf_test_bad cases[] = {
        {"terrain --set water_level=5000 --steps 1", "water_level=5000"},
        {"terrain --set dozer_x1=0.45 --set dozer_y1=0.5 --steps 1", "dozer_x1"},
        {"terrain --set dt=1 --steps 1", "dt=1: above the stability limit"},
        {"terrain --set cfl=0.7 --steps 1", "cfl"},
        {"terrain --set ground=mountains --steps 1", "flat|hills|valley"},
        {"terrain --set nx=8192 --set ny=8192 --steps 1", "nx: 8192 x 8192 cells need"},
        {"terrain --set dx=0.01 --set frame_dt=10 --steps 1", "dx=0.01: more than 10000 substeps per frame"},
    };
    vf_test_bad_runs(cases, sizeof cases / sizeof cases[0], false);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_bad_input();
    vf_gpu *gpu = vf_test_gpu();
    test_ritter(gpu);
    test_basin(gpu);
    test_lake_at_rest(gpu);
    test_volume_changing(gpu);
    test_breach(gpu);
    test_heightmap(gpu);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
