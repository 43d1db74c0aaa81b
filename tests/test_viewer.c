/* The realtime viewer under Xvfb (lavapipe): every built-in scene for a few
 * frames with validation, a screenshot through the viewer's own path against
 * the headless capture of the same frame, scripted resize/minimise cycles,
 * the no-display error, and the 3D grid's interaction: in a still smoke3d box
 * (no source, so without input every frame is the same) a scripted left drag
 * must inject density along the view ray (volume view) and push the fluid
 * (speed slice, the density's weight off), each change lying under the drag;
 * and ] and [ must move the slice plane (the picture changes, differently for
 * each key); the overlay's contrast over a light view and its scene list on
 * H, and the estimate of slow frames (the viewer pauses before one, except
 * while recording); the terrain's dig and raise tool under the pointer. */
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "png_io.h"
#include "solver.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"
#include "scenes.h"

static char out[65536];

/* Mean |a - b| over RGB (0..255) inside the window fraction [x0, x1) x [y0, y1)
 * (in), and outside it (*outside). */
static double mean_diff(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, double x0, double x1, double y0,
                        double y1, double *outside)
{
    double sin = 0, sout = 0;
    size_t nin = 0, nout = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            size_t k = ((size_t)y * w + x) * 4;
            double d = (abs(a[k] - b[k]) + abs(a[k + 1] - b[k + 1]) + abs(a[k + 2] - b[k + 2])) / 3.0;
            bool inside = x >= x0 * w && x < x1 * w && y >= y0 * h && y < y1 * h;
            *(inside ? &sin : &sout) += d;
            *(inside ? &nin : &nout) += 1;
        }
    *outside = nout ? sout / (double)nout : 0;
    return nin ? sin / (double)nin : 0;
}

/* Runs the viewer on a still smoke3d box with extra options, screenshot to name. */
static bool view3d(const char *xvfb, const char *extra, const char *name)
{
    int rc = vf_test_run_capture(out, sizeof out,
                                 "%s '%s' view smoke3d --set n=16 --set source_density=0 "
                                 "--set source_temperature=0 --size 160x120 --frames 12 --vsync off %s --screenshot '%s'",
                                 xvfb, vf_t.vkfluid, extra, vf_test_path(name));
    CHECK_MSG(strstr(out, "validation:") == NULL, "view smoke3d %s printed validation messages: %s", extra, out);
    return CHECK_MSG(rc == 0, "view smoke3d %s: exit %d: %s", extra, rc, out);
}

/* Compares two screenshots of the same size: the mean difference inside the
 * window and outside it. */
static bool shot_diff(const char *na, const char *nb, double x0, double x1, double y0, double y1, double *in,
                      double *outside)
{
    uint8_t *a = NULL, *b = NULL;
    uint32_t aw = 0, ah = 0, bw = 0, bh = 0;
    bool ok = CHECK(vf_png_read(vf_test_path(na), &a, &aw, &ah) == VF_OK) &&
              CHECK(vf_png_read(vf_test_path(nb), &b, &bw, &bh) == VF_OK) && CHECK(aw == bw && ah == bh);
    if (ok)
        *in = mean_diff(a, b, aw, ah, x0, x1, y0, y1, outside);
    free(a);
    free(b);
    return ok;
}

/* Small sizes per family so 30 frames stay quick on lavapipe. */
static const char *small_set(const char *family)
{
    if (!strcmp(family, "grid"))
        return "--set n=32";
    if (!strcmp(family, "grid3d"))
        return "--set n=8";
    if (!strcmp(family, "height"))
        return "--set nx=48 --set ny=48 --set boat_length=1 --set boat_width=0.4"; /* the boat fits a 2.4 m domain */
    if (!strcmp(family, "sph"))
        return "--set particles=1000 --set frame_dt=0.004"; /* ~10 substeps a frame */
    if (!strcmp(family, "terrain"))
        return "--set nx=64 --set ny=32 --set dx=2";
    return "";
}

/* sRGB 8-bit to linear relative luminance. */
static double luminance(const uint8_t *p)
{
    double c[3];
    for (int k = 0; k < 3; k++) {
        double v = p[k] / 255.0;
        c[k] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The overlay: where `with` differs from `without` (same frame, no overlay).
 * Gives its bounding box and, inside it, the contrast ratio (WCAG:
 * (L1 + 0.05) / (L2 + 0.05)) between the text (99.5th percentile of
 * luminance) and the panel (median), and the view's median there without
 * the overlay. False when the images cannot be read or show no overlay. */
typedef struct overlay_box {
    uint32_t x0, y0, x1, y1, w, h;
    double contrast, panel, view;
} overlay_box;

static bool overlay_region(const char *with, const char *without, overlay_box *o)
{
    uint8_t *a = NULL, *b = NULL;
    uint32_t aw = 0, ah = 0, bw = 0, bh = 0;
    bool ok = false;
    memset(o, 0, sizeof *o);
    if (vf_png_read(with, &a, &aw, &ah) != VF_OK || vf_png_read(without, &b, &bw, &bh) != VF_OK || aw != bw || ah != bh)
        goto done;
    o->w = aw;
    o->h = ah;
    o->x0 = aw;
    o->y0 = ah;
    for (uint32_t y = 0; y < ah; y++)
        for (uint32_t x = 0; x < aw; x++) {
            const uint8_t *p = a + ((size_t)y * aw + x) * 4, *q = b + ((size_t)y * aw + x) * 4;
            if (abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]) > 12) {
                o->x0 = x < o->x0 ? x : o->x0;
                o->y0 = y < o->y0 ? y : o->y0;
                o->x1 = x + 1 > o->x1 ? x + 1 : o->x1;
                o->y1 = y + 1 > o->y1 ? y + 1 : o->y1;
            }
        }
    if (o->x1 <= o->x0 || o->y1 <= o->y0)
        goto done;
    size_t n = (size_t)(o->x1 - o->x0) * (o->y1 - o->y0), k = 0;
    double *la = malloc(n * sizeof *la), *lb = malloc(n * sizeof *lb);
    if (la && lb) {
        for (uint32_t y = o->y0; y < o->y1; y++)
            for (uint32_t x = o->x0; x < o->x1; x++, k++) {
                la[k] = luminance(a + ((size_t)y * aw + x) * 4);
                lb[k] = luminance(b + ((size_t)y * aw + x) * 4);
            }
        qsort(la, n, sizeof *la, cmp_double);
        qsort(lb, n, sizeof *lb, cmp_double);
        o->panel = la[n / 2];
        o->view = lb[n / 2];
        o->contrast = (la[(size_t)(0.995 * (double)(n - 1))] + 0.05) / (o->panel + 0.05);
        ok = true;
    }
    free(la);
    free(lb);
done:
    free(a);
    free(b);
    return ok;
}

/* The ground of a terrain export (terrain_0000.csv in dir), n cells; the
 * cells' x in *x. NULL when it cannot be read. */
static double *terrain_ground(const char *dir, size_t n, double *x)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/terrain_0000.csv", dir);
    char *text = vf_test_read_file(path, NULL);
    double *g = text ? malloc(n * sizeof *g) : NULL;
    size_t k = 0;
    for (char *line = text ? strchr(text, '\n') : NULL; g && line && k < n; line = strchr(line, '\n'), k++) {
        line++;
        double y, surface;
        if (sscanf(line, "%lf,%lf,%lf,%lf", &x[k], &y, &surface, &g[k]) != 4)
            break;
    }
    free(text);
    if (g && k != n) {
        free(g);
        g = NULL;
    }
    return g;
}

/* The terrain's dig/raise tool under the pointer: a recorded session with
 * the scripted left drag (frames 2 to 9, window x 0.3 to 0.54) digs; in the
 * full script the right drag (frames 17 to 22, x 0.7 to 0.9) raises, after
 * the script's Up key (nx by a quarter: 80) and reset. The replays' exports
 * against the untouched ground of the same size: the dug cells lie left of
 * the raised ones along the domain, as the drags do in the window (the
 * default camera looks along -y, domain x to the right). */
static void test_terrain_tool(const char *xvfb)
{
    vf_test_section("terrain: the pointer digs (left drag) and raises (right drag) the ground under it");
    const char *sets = "--set ny=32 --set dx=2 --set dozer=false --set source_rate=0 --set drain_rate=0 --set repose=90";
    static double x[80 * 32];
    double centre[2] = {0, 0}, most[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const int nx = k == 0 ? 64 : 80, frames = k == 0 ? 10 : 24;
        const size_t n = (size_t)nx * 32;
        char rec[64], exp[64], plain_dir[64];
        snprintf(rec, sizeof rec, "tool%d.rec", k);
        snprintf(exp, sizeof exp, "tool%d", k);
        snprintf(plain_dir, sizeof plain_dir, "plain%d", k);
        int rc = vf_test_run_capture(out, sizeof out, "'%s' run terrain %s --set nx=%d --steps 1 --export '%s' --quiet",
                                     vf_t.vkfluid, sets, nx, vf_test_path(plain_dir));
        double *plain = rc == 0 ? terrain_ground(vf_test_path(plain_dir), n, x) : NULL;
        CHECK_MSG(plain != NULL, "the untouched ground: exit %d: %s", rc, out);
        rc = vf_test_run_capture(out, sizeof out,
                                 "%s '%s' view terrain %s --set nx=64 --size 320x180 --frames %d "
                                 "--vsync off --test-script %d --record '%s'",
                                 xvfb, vf_t.vkfluid, sets, frames, frames, vf_test_path(rec));
        CHECK_MSG(rc == 0 && !strstr(out, "validation:"), "view terrain --test-script %d: exit %d: %s", frames, rc, out);
        rc = vf_test_run_capture(out, sizeof out, "'%s' run --replay '%s' --export '%s' --quiet", vf_t.vkfluid,
                                 vf_test_path(rec), vf_test_path(exp));
        double *g = rc == 0 && plain ? terrain_ground(vf_test_path(exp), n, x) : NULL;
        if (CHECK_MSG(g != NULL, "replay %s: exit %d: %s", rec, rc, out)) {
            double w = 0;
            for (size_t i = 0; i < n; i++) {
                double d = (g[i] - plain[i]) * (k == 0 ? -1 : 1); /* dug (k 0) or raised (k 1) */
                most[k] = fmax(most[k], d);
                if (d > 0.002) {
                    centre[k] += d * x[i] / (nx * 2.0); /* as a fraction of the domain's length */
                    w += d;
                }
            }
            centre[k] = w > 0 ? centre[k] / w : NAN;
        }
        free(g);
        free(plain);
    }
    printf("dug by up to %.3g m around x = %.3g of the length, raised by up to %.3g m around x = %.3g\n", most[0],
           centre[0], most[1], centre[1]);
    CHECK(most[0] > 0.02 && most[1] > 0.02);
    CHECK(centre[0] < centre[1] - 0.1);
}

/* Every built-in scene in the viewer, each run clean. The sanitizer run
 * (VKFLUID_DRIVER_LIGHT=1): the same paths, fewer frames. */
static void every_scene(const char *xvfb)
{
    const int scene_frames = vf_test_light() ? 6 : 30;
    char title[160];
    snprintf(title, sizeof title, "every scene, %d frames, validation as the build's tests run (tests/tests.cmake)",
             scene_frames);
    vf_test_section(title);
    for (size_t i = 0; vf_scenes[i]; i++) {
        const vf_scene_info *s = vf_scenes[i];
        int rc = vf_test_run_capture(out, sizeof out, "%s '%s' view %s %s --size 192x144 --frames %d --vsync off",
                                     xvfb, vf_t.vkfluid, s->name, small_set(s->family), scene_frames);
        CHECK_MSG(rc == 0, "view %s: exit %d: %s", s->name, rc, out);
        CHECK_MSG(strstr(out, "validation:") == NULL, "view %s printed validation messages: %s", s->name, out);
        printf("view %s: %s\n", s->name, rc == 0 ? "ok" : "FAILED");
    }
}

/* Scripted resize and minimise cycles (fewer in the sanitizer run), then
 * those of the screen-space fluid and the height field on both render paths. */
static void resize_cycles(const char *xvfb)
{
    const int resizes = vf_test_light() ? 10 : 50;
    char title[96];
    snprintf(title, sizeof title, "%d scripted resize and minimise cycles", resizes);
    vf_test_section(title);
    int rc = vf_test_run_capture(out, sizeof out,
                                 "%s '%s' view smoke --set n=32 --size 200x150 --test-resize %d --vsync off", xvfb,
                                 vf_t.vkfluid, resizes);
    CHECK_MSG(rc == 0, "resize cycles: exit %d: %s", rc, out);
    CHECK_MSG(strstr(out, "validation:") == NULL, "resize cycles printed validation messages: %s", out);

    vf_test_section("resize cycles of the screen-space fluid and the height field's surface on both render paths "
                    "(their images follow the swapchain)");
    static const char *const paths[2] = {"compute", "raster"};
    static const char *const scenes[2][2] = {{"dam-break", "sph"}, {"pool", "height"}};
    for (int k = 0; k < 4; k++) {
        const char *scene = scenes[k / 2][0], *path = paths[k % 2];
        rc = vf_test_run_capture(out, sizeof out,
                                 "%s '%s' view %s %s --size 200x150 --test-resize 8 --vsync off "
                                 "--render-path %s",
                                 xvfb, vf_t.vkfluid, scene, small_set(scenes[k / 2][1]), path);
        CHECK_MSG(rc == 0, "resize cycles, %s on the %s path: exit %d: %s", scene, path, rc, out);
        CHECK_MSG(strstr(out, "validation:") == NULL, "resize cycles, %s on the %s path, printed validation messages: %s",
                  scene, path, out);
    }
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    if (vf_test_run("command -v xvfb-run >/dev/null") != 0) {
        CHECK_MSG(false, "xvfb-run is missing: install xvfb and xauth (tools/quickstart.sh does)");
        return vf_test_finish();
    }
    /* VKFLUID_SLOW_FRAME_S=1e9: a loaded machine never pauses these runs before a slow frame */
    const char *xvfb = "VKFLUID_SLOW_FRAME_S=1e9 xvfb-run -a -s '-screen 0 1024x768x24'";

    vf_test_section("no display");
    int rc = vf_test_run_capture(out, sizeof out, "env -u DISPLAY -u WAYLAND_DISPLAY '%s' view", vf_t.vkfluid);
    CHECK_MSG(rc == 2, "view without a display: exit %d, want 2: %s", rc, out);
    CHECK_STR_CONTAINS(out, "no display");
    CHECK_STR_CONTAINS(out, "capture");
    CHECK_MSG(strchr(out, '\n') == strrchr(out, '\n'), "one line: %s", out);

    every_scene(xvfb);

    vf_test_section("a gpu failure: one line of the shape run, capture and bench print, exit 3");
    /* the viewer's own output and exit code, apart from xvfb-run's (which
     * may add a line and its own exit code when its clean-up fails) */
    vf_test_run("%s sh -c \"VKFLUID_FAULT=device-lost@6 '%s' view smoke --set n=32 --size 160x120 --frames 10 "
                     "--vsync off 2>'%s'; echo \\$? >'%s'\"",
                     xvfb, vf_t.vkfluid, vf_test_path("fault.txt"), vf_test_path("fault_rc.txt"));
    char *text = vf_test_read_file(vf_test_path("fault.txt"), NULL), *code = vf_test_read_file(vf_test_path("fault_rc.txt"), NULL);
    snprintf(out, sizeof out, "%s", text ? text : "");
    rc = code ? atoi(code) : -1;
    free(text);
    free(code);
    CHECK_MSG(rc == 3, "view with a lost device: exit %d, want 3: %s", rc, out);
    CHECK_MSG(vf_test_lines(out) == 1, "one line: %s", out);
    if (strchr(out, '\n'))
        *strchr(out, '\n') = 0;
    regex_t re;
    if (CHECK(regcomp(&re, VF_TEST_GPU_FAILURE_SHAPE, REG_EXTENDED) == 0)) {
        CHECK_MSG(regexec(&re, out, 0, NULL, 0) == 0, "the failure line has the common shape: %s", out);
        regfree(&re);
    }
    CHECK_STR_CONTAINS(out, " (passes view.");
    printf("%s\n", out);

    vf_test_section("a viewer screenshot resembles the headless capture of the same frame");
    rc = vf_test_run_capture(out, sizeof out, "%s '%s' view smoke --set n=48 --size 160x120 --frames 10 --screenshot '%s'",
                             xvfb, vf_t.vkfluid, vf_test_path("view.png"));
    CHECK_MSG(rc == 0, "view screenshot: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --set n=48 --size 160x120 --frames 10 --every 9 --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("cap"));
    CHECK_MSG(rc == 0, "capture: exit %d: %s", rc, out);
    uint8_t *a = NULL, *b = NULL;
    uint32_t aw = 0, ah = 0, bw = 0, bh = 0;
    if (CHECK(vf_png_read(vf_test_path("view.png"), &a, &aw, &ah) == VF_OK) &&
        CHECK(vf_png_read(vf_test_path("cap/frame_00009.png"), &b, &bw, &bh) == VF_OK) && CHECK(aw == bw && ah == bh)) {
        /* not blank: more than one colour */
        bool varied = false;
        for (size_t k = 4; k < (size_t)aw * ah * 4 && !varied; k += 4)
            varied = memcmp(a, a + k, 3) != 0;
        CHECK_MSG(varied, "the screenshot is not a single colour");
        vf_compare_stats cr;
        if (CHECK(vf_compare_images(a, b, aw, ah, 2, &cr) == VF_OK)) {
            printf("screenshot vs capture: PSNR %.2f dB, SSIM %.4f\n", cr.psnr, cr.ssim);
            CHECK_MSG(cr.ssim > 0.9, "the screenshot resembles the capture: SSIM %.4f", cr.ssim);
        }
    }
    free(a);
    free(b);

    vf_test_section("the overlay over a light view: a dark panel, text in contrast, scaled, the scene list on H");
    {
        /* the pool's 3D view is light; the threshold keeps the timing lines away */
        const char *common = "%s '%s' view pool --set nx=48 --set ny=48 --size 1280x720 --frames 2 "
                             "--vsync off --screenshot '%s' %s";
        char cmd[1024];
        const char *plain = vf_test_path("ov_plain.png"), *over = vf_test_path("ov_text.png"), *help = vf_test_path("ov_help.png");
        snprintf(cmd, sizeof cmd, common, xvfb, vf_t.vkfluid, plain, "");
        rc = vf_test_run_capture(out, sizeof out, "%s", cmd);
        CHECK_MSG(rc == 0, "view pool: exit %d: %s", rc, out);
        snprintf(cmd, sizeof cmd, common, xvfb, vf_t.vkfluid, over, "--screenshot-overlay");
        rc = vf_test_run_capture(out, sizeof out, "%s", cmd);
        CHECK_MSG(rc == 0, "view pool --screenshot-overlay: exit %d: %s", rc, out);
        snprintf(cmd, sizeof cmd, common, xvfb, vf_t.vkfluid, help, "--screenshot-overlay --test-keys h");
        rc = vf_test_run_capture(out, sizeof out, "%s", cmd);
        CHECK_MSG(rc == 0, "view pool --test-keys h: exit %d: %s", rc, out);
        overlay_box o, oh;
        if (CHECK_MSG(overlay_region(over, plain, &o), "the overlay shows in the screenshot")) {
            printf("overlay %ux%u at (%u, %u): panel luminance %.3f over a view of %.3f, text contrast %.1f:1\n",
                   o.x1 - o.x0, o.y1 - o.y0, o.x0, o.y0, o.panel, o.view, o.contrast);
            CHECK_MSG(o.x0 < 16 && o.y0 < 16, "the overlay sits in the top left corner");
            CHECK_MSG(o.view > 0.15, "the view under the overlay is light (luminance %.3f)", o.view);
            CHECK_MSG(o.panel < 0.5 * o.view, "the panel darkens the view: %.3f over %.3f", o.panel, o.view);
            CHECK_MSG(o.contrast >= 4.5, "text against the panel: contrast %.1f:1, want at least 4.5:1", o.contrast);
            /* scaled to the window: 3 lines of 12 px font at 2x are taller than 60 px at 720 rows */
            CHECK_MSG(o.y1 - o.y0 >= 60, "the overlay is scaled with a 720-row window: %u rows", o.y1 - o.y0);
        }
        if (CHECK_MSG(overlay_region(help, plain, &oh), "the overlay with H shows")) {
            printf("overlay with H: %ux%u, contrast %.1f:1\n", oh.x1 - oh.x0, oh.y1 - oh.y0, oh.contrast);
            /* the keys and the scene list: at least 6 lines more */
            CHECK_MSG(oh.y1 - oh.y0 >= o.y1 - o.y0 + 6 * 24, "H adds the keys and the scene list: %u rows against %u",
                      oh.y1 - oh.y0, o.y1 - o.y0);
            CHECK_MSG(oh.contrast >= 4.5, "help text contrast %.1f:1", oh.contrast);
        }
    }

    vf_test_section("the viewer estimates slow frames before the first (threshold forced to 0 s)");
    rc = vf_test_run_capture(out, sizeof out,
                             "%s env VKFLUID_SLOW_FRAME_S=0 '%s' view dam-break --set particles=300 --size 160x120 --frames 3 --vsync off",
                             xvfb, vf_t.vkfluid);
    CHECK_MSG(rc == 0 && strstr(out, "warning: estimate: scene dam-break: ~") && strstr(out, " a frame on ") &&
                  strstr(out, "the viewer pauses: Space runs it"),
              "view prints the estimate and pauses: exit %d: %s", rc, out);
    /* recording: the pause would depend on the machine's pace, so none */
    rc = vf_test_run_capture(out, sizeof out,
                             "%s env VKFLUID_SLOW_FRAME_S=0 '%s' view smoke --set n=32 --size 160x120 --frames 3 --vsync off "
                             "--record '%s'",
                             xvfb, vf_t.vkfluid, vf_test_path("est.rec"));
    CHECK_MSG(rc == 0 && strstr(out, "warning: estimate: scene smoke: ~") && !strstr(out, "pauses"),
              "view --record prints the estimate, does not pause: exit %d: %s", rc, out);


    vf_test_section("3D grid: a left drag injects and pushes along the view ray; [ and ] move the slice plane");
    /* --test-script 10: a left press at (0.3, 0.5) of the window, dragged to
     * (0.54, 0.32) over frames 2..9, then released; the window below holds
     * that path */
    const double x0 = 0.25, x1 = 0.62, y0 = 0.25, y1 = 0.58;
    double din = 0, dout = 0;
    if (view3d(xvfb, "", "still.png") && view3d(xvfb, "--test-script 10", "inject.png") &&
        shot_diff("still.png", "inject.png", x0, x1, y0, y1, &din, &dout)) {
        printf("inject (volume view): mean change %.2f under the drag, %.3f elsewhere\n", din, dout);
        CHECK_MSG(din > 2.0 && din > 10 * dout, "injected density shows under the drag: %.2f there, %.3f elsewhere", din, dout);
    }
    if (view3d(xvfb, "--set weight=0 --render speed", "speed.png") &&
        view3d(xvfb, "--set weight=0 --render speed --test-script 10", "push.png") &&
        shot_diff("speed.png", "push.png", x0, x1, y0, y1, &din, &dout)) {
        printf("push (speed slice, no weight): mean change %.2f under the drag, %.2f elsewhere\n", din, dout);
        CHECK_MSG(din > 5.0 && din > 1.5 * dout, "the pushed flow shows under the drag: %.2f there, %.2f elsewhere", din, dout);
    }
    if (view3d(xvfb, "--render density", "slice.png") && view3d(xvfb, "--render density --test-keys ']]]]'", "slice_up.png") &&
        view3d(xvfb, "--render density --test-keys '[[[['", "slice_down.png")) {
        double up = 0, down = 0, both = 0, rest;
        shot_diff("slice.png", "slice_up.png", 0, 1, 0, 1, &up, &rest);
        shot_diff("slice.png", "slice_down.png", 0, 1, 0, 1, &down, &rest);
        shot_diff("slice_up.png", "slice_down.png", 0, 1, 0, 1, &both, &rest);
        printf("slice plane moved: mean change %.2f with ]]]], %.2f with [[[[, %.2f between them\n", up, down, both);
        CHECK_MSG(up > 1.0 && down > 1.0 && both > 1.0, "] and [ move the slice plane: %.2f, %.2f, %.2f", up, down, both);
    }

    test_terrain_tool(xvfb);

    resize_cycles(xvfb);
    return vf_test_finish();
}
