/* Reliability of the command line against hostile but realistic input:
 * - every count from user numbers bounded before any gpu work, with one line
 *   naming the key (--time over frame_dt, sph substeps per frame, height
 *   substeps from a tiny dx), and --export-every with an interval far below
 *   frame_dt ends (it used to spin forever);
 * - scenes that cannot be made divergence-free are refused up front;
 * - capture checks the state as run does (exit 1 on a blown-up scene);
 * - --force removes exactly what vkfluid wrote (a stale capture.json and 30
 *   frames go, other files stay);
 * - a full disk says "no space left on device" with the path, exit 3, and
 *   leaves no temporary;
 * - JSON and --set numbers as JSON writes them, \u0000 refused, bytes from
 *   files printable in messages, a PNG without IEND says so;
 * - SIGINT ends a run with exit 130, summary.json marked interrupted, one
 *   line, no temporary file. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <zlib.h>

#define VF_TESTLIB_NO_GPU
#include "cmd_report.h"
#include "fileio.h"
#include "png_io.h"
#include "testlib.h"

static char out[65536];

static bool has_control_bytes(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
            return true;
    return false;
}

/* vkfluid ARGS must exit 2 with one "error: " line holding each needle. */
static void expect_error(const char *args, const char *n1, const char *n2)
{
    int rc = vf_test_run_capture(out, sizeof out, "'%s' %s", vf_t.vkfluid, args);
    CHECK_MSG(rc == 2, "vkfluid %s: exit %d, want 2: %s", args, rc, out);
    CHECK_MSG(vf_test_lines(out) == 1 && !strncmp(out, "error: ", 7), "vkfluid %s: one error line: %s", args, out);
    CHECK_MSG(!has_control_bytes(out), "vkfluid %s: control bytes in the message", args);
    if (n1)
        CHECK_STR_CONTAINS(out, n1);
    if (n2)
        CHECK_STR_CONTAINS(out, n2);
}

/* Writes one PNG chunk: length, type, data, CRC. */
static void png_chunk(FILE *f, const char *type, const uint8_t *data, size_t n)
{
    uint8_t be[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    fwrite(be, 1, 4, f);
    fwrite(type, 1, 4, f);
    if (n)
        fwrite(data, 1, n, f);
    uLong crc = crc32(crc32(0L, (const Bytef *)type, 4), data ? data : (const Bytef *)"", (uInt)n);
    uint8_t c[4] = {(uint8_t)(crc >> 24), (uint8_t)(crc >> 16), (uint8_t)(crc >> 8), (uint8_t)crc};
    fwrite(c, 1, 4, f);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (CHECK_MSG(f != NULL, "create %s", path)) {
        fputs(text, f);
        fclose(f);
    }
}

static void bounds(void)
{
    vf_test_section("counts from user numbers are bounded before any gpu work");
    expect_error("run cavity --set grid.n=16 --time 1e300 --quiet", "--time", "grid.frame_dt");
    expect_error("run dam-break --set sph.frame_dt=1e-300 --time 1 --quiet", "sph.frame_dt", "at most");
    /* a fast sound speed and a long frame: thousands of substeps per frame */
    expect_error("run dam-break --set sph.sound_speed=10000 --set sph.frame_dt=1 --steps 1", "frame_dt", "at most 2000");
    /* a tiny cell: the key the user set (dx), not the derived substep */
    expect_error("run pool --set height.dx=1e-6 --steps 1", "dx=1e-06", "substeps per frame");
    expect_error("run pool --set height.dt=1e-9 --steps 1", "dt=1e-09", "substeps per frame");
    /* a particle count that follows from spacing names spacing; 3.1e10
     * particles, more than any device holds (0.0005 m gives 2.5e8, which fit
     * a 141 GB GPU and made this a real run there), beyond 32-bit indices,
     * so refused with the scene, before the device (as below) */
    expect_error("run dam-break --set sph.spacing=0.0001 --steps 1", "spacing: 0.0001 m gives", "do not fit any device");

    vf_test_section("--export-every far below frame_dt exports every frame and ends");
    const char *dir = vf_test_path("every");
    int rc = vf_test_run_capture(out, sizeof out,
                                 "timeout 300 '%s' run cavity --set grid.n=16 --steps 3 --export-every 1e-300 --export '%s' "
                                 "--quiet",
                                 vf_t.vkfluid, dir);
    CHECK_MSG(rc == 0, "exit %d (124: it hung): %s", rc, out);
    CHECK_MSG(vf_test_count_files(vf_test_path("every"), ".vti") == 3, "%zu exports, want 3",
              vf_test_count_files(vf_test_path("every"), ".vti"));
}

static void scene_files(void)
{
    vf_test_section("hostile scene files: the reason, the key, printable");
    char args[8400];
    const char *h = vf_t.source;
    snprintf(args, sizeof args, "run '%s/tests/hostile/inflow_every_side.json' --steps 1", h);
    expect_error(args, "inflows", "divergence-free");
    snprintf(args, sizeof args, "run '%s/tests/hostile/obstacle_covers_domain.json' --steps 1", h);
    expect_error(args, "obstacles", "cover the whole");
    snprintf(args, sizeof args, "run '%s/tests/hostile/leading_zero.json' --steps 1", h);
    expect_error(args, "leading zero", "column 53");
    snprintf(args, sizeof args, "run '%s/tests/hostile/nul_escape.json' --steps 1", h);
    expect_error(args, "\\u0000", "NUL");
    snprintf(args, sizeof args, "run '%s/tests/hostile/mask_all_black.json' --steps 1", h);
    expect_error(args, "obstacles[0] (mask", "all_black_mask.png");
    CHECK_MSG(strstr(out, "surface") == NULL, "an all-black mask must not blame surface: %s", out);
    snprintf(args, sizeof args, "run '%s/tests/hostile/mask_no_iend.json' --steps 1", h);
    expect_error(args, "IEND", "no_iend.png");
    snprintf(args, sizeof args, "run '%s/tests/hostile/mask_escape_chunk.json' --steps 1", h);
    expect_error(args, "\\x1b[2J", "invalid type");
    snprintf(args, sizeof args, "compare '%s/tests/hostile/escape_chunk.png' '%s/tests/hostile/no_iend.png'", h, h);
    expect_error(args, "\\x1b[2J", NULL);
    snprintf(args, sizeof args, "compare '%s/tests/hostile/all_black_mask.png' '%s/tests/hostile/no_iend.png'", h, h);
    expect_error(args, "the file ends before its IEND chunk", NULL);

    vf_test_section("--set numbers as JSON writes them");
    static const char *const not_json[] = {"n=0x10", "n= 16", "n=016", "lid=+1", "lid=.5"};
    for (size_t k = 0; k < sizeof not_json / sizeof not_json[0]; k++) {
        snprintf(args, sizeof args, "run cavity --set 'grid.%s' --steps 1", not_json[k]);
        expect_error(args, not_json[k], "not a number as JSON writes one");
    }
}

static void capture_checks(void)
{
    vf_test_section("capture checks the state like run: a blown-up scene exits 1");
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' capture dam-break --set sph.spacing=0.04 --set sph.gravity=1000 --set sph.cfl=1 "
                                 "--frames 6 --check-every 5 --size 32x32 --out '%s' --quiet",
                                 vf_t.vkfluid, vf_test_path("blowup"));
    CHECK_MSG(rc == 1, "capture of a blown-up scene: exit %d, want 1: %s", rc, out);
    CHECK_STR_CONTAINS(out, "check failed at frame");
    CHECK_MSG(access(vf_test_path("blowup/capture.json"), F_OK) != 0, "no capture.json for a failed capture");
}

static void force(void)
{
    vf_test_section("--force replaces what vkfluid wrote and nothing else");
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s", vf_test_path("forced"));
    mkdir(dir, 0777);
    snprintf(path, sizeof path, "%s/capture.json", dir);
    write_text(path, "{\"frames\": 3}\n");
    for (int i = 0; i < 30; i++) {
        snprintf(path, sizeof path, "%s/frame_%05d.png", dir, i);
        write_text(path, "stale");
    }
    const char *keep[] = {"notes.txt", "frame_final.png", "frame_00001.png.bak", "summary.json.old", "my.tmp.x"};
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, keep[i]);
        write_text(path, "mine");
    }
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture cavity --set grid.n=16 --frames 2 --size 16x16 --out '%s' --quiet",
                                 vf_t.vkfluid, dir);
    CHECK_MSG(rc == 2, "without --force a non-empty folder is refused: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out,
                             "'%s' capture cavity --set grid.n=16 --frames 2 --size 16x16 --out '%s' --force --quiet",
                             vf_t.vkfluid, dir);
    CHECK_MSG(rc == 0, "capture --force: exit %d: %s", rc, out);
    CHECK_MSG(vf_test_count_files(dir, "frame_0") == 3,
              "%zu frame_0* files, want the 2 new frames and frame_00001.png.bak", vf_test_count_files(dir, "frame_0"));
    snprintf(path, sizeof path, "%s/frame_00002.png", dir);
    CHECK_MSG(access(path, F_OK) != 0, "the stale frame_00002.png is gone");
    snprintf(path, sizeof path, "%s/capture.json", dir);
    char *json = vf_test_read_file(path, NULL);
    if (CHECK(json != NULL)) {
        CHECK_STR_CONTAINS(json, "\"frames\": 2");
        free(json);
    }
    for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, keep[i]);
        CHECK_MSG(access(path, F_OK) == 0, "--force kept %s", keep[i]);
    }
    CHECK(vf_output_is_own_file("grid_0003.vti") && vf_output_is_own_file("particles_0000.vtp") &&
          vf_output_is_own_file("summary.json.tmp.123") && vf_output_is_own_file("grid_0001_warp.png"));
    CHECK(vf_output_is_own_file("grid3d_0002.vti") && vf_output_is_own_file("work.csv") && vf_output_is_own_file("lockstep.txt") &&
          vf_output_is_own_file("surface_0004.ply"));
    CHECK(!vf_output_is_own_file("grid_.vti") && !vf_output_is_own_file("grid_1.exe") &&
          !vf_output_is_own_file("summary.json.tmp.") && !vf_output_is_own_file("notes.txt"));
}

static void full_disk(void)
{
    vf_test_section("a full disk: 'no space left on device' with the path, exit 3, no temporary");
    /* the library: a write that fails with ENOSPC (/dev/full) */
    vf_file file;
    CHECK(vf_file_begin(&file, vf_test_path("full.json")) == VF_OK);
    if (file.f && CHECK(freopen("/dev/full", "wb", file.f) != NULL)) {
        fputs("{}\n", file.f);
        CHECK_EQ_INT(vf_file_commit(&file), VF_ERR_NO_SPACE);
        CHECK_MSG(!strcmp(vf_result_message(VF_ERR_NO_SPACE), "no space left on device"), "%s",
                  vf_result_message(VF_ERR_NO_SPACE));
    }
    CHECK_MSG(vf_test_count_files(vf_t.scratch, ".tmp.") == 0, "no temporary left");
    /* the command line, on a tiny tmpfs when this machine lets us mount one */
    char mnt[4096];
    snprintf(mnt, sizeof mnt, "%s", vf_test_path("tiny"));
    mkdir(mnt, 0777);
    if (vf_test_run_capture(out, sizeof out, "mount -t tmpfs -o size=64k tmpfs '%s'", mnt) != 0) {
        printf("  (no tmpfs mount here: the command-line half is skipped: %s)\n", out);
        return;
    }
    /* fill it: the folders still fit, the files do not */
    vf_test_run_capture(out, sizeof out, "dd if=/dev/zero of='%s/fill' bs=4k 2>/dev/null; true", mnt);
    const char *what[3] = {"run", "capture", "compare --diff"};
    for (int k = 0; k < 3; k++) {
        int rc = k == 0   ? vf_test_run_capture(out, sizeof out,
                                                "'%s' run cavity --set grid.n=64 --steps 1 --export '%s/run' --quiet",
                                                vf_t.vkfluid, mnt)
                 : k == 1 ? vf_test_run_capture(out, sizeof out,
                                                "'%s' capture cavity --set grid.n=16 --frames 1 --size 512x512 --out '%s/cap' "
                                                "--quiet",
                                                vf_t.vkfluid, mnt)
                          : vf_test_run_capture(out, sizeof out,
                                                "'%s' compare '%s/tests/hostile/all_black_mask.png' "
                                                "'%s/tests/hostile/all_black_mask.png' --diff '%s/diff.png'",
                                                vf_t.vkfluid, vf_t.source, vf_t.source, mnt);
        CHECK_MSG(rc == 3, "%s on a full disk: exit %d, want 3: %s", what[k], rc, out);
        CHECK_MSG(vf_test_lines(out) == 1, "one line: %s", out);
        CHECK_STR_CONTAINS(out, "no space left on device");
        CHECK_STR_CONTAINS(out, mnt);
    }
    vf_test_run_capture(out, sizeof out, "find '%s' -name '*.tmp.*'", mnt);
    CHECK_MSG(out[0] == 0, "temporaries left on the full disk: %s", out);
    vf_test_run_capture(out, sizeof out, "umount '%s'", mnt);
}

static void interrupt(void)
{
    vf_test_section("SIGINT: the frame ends, summary.json marked interrupted, one line, exit 130");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", vf_test_path("sigint"));
    /* the signal goes once the first export exists (the handler is in place
     * by then), however slow the machine */
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' run cavity --set grid.n=16 --time 1e9 --export-every 0.1 --export '%s' --quiet 2>&1 "
                                 "& pid=$!; i=0; while [ ! -e '%s/grid_0000.vti' ] && [ $i -lt 3000 ]; do sleep 0.1; "
                                 "i=$((i+1)); done; kill -INT $pid; wait $pid; echo \"rc=$?\"",
                                 vf_t.vkfluid, dir, dir);
    CHECK_MSG(rc == 0, "shell: exit %d: %s", rc, out);
    CHECK_STR_CONTAINS(out, "rc=130");
    CHECK_STR_CONTAINS(out, "interrupted (SIGINT) after frame");
    CHECK_MSG(vf_test_lines(out) == 2, "one line, then rc: %s", out);
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *json = vf_test_read_file(path, NULL);
    if (CHECK_MSG(json != NULL, "%s written", path)) {
        CHECK_STR_CONTAINS(json, "\"interrupted\": true");
        free(json);
    }
    CHECK_MSG(vf_test_count_files(dir, ".tmp.") == 0, "no temporary left in %s", dir);
}


static void early_checks(void)
{
    vf_test_section("every check that needs no device runs before it: --device nosuch never gets asked");
    /* each of these would report the missing device instead if the device came first */
    expect_error("run cavity --set grid.n=16 --time 1e300 --device nosuch --quiet", "--time", "grid.frame_dt");
    char args[8400];
    mkdir(vf_test_path("used"), 0777);
    write_text(vf_test_path("used/mine.txt"), "mine");
    snprintf(args, sizeof args, "run cavity --set grid.n=16 --steps 1 --export '%s' --device nosuch --quiet",
             vf_test_path("used"));
    expect_error(args, "the folder is not empty", "--force");
    expect_error("capture smoke --set n=16 --frames 1 --render 'dye|pressure' --device nosuch --quiet", "--render dye|pressure",
                 "exactly one");
    write_text(vf_test_path("two_views.json"),
               "{\"solver\": \"grid\", \"scene\": \"smoke\", \"grid\": {\"n\": 16}, \"render\": {\"mode\": \"dye|pressure\"}}");
    snprintf(args, sizeof args, "capture '%s' --frames 1 --device nosuch --quiet", vf_test_path("two_views.json"));
    expect_error(args, "render.mode", "is not a view");
    expect_error("run smoke --steps 3 --serve bad.host.invalid:7000 --device nosuch --quiet", "--serve", "cannot resolve");
    expect_error("run dam-break --set sph.spacing=0.0001 --steps 1 --device nosuch --quiet", "spacing: 0.0001 m gives",
                 "do not fit any device");
    /* the sph substeps a frame takes, from user numbers: checked with the scene */
    expect_error("run dam-break --set sph.sound_speed=10000 --set sph.frame_dt=1 --steps 1 --device nosuch --quiet",
                 "frame_dt", "at most 2000");
    expect_error("capture dam-break --set sph.method=dfsph --set sph.dfsph_dt_max=1e-5 --set sph.frame_dt=1 --frames 1 "
                 "--device nosuch --quiet",
                 "frame_dt: 1 s needs 100000 dfsph substeps", "use frame_dt in (0, 0.02]");
    /* a client given --steps: the usage error at once, before connecting (nobody listens here) */
    expect_error("run --join 127.0.0.1:9 --token abcdefgh --steps 3 --quiet", "--join", "drop --steps");
    expect_error("run --join 127.0.0.1:9 --quiet", "--join", "needs --token");

    vf_test_section("one exit code for an output that cannot be written: 3");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run cavity --set grid.n=16 --steps 1 --export /proc/version/out --device nosuch --quiet",
                                 vf_t.vkfluid);
    CHECK_MSG(rc == 3 && vf_test_lines(out) == 1 && strstr(out, "cannot create the folder"),
              "an export folder that cannot be created: exit %d (want 3): %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --set n=16 --frames 1 --out /proc/version/out --device nosuch --quiet",
                             vf_t.vkfluid);
    CHECK_MSG(rc == 3 && vf_test_lines(out) == 1, "capture --out that cannot be created: exit %d (want 3): %s", rc, out);
}

static void clean_text(void)
{
    vf_test_section("terminal bytes from arguments are escaped as PNG chunk names are");
    /* ESC, a C1 control (U+009B, CSI) and a bidi override (U+202E) in every kind of argument */
    const char *hostile = "\x1b[2J\xc2\x9b\xe2\x80\xae";
    const char *cmds[] = {
        "compare '%s.png' b.png", "compare a.png b.png --threshold '%s'", "run smoke '--%s'", "'%s'",
        "run smoke --steps '%s'", "run smoke --steps 1 --device '%s'", "run smoke --steps 1 --export x --export-compress '%s'",
        "scenes --export '%s'", "run smoke --set '%s=1' --steps 1", "run smoke --set 'n=%s' --steps 1",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, cmds[i], hostile);
        int rc = vf_test_run_capture(out, sizeof out, "cd '%s' && '%s' %s", vf_t.scratch, vf_t.vkfluid, args);
        CHECK_MSG(rc != 0 && !has_control_bytes(out) && !strstr(out, "\xc2\x9b") && !strstr(out, "\xe2\x80\xae") &&
                      (strstr(out, "\\x1b") || strstr(out, "\\u009b")),
                  "vkfluid %s: exit %d, the bytes escaped: %s", cmds[i], rc, out);
    }
    write_text(vf_test_path("c1_key.json"), "{\"solver\": \"grid\", \"scene\": \"smoke\", \"grid\": {\"n\xc2\x9b\": 16}}");
    char args[8400];
    snprintf(args, sizeof args, "run '%s' --steps 1", vf_test_path("c1_key.json"));
    expect_error(args, "\\u009b", "unknown key");

    vf_test_section("numbers with at most 6 significant digits, no doubled prefixes");
    expect_error("run cavity --set cfl=1e-300 --set frame_dt=0.1 --steps 1", "e+30", "substeps of at most");
    CHECK_MSG(strlen(out) < 400, "a short line: %s", out);
    expect_error("run cavity --set grid.re=123456789012 --steps 1", "re=123456789012: out of range", NULL);
    write_text(vf_test_path("long_number.json"),
               "{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"re\": 12345678.912345678}}");
    snprintf(args, sizeof args, "run '%s' --steps 1", vf_test_path("long_number.json"));
    expect_error(args, "grid.re: 1.23457e+07 is out of range", NULL);
    FILE *f = fopen(vf_test_path("bad_set.rec"), "wb");
    if (CHECK(f)) { /* a record whose --set line is out of range */
        fputs("VFREPLAY\x01", f);
        fwrite("\0\0\0\x05smoke\x01\0\0\0\x04\0n=3\n\xff\xff\x00\0\0\0", 1, 25, f);
        fclose(f);
    }
    snprintf(args, sizeof args, "run --replay '%s' --quiet", vf_test_path("bad_set.rec"));
    expect_error(args, "--set n=3: out of range", NULL);
    CHECK_MSG(!strstr(out, "n=3: n=3"), "no doubled prefix: %s", out);

    vf_test_section("scene files get did-you-mean for keys, scenes, solvers and shape fields");
    const struct {
        const char *json, *want;
    } dym[] = {
        {"{\"solver\": \"grid\", \"scene\": \"smoke\", \"grid\": {\"vorticty\": 1}}", "did you mean vorticity?"},
        {"{\"solver\": \"grid\", \"scene\": \"smok\"}", "did you mean smoke?"},
        {"{\"solver\": \"gird\", \"scene\": \"smoke\"}", "did you mean grid?"},
        {"{\"solver\": \"grid\", \"scene\": \"smoke\", \"obstacle\": []}", "did you mean obstacles?"},
        {"{\"solver\": \"grid\", \"scene\": \"smoke\", \"obstacles\": [{\"shape\": \"sphere\", \"center\": [0.5, 0.5], "
         "\"radus\": 0.1}]}",
         "did you mean radius?"},
        {"{\"solver\": \"grid\", \"scene\": \"smoke\", \"obstacles\": [{\"shape\": \"spere\", \"center\": [0.5, 0.5]}]}",
         "did you mean sphere?"},
        {"{\"solver\": \"grid\", \"scene\": \"smoke\", \"camera\": {\"eye\": [0, 0, 1], \"targte\": [0, 0, 0]}}",
         "did you mean target?"},
    };
    for (size_t i = 0; i < sizeof dym / sizeof dym[0]; i++) {
        char name[32];
        snprintf(name, sizeof name, "dym%zu.json", i);
        write_text(vf_test_path(name), dym[i].json);
        snprintf(args, sizeof args, "run '%s' --steps 1", vf_test_path(name));
        expect_error(args, dym[i].want, NULL);
    }
}

static void json_finite(void)
{
    vf_test_section("every number in a report is finite, or the command fails naming the field");
    /* the mechanism: a NaN is written as null, the file committed and the field named */
    vf_file file;
    char field[256];
    if (CHECK(vf_file_begin(&file, vf_test_path("nan.json")) == VF_OK)) {
        fputs("{\n  \"grid\": {\"ok\": 1, \"final_divergence_l2\": ", file.f);
        vf_json_number(file.f, NAN);
        fputs("}\n}\n", file.f);
        CHECK_EQ_INT(vf_report_commit(&file, field, sizeof field), VF_ERR_NUMERIC);
        CHECK_MSG(!strcmp(field, "grid.final_divergence_l2"), "the field named: %s", field);
        char *text = vf_test_read_file(vf_test_path("nan.json"), NULL);
        cJSON *j = text ? cJSON_Parse(text) : NULL;
        CHECK_MSG(j != NULL, "written, and JSON: %s", text ? text : "(none)");
        cJSON_Delete(j);
        free(text);
    }
    /* text that is not JSON (a raw inf) is not written at all */
    if (CHECK(vf_file_begin(&file, vf_test_path("inf.json")) == VF_OK)) {
        fputs("{\"a\": inf}\n", file.f);
        CHECK_EQ_INT(vf_report_commit(&file, field, sizeof field), VF_ERR_NUMERIC);
        CHECK_MSG(!vf_test_exists(vf_test_path("inf.json")) && vf_test_count_files(vf_t.scratch, "inf.json.tmp") == 0,
                  "nothing written");
    }
    /* a blow-up: the check fails (exit 1) and the summary of the failed state is JSON */
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' run dam-break --set sph.spacing=0.04 --set sph.gravity=1000 --set sph.cfl=1 "
                                 "--steps 6 --check-every 5 --export '%s' --quiet",
                                 vf_t.vkfluid, vf_test_path("blowup_run"));
    CHECK_MSG(rc == 1 && strstr(out, "check failed") && strstr(out, "with summary.json"), "a blow-up: exit %d: %s", rc,
              out);
    char *text = vf_test_read_file(vf_test_path("blowup_run/summary.json"), NULL);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    CHECK_MSG(j && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "check_failed")),
              "summary.json after a blow-up parses as JSON and names the failed check: %s", text ? text : "(none)");
    cJSON_Delete(j);
    free(text);
}

static void compare_headers(void)
{
    vf_test_section("compare reads the PNG headers first: a 16384^2 image of another size is never decoded");
    /* a valid 16384 x 16384 grey PNG of 1 MB: one deflate stream of zero rows */
    const uint32_t side = 16384;
    FILE *f = fopen(vf_test_path("huge.png"), "wb");
    z_stream z = {0};
    if (!CHECK(f) || !CHECK(deflateInit(&z, 9) == Z_OK)) {
        if (f)
            fclose(f);
        return;
    }
    uint8_t ihdr[13] = {0, 0, side >> 8, 0, 0, 0, side >> 8, 0, 8, 0, 0, 0, 0};
    size_t cap = 4u << 20, used = 0;
    uint8_t *idat = malloc(cap), row[16385] = {0};
    for (uint32_t y = 0; idat && y < side; y++) {
        z.next_in = row;
        z.avail_in = sizeof row;
        do {
            z.next_out = idat + used;
            z.avail_out = (uInt)(cap - used);
            deflate(&z, y + 1 == side ? Z_FINISH : Z_NO_FLUSH);
            used = cap - z.avail_out;
        } while (z.avail_in > 0 || (y + 1 == side && z.avail_out == 0));
    }
    deflateEnd(&z);
    const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    fwrite(sig, 1, 8, f);
    png_chunk(f, "IHDR", ihdr, sizeof ihdr);
    png_chunk(f, "IDAT", idat, used);
    png_chunk(f, "IEND", NULL, 0);
    fclose(f);
    free(idat);
    /* the small one: 8 x 8 */
    static uint8_t px[8 * 8 * 4];
    CHECK(vf_png_write(vf_test_path("small.png"), px, 8, 8) == VF_OK);
    /* 600 MB of address space: decoding the big one (1 GiB of RGBA) would fail
     * with out of memory; a sanitizer build maps far more, so it runs without */
    const char *limit = getenv("ASAN_OPTIONS") ? "" : "ulimit -v 600000; ";
    int rc = vf_test_run_capture(out, sizeof out, "%s'%s' compare '%s' '%s'", limit, vf_t.vkfluid,
                                 vf_test_path("small.png"), vf_test_path("huge.png"));
    CHECK_MSG(rc == 2 && strstr(out, "size 16384x16384 differs") && vf_test_lines(out) == 1,
              "mismatched sizes refused from the headers: exit %d: %s", rc, out);

    vf_test_section("capture refuses a size beyond the device before any work");
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --set n=16 --frames 1 --size 20000x20000 --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("cap_huge"));
    CHECK_MSG(rc == 2 && vf_test_lines(out) == 1 && strstr(out, "--size 20000x20000"), "20000^2: exit %d: %s", rc, out);
    CHECK_MSG(!vf_test_exists(vf_test_path("cap_huge")), "nothing written");
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    bounds();
    scene_files();
    force();
    full_disk();
    capture_checks();
    interrupt();
    early_checks();
    clean_text();
    json_finite();
    compare_headers();
    return vf_test_finish();
}
