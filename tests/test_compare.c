/* test_compare: PNG I/O, the image metrics and `vkfluid compare`, against
 * synthetic images with hand-computed expectations. Needs no GPU. */
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "png_io.h"

/* ------------------------------------------------------------------ helpers */

static uint8_t *image_new(uint32_t w, uint32_t h)
{
    uint8_t *p = calloc((size_t)w * h, 4);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void set_px(uint8_t *img, uint32_t w, uint32_t x, uint32_t y, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    uint8_t *p = img + 4 * ((size_t)y * w + x);
    p[0] = r;
    p[1] = g;
    p[2] = b;
    p[3] = a;
}

static void fill(uint8_t *img, uint32_t w, uint32_t h, uint8_t r, uint8_t g, uint8_t b)
{
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++)
            set_px(img, w, x, y, r, g, b, 255);
}

/* A deterministic pseudo-random image (LCG), alpha varied too. */
static uint8_t *image_random(uint32_t w, uint32_t h, uint32_t seed)
{
    uint8_t *img = image_new(w, h);
    uint32_t s = seed;
    for (size_t i = 0; i < (size_t)w * h * 4; i++) {
        s = s * 1664525u + 1013904223u;
        img[i] = (uint8_t)(s >> 24);
    }
    return img;
}

/* A vertical edge: columns < edge_x get colour l, the rest colour r. */
static uint8_t *image_edge(uint32_t w, uint32_t h, uint32_t edge_x, const uint8_t l[3], const uint8_t r[3])
{
    uint8_t *img = image_new(w, h);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *c = x < edge_x ? l : r;
            set_px(img, w, x, y, c[0], c[1], c[2], 255);
        }
    return img;
}

static double ref_luma(const uint8_t *img, uint32_t w, uint32_t x, uint32_t y)
{
    const uint8_t *p = img + 4 * ((size_t)y * w + x);
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

/* Independent, direct SSIM: for each valid 11x11 window position, sums the
 * 121 Gaussian-weighted terms straight from the definition. */
static double ref_ssim(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h)
{
    double win[11][11], sum = 0.0;
    for (int j = 0; j < 11; j++)
        for (int i = 0; i < 11; i++) {
            double dx = i - 5, dy = j - 5;
            win[j][i] = exp(-(dx * dx + dy * dy) / (2.0 * 1.5 * 1.5));
            sum += win[j][i];
        }
    for (int j = 0; j < 11; j++)
        for (int i = 0; i < 11; i++)
            win[j][i] /= sum;
    const double c1 = pow(0.01 * 255.0, 2), c2 = pow(0.03 * 255.0, 2);
    double total = 0.0;
    int count = 0;
    for (uint32_t y0 = 0; y0 + 11 <= h; y0++)
        for (uint32_t x0 = 0; x0 + 11 <= w; x0++) {
            double mx = 0, my = 0;
            for (int j = 0; j < 11; j++)
                for (int i = 0; i < 11; i++) {
                    mx += win[j][i] * ref_luma(a, w, x0 + (uint32_t)i, y0 + (uint32_t)j);
                    my += win[j][i] * ref_luma(b, w, x0 + (uint32_t)i, y0 + (uint32_t)j);
                }
            double vx = 0, vy = 0, cxy = 0;
            for (int j = 0; j < 11; j++)
                for (int i = 0; i < 11; i++) {
                    double dx = ref_luma(a, w, x0 + (uint32_t)i, y0 + (uint32_t)j) - mx;
                    double dy = ref_luma(b, w, x0 + (uint32_t)i, y0 + (uint32_t)j) - my;
                    vx += win[j][i] * dx * dx;
                    vy += win[j][i] * dy * dy;
                    cxy += win[j][i] * dx * dy;
                }
            total += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
            count++;
        }
    return total / count;
}

static bool write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    fputs(text, f);
    return fclose(f) == 0;
}

/* ------------------------------------------------------------------ metrics */

static void test_identical(void)
{
    vf_test_section("identical images: psnr inf, ssim 1");
    uint8_t *a = image_random(32, 24, 7);
    vf_compare_stats s;
    CHECK_EQ_INT(vf_compare_images(a, a, 32, 24, 2, &s), VF_OK);
    CHECK(isinf(s.psnr) && s.psnr > 0);
    CHECK_NEAR(s.ssim, 1.0, 1e-12);
    CHECK_NEAR(s.mse, 0.0, 0.0);
    CHECK_NEAR(s.mean_abs, 0.0, 0.0);
    CHECK_EQ_INT(s.max_abs, 0);
    CHECK_EQ_U64(s.differ_count, 0);

    /* Alpha is ignored: different alpha, same RGB, is identical. */
    uint8_t *b = image_random(32, 24, 7);
    for (size_t i = 0; i < 32 * 24; i++)
        b[4 * i + 3] ^= 0x5a;
    CHECK_EQ_INT(vf_compare_images(a, b, 32, 24, 2, &s), VF_OK);
    CHECK(isinf(s.psnr));
    CHECK_NEAR(s.ssim, 1.0, 1e-12);

    /* Smaller than the window: the global-window fallback. */
    CHECK_EQ_INT(vf_compare_images(a, a, 5, 7, 2, &s), VF_OK);
    CHECK(isinf(s.psnr));
    CHECK_NEAR(s.ssim, 1.0, 1e-12);
    CHECK(isinf(vf_compare_psnr_from_mse(0.0)));

    uint8_t *diff = NULL;
    CHECK_EQ_INT(vf_compare_diff_image(a, b, 32, 24, &diff), VF_OK);
    bool black = diff != NULL;
    for (size_t i = 0; diff && i < 32 * 24; i++)
        black = black && diff[4 * i] == 0 && diff[4 * i + 1] == 0 && diff[4 * i + 2] == 0 && diff[4 * i + 3] == 255;
    CHECK_MSG(black, "diff of identical images is opaque black");
    free(diff);
    free(a);
    free(b);

    CHECK_EQ_INT(vf_compare_images(NULL, NULL, 1, 1, 2, &s), VF_ERR_INVALID_ARG);
    uint8_t one[4] = {0};
    CHECK_EQ_INT(vf_compare_images(one, one, 0, 1, 2, &s), VF_ERR_INVALID_ARG);
    CHECK_EQ_INT(vf_compare_images(one, one, 1, 1, 256, &s), VF_ERR_INVALID_ARG);
}

static void test_noise(void)
{
    vf_test_section("known noise: +-d checkerboard on mid grey, mse = d^2");
    const uint32_t w = 40, h = 30;
    const int d = 4;
    uint8_t *a = image_new(w, h), *b = image_new(w, h), *r_only = image_new(w, h);
    fill(a, w, h, 128, 128, 128);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t v = (uint8_t)(((x + y) & 1) ? 128 + d : 128 - d);
            set_px(b, w, x, y, v, v, v, 255);
            set_px(r_only, w, x, y, v, 128, 128, 255);
        }
    vf_compare_stats s;
    CHECK_EQ_INT(vf_compare_images(a, b, w, h, 2, &s), VF_OK);
    CHECK_NEAR(s.mse, 16.0, 1e-12);
    CHECK_NEAR(s.psnr, 10.0 * log10(255.0 * 255.0 / 16.0), 1e-3);
    CHECK_NEAR(s.psnr, 36.0896037821, 1e-3); /* by hand: 10 log10(65025 / 16) */
    CHECK_NEAR(s.mean_abs, 4.0, 1e-12);
    CHECK_EQ_INT(s.max_abs, 4);
    CHECK_EQ_U64(s.differ_count, (uint64_t)w * h); /* 4 > 2 everywhere */
    CHECK_NEAR(s.differ_share, 1.0, 1e-12);
    CHECK(s.ssim < 1.0 && s.ssim > 0.0);
    CHECK_NEAR(s.ssim, ref_ssim(a, b, w, h), 1e-3);

    CHECK_EQ_INT(vf_compare_images(a, b, w, h, 4, &s), VF_OK);
    CHECK_EQ_U64(s.differ_count, 0); /* 4 is not more than 4 */

    /* Noise in R only: mse = d^2 / 3 over the three channels. */
    CHECK_EQ_INT(vf_compare_images(a, r_only, w, h, 2, &s), VF_OK);
    CHECK_NEAR(s.mse, 16.0 / 3.0, 1e-12);
    CHECK_NEAR(s.psnr, 40.8608163293, 1e-3); /* 10 log10(65025 * 3 / 16) */
    CHECK_NEAR(s.mean_abs, 4.0 / 3.0, 1e-12);
    CHECK_EQ_INT(s.max_abs, 4);
    CHECK_NEAR(s.ssim, ref_ssim(a, r_only, w, h), 1e-3);
    free(a);
    free(b);
    free(r_only);
}

static void test_ssim(void)
{
    vf_test_section("ssim: shifted edge against a direct implementation, hand cases");
    const uint8_t left[3] = {200, 30, 90}, right[3] = {20, 180, 60};
    const uint32_t w = 32, h = 24;
    uint8_t *a = image_edge(w, h, 16, left, right), *b = image_edge(w, h, 17, left, right);
    double ssim = 0.0;
    CHECK_EQ_INT(vf_compare_ssim(a, b, w, h, &ssim), VF_OK);
    double expect = ref_ssim(a, b, w, h);
    CHECK_NEAR(ssim, expect, 1e-3);
    CHECK_NEAR(ssim, expect, 1e-9); /* separable vs direct: rounding only */
    CHECK(ssim < 0.99 && ssim > 0.0);
    free(b);

    /* Shift by 3: worse than by 1. */
    b = image_edge(w, h, 19, left, right);
    double ssim3 = 0.0;
    CHECK_EQ_INT(vf_compare_ssim(a, b, w, h, &ssim3), VF_OK);
    CHECK_NEAR(ssim3, ref_ssim(a, b, w, h), 1e-3);
    CHECK(ssim3 < ssim);
    free(a);
    free(b);

    /* One 11x11 window over flat images 100 and 110 (grey, so luma = value):
     * variances 0, SSIM = (2*100*110 + C1) / (100^2 + 110^2 + C1), C1 = 6.5025. */
    a = image_new(11, 11);
    b = image_new(11, 11);
    fill(a, 11, 11, 100, 100, 100);
    fill(b, 11, 11, 110, 110, 110);
    CHECK_EQ_INT(vf_compare_ssim(a, b, 11, 11, &ssim), VF_OK);
    CHECK_NEAR(ssim, 22006.5025 / 22106.5025, 1e-3);
    CHECK_NEAR(ssim, 0.9954764441, 1e-6);
    free(a);
    free(b);

    /* Global-window fallback on 2x1: A = [0, 100], B = [100, 0] (grey).
     * mx = my = 50, vx = vy = 2500, cxy = -2500 (population), C2 = 58.5225:
     * SSIM = (5000 + C1)(-5000 + C2) / ((5000 + C1)(5000 + C2)) = -4941.4775 / 5058.5225. */
    a = image_new(2, 1);
    b = image_new(2, 1);
    set_px(a, 2, 0, 0, 0, 0, 0, 255);
    set_px(a, 2, 1, 0, 100, 100, 100, 255);
    set_px(b, 2, 0, 0, 100, 100, 100, 255);
    set_px(b, 2, 1, 0, 0, 0, 0, 255);
    CHECK_EQ_INT(vf_compare_ssim(a, b, 2, 1, &ssim), VF_OK);
    CHECK_NEAR(ssim, -0.9768618208, 1e-6);
    free(a);
    free(b);

    /* 11 px one way, 10 the other: still the fallback (no valid window). */
    a = image_random(11, 10, 3);
    b = image_random(11, 10, 4);
    CHECK_EQ_INT(vf_compare_ssim(a, b, 11, 10, &ssim), VF_OK);
    CHECK(ssim >= -1.0 && ssim <= 1.0);
    free(a);
    free(b);

    uint8_t c[3];
    vf_compare_heat_color(0, c);
    CHECK(c[0] == 0 && c[1] == 0 && c[2] == 0);
    vf_compare_heat_color(1, c);
    CHECK_MSG(c[0] + c[1] + c[2] > 40, "1 level is visible: %u %u %u", c[0], c[1], c[2]);
    vf_compare_heat_color(255, c);
    CHECK(c[0] == 252 && c[1] == 255 && c[2] == 164);
}

/* ------------------------------------------------------------------ png */

static void test_png(void)
{
    vf_test_section("png: round trip, determinism, atomic write, read errors");
    const uint32_t w = 37, h = 23;
    uint8_t *img = image_random(w, h, 42);
    char p1[1024], p2[1024];
    snprintf(p1, sizeof p1, "%s", vf_test_path("round1.png"));
    snprintf(p2, sizeof p2, "%s", vf_test_path("round2.png"));
    CHECK_EQ_INT(vf_png_write(p1, img, w, h), VF_OK);
    uint8_t *back = NULL;
    uint32_t bw = 0, bh = 0;
    CHECK_EQ_INT(vf_png_read(p1, &back, &bw, &bh), VF_OK);
    CHECK_EQ_INT(bw, w);
    CHECK_EQ_INT(bh, h);
    CHECK_MSG(back && memcmp(back, img, (size_t)w * h * 4) == 0, "round trip keeps every RGBA byte");
    free(back);

    CHECK_EQ_INT(vf_png_write(p2, img, w, h), VF_OK);
    size_t l1 = 0, l2 = 0;
    uint8_t *f1 = (uint8_t *)vf_test_read_file(p1, &l1), *f2 = (uint8_t *)vf_test_read_file(p2, &l2);
    CHECK(f1 && f2 && l1 > 8);
    CHECK_MSG(f1 && f2 && l1 == l2 && memcmp(f1, f2, l1) == 0, "two writes give identical files (%zu, %zu bytes)",
              l1, l2);
    free(f2);
    /* Overwriting in place gives the same bytes again. */
    CHECK_EQ_INT(vf_png_write(p1, img, w, h), VF_OK);
    f2 = (uint8_t *)vf_test_read_file(p1, &l2);
    CHECK_MSG(f1 && f2 && l1 == l2 && memcmp(f1, f2, l1) == 0, "rewrite gives identical bytes");
    free(f2);
    CHECK_MSG(vf_test_count_files(vf_t.scratch, ".tmp.") == 0, "no temp file left after writes");

    /* RGB write reads back as RGBA with opaque alpha. */
    uint8_t rgb[3 * 4 * 3];
    for (size_t i = 0; i < sizeof rgb; i++)
        rgb[i] = (uint8_t)(i * 7);
    const char *prgb = vf_test_path("rgb.png");
    CHECK_EQ_INT(vf_png_write_ex(prgb, rgb, 4, 3, 3, NULL), VF_OK);
    CHECK_EQ_INT(vf_png_read(prgb, &back, &bw, &bh), VF_OK);
    bool same = back && bw == 4 && bh == 3;
    for (size_t i = 0; same && i < 12; i++)
        same = back[4 * i] == rgb[3 * i] && back[4 * i + 1] == rgb[3 * i + 1] && back[4 * i + 2] == rgb[3 * i + 2] &&
               back[4 * i + 3] == 255;
    CHECK_MSG(same, "rgb png reads back as rgba with alpha 255");
    free(back);

    /* Write failures: missing folder, directory target; nothing left behind. */
    vf_png_detail detail = {{0}, NULL};
    CHECK_EQ_INT(vf_png_write_ex(vf_test_path("no_such_dir/x.png"), img, w, h, 4, &detail), VF_ERR_IO);
    CHECK(detail.what[0] != 0 && detail.fix != NULL);
    const char *dir_target = vf_test_path("a_dir.png");
    mkdir(dir_target, 0777);
    CHECK_EQ_INT(vf_png_write(dir_target, img, w, h), VF_ERR_IO);
    CHECK_MSG(vf_test_count_files(vf_t.scratch, ".tmp.") == 0, "no temp file left after a failed rename");
    CHECK_EQ_INT(vf_png_write(p1, img, 0, h), VF_ERR_INVALID_ARG);
    CHECK_EQ_INT(vf_png_write(p1, img, 40000, 1), VF_ERR_TOO_LARGE);

    /* Read errors. */
    back = (uint8_t *)1;
    CHECK_EQ_INT(vf_png_read(vf_test_path("missing.png"), &back, &bw, &bh), VF_ERR_IO);
    CHECK(back == NULL);
    CHECK_EQ_INT(vf_png_read(dir_target, &back, &bw, &bh), VF_ERR_IO);
    const char *text = vf_test_path("text.png");
    write_text(text, "this is not a png file\n");
    CHECK_EQ_INT(vf_png_read_ex(text, &back, &bw, &bh, &detail), VF_ERR_PARSE);
    CHECK_STR_CONTAINS(detail.what, "not a png");
    write_text(vf_test_path("empty.png"), "");
    CHECK_EQ_INT(vf_png_read(vf_test_path("empty.png"), &back, &bw, &bh), VF_ERR_PARSE);
    /* A truncated real PNG: signature fine, data cut. */
    if (f1 && l1 > 60) {
        const char *cut = vf_test_path("cut.png");
        FILE *f = fopen(cut, "wb");
        if (f) {
            fwrite(f1, 1, 60, f);
            fclose(f);
        }
        CHECK_EQ_INT(vf_png_read(cut, &back, &bw, &bh), VF_ERR_PARSE);
        CHECK(back == NULL);
    }
    free(f1);
    free(img);
}

/* ------------------------------------------------------------------ cli */

static char out[1 << 16];

static int cli(const char *args_fmt, ...) __attribute__((format(printf, 1, 2)));

static int cli(const char *args_fmt, ...)
{
    char args[4096];
    va_list ap;
    va_start(ap, args_fmt);
    vsnprintf(args, sizeof args, args_fmt, ap);
    va_end(ap);
    return vf_test_run_capture(out, sizeof out, "'%s' compare %s", vf_t.vkfluid, args);
}

/* A command that fails on bad input: exit 2 (rc) and one line of output. */
static void one_error_line(int rc)
{
    CHECK_MSG(rc == 2, "exit %d, want 2: %s", rc, out);
    CHECK_MSG(vf_test_lines(out) == 1, "one line: %s", out);
}

static void test_cli(void)
{
    vf_test_section("vkfluid compare");
    const uint32_t w = 40, h = 30;
    uint8_t *a = image_new(w, h), *b = image_new(w, h);
    fill(a, w, h, 128, 128, 128);
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint8_t v = (uint8_t)(((x + y) & 1) ? 132 : 124);
            set_px(b, w, x, y, v, v, v, 255);
        }
    char pa[1024], pa2[1024], pb[1024], psmall[1024], ptext[1024];
    snprintf(pa, sizeof pa, "%s", vf_test_path("cli_a.png"));
    snprintf(pa2, sizeof pa2, "%s", vf_test_path("cli_a2.png"));
    snprintf(pb, sizeof pb, "%s", vf_test_path("cli_b.png"));
    snprintf(psmall, sizeof psmall, "%s", vf_test_path("cli_small.png"));
    snprintf(ptext, sizeof ptext, "%s", vf_test_path("cli_text.png"));
    CHECK_EQ_INT(vf_png_write(pa, a, w, h), VF_OK);
    CHECK_EQ_INT(vf_png_write(pa2, a, w, h), VF_OK);
    CHECK_EQ_INT(vf_png_write(pb, b, w, h), VF_OK);
    CHECK_EQ_INT(vf_png_write(psmall, a, 20, 15), VF_OK);
    write_text(ptext, "hello\n");

    CHECK_EQ_INT(cli("'%s' '%s'", pa, pa2), 0);
    CHECK_STR_CONTAINS(out, "inf");
    CHECK_STR_CONTAINS(out, "1.000000");

    one_error_line(cli("'%s' '%s'", pa, psmall));
    CHECK(strncmp(out, "error: ", 7) == 0);
    CHECK_STR_CONTAINS(out, "same size");

    one_error_line(cli("'%s' '%s'", pa, ptext));
    CHECK_STR_CONTAINS(out, "not a png");

    one_error_line(cli("'%s' '%s'", pa, vf_test_path("nope.png")));
    CHECK_STR_CONTAINS(out, "nope.png");

    /* PSNR of the +-4 pattern is 36.09 dB. */
    CHECK_EQ_INT(cli("'%s' '%s' --threshold psnr=99", pa, pb), 1);
    CHECK_STR_CONTAINS(out, "FAIL");
    CHECK_EQ_INT(cli("'%s' '%s' --threshold psnr=36 --threshold max=4", pa, pb), 0);
    CHECK_STR_CONTAINS(out, "36.090");
    CHECK_EQ_INT(cli("'%s' '%s' --threshold psnr=30 --threshold max=3", pa, pb), 1);
    CHECK_EQ_INT(cli("'%s' '%s' --threshold differ=0.5 --tolerance 4", pa, pb), 0);
    CHECK_EQ_INT(cli("'%s' '%s' --threshold differ=0.5", pa, pb), 1);

    CHECK_EQ_INT(cli("'%s' '%s' --json --threshold ssim=0.5", pa, pb), 0);
    CHECK_STR_CONTAINS(out, "\"frames\"");
    CHECK_STR_CONTAINS(out, "\"psnr\": 36.0896");
    CHECK_STR_CONTAINS(out, "\"ssim\"");
    CHECK_STR_CONTAINS(out, "\"mean\": 4");
    CHECK_STR_CONTAINS(out, "\"max\": 4");
    CHECK_STR_CONTAINS(out, "\"differ\": 1");
    CHECK_STR_CONTAINS(out, "\"overall\"");
    CHECK_STR_CONTAINS(out, "\"thresholds\": {\"ssim\": 0.5}");
    CHECK_STR_CONTAINS(out, "\"pass\": true");
    CHECK_EQ_INT(cli("'%s' '%s' --json", pa, pa2), 0);
    CHECK_STR_CONTAINS(out, "\"psnr\": null");
    CHECK_STR_CONTAINS(out, "\"identical\": true");

    one_error_line(cli("'%s' '%s' --threshold bogus=1", pa, pb));
    CHECK_EQ_INT(cli("'%s' '%s' --threshold psnr=abc", pa, pb), 2);
    CHECK_EQ_INT(cli("'%s' '%s' --threshold differ=2", pa, pb), 2);
    CHECK_EQ_INT(cli("'%s' '%s' --tolerance 300", pa, pb), 2);
    CHECK_EQ_INT(cli("'%s' '%s' --frobnicate", pa, pb), 2);
    CHECK_STR_CONTAINS(out, "unknown option");
    CHECK_EQ_INT(cli("'%s'", pa), 2);
    CHECK_EQ_INT(cli("--help"), 0);
    CHECK_STR_CONTAINS(out, "--diff");
    CHECK_STR_CONTAINS(out, "--threshold");
    CHECK_STR_CONTAINS(out, "--tolerance");
    CHECK_STR_CONTAINS(out, "--json");

    /* --diff for two files. */
    const char *pdiff = vf_test_path("cli_diff.png");
    CHECK_EQ_INT(cli("'%s' '%s' --diff '%s'", pa, pb, pdiff), 0);
    uint8_t *d = NULL;
    uint32_t dw = 0, dh = 0;
    CHECK_EQ_INT(vf_png_read(pdiff, &d, &dw, &dh), VF_OK);
    CHECK(dw == w && dh == h);
    uint8_t c4[3];
    vf_compare_heat_color(4, c4);
    CHECK_MSG(d && d[0] == c4[0] && d[1] == c4[1] && d[2] == c4[2] && d[3] == 255, "diff pixel has the colour of 4 levels");
    free(d);
    CHECK_EQ_INT(cli("'%s' '%s' --diff '%s'", pa, pb, pa), 2); /* would overwrite an input */

    /* Folders. */
    char da[1024], db[1024], dd[1024];
    snprintf(da, sizeof da, "%s", vf_test_path("run_a"));
    snprintf(db, sizeof db, "%s", vf_test_path("run_b"));
    snprintf(dd, sizeof dd, "%s", vf_test_path("run_diff"));
    mkdir(da, 0777);
    mkdir(db, 0777);
    char p[1200];
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/frame_%04d.png", da, i);
        CHECK_EQ_INT(vf_png_write(p, a, w, h), VF_OK);
        snprintf(p, sizeof p, "%s/frame_%04d.png", db, i);
        CHECK_EQ_INT(vf_png_write(p, i == 1 ? b : a, w, h), VF_OK);
    }
    snprintf(p, sizeof p, "%s/notes.txt", da); /* not a frame: ignored */
    write_text(p, "x");
    CHECK_EQ_INT(cli("'%s' '%s' --diff '%s'", da, db, dd), 0);
    CHECK_STR_CONTAINS(out, "frame_0001.png");
    CHECK_STR_CONTAINS(out, "overall");
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/frame_%04d.png", dd, i);
        CHECK_EQ_INT(vf_png_read(p, &d, &dw, &dh), VF_OK);
        CHECK(dw == w && dh == h);
        free(d);
    }
    CHECK_EQ_INT(cli("'%s' '%s' --json --threshold psnr=40", da, db), 1);
    CHECK_STR_CONTAINS(out, "\"mode\": \"folders\"");
    CHECK_STR_CONTAINS(out, "\"failed_frames\": 1");
    CHECK_STR_CONTAINS(out, "\"failed\": [\"psnr\"]");

    snprintf(p, sizeof p, "%s/frame_0003.png", da); /* on one side only */
    CHECK_EQ_INT(vf_png_write(p, a, w, h), VF_OK);
    one_error_line(cli("'%s' '%s'", da, db));
    CHECK_STR_CONTAINS(out, "frame_0003.png");
    CHECK_EQ_INT(cli("'%s' '%s'", da, pa), 2); /* folder vs file */
    CHECK_EQ_INT(vf_test_lines(out), 1);

    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_identical();
    test_noise();
    test_ssim();
    test_png();
    test_cli();
    return vf_test_finish();
}
