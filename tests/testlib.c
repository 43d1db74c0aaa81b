#include "testlib.h"

#include "capture.h"
#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "render.h"
#include "solver_grid.h"
#include "solver_grid3d.h"
#include "solver_height.h"
#include "scenes.h"
#include "solver_sph.h"
#include "solver_sph_ref.h"
#include "solver_terrain.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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
    /* validation on unless the environment says otherwise (the sanitizer
     * build's tests set VKFLUID_VALIDATION=0: tests/tests.cmake); the
     * commands a test runs inherit it */
    setenv("VKFLUID_VALIDATION", "1", 0);
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

bool vf_test_light(void)
{
    const char *v = getenv("VKFLUID_DRIVER_LIGHT");
    return v && !strcmp(v, "1");
}

vf_gpu *vf_test_start(int argc, char **argv)
{
    vf_test_init(argc, argv);
    return vf_test_gpu();
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
    vf_gpu_desc desc = {.validation = 0}; /* VKFLUID_VALIDATION: on unless set to 0 (vf_test_init) */
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

double vf_test_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*state >> 11) / 9007199254740992.0;
}

float vf_test_randf(uint64_t *state)
{
    *state = *state * 6364136223846793005ull + 1442695040888963407ull;
    return (float)((*state >> 40) & 0xffffff) / 16777216.0f;
}

double vf_test_norm3(const double *v)
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

void vf_test_compare(const char *what, const float *got, const float *ref, size_t n, uint32_t width, double tol,
                     double floor_)
{
    double err;
    size_t worst = vf_test_max_diff(got, ref, n, &err);
    double scale = fmax(floor_, vf_test_max_abs(ref, n));
    printf("  %-34s max |gpu - cpu| = %.3g (scale %.3g, tol %.2g)\n", what, err, scale, tol);
    char at[64];
    if (width)
        snprintf(at, sizeof at, "(%zu, %zu)", worst % width, worst / width);
    else
        snprintf(at, sizeof at, "%zu", worst);
    CHECK_MSG(err <= tol * scale, "%s: max |gpu - cpu| %.3g at %s gpu %.9g cpu %.9g > %.1g x %.3g", what, err, at,
              n ? got[worst] : 0.0, n ? ref[worst] : 0.0, tol, scale);
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

void vf_test_bad_runs(const vf_test_bad *cases, size_t n, bool no_folder)
{
    static char out[8192];
    const char *dir = vf_test_path("bad");
    for (size_t k = 0; k < n; k++) {
        const char *a = cases[k].args;
        int rc = vf_test_run_capture(out, sizeof out, "'%s' run %s --export '%s'", vf_t.vkfluid, a, dir);
        printf("  vkfluid run %s -> exit %d: %s", a, rc, out);
        CHECK_MSG(rc == 2, "vkfluid run %s: exit %d, want 2", a, rc);
        CHECK_MSG(vf_test_lines(out) == 1 && !strncmp(out, "error: ", 7), "vkfluid run %s: one error line", a);
        CHECK_STR_CONTAINS(out, cases[k].want);
        if (no_folder)
            CHECK_MSG(!vf_test_exists(dir), "vkfluid run %s: nothing written to %s", a, dir);
        else
            CHECK_MSG(vf_test_count_files(dir, "") == 0, "vkfluid run %s: files written to %s", a, dir);
        rmdir(dir);
    }
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

/* A creator of a solver from its desc with the check of check_created. */
#define TEST_CREATOR(type, name, desc_type, create)                                                                    \
    type *name(vf_gpu *gpu, const desc_type *d)                                                                        \
    {                                                                                                                  \
        type *out = NULL;                                                                                              \
        char err[256] = "";                                                                                            \
        check_created(create(gpu, d, &out, NULL, err, sizeof err), err);                                               \
        return out;                                                                                                    \
    }
TEST_CREATOR(vf_solver, vf_test_height_solver, vf_height_desc, vf_height_create)
TEST_CREATOR(vf_solver, vf_test_terrain, vf_terrain_desc, vf_terrain_create)
TEST_CREATOR(vf_grid, vf_test_grid, vf_grid_desc, vf_grid_create)
TEST_CREATOR(vf_grid3d, vf_test_grid3d, vf_grid3d_desc, vf_grid3d_create)
TEST_CREATOR(vf_sph, vf_test_sph, vf_sph_desc, vf_sph_create)

vf_solver *vf_test_scene(vf_gpu *gpu, const char *scene, const char *const *sets, int nsets)
{
    const vf_scene_info *info = vf_scene_find(scene);
    if (!CHECK_MSG(info != NULL, "scene %s is registered", scene))
        return NULL;
    void *desc = calloc(1, info->desc_size);
    vf_scene_defaults(info, desc);
    char err[512] = "";
    for (int i = 0; i < nsets; i++)
        if (!CHECK_MSG(vf_params_set(info->params, info->param_count, desc, sets[i], err, sizeof err) == VF_OK, "%s: %s",
                       sets[i], err)) {
            free(desc);
            return NULL;
        }
    vf_solver *s = NULL;
    if (CHECK_MSG(info->validate(info, desc, NULL, err, sizeof err) == VF_OK, "validate: %s", err))
        CHECK_MSG(info->create(info, gpu, desc, &s, NULL, err, sizeof err) == VF_OK, "create %s: %s", scene, err);
    free(desc);
    return s;
}

bool vf_test_frames(vf_gpu *gpu, vf_solver *s, uint32_t frames)
{
    for (uint32_t f = 0; f < frames; f++) {
        VkCommandBuffer cmd;
        if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
            return false;
        if (!CHECK(vf_solver_record_frame(s, cmd, NULL) == VF_OK)) {
            vf_cmd_oneshot_abandon(gpu, cmd);
            return false;
        }
        if (!CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK) || !CHECK(vf_solver_frame_done(s) == VF_OK))
            return false;
    }
    return true;
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

vf_result vf_test_run_steps(vf_gpu *gpu, const vf_test_steps *how, uint32_t count)
{
    while (count > 0) {
        uint32_t n = how->chunk && how->chunk < count ? how->chunk : count;
        VkCommandBuffer cmd;
        vf_result r = vf_cmd_oneshot_begin(gpu, &cmd);
        if (r != VF_OK)
            return r;
        if (how->to_compute)
            vf_cmd_barrier_transfer_to_compute(cmd);
        for (uint32_t k = 0; k < n && r == VF_OK; k++)
            r = how->record(how->user, cmd, k + 1 == n);
        if (r != VF_OK) {
            vf_cmd_oneshot_abandon(gpu, cmd);
            return r;
        }
        if (how->to_transfer)
            vf_cmd_barrier_compute_to_transfer(cmd);
        if ((r = vf_cmd_oneshot_submit(gpu, cmd)) != VF_OK)
            return r;
        count -= n;
    }
    return VF_OK;
}

/* What the family helpers below record in vf_test_run_steps: a step of a 2D
 * grid, a 3D grid or the SPH solver, or one pass of a 2D or 3D grid; with
 * the barriers and chunks of each (the solvers' own one-shot recording). */
typedef enum family_work {
    GRID_STEP,
    GRID3D_STEP,
    SPH_STEP,
    GRID_PASS,
    GRID3D_PASS,
    GRID_SOLVE,
    GRID3D_SOLVE
} family_work;

typedef struct family_run {
    family_work what;
    void *solver;
    int pass; /* the pass, or the pressure method of a solve */
    uint32_t iters;
} family_run;

static vf_result family_record(void *user, VkCommandBuffer cmd, bool last)
{
    const family_run *f = user;
    switch (f->what) {
    case GRID_STEP: return vf_grid_record_step(f->solver, cmd, NULL, last);
    case GRID3D_STEP: return vf_grid3d_record_step(f->solver, cmd, NULL);
    case SPH_STEP: return vf_sph_record_step(f->solver, cmd, NULL, vf_sph_dt(f->solver));
    case GRID_PASS: return vf_grid_record_pass(f->solver, cmd, (vf_grid_pass)f->pass, NULL);
    case GRID3D_PASS: return vf_grid3d_record_pass(f->solver, cmd, (vf_grid3d_pass)f->pass, NULL);
    case GRID_SOLVE: return vf_grid_record_pressure_iterations(f->solver, cmd, (vf_grid_pressure)f->pass, f->iters);
    case GRID3D_SOLVE: return vf_grid3d_record_pressure(f->solver, cmd, (vf_grid3d_pressure)f->pass, f->iters);
    }
    return VF_ERR_INVALID_ARG;
}

static vf_result family_steps(vf_gpu *gpu, family_work what, void *solver, int pass, uint32_t count)
{
    family_run f = {what, solver, pass, count};
    if (what == GRID_SOLVE || what == GRID3D_SOLVE)
        count = 1;
    vf_test_steps how = {.record = family_record, .user = &f};
    how.chunk = what == SPH_STEP ? 64 : 0;
    how.to_compute = what != SPH_STEP;
    how.to_transfer = what == GRID3D_STEP || what == GRID3D_PASS || what == GRID3D_SOLVE;
    return vf_test_run_steps(gpu, &how, count);
}

vf_result vf_test_grid_steps(vf_gpu *gpu, vf_grid *g, uint32_t count)
{
    return family_steps(gpu, GRID_STEP, g, 0, count);
}

vf_result vf_test_grid3d_steps(vf_gpu *gpu, vf_grid3d *g, uint32_t count)
{
    return family_steps(gpu, GRID3D_STEP, g, 0, count);
}

vf_result vf_test_sph_steps(vf_gpu *gpu, vf_sph *s, uint32_t count)
{
    return family_steps(gpu, SPH_STEP, s, 0, count);
}

bool vf_test_grid_pass(vf_grid *g, int pass)
{
    return family_steps(vf_grid_solver(g)->gpu, GRID_PASS, g, pass, 1) == VF_OK;
}

bool vf_test_grid3d_pass(vf_grid3d *g, int pass)
{
    return family_steps(vf_grid3d_solver(g)->gpu, GRID3D_PASS, g, pass, 1) == VF_OK;
}

float (*vf_test_sph_column(vf_sph_desc *d))[4]
{
    const double s = 0.01, g = 9.81, rho0 = 1000, hs = 2.41;
    const int nx = 14, ny = 18;
    const double W = nx * s, D = ny * s;
    uint32_t n = (uint32_t)(nx * nx * ny);
    float(*pos)[4] = calloc(n, sizeof *pos);
    *d = (vf_sph_desc){0};
    if (!pos)
        return NULL;
    uint32_t i = 0;
    for (int y = 0; y < ny; y++)
        for (int z = 0; z < nx; z++)
            for (int x = 0; x < nx; x++, i++) {
                pos[i][0] = (float)((x + 0.5) * s);
                pos[i][1] = (float)((y + 0.5) * s);
                pos[i][2] = (float)((z + 0.5) * s);
            }
    d->hi[0] = d->hi[2] = W;
    d->hi[1] = 1.5 * D;
    d->spacing = s;
    d->h = hs * s;
    d->rho0 = rho0;
    d->speed_ref = sqrt(2 * g * D);
    d->sound_speed = 10 * d->speed_ref;
    d->restitution = 0.2;
    d->gravity[1] = -g;
    d->cfl = 0.25;
    d->frame_dt = 1.0 / 60;
    d->count = n;
    d->pos = (const float(*)[4])pos;
    return pos;
}

vf_test_hydrostatic vf_test_sph_hydrostatic(const vf_sph_snapshot *snap, const vf_sph_params *prm, const vf_sph_desc *d)
{
    const double s = d->spacing, W = d->hi[0], h = d->h, rho0 = d->rho0, g = -d->gravity[1];
    vf_test_hydrostatic r = {.surface = snap->count * s * s * s / (W * W)};
    double sum = 0, derr = 0, ay = 0;
    for (uint32_t k = 0; k < snap->count; k++) {
        double x = snap->pos[k][0], y = snap->pos[k][1], z = snap->pos[k][2];
        double depth = r.surface - y;
        if (depth < 2 * h || y < 2 * h || x < 2 * h || x > W - 2 * h || z < 2 * h || z > W - 2 * h)
            continue;
        double num = 0, den = 0;
        for (uint32_t j = 0; j < snap->count; j++) {
            double dx = x - snap->pos[j][0], dy = y - snap->pos[j][1], dz = z - snap->pos[j][2];
            if (j != k) {
                double dd[3] = {dx, dy, dz}, grad[3];
                if (d->method == VF_SPH_DFSPH)
                    vf_sph_ref_dfsph_grad(prm, dd, grad);
                else
                    vf_sph_ref_shader_spiky_grad(prm, dd, grad);
                ay -= prm->mass / (rho0 * rho0) * (snap->dens[k][1] + snap->dens[j][1]) * grad[1];
            }
            double w = vf_sph_ref_poly6(sqrt(dx * dx + dy * dy + dz * dz), h) * prm->mass / snap->dens[j][0];
            num += w * snap->dens[j][1];
            den += w;
        }
        double expect = rho0 * g * depth;
        double e = (num / den - expect) / expect;
        r.worst = fmax(r.worst, fabs(e));
        r.worst_raw = fmax(r.worst_raw, fabs(snap->dens[k][1] - expect) / expect);
        sum += e;
        derr += snap->dens[k][0] / rho0 - 1;
        r.used++;
    }
    if (r.used) {
        r.mean = sum / r.used;
        r.density = derr / r.used;
        r.accel = ay / r.used;
    }
    return r;
}

double vf_test_sph_kinetic(const vf_sph_snapshot *snap)
{
    double ke = 0;
    for (uint32_t k = 0; k < snap->count; k++)
        ke += 0.5 * (snap->vel[k][0] * snap->vel[k][0] + snap->vel[k][1] * snap->vel[k][1] +
                     snap->vel[k][2] * snap->vel[k][2]);
    return snap->count ? ke / snap->count : 0;
}

void vf_test_sph_obstacles(vf_sph_desc *d)
{
    d->sphere_count = 1;
    d->spheres[0][0] = d->spheres[0][1] = d->spheres[0][2] = 0.1;
    d->spheres[0][3] = 0.03;
    d->box_count = 1;
    d->box_lo[0][0] = 0.15, d->box_lo[0][1] = 0.02, d->box_lo[0][2] = 0.02;
    d->box_hi[0][0] = 0.2, d->box_hi[0][1] = 0.12, d->box_hi[0][2] = 0.07;
}

vf_test_cluster vf_test_sph_cluster(uint64_t *rng, int m, double s, double offset, double jitter, double speed)
{
    size_t cap = (size_t)m * m * m;
    float(*pos)[4] = calloc(2 * cap, sizeof *pos), (*vel)[4] = pos ? pos + cap : NULL;
    if (!pos)
        return (vf_test_cluster){0};
    uint32_t i = 0;
    for (int z = 0; z < m; z++)
        for (int y = 0; y < m; y++)
            for (int x = 0; x < m; x++) {
                int c[3] = {x, y, z};
                for (int k = 0; k < 3; k++) {
                    pos[i][k] = (float)(offset + s * (c[k] + jitter * (vf_test_rand(rng) - 0.5)));
                    vel[i][k] = (float)(speed * (vf_test_rand(rng) - 0.5));
                }
                double q[3] = {pos[i][0] - 0.1, pos[i][1] - 0.1, pos[i][2] - 0.1};
                bool in_sphere = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] < 0.03 * 0.03;
                bool in_box = pos[i][0] > 0.15 && pos[i][0] < 0.2 && pos[i][1] > 0.02 && pos[i][1] < 0.12 &&
                              pos[i][2] > 0.02 && pos[i][2] < 0.07;
                if (!in_sphere && !in_box)
                    i++;
            }
    return (vf_test_cluster){pos, vel, i};
}

uint32_t *vf_test_sph_where(const vf_sph_snapshot *snap, uint32_t n)
{
    uint32_t *where = calloc(n ? n : 1, 4);
    for (uint32_t k = 0; where && k < n; k++)
        if (snap->id[k] < n)
            where[snap->id[k]] = k;
    return where;
}

bool vf_test_grid_pressure(vf_grid *g, int method, uint32_t iters)
{
    return family_steps(vf_grid_solver(g)->gpu, GRID_SOLVE, g, method, iters) == VF_OK;
}

bool vf_test_grid3d_pressure(vf_grid3d *g, int method, uint32_t iters)
{
    return family_steps(vf_grid3d_solver(g)->gpu, GRID3D_SOLVE, g, method, iters) == VF_OK;
}

void vf_test_check_fft_counts(const vf_gpu_counters *c)
{
    const vf_kernel_count *fw = vf_gpu_counters_kernel(c, "vkfft forward");
    const vf_kernel_count *iv = vf_gpu_counters_kernel(c, "vkfft inverse");
    printf("  counted: %llu dispatches (vkfft forward %llu, inverse %llu), %llu bytes\n",
           (unsigned long long)c->dispatches, fw ? (unsigned long long)fw->dispatches : 0ull,
           iv ? (unsigned long long)iv->dispatches : 0ull, (unsigned long long)c->bytes);
    CHECK(fw && iv && fw->dispatches >= 2 && iv->dispatches >= 2 && fw->bytes > 0 && iv->bytes > 0);
    CHECK(fw && iv && c->dispatches == fw->dispatches + iv->dispatches + 1);
}

void *vf_test_read_grid(vf_grid *g, int field, size_t *n, uint32_t *width)
{
    uint32_t h;
    vf_grid_field_size(g, (vf_grid_field)field, width, &h);
    *n = (size_t)*width * h;
    void *out = malloc(*n * 4);
    if (!CHECK(out != NULL) || !CHECK(vf_grid_read(g, (vf_grid_field)field, out) == VF_OK)) {
        free(out);
        return NULL;
    }
    return out;
}

void vf_test_compare_grid(const char *what, vf_grid *g, int field, const float *ref, double tol, double floor_)
{
    size_t n;
    uint32_t w;
    float *got = vf_test_read_grid(g, field, &n, &w);
    if (got)
        vf_test_compare(what, got, ref, n, w, tol, floor_);
    free(got);
}
