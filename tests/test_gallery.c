/* The gallery test: judges every built-in scene's default picture.
 *
 * Each scene is captured headless with its default view at 240x135 (SPH
 * scenes at spacing 0.025 m and smoke at n = 128, so a CPU device finishes
 * in minutes), and the frame must
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
 * VKFLUID_GALLERY_FILES="a.png b.png ..." instead judges the given PNGs with
 * the first two criteria only (each must pass), e.g. an older build's frames.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "png_io.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

#define GALLERY_MIN_CONTRAST 12.0  /* levels (0..255) of luminance sd in the centre */
#define GALLERY_ISOLATED_LEVELS 32 /* brighter/darker than every neighbour by more */
#define GALLERY_MAX_ISOLATED 0.0005 /* share of such pixels: 0.05 % */
#define GALLERY_MIN_PSNR 30.0
#define GALLERY_MIN_SSIM 0.95

static char out[65536];

typedef struct gallery_scene {
    const char *name;
    int frames;       /* the frame judged */
    const char *sets; /* extra arguments */
} gallery_scene;

static const gallery_scene scenes[] = {
    {"smoke", 30, "--set n=128"},
    {"cavity", 4, ""},
    {"channel", 40, ""},
    {"pool", 60, ""},
    {"boat", 90, ""},
    {"river", 60, ""},
    {"dam-break", 12, "--set spacing=0.025"},
    {"double-dam", 12, "--set spacing=0.025"},
    {"drop", 12, "--set spacing=0.025"},
    {"fountain", 24, "--set spacing=0.025"},
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
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++)
        test_scene(&scenes[i], update);
    return vf_test_finish();
}
