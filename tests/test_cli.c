/* The command line: help for every command, version, one-line errors with
 * exit code 2 for bad input, and every option of a command's parser in its
 * --help (and nothing else there). */
#include <string.h>
#include <unistd.h>

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

/* True when line (up to its end) starts, after spaces, with opt as a whole
 * word ("  --set KEY=VALUE ...", "  -h, --help ..."): an entry of the help's
 * option list. */
static bool entry_line(const char *line, const char *opt)
{
    while (*line == ' ')
        line++;
    if (!strncmp(line, "-h, ", 4))
        line += 4;
    size_t n = strlen(opt);
    return !strncmp(line, opt, n) && (line[n] == ' ' || line[n] == '\n' || line[n] == '\0');
}

/* Every option a command's parser takes (--list-options, the table itself)
 * has an entry in its --help, and every entry of the help is an option the
 * parser takes. --help itself needs no entry. */
static void options_in_help(void)
{
    vf_test_section("every option in the parser's table has an entry in --help, and every entry is in the table");
    const char *commands[] = {"devices", "scenes", "selftest", "run", "capture", "compare", "bench", "view"};
    static char help[65536], list[4096];
    char viewer[4200];
    snprintf(viewer, sizeof viewer, "%s", vf_t.vkfluid);
    char *slash = strrchr(viewer, '/');
    snprintf(slash ? slash + 1 : viewer, sizeof viewer - (size_t)(slash ? slash + 1 - viewer : 0), "vkfluid-view");
    size_t checked = 0;
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        const char *cmd = commands[c];
        if (!strcmp(cmd, "view") && access(viewer, X_OK) != 0) {
            printf("  view: the viewer is not built, not checked\n");
            continue;
        }
        int rc = vf_test_run_capture(list, sizeof list, "'%s' %s --list-options", vf_t.vkfluid, cmd);
        CHECK_MSG(rc == 0 && list[0] == '-', "vkfluid %s --list-options: exit %d: %s", cmd, rc, list);
        rc = vf_test_run_capture(help, sizeof help, "'%s' %s --help", vf_t.vkfluid, cmd);
        CHECK_MSG(rc == 0, "vkfluid %s --help: exit %d", cmd, rc);
        /* the table's options in the help */
        for (char *opt = strtok(list, "\n"); opt; opt = strtok(NULL, "\n")) {
            if (!strcmp(opt, "--help"))
                continue;
            bool found = false;
            for (const char *line = help; *line && !found; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "")
                found = entry_line(line, opt);
            CHECK_MSG(found, "vkfluid %s --help has an entry for %s", cmd, opt);
            checked++;
        }
        /* the help's entries in the table */
        rc = vf_test_run_capture(list, sizeof list, "'%s' %s --list-options", vf_t.vkfluid, cmd);
        for (const char *line = help; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
            const char *p = line;
            while (*p == ' ')
                p++;
            if (p == line || strncmp(p, "--", 2)) /* entries are indented options */
                continue;
            char opt[64], want[70];
            snprintf(opt, sizeof opt, "%.*s", (int)strcspn(p, " \n"), p);
            snprintf(want, sizeof want, "%s\n", opt);
            CHECK_MSG(strstr(list, want) != NULL, "vkfluid %s --help lists %s, which its parser does not take", cmd, opt);
        }
    }
    printf("  %zu options found in their command's help\n", checked);
    CHECK(checked > 40);
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
    options_in_help();
    /* a bad environment variable: one warning line naming it and what it
     * takes; the command goes on without it */
    const char *envs[][2] = {
        {"VKFLUID_SLOW_FRAME_S=soon", "VKFLUID_SLOW_FRAME_S=soon: not valid: it takes a number of seconds >= 0"},
        {"VKFLUID_FAULT=oom@0", "VKFLUID_FAULT=oom@0: not valid: it takes device-lost@N or oom@N"},
        {"VKFLUID_LIMITS=tiny", "VKFLUID_LIMITS=tiny: not valid: it takes min-desktop"},
        {"VKFLUID_DESCRIPTORS=push", "VKFLUID_DESCRIPTORS=push: not valid: it takes sets"},
    };
    for (size_t i = 0; i < sizeof envs / sizeof envs[0]; i++) {
        rc = vf_test_run_capture(out, sizeof out, "{ %s '%s' scenes 2>&1 >/dev/null; }", envs[i][0], vf_t.vkfluid);
        CHECK_MSG(rc == 0 && vf_test_lines(out) == 1 && !strncmp(out, "warning: ", 9), "%s: exit %d, stderr: %s",
                  envs[i][0], rc, out);
        CHECK_STR_CONTAINS(out, envs[i][1]);
    }
    rc = vf_test_run_capture(out, sizeof out, "{ VKFLUID_SLOW_FRAME_S=0.5 VKFLUID_FAULT=oom@3 '%s' scenes 2>&1 >/dev/null; }",
                             vf_t.vkfluid);
    CHECK_MSG(rc == 0 && out[0] == 0, "valid values: no warning: %s", out);
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
    rc = vf_test_run_capture(out, sizeof out, "'%s' selftest --count 300000", vf_t.vkfluid);
    CHECK_MSG(rc == 0, "selftest: exit %d: %s", rc, out);
    CHECK_STR_CONTAINS(out, "self-test passed");
    CHECK_MSG(strstr(out, "validation:") == NULL, "selftest printed validation messages: %s", out);
    /* --wall ends an endless soak cleanly after the wall time: the final
     * check and summary as at the end (a run that ignored it would not end) */
    expect_usage_error("run cavity --steps 1 --wall 0", "--wall 0: must be a positive number");
    double t0 = vf_app_now();
    rc = vf_test_run_capture(out, sizeof out,
                             "'%s' run cavity --set grid.n=16 --time 1e9 --wall 1 --check-every 20 "
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
