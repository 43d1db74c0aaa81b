/* GPU faults and frames in parts, through `vkfluid run`:
 * - VKFLUID_FAULT parsing (device-lost@N, oom@N);
 * - frames split into several submits (--substeps-per-submit) give exports
 *   byte-identical to one submit per frame, for sph, grid and height (the
 *   pass times are printed, never asserted: they depend on the load);
 * - an injected device loss or out-of-memory at a chosen submit exits 3 with
 *   one error line naming the frame, the submit and its passes and what to
 *   try, and writes the state of the last passed --check-every check, equal
 *   to a plain run's export of that frame, to the export folder or a new
 *   out/SCENE-failure (never into another run's non-empty folder);
 * - run, capture and bench report a gpu failure in one line of one shape
 *   (the scene, the frame, the passes, what was being done, what to try and
 *   the last good state or why none was kept), exit 3; run and capture
 *   write the last good state where the line says. */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VF_TESTLIB_NO_GPU
#include "gpu_context.h"
#include "testlib.h"

static char out[65536];
static char vkfluid[4096]; /* absolute: the runs change into the scratch folder */

#define SPH "dam-break --set sph.spacing=0.04 --set sph.frame_dt=0.005"
#define GRID "smoke --set grid.n=32 --set grid.frame_dt=0.1"
#define HEIGHT "pool --set height.nx=32 --set height.ny=32"

/* Runs vkfluid in the scratch folder (so out/ lands there) with an optional
 * VKFLUID_FAULT; returns the exit code, output in out. */
static int run(const char *fault, const char *args)
{
    char env[128] = "";
    if (fault)
        snprintf(env, sizeof env, "VKFLUID_FAULT=%s ", fault);
    return vf_test_run_capture(out, sizeof out, "cd '%s' && %s'%s' run %s --quiet", vf_t.scratch, env, vkfluid,
                               args);
}

/* The sum of the "NAME  X ms/frame" lines of a run's output. */
static double total_ms_per_frame(const char *s)
{
    double sum = 0;
    for (const char *p = strstr(s, " ms/frame"); p; p = strstr(p + 1, " ms/frame")) {
        const char *q = p;
        while (q > s && q[-1] != ' ')
            q--;
        sum += atof(q);
    }
    return sum;
}

static void parse_fault(void)
{
    vf_test_section("VKFLUID_FAULT values");
    vf_result f = VF_OK;
    uint64_t n = 0;
    CHECK(vf_gpu_parse_fault("device-lost@3", &f, &n) && f == VF_ERR_DEVICE_LOST && n == 3);
    CHECK(vf_gpu_parse_fault("oom@1", &f, &n) && f == VF_ERR_OUT_OF_DEVICE_MEMORY && n == 1);
    const char *bad[] = {"", "oom", "oom@", "oom@0", "oom@-1", "oom@1x", "crash@2", "device-lost@99999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(!vf_gpu_parse_fault(bad[i], &f, &n), "'%s' must be rejected", bad[i]);
    CHECK(!vf_gpu_parse_fault(NULL, &f, &n));
}

/* Split vs one submit per frame: the same bytes. */
static void split_identical(const char *family, const char *scene, const char *file)
{
    char section[128];
    snprintf(section, sizeof section, "%s: frames in parts give identical results", family);
    vf_test_section(section);
    double ms[2] = {0, 0};
    const char *ks[2] = {"0", "1"};
    for (int i = 0; i < 2; i++) {
        char args[512];
        snprintf(args, sizeof args, "%s --steps 3 --export split_%s_%s --substeps-per-submit %s", scene, family, ks[i],
                 ks[i]);
        int rc = run(NULL, args);
        CHECK_MSG(rc == 0, "run %s: exit %d: %s", args, rc, out);
        CHECK_MSG(strstr(out, "validation") == NULL, "validation messages: %s", out);
        ms[i] = total_ms_per_frame(out);
    }
    char a[512], b[512];
    snprintf(a, sizeof a, "%s/split_%s_0/%s", vf_t.scratch, family, file);
    snprintf(b, sizeof b, "%s/split_%s_1/%s", vf_t.scratch, family, file);
    CHECK_MSG(vf_test_same_file(a, b), "%s and %s must be identical", a, b);
    /* printed only: timings depend on the load of the machine, so no test
     * asserts on them (the benchmark measures them) */
    printf("  %s: %.3f ms/frame in one submit, %.3f ms/frame in parts of one substep\n", family, ms[0], ms[1]);
}

/* One error line (printed), exit 3, naming the frame, the passes, what to
 * try and the last good state, of frame 2. */
static void check_failure_line(int rc, const char *what, const char *frame, const char *pass)
{
    CHECK_MSG(rc == 3, "exit %d, want 3: %s", rc, out);
    CHECK_MSG(vf_test_lines(out) == 1, "%d lines, want one: %s", vf_test_lines(out), out);
    CHECK_MSG(!strncmp(out, "error: ", 7), "starts with 'error: ': %s", out);
    CHECK_STR_CONTAINS(out, what);
    CHECK_STR_CONTAINS(out, frame);
    CHECK_STR_CONTAINS(out, pass);
    CHECK_STR_CONTAINS(out, "try a smaller size");
    CHECK_STR_CONTAINS(out, "--device");
    CHECK_STR_CONTAINS(out, "last good state (frame 2,");
    printf("  %s", out);
}

/* A run without a fault that exports the reference states. */
static void reference_run(const char *args)
{
    int rc = run(NULL, args);
    CHECK_MSG(rc == 0, "reference run: exit %d: %s", rc, out);
}

/* The last good state a failure wrote (got) equals the reference run's
 * export of that frame (ref); both paths inside the scratch folder. */
static void same_as_reference(const char *ref, const char *got)
{
    const char *r = vf_test_path(ref), *g = vf_test_path(got);
    CHECK_MSG(vf_test_same_file(r, g), "the last good state %s equals the export of frame 2 %s", g, r);
}

static void sph_device_lost(void)
{
    vf_test_section("sph: device lost in the middle of a frame");
    /* 7 substeps per frame in parts of 2: 4 submits per frame; submit 10 is
     * frame 3, submit 2; the check after frame 2 passed */
    reference_run(SPH " --steps 2 --export sph_ref");
    int rc = run("device-lost@10", SPH " --steps 4 --check-every 1 --substeps-per-submit 2");
    check_failure_line(rc, "the gpu device was lost", "at frame 3, submit 2 of the frame", "forces");
    CHECK_STR_CONTAINS(out, "--substeps-per-submit 1");
    CHECK_STR_CONTAINS(out, "written to out/dam-break-failure");
    same_as_reference("sph_ref/particles_0000.csv", "out/dam-break-failure/particles_0000.csv");
    /* a second failure never mixes into the first one's folder */
    rc = run("device-lost@1", SPH " --steps 2");
    CHECK_EQ_INT(rc, 3);
    CHECK_STR_CONTAINS(out, "frame 1");
    CHECK_STR_CONTAINS(out, "last good state (frame 0, t = 0 s) written to out/dam-break-failure-2");
    const char *got = vf_test_path("out/dam-break-failure-2/particles_0000.vtp");
    CHECK_MSG(vf_test_exists(got), "%s exists", got);
}

static void grid_oom(void)
{
    vf_test_section("grid: out of device memory, last good state into the export folder");
    reference_run(GRID " --steps 2 --export grid_ref");
    int rc = run("oom@3", GRID " --steps 4 --check-every 1 --substeps-per-submit 0 --export grid_fault");
    check_failure_line(rc, "out of device memory", "at frame 3 (passes", "grid_pressure");
    CHECK_STR_CONTAINS(out, "grid_fault");
    same_as_reference("grid_ref/grid_0000.csv", "grid_fault/grid_0000.csv");
    const char *got = vf_test_path("grid_fault/grid_0000.vti");
    CHECK_MSG(vf_test_exists(got), "%s exists", got);
    /* without --check-every nothing was kept: the line says how to keep it */
    rc = run("device-lost@2", GRID " --steps 3");
    CHECK_EQ_INT(rc, 3);
    CHECK_STR_CONTAINS(out, "no good state was kept (--check-every N keeps one)");
}

static void height_device_lost(void)
{
    vf_test_section("height: device lost, last good state from a periodic check");
    reference_run(HEIGHT " --steps 2 --export height_ref");
    int rc = run("device-lost@4", HEIGHT " --steps 5 --check-every 2 --substeps-per-submit 0");
    check_failure_line(rc, "the gpu device was lost", "at frame 4 (passes", "height_");
    CHECK_STR_CONTAINS(out, "splitting frames (--substeps-per-submit 8)");
    CHECK_STR_CONTAINS(out, "written to out/pool-failure");
    same_as_reference("height_ref/height_0000.csv", "out/pool-failure/height_0000.csv");
}

/* Runs `vkfluid ARGS --quiet` in the scratch folder with VKFLUID_FAULT=fault
 * and checks the one failure line: exit 3, its shape, the frame; with
 * state_file, that the last good state was written and holds it. */
static void same_failure_line(const char *fault, const char *args, const char *frame, const char *state_file)
{
    int rc = vf_test_run_capture(out, sizeof out, "cd '%s' && VKFLUID_FAULT=%s '%s' %s --quiet", vf_t.scratch, fault,
                                 vkfluid, args);
    CHECK_MSG(rc == 3, "%s: exit %d, want 3: %s", args, rc, out);
    CHECK_MSG(vf_test_lines(out) == 1, "%s: %d lines, want one: %s", args, vf_test_lines(out), out);
    size_t n = strlen(out);
    if (n && out[n - 1] == '\n')
        out[n - 1] = 0;
    regex_t re;
    regmatch_t m[6];
    if (!CHECK(regcomp(&re, VF_TEST_GPU_FAILURE_SHAPE, REG_EXTENDED) == 0))
        return;
    bool shaped = regexec(&re, out, 6, m, 0) == 0;
    regfree(&re);
    CHECK_MSG(shaped, "%s: the failure line has the common shape: %s", args, out);
    printf("  %s\n", out);
    if (!shaped)
        return;
    char got[32];
    snprintf(got, sizeof got, "%.*s", (int)(m[2].rm_eo - m[2].rm_so), out + m[2].rm_so);
    CHECK_MSG(!strcmp(got, frame), "%s: frame %s, want %s", args, got, frame);
    if (!state_file)
        return;
    CHECK_MSG(m[5].rm_so >= 0, "%s: the last good state was written: %s", args, out);
    if (m[5].rm_so < 0)
        return;
    char file[600];
    snprintf(file, sizeof file, "%.*s/%s", (int)(m[5].rm_eo - m[5].rm_so), out + m[5].rm_so, state_file);
    const char *path = vf_test_path(file);
    CHECK_MSG(vf_test_exists(path), "%s: %s exists", args, path);
}

static void every_command(void)
{
    vf_test_section("run, capture and bench: one failure line of one shape");
    same_failure_line("device-lost@3", "run " GRID " --steps 4 --check-every 1", "3", "grid_0000.vti");
    same_failure_line("device-lost@3", "capture " GRID " --frames 4 --size 64x48 --check-every 1 --out cap_fault", "3",
                      "grid_0000.vti");
    same_failure_line("device-lost@3",
                      "bench --scene smoke --sizes 32 --frames 2 --warmup 1 --repeat 1 --render 64x48 --out bench_fault",
                      "3", NULL);
}

/* The pace estimate before a command's first frame (not with --quiet) runs
 * on the frame runner's own timed submits: a failure there gets the same
 * one line, naming the first frame and its submit. */
static void estimate_failure(void)
{
    vf_test_section("run, capture and bench: a failure while timing the first frame's pace");
    const char *cmds[] = {
        "run " GRID " --steps 2",
        "capture " GRID " --frames 2 --size 64x48 --out cap_estimate",
        "bench --scene smoke --sizes 32 --frames 2 --warmup 1 --repeat 1 --render 64x48 --out bench_estimate",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        int rc = vf_test_run_capture(out, sizeof out, "cd '%s' && VKFLUID_FAULT=device-lost@1 '%s' %s", vf_t.scratch,
                                     vkfluid, cmds[i]);
        CHECK_MSG(rc == 3, "%s: exit %d, want 3: %s", cmds[i], rc, out);
        CHECK_MSG(vf_test_lines(out) == 1, "%s: %d lines, want one: %s", cmds[i], vf_test_lines(out), out);
        CHECK_STR_CONTAINS(out, "error: scene smoke");
        CHECK_STR_CONTAINS(out, ": the gpu device was lost at frame 1, submit 1 of the frame while submitting: try ");
        CHECK_STR_CONTAINS(out, ", another gpu (--device) or a newer driver; no good state was kept (");
        printf("  %s", out);
    }
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    char cwd[2048];
    if (vf_t.vkfluid[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(vkfluid, sizeof vkfluid, "%s/%s", cwd, vf_t.vkfluid);
    else
        snprintf(vkfluid, sizeof vkfluid, "%s", vf_t.vkfluid);
    parse_fault();
    split_identical("sph", SPH, "particles_0000.csv");
    split_identical("grid", GRID, "grid_0000.csv");
    split_identical("height", HEIGHT, "height_0000.csv");
    sph_device_lost();
    grid_oom();
    height_device_lost();
    every_command();
    estimate_failure();
    return vf_test_finish();
}
