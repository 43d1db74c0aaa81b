/* "did you mean" on unknown commands, scenes, options and keys, numbers
 * printed in the shortest form that reads back exactly, and the command
 * line's small cuts: capture's last frame, an option missing its value,
 * compare without thresholds, capture.json's view name, scenes --export
 * without a name, the size limit's number. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

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

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_did_you_mean();
    test_suggest();
    test_format();
    test_paper_cuts();
    return vf_test_finish();
}
