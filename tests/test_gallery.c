/* The gallery test: judges every built-in scene's default picture.
 *
 * Each scene is captured headless with its default view at 240x135 (SPH
 * scenes at spacing 0.025 m, smoke at n = 128, smoke3d and fire3d at n = 32,
 * so a CPU device finishes in minutes), and the frame must
 *  - have contrast where the fluid is: the luminance standard deviation over
 *    the central half of the image (width and height) at least
 *    GALLERY_MIN_CONTRAST levels (a black or flat square fails);
 *  - be free of speckle: the share of isolated pixels, brighter or darker by
 *    more than GALLERY_ISOLATED_LEVELS than all 8 of their neighbours, below
 *    GALLERY_MAX_ISOLATED (a glittering sun glint or stray dark fluid pixels
 *    fail);
 *  - match its golden image tests/golden/gallery/SCENE.png within PSNR >=
 *    GALLERY_MIN_PSNR dB and SSIM >= GALLERY_MIN_SSIM (same device class:
 *    captures are deterministic; VKFLUID_UPDATE_GOLDEN=1 rewrites them).
 *
 * An SPH scene's frame, and the pool's, the boat's and the river's (the
 * height field's 3D view; test_surface_compute compares the terrain's), is
 * captured again on the other render path (--render-path compute or raster,
 * whichever the default did not take), and the two must agree within
 * GALLERY_MIN_PATHS_PSNR dB PSNR.
 *
 * The fountain's frame must also show its jet: the rising column of water,
 * found by projecting the nozzle's axis (scene keys and the default camera of
 * the tank) into the image, must change the picture against the same view
 * without the jet (frame 0) by at least GALLERY_MIN_JET levels in the median
 * row along the column (see check_jet).
 *
 * The 3D scenes (smoke3d and fire3d at n = 32, wind3d) must also fill the
 * picture: what changed since frame 0 spans at least 40 % of its height
 * (check_extent), and their obstacle must be in view, whole (check_obstacle).
 *
 * VKFLUID_GALLERY_FILES="a.png b.png ..." instead judges the given PNGs with
 * the first two criteria only (each must pass), e.g. an older build's frames.
 * VKFLUID_GALLERY_SCENE=NAME captures and judges that scene alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "compare.h"
#include "png_io.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

#define GALLERY_MIN_CONTRAST 12.0  /* levels (0..255) of luminance sd in the centre */
#define GALLERY_ISOLATED_LEVELS 32 /* brighter/darker than every neighbour by more */
#define GALLERY_MAX_ISOLATED 0.0005 /* share of such pixels: 0.05 % */
#define GALLERY_MIN_PSNR 30.0
#define GALLERY_MIN_PATHS_PSNR 40.0 /* an SPH frame on the compute and on the raster render path */
#define GALLERY_MIN_SSIM 0.95
/* The fountain's jet, one particle column (2 to 4 pixels wide at this size),
 * must change the picture where it is by at least this many levels in the
 * median row along its length: twice what the fluid region as a whole must
 * show (GALLERY_MIN_CONTRAST), since a line a few pixels wide has far less
 * area to be seen by. (Beer-Lambert over the jet's 5.5 cm path at the
 * default fluid colour darkens the floor behind it by about 28 levels.) */
#define GALLERY_MIN_JET (2.0 * GALLERY_MIN_CONTRAST)
#define GALLERY_JET_HALF_PX 3 /* the column's pixels: within this of the projected axis */

static char out[65536];

/* The 3D scenes' content (plume, flame, wake): the rows of the judged frame
 * that differ from frame 0 (the same view with the domain still empty but
 * for the source) by more than GALLERY_CONTENT_LEVELS in at least
 * GALLERY_CONTENT_PIXELS pixels must span at least this share of the
 * picture's height: a third, and more, since this count takes in the
 * smoke's shadow on the floor too (the camera that framed the whole domain
 * measured 33 % for smoke3d and 36 % for wind3d by it). */
#define GALLERY_MIN_EXTENT 0.4
#define GALLERY_CONTENT_LEVELS 16
#define GALLERY_CONTENT_PIXELS 3
/* The obstacle of a 3D scene: the pixels where frame 0 differs from frame 0
 * without the obstacle (--set obstacle=none) by more than
 * GALLERY_CONTENT_LEVELS must be at least this share of the picture and
 * none of them on its border (the obstacle whole in view). */
#define GALLERY_MIN_OBSTACLE 0.005

typedef struct gallery_scene {
    const char *name;
    int frames;       /* the frame judged */
    const char *sets; /* extra arguments */
    bool jet;         /* judge the fountain's jet too (check_jet) */
    bool paths;       /* an SPH scene: compare the compute and raster render paths */
    bool content;     /* 3D: judge the content's height too (check_extent) */
    bool obstacle;    /* 3D: judge that the obstacle is in view (check_obstacle) */
} gallery_scene;

static const gallery_scene scenes[] = {
    {"smoke", 30, "--set n=128", false, false, false, false},
    {"cavity", 4, "", false, false, false, false},
    {"channel", 40, "", false, false, false, false},
    {"pool", 60, "", false, true, false, false},
    {"boat", 90, "", false, true, false, false},
    {"river", 60, "", false, true, false, false},
    {"dam-break", 12, "--set spacing=0.025", false, true, false, false},
    {"double-dam", 12, "--set spacing=0.025", false, true, false, false},
    {"drop", 12, "--set spacing=0.025", false, true, false, false},
    {"fountain", 24, "--set spacing=0.025", true, true, false, false},
    {"terrain", 600, "", false, false, false, false},
    {"smoke3d", 39, "--set n=32", false, false, true, true},
    {"fire3d", 39, "--set n=32", false, false, true, false},
    {"wind3d", 39, "", false, false, true, true},
};

typedef struct gallery_metrics {
    double contrast;       /* luminance sd over the central half, levels */
    double isolated_share; /* 0..1 */
} gallery_metrics;

static double luma(const uint8_t *p) { return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2]; }

/** Contrast and speckle of an RGBA8 image (see the file comment). */
static gallery_metrics measure(const uint8_t *px, uint32_t w, uint32_t h)
{
    gallery_metrics m = {0, 0};
    double s = 0, s2 = 0, n = 0;
    for (uint32_t y = h / 4; y < h - h / 4; y++)
        for (uint32_t x = w / 4; x < w - w / 4; x++) {
            double l = luma(px + 4 * ((size_t)y * w + x));
            s += l;
            s2 += l * l;
            n++;
        }
    if (n > 0)
        m.contrast = sqrt(fmax(s2 / n - (s / n) * (s / n), 0.0));
    size_t iso = 0, total = 0;
    for (uint32_t y = 1; y + 1 < h; y++)
        for (uint32_t x = 1; x + 1 < w; x++) {
            double c = luma(px + 4 * ((size_t)y * w + x)), lo = 1e9, hi = -1e9;
            for (int k = 0; k < 9; k++) {
                if (k == 4)
                    continue;
                double l = luma(px + 4 * ((size_t)(y + k / 3 - 1) * w + (x + k % 3 - 1)));
                lo = fmin(lo, l);
                hi = fmax(hi, l);
            }
            iso += c > hi + GALLERY_ISOLATED_LEVELS || c < lo - GALLERY_ISOLATED_LEVELS;
            total++;
        }
    m.isolated_share = total ? (double)iso / (double)total : 0.0;
    return m;
}

/* Judges one image by contrast and speckle; true when it passes. */
static bool judge(const char *label, const uint8_t *px, uint32_t w, uint32_t h)
{
    gallery_metrics m = measure(px, w, h);
    bool ok_c = m.contrast >= GALLERY_MIN_CONTRAST, ok_i = m.isolated_share < GALLERY_MAX_ISOLATED;
    printf("%-40s contrast %6.2f (min %.0f) %s   isolated %6.3f %% (max %.2f %%) %s\n", label, m.contrast,
           GALLERY_MIN_CONTRAST, ok_c ? "ok  " : "FAIL", 100.0 * m.isolated_share, 100.0 * GALLERY_MAX_ISOLATED,
           ok_i ? "ok" : "FAIL");
    CHECK_MSG(ok_c, "%s: contrast where the fluid is: %.2f >= %.0f", label, m.contrast, GALLERY_MIN_CONTRAST);
    CHECK_MSG(ok_i, "%s: isolated pixels %.3f %% < %.2f %%", label, 100.0 * m.isolated_share,
              100.0 * GALLERY_MAX_ISOLATED);
    return ok_c && ok_i;
}

/* The metrics themselves on made-up images: a flat image has no contrast, a
 * field of single white pixels is all speckle, a smooth ramp neither. */
static void test_metrics(void)
{
    vf_test_section("the picture metrics on synthetic images");
    enum { W = 64, H = 36 };
    static uint8_t img[W * H * 4];
    memset(img, 20, sizeof img);
    gallery_metrics m = measure(img, W, H);
    CHECK(m.contrast < 0.01 && m.isolated_share == 0.0);
    for (uint32_t i = 0; i < W * H; i++)
        img[4 * i] = img[4 * i + 1] = img[4 * i + 2] = (uint8_t)(i % W * 4);
    m = measure(img, W, H);
    CHECK(m.contrast > GALLERY_MIN_CONTRAST && m.isolated_share == 0.0);
    memset(img, 60, sizeof img);
    for (uint32_t y = 1; y < H; y += 3)
        for (uint32_t x = 1; x < W; x += 3)
            img[4 * (y * W + x)] = img[4 * (y * W + x) + 1] = img[4 * (y * W + x) + 2] = 250;
    m = measure(img, W, H);
    printf("sparkle field: isolated %.1f %%\n", 100.0 * m.isolated_share);
    CHECK(m.isolated_share > 0.05);
}

static void judge_files(const char *list)
{
    vf_test_section("judging the given files");
    char *copy = strdup(list);
    for (char *tok = strtok(copy, " "); tok; tok = strtok(NULL, " ")) {
        uint8_t *px = NULL;
        uint32_t w = 0, h = 0;
        if (!CHECK_MSG(vf_png_read(tok, &px, &w, &h) == VF_OK, "read %s", tok))
            continue;
        judge(tok, px, w, h);
        free(px);
    }
    free(copy);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The value of a scene key in `vkfluid scenes NAME` output ("  key  value ...");
 * NAN when absent. */
static double scene_key(const char *text, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\n  %s ", key);
    const char *p = strstr(text, pat);
    return p ? strtod(p + strlen(pat), NULL) : NAN;
}

/* Projects a world point with the default camera of the box into a w x h
 * image: pixel coordinates (x right, y down); false when behind the eye. */
static bool project(const vf_camera *cam, uint32_t w, uint32_t h, const float p[3], double *px, double *py)
{
    vf_mat4 view, proj;
    vf_camera_matrices(cam, (float)w / (float)h, &view, &proj);
    float v[4], c[4];
    vf_mat4_transform(&view, p, 1.0f, v);
    vf_mat4_transform(&proj, v, 1.0f, c);
    if (c[3] <= 0.0f)
        return false;
    *px = (c[0] / c[3] * 0.5 + 0.5) * w;
    *py = (c[1] / c[3] * 0.5 + 0.5) * h;
    return true;
}

/* The jet's contrast: the fountain's tank and nozzle from the scene's keys,
 * the default camera of the tank (what capture shows), and the nozzle's axis
 * over the upper half of the jet's rise v^2 / 2g projected into the frame
 * (from this camera the lower half is seen in front of the pool; the water
 * reaches the top v / g = 0.26 s after the start, frame 16). In each image
 * row of that stretch, the largest luminance change against frame 0 (the
 * same view before the nozzle starts) within GALLERY_JET_HALF_PX of the
 * axis; their median (a stray pixel does not make a jet) must reach
 * GALLERY_MIN_JET. */
static void check_jet(const gallery_scene *g, const char *dir, const uint8_t *px, uint32_t w, uint32_t h)
{
    char text[16384], path[600];
    int rc = vf_test_run_capture(text, sizeof text, "'%s' scenes %s", vf_t.vkfluid, g->name);
    if (!CHECK_MSG(rc == 0, "scenes %s: exit %d", g->name, rc))
        return;
    double tx = scene_key(text, "tank_x"), ty = scene_key(text, "tank_y"), tz = scene_key(text, "tank_z");
    double nh = scene_key(text, "nozzle_height"), nv = scene_key(text, "nozzle_speed");
    double grav = scene_key(text, "gravity");
    if (!CHECK_MSG(isfinite(tx + ty + tz + nh + nv + grav) && grav > 0, "the fountain's keys in `scenes %s`", g->name))
        return;
    snprintf(path, sizeof path, "%s/frame_%05d.png", dir, 0);
    uint8_t *bg = NULL;
    uint32_t bw = 0, bh = 0;
    if (!CHECK_MSG(vf_png_read(path, &bg, &bw, &bh) == VF_OK && bw == w && bh == h, "read %s", path)) {
        free(bg);
        return;
    }
    float lo[3] = {0, 0, 0}, hi[3] = {(float)tx, (float)ty, (float)tz};
    vf_camera cam = vf_camera_for_box(lo, hi, (float)w / (float)h);
    double rise = nv * nv / (2.0 * grav);
    float a[3] = {(float)(0.5 * tx), (float)(nh + 0.5 * rise), (float)(0.5 * tz)};
    float b[3] = {a[0], (float)(nh + rise), a[2]};
    double ax = 0, ay = 0, bx = 0, by = 0;
    if (!CHECK_MSG(project(&cam, w, h, a, &ax, &ay) && project(&cam, w, h, b, &bx, &by) && ay > by + 4,
                   "the jet's axis projects into the frame")) {
        free(bg);
        return;
    }
    double best_of_row[64];
    int rows = 0;
    for (int y = (int)ceil(by); y <= (int)floor(ay) && rows < 64; y++) {
        double x = bx + (ax - bx) * (y - by) / (ay - by), best = 0;
        for (int dx = -GALLERY_JET_HALF_PX; dx <= GALLERY_JET_HALF_PX; dx++) {
            int xi = (int)lround(x) + dx;
            if (xi < 0 || xi >= (int)w || y < 0 || y >= (int)h)
                continue;
            size_t o = 4 * ((size_t)y * w + (size_t)xi);
            best = fmax(best, fabs(luma(px + o) - luma(bg + o)));
        }
        best_of_row[rows++] = best;
    }
    qsort(best_of_row, (size_t)rows, sizeof best_of_row[0], cmp_double);
    double jet = rows ? 0.5 * (best_of_row[(rows - 1) / 2] + best_of_row[rows / 2]) : 0;
    printf("%-40s jet contrast %6.2f levels (median of rows %d..%d) at x %.1f..%.1f (min %.0f) %s\n", g->name, jet, (int)ceil(by), (int)ceil(by) + rows - 1, bx, ax,
           GALLERY_MIN_JET, jet >= GALLERY_MIN_JET ? "ok" : "FAIL");
    CHECK_MSG(jet >= GALLERY_MIN_JET, "%s: the jet stands out: %.2f >= %.0f levels", g->name, jet, GALLERY_MIN_JET);
    free(bg);
}

/* The SPH frame px (w x h) of the capture in dir against the same capture
 * on the other render path (see the file comment). */
static void check_paths(const gallery_scene *g, const char *dir, const uint8_t *px, uint32_t w, uint32_t h)
{
    char path[600], other_dir[600], frame[700];
    snprintf(path, sizeof path, "%s/capture.json", dir);
    char *json = vf_test_read_file(path, NULL);
    const char *took = json && strstr(json, "\"render_path\": \"compute\"") ? "compute" : "raster";
    const char *other = !strcmp(took, "compute") ? "raster" : "compute";
    free(json);
    snprintf(other_dir, sizeof other_dir, "%s-%s", dir, other);
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' capture %s %s --frames %d --every %d --size 240x135 --out '%s' --force --quiet "
                                 "--render-path %s",
                                 vf_t.vkfluid, g->name, g->sets, g->frames + 1, g->frames, other_dir, other);
    if (!CHECK_MSG(rc == 0, "capture %s --render-path %s: exit %d: %s", g->name, other, rc, out))
        return;
    snprintf(frame, sizeof frame, "%s/frame_%05d.png", other_dir, g->frames);
    uint8_t *op = NULL;
    uint32_t ow = 0, oh = 0;
    vf_compare_stats st;
    if (CHECK_MSG(vf_png_read(frame, &op, &ow, &oh) == VF_OK && ow == w && oh == h, "read %s", frame) &&
        CHECK(vf_compare_images(px, op, w, h, 8, &st) == VF_OK)) {
        printf("%-40s %s vs %s path: PSNR %.2f dB (min %.0f), max %u levels\n", g->name, took, other, st.psnr,
               GALLERY_MIN_PATHS_PSNR, st.max_abs);
        CHECK_MSG(st.psnr >= GALLERY_MIN_PATHS_PSNR, "%s: the %s and %s render paths agree", g->name, took, other);
    }
    free(op);
}

/* Reads frame k of a capture folder; NULL (after a failed check) when it
 * cannot be read or its size is not w x h. */
static uint8_t *read_frame(const char *dir, int k, uint32_t w, uint32_t h)
{
    char path[600];
    snprintf(path, sizeof path, "%s/frame_%05d.png", dir, k);
    uint8_t *px = NULL;
    uint32_t pw = 0, ph = 0;
    if (!CHECK_MSG(vf_png_read(path, &px, &pw, &ph) == VF_OK && pw == w && ph == h, "read %s (%ux%u)", path, w, h)) {
        free(px);
        return NULL;
    }
    return px;
}

/* Pixels of row y where a and b differ by more than GALLERY_CONTENT_LEVELS
 * of luminance. */
static int row_changes(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t y)
{
    int n = 0;
    for (uint32_t x = 0; x < w; x++) {
        size_t o = 4 * ((size_t)y * w + x);
        n += fabs(luma(a + o) - luma(b + o)) > GALLERY_CONTENT_LEVELS;
    }
    return n;
}

/* The content's height (see GALLERY_MIN_EXTENT): the first and last rows
 * that changed since frame 0. */
static void check_extent(const gallery_scene *g, const char *dir, const uint8_t *px, uint32_t w, uint32_t h)
{
    uint8_t *f0 = read_frame(dir, 0, w, h);
    if (!f0)
        return;
    int top = -1, bottom = -1;
    for (uint32_t y = 0; y < h; y++)
        if (row_changes(px, f0, w, y) >= GALLERY_CONTENT_PIXELS) {
            if (top < 0)
                top = (int)y;
            bottom = (int)y;
        }
    double extent = top < 0 ? 0.0 : (double)(bottom - top + 1) / h;
    printf("%-40s content rows %d..%d of %u: %.0f %% of the height (min %.0f %%) %s\n", g->name, top, bottom, h,
           100.0 * extent, 100.0 * GALLERY_MIN_EXTENT, extent >= GALLERY_MIN_EXTENT ? "ok" : "FAIL");
    CHECK_MSG(extent >= GALLERY_MIN_EXTENT, "%s: the content fills %.0f %% >= %.0f %% of the height", g->name,
              100.0 * extent, 100.0 * GALLERY_MIN_EXTENT);
    free(f0);
}

/* The obstacle in view (see GALLERY_MIN_OBSTACLE): frame 0 with and without it. */
static void check_obstacle(const gallery_scene *g, const char *dir, uint32_t w, uint32_t h)
{
    char bare[600];
    snprintf(bare, sizeof bare, "%.500s-no-obstacle", dir);
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' capture %s %s --set obstacle=none --frames 1 --size %ux%u --out '%s' --force --quiet",
                                 vf_t.vkfluid, g->name, g->sets, w, h, bare);
    if (!CHECK_MSG(rc == 0, "capture %s without its obstacle: exit %d: %s", g->name, rc, out))
        return;
    uint8_t *with = read_frame(dir, 0, w, h), *without = read_frame(bare, 0, w, h);
    if (with && without) {
        size_t n = 0, edge = 0;
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                size_t o = 4 * ((size_t)y * w + x);
                bool on = fabs(luma(with + o) - luma(without + o)) > GALLERY_CONTENT_LEVELS;
                n += on;
                edge += on && (x == 0 || y == 0 || x + 1 == w || y + 1 == h);
            }
        double share = (double)n / ((double)w * h);
        printf("%-40s obstacle: %.2f %% of the picture (min %.1f %%), %zu pixels on the border %s\n", g->name,
               100.0 * share, 100.0 * GALLERY_MIN_OBSTACLE, edge, share >= GALLERY_MIN_OBSTACLE && !edge ? "ok" : "FAIL");
        CHECK_MSG(share >= GALLERY_MIN_OBSTACLE && edge == 0, "%s: the obstacle is in view: %.2f %% of the picture, %zu "
                  "border pixels", g->name, 100.0 * share, edge);
    }
    free(with);
    free(without);
}

static void test_scene(const gallery_scene *g, bool update)
{
    char section[128];
    snprintf(section, sizeof section, "%s: the default view at frame %d", g->name, g->frames);
    vf_test_section(section);
    char dir[512], frame[600], golden[600];
    snprintf(dir, sizeof dir, "%s", vf_test_path(g->name));
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture %s %s --frames %d --every %d --size 240x135 --out '%s' --force --quiet",
                                 vf_t.vkfluid, g->name, g->sets, g->frames + 1, g->frames, dir);
    if (!CHECK_MSG(rc == 0, "capture %s: exit %d: %s", g->name, rc, out))
        return;
    snprintf(frame, sizeof frame, "%s/frame_%05d.png", dir, g->frames);
    snprintf(golden, sizeof golden, "%s/tests/golden/gallery/%s.png", vf_t.source, g->name);
    uint8_t *px = NULL, *gp = NULL;
    uint32_t w = 0, h = 0, gw = 0, gh = 0;
    if (!CHECK_MSG(vf_png_read(frame, &px, &w, &h) == VF_OK, "read %s", frame))
        return;
    judge(g->name, px, w, h);
    if (g->jet)
        check_jet(g, dir, px, w, h);
    if (g->paths)
        check_paths(g, dir, px, w, h);
    if (g->content)
        check_extent(g, dir, px, w, h);
    if (g->obstacle)
        check_obstacle(g, dir, w, h);
    if (update) {
        CHECK(vf_png_write(golden, px, w, h) == VF_OK);
        printf("wrote %s\n", golden);
    } else if (CHECK_MSG(vf_png_read(golden, &gp, &gw, &gh) == VF_OK, "read the golden %s", golden) &&
               CHECK(gw == w && gh == h)) {
        vf_compare_stats st;
        if (CHECK(vf_compare_images(px, gp, w, h, 8, &st) == VF_OK)) {
            printf("%-40s vs golden: PSNR %.2f dB (min %.0f), SSIM %.4f (min %.2f)\n", g->name, st.psnr,
                   GALLERY_MIN_PSNR, st.ssim, GALLERY_MIN_SSIM);
            CHECK_MSG(st.psnr >= GALLERY_MIN_PSNR && st.ssim >= GALLERY_MIN_SSIM, "%s matches its golden", g->name);
        }
    }
    free(px);
    free(gp);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_metrics();
    const char *files = getenv("VKFLUID_GALLERY_FILES");
    if (files && files[0]) {
        judge_files(files);
        return vf_test_finish();
    }
    const char *upd = getenv("VKFLUID_UPDATE_GOLDEN");
    bool update = upd && upd[0] == '1';
    const char *only = getenv("VKFLUID_GALLERY_SCENE");
    int judged = 0;
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++)
        if (!only || !only[0] || !strcmp(only, scenes[i].name)) {
            test_scene(&scenes[i], update);
            judged++;
        }
    CHECK_MSG(judged > 0, "VKFLUID_GALLERY_SCENE=%s: not a gallery scene", only ? only : "");
    return vf_test_finish();
}
