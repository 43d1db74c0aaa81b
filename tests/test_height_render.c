/* Height-field water rendering: the 3D surface view of a pool with drops,
 * ducks and leaves is drawn offscreen (validation on) and is not blank (sky,
 * water and pool colours present, lots of distinct colours); the top-down
 * view of a known field shows yellow above rest, white at rest and blue
 * below; the river's dye shows on the water (and nothing like it without
 * dye); a click in the 3D view lands where the surface is drawn under the
 * pointer (pick rays against the projection); the pool's floor shows
 * caustics (and calm water is drawn the same with or without them); a
 * pointer drop leaves a visible ripple in the 3D view; `vkfluid capture` runs the renderer for the pool and the boat. The
 * PNGs are left in the scratch folder to look at. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "capture.h"
#include "gpu_cmd.h"
#include "png_io.h"
#include "render_surface.h"
#include "scenes_height.h"
#include "solver_height.h"
#include "testlib.h"

static vf_solver *make_pool(vf_gpu *gpu)
{
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = d.ny = 64;
    d.dx = 0.1;
    d.rain = 20;
    d.leaves = 6;
    d.ducks = 2;
    return vf_test_height_solver(gpu, &d);
}


/* The surface renderer of rd and a capture of its size (a check each);
 * false when either cannot be created. */
static bool open_view(vf_gpu *gpu, const vf_render_surface_desc *rd, vf_renderer **r, vf_capture **cap)
{
    vf_capture_desc cd = {.width = rd->width, .height = rd->height};
    return CHECK(vf_render_surface_create(gpu, rd, r) == VF_OK) && CHECK(vf_capture_create(gpu, &cd, cap) == VF_OK);
}

static void test_surface_view(vf_gpu *gpu)
{
    vf_test_section("3D surface view of a pool: not blank");
    const uint32_t w = 256, h = 160;
    vf_solver *s = make_pool(gpu);
    vf_renderer *r = NULL;
    vf_capture *cap = NULL;
    vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .view = VF_SURFACE_VIEW_3D};
    if (!s || !open_view(gpu, &rd, &r, &cap))
        goto done;
    /* the default camera is framed on the water: most of the image is pool */
    const uint8_t *px = vf_test_render_frames(gpu, s, r, cap, 30);
    if (!px)
        goto done;
    uint32_t framed = 0;
    for (uint32_t i = 0; i < w * h; i++)
        framed += px[4 * i + 2] > px[4 * i] + 30 && px[4 * i + 1] > px[4 * i] + 20;
    printf("default camera: water pixels %.1f%% (framed on the pool: > 50%%)\n", 100.0 * framed / (w * h));
    CHECK(framed > w * h / 2);
    /* then a camera from lower down that also sees the horizon, for the sky;
     * the second frame also has the renderer run after its own earlier reads */
    vf_camera horizon = {.eye = {0.5f, 0.62f, 1.62f}, .target = {0.5f, -0.03f, 0.45f}, .up = {0, 1, 0},
                         .fov_y = 0.9f, .znear = 0.005f, .zfar = 20.0f};
    r->vt->set_camera(r, &horizon);
    px = vf_test_render_frames(gpu, s, r, cap, 30);
    if (!px)
        goto done;
    CHECK(vf_capture_write_png(cap, vf_test_path("surface.png")) == VF_OK);
    double mean = 0, var = 0;
    uint32_t watery = 0, skyish = 0, wallish = 0, distinct = 0;
    static uint8_t seen[1 << 15];
    memset(seen, 0, sizeof seen);
    for (uint32_t i = 0; i < w * h; i++) {
        const uint8_t *p = px + 4 * i;
        double l = (p[0] + p[1] + p[2]) / 3.0;
        mean += l;
        var += l * l;
        if (p[2] > p[0] + 30 && p[1] > p[0] + 20)
            watery++; /* cyan-blue water */
        if (i < w * 8 && p[2] >= p[0])
            skyish++; /* the top rows: sky */
        if (abs(p[0] - p[1]) < 12 && abs(p[1] - p[2]) < 12 && p[0] > 60 && p[0] < 200)
            wallish++; /* grey pool rim */
        uint32_t key = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3);
        if (!seen[key]++)
            distinct++;
    }
    mean /= w * h;
    double sd = sqrt(var / (w * h) - mean * mean);
    printf("mean luminance %.1f, sd %.1f, water pixels %.1f%%, sky-coloured top rows %u of %u, grey %.1f%%, %u distinct "
           "colours (5 bits per channel)\n",
           mean, sd, 100.0 * watery / (w * h), skyish, w * 8, 100.0 * wallish / (w * h), distinct);
    CHECK(mean > 40 && mean < 240);
    CHECK(sd > 15);
    CHECK(watery > w * h / 10);
    CHECK(skyish > w * 4);
    CHECK(wallish > w * h / 50);
    CHECK(distinct > 200);
done:
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&r);
    vf_solver_destroy(&s);
}

static void test_top_view(vf_gpu *gpu)
{
    vf_test_section("top-down view: yellow above rest, white at rest, blue below");
    const uint32_t w = 128, h = 128;
    vf_solver *s = make_pool(gpu);
    vf_renderer *r = NULL;
    vf_capture *cap = NULL;
    vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .view = VF_SURFACE_VIEW_HEIGHT,
                                 .color_scale = 0.01f};
    if (!s || !open_view(gpu, &rd, &r, &cap))
        goto done;
    vf_height_state st;
    vf_height_get_state(s, &st);
    size_t n = (size_t)st.nx * st.ny;
    float *eta = malloc(n * 4);
    for (uint32_t j = 0; j < st.ny; j++)
        for (uint32_t i = 0; i < st.nx; i++)
            eta[(size_t)j * st.nx + i] = i < st.nx / 3 ? 0.02f : i < 2 * st.nx / 3 ? 0.0f : -0.02f;
    CHECK(vf_height_upload(s, eta, eta) == VF_OK);
    free(eta);
    const uint8_t *px = vf_test_render_frames(gpu, s, r, cap, 0);
    if (!px)
        goto done;
    CHECK(vf_capture_write_png(cap, vf_test_path("top.png")) == VF_OK);
    const uint8_t *l = px + 4 * (64 * w + 16), *m = px + 4 * (64 * w + 64), *rr = px + 4 * (64 * w + 112);
    printf("left (above rest) %u %u %u, middle (at rest) %u %u %u, right (below) %u %u %u\n", l[0], l[1], l[2], m[0], m[1],
           m[2], rr[0], rr[1], rr[2]);
    CHECK(l[0] > 200 && l[1] > 180 && l[2] < 80);  /* yellow */
    CHECK(m[0] > 240 && m[1] > 240 && m[2] > 240); /* white */
    CHECK(rr[2] > 200 && rr[0] < 100);            /* blue */
done:
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&r);
    vf_solver_destroy(&s);
}

static void test_capture_cli(void)
{
    vf_test_section("vkfluid capture with the surface renderer (validation on)");
    char out[4096];
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' capture boat --set nx=96 --set ny=32 --frames 40 --every 39 "
                                 "--size 240x120 --out '%s' --quiet",
                                 vf_t.vkfluid, vf_test_path("boat"));
    printf("%s", out);
    CHECK_EQ_INT(rc, 0);
    uint8_t *img = NULL;
    uint32_t iw = 0, ih = 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/frame_00039.png", vf_test_path("boat"));
    CHECK(vf_png_read(path, &img, &iw, &ih) == VF_OK);
    CHECK_EQ_INT(iw, 240);
    free(img);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture pool --frames 2 --size 64x64 --render pressure --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("pressure"));
    CHECK_EQ_INT(rc, 0);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture pool --frames 1 --render bogus --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("bogus"));
    printf("%s", out);
    CHECK_EQ_INT(rc, 2);
    CHECK_STR_CONTAINS(out, "surface|height|pressure");
}

/* Saturated pixels of a PNG (the max channel above 150 and 100 over the
 * min): dye stripes; the water, sky and pool are far less saturated. */
static int saturated_pixels(const char *path)
{
    uint8_t *img = NULL;
    uint32_t w = 0, h = 0;
    if (!CHECK(vf_png_read(path, &img, &w, &h) == VF_OK))
        return -1;
    int n = 0;
    for (size_t k = 0; k < (size_t)w * h; k++) {
        const uint8_t *p = img + 4 * k;
        int mx = p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
        int mn = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);
        n += mx > 150 && mx - mn > 100;
    }
    free(img);
    return n;
}

static void test_dye(void)
{
    vf_test_section("the river's dye drifts with the flow and is drawn on the water");
    char out[4096], path[4200];
    int count[2];
    for (int on = 0; on < 2; on++) {
        const char *dir = vf_test_path(on ? "dye_on" : "dye_off");
        int rc = vf_test_run_capture(out, sizeof out,
                                     "'%s' capture river --set nx=128 --set ny=32 --set dx=0.0625 "
                                     "--set flow_cells=24 --set leaves=0 --set dye=%s --frames 240 --every 239 --size 480x240 "
                                     "--out '%s' --quiet",
                                     vf_t.vkfluid, on ? "true" : "false", dir);
        CHECK_MSG(rc == 0, "capture river dye=%d: %s", on, out);
        snprintf(path, sizeof path, "%s/frame_00239.png", dir);
        count[on] = saturated_pixels(path);
    }
    printf("  saturated pixels after 4 s: dye=false %d, dye=true %d\n", count[0], count[1]);
    CHECK(count[0] >= 0 && count[0] < 20);
    CHECK(count[1] > 100);
}

static void test_pick(vf_gpu *gpu)
{
    vf_test_section("3D view: the pointer's pick ray lands on the domain point drawn under it");
    const uint32_t w = 160, h = 90;
    vf_solver *s = make_pool(gpu);
    vf_renderer *r = NULL;
    vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .view = VF_SURFACE_VIEW_3D};
    if (!s || !CHECK(vf_render_surface_create(gpu, &rd, &r) == VF_OK))
        goto done;
    if (!CHECK(r->vt->pick && r->vt->get_camera))
        goto done;
    vf_camera cam;
    r->vt->get_camera(r, &cam);
    cam.eye[0] += 0.3f; /* off the axis: x and y both matter */
    r->vt->set_camera(r, &cam);
    vf_mat4 view, proj;
    vf_camera_matrices(&cam, (float)w / (float)h, &view, &proj);
    vf_mat4 vp = vf_mat4_mul(&proj, &view);
    vf_height_state st;
    vf_height_get_state(s, &st);
    const float l = (float)(st.nx > st.ny ? st.nx : st.ny);
    const float pts[][2] = {{0.5f, 0.5f}, {0.2f, 0.8f}, {0.85f, 0.3f}, {0.1f, 0.1f}};
    double worst = 0;
    for (size_t k = 0; k < sizeof pts / sizeof pts[0]; k++) {
        /* the water at rest (world y = 0) under domain point pts[k]; its
         * screen position through the renderer's own matrices */
        float world[3] = {pts[k][0] * st.nx / l, 0.0f, pts[k][1] * st.ny / l}, clip[4];
        vf_mat4_transform(&vp, world, 1.0f, clip);
        float sx = clip[0] / clip[3], sy = -clip[1] / clip[3]; /* Vulkan clip y points down */
        float o[3], d[3], pos[2] = {-1, -1};
        vf_camera_pick_ray(&cam, (float)w / (float)h, sx, sy, o, d);
        CHECK(r->vt->pick(r, o, d, pos));
        double e = fmax(fabs(pos[0] - pts[k][0]), fabs(pos[1] - pts[k][1]));
        printf("  domain (%.2f, %.2f) drawn at screen (%+.3f, %+.3f): picked (%.4f, %.4f)\n", pts[k][0], pts[k][1], sx,
               sy, pos[0], pos[1]);
        worst = fmax(worst, e);
    }
    CHECK_LE(worst, 1e-4);
    /* a ray that points up misses the water */
    float o[3] = {0.5f, 1.0f, 0.5f}, up[3] = {0.0f, 1.0f, 0.0f}, pos[2];
    CHECK(!r->vt->pick(r, o, up, pos));
    vf_renderer_destroy(&r);
    /* the top-down views: no pick (the window position is the domain position) */
    rd.view = VF_SURFACE_VIEW_HEIGHT;
    if (CHECK(vf_render_surface_create(gpu, &rd, &r) == VF_OK)) {
        float dn[3] = {0.0f, -1.0f, 0.0f};
        CHECK(!r->vt->pick(r, o, dn, pos));
    }
done:
    vf_renderer_destroy(&r);
    vf_solver_destroy(&s);
}

/* Luminance (0..255) of pixel i of an RGBA8 image. */
static double luma_at(const uint8_t *px, uint32_t i)
{
    return 0.2126 * px[4 * i] + 0.7152 * px[4 * i + 1] + 0.0722 * px[4 * i + 2];
}

/* Mean and standard deviation of the luminance difference a - b over the
 * central half (width and height) of two w x h images; *most = the largest
 * |difference| anywhere. */
static void diff_stats(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, double *mean_abs, double *sd,
                       double *most)
{
    double s = 0, s2 = 0, sa = 0, n = 0;
    *most = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            double d = luma_at(a, y * w + x) - luma_at(b, y * w + x);
            *most = fmax(*most, fabs(d));
            if (y < h / 4 || y >= h - h / 4 || x < w / 4 || x >= w - w / 4)
                continue;
            s += d;
            s2 += d * d;
            sa += fabs(d);
            n++;
        }
    *mean_abs = sa / n;
    *sd = sqrt(fmax(s2 / n - (s / n) * (s / n), 0.0));
}

/* The pool scene's defaults (vkfluid capture pool), or calm water. */
static vf_solver *make_scene_pool(vf_gpu *gpu, bool calm)
{
    vf_height_scene_desc sd;
    vf_scene_defaults(&vf_height_scene_pool, &sd);
    vf_height_desc d = sd.solver;
    if (calm) {
        d.rain = 0;
        d.leaves = d.ducks = 0;
    }
    return vf_test_height_solver(gpu, &d);
}

/* Caustics on the pool floor: the pool scene at frame 60 drawn with and
 * without them differs in a pattern (bright focused rings, darker spread
 * light), and calm water is drawn the same either way (flat water spreads
 * the light evenly: intensity exactly 1). */
static void test_caustics_view(vf_gpu *gpu)
{
    vf_test_section("3D view: caustics on the pool floor");
    const uint32_t w = 240, h = 135;
    vf_capture_desc cd = {.width = w, .height = h};
    vf_capture *cap = NULL;
    uint8_t *on = malloc((size_t)w * h * 4);
    if (!CHECK(on) || !CHECK(vf_capture_create(gpu, &cd, &cap) == VF_OK))
        goto done;
    for (int calm = 0; calm < 2; calm++) {
        vf_solver *s = make_scene_pool(gpu, calm);
        vf_renderer *r_on = NULL, *r_off = NULL;
        vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .view = VF_SURFACE_VIEW_3D};
        vf_render_surface_desc rd_off = rd;
        rd_off.caustics = -1;
        if (s && CHECK(vf_render_surface_create(gpu, &rd, &r_on) == VF_OK) &&
            CHECK(vf_render_surface_create(gpu, &rd_off, &r_off) == VF_OK)) {
            const uint8_t *px = vf_test_render_frames(gpu, s, r_on, cap, 60);
            if (px) {
                memcpy(on, px, (size_t)w * h * 4);
                CHECK(vf_capture_write_png(cap, vf_test_path(calm ? "caustics_calm.png" : "caustics_pool.png")) ==
                      VF_OK);
            }
            const uint8_t *off = px ? vf_test_render_frames(gpu, s, r_off, cap, 0) : NULL;
            if (off) {
                double mean_abs, sd, most;
                diff_stats(on, off, w, h, &mean_abs, &sd, &most);
                printf("%s: with - without caustics: mean |difference| %.2f levels, sd %.2f, largest %.0f\n",
                       calm ? "calm water" : "pool, frame 60", mean_abs, sd, most);
                if (calm)
                    CHECK(most <= 1.0); /* flat water: the same picture */
                else
                    CHECK(mean_abs > 2.0 && sd > 3.0); /* a pattern on the floor */
            }
        }
        vf_renderer_destroy(&r_on);
        vf_renderer_destroy(&r_off);
        vf_solver_destroy(&s);
    }
done:
    vf_capture_destroy(&cap);
    free(on);
}

/* The viewer's pointer drop shows in the 3D view: calm water with and
 * without a drop at the image centre (through the pick ray and the solver's
 * interaction, as the viewer does) differs visibly around the drop half a
 * second later (its first ring has then spread 1.7 m, inside the centre). */
static void test_pointer_ripple(vf_gpu *gpu)
{
    vf_test_section("3D view: a pointer drop leaves a visible ripple");
    const uint32_t w = 240, h = 135;
    vf_capture_desc cd = {.width = w, .height = h};
    vf_capture *cap = NULL;
    uint8_t *calm = malloc((size_t)w * h * 4);
    vf_solver *s0 = make_scene_pool(gpu, true), *s1 = make_scene_pool(gpu, true);
    vf_renderer *r0 = NULL, *r1 = NULL;
    vf_render_surface_desc rd = {.solver = s0, .width = w, .height = h, .view = VF_SURFACE_VIEW_3D};
    if (!CHECK(calm) || !s0 || !s1 || !CHECK(vf_capture_create(gpu, &cd, &cap) == VF_OK) ||
        !CHECK(vf_render_surface_create(gpu, &rd, &r0) == VF_OK))
        goto done;
    rd.solver = s1;
    if (!CHECK(vf_render_surface_create(gpu, &rd, &r1) == VF_OK))
        goto done;
    vf_camera cam;
    r1->vt->get_camera(r1, &cam);
    float o[3], d[3];
    vf_interaction in = {.active = true, .button = 0};
    vf_camera_pick_ray(&cam, (float)w / (float)h, 0.0f, 0.0f, o, d);
    if (!CHECK(r1->vt->pick(r1, o, d, in.pos)))
        goto done;
    s1->vt->interact(s1, &in);
    const uint8_t *px = vf_test_render_frames(gpu, s1, r1, cap, 1);
    in.active = false;
    s1->vt->interact(s1, &in);
    px = px ? vf_test_render_frames(gpu, s1, r1, cap, 29) : NULL;
    if (!px)
        goto done;
    CHECK(vf_capture_write_png(cap, vf_test_path("ripple.png")) == VF_OK);
    memcpy(calm, px, (size_t)w * h * 4);
    px = vf_test_render_frames(gpu, s0, r0, cap, 30);
    if (!px)
        goto done;
    double mean_abs, sd, most;
    diff_stats(calm, px, w, h, &mean_abs, &sd, &most);
    uint32_t changed = 0;
    for (uint32_t i = 0; i < w * h; i++)
        changed += fabs(luma_at(calm, i) - luma_at(px, i)) > 16.0;
    printf("drop at domain (%.2f, %.2f), 0.5 s later: mean |difference| %.2f levels over the centre, sd %.2f, %.1f %% "
           "of the pixels changed by > 16 levels\n",
           in.pos[0], in.pos[1], mean_abs, sd, 100.0 * changed / (w * h));
    CHECK(mean_abs > 2.0 && changed > w * h / 50);
done:
    vf_renderer_destroy(&r0);
    vf_renderer_destroy(&r1);
    vf_solver_destroy(&s0);
    vf_solver_destroy(&s1);
    vf_capture_destroy(&cap);
    free(calm);
}

/* The boat's wake (the boat scene's defaults, frame 90): the height field
 * behind the boat is a wedge of half-angle asin(sqrt(g d) / U) (shallow-water
 * waves do not disperse, so the wake is the boat's Mach cone; 19.4 degrees at
 * the scene's U = 7.3 m/s in 0.6 m of water), and in the 3D view the water
 * behind the boat differs clearly from the calm water ahead of it. */
static void test_boat_wake(vf_gpu *gpu)
{
    vf_test_section("the boat's wake: its angle, and the 3D view behind the boat");
    const uint32_t w = 240, h = 135;
    const int frames = 90;
    vf_height_scene_desc scene;
    vf_scene_defaults(&vf_height_scene_boat, &scene);
    vf_height_desc d = scene.solver;
    vf_solver *s = NULL;
    vf_renderer *r = NULL;
    vf_capture *cap = NULL;
    float *eta = NULL;
    s = vf_test_height_solver(gpu, &d);
    if (!s)
        goto done;
    vf_render_surface_desc rd = {.solver = s, .width = w, .height = h, .view = VF_SURFACE_VIEW_3D};
    if (!open_view(gpu, &rd, &r, &cap))
        goto done;
    const uint8_t *px = vf_test_render_frames(gpu, s, r, cap, frames);
    if (!px)
        goto done;
    CHECK(vf_capture_write_png(cap, vf_test_path("boat_wake.png")) == VF_OK);
    vf_height_state st;
    vf_height_get_state(s, &st);
    const double t = frames * d.frame_dt, xb = d.boat_length + d.wake_speed * t, yb = d.boat_y * d.ny * d.dx;
    const double c = sqrt(d.g * (d.surface - d.bed)), mach = asin(c / d.wake_speed);
    /* the wedge: on each column 1.5 to 4.5 m behind the boat, where the
     * surface stands highest on the far side of the lane; its offset grows
     * by tan(angle) per metre behind (a least-squares line) */
    eta = malloc((size_t)st.nx * st.ny * sizeof *eta);
    if (!CHECK(eta) || !CHECK(vf_buffer_read(st.eta, 0, eta, (size_t)st.nx * st.ny * sizeof *eta) == VF_OK))
        goto done;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
    for (uint32_t i = 0; i < st.nx; i++) {
        double x = (i + 0.5) * d.dx, behind = xb - x;
        if (behind < 1.5 || behind > 4.5)
            continue;
        double best = -1e30, off = 0;
        for (uint32_t j = 0; j < st.ny; j++) {
            double y = (j + 0.5) * d.dx;
            if (y > yb + 0.3 && y < yb + 0.5 * d.channel_width * d.ny * d.dx && eta[j * st.nx + i] > best) {
                best = eta[j * st.nx + i];
                off = y - yb;
            }
        }
        sx += behind;
        sy += off;
        sxx += behind * behind;
        sxy += behind * off;
        n++;
    }
    double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx), angle = atan(slope) * 180.0 / 3.14159265358979;
    printf("boat at x = %.2f m, U = %.2g m/s, sqrt(g d) = %.3f m/s: wake half-angle %.1f degrees (asin(sqrt(g d)/U) = "
           "%.1f; Kelvin's deep-water wedge 19.47)\n",
           xb, d.wake_speed, c, angle, mach * 180.0 / 3.14159265358979);
    CHECK(fabs(angle - mach * 180.0 / 3.14159265358979) < 3.0); /* degrees: the crest is a few cells wide */
    /* the picture: luminance spread over the water 2 to 6 m behind the boat
     * and 2 to 6 m ahead of it, across the lane's middle 3 m (pixels mapped
     * to the water through the renderer's pick rays) */
    vf_camera cam;
    r->vt->get_camera(r, &cam);
    double acc[2][3] = {{0}};
    const double lx = d.nx * d.dx, ly = d.ny * d.dx;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            float o[3], dir[3], pos[2];
            vf_camera_pick_ray(&cam, (float)w / (float)h, 2.0f * ((float)x + 0.5f) / (float)w - 1.0f,
                               2.0f * ((float)y + 0.5f) / (float)h - 1.0f, o, dir);
            if (!r->vt->pick(r, o, dir, pos))
                continue;
            double dxb = pos[0] * lx - xb, dyb = pos[1] * ly - yb;
            if (fabs(dyb) > 1.5 || fabs(dxb) < 2.0 || fabs(dxb) > 6.0)
                continue;
            double l = luma_at(px, y * w + x);
            int k = dxb < 0; /* 1: behind */
            acc[k][0] += 1;
            acc[k][1] += l;
            acc[k][2] += l * l;
        }
    double sd[2];
    for (int k = 0; k < 2; k++)
        sd[k] = acc[k][0] > 0 ? sqrt(fmax(acc[k][2] / acc[k][0] - pow(acc[k][1] / acc[k][0], 2), 0.0)) : 0.0;
    printf("3D view: luminance sd behind the boat %.2f levels (%.0f pixels), ahead %.2f (%.0f pixels): ratio %.2f\n",
           sd[1], acc[1][0], sd[0], acc[0][0], sd[1] / fmax(sd[0], 1e-9));
    CHECK(acc[0][0] > 100 && acc[1][0] > 100);
    CHECK(sd[1] > 2.0 * sd[0]);
done:
    free(eta);
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&r);
    vf_solver_destroy(&s);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    test_surface_view(gpu);
    test_top_view(gpu);
    test_pick(gpu);
    test_caustics_view(gpu);
    test_pointer_ripple(gpu);
    test_boat_wake(gpu);
    vf_test_gpu_done(&gpu);
    test_capture_cli();
    test_dye();
    return vf_test_finish();
}
