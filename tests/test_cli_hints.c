/* "did you mean" on unknown commands, scenes, options and keys, numbers
 * printed in the shortest form that reads back exactly, and the command
 * line's small cuts: capture's last frame, an option missing its value,
 * compare without thresholds, capture.json's view name, scenes --export
 * without a name, the size limit's number; the views and renderer keys in
 * every --help and in scenes SCENE, every renderer key through --set, and
 * the estimate of slow frames before the first one. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "png_io.h"
#include "render_registry.h"
#include "text.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"
#include "scenes.h"

static char out[65536];

static void expect_hint(const char *args, const char *hint)
{
    int rc = vf_test_run_capture(out, sizeof out, "'%s' %s", vf_t.vkfluid, args);
    CHECK_MSG(rc == 2, "vkfluid %s: exit %d (want 2)", args, rc);
    CHECK_MSG(strstr(out, hint) != NULL, "vkfluid %s says '%s': %s", args, hint, out);
    CHECK_MSG(strchr(out, '\n') == out + strlen(out) - 1, "vkfluid %s: one line: %s", args, out);
}

static void test_did_you_mean(void)
{
    vf_test_section("did you mean: commands, scenes, options, keys");
    expect_hint("runn", "did you mean 'vkfluid run'?");
    expect_hint("run dambreak", "did you mean dam-break?");
    expect_hint("run smoke --step 3", "did you mean --steps?");
    expect_hint("run smoke --set vorticty=1 --steps 1", "did you mean vorticity?");
    /* another command's option is named as such, not suggested back */
    expect_hint("bench --set volume_fix=false", "'vkfluid bench' has no option --set (other commands do)");
    expect_hint("compare --frames 3", "'vkfluid compare' has no option --frames (other commands do)");
    /* nothing near: no guess */
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run zzzzzzzzzz", vf_t.vkfluid);
    CHECK(rc == 2 && !strstr(out, "did you mean"));
}

static void test_suggest(void)
{
    vf_test_section("vf_suggest: typos within 1-3 edits, prefixes, nothing far");
    const char *c[] = {"run", "capture", "view", "bench", "compare", "scenes"};
    CHECK(vf_suggest("caputre", c, 6) && !strcmp(vf_suggest("caputre", c, 6), "capture"));
    CHECK(vf_suggest("bnch", c, 6) && !strcmp(vf_suggest("bnch", c, 6), "bench"));
    CHECK(vf_suggest("comp", c, 6) && !strcmp(vf_suggest("comp", c, 6), "compare"));
    CHECK(vf_suggest("xyzzy", c, 6) == NULL);
    char buf[32];
    CHECK(vf_suggest_in_list("presure", "dye|pressure|velocity", "|", buf, sizeof buf) && !strcmp(buf, "pressure"));
}

static void test_format(void)
{
    vf_test_section("shortest round-trip numbers");
    struct {
        double v;
        const char *want;
    } cases[] = {{0.025, "0.025"}, {0.04, "0.04"}, {0.1, "0.1"}, {100, "100"}, {1200, "1200"}, {9.81, "9.81"},
                 {1e-7, "1e-07"}, {-2.5, "-2.5"}, {0, "0"}};
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        vf_format_double(cases[i].v, buf, sizeof buf);
        CHECK_MSG(!strcmp(buf, cases[i].want), "%.17g prints as %s (want %s)", cases[i].v, buf, cases[i].want);
    }
    double hard[] = {1.0 / 3.0, 3.14159265358979323846, 0.1 + 0.2, 1e300, 5e-324, 123456789.125};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) {
        vf_format_double(hard[i], buf, sizeof buf);
        CHECK_MSG(strtod(buf, NULL) == hard[i], "%s reads back as %.17g", buf, hard[i]);
    }
    /* a scene's keys in vkfluid scenes SCENE and in exported files */
    int rc = vf_test_run_capture(out, sizeof out, "'%s' scenes --export dam-break", vf_t.vkfluid);
    CHECK(rc == 0 && strstr(out, "\"spacing\": 0.01,") && !strstr(out, "0000000"));
}

static void test_paper_cuts(void)
{
    vf_test_section("capture --frames 4 --every 2 writes frames 0, 2 and the last, 3");
    const char *dir = vf_test_path("cap");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --set n=32 --size 64x36 --frames 4 --every 2 --out '%s' --quiet",
                                 vf_t.vkfluid, dir);
    CHECK_MSG(rc == 0, "capture: exit %d: %s", rc, out);
    CHECK(vf_test_run("test -f '%s/frame_00000.png' && test -f '%s/frame_00002.png' && test -f '%s/frame_00003.png' && "
                      "! test -f '%s/frame_00001.png'",
                      dir, dir, dir, dir) == 0);
    char path[512];
    snprintf(path, sizeof path, "%s/capture.json", dir);
    char *json = vf_test_read_file(path, NULL);
    CHECK_MSG(json && strstr(json, "\"render\": \"dye\""), "capture.json names the view: %s", json ? "no" : "missing");
    CHECK_MSG(json && !strstr(json, "00000000000"), "capture.json prints shortest numbers");
    free(json);

    vf_test_section("compare without --threshold judges nothing");
    rc = vf_test_run_capture(out, sizeof out, "'%s' compare '%s/frame_00000.png' '%s/frame_00003.png'", vf_t.vkfluid, dir, dir);
    CHECK_MSG(rc == 0 && strstr(out, "not judged") && !strstr(out, "result: pass"), "exit %d: %s", rc, out);

    vf_test_section("an option without its value, scenes --export without a name, the size limit");
    expect_hint("capture smoke --render --size 64x64 --frames 1", "--render needs a value: got the option --size");
    expect_hint("scenes --export", "needs a scene name");
    expect_hint("capture smoke --frames 1 --size 100000x100000", "1..65536");
}

static void test_views_help(void)
{
    vf_test_section("views and renderer keys in run, capture and view --help and in scenes SCENE");
    const char *cmds[] = {"run", "capture", "view"};
    for (size_t c = 0; c < 3; c++) {
        int rc = vf_test_run_capture(out, sizeof out, "'%s' %s --help", vf_t.vkfluid, cmds[c]);
        CHECK_MSG(rc == 0, "%s --help: exit %d", cmds[c], rc);
        /* every family's views, from the registry */
        for (size_t i = 0; vf_render_family(i); i++) {
            char want[160];
            snprintf(want, sizeof want, "%s", vf_render_modes(vf_render_family(i)));
            for (char *p = want; *p; p++)
                if (*p == '|')
                    *p = ',';
            char first[64];
            snprintf(first, sizeof first, "%.*s, ", (int)strcspn(want, ","), want);
            CHECK_MSG(strstr(out, first) != NULL, "%s --help lists the %s views (%s): %s", cmds[c], vf_render_family(i),
                      first, out);
        }
        CHECK_MSG(strstr(out, "ssf, particles, mesh") && strstr(out, "ssf.radius") && strstr(out, "cavity velocity"),
                  "%s --help: the sph views, the ssf keys and cavity's own view", cmds[c]);
    }
    int rc = vf_test_run_capture(out, sizeof out, "'%s' scenes cavity", vf_t.vkfluid);
    CHECK_MSG(rc == 0 && strstr(out, "dye|pressure|velocity") && strstr(out, "default velocity"), "scenes cavity: %s", out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' scenes dam-break", vf_t.vkfluid);
    CHECK_MSG(rc == 0 && strstr(out, "default ssf") && strstr(out, "ssf.absorption_length"), "scenes dam-break: %s", out);
}

/* A value a key takes, and one it refuses. */
static void key_values(const vf_param_def *d, char *ok, char *bad, size_t cap)
{
    if (d->type == VF_PARAM_ENUM) {
        snprintf(ok, cap, "%.*s", (int)strcspn(d->choices, "|"), d->choices);
        snprintf(bad, cap, "no-such-choice");
    } else if (d->type == VF_PARAM_BOOL) {
        snprintf(ok, cap, "true");
        snprintf(bad, cap, "maybe");
    } else {
        /* the table's default, or the middle of the range when it lies outside (0 = derived) */
        double v = d->def;
        if (v < d->min || v > d->max || (d->min_exclusive && v == d->min))
            v = 0.5 * (d->min + d->max);
        if (d->type == VF_PARAM_INT)
            snprintf(ok, cap, "%lld", (long long)v);
        else
            vf_format_double(v, ok, cap);
        if (d->max < 1e29)
            vf_format_double(d->type == VF_PARAM_INT ? d->max + 1 : d->max * 2 + 1, bad, cap);
        else
            snprintf(bad, cap, "0x10");
    }
}

static void test_renderer_keys(void)
{
    vf_test_section("every renderer key is settable with --set and checked");
    for (size_t f = 0; vf_render_family(f); f++) {
        size_t n = 0;
        const vf_param_def *t = vf_render_params(vf_render_family(f), &n);
        const vf_scene_info *scene = NULL;
        for (size_t i = 0; vf_scenes[i] && !scene; i++)
            if (!strcmp(vf_scenes[i]->family, vf_render_family(f)))
                scene = vf_scenes[i];
        for (size_t k = 0; scene && k < n; k++) {
            char ok[64], bad[64], args[256];
            key_values(&t[k], ok, bad, sizeof ok);
            const char *view = vf_render_view_key(vf_render_family(f));
            if (view && !strcmp(t[k].key, view))
                snprintf(ok, sizeof ok, "particles"); /* the view: one of the family's views */
            /* accepted: --help after the --set prints the scene and exits 0 without GPU work */
            int rc = vf_test_run_capture(out, sizeof out, "'%s' capture %s --set %s=%s --help", vf_t.vkfluid, scene->name,
                                         t[k].key, ok);
            CHECK_MSG(rc == 0, "--set %s=%s: exit %d: %s", t[k].key, ok, rc, out);
            snprintf(args, sizeof args, "capture %s --set %s=%s --frames 1", scene->name, t[k].key, bad);
            char key[80];
            snprintf(key, sizeof key, "%s", t[k].key);
            expect_hint(args, key);
            CHECK_MSG(strstr(out, "must be") || strstr(out, "use one of"), "%s says what is allowed: %s", args, out);
        }
        if (n && scene) {
            /* another family's scene does not take them */
            char args[160];
            const char *other = strcmp(vf_render_family(f), "grid") ? "smoke" : "pool";
            snprintf(args, sizeof args, "capture %s --set %s=1 --frames 1", other, t[n - 1].key);
            expect_hint(args, "renderer");
        }
    }
    expect_hint("capture dam-break --set ssf.view=bogus --frames 1", "ssf.view: \"bogus\" is not a view");

    vf_test_section("renderer keys change the picture and are recorded in capture.json");
    const char *base = vf_test_path("ssf_base"), *dbg = vf_test_path("ssf_normals"), *part = vf_test_path("ssf_view");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture dam-break --set particles=400 --size 64x36 --frames 1 --out '%s' --quiet",
                                 vf_t.vkfluid, base);
    CHECK_MSG(rc == 0, "capture: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out,
                             "'%s' capture dam-break --set particles=400 --set ssf.debug=normals --set ssf.fluid_r=0.9 "
                             "--size 64x36 --frames 1 --out '%s' --quiet",
                             vf_t.vkfluid, dbg);
    CHECK_MSG(rc == 0, "capture ssf.debug=normals: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture dam-break --set particles=400 --set ssf.view=particles --size 64x36 --frames 1 --out '%s' --quiet",
                             vf_t.vkfluid, part);
    CHECK_MSG(rc == 0, "capture ssf.view=particles: exit %d: %s", rc, out);
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/frame_00000.png", base);
    snprintf(pb, sizeof pb, "%s/frame_00000.png", dbg);
    uint8_t *a = NULL, *b = NULL;
    uint32_t aw = 0, ah = 0, bw = 0, bh = 0;
    if (CHECK(vf_png_read(pa, &a, &aw, &ah) == VF_OK) && CHECK(vf_png_read(pb, &b, &bw, &bh) == VF_OK) && CHECK(aw == bw && ah == bh))
        CHECK_MSG(memcmp(a, b, (size_t)aw * ah * 4) != 0, "ssf.debug=normals changes the picture");
    free(a);
    free(b);
    snprintf(pa, sizeof pa, "%s/capture.json", dbg);
    char *json = vf_test_read_file(pa, NULL);
    CHECK_MSG(json && strstr(json, "\"renderer_keys\": [\"ssf.debug=normals\", \"ssf.fluid_r=0.9\"]"), "capture.json: %s",
              json ? json : "missing");
    free(json);
    snprintf(pa, sizeof pa, "%s/capture.json", part);
    json = vf_test_read_file(pa, NULL);
    CHECK_MSG(json && strstr(json, "\"render\": \"particles\""), "ssf.view=particles is the particles view");
    free(json);
}

static void test_estimate(void)
{
    vf_test_section("slow frames are estimated before the first frame (threshold forced to 0 s)");
    /* the line's presence and form, never its numbers */
    int rc = vf_test_run_capture(out, sizeof out, "VKFLUID_SLOW_FRAME_S=0 '%s' run smoke --set n=32 --steps 2", vf_t.vkfluid);
    CHECK_MSG(rc == 0, "run: exit %d: %s", rc, out);
    const char *line = strstr(out, "warning: estimate: scene smoke: ~");
    CHECK_MSG(line && strstr(line, " a frame on ") && strstr(line, " a frame, measured") &&
                  strstr(line, "2 frames take ~"),
              "run prints the estimate: %s", out);
    CHECK_MSG(line && line < strstr(out, "smoke: 2 frames"), "the estimate comes before the run's result: %s", out);
    rc = vf_test_run_capture(out, sizeof out, "VKFLUID_SLOW_FRAME_S=0 '%s' run smoke --set n=32 --steps 2 --quiet", vf_t.vkfluid);
    CHECK_MSG(rc == 0 && !strstr(out, "estimate"), "--quiet: no estimate: %s", out);
    rc = vf_test_run_capture(out, sizeof out, "VKFLUID_SLOW_FRAME_S=0 '%s' capture pool --set nx=32 --set ny=32 --size 32x32 --frames 1 --out '%s'",
                             vf_t.vkfluid, vf_test_path("est_cap"));
    CHECK_MSG(rc == 0 && strstr(out, "warning: estimate: scene pool: ~"), "capture prints the estimate: %s", out);
    rc = vf_test_run_capture(out, sizeof out,
                             "VKFLUID_SLOW_FRAME_S=0 '%s' bench --solver grid --sizes 32 --frames 1 --warmup 1 --repeat 1 "
                             "--render none --out '%s'",
                             vf_t.vkfluid, vf_test_path("est_bench"));
    CHECK_MSG(rc == 0 && strstr(out, "warning: estimate: bench grid at n 32"), "bench prints the estimate: %s", out);
    /* the foam (timed apart when the timed substeps do not reach the frame's
     * end: dam-break at 300 particles has 20 a frame) and the rendering; 40
     * frames, so that foam is made (the probe must keep its random streams) */
    rc = vf_test_run_capture(out, sizeof out,
                             "VKFLUID_SLOW_FRAME_S=0 '%s' capture dam-break --set particles=300 --size 64x36 --frames 40 "
                             "--every 39 --out '%s' --force",
                             vf_t.vkfluid, vf_test_path("est_foam"));
    line = strstr(out, "warning: estimate: scene dam-break: ~");
    CHECK_MSG(rc == 0 && line && strstr(line, "; after the substeps (foam) ") && strstr(line, "; rendering ") &&
                  strstr(line, " (1 frame in 39)"),
              "capture's estimate includes the foam and the rendering: %s", out);
    rc = vf_test_run_capture(out, sizeof out,
                             "'%s' capture dam-break --set particles=300 --size 64x36 --frames 40 --every 39 --out '%s' "
                             "--force --quiet",
                             vf_t.vkfluid, vf_test_path("est_foam_quiet"));
    CHECK_MSG(rc == 0, "capture --quiet: exit %d: %s", rc, out);
    rc = vf_test_run("cmp -s '%s/frame_00000.png' '%s/frame_00000.png' && cmp -s '%s/frame_00039.png' '%s/frame_00039.png'",
                     vf_test_path("est_foam"), vf_test_path("est_foam_quiet"), vf_test_path("est_foam"),
                     vf_test_path("est_foam_quiet"));
    CHECK_MSG(rc == 0, "timing the foam and a render leaves the captured frames unchanged");
    /* an unreachable threshold: nothing */
    rc = vf_test_run_capture(out, sizeof out, "VKFLUID_SLOW_FRAME_S=1e9 '%s' run smoke --set n=32 --steps 1", vf_t.vkfluid);
    CHECK_MSG(rc == 0 && !strstr(out, "estimate"), "no estimate below the threshold: %s", out);

    vf_test_section("timing the first substeps leaves the results unchanged");
    const char *scenes[] = {"dam-break --set particles=300", "river --set nx=32 --set ny=16", "smoke --set n=32"};
    for (size_t i = 0; i < 3; i++) {
        const char *a = vf_test_path("est_a"), *b = vf_test_path("est_b");
        int ra = vf_test_run_capture(out, sizeof out, "VKFLUID_SLOW_FRAME_S=0 '%s' run %s --steps 2 --export '%s' --force",
                                     vf_t.vkfluid, scenes[i], a);
        int rb = vf_test_run_capture(out, sizeof out, "'%s' run %s --steps 2 --export '%s' --force --quiet", vf_t.vkfluid,
                                     scenes[i], b);
        CHECK_MSG(ra == 0 && rb == 0, "run %s: exit %d and %d", scenes[i], ra, rb);
        /* every export file but the summary (wall times) is byte-identical */
        rc = vf_test_run("cd '%s' && for f in *; do [ \"$f\" = summary.json ] || cmp -s \"$f\" '%s/'\"$f\" || exit 1; done", a, b);
        CHECK_MSG(rc == 0, "run %s: the exports with and without the estimate differ", scenes[i]);
        vf_test_run("rm -rf '%s' '%s'", a, b);
    }
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_did_you_mean();
    test_suggest();
    test_format();
    test_paper_cuts();
    test_views_help();
    test_renderer_keys();
    test_estimate();
    return vf_test_finish();
}
