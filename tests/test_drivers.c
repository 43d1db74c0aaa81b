/* Every built-in scene on the current driver, and the descriptor-set path.
 *
 * For each scene that `vkfluid scenes` lists, at test sizes: a run with an
 * export and a capture of two frames, each once with the device's default
 * descriptor path and once with VKFLUID_DESCRIPTORS=sets. Every invocation
 * must exit 0 and print nothing on stderr (validation with synchronization
 * validation is on: tests.cmake sets VKFLUID_VALIDATION=1), and the exported
 * fields and the PNG frames of the two paths must be byte-identical (the
 * descriptors a dispatch sees do not depend on how they were bound).
 *
 * On a device without VK_KHR_push_descriptor (SwiftShader) both runs use
 * descriptor sets: the comparison is then a determinism check.
 *
 * VKFLUID_DRIVER_LIGHT=1 (the driver matrix, whose SwiftShader has no push
 * descriptors, so both paths would be the same there, and whose lavapipe rows
 * differ from the suite's in subgroup size or limits only; the sanitizer run)
 * runs one step and one frame, once per scene, with the device's path: every
 * pass of every scene still runs and must be clean, and nothing is compared. */
#include <stdlib.h>
#include <string.h>

#define VF_TESTLIB_NO_GPU
#include "testlib.h"

static char out[65536];

/* The test sizes of each solver: small enough for CPU drivers, large enough
 * that every pass of the solver and its renderer runs. */
typedef struct solver_size {
    const char *solver;
    const char *sets;
} solver_size;

static const solver_size sizes[] = {
    {"height", "--set nx=48 --set ny=32 --set flow_cells=16"},
    {"grid", "--set n=32"},
    {"sph", "--set particles=600"},
    {"grid3d", "--set n=8"},
    {"terrain", "--set nx=32 --set ny=16 --set dx=4"},
};

/* Keys only some scenes have. */
static const char *extra_of(const char *scene)
{
    if (!strcmp(scene, "fountain"))
        return "--set capacity=1200";
    if (!strcmp(scene, "boat"))
        return "--set boat_length=1 --set boat_width=0.4"; /* the boat fits the test size's 2.4 m domain */
    return "";
}

static const char *size_of(const char *solver)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!strcmp(sizes[i].solver, solver))
            return sizes[i].sets;
    return NULL;
}

/* Runs cmd with stderr to ERR; checks exit 0 and an empty stderr. */
static bool run_clean(const char *what, const char *env, const char *args)
{
    const char *err = vf_test_path("stderr.txt");
    int rc = vf_test_run("%s '%s' %s >/dev/null 2>'%s'", env, vf_t.vkfluid, args, err);
    size_t n = 0;
    char *text = vf_test_read_file(err, &n);
    bool ok = CHECK_MSG(rc == 0, "%s: exit %d: %.2000s", what, rc, text ? text : "");
    ok = CHECK_MSG(n == 0, "%s prints nothing on stderr: %.2000s", what, text ? text : "") && ok;
    free(text);
    return ok;
}

static void one_scene(const char *scene, const char *solver, bool light)
{
    const char *sets = size_of(solver);
    if (!CHECK_MSG(sets != NULL, "scene %s: solver %s has no test size in tests/test_drivers.c: add one", scene, solver))
        return;
    int steps = light ? 1 : 2;
    char args[2048], what[256];
    const char *paths[2] = {"push", "sets"};
    const char *envs[2] = {"env -u VKFLUID_DESCRIPTORS", "env VKFLUID_DESCRIPTORS=sets"};
    for (int k = 0; k < (light ? 1 : 2); k++) {
        char dir[256];
        snprintf(dir, sizeof dir, "%s-run-%s", scene, paths[k]);
        snprintf(args, sizeof args, "run %s %s %s --steps %d --export '%s' --quiet", scene, sets, extra_of(scene), steps,
                 vf_test_path(dir));
        snprintf(what, sizeof what, "run %s (%s)", scene, paths[k]);
        run_clean(what, envs[k], args);
        snprintf(dir, sizeof dir, "%s-capture-%s", scene, paths[k]);
        snprintf(args, sizeof args, "capture %s %s %s --frames %d --size 64x48 --out '%s' --quiet", scene, sets,
                 extra_of(scene), steps, vf_test_path(dir));
        snprintf(what, sizeof what, "capture %s (%s)", scene, paths[k]);
        run_clean(what, envs[k], args);
    }
    if (light)
        return;
    /* the fields (CSV, VTK) and frames; summary.json and capture.json hold timings */
    char a[256], b[256];
    snprintf(a, sizeof a, "%s-run-push", scene);
    snprintf(b, sizeof b, "%s-run-sets", scene);
    int rc = vf_test_run_capture(out, sizeof out, "ls '%s' | grep -v summary.json | grep . >/dev/null && diff -r -x summary.json '%s' '%s'",
                                 vf_test_path(a), vf_test_path(a), vf_test_path(b));
    CHECK_MSG(rc == 0, "%s: the exports of both descriptor paths exist and are byte-identical: %.2000s", scene, out);
    snprintf(a, sizeof a, "%s-capture-push", scene);
    snprintf(b, sizeof b, "%s-capture-sets", scene);
    rc = vf_test_run_capture(out, sizeof out, "ls '%s' | grep -q '^frame_.*png$' && diff -r -x capture.json '%s' '%s'",
                             vf_test_path(a), vf_test_path(a), vf_test_path(b));
    CHECK_MSG(rc == 0, "%s: the frames of both descriptor paths exist and are byte-identical: %.2000s", scene, out);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    bool light = vf_test_light();
    if (light)
        printf("VKFLUID_DRIVER_LIGHT=1: one step and one frame per scene, the device's descriptor path only\n");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' devices", vf_t.vkfluid);
    CHECK_MSG(rc == 0, "vkfluid devices: exit %d: %s", rc, out);
    printf("%s", out);
    CHECK_MSG(strstr(out, "* ") != NULL, "vkfluid devices marks a usable default device: %s", out);

    vf_test_section("--device naming a driver that is not installed: one line listing the devices");
    rc = vf_test_run_capture(out, sizeof out, "'%s' selftest --device no-such-driver", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 2);
    CHECK_STR_CONTAINS(out, "--device no-such-driver matches no device: the devices are 0: ");
    char *nl = strchr(out, '\n');
    CHECK_MSG(nl && nl[1] == 0, "exactly one line: %s", out);

    vf_test_section("selftest, with either descriptor path");
    run_clean("selftest (default descriptors)", "env -u VKFLUID_DESCRIPTORS", "selftest");
    run_clean("selftest (descriptor sets)", "env VKFLUID_DESCRIPTORS=sets", "selftest");

    vf_test_section("every built-in scene runs and captures cleanly with either descriptor path, byte-identical");
    static char list[16384];
    rc = vf_test_run_capture(list, sizeof list, "'%s' scenes", vf_t.vkfluid);
    CHECK_MSG(rc == 0, "vkfluid scenes: exit %d", rc);
    int scenes = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        char scene[64], solver[32];
        if (sscanf(line, "%63s %31s", scene, solver) != 2)
            continue;
        /* strtok keeps its place in list; one_scene uses only out */
        printf("scene %s (%s)\n", scene, solver);
        one_scene(scene, solver, light);
        scenes++;
    }
    CHECK_MSG(scenes >= 10, "vkfluid scenes lists the built-in scenes (%d)", scenes);
    return vf_test_finish();
}
