#include "testlib.h"

#include "capture.h"
#include "gpu_cmd.h"
#include "render.h"
#include "solver_grid3d.h"
#include "solver_height.h"
#include "solver_sph.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

vf_test_state vf_t;

void vf_test_init(int argc, char **argv)
{
    vf_t.vkfluid = argc > 1 ? argv[1] : "build/vkfluid";
    vf_t.source = argc > 2 ? argv[2] : ".";
    vf_t.scratch = argc > 3 ? argv[3] : "build/tests/scratch/unnamed";
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", vf_t.scratch, vf_t.scratch);
    if (system(cmd) != 0) {
        fprintf(stderr, "test setup: cannot create scratch dir %s\n", vf_t.scratch);
        exit(1);
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
}

int vf_test_finish(void)
{
    printf("%d passed, %d failed\n", vf_t.passed, vf_t.failed);
    return vf_t.failed ? 1 : 0;
}

bool vf_test_check(bool cond, const char *file, int line, const char *fmt, ...)
{
    if (cond) {
        vf_t.passed++;
        return true;
    }
    vf_t.failed++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "FAIL %s:%d: ", file, line);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    return false;
}

static int status_of(int st)
{
    if (st == -1)
        return -1;
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    return 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

int vf_test_run(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    fflush(stdout);
    return status_of(system(cmd));
}

int vf_test_run_capture(char *out, size_t cap, const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[8300];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    fflush(stdout);
    FILE *p = popen(full, "r");
    if (!p) {
        if (cap)
            out[0] = 0;
        return -1;
    }
    size_t used = 0;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) {
        if (cap && used + 1 < cap) {
            size_t k = n < cap - 1 - used ? n : cap - 1 - used;
            memcpy(out + used, buf, k);
            used += k;
        }
    }
    if (cap)
        out[used] = 0;
    return status_of(pclose(p));
}

const char *vf_test_path(const char *name)
{
    static char ring[8][4096];
    static int next;
    char *p = ring[next++ % 8];
    snprintf(p, 4096, "%s/%s", vf_t.scratch, name);
    return p;
}

void vf_test_section(const char *name)
{
    printf("-- %s\n", name);
}

vf_gpu *vf_test_gpu(void)
{
    vf_device_info devs[VF_MAX_DEVICES];
    uint32_t n = 0;
    vf_result res = vf_gpu_enumerate(devs, VF_MAX_DEVICES, &n);
    if (res == VF_ERR_NO_LOADER || res == VF_ERR_NO_DEVICE) {
        printf("SKIP: %s\n", vf_result_message(res));
        exit(77);
    }
    vf_gpu_desc desc = {.validation = 1};
    const char *dev = getenv("VKFLUID_TEST_DEVICE");
    if (dev && *dev) {
        uint32_t idx;
        if (vf_gpu_match_device(devs, n, dev, &idx) == VF_OK) {
            desc.device_set = true;
            desc.device_index = (int)idx;
        }
    }
    vf_gpu *gpu = NULL;
    res = vf_gpu_create(&desc, &gpu);
    if (res != VF_OK) {
        printf("FAIL: cannot create the test gpu context: %s\n", vf_result_message(res));
        exit(1);
    }
    printf("device: %s (validation %s)\n", gpu->info.name, gpu->validation ? "on" : "off");
    return gpu;
}

void vf_test_gpu_done(vf_gpu **gpu)
{
    if (!gpu || !*gpu)
        return;
    uint32_t count = vf_gpu_shutdown(gpu);
    CHECK_MSG(count == 0, "validation messages: %u (must be 0)", count);
}

char *vf_test_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        if (size)
            *size = (size_t)n;
    }
    return buf;
}

bool vf_test_same_file(const char *a, const char *b)
{
    size_t na = 0, nb = 0;
    char *x = vf_test_read_file(a, &na), *y = vf_test_read_file(b, &nb);
    bool same = x && y && na == nb && memcmp(x, y, na) == 0;
    free(x);
    free(y);
    return same;
}

bool vf_test_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

int vf_test_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

double vf_test_max_abs(const float *a, size_t n)
{
    double m = 0;
    for (size_t k = 0; k < n; k++)
        m = fmax(m, fabs(a[k]));
    return m;
}

size_t vf_test_max_diff(const float *got, const float *ref, size_t n, double *err)
{
    size_t worst = 0;
    *err = 0;
    for (size_t k = 0; k < n; k++) {
        double e = fabs((double)got[k] - ref[k]);
        if (!(e <= *err)) {
            *err = e;
            worst = k;
        }
    }
    return worst;
}

char *vf_test_read_checked(const char *dir, const char *name, size_t *size)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    char *buf = vf_test_read_file(path, size);
    CHECK_MSG(buf != NULL, "%s exists", path);
    return buf;
}

void vf_test_golden(const char *golden, const char *args, const char *broken, const char *what)
{
    static char out[65536];
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/golden/%s", vf_t.source, golden);
    if (getenv("VKFLUID_UPDATE_GOLDEN")) {
        vf_test_run("rm -rf '%s' && '%s' capture %s --out '%s' --quiet && rm -f '%s/capture.json'", dir, vf_t.vkfluid,
                    args, dir, dir);
        printf("golden frames rewritten in %s\n", dir);
    }
    const char *g = vf_test_path("g"), *b = vf_test_path("broken");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture %s --out '%s' --quiet", vf_t.vkfluid, args, g);
    CHECK_MSG(rc == 0, "capture: exit %d: %s", rc, out);
    vf_test_run("rm -f '%s/capture.json'", g);
    rc = vf_test_run_capture(out, sizeof out, "'%s' compare '%s' '%s' --threshold ssim=0.95 --threshold psnr=30",
                             vf_t.vkfluid, dir, g);
    printf("%s", out);
    CHECK_MSG(rc == 0, "the capture matches the golden frames (exit %d)", rc);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture %s %s --out '%s' --quiet && rm -f '%s/capture.json'",
                             vf_t.vkfluid, args, broken, b, b);
    CHECK_MSG(rc == 0, "capture with %s (%s): exit %d: %s", broken, what, rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' compare '%s' '%s' --threshold ssim=0.95 --threshold psnr=30",
                             vf_t.vkfluid, dir, b);
    printf("%s", out);
    CHECK_MSG(rc == 1, "%s fails the golden comparison (exit %d, want 1)", what, rc);
}

size_t vf_test_count_files(const char *dir, const char *needle)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, needle) != NULL;
    closedir(d);
    return n;
}

/* Checks the result of a solver's create, naming the error. */
static void check_created(vf_result r, const char *err)
{
    CHECK_MSG(r == VF_OK, "create: %s (%s)", vf_result_message(r), err);
}

vf_solver *vf_test_height_solver(vf_gpu *gpu, const vf_height_desc *d)
{
    vf_solver *s = NULL;
    char err[256] = "";
    check_created(vf_height_create(gpu, d, &s, NULL, err, sizeof err), err);
    return s;
}

vf_grid3d *vf_test_grid3d(vf_gpu *gpu, const vf_grid3d_desc *d)
{
    vf_grid3d *g = NULL;
    char err[256] = "";
    check_created(vf_grid3d_create(gpu, d, &g, NULL, err, sizeof err), err);
    return g;
}

vf_sph *vf_test_sph(vf_gpu *gpu, const vf_sph_desc *d)
{
    vf_sph *sph = NULL;
    char err[256] = "";
    check_created(vf_sph_create(gpu, d, &sph, NULL, err, sizeof err), err);
    return sph;
}

const uint8_t *vf_test_render_frames(vf_gpu *gpu, vf_solver *s, vf_renderer *r, vf_capture *cap, int frames)
{
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        return NULL;
    for (int f = 0; f < frames; f++) {
        vf_solver_record_frame(s, cmd, NULL);
        vf_solver_frame_done(s);
    }
    vf_render_barrier_after_sim(cmd);
    vf_image *target = vf_capture_target(cap);
    vf_render_prepare_target(cmd, target);
    CHECK(r->vt->record(r, cmd, target, NULL) == VF_OK);
    vf_capture_record_readback(cap, cmd);
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    return vf_capture_pixels(cap);
}
