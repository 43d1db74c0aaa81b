/* Screen-space fluid renderer: depth pass against the analytic sphere,
 * thickness additivity, the depth filters (GPU vs CPU reference, edge kept,
 * noise removed), the thickness blur and the pack kernel against their CPU
 * references, the simulation-write -> render-read sync, the particles view,
 * resize, and the composite against a checked-in golden image (with negative
 * controls showing the thresholds catch a broken pass). Validation and
 * synchronization validation on (testlib). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "camera.h"
#include "compare.h"
#include "gpu_cmd.h"
#include "png_io.h"
#include "render_ssf.h"
#include "shared_foam.h"
#include "testlib.h"
#include "render_ssf_ref.h"

#define W 128
#define H 96

/* Tolerances (stated once, used below). */
#define TOL_DEPTH_REL 1e-3     /* |depth - analytic| <= 1e-3 x the sphere's depth range (its radius) */
#define TOL_NDC_REL 1e-3       /* |zbuffer - analytic| <= 1e-3 x the sphere's range of depth-buffer values */
#define TOL_THICK_RATIO 0.01   /* k spheres / (k x one sphere) within 1 % */
#define TOL_FILTER_GPU_CPU 2e-5 /* metres: GPU filter vs CPU reference (float, exp() ulps) */
#define TOL_BLUR_GPU_CPU 1e-5  /* relative to the largest thickness */
#define STEP_CHANGE_MAX 0.05   /* a depth step changes by less than 5 % */
#define NOISE_DROP_MIN 4.0     /* noise std falls at least 4x */
/* Golden composite: PSNR in dB and SSIM on luma. The same driver gives an
 * identical image; another GPU differs by rasterisation and float rounding at
 * silhouettes (a few pixels a few levels off), which costs PSNR but keeps it
 * well above 30 dB. Broken passes (no smoothing, no thickness, no refraction
 * or absorption) fall below (checked by the negative controls below). */
#define GOLDEN_PSNR_MIN 32.0
#define GOLDEN_SSIM_MIN 0.97

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31, man = h & 1023;
    float f;
    if (exp == 0)
        f = ldexpf((float)man, -24);
    else if (exp == 31)
        f = man ? NAN : INFINITY;
    else
        f = ldexpf((float)(man | 1024), (int)exp - 25);
    return sign ? -f : f;
}

static vf_buffer *make_buffer(vf_gpu *gpu, const void *data, size_t bytes, const char *name)
{
    vf_buffer *b = NULL;
    vf_buffer_desc d = {.size = bytes, .name = name};
    if (!CHECK(vf_buffer_create(gpu, &d, &b) == VF_OK))
        return NULL;
    if (data && !CHECK(vf_buffer_write(b, 0, data, bytes) == VF_OK))
        vf_buffer_destroy(&b);
    return b;
}

/* The path the renderers of the tests below take (both are tested). */
static vf_render_path g_path = VF_RENDER_PATH_COMPUTE;

/* A capture-like target: the compute path writes its storage alias. */
static vf_image *make_target(vf_gpu *gpu, uint32_t w, uint32_t h)
{
    vf_image *img = NULL;
    vf_image_desc d = {.width = w, .height = h, .format = VF_CAPTURE_FORMAT,
                       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                       .name = "test ssf target", .storage_alias = true};
    CHECK(vf_image_create(gpu, &d, &img) == VF_OK);
    return img;
}

/* Records one frame (profiled) and waits. */
static bool render(vf_gpu *gpu, vf_renderer *r, vf_image *target, vf_profiler *prof)
{
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        return false;
    if (prof)
        vf_profiler_reset(prof, cmd, 0);
    vf_render_prepare_target(cmd, target);
    vf_result res = r->vt->record(r, cmd, target, prof);
    if (!CHECK_MSG(res == VF_OK, "record: %s", vf_result_message(res))) {
        vf_cmd_oneshot_abandon(gpu, cmd);
        return false;
    }
    return CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
}

static float *read_r32(vf_image *img)
{
    size_t n = (size_t)img->width * img->height;
    float *f = malloc(n * 4);
    if (f && !CHECK(vf_image_read(img, f, n * 4) == VF_OK)) {
        free(f);
        return NULL;
    }
    return f;
}

static float *read_r16(vf_image *img)
{
    if (img->format == VK_FORMAT_R32_SFLOAT) /* the compute path's thickness */
        return read_r32(img);
    size_t n = (size_t)img->width * img->height;
    uint16_t *h = malloc(n * 2);
    float *f = malloc(n * 4);
    if (h && f && CHECK(vf_image_read(img, h, n * 2) == VF_OK)) {
        for (size_t i = 0; i < n; i++)
            f[i] = half_to_float(h[i]);
        free(h);
        return f;
    }
    free(h);
    free(f);
    return NULL;
}

static uint8_t *read_rgba(vf_image *img)
{
    size_t n = (size_t)img->width * img->height * 4;
    uint8_t *p = malloc(n);
    if (p && !CHECK(vf_image_read(img, p, n) == VF_OK)) {
        free(p);
        return NULL;
    }
    return p;
}

/* Writes a w x h float image as a grey PNG mapping [lo, hi] to black..white
 * (0 stays black), for looking at intermediate targets. */
static void write_float_png(const char *path, const float *f, uint32_t w, uint32_t h, float lo, float hi)
{
    uint8_t *p = malloc((size_t)w * h * 4);
    if (!p)
        return;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        float t = f[i] > 0.0f ? 0.15f + 0.85f * fminf(fmaxf((f[i] - lo) / (hi - lo), 0.0f), 1.0f) : 0.0f;
        p[4 * i] = p[4 * i + 1] = p[4 * i + 2] = (uint8_t)(t * 255.0f + 0.5f);
        p[4 * i + 3] = 255;
    }
    vf_png_write(path, p, w, h);
    free(p);
}

/* ------------------------------------------------------------------ analytic sphere */

/* The test camera (independent of camera.c: rays built from the basis). */
static const vf_camera test_cam = {
    .eye = {0.5f, 0.6f, 2.6f}, .target = {0.5f, 0.45f, 0.5f}, .up = {0, 1, 0},
    .fov_y = 0.7853981634f, .znear = 0.1f, .zfar = 10.0f,
};

typedef struct ray_basis {
    double e[3], f[3], s[3], u[3], tan_half, aspect;
} ray_basis;

static void norm3(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++)
        v[i] /= l;
}

static ray_basis make_basis(const vf_camera *c, uint32_t w, uint32_t h)
{
    ray_basis b;
    for (int i = 0; i < 3; i++) {
        b.e[i] = c->eye[i];
        b.f[i] = (double)c->target[i] - c->eye[i];
    }
    norm3(b.f);
    double up[3] = {c->up[0], c->up[1], c->up[2]};
    b.s[0] = b.f[1] * up[2] - b.f[2] * up[1];
    b.s[1] = b.f[2] * up[0] - b.f[0] * up[2];
    b.s[2] = b.f[0] * up[1] - b.f[1] * up[0];
    norm3(b.s);
    b.u[0] = b.s[1] * b.f[2] - b.s[2] * b.f[1];
    b.u[1] = b.s[2] * b.f[0] - b.s[0] * b.f[2];
    b.u[2] = b.s[0] * b.f[1] - b.s[1] * b.f[0];
    b.tan_half = tan(0.5 * c->fov_y);
    b.aspect = (double)w / h;
    return b;
}

/* Ray through the centre of pixel (x, y) (row 0 at the top) against the
 * sphere (c, r): returns true on a hit with the view depth of the front hit,
 * the chord length, and the distance of the ray from the centre. */
static bool ray_sphere(const ray_basis *b, uint32_t w, uint32_t h, int x, int y, const double c[3], double r,
                       double *depth, double *chord, double *perp)
{
    double nx = (x + 0.5) / w * 2.0 - 1.0, ny = (y + 0.5) / h * 2.0 - 1.0;
    double d[3];
    for (int i = 0; i < 3; i++)
        d[i] = b->f[i] + b->s[i] * nx * b->tan_half * b->aspect - b->u[i] * ny * b->tan_half;
    norm3(d);
    double oc[3] = {c[0] - b->e[0], c[1] - b->e[1], c[2] - b->e[2]};
    double tb = oc[0] * d[0] + oc[1] * d[1] + oc[2] * d[2];
    double p2 = oc[0] * oc[0] + oc[1] * oc[1] + oc[2] * oc[2] - tb * tb;
    *perp = sqrt(fmax(p2, 0.0));
    if (p2 > r * r)
        return false;
    double hh = sqrt(r * r - p2);
    double t = tb - hh;
    *depth = t * (d[0] * b->f[0] + d[1] * b->f[1] + d[2] * b->f[2]);
    *chord = 2.0 * hh;
    return true;
}

static double ndc_depth(double d, double zn, double zf)
{
    return zf * (d - zn) / (d * (zf - zn));
}

/* Creates an ssf renderer of d with opt (NULL: d's options), with a check
 * that names the error; NULL when it cannot be created. */
static vf_renderer *create_ssf(vf_gpu *gpu, vf_render_ssf_desc *d, const vf_ssf_options *opt)
{
    if (opt)
        d->options = *opt;
    d->path = g_path;
    vf_renderer *r = NULL;
    vf_result res = vf_render_ssf_create(gpu, d, &r);
    CHECK_MSG(res == VF_OK, "vf_render_ssf_create: %s", vf_result_message(res));
    return r;
}

static vf_renderer *make_renderer(vf_gpu *gpu, vf_buffer *pos, uint32_t count, const vf_ssf_options *opt,
                                  const vf_camera *cam, uint32_t w, uint32_t h)
{
    vf_render_ssf_desc d = {
        .width = w, .height = h,
        .particles = {.positions = pos, .count = count},
        .box_min = {-1.0f, -0.5f, -1.0f}, .box_max = {2.0f, 2.0f, 2.0f},
        .name = "test ssf",
    };
    if (cam)
        d.camera = *cam;
    return create_ssf(gpu, &d, opt);
}

static void test_depth_sphere(vf_gpu *gpu)
{
    vf_test_section(g_path == VF_RENDER_PATH_COMPUTE ? "depth (compute splat): one sphere vs the analytic ray-sphere intersection"
                                                      : "depth pass (raster): one sphere vs the analytic ray-sphere intersection");
    const double c[3] = {0.78, 0.62, 0.35}, r = 0.25; /* off-axis: perspective silhouette */
    float p[4] = {(float)c[0], (float)c[1], (float)c[2], 0.0f};
    vf_buffer *pos = make_buffer(gpu, p, sizeof p, "test sphere");
    vf_ssf_options opt = {.radius = r};
    vf_renderer *rd = make_renderer(gpu, pos, 1, &opt, &test_cam, W, H);
    vf_image *target = make_target(gpu, W, H);
    float *depth = NULL, *zbuf = NULL;
    if (!rd || !target || !render(gpu, rd, target, NULL))
        goto done;
    depth = read_r32(vf_render_ssf_image(rd, VF_SSF_IMAGE_DEPTH));
    vf_image *zimg = vf_render_ssf_image(rd, VF_SSF_IMAGE_FLUID_ZBUF); /* the raster path's depth buffer */
    zbuf = zimg ? read_r32(zimg) : NULL;
    if (!depth || (zimg && !zbuf))
        goto done;
    write_float_png(vf_test_path("depth_sphere.png"), depth, W, H, 1.8f, 2.5f);
    ray_basis b = make_basis(&test_cam, W, H);
    double zn = test_cam.znear, zf = test_cam.zfar;
    double max_err = 0, max_ndc_err = 0, ndc_lo = 1, ndc_hi = 0, px_m = 0;
    int covered = 0, analytic = 0, mismatch = 0, mismatch_far = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            double d, chord, perp;
            bool hit = ray_sphere(&b, W, H, x, y, c, r, &d, &chord, &perp);
            float g = depth[y * W + x];
            bool ghit = g > 0.0f;
            analytic += hit;
            covered += ghit;
            if (hit != ghit) {
                mismatch++;
                /* An edge pixel: the pixel-centre ray passes within half a pixel of the silhouette. */
                double half_px = 0.5 * 2.5 * 2.0 * b.tan_half / H; /* metres per half pixel at ~2.5 m */
                mismatch_far += fabs(perp - r) > half_px;
                continue;
            }
            if (!hit)
                continue;
            double nd = ndc_depth(d, zn, zf);
            max_err = fmax(max_err, fabs(g - d));
            if (zbuf)
                max_ndc_err = fmax(max_ndc_err, fabs(zbuf[y * W + x] - nd));
            ndc_lo = fmin(ndc_lo, nd);
            ndc_hi = fmax(ndc_hi, nd);
            px_m = fmax(px_m, d);
        }
    printf("sphere r=%.2f: %d pixels covered (analytic %d), %d differ (%d away from the silhouette)\n", r, covered,
           analytic, mismatch, mismatch_far);
    printf("max |view depth - analytic| = %.3g m (tol %.3g m); max |zbuffer - analytic| = %.3g (tol %.3g)\n", max_err,
           TOL_DEPTH_REL * r, max_ndc_err, TOL_NDC_REL * (ndc_hi - ndc_lo));
    CHECK(analytic > 300);
    CHECK_EQ_INT(mismatch_far, 0);
    CHECK_LE(mismatch, analytic / 50 + 2);
    CHECK_LE(max_err, TOL_DEPTH_REL * r);
    CHECK_LE(max_ndc_err, TOL_NDC_REL * (ndc_hi - ndc_lo));
    CHECK_EQ_INT(vf_render_ssf_image(rd, VF_SSF_IMAGE_DEPTH) ? (int)rd->path : -1, (int)g_path);
done:
    free(depth);
    free(zbuf);
    vf_image_destroy(&target);
    vf_renderer_destroy(&rd);
    vf_buffer_destroy(&pos);
}

/* ------------------------------------------------------------------ thickness */

static float *thickness_of(vf_gpu *gpu, int k, bool half, uint32_t *tw, uint32_t *th)
{
    float p[4 * 8];
    for (int i = 0; i < k; i++) {
        p[4 * i + 0] = 0.5f;
        p[4 * i + 1] = 0.45f;
        p[4 * i + 2] = 0.5f;
        p[4 * i + 3] = 0.0f;
    }
    vf_buffer *pos = make_buffer(gpu, p, (size_t)k * 16, "test thickness spheres");
    vf_ssf_options opt = {.radius = 0.3, .thickness_half = half};
    vf_renderer *rd = make_renderer(gpu, pos, (uint32_t)k, &opt, &test_cam, W, H);
    vf_image *target = make_target(gpu, W, H);
    float *t = NULL;
    if (rd && target && render(gpu, rd, target, NULL)) {
        vf_image *img = vf_render_ssf_image(rd, VF_SSF_IMAGE_THICKNESS);
        *tw = img->width;
        *th = img->height;
        t = read_r16(img);
    }
    vf_image_destroy(&target);
    vf_renderer_destroy(&rd);
    vf_buffer_destroy(&pos);
    return t;
}

static void test_thickness(vf_gpu *gpu)
{
    vf_test_section(g_path == VF_RENDER_PATH_COMPUTE ? "thickness (compute splat): k coincident spheres give k x one sphere"
                                                      : "thickness (raster): k coincident spheres give k x one sphere");
    uint32_t tw, th;
    const int k = 5;
    float *one = thickness_of(gpu, 1, false, &tw, &th);
    float *many = thickness_of(gpu, k, false, &tw, &th);
    float *half = NULL;
    if (!one || !many)
        goto done;
    write_float_png(vf_test_path("thickness_k.png"), many, tw, th, 0.0f, 3.0f);
    double worst = 0, sum_ratio = 0, worst_chord = 0;
    int n = 0;
    ray_basis b = make_basis(&test_cam, W, H);
    const double c[3] = {0.5, 0.45, 0.5};
    for (uint32_t i = 0; i < tw * th; i++) {
        if (one[i] < 0.1f)
            continue; /* skip the thin rim: relative fp16 error of tiny values */
        double ratio = many[i] / (k * (double)one[i]);
        worst = fmax(worst, fabs(ratio - 1.0));
        sum_ratio += ratio;
        n++;
        double d, chord, perp;
        if (ray_sphere(&b, W, H, (int)(i % tw), (int)(i / tw), c, 0.3, &d, &chord, &perp))
            worst_chord = fmax(worst_chord, fabs(one[i] - chord) / chord);
    }
    printf("k=%d: %d pixels, mean ratio k-spheres/(k x one) = %.5f, worst |ratio - 1| = %.4f (tol %.2f)\n", k, n,
           sum_ratio / n, worst, TOL_THICK_RATIO);
    printf("one sphere vs analytic chord: worst relative error %.4f\n", worst_chord);
    CHECK(n > 500);
    CHECK_LE(worst, TOL_THICK_RATIO);
    CHECK_LE(worst_chord, 0.01);
    /* Half resolution: the centre texel still holds the full chord through the centre. */
    half = thickness_of(gpu, 1, true, &tw, &th);
    if (half) {
        CHECK_EQ_INT(tw, W / 2);
        CHECK_EQ_INT(th, H / 2);
        float best = 0;
        for (uint32_t i = 0; i < tw * th; i++)
            best = fmaxf(best, half[i]);
        printf("half resolution %ux%u: largest thickness %.4f (2r = 0.6)\n", tw, th, best);
        CHECK_REL(best, 0.6, 0.01, 0.0);
    }
done:
    free(one);
    free(many);
    free(half);
}

/* ------------------------------------------------------------------ filters */

static uint32_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static bool upload_r32(vf_gpu *gpu, vf_image *img, const float *data)
{
    size_t bytes = (size_t)img->width * img->height * 4;
    vf_buffer *st = NULL;
    vf_buffer_desc bd = {.size = bytes, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT, .memory = VF_MEMORY_UPLOAD,
                         .name = "test upload"};
    VkCommandBuffer cmd;
    if (!CHECK(vf_buffer_create(gpu, &bd, &st) == VF_OK))
        return false;
    memcpy(st->mapped, data, bytes);
    bool ok = CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
    if (ok) {
        vf_image_transition(cmd, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                            VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                    .imageExtent = {img->width, img->height, 1}};
        vkCmdCopyBufferToImage(cmd, st->buffer, img->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        ok = CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    }
    vf_buffer_destroy(&st);
    return ok;
}

typedef struct plane_stats {
    double noise_std[2]; /* per plane, interior pixels */
    double step;         /* mean over rows of z(x0) - z(x0 - 1) */
} plane_stats;

static plane_stats stats_of(const float *z, int x0, int margin, const double base[2])
{
    plane_stats s = {{0, 0}, 0};
    double ss[2] = {0, 0};
    int n[2] = {0, 0}, rows = 0;
    for (int y = 8 + margin; y < H - margin; y++) {
        s.step += z[y * W + x0] - z[y * W + x0 - 1];
        rows++;
        for (int x = margin; x < W - margin; x++) {
            if (abs(x - x0) < margin)
                continue;
            int side = x >= x0;
            double e = z[y * W + x] - base[side];
            ss[side] += e * e;
            n[side]++;
        }
    }
    for (int i = 0; i < 2; i++)
        s.noise_std[i] = sqrt(ss[i] / n[i]);
    s.step /= rows;
    return s;
}

static void filter_case(vf_gpu *gpu, int filter, const char *name)
{
    /* Two planes facing the camera at 2.0 m and 2.6 m with a vertical step
     * at x0, uniform noise of +-1 cm on each, and 8 empty rows at the top. */
    const int x0 = 61;
    const double base[2] = {2.0, 2.6};
    float *raw = malloc(W * H * 4), *ref = malloc(W * H * 4), *tmp = malloc(W * H * 4), *gpu_out = NULL;
    vf_image *target = make_target(gpu, W, H);
    vf_ssf_options opt = {.radius = 0.02, .filter = filter, .iterations = 2, .filter_radius = 0.08,
                          .range_sigma = 0.03, .nr_threshold = 0.08, .nr_clamp = 0.02};
    vf_renderer *rd = make_renderer(gpu, NULL, 0, &opt, &test_cam, W, H);
    if (!raw || !ref || !tmp || !rd || !target)
        goto done;
    uint64_t seed = 12345;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            raw[y * W + x] = y < 8 ? 0.0f : (float)(base[x >= x0] + ((rng(&seed) % 20001) / 10000.0 - 1.0) * 0.01);
    if (!upload_r32(gpu, vf_render_ssf_image(rd, VF_SSF_IMAGE_DEPTH), raw))
        goto done;
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        goto done;
    vf_render_ssf_record_smooth(rd, cmd, NULL);
    if (!CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK))
        goto done;
    gpu_out = read_r32(vf_render_ssf_image(rd, VF_SSF_IMAGE_DEPTH_SMOOTH));
    if (!gpu_out)
        goto done;
    vf_ssf_smooth_push p;
    uint32_t iters;
    vf_render_ssf_smooth_params(rd, &p, &iters);
    double t0 = now_s();
    vf_ssf_smooth_ref(&p, iters, raw, ref, tmp);
    double cpu_ms = (now_s() - t0) * 1e3;
    double max_diff = 0;
    int empty_bad = 0;
    for (int i = 0; i < W * H; i++) {
        max_diff = fmax(max_diff, fabs(gpu_out[i] - ref[i]));
        empty_bad += (raw[i] == 0.0f) != (gpu_out[i] == 0.0f);
    }
    float r_px = fminf(p.max_radius_px, p.world_radius * p.focal_px / 2.0f);
    int margin = (int)ceilf(r_px) * 2 + 2;
    plane_stats a = stats_of(raw, x0, margin, base), g = stats_of(gpu_out, x0, margin, base);
    double change = fabs(g.step - a.step) / a.step;
    double drop0 = a.noise_std[0] / g.noise_std[0], drop1 = a.noise_std[1] / g.noise_std[1];
    printf("%s: half-width %.2f px at 2 m, %u iterations; step %.4f -> %.4f m (change %.2f %%, max %.0f %%)\n", name,
           r_px, iters, a.step, g.step, 100 * change, 100 * STEP_CHANGE_MAX);
    printf("%s: noise std %.5f -> %.5f (%.1fx) and %.5f -> %.5f (%.1fx), min %.0fx\n", name, a.noise_std[0],
           g.noise_std[0], drop0, a.noise_std[1], g.noise_std[1], drop1, NOISE_DROP_MIN);
    printf("%s: max |gpu - cpu| = %.3g m (tol %.1g m), cpu reference %.1f ms\n", name, max_diff, TOL_FILTER_GPU_CPU,
           cpu_ms);
    CHECK(iters == 2);
    CHECK_LE(change, STEP_CHANGE_MAX);
    CHECK(drop0 >= NOISE_DROP_MIN);
    CHECK(drop1 >= NOISE_DROP_MIN);
    CHECK_LE(max_diff, TOL_FILTER_GPU_CPU);
    CHECK_EQ_INT(empty_bad, 0);
    if (filter == VF_SSF_FILTER_BILATERAL) {
        write_float_png(vf_test_path("filter_raw.png"), raw, W, H, 1.95f, 2.65f);
        write_float_png(vf_test_path("filter_smoothed.png"), gpu_out, W, H, 1.95f, 2.65f);
    }
done:
    free(raw);
    free(ref);
    free(tmp);
    free(gpu_out);
    vf_image_destroy(&target);
    vf_renderer_destroy(&rd);
}

static void test_filters(vf_gpu *gpu)
{
    vf_test_section("depth filters: a step between two planes survives, noise drops, GPU = CPU");
    filter_case(gpu, VF_SSF_FILTER_BILATERAL, "bilateral");
    filter_case(gpu, VF_SSF_FILTER_NARROW_RANGE, "narrow-range");
}

/* ------------------------------------------------------------------ scene */

/* A fixed fluid-like particle set in the unit tank: a settled pool on the
 * floor, a column against the left wall and a separate falling drop. */
static float *scene_particles(uint32_t *count, double spacing)
{
    uint32_t cap = 20000, n = 0;
    float *p = malloc(cap * 16);
    if (!p)
        return NULL;
    uint64_t seed = 777;
    for (double y = spacing * 0.6; y < 0.95; y += spacing)
        for (double z = spacing * 0.6; z < 1.0; z += spacing)
            for (double x = spacing * 0.6; x < 1.0; x += spacing) {
                bool pool = y < 0.16;
                bool column = x < 0.32 && y < 0.62 && z < 0.7;
                double dx = x - 0.72, dy = y - 0.58, dz = z - 0.45;
                bool drop = dx * dx + dy * dy + dz * dz < 0.11 * 0.11;
                if (!(pool || column || drop) || n >= cap)
                    continue;
                double j = spacing * 0.15;
                p[4 * n + 0] = (float)(x + ((rng(&seed) % 1001) / 500.0 - 1.0) * j);
                p[4 * n + 1] = (float)(y + ((rng(&seed) % 1001) / 500.0 - 1.0) * j);
                p[4 * n + 2] = (float)(z + ((rng(&seed) % 1001) / 500.0 - 1.0) * j);
                p[4 * n + 3] = (float)y; /* "pressure": height for the particles view */
                n++;
            }
    *count = n;
    return p;
}

/* The golden image's camera: close on the fluid so that the fluid passes
 * dominate the comparison. */
static const vf_camera scene_cam = {
    .eye = {1.30f, 0.95f, 1.75f}, .target = {0.45f, 0.28f, 0.45f}, .up = {0, 1, 0},
    .fov_y = 0.7853981634f, .znear = 0.05f, .zfar = 30.0f,
};

static vf_renderer *scene_renderer(vf_gpu *gpu, vf_buffer *pos, uint32_t count, const vf_ssf_options *opt, uint32_t w,
                                   uint32_t h, vf_buffer *attr, const vf_camera *cam)
{
    vf_render_ssf_desc d = {
        .width = w, .height = h,
        .particles = {.positions = pos, .count = count, .attributes = attr},
        .box_min = {0, 0, 0}, .box_max = {1, 1, 1},
        .camera = cam ? *cam : scene_cam,
        .name = "test ssf scene",
    };
    return create_ssf(gpu, &d, opt);
}

#define GW 192
#define GH 144
#define SCENE_SPACING 0.04
#define SCENE_RADIUS 0.03

static uint8_t *render_scene(vf_gpu *gpu, vf_buffer *pos, uint32_t count, const vf_ssf_options *opt, vf_profiler *prof,
                             float **thick_raw, float **thick_blur, vf_ssf_blur_push *blur, const vf_camera *cam)
{
    vf_renderer *rd = scene_renderer(gpu, pos, count, opt, GW, GH, NULL, cam);
    vf_image *target = make_target(gpu, GW, GH);
    uint8_t *px = NULL;
    if (rd && target && render(gpu, rd, target, prof)) {
        px = read_rgba(target);
        if (thick_raw) {
            vf_render_ssf_blur_params(rd, blur);
            *thick_raw = read_r16(vf_render_ssf_image(rd, VF_SSF_IMAGE_THICKNESS));
            *thick_blur = read_r32(vf_render_ssf_image(rd, VF_SSF_IMAGE_THICKNESS_BLUR));
        }
    }
    vf_image_destroy(&target);
    vf_renderer_destroy(&rd);
    return px;
}

static bool compare_golden(const uint8_t *px, const uint8_t *golden, const char *what, bool expect_pass)
{
    vf_compare_stats st;
    if (!CHECK(vf_compare_images(px, golden, GW, GH, VF_COMPARE_DEFAULT_TOLERANCE, &st) == VF_OK))
        return false;
    bool pass = st.psnr >= GOLDEN_PSNR_MIN && st.ssim >= GOLDEN_SSIM_MIN;
    printf("%-28s PSNR %6.2f dB  SSIM %.4f  max %3u  differ %.2f %%  -> %s (expected %s)\n", what, st.psnr, st.ssim,
           st.max_abs, 100 * st.differ_share, pass ? "pass" : "fail", expect_pass ? "pass" : "fail");
    return pass;
}

static void test_composite_golden(vf_gpu *gpu, vf_profiler *prof)
{
    vf_test_section("composite: fixed particle set vs tests/golden/ssf_composite.png");
    uint32_t count = 0;
    vf_ssf_blur_push bp = {0};
    float *p = scene_particles(&count, SCENE_SPACING);
    vf_buffer *pos = p ? make_buffer(gpu, p, (size_t)count * 16, "test scene particles") : NULL;
    vf_ssf_options opt = {.radius = SCENE_RADIUS};
    float *traw = NULL, *tblur = NULL;
    uint8_t *px = NULL, *golden = NULL;
    if (!pos)
        goto done;
    printf("%u particles, radius %.3f m, %ux%u\n", count, SCENE_RADIUS, GW, GH);
    px = render_scene(gpu, pos, count, &opt, prof, &traw, &tblur, &bp, NULL);
    if (!px)
        goto done;
    vf_png_write(vf_test_path("composite.png"), px, GW, GH);

    /* The profiler saw every pass under its stable name. */
    vf_pass_time t[16];
    uint32_t nt = 0;
    CHECK(vf_profiler_collect(prof, 0, t, 16, &nt) == VF_OK);
    const char *raster[] = {"ssf_scene", "ssf_depth", "ssf_thickness", "ssf_smooth", "ssf_thickness_blur", "ssf_composite"};
    const char *compute[] = {"ssf_scene", "ssf_splat", "ssf_resolve", "ssf_smooth", "ssf_thickness_blur", "ssf_composite"};
    bool cs = vf_render_path_auto(&gpu->info, NULL, 0) == VF_RENDER_PATH_COMPUTE;
    const char **names = cs ? compute : raster;
    printf("the %s path's passes:\n", cs ? "compute" : "raster");
    for (size_t i = 0; i < sizeof raster / sizeof raster[0]; i++) {
        bool found = false;
        for (uint32_t k = 0; k < nt; k++)
            if (!strcmp(t[k].name, names[i])) {
                found = true;
                printf("  %-20s %8.3f ms\n", t[k].name, t[k].ms);
            }
        CHECK_MSG(found, "profiler scope %s recorded", names[i]);
    }

    /* Thickness blur: GPU vs the CPU reference on the same raw thickness. */
    uint32_t tw = bp.width, th = bp.height;
    if (traw && tblur && tw == GW && th == GH) {
        float *tmp = malloc((size_t)tw * th * 4), *ref = malloc((size_t)tw * th * 4);
        if (tmp && ref) {
            printf("thickness blur: sigma %.1f px, offsets -%d..%d\n", bp.sigma_px, bp.radius_px, bp.radius_px);
            vf_ssf_blur_pass_ref(&bp, traw, tmp);
            bp.dir_x = 0;
            bp.dir_y = 1;
            vf_ssf_blur_pass_ref(&bp, tmp, ref);
            double md = 0, mx = 0;
            for (uint32_t i = 0; i < tw * th; i++) {
                md = fmax(md, fabs(tblur[i] - ref[i]));
                mx = fmax(mx, ref[i]);
            }
            printf("thickness blur: max |gpu - cpu| = %.3g (%.2g of the largest thickness %.3f m, tol %.0g)\n", md,
                   md / mx, mx, TOL_BLUR_GPU_CPU);
            CHECK(mx > 0.1);
            CHECK_LE(md, TOL_BLUR_GPU_CPU * mx);
            write_float_png(vf_test_path("thickness_blur.png"), tblur, tw, th, 0.0f, (float)mx);
        }
        free(tmp);
        free(ref);
    }

    char gpath[1024];
    snprintf(gpath, sizeof gpath, "%s/tests/golden/ssf_composite.png", vf_t.source);
    const char *update = getenv("VKFLUID_UPDATE_GOLDEN");
    if (update && !strcmp(update, "1")) {
        CHECK(vf_png_write(gpath, px, GW, GH) == VF_OK);
        printf("wrote %s (VKFLUID_UPDATE_GOLDEN=1)\n", gpath);
    }
    uint32_t gw = 0, gh = 0;
    if (!CHECK_MSG(vf_png_read(gpath, &golden, &gw, &gh) == VF_OK, "read %s (regenerate with VKFLUID_UPDATE_GOLDEN=1)",
                   gpath))
        goto done;
    if (!CHECK(gw == GW && gh == GH))
        goto done;
    printf("thresholds: PSNR >= %.0f dB and SSIM >= %.2f\n", GOLDEN_PSNR_MIN, GOLDEN_SSIM_MIN);
    CHECK_MSG(compare_golden(px, golden, "composite vs golden", true), "composite matches the golden image");

    /* Positive control: a camera turned by a twentieth of a pixel moves every
     * edge a little, more than a different rasteriser or float rounding
     * would; it must still pass. */
    vf_camera jit = scene_cam;
    double px_angle = 2.0 * tan(0.5 * scene_cam.fov_y) / GH, dist = 0;
    for (int i = 0; i < 3; i++)
        dist += (scene_cam.target[i] - scene_cam.eye[i]) * (scene_cam.target[i] - scene_cam.eye[i]);
    jit.target[0] += (float)(0.05 * px_angle * sqrt(dist));
    uint8_t *jp = render_scene(gpu, pos, count, &opt, NULL, NULL, NULL, NULL, &jit);
    if (jp)
        CHECK_MSG(compare_golden(jp, golden, "camera moved 1/20 pixel", true), "a sub-pixel camera move passes");
    free(jp);

    /* Negative controls: each broken pass must fail the same comparison. */
    struct {
        const char *what;
        vf_ssf_options o;
    } broken[] = {
        {"no smoothing", {.radius = SCENE_RADIUS, .smooth_off = true}},
        {"spheres 15% too small", {.radius = SCENE_RADIUS * 0.85}},
        {"no absorption/refraction", {.radius = SCENE_RADIUS, .absorption_length = 1e6, .refraction = -1}},
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        uint8_t *bad = render_scene(gpu, pos, count, &broken[i].o, NULL, NULL, NULL, NULL, NULL);
        if (!bad)
            continue;
        char name[64];
        snprintf(name, sizeof name, "broken_%zu.png", i);
        vf_png_write(vf_test_path(name), bad, GW, GH);
        CHECK_MSG(!compare_golden(bad, golden, broken[i].what, false), "a render with %s fails the golden comparison",
                  broken[i].what);
        free(bad);
    }
done:
    free(p);
    free(px);
    free(golden);
    free(traw);
    free(tblur);
    vf_buffer_destroy(&pos);
}

/* ------------------------------------------------------------------ sync, pack, particles, resize */

static void test_sim_sync_and_pack(vf_gpu *gpu)
{
    vf_test_section("simulation write (pack compute pass) -> render reads in one command buffer");
    uint32_t count = 0;
    float *p = scene_particles(&count, SCENE_SPACING);
    float *xs = malloc(count * 4), *ys = malloc(count * 4), *zs = malloc(count * 4), *ref = malloc((size_t)count * 16),
          *got = malloc((size_t)count * 16);
    vf_buffer *bx = NULL, *by = NULL, *bz = NULL, *packed = NULL, *direct = NULL;
    vf_renderer *rd = NULL;
    vf_image *target = make_target(gpu, W, H);
    uint8_t *img_packed = NULL, *img_direct = NULL;
    if (!p || !xs || !ys || !zs || !ref || !got || !target)
        goto done;
    for (uint32_t i = 0; i < count; i++) {
        xs[i] = p[4 * i];
        ys[i] = p[4 * i + 1];
        zs[i] = p[4 * i + 2];
    }
    vf_ssf_pack_ref(xs, ys, zs, NULL, 1.5f, ref, count);
    bx = make_buffer(gpu, xs, count * 4, "test x");
    by = make_buffer(gpu, ys, count * 4, "test y");
    bz = make_buffer(gpu, zs, count * 4, "test z");
    packed = make_buffer(gpu, NULL, (size_t)count * 16, "test packed positions");
    direct = make_buffer(gpu, ref, (size_t)count * 16, "test direct positions");
    vf_ssf_options opt = {.radius = SCENE_RADIUS};
    rd = scene_renderer(gpu, packed, count, &opt, W, H, NULL, NULL);
    if (!bx || !by || !bz || !packed || !direct || !rd)
        goto done;
    for (int frame = 0; frame < 2; frame++) {
        VkCommandBuffer cmd;
        if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
            goto done;
        /* The frame loop's duty: the previous frame's render reads are done
         * before the simulation writes the particles again. */
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT);
        CHECK(vf_render_ssf_record_pack(rd, cmd, bx, by, bz, NULL, 1.5f, packed, count) == VF_OK);
        vf_render_barrier_after_sim(cmd);
        vf_render_prepare_target(cmd, target);
        CHECK(rd->vt->record(rd, cmd, target, NULL) == VF_OK);
        if (!CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK))
            goto done;
    }
    img_packed = read_rgba(target);
    CHECK(vf_buffer_read(packed, 0, got, (size_t)count * 16) == VF_OK);
    CHECK_MSG(!memcmp(got, ref, (size_t)count * 16), "pack: GPU output equals the CPU reference (%u particles)", count);
    vf_ssf_particles sp = {.positions = direct, .count = count};
    CHECK(vf_render_ssf_set_particles(rd, &sp) == VF_OK);
    if (!render(gpu, rd, target, NULL))
        goto done;
    img_direct = read_rgba(target);
    if (img_packed && img_direct)
        CHECK_MSG(!memcmp(img_packed, img_direct, W * H * 4), "render from packed = render from uploaded positions");
    /* Bad particle descriptions are refused. */
    vf_ssf_particles bad = {.positions = direct, .count = count + 1};
    CHECK(vf_render_ssf_set_particles(rd, &bad) == VF_ERR_INVALID_ARG);
    bad = (vf_ssf_particles){.positions = direct, .offset = 4, .count = 1};
    CHECK(vf_render_ssf_set_particles(rd, &bad) == VF_ERR_INVALID_ARG);
    printf("pack of %u particles and two frames recorded after it: ok\n", count);
done:
    free(p);
    free(xs);
    free(ys);
    free(zs);
    free(ref);
    free(got);
    free(img_packed);
    free(img_direct);
    vf_image_destroy(&target);
    vf_renderer_destroy(&rd);
    vf_buffer_destroy(&bx);
    vf_buffer_destroy(&by);
    vf_buffer_destroy(&bz);
    vf_buffer_destroy(&packed);
    vf_buffer_destroy(&direct);
}

static void test_particles_view_and_resize(vf_gpu *gpu)
{
    vf_test_section("particles view (coloured by speed) and resize");
    /* Two particles side by side: at rest (blue end) and at 2 m/s (red end). */
    float p[8] = {0.35f, 0.45f, 0.5f, 0.0f, 0.65f, 0.45f, 0.5f, 0.0f};
    float a[8] = {0, 0, 0, 1000, 0, 2.0f, 0, 1000};
    vf_buffer *pos = make_buffer(gpu, p, sizeof p, "test particles");
    vf_buffer *attr = make_buffer(gpu, a, sizeof a, "test attributes");
    vf_ssf_options opt = {.radius = 0.1, .mode = VF_SSF_MODE_PARTICLES, .color_by = VF_SSF_COLOR_SPEED, .color_max = 2.0};
    vf_render_ssf_desc d = {.width = W, .height = H, .particles = {.positions = pos, .count = 2, .attributes = attr},
                            .camera = test_cam, .options = opt, .name = "test particles view"};
    vf_renderer *rd = NULL;
    vf_image *target = make_target(gpu, W, H), *big = NULL;
    uint8_t *px = NULL;
    if (!pos || !attr || !target || !CHECK(vf_render_ssf_create(gpu, &d, &rd) == VF_OK))
        goto done;
    if (!render(gpu, rd, target, NULL) || !(px = read_rgba(target)))
        goto done;
    vf_png_write(vf_test_path("particles_view.png"), px, W, H);
    /* Project the two centres with the renderer's own matrices. */
    vf_mat4 view, proj;
    vf_camera_matrices(&test_cam, (float)W / H, &view, &proj);
    vf_mat4 vp = vf_mat4_mul(&proj, &view);
    for (int i = 0; i < 2; i++) {
        float c[4];
        vf_mat4_transform(&vp, &p[4 * i], 1.0f, c);
        int x = (int)((c[0] / c[3] * 0.5f + 0.5f) * W), y = (int)((c[1] / c[3] * 0.5f + 0.5f) * H);
        const uint8_t *q = px + ((size_t)y * W + x) * 4;
        printf("particle %d (speed %.0f) at pixel (%d, %d): rgb %u %u %u\n", i, i ? 2.0 : 0.0, x, y, q[0], q[1], q[2]);
        if (i == 0)
            CHECK_MSG(q[2] > q[0] + 40, "slow particle is blue");
        else
            CHECK_MSG(q[0] > q[2] + 40, "fast particle is red");
    }
    /* Resize: new targets, and the renderer draws at the new size. */
    if (!CHECK(rd->vt->resize(rd, 2 * W, 2 * H) == VF_OK))
        goto done;
    CHECK(rd->vt->record(rd, VK_NULL_HANDLE, target, NULL) == VF_ERR_INVALID_ARG); /* wrong size refused */
    big = make_target(gpu, 2 * W, 2 * H);
    CHECK_EQ_INT(vf_render_ssf_image(rd, VF_SSF_IMAGE_DEPTH)->width, 2 * W);
    vf_ssf_options o2 = opt;
    o2.mode = VF_SSF_MODE_SSF;
    o2.thickness_half = true;
    vf_render_ssf_set_options(rd, &o2);
    CHECK_EQ_INT(vf_render_ssf_image(rd, VF_SSF_IMAGE_THICKNESS)->width, W);
    if (big)
        CHECK(render(gpu, rd, big, NULL));
    printf("resized to %ux%u with half-resolution thickness: ok\n", 2 * W, 2 * H);
done:
    free(px);
    vf_image_destroy(&target);
    vf_image_destroy(&big);
    vf_renderer_destroy(&rd);
    vf_buffer_destroy(&pos);
    vf_buffer_destroy(&attr);
}

static void test_unorm_target(vf_gpu *gpu)
{
    vf_test_section("UNORM target (swapchain-like): the shaders encode sRGB themselves");
    uint32_t count = 0;
    float *p = scene_particles(&count, SCENE_SPACING);
    vf_buffer *pos = p ? make_buffer(gpu, p, (size_t)count * 16, "test scene particles") : NULL;
    vf_renderer *rs = NULL, *ru = NULL;
    vf_image *ts = make_target(gpu, W, H), *tu = NULL;
    uint8_t *a = NULL, *b = NULL;
    vf_image_desc id = {.width = W, .height = H, .format = VK_FORMAT_R8G8B8A8_UNORM,
                        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        .name = "test unorm target", .storage_alias = true};
    if (!pos || !ts || !CHECK(vf_image_create(gpu, &id, &tu) == VF_OK))
        goto done;
    vf_render_ssf_desc d = {.width = W, .height = H, .particles = {.positions = pos, .count = count},
                            .box_min = {0, 0, 0}, .box_max = {1, 1, 1}, .camera = scene_cam,
                            .options = {.radius = SCENE_RADIUS}};
    if (!CHECK(vf_render_ssf_create(gpu, &d, &rs) == VF_OK))
        goto done;
    d.format = VK_FORMAT_R8G8B8A8_UNORM;
    if (!CHECK(vf_render_ssf_create(gpu, &d, &ru) == VF_OK))
        goto done;
    if (!render(gpu, rs, ts, NULL) || !render(gpu, ru, tu, NULL))
        goto done;
    a = read_rgba(ts);
    b = read_rgba(tu);
    vf_compare_stats st;
    if (a && b && CHECK(vf_compare_images(a, b, W, H, 2, &st) == VF_OK)) {
        printf("sRGB target vs UNORM target: max difference %u levels, %.2f %% of pixels differ by more than 2\n",
               st.max_abs, 100 * st.differ_share);
        CHECK_LE(st.max_abs, 2);
    }
    CHECK(ts->layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL); /* the record() contract */
done:
    free(p);
    free(a);
    free(b);
    vf_image_destroy(&ts);
    vf_image_destroy(&tu);
    vf_renderer_destroy(&rs);
    vf_renderer_destroy(&ru);
    vf_buffer_destroy(&pos);
}

/* ------------------------------------------------------------------ compute path */

/* The compute path's splat and resolve against vf_ssf_splat_ref: separate,
 * overlapping and coincident spheres, one cut by the near plane (nearer
 * than it in front, large on screen: splatted by a workgroup), one off
 * screen, one behind the camera, one holding the eye, one hidden far away
 * (1e9 m, as the SPH solver parks unused slots) and a NaN; at full and at
 * half thickness resolution. Depth within TOL_SPLAT_DEPTH_REL (relative),
 * thickness within TOL_SPLAT_THICK; pixels whose coverage differs must be
 * silhouette pixels (the reference's chord there under TOL_SPLAT_EDGE). */
/* Relative: the view transform of a centre near the eye rounds differently
 * with and without fused multiply-adds (about 2e-7 m), and a ray grazing a sphere
 * turns that into up to 1.4e-5 m of depth at 0.1 m (measured; a double
 * precision cast put the GPU's value nearer the exact one). */
#define TOL_SPLAT_DEPTH_REL 3e-4
#define TOL_SPLAT_THICK 2e-5   /* m: a few fixed-point units per sphere and float rounding */
#define TOL_SPLAT_EDGE 0.01    /* m: chord of a pixel whose centre ray grazes a sphere */

static void splat_case(vf_gpu *gpu, bool half)
{
    const float e[3] = {test_cam.eye[0], test_cam.eye[1], test_cam.eye[2]};
    float f[3] = {test_cam.target[0] - e[0], test_cam.target[1] - e[1], test_cam.target[2] - e[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++)
        f[i] /= fl;
    const float r = 0.12f, nan = NAN;
    float p[][4] = {
        {0.45f, 0.45f, 0.5f, 0},  {0.58f, 0.50f, 0.55f, 0}, /* overlapping */
        {0.20f, 0.30f, 0.3f, 0},  {0.20f, 0.30f, 0.3f, 0},  /* coincident */
        {e[0] + 0.19f * f[0] + 0.09f, e[1] + 0.19f * f[1] - 0.08f, e[2] + 0.19f * f[2], 0}, /* cut by the near plane */
        {5.0f, 0.45f, 0.5f, 0},                            /* off screen */
        {e[0] - 0.5f * f[0], e[1] - 0.5f * f[1], e[2] - 0.5f * f[2], 0}, /* behind the camera */
        {e[0], e[1], e[2], 0},                             /* holds the eye */
        {1e9f, 1e9f, 1e9f, 0},                             /* hidden */
        {nan, 0.4f, 0.5f, 0},
    };
    uint32_t n = sizeof p / sizeof p[0];
    vf_buffer *pos = make_buffer(gpu, p, sizeof p, "test splat spheres");
    vf_ssf_options opt = {.radius = r, .thickness_half = half};
    vf_renderer *rd = make_renderer(gpu, pos, n, &opt, &test_cam, W, H);
    vf_image *target = make_target(gpu, W, H);
    float *depth = NULL, *thick = NULL, *scene = NULL, *rdepth = NULL, *rthick = NULL;
    if (!rd || !target || !CHECK(rd->path == VF_RENDER_PATH_COMPUTE) || !render(gpu, rd, target, NULL))
        goto done;
    vf_image *ti = vf_render_ssf_image(rd, VF_SSF_IMAGE_THICKNESS);
    uint32_t tw = ti->width, th = ti->height;
    depth = read_r32(vf_render_ssf_image(rd, VF_SSF_IMAGE_DEPTH));
    thick = read_r32(ti);
    scene = read_r32(vf_render_ssf_image(rd, VF_SSF_IMAGE_SCENE_DEPTH));
    rdepth = malloc((size_t)W * H * 4);
    rthick = malloc((size_t)tw * th * 4);
    if (!depth || !thick || !scene || !rdepth || !rthick)
        goto done;
    vf_ssf_frame fr;
    vf_render_ssf_frame(rd, &fr);
    vf_ssf_splat_ref(&fr, &p[0][0], n, scene, rdepth, rthick);
    double dmax = 0, tmax = 0, tbig = 0;
    int covered = 0, near_cut = 0, dmis = 0, dmis_far = 0, tmis = 0, tmis_far = 0;
    for (int i = 0; i < W * H; i++) {
        covered += rdepth[i] > 0;
        near_cut += rdepth[i] > 0 && rdepth[i] <= test_cam.znear * 1.0001f;
        if ((depth[i] > 0) != (rdepth[i] > 0)) {
            dmis++;
            continue;
        }
        if (rdepth[i] > 0)
            dmax = fmax(dmax, fabs(depth[i] - rdepth[i]) / rdepth[i]);
    }
    for (uint32_t i = 0; i < tw * th; i++) {
        tbig = fmax(tbig, rthick[i]);
        double dt = fabs(thick[i] - rthick[i]);
        if (dt > TOL_SPLAT_THICK) {
            tmis++;
            /* a grazing ray: the GPU and the CPU differ on one sphere's tiny chord */
            tmis_far += dt > TOL_SPLAT_EDGE;
            continue;
        }
        tmax = fmax(tmax, dt);
    }
    dmis_far = 0;
    for (int i = 0; i < W * H; i++) /* a coverage difference must sit on a thin chord */
        if ((depth[i] > 0) != (rdepth[i] > 0) && !half && fmax(thick[i], rthick[i]) > TOL_SPLAT_EDGE)
            dmis_far++;
    printf("%s thickness: %d pixels covered (%d at the near plane), thickness up to %.3f m\n", half ? "half" : "full",
           covered, near_cut, tbig);
    printf("  depth: max relative |gpu - cpu| %.3g (tol %.1g), coverage differs at %d pixels (%d not grazing)\n", dmax,
           TOL_SPLAT_DEPTH_REL, dmis, dmis_far);
    printf("  thickness: max |gpu - cpu| %.3g m (tol %.1g), %d pixels beyond it (%d by more than %.2g m)\n", tmax,
           TOL_SPLAT_THICK, tmis, tmis_far, TOL_SPLAT_EDGE);
    CHECK(covered > 1000);
    CHECK(near_cut > 100);
    CHECK(tbig > 0.4); /* the coincident pair: two chords of 0.24 m */
    CHECK_LE(dmax, TOL_SPLAT_DEPTH_REL);
    CHECK_LE(dmis, 8);
    CHECK_EQ_INT(dmis_far, 0);
    CHECK_LE(tmis, 8);
    CHECK_EQ_INT(tmis_far, 0);
done:
    free(depth);
    free(thick);
    free(scene);
    free(rdepth);
    free(rthick);
    vf_image_destroy(&target);
    vf_renderer_destroy(&rd);
    vf_buffer_destroy(&pos);
}

static void test_splat(vf_gpu *gpu)
{
    vf_test_section("compute splat vs the CPU reference: overlaps, the near plane, off screen, behind, NaN");
    splat_case(gpu, false);
    splat_case(gpu, true);
}

/* Renders the same frame on both paths; returns both pictures. */
static bool both_paths(vf_gpu *gpu, vf_render_ssf_desc *d, uint32_t w, uint32_t h, const vf_ssf_foam *foam,
                       uint8_t **cs, uint8_t **rs)
{
    *cs = *rs = NULL;
    vf_image *target = make_target(gpu, w, h);
    bool ok = target != NULL;
    for (int k = 0; k < 2 && ok; k++) {
        d->path = k ? VF_RENDER_PATH_RASTER : VF_RENDER_PATH_COMPUTE;
        vf_renderer *rd = NULL;
        ok = CHECK(vf_render_ssf_create(gpu, d, &rd) == VF_OK) && CHECK((int)rd->path == (int)d->path);
        if (ok && foam)
            ok = CHECK(vf_render_ssf_set_foam(rd, foam) == VF_OK);
        if (ok && (ok = render(gpu, rd, target, NULL)))
            *(k ? rs : cs) = read_rgba(target);
        vf_renderer_destroy(&rd);
    }
    vf_image_destroy(&target);
    return ok && *cs && *rs;
}

#define PATHS_PSNR_MIN 40.0 /* dB: the compute path's picture against the raster path's */

static double psnr_of(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, const char *what)
{
    vf_compare_stats st;
    if (!CHECK(vf_compare_images(a, b, w, h, 2, &st) == VF_OK))
        return 0;
    printf("%-44s compute vs raster: PSNR %6.2f dB (min %.0f)  max %3u levels  %.3f %% differ by > 2\n", what,
           st.psnr, PATHS_PSNR_MIN, st.max_abs, 100 * st.differ_share);
    return st.psnr;
}

/* Diffuse particles for the foam layer: spray, foam and bubbles over the
 * scene particles' pool, some under its surface, one dying. */
static float *foam_particles(uint32_t n, float *vel)
{
    float *p = malloc((size_t)n * 16);
    uint64_t seed = 4242;
    for (uint32_t i = 0; p && i < n; i++) {
        p[4 * i + 0] = 0.1f + 0.8f * (float)(rng(&seed) % 1000) / 1000.0f;
        p[4 * i + 1] = 0.05f + 0.5f * (float)(rng(&seed) % 1000) / 1000.0f;
        p[4 * i + 2] = 0.1f + 0.8f * (float)(rng(&seed) % 1000) / 1000.0f;
        p[4 * i + 3] = i % 7 ? 2.0f : 0.2f; /* lifetime left: a few fading out */
        vel[4 * i + 0] = vel[4 * i + 1] = vel[4 * i + 2] = 0.0f;
        vel[4 * i + 3] = (float)(i % 3); /* VF_FOAM_SPRAY, VF_FOAM_FOAM, VF_FOAM_BUBBLE */
    }
    return p;
}

static void test_paths_picture(vf_gpu *gpu)
{
    vf_test_section("the compute path's picture against the raster path's (fluid, foam, half thickness, no particles)");
    uint32_t count = 0;
    float *p = scene_particles(&count, SCENE_SPACING);
    vf_buffer *pos = p ? make_buffer(gpu, p, (size_t)count * 16, "test scene particles") : NULL;
    const uint32_t nf = 3000;
    float *fvel = malloc((size_t)nf * 16), *fpos = fvel ? foam_particles(nf, fvel) : NULL;
    uint32_t args[16] = {0};
    args[VF_FOAM_DRAW_OFFSET / 4 + 0] = 6;
    args[VF_FOAM_DRAW_OFFSET / 4 + 1] = nf - 100; /* the live ones: the rest must not show */
    vf_buffer *bfp = fpos ? make_buffer(gpu, fpos, (size_t)nf * 16, "test foam positions") : NULL;
    vf_buffer *bfv = fpos ? make_buffer(gpu, fvel, (size_t)nf * 16, "test foam velocities") : NULL;
    vf_buffer *bfa = NULL; /* the raster layer's indirect draw reads it too */
    vf_buffer_desc fad = {.size = sizeof args, .name = "test foam state",
                          .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    if (CHECK(vf_buffer_create(gpu, &fad, &bfa) == VF_OK) && !CHECK(vf_buffer_write(bfa, 0, args, sizeof args) == VF_OK))
        vf_buffer_destroy(&bfa);
    if (!pos || !bfp || !bfv || !bfa)
        goto done;
    vf_render_ssf_desc d = {
        .width = GW, .height = GH, .particles = {.positions = pos, .count = count},
        .box_min = {0, 0, 0}, .box_max = {1, 1, 1}, .camera = scene_cam,
        .options = {.radius = SCENE_RADIUS}, .name = "test paths",
    };
    vf_ssf_foam foam = {.positions = bfp, .velocities = bfv, .draw_args = bfa, .draw_offset = VF_FOAM_DRAW_OFFSET};
    struct {
        const char *what;
        vf_ssf_options o;
        const vf_ssf_foam *foam;
        uint32_t count;
    } cases[] = {
        {"fluid", {.radius = SCENE_RADIUS}, NULL, count},
        {"fluid and foam", {.radius = SCENE_RADIUS}, &foam, count},
        {"half-resolution thickness, narrow-range", {.radius = SCENE_RADIUS, .thickness_half = true,
                                                     .filter = VF_SSF_FILTER_NARROW_RANGE}, NULL, count},
        {"no particles (the scene alone)", {.radius = SCENE_RADIUS}, NULL, 0},
        {"debug view: thickness", {.radius = SCENE_RADIUS, .debug_view = VF_SSF_DEBUG_THICKNESS}, NULL, count},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t *cs = NULL, *rs = NULL;
        d.options = cases[i].o;
        d.particles.count = cases[i].count;
        if (both_paths(gpu, &d, GW, GH, cases[i].foam, &cs, &rs)) {
            char name[64];
            snprintf(name, sizeof name, "paths_%zu_compute.png", i);
            vf_png_write(vf_test_path(name), cs, GW, GH);
            snprintf(name, sizeof name, "paths_%zu_raster.png", i);
            vf_png_write(vf_test_path(name), rs, GW, GH);
            CHECK_MSG(psnr_of(cs, rs, GW, GH, cases[i].what) >= PATHS_PSNR_MIN, "%s: the paths agree", cases[i].what);
        }
        free(cs);
        free(rs);
    }
done:
    free(p);
    free(fpos);
    free(fvel);
    vf_buffer_destroy(&pos);
    vf_buffer_destroy(&bfp);
    vf_buffer_destroy(&bfv);
    vf_buffer_destroy(&bfa);
}

/* Resizes on the compute path (the accumulators and storage images follow)
 * and a BGRA swapchain-like target without a storage view (written through
 * one copy, bytes swizzled): the same picture as the RGBA capture target. */
static void test_compute_resize_and_copy(vf_gpu *gpu)
{
    vf_test_section("compute path: resize, and a BGRA target written through one copy");
    uint32_t count = 0;
    float *p = scene_particles(&count, SCENE_SPACING);
    vf_buffer *pos = p ? make_buffer(gpu, p, (size_t)count * 16, "test scene particles") : NULL;
    vf_renderer *rd = NULL, *rb = NULL;
    vf_image *small = NULL, *big = NULL, *bgra = NULL;
    uint8_t *a = NULL, *b = NULL, *c = NULL;
    vf_render_ssf_desc d = {.width = W, .height = H, .particles = {.positions = pos, .count = count},
                            .box_min = {0, 0, 0}, .box_max = {1, 1, 1}, .camera = scene_cam,
                            .options = {.radius = SCENE_RADIUS}, .path = VF_RENDER_PATH_COMPUTE};
    if (!pos || !CHECK(vf_render_ssf_create(gpu, &d, &rd) == VF_OK))
        goto done;
    small = make_target(gpu, W, H);
    big = make_target(gpu, 2 * W + 6, 2 * H + 2);
    if (!small || !big || !render(gpu, rd, small, NULL))
        goto done;
    if (!CHECK(rd->vt->resize(rd, 2 * W + 6, 2 * H + 2) == VF_OK))
        goto done;
    CHECK_EQ_INT(vf_render_ssf_image(rd, VF_SSF_IMAGE_DEPTH)->width, 2 * W + 6);
    CHECK_EQ_INT(vf_render_ssf_image(rd, VF_SSF_IMAGE_THICKNESS)->height, 2 * H + 2);
    CHECK(rd->vt->record(rd, VK_NULL_HANDLE, small, NULL) == VF_ERR_INVALID_ARG); /* wrong size refused */
    if (!render(gpu, rd, big, NULL) || !(a = read_rgba(big)))
        goto done;
    /* the same size on the raster path */
    d.width = 2 * W + 6;
    d.height = 2 * H + 2;
    d.path = VF_RENDER_PATH_RASTER;
    if (CHECK(vf_render_ssf_create(gpu, &d, &rb) == VF_OK) && render(gpu, rb, big, NULL) && (b = read_rgba(big)))
        CHECK(psnr_of(a, b, d.width, d.height, "after a resize to 262x194") >= PATHS_PSNR_MIN);
    /* a BGRA sRGB target with transfer-destination usage only */
    vf_renderer_destroy(&rb);
    d.path = VF_RENDER_PATH_COMPUTE;
    d.format = VK_FORMAT_B8G8R8A8_SRGB;
    vf_image_desc id = {.width = d.width, .height = d.height, .format = VK_FORMAT_B8G8R8A8_SRGB,
                        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                 VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                        .name = "test bgra target"};
    if (!CHECK(vf_image_create(gpu, &id, &bgra) == VF_OK) || !CHECK(bgra->storage == NULL) ||
        !CHECK(vf_render_ssf_create(gpu, &d, &rb) == VF_OK) || !render(gpu, rb, bgra, NULL) || !(c = read_rgba(bgra)))
        goto done;
    CHECK(bgra->layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL); /* the record() contract */
    int worst = 0;
    for (size_t i = 0; i < (size_t)d.width * d.height; i++)
        for (int k = 0; k < 3; k++)
            worst = abs((int)c[4 * i + 2 - k] - (int)a[4 * i + k]) > worst ? abs((int)c[4 * i + 2 - k] - (int)a[4 * i + k])
                                                                         : worst;
    printf("BGRA target through one copy vs the RGBA target: largest difference %d levels\n", worst);
    CHECK_EQ_INT(worst, 0);
done:
    free(p);
    free(a);
    free(b);
    free(c);
    vf_image_destroy(&small);
    vf_image_destroy(&big);
    vf_image_destroy(&bgra);
    vf_renderer_destroy(&rd);
    vf_renderer_destroy(&rb);
    vf_buffer_destroy(&pos);
}

static void test_camera(void)
{
    vf_test_section("camera: look-at and perspective (column-major, Vulkan clip space)");
    vf_mat4 view, proj;
    vf_camera_matrices(&test_cam, 4.0f / 3.0f, &view, &proj);
    float o[4], t[4], up[4], e[3] = {test_cam.eye[0], test_cam.eye[1], test_cam.eye[2]};
    vf_mat4_transform(&view, e, 1.0f, o);
    vf_mat4_transform(&view, test_cam.target, 1.0f, t);
    float dist = sqrtf(t[2] * t[2]), above[3] = {test_cam.target[0], test_cam.target[1] + 0.1f, test_cam.target[2]};
    vf_mat4_transform(&view, above, 1.0f, up);
    CHECK_NEAR(o[0], 0, 1e-6);
    CHECK_NEAR(o[1], 0, 1e-6);
    CHECK_NEAR(o[2], 0, 1e-6);
    CHECK_NEAR(t[0], 0, 1e-6); /* the target lies on the -z axis */
    CHECK_NEAR(t[1], 0, 1e-6);
    CHECK(t[2] < -0.5f && dist > 0.5f);
    CHECK(up[1] > 0.05f); /* world up stays up */
    /* Near plane -> depth 0, far plane -> depth 1, +y view -> up the screen (clip y < 0). */
    float pn[3] = {0, 0, -test_cam.znear}, pf[3] = {0, 0, -test_cam.zfar}, py[3] = {0, 1, -2}, c[4];
    vf_mat4_transform(&proj, pn, 1.0f, c);
    CHECK_NEAR(c[2] / c[3], 0.0, 1e-6);
    vf_mat4_transform(&proj, pf, 1.0f, c);
    CHECK_NEAR(c[2] / c[3], 1.0, 1e-6);
    vf_mat4_transform(&proj, py, 1.0f, c);
    CHECK(c[1] / c[3] < 0.0f);
    CHECK_NEAR(c[1] / c[3], -1.0 / (2.0 * tan(0.5 * test_cam.fov_y)), 1e-6);
    /* The rigid inverse undoes the view. */
    vf_mat4 inv = vf_mat4_rigid_inverse(&view), id = vf_mat4_mul(&inv, &view);
    double err = 0;
    for (int i = 0; i < 16; i++)
        err = fmax(err, fabs(id.m[i] - (i % 5 == 0 ? 1.0 : 0.0)));
    CHECK_NEAR(err, 0, 1e-6);
    /* The box camera sees all eight corners of the box. */
    float bmin[3] = {0, 0, 0}, bmax[3] = {1, 1, 1};
    vf_camera bc = vf_camera_for_box(bmin, bmax, 16.0f / 9.0f);
    vf_camera_matrices(&bc, 16.0f / 9.0f, &view, &proj);
    vf_mat4 vp = vf_mat4_mul(&proj, &view);
    int inside = 0;
    for (int k = 0; k < 8; k++) {
        float p[3] = {(float)(k & 1), (float)((k >> 1) & 1), (float)((k >> 2) & 1)};
        vf_mat4_transform(&vp, p, 1.0f, c);
        inside += fabsf(c[0] / c[3]) < 1 && fabsf(c[1] / c[3]) < 1 && c[2] / c[3] > 0 && c[2] / c[3] < 1;
    }
    CHECK_EQ_INT(inside, 8);
    printf("camera checks done (identity error %.2g)\n", err);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    vf_profiler *prof = NULL;
    CHECK(vf_profiler_create(gpu, NULL, &prof) == VF_OK);
    double t0 = now_s();
    test_camera();
    /* the analytic checks on both paths */
    for (int k = 0; k < 2; k++) {
        g_path = k ? VF_RENDER_PATH_RASTER : VF_RENDER_PATH_COMPUTE;
        test_depth_sphere(gpu);
        test_thickness(gpu);
    }
    g_path = VF_RENDER_PATH_AUTO; /* the device's path from here on */
    test_splat(gpu);
    test_paths_picture(gpu);
    test_compute_resize_and_copy(gpu);
    test_filters(gpu);
    if (prof)
        test_composite_golden(gpu, prof);
    test_sim_sync_and_pack(gpu);
    test_unorm_target(gpu);
    test_particles_view_and_resize(gpu);
    printf("ssf tests took %.1f s\n", now_s() - t0);
    vf_profiler_destroy(&prof);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
