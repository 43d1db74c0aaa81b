/* The command line: help for every command, version, and one-line errors with
 * exit code 2 for bad input. */
#include <string.h>

#define VF_TESTLIB_NO_GPU
#include "app.h"
#include "testlib.h"

static char out[65536];

static void expect_usage_error(const char *args, const char *needle)
{
    int rc = vf_test_run_capture(out, sizeof out, "'%s' %s", vf_t.vkfluid, args);
    CHECK_MSG(rc == 2, "vkfluid %s: exit %d, want 2 (output: %s)", args, rc, out);
    CHECK_MSG(vf_test_lines(out) == 1, "vkfluid %s: %d lines of output, want one: %s", args, vf_test_lines(out), out);
    CHECK_MSG(!strncmp(out, "error: ", 7), "vkfluid %s: output must start with 'error: ': %s", args, out);
    if (needle)
        CHECK_STR_CONTAINS(out, needle);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    int rc = vf_test_run_capture(out, sizeof out, "'%s' --version", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    CHECK_STR_CONTAINS(out, "vkfluid 0.");
    rc = vf_test_run_capture(out, sizeof out, "'%s' --help", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    const char *commands[] = {"devices", "selftest", "run", "compare"};
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        CHECK_STR_CONTAINS(out, commands[i]);
        char help[65536];
        int hrc = vf_test_run_capture(help, sizeof help, "'%s' %s --help", vf_t.vkfluid, commands[i]);
        CHECK_MSG(hrc == 0, "vkfluid %s --help: exit %d", commands[i], hrc);
        CHECK_MSG(strstr(help, "usage: vkfluid") != NULL, "vkfluid %s --help prints usage: %s", commands[i], help);
    }
    /* bare vkfluid: the usage on stdout and exit 1, as git does; nothing on stderr */
    rc = vf_test_run_capture(out, sizeof out, "{ '%s' 2>/dev/null; }", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 1);
    CHECK_STR_CONTAINS(out, "usage: vkfluid <command>");
    rc = vf_test_run_capture(out, sizeof out, "{ '%s' 2>&1 >/dev/null; }", vf_t.vkfluid);
    CHECK_MSG(out[0] == 0, "bare vkfluid printed on stderr: %s", out);
    expect_usage_error("frobnicate", "unknown command 'frobnicate'");
    /* a bad environment variable: one line naming it, before any work */
    rc = vf_test_run_capture(out, sizeof out, "VKFLUID_SLOW_FRAME_S=soon '%s' run smoke --steps 1", vf_t.vkfluid);
    CHECK_MSG(rc == 2 && vf_test_lines(out) == 1, "VKFLUID_SLOW_FRAME_S=soon: exit %d, output: %s", rc, out);
    CHECK_STR_CONTAINS(out, "VKFLUID_SLOW_FRAME_S=soon: must be a number of seconds >= 0");
    expect_usage_error("--frobnicate", "unknown option");
    expect_usage_error("devices --bogus", "unknown option '--bogus'");
    expect_usage_error("selftest --count 0", "--count");
    expect_usage_error("selftest --count", "needs a value");
    expect_usage_error("selftest --device 99", "the devices are");
    expect_usage_error("--device 99", "the devices are");
    expect_usage_error("selftest --device no-such-gpu-name", "matches no device");
    expect_usage_error("run no-such-scene --steps 1", "unknown scene");
    expect_usage_error("run", "needs a scene");
    /* No Vulkan driver at all: a one-line error that names the package. */
    rc = vf_test_run_capture(out, sizeof out, "VK_DRIVER_FILES=/nonexistent/icd.json VK_ICD_FILENAMES=/nonexistent/icd.json '%s' devices",
                             vf_t.vkfluid);
    CHECK_MSG(rc == 2, "no driver: exit %d, want 2: %s", rc, out);
    CHECK_STR_CONTAINS(out, "mesa-vulkan-drivers");
    /* devices lists at least the device the tests run on */
    rc = vf_test_run_capture(out, sizeof out, "'%s' devices", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    CHECK_STR_CONTAINS(out, "subgroup size");
    rc = vf_test_run_capture(out, sizeof out, "'%s' devices --json", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    CHECK_STR_CONTAINS(out, "\"subgroup_size\"");
    /* the self-test passes with validation on */
    rc = vf_test_run_capture(out, sizeof out, "VKFLUID_VALIDATION=1 '%s' selftest --count 300000", vf_t.vkfluid);
    CHECK_MSG(rc == 0, "selftest: exit %d: %s", rc, out);
    CHECK_STR_CONTAINS(out, "self-test passed");
    CHECK_MSG(strstr(out, "validation:") == NULL, "selftest printed validation messages: %s", out);
    /* --wall ends an endless soak cleanly after the wall time: the final
     * check and summary as at the end (a run that ignored it would not end) */
    expect_usage_error("run cavity --steps 1 --wall 0", "--wall 0: must be a positive number");
    double t0 = vf_app_now();
    rc = vf_test_run_capture(out, sizeof out,
                             "VKFLUID_VALIDATION=1 '%s' run cavity --set grid.n=16 --time 1e9 --wall 1 --check-every 20 "
                             "--export '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("soak"));
    double wall = vf_app_now() - t0;
    CHECK_MSG(rc == 0, "run --wall 1: exit %d: %s", rc, out);
    CHECK_STR_CONTAINS(out, "cavity: ");
    /* the wall time is printed, not asserted (it depends on the load); a run
     * that ignored --wall would not end at all */
    printf("run --time 1e9 --wall 1 ended after %.2f s: %s", wall, out);
    return vf_test_finish();
}
