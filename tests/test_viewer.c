/* The realtime viewer under Xvfb (lavapipe): every built-in scene for a few
 * frames with validation, a screenshot through the viewer's own path against
 * the headless capture of the same frame, scripted resize/minimise cycles, and
 * the no-display error. */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "png_io.h"
#include "solver.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

static char out[65536];

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
    return "";
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    if (vf_test_run("command -v xvfb-run >/dev/null") != 0) {
        CHECK_MSG(false, "xvfb-run is missing: install xvfb and xauth (tools/quickstart.sh does)");
        return vf_test_finish();
    }
    const char *xvfb = "xvfb-run -a -s '-screen 0 1024x768x24'";

    vf_test_section("no display");
    int rc = vf_test_run_capture(out, sizeof out, "env -u DISPLAY -u WAYLAND_DISPLAY '%s' view", vf_t.vkfluid);
    CHECK_MSG(rc == 2, "view without a display: exit %d, want 2: %s", rc, out);
    CHECK_STR_CONTAINS(out, "no display");
    CHECK_STR_CONTAINS(out, "capture");
    CHECK_MSG(strchr(out, '\n') == strrchr(out, '\n'), "one line: %s", out);

    vf_test_section("every scene, 30 frames, validation on");
    for (size_t i = 0; vf_scenes[i]; i++) {
        const vf_scene_info *s = vf_scenes[i];
        rc = vf_test_run_capture(out, sizeof out, "VKFLUID_VALIDATION=1 %s '%s' view %s %s --size 192x144 --frames 30 --vsync off",
                                 xvfb, vf_t.vkfluid, s->name, small_set(s->family));
        CHECK_MSG(rc == 0, "view %s: exit %d: %s", s->name, rc, out);
        CHECK_MSG(strstr(out, "validation:") == NULL, "view %s printed validation messages: %s", s->name, out);
        printf("view %s: %s\n", s->name, rc == 0 ? "ok" : "FAILED");
    }

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

    vf_test_section("50 scripted resize and minimise cycles");
    rc = vf_test_run_capture(out, sizeof out, "VKFLUID_VALIDATION=1 %s '%s' view smoke --set n=32 --size 200x150 --test-resize 50 --vsync off",
                             xvfb, vf_t.vkfluid);
    CHECK_MSG(rc == 0, "resize cycles: exit %d: %s", rc, out);
    CHECK_MSG(strstr(out, "validation:") == NULL, "resize cycles printed validation messages: %s", out);
    return vf_test_finish();
}
