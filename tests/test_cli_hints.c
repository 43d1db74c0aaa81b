/* "did you mean" on unknown commands, scenes, options and keys, and numbers
 * printed in the shortest form that reads back exactly. */
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

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_did_you_mean();
    test_suggest();
    test_format();
    return vf_test_finish();
}
