/* The height-field surface view's compute path (render_surface_compute.h):
 *   - its rays' hits against the CPU reference (render_surface_ref.h: the
 *     corner pass's vertices, then every triangle in double precision) on a
 *     pool with a beach (dry cells: rays through the discarded water onto
 *     the bed) from a steep, the default and a grazing camera: the same kind
 *     (water, bed, none) for at least 99.5 % of the pixels and the same
 *     distance within 1e-4 of it plus 1 mm where both hit;
 *   - its picture against the raster path's: PSNR >= 40 dB on the pool, the
 *     boat, the river and the terrain;
 *   - a resize (the output image follows: the picture of a renderer made
 *     at the new size) and a BGRA target without a storage view (written
 *     through one copy): the same picture;
 *   - the march without subgroup quad operations (as on devices without
 *     them): within 40 dB of the one with them.
 * Validation on. The PNGs are left in the scratch folder. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "capture.h"
#include "compare.h"
#include "gpu_cmd.h"
#include "png_io.h"
#include "render_registry.h"
#include "render_surface.h"
#include "render_surface_ref.h"
#include "scene_file.h"
#include "scenes.h"
#include "solver_height.h"
#include "testlib.h"

#define PSNR_MIN 40.0     /* dB: the compute path's picture against the raster path's */
#define KIND_SHARE 0.995  /* rays whose hit kind must match the reference */
#define T_REL 1e-4        /* hit distance tolerance: relative part ... */
#define T_ABS 1e-3        /* ... plus metres */


static void save(const char *name, const uint8_t *px, uint32_t w, uint32_t h)
{
    vf_png_write(vf_test_path(name), px, w, h);
}

/* ------------------------------------------------------------------ hits */

/* A 4.8 m x 3.2 m pool whose bed rises to a beach above the water, with rain. */
static vf_solver *make_beach(vf_gpu *gpu)
{
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = 48;
    d.ny = 32;
    d.dx = 0.1;
    d.bed_shape = VF_HEIGHT_BED_BEACH;
    d.rain = 30;
    d.leaves = 0;
    d.ducks = 0;
    return vf_test_height_solver(gpu, &d);
}

typedef struct hit_counts {
    uint32_t rays, kind_same, water, bed, none, grazing, grazing_water, steep, dry_bed, t_bad;
    double worst;
} hit_counts;

/* Compares every pixel's ray of the last frame (hits) with the reference. */
static void compare_hits(const vf_surface_frame *f, const vf_surface_corner *corners, const float *hits, uint32_t n,
                         const float *eta, const float *bed, hit_counts *c)
{
    double lx = f->nx * (double)f->grid[0], ly = f->ny * (double)f->grid[0];
    for (uint32_t i = 0; i < n; i++) {
        const float *h = &hits[8 * i];
        double rd[3] = {h[0], h[1], h[2]}, ro[3] = {h[4], h[5], h[6]}, t;
        uint32_t kind = vf_surface_hit_ref(f, corners, ro, rd, &t), gpu_kind = (uint32_t)h[7];
        c->rays++;
        c->grazing += fabs(rd[1]) < 0.25;
        c->steep += fabs(rd[1]) > 0.85;
        c->water += kind == VF_SURFACE_HIT_WATER;
        c->grazing_water += fabs(rd[1]) < 0.25 && kind == VF_SURFACE_HIT_WATER;
        c->none += kind == VF_SURFACE_HIT_NONE;
        c->bed += kind == VF_SURFACE_HIT_BED;
        if (kind == VF_SURFACE_HIT_BED) {
            /* on the bed inside the domain where the cell is dry: the ray
             * passed the water mesh's discarded triangles */
            double x = ro[0] + t * rd[0], y = ro[2] + t * rd[2];
            if (x > 0 && y > 0 && x < lx && y < ly) {
                uint32_t ci = (uint32_t)(y / f->grid[0]) * f->nx + (uint32_t)(x / f->grid[0]);
                c->dry_bed += eta[ci] - bed[ci] <= 1e-4f;
            }
        }
        if (kind != gpu_kind)
            continue;
        c->kind_same++;
        if (kind == VF_SURFACE_HIT_NONE)
            continue;
        double err = fabs(h[3] - t) / (T_REL * t + T_ABS);
        c->worst = fmax(c->worst, err);
        c->t_bad += err > 1.0;
    }
}

/* Reads n floats of a solver buffer; NULL on failure (freed by the caller). */
static float *read_floats(vf_buffer *b, size_t n)
{
    float *p = malloc(n * sizeof *p);
    if (p && !CHECK(vf_buffer_read(b, 0, p, n * sizeof *p) == VF_OK)) {
        free(p);
        return NULL;
    }
    return p;
}

static void hits_for(vf_gpu *gpu, vf_solver *s, vf_renderer *r, vf_capture *cap, vf_buffer *hb, const char *what,
                     hit_counts *c)
{
    uint32_t w = r->width, h = r->height;
    const uint8_t *px = vf_test_render_frames(gpu, s, r, cap, 0);
    vf_surface_frame f;
    vf_height_state st;
    vf_height_get_state(s, &st);
    size_t cells = (size_t)st.nx * st.ny;
    float *hits = NULL, *eta = NULL, *bed = NULL;
    uint32_t *flags = NULL;
    vf_surface_corner *corners = NULL;
    if (!px || !CHECK(vf_render_surface_frame(r, &f)))
        return;
    char name[64];
    snprintf(name, sizeof name, "hits_%s.png", what);
    save(name, px, w, h);
    size_t nc = (size_t)(f.mesh_x + 2 * VF_SURFACE_RING) * (f.mesh_y + 2 * VF_SURFACE_RING);
    hits = read_floats(hb, (size_t)w * h * 8);
    eta = read_floats(st.eta, cells);
    bed = read_floats(st.bed, cells);
    flags = (uint32_t *)read_floats(st.flags, cells);
    corners = calloc(nc, sizeof *corners);
    if (hits && eta && bed && flags && corners) {
        vf_surface_corners_ref(&f, eta, bed, flags, corners);
        hit_counts one = {0};
        compare_hits(&f, corners, hits, w * h, eta, bed, &one);
        printf("%-8s %5u rays: kind as the reference %.2f %% (water %u, bed %u, dry bed %u, none %u; grazing %u, "
               "steep %u), worst distance error %.3f of the tolerance\n",
               what, one.rays, 100.0 * one.kind_same / one.rays, one.water, one.bed, one.dry_bed, one.none,
               one.grazing, one.steep, one.worst);
        CHECK_MSG(one.kind_same >= KIND_SHARE * one.rays, "%s: hit kinds as the reference", what);
        CHECK_MSG(one.t_bad == 0, "%s: %u hit distances off by more than %g t + %g m", what, one.t_bad, T_REL, T_ABS);
        c->rays += one.rays;
        c->water += one.water;
        c->bed += one.bed;
        c->none += one.none;
        c->grazing += one.grazing;
        c->grazing_water += one.grazing_water;
        c->steep += one.steep;
        c->dry_bed += one.dry_bed;
    }
    free(hits);
    free(eta);
    free(bed);
    free(flags);
    free(corners);
}

static void test_hits(vf_gpu *gpu)
{
    vf_test_section("the march's hits against the CPU reference (corners, every triangle in double precision)");
    const uint32_t w = 96, h = 64;
    vf_solver *s = make_beach(gpu);
    vf_renderer *r = NULL;
    vf_capture *cap = NULL;
    vf_buffer *hb = NULL;
    vf_capture_desc cd = {.width = w, .height = h};
    vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .view = VF_SURFACE_VIEW_3D,
                                 .path = VF_RENDER_PATH_COMPUTE, .caustics = -1};
    vf_buffer_desc bd = {.size = (VkDeviceSize)w * h * 32, .name = "test surface hits"};
    if (!s || !CHECK(vf_render_surface_create(gpu, &rd, &r) == VF_OK) || !CHECK(r->path == VF_RENDER_PATH_COMPUTE) ||
        !CHECK(vf_capture_create(gpu, &cd, &cap) == VF_OK) || !CHECK(vf_buffer_create(gpu, &bd, &hb) == VF_OK) ||
        !CHECK(vf_render_surface_debug_hits(r, hb)))
        goto done;
    vf_test_render_frames(gpu, s, r, cap, 40); /* waves from the rain */
    hit_counts c = {0};
    vf_camera cam;
    r->vt->get_camera(r, &cam);
    hits_for(gpu, s, r, cap, hb, "default", &c);
    vf_camera steep = cam, grazing = cam;
    float mid[3] = {cam.target[0], cam.target[1], cam.target[2]};
    steep.eye[0] = mid[0] + 0.05f;
    steep.eye[1] = 1.1f;
    steep.eye[2] = mid[2] + 0.1f;
    grazing.eye[0] = 0.08f; /* inside the rim, just above it (world units: the longer side is 1) */
    grazing.eye[1] = 0.035f;
    grazing.eye[2] = 0.55f;
    r->vt->set_camera(r, &steep);
    hits_for(gpu, s, r, cap, hb, "steep", &c);
    r->vt->set_camera(r, &grazing);
    hits_for(gpu, s, r, cap, hb, "grazing", &c);
    CHECK_MSG(c.water > 1000 && c.bed > 200 && c.none > 200 && c.dry_bed > 50 && c.grazing > 1000 && c.steep > 1000 &&
                  c.grazing_water > 500,
              "every kind of ray occurs: water %u, bed %u (dry %u), none %u, grazing %u (on water %u), steep %u", c.water,
              c.bed, c.dry_bed, c.none, c.grazing, c.grazing_water, c.steep);
done:
    if (r)
        vf_render_surface_debug_hits(r, NULL);
    vf_buffer_destroy(&hb);
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&r);
    vf_solver_destroy(&s);
}

/* ------------------------------------------------------------------ pictures */

/* A built-in scene's solver with `sets` applied (NULL-terminated), after
 * `frames` frames; NULL on failure (a check). */
static vf_solver *scene_solver(vf_gpu *gpu, const char *name, const char *const *sets)
{
    const vf_scene_info *info = vf_scene_find(name);
    vf_scene_loaded sc = {0};
    char err[512] = "";
    vf_solver *s = NULL;
    vf_result r = info ? vf_scene_load_builtin(info, &sc, err, sizeof err) : VF_ERR_INVALID_ARG;
    for (int i = 0; r == VF_OK && sets && sets[i]; i++)
        r = vf_params_set(info->params, info->param_count, sc.desc, sets[i], err, sizeof err);
    if (r == VF_OK && info->validate)
        r = info->validate(info, sc.desc, NULL, err, sizeof err);
    if (r == VF_OK)
        r = info->create(info, gpu, sc.desc, &s, NULL, err, sizeof err);
    CHECK_MSG(r == VF_OK, "scene %s: %s (%s)", name, vf_result_message(r), err);
    vf_scene_loaded_free(&sc);
    return s;
}

/* The scene drawn on both paths after `frames` frames (the raster path's
 * first, then the compute path's of the same state): their PSNR. */
static void test_scene_paths(vf_gpu *gpu, const char *name, const char *const *sets, int frames)
{
    const uint32_t w = 320, h = 180;
    vf_solver *s = scene_solver(gpu, name, sets);
    vf_renderer *rr = NULL, *rc = NULL;
    vf_capture *cap = NULL;
    uint8_t *raster = NULL;
    vf_render_options ro = {.width = w, .height = h, .path = VF_RENDER_PATH_RASTER};
    vf_capture_desc cd = {.width = w, .height = h};
    char err[512] = "";
    if (!s || !CHECK(vf_render_create_for(gpu, s, &ro, &rr, err, sizeof err) == VF_OK) ||
        !CHECK(vf_capture_create(gpu, &cd, &cap) == VF_OK))
        goto done;
    ro.path = VF_RENDER_PATH_COMPUTE;
    if (!CHECK(vf_render_create_for(gpu, s, &ro, &rc, err, sizeof err) == VF_OK))
        goto done;
    CHECK(rr->path == VF_RENDER_PATH_RASTER && rc->path == VF_RENDER_PATH_COMPUTE);
    const uint8_t *a = vf_test_render_frames(gpu, s, rr, cap, frames);
    if (!a || !(raster = malloc((size_t)w * h * 4)))
        goto done;
    memcpy(raster, a, (size_t)w * h * 4);
    const uint8_t *b = vf_test_render_frames(gpu, s, rc, cap, 0);
    if (!b)
        goto done;
    char n1[64], n2[64];
    snprintf(n1, sizeof n1, "%s_raster.png", name);
    snprintf(n2, sizeof n2, "%s_compute.png", name);
    save(n1, raster, w, h);
    save(n2, b, w, h);
    vf_compare_stats st;
    if (CHECK(vf_compare_images(raster, b, w, h, 2, &st) == VF_OK)) {
        printf("%-8s compute vs raster: PSNR %6.2f dB (min %.0f)  SSIM %.4f  max %3u levels  %.2f %% differ by > 2\n",
               name, st.psnr, PSNR_MIN, st.ssim, st.max_abs, 100 * st.differ_share);
        CHECK_MSG(st.psnr >= PSNR_MIN, "%s: the compute path's picture is the raster path's", name);
    }
done:
    free(raster);
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&rr);
    vf_renderer_destroy(&rc);
    vf_solver_destroy(&s);
}

/* The march without subgroup quad operations (devices without them in
 * compute shaders): the same picture as with them. */
static void test_no_quad(vf_gpu *gpu)
{
    vf_test_section("the march without subgroup quad operations: the picture of the one with them");
    const uint32_t w = 192, h = 108;
    vf_solver *s = make_beach(gpu);
    vf_renderer *rq = NULL, *rn = NULL;
    vf_capture *cap = NULL;
    uint8_t *a = NULL;
    vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .path = VF_RENDER_PATH_COMPUTE};
    vf_capture_desc cd = {.width = w, .height = h};
    if (!s || !CHECK(vf_render_surface_create(gpu, &rd, &rq) == VF_OK) ||
        !CHECK(vf_capture_create(gpu, &cd, &cap) == VF_OK))
        goto done;
    rd.no_quad = true;
    const uint8_t *px = vf_test_render_frames(gpu, s, rq, cap, 20);
    if (!px || !(a = malloc((size_t)w * h * 4)) || !CHECK(vf_render_surface_create(gpu, &rd, &rn) == VF_OK))
        goto done;
    memcpy(a, px, (size_t)w * h * 4);
    vf_compare_stats st;
    if ((px = vf_test_render_frames(gpu, s, rn, cap, 0)) && CHECK(vf_compare_images(a, px, w, h, 2, &st) == VF_OK)) {
        printf("%s vs neighbours' normals evaluated per pixel: PSNR %.2f dB (min %.0f)\n",
               gpu->info.subgroup_quad ? "quad operations" : "(no quad operations here) the same path", st.psnr,
               PSNR_MIN);
        CHECK(st.psnr >= PSNR_MIN);
    }
done:
    free(a);
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&rq);
    vf_renderer_destroy(&rn);
    vf_solver_destroy(&s);
}

static void test_paths(void)
{
    vf_gpu *gpu = vf_test_gpu();
    if (!gpu)
        return;
    vf_test_section("the compute path's picture against the raster path's on the height and terrain scenes");
    const char *pool[] = {"nx=96", NULL}, *boat[] = {"nx=160", NULL}, *terrain[] = {"nx=96", NULL};
    test_scene_paths(gpu, "pool", pool, 20);
    test_scene_paths(gpu, "boat", boat, 20);
    test_scene_paths(gpu, "river", NULL, 8);
    test_scene_paths(gpu, "terrain", terrain, 20);
    vf_test_gpu_done(&gpu);
}

/* ------------------------------------------------------------------ resize and copy */

static void test_resize_and_copy(vf_gpu *gpu)
{
    vf_test_section("compute path: resize (the output image follows), and a BGRA target written through one copy");
    vf_solver *s = make_beach(gpu);
    vf_renderer *rc = NULL, *rr = NULL, *rb = NULL;
    vf_capture *cap = NULL, *cap2 = NULL;
    vf_image *bgra = NULL;
    uint8_t *a = NULL, *c = NULL;
    const uint32_t w = 160, h = 90, w2 = 224, h2 = 126; /* one aspect: one default camera */
    vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .path = VF_RENDER_PATH_COMPUTE};
    vf_capture_desc cd = {.width = w2, .height = h2};
    if (!s || !CHECK(vf_render_surface_create(gpu, &rd, &rc) == VF_OK) ||
        !CHECK(vf_capture_create(gpu, &cd, &cap) == VF_OK) || !CHECK(rc->vt->resize(rc, w2, h2) == VF_OK))
        goto done;
    const uint8_t *px = vf_test_render_frames(gpu, s, rc, cap, 20);
    if (!px || !(a = malloc((size_t)w2 * h2 * 4)))
        goto done;
    memcpy(a, px, (size_t)w2 * h2 * 4);
    /* the same size from the start: the same picture */
    rd.width = w2;
    rd.height = h2;
    if (CHECK(vf_render_surface_create(gpu, &rd, &rr) == VF_OK) && (px = vf_test_render_frames(gpu, s, rr, cap, 0))) {
        int worst = 0;
        for (size_t i = 0; i < (size_t)w2 * h2 * 4; i++)
            worst = abs((int)px[i] - (int)a[i]) > worst ? abs((int)px[i] - (int)a[i]) : worst;
        printf("resized to %ux%u: largest difference to a renderer made at that size %d levels (max 1)\n", w2, h2, worst);
        CHECK(worst <= 1);
    }
    /* a BGRA sRGB target with transfer-destination usage only (a swapchain's) */
    rd.path = VF_RENDER_PATH_COMPUTE;
    rd.format = VK_FORMAT_B8G8R8A8_SRGB;
    vf_image_desc id = {.width = w2, .height = h2, .format = VK_FORMAT_B8G8R8A8_SRGB,
                        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                 VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                        .name = "test bgra target"};
    VkCommandBuffer cmd;
    if (!CHECK(vf_image_create(gpu, &id, &bgra) == VF_OK) || !CHECK(bgra->storage == NULL) ||
        !CHECK(vf_render_surface_create(gpu, &rd, &rb) == VF_OK) || !CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        goto done;
    vf_render_barrier_after_sim(cmd);
    vf_render_prepare_target(cmd, bgra);
    CHECK(rb->vt->record(rb, cmd, bgra, NULL) == VF_OK);
    if (!CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK) || !(c = malloc((size_t)w2 * h2 * 4)) ||
        !CHECK(vf_image_read(bgra, c, (size_t)w2 * h2 * 4) == VF_OK))
        goto done;
    CHECK(bgra->layout == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL); /* the record() contract */
    int worst = 0;
    for (size_t i = 0; i < (size_t)w2 * h2; i++)
        for (int k = 0; k < 3; k++) {
            int d = abs((int)c[4 * i + 2 - k] - (int)a[4 * i + k]);
            worst = d > worst ? d : worst;
        }
    printf("BGRA target through the copy: largest difference to the RGBA target %d levels (max 1)\n", worst);
    CHECK(worst <= 1);
done:
    free(a);
    free(c);
    vf_image_destroy(&bgra);
    vf_capture_destroy(&cap);
    vf_capture_destroy(&cap2);
    vf_renderer_destroy(&rc);
    vf_renderer_destroy(&rr);
    vf_renderer_destroy(&rb);
    vf_solver_destroy(&s);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    if (!gpu)
        return 77;
    test_hits(gpu);
    test_resize_and_copy(gpu);
    test_no_quad(gpu);
    vf_test_gpu_done(&gpu);
    test_paths();
    return vf_test_finish();
}
