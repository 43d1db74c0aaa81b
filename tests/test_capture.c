/* vkfluid capture and compare end to end: determinism, a golden capture of
 * the default scene, interrupted captures, capture.json, bad input, sizes
 * beyond the device and the estimate for large frames. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "png_io.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

static char out[65536];

/* The small, fast version of the default scene every test here captures. */
#define SMOKE "smoke --set n=48 --size 160x120"

static bool file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

static void test_determinism(void)
{
    vf_test_section("capture twice: identical frames");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture " SMOKE " --frames 6 --every 2 --out '%s' --quiet",
                                 vf_t.vkfluid, vf_test_path("a"));
    CHECK_MSG(rc == 0, "capture a: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture " SMOKE " --frames 6 --every 2 --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("b"));
    CHECK_MSG(rc == 0, "capture b: exit %d: %s", rc, out);
    for (int f = 0; f < 6; f += 2) {
        char name[64];
        snprintf(name, sizeof name, "a/frame_%05d.png", f);
        CHECK_MSG(file_exists(vf_test_path(name)), "%s exists", name);
    }
    CHECK(!file_exists(vf_test_path("a/frame_00001.png")));
    rc = vf_test_run("cmp -s '%s/frame_00004.png' '%s/frame_00004.png'", vf_test_path("a"), vf_test_path("b"));
    CHECK_MSG(rc == 0, "the two captures' PNGs are byte-identical");
    rc = vf_test_run_capture(out, sizeof out, "'%s' compare '%s' '%s' --json", vf_t.vkfluid, vf_test_path("a"),
                             vf_test_path("b"));
    CHECK_MSG(rc == 0, "compare exit %d: %s", rc, out);
    CHECK_STR_CONTAINS(out, "\"psnr\": null"); /* infinite */
    CHECK_STR_CONTAINS(out, "\"ssim\": 1");
    /* capture.json */
    FILE *f = fopen(vf_test_path("a/capture.json"), "r");
    if (CHECK(f != NULL)) {
        size_t n = fread(out, 1, sizeof out - 1, f);
        out[n] = 0;
        fclose(f);
        const char *keys[] = {"\"scene\": \"smoke\"", "\"parameters\"", "\"n\": 48", "\"device\"", "\"driver\"",
                              "\"frame_wall_ms\"", "\"simulated_time_per_frame\"", "\"gpu_ms_per_frame\""};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            CHECK_STR_CONTAINS(out, keys[i]);
    }
}

/* The golden frames of the default scene: survives another lavapipe or GPU
 * (fp32 reductions and rasterisation differ in the last bits) but catches a
 * broken pass (a broken pass moves SSIM far below 0.9). */
static void test_golden(void)
{
    vf_test_section("golden capture of the default scene");
    /* the tolerance catches a broken pass: the same scene without the velocity
     * splat (force 0) must fail it */
    vf_test_golden("capture_smoke", SMOKE " --frames 12 --every 4", "--set force=0", "a changed simulation");
}

static void test_interrupted(void)
{
    vf_test_section("an interrupted capture leaves only whole PNG files");
    const char *dir = vf_test_path("killed");
    vf_test_run("'%s' capture " SMOKE " --frames 100000 --out '%s' --quiet >/dev/null 2>&1 & pid=$!; "
                "for i in $(seq 1 300); do n=$(ls '%s' 2>/dev/null | grep -c 'frame_.*png$'); [ \"$n\" -ge 3 ] && break; sleep 0.1; done; "
                "kill -9 $pid; wait $pid 2>/dev/null; true",
                vf_t.vkfluid, dir, dir);
    DIR *d = opendir(dir);
    int pngs = 0, bad = 0;
    if (CHECK(d != NULL)) {
        struct dirent *e;
        while ((e = readdir(d))) {
            size_t n = strlen(e->d_name);
            if (n < 4 || strcmp(e->d_name + n - 4, ".png"))
                continue;
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            uint8_t *px = NULL;
            uint32_t w, h;
            if (vf_png_read(path, &px, &w, &h) == VF_OK && w == 160 && h == 120)
                pngs++;
            else
                bad++;
            free(px);
        }
        closedir(d);
    }
    CHECK_MSG(pngs >= 3, "whole frames written before the kill: %d", pngs);
    CHECK_EQ_INT(bad, 0);
}

static void expect_bad(const char *args, const char *needle)
{
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture %s", vf_t.vkfluid, args);
    CHECK_MSG(rc == 2, "capture %s: exit %d, want 2: %s", args, rc, out);
    CHECK_MSG(strchr(out, '\n') == strrchr(out, '\n'), "capture %s: one line: %s", args, out);
    CHECK_STR_CONTAINS(out, needle);
}

static void test_bad_input(void)
{
    vf_test_section("bad input");
    char args[8192];
    expect_bad("smoke --frames 0", "--frames");
    expect_bad("smoke --frames 2 --size 0x10", "--size");
    snprintf(args, sizeof args, "smoke --frames 2 --size 40000x100 --out '%s'", vf_test_path("huge"));
    expect_bad(args, "--size");
    /* an output that cannot be written is exit 3, as in every command */
    int wrc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --frames 2 --out /proc/vkfluid-cannot-write-here",
                                  vf_t.vkfluid);
    CHECK_MSG(wrc == 3 && strchr(out, '\n') == strrchr(out, '\n') && strstr(out, "--out"),
              "an --out folder that cannot be created: exit %d, want 3, one line: %s", wrc, out);
    snprintf(args, sizeof args, "smoke --frames 2 --out '%s'", vf_test_path("a")); /* not empty */
    expect_bad(args, "--force");
    snprintf(args, sizeof args, "smoke --frames 2 --video '%s' --out '%s'", vf_test_path("x.mp4"), vf_test_path("v"));
    int rc = vf_test_run_capture(out, sizeof out, "PATH=/nonexistent '%s' capture %s", vf_t.vkfluid, args);
    CHECK_MSG(rc == 2, "--video without ffmpeg: exit %d: %s", rc, out);
    CHECK_STR_CONTAINS(out, "install");
    CHECK(!file_exists(vf_test_path("v")));
    expect_bad("nosuchscene --frames 2", "unknown scene");
    expect_bad("smoke --set n=4 --frames 2", "n=4");
}

/* With ffmpeg installed: --video writes a whole MP4 (an ftyp box first). */
static void test_video(void)
{
    if (vf_test_run("command -v ffmpeg >/dev/null 2>&1") != 0) {
        printf("ffmpeg is not installed: the --video encoding is not exercised here (its absence is, in bad input)\n");
        return;
    }
    vf_test_section("--video with ffmpeg");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture " SMOKE " --frames 6 --out '%s' --video '%s' --quiet",
                                 vf_t.vkfluid, vf_test_path("video"), vf_test_path("video.mp4"));
    CHECK_MSG(rc == 0, "capture --video: exit %d: %s", rc, out);
    FILE *f = fopen(vf_test_path("video.mp4"), "rb");
    unsigned char head[12] = {0};
    if (CHECK(f != NULL)) {
        CHECK(fread(head, 1, sizeof head, f) == sizeof head);
        fclose(f);
    }
    CHECK_MSG(!memcmp(head + 4, "ftyp", 4), "the video is an MP4 file");

    /* Ctrl-C at a terminal signals the whole process group: the capture ends
     * its frame and the video holds every captured frame (ffmpeg runs in a
     * session of its own, so the signal does not stop it first) */
    vf_test_section("--video: SIGINT to the process group keeps the captured frames");
    const char *dir = vf_test_path("video_int"), *mp4 = vf_test_path("video_int.mp4");
    rc = vf_test_run_capture(out, sizeof out,
                             "setsid '%s' capture " SMOKE " --frames 100000 --out '%s' --video '%s' --quiet 2>&1 & pid=$!; "
                             "i=0; while [ $i -lt 3000 ]; do n=$(ls '%s' 2>/dev/null | grep -c 'frame_.*png$'); "
                             "[ \"$n\" -ge 3 ] && break; sleep 0.1; i=$((i+1)); done; kill -INT -$pid; wait $pid; "
                             "echo \"rc=$?\"; echo \"pngs=$(ls '%s' | grep -c 'frame_.*png$')\"; "
                             "ffprobe -v error -count_frames -show_entries stream=nb_read_frames -of csv=p=0 '%s'",
                             vf_t.vkfluid, dir, mp4, dir, dir, mp4);
    CHECK_MSG(rc == 0, "shell: exit %d: %s", rc, out);
    CHECK_STR_CONTAINS(out, "interrupted (SIGINT) after frame");
    CHECK_STR_CONTAINS(out, "rc=130");
    const char *p = strstr(out, "pngs=");
    int pngs = -1, encoded = -2;
    if (CHECK_MSG(p && sscanf(p, "pngs=%d %d", &pngs, &encoded) == 2, "frame counts in: %s", out))
        CHECK_MSG(pngs >= 3 && encoded == pngs, "%d PNG frames, %d encoded in %s", pngs, encoded, mp4);
}

/* The default device's memory in bytes (vkfluid devices --json), 0 if
 * unknown. */
static double default_device_memory(void)
{
    static char json[65536];
    if (vf_test_run_capture(json, sizeof json, "'%s' devices --json 2>/dev/null", vf_t.vkfluid) != 0)
        return 0;
    cJSON *list = cJSON_Parse(json), *d;
    double bytes = 0;
    cJSON_ArrayForEach(d, list)
    {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "default")))
            bytes = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(d, "memory_bytes"));
    }
    cJSON_Delete(list);
    return bytes;
}

/* capture ARGS --size SIZE: its exit code; out gets stderr and stdout. A
 * solver that cannot fit any device (4e9 particles of about 100 bytes)
 * ends the command after the size checks and before any work. */
static int capture_size(const char *size, const char *extra, const char *outdir)
{
    return vf_test_run_capture(out, sizeof out,
                               "'%s' capture dam-break --set sph.particles=4e9 --set sph.frame_dt=0.005 --frames 1 "
                               "--size %s %s --out '%s'",
                               vf_t.vkfluid, size, extra, outdir);
}

static void test_sizes(void)
{
    vf_test_section("sizes: beyond the device refused naming its limit; above 4096x4096 the estimate before any work");
    const char *dir = vf_test_path("sized");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --set n=16 --frames 1 --size 40000x64 --out '%s'",
                                 vf_t.vkfluid, dir);
    const char *at = strstr(out, "image limit of ");
    unsigned limit = 0;
    CHECK_MSG(rc == 2 && vf_test_lines(out) == 1 && at && sscanf(at, "image limit of %u pixels per side", &limit) == 1 &&
                  limit >= 4096 && limit < 40000 && strstr(out, "(maxImageDimension2D)"),
              "40000x64: exit %d (want 2), one line naming the device's limit: %s", rc, out);
    CHECK_MSG(!file_exists(dir), "nothing written");

    /* 8192x8192 (9 and 48 bytes a pixel, 1.3 us a pixel on 2 CPU cores):
     * the estimate, then the solver's refusal, nothing written */
    if (limit >= 8192) {
        rc = capture_size("8192x8192", "", dir);
        const char *est = strstr(out, "estimate: --size 8192x8192: about 576 MiB to 3.0 GiB of memory for the images");
        const char *err = strstr(out, "error: ");
        CHECK_MSG(rc == 2 && vf_test_lines(out) == 2 && est && strstr(out, "up to 87 s a written frame") && err && est < err,
                  "8192x8192: exit %d (want 2, the solver's), the estimate line first: %s", rc, out);
        CHECK_MSG(!file_exists(dir), "nothing written");
        rc = capture_size("8192x8192", "--quiet", dir);
        CHECK_MSG(rc == 2 && vf_test_lines(out) == 1 && !strstr(out, "estimate"), "--quiet: no estimate: %s", out);
    } else {
        printf("  the device's image limit is %u: no 8192x8192 estimate case\n", limit);
    }
    rc = capture_size("4096x4096", "", dir);
    CHECK_MSG(rc == 2 && vf_test_lines(out) == 1 && !strstr(out, "estimate"), "4096x4096: no estimate: %s", out);

    /* the colour target and readback (8 bytes a pixel) beyond 90% of the
     * device's memory: 16384x16384 on a device of at most 2.2 GiB */
    double mem = default_device_memory();
    if (limit >= 16384 && mem > 0 && 8.0 * 16384 * 16384 > 0.9 * mem) {
        rc = capture_size("16384x16384", "", dir);
        CHECK_MSG(rc == 2 && vf_test_lines(out) == 1 &&
                      strstr(out, "--size 16384x16384: its colour target and readback alone need 2.0 GiB of device "
                                  "memory") &&
                      strstr(out, "use a smaller --size"),
                  "16384x16384 on %.3g bytes: exit %d (want 2), one line naming the memory: %s", mem, rc, out);
        CHECK_MSG(!file_exists(dir), "nothing written");
    } else {
        printf("  %.3g bytes of device memory, image limit %u: no case beyond the memory\n", mem, limit);
    }
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_determinism();
    test_golden();
    test_interrupted();
    test_video();
    test_bad_input();
    test_sizes();
    return vf_test_finish();
}
