/* vkfluid bench: sweeps particle counts and grid sizes, timing every pass on
 * the GPU and whole frames on the wall clock, with and without rendering. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "app_paths.h"
#include "app_gpu.h"
#include "bench.h"
#include "bench_model.h"
#include "capture.h"
#include "cmd_common.h"
#include "fileio.h"
#include "frame_runner.h"
#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "gpu_pipeline.h"
#include "render_registry.h"
#include "scene_file.h"
#include "solver.h"
#include "solver_grid.h"
#include "solver_grid3d.h"
#include "scenes.h"
#include "options.h"

typedef struct bench_family {
    const char *solver, *scene, *size_key;
    const char *keys[2]; /* the scene keys set to the size */
    uint64_t first, last; /* default sweep, doubling; last 0: until it no longer fits */
    bool squared;         /* elements = size^2 (grid3d: 2 size^3, its n x 2n x n cells) */
    const char *set;      /* a KEY=VALUE every size sets too (the SPH method), or NULL */
    bool named_only;      /* not in "all": only when --solver names it or --sizes gives its sizes */
} bench_family;

static const bench_family families[] = {
    {"sph", "dam-break", "particles", {"particles", NULL}, 16384, 0, false, NULL, false},
    {"wcsph", "dam-break", "particles", {"particles", NULL}, 16384, 0, false, "method=wcsph", true},
    {"pbf", "dam-break", "particles", {"particles", NULL}, 16384, 0, false, "method=pbf", true},
    {"dfsph", "dam-break", "particles", {"particles", NULL}, 16384, 0, false, "method=dfsph", true},
    {"grid", "smoke", "n", {"n", NULL}, 128, 4096, true, NULL, false},
    {"height", "pool", "n", {"nx", "ny"}, 128, 4096, true, NULL, false},
    {"grid3d", "smoke3d", "n", {"n", NULL}, 32, 256, false, NULL, true},
    {"terrain", "terrain", "n", {"nx", "ny"}, 128, 4096, true, NULL, false},
};
#define FAMILY_COUNT (sizeof families / sizeof families[0])
_Static_assert(FAMILY_COUNT <= VF_BENCH_MAX_SOLVERS, "a report holds every benchmarked family");
#define FAMILY_NAMES "sph, wcsph, pbf, dfsph, grid, height, grid3d or terrain"

typedef struct bench_opts {
    const char *device, *out, *solver, *scene_file;
    bool listed[FAMILY_COUNT]; /* named by --solver (a comma-separated list) */
    bool all;                  /* no --solver, or --solver all */
    const char *model_dir; /* --model [DIR]: print the roofline predictions; NULL: off */
    vf_scene_loaded file_scene; /* --scene SCENE (a built-in name or a file), loaded and validated by parse (owned) */
    uint64_t sizes[FAMILY_COUNT][VF_BENCH_MAX_SIZES];
    uint32_t size_count[FAMILY_COUNT];
    bool sizes_given[FAMILY_COUNT];
    uint32_t frames, warmup, repeat;
    unsigned rw, rh;
    bool force, quiet, results;
    vf_render_path render_path;
} bench_opts;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkfluid bench [--solver LIST | --scene SCENE] [--sizes [SOLVER=]LIST]...\n"
            "                     [--render WxH|none] [--frames N] [--warmup N] [--repeat R]\n"
            "                     [--out DIR] [--results] [--force] [--device INDEX|NAME] [--quiet]\n"
            "                     [--model [DIR]] [--render-path auto|compute|raster]\n"
            "\n"
            "For each size: warm-up frames, then R repeats of N timed frames. Reports GPU\n"
            "milliseconds per pass (timestamps), simulation-only frames and steps per\n"
            "second, frames per second with rendering, effective bandwidth per pass\n"
            "against the device's measured copy bandwidth, the fitted scaling\n"
            "exponent (cost ~ size^k), the work per frame and per simulated second\n"
            "(substeps, iterations, neighbour passes, dispatches, bytes; recorded and\n"
            "run) and the real-time factor (simulated seconds per wall second) without\n"
            "and with rendering and at a 30 fps display, with the largest size that\n"
            "keeps that at 1 or more.\n"
            "\n"
            "default sweeps: sph (dam-break) particles 16384 doubling until it no longer\n"
            "fits in device memory; grid (smoke), height (pool) and terrain (terrain) 128^2\n"
            "doubling to 4096^2; grid3d (smoke3d) n = 32 doubling to 256 (n x 2n x n cells).\n"
            "\n"
            "options:\n"
            "  --solver LIST     a comma-separated list of sph, wcsph, pbf, dfsph, grid, height, grid3d,\n"
            "                    terrain, or all (default all: sph, grid, height, terrain; grid3d and\n"
            "                    the methods only when named or given --sizes NAME=LIST). sph is the\n"
            "                    dam break with its scene's method; wcsph, pbf and dfsph set method=NAME\n"
            "  --scene SCENE     sweep the sizes of a built-in scene (vkfluid scenes) or of a\n"
            "                    scene file (a .json path); its solver only\n"
            "  --sizes LIST      comma-separated sizes (particles, or cells per side) for each\n"
            "                    listed solver; SOLVER=LIST sets one solver's sizes\n"
            "  --render WxH|none render each frame offscreen at WxH too (default 1280x720)\n"
            VF_CMD_RENDER_PATH_HELP
            "  --frames N        timed frames per repeat (default 30)\n"
            "  --warmup N        untimed frames first (default 5)\n"
            "  --repeat R        repeats (default 3); medians and spread over them\n"
            "  --out DIR         writes DIR/bench.csv, bench.json, bench.svg, work.csv, table.md\n"
            "                    (default out/bench)\n"
            "  --results         also keep them as bench/results/<device>-<date>.{csv,json,svg,md}\n"
            "  --force           write into a non-empty --out folder\n"
            "  --model [DIR]     also print the roofline model's PREDICTIONS for the device\n"
            "                    files in DIR (default: those installed with vkfluid, or\n"
            "                    bench/models of its source tree): time per dispatch =\n"
            "                    max(bytes / bandwidth, latency, neighbour pass: particles x\n"
            "                    neighbour_ns x the kernel's scale) over the counted work, the\n"
            "                    real-time factors and the largest particle count at 1920x1080\n"
            "                    and 30 fps\n"
            "  --device D        the GPU to use (index or name substring)\n"
            "  --quiet           no progress lines (and no estimate of slow frames)\n");
}

static int family_index(const char *name)
{
    for (size_t i = 0; i < FAMILY_COUNT; i++)
        if (!strcmp(families[i].solver, name))
            return (int)i;
    return -1;
}

/* Parses one list of sizes into family fam. */
static int parse_size_list(bench_opts *o, int fam, const char *arg, const char *list)
{
    o->size_count[fam] = 0;
    o->sizes_given[fam] = true;
    const char *p = list;
    while (*p) {
        char *end;
        unsigned long long v = strtoull(p, &end, 10);
        if (end == p || v == 0 || v > 1000000000000ull || (*end && *end != ',') || isspace((unsigned char)*p) || *p == '-') {
            vf_app_error("--sizes %s: must be a comma-separated list of positive integers", arg);
            return VF_EXIT_USAGE;
        }
        if (o->size_count[fam] >= VF_BENCH_MAX_SIZES) {
            vf_app_error("--sizes %s: at most %d sizes", arg, VF_BENCH_MAX_SIZES);
            return VF_EXIT_USAGE;
        }
        o->sizes[fam][o->size_count[fam]++] = v;
        p = *end ? end + 1 : end;
    }
    if (!o->size_count[fam]) {
        vf_app_error("--sizes %s: the list is empty", arg);
        return VF_EXIT_USAGE;
    }
    return 0;
}

static int parse_sizes(bench_opts *o, const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (eq) {
        char name[16];
        snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
        int fam = family_index(name);
        if (fam < 0) {
            vf_app_error("--sizes %s: unknown solver '%s': use " FAMILY_NAMES, arg, name);
            return VF_EXIT_USAGE;
        }
        return parse_size_list(o, fam, arg, eq + 1);
    }
    int rc = 0, n = 0;
    for (size_t i = 0; i < FAMILY_COUNT && !rc; i++)
        if (!o->all && o->listed[i]) {
            rc = parse_size_list(o, (int)i, arg, arg);
            n++;
        }
    if (!rc && !n) {
        vf_app_error("--sizes %s: say which solver: --solver NAME --sizes LIST or --sizes NAME=LIST", arg);
        return VF_EXIT_USAGE;
    }
    return rc;
}

/* --solver LIST: a comma-separated list of families, or all. */
static int parse_solver_list(bench_opts *o, const char *list)
{
    memset(o->listed, 0, sizeof o->listed);
    o->all = false;
    const char *p = list;
    do {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char name[16];
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), p);
        int fam = len < sizeof name ? family_index(name) : -1;
        if (!strcmp(name, "all") && len == 3)
            o->all = true;
        else if (fam >= 0)
            o->listed[fam] = true;
        else {
            vf_app_error("--solver %s: unknown solver '%.*s': use " FAMILY_NAMES " or all (a comma-separated list)",
                         list, (int)len, p);
            return VF_EXIT_USAGE;
        }
        p = end ? end + 1 : NULL;
    } while (p);
    return 0;
}

/* Measured device-local copy bandwidth (bytes read + written per second),
 * two ways: vkCmdCopyBuffer (which a driver may give to a copy engine slower
 * than the shader cores: NVIDIA's reaches a fifth of the memory's bandwidth)
 * and a compute shader copying one uvec4 per invocation. 256 MiB buffers
 * (less on small devices, and the shader's range at most
 * maxStorageBufferRange), copied back and forth COPY_REPEATS times each way
 * in a command buffer, each copy timed on its own. The command buffer is
 * submitted again until at least COPY_MIN_S seconds have passed (at least
 * twice, at most COPY_MAX_BATCHES times), so that a GPU that idles at low
 * clocks has ramped up. The best copy of each way counts (the first of each
 * batch is left out). */
#define COPY_REPEATS 8
#define COPY_MIN_S 0.3
#define COPY_MAX_BATCHES 200
static void measure_copy_bandwidth(vf_gpu *gpu, double *transfer_gbps, double *shader_gbps)
{
    VkDeviceSize size = 256ull << 20;
    if (size > gpu->info.device_local_bytes / 16)
        size = gpu->info.device_local_bytes / 16 / 16 * 16;
    VkDeviceSize shader_size = size < gpu->info.max_storage_buffer_range ? size : gpu->info.max_storage_buffer_range;
    shader_size = shader_size / 16 * 16;
    vf_buffer *a = NULL, *b = NULL;
    vf_profiler *prof = NULL;
    vf_pipeline *copy = NULL;
    double best[2] = {INFINITY, INFINITY};
    vf_buffer_desc bd = {.size = size, .name = "bench copy a"};
    if (vf_buffer_create(gpu, &bd, &a) != VF_OK)
        goto done;
    bd.name = "bench copy b";
    vf_profiler_desc pd = {.slots = 1, .max_scopes = 2 * COPY_REPEATS};
    vf_compute_desc cd = {.shader = "bench_copy.comp",
                          .push_size = sizeof(vf_bench_copy_push),
                          .name = "bench copy"};
    if (vf_buffer_create(gpu, &bd, &b) != VF_OK || vf_profiler_create(gpu, &pd, &prof) != VF_OK ||
        vf_pipeline_compute_create(gpu, &cd, &copy) != VF_OK)
        goto done;
    static const char *const names[2][COPY_REPEATS] = {
        {"copy 0", "copy 1", "copy 2", "copy 3", "copy 4", "copy 5", "copy 6", "copy 7"},
        {"shader copy 0", "shader copy 1", "shader copy 2", "shader copy 3", "shader copy 4", "shader copy 5",
         "shader copy 6", "shader copy 7"}};
    const vf_bench_copy_push push = {.count = (uint32_t)(shader_size / 16)};
    double t0 = vf_app_now();
    for (int batch = 0; batch < COPY_MAX_BATCHES && (batch < 2 || vf_app_now() - t0 < COPY_MIN_S); batch++) {
        VkCommandBuffer cmd;
        if (vf_cmd_oneshot_begin(gpu, &cmd) != VF_OK)
            goto done;
        vf_profiler_reset(prof, cmd, 0);
        if (batch == 0)
            vkCmdFillBuffer(cmd, a->buffer, 0, VK_WHOLE_SIZE, 1);
        VkBufferCopy region = {0, 0, size};
        for (int way = 0; way < 2; way++)
            for (int i = 0; i < COPY_REPEATS; i++) {
                vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                               VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT,
                               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                               VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT);
                vf_buffer *src = i % 2 ? b : a, *dst = i % 2 ? a : b;
                uint32_t s = vf_profiler_begin(prof, cmd, names[way][i]);
                if (way == 0) {
                    vkCmdCopyBuffer(cmd, src->buffer, dst->buffer, 1, &region);
                } else {
                    vf_binding bind[2] = {[VF_BENCH_COPY_BIND_SRC] = {.buffer = src, .range = shader_size},
                                          [VF_BENCH_COPY_BIND_DST] = {.buffer = dst, .range = shader_size}};
                    vf_cmd_dispatch_1d(cmd, copy, bind, &push, push.count);
                }
                vf_profiler_end(prof, cmd, s);
            }
        if (vf_cmd_oneshot_submit(gpu, cmd) != VF_OK)
            goto done;
        vf_pass_time t[2 * COPY_REPEATS];
        uint32_t n = 0;
        if (vf_profiler_collect(prof, 0, t, 2 * COPY_REPEATS, &n) != VF_OK)
            goto done;
        for (uint32_t i = 0; i < n; i++) {
            int way = !strncmp(t[i].name, "shader ", 7);
            double bytes = 2.0 * (double)(way ? shader_size : size);
            if (strcmp(t[i].name + (way ? 7 : 0), "copy 0") && t[i].ms > 0 && t[i].ms / bytes < best[way])
                best[way] = t[i].ms / bytes;
        }
    }
done:
    vf_pipeline_destroy(&copy);
    vf_profiler_destroy(&prof);
    vf_buffer_destroy(&a);
    vf_buffer_destroy(&b);
    *transfer_gbps = isfinite(best[0]) ? 1.0 / (best[0] * 1e-3) / 1e9 : 0.0;
    *shader_gbps = isfinite(best[1]) ? 1.0 / (best[1] * 1e-3) / 1e9 : 0.0;
}

/* Per-pass samples over the timed frames of one size. */
typedef struct samples {
    char name[VF_BENCH_MAX_PASSES][32];
    double *v[VF_BENCH_MAX_PASSES];
    uint64_t bytes[VF_BENCH_MAX_PASSES];
    bool render[VF_BENCH_MAX_PASSES];
    uint32_t count, n, cap;
} samples;

static void samples_free(samples *s)
{
    for (uint32_t i = 0; i < s->count; i++)
        free(s->v[i]);
    memset(s, 0, sizeof *s);
}

static void samples_add(samples *s, const vf_pass_time *t, uint32_t n, vf_solver *solver, bool render_mode)
{
    if (s->n >= s->cap)
        return;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0;
        while (k < s->count && strcmp(s->name[k], t[i].name))
            k++;
        if (k == s->count) {
            if (k >= VF_BENCH_MAX_PASSES || !(s->v[k] = calloc(s->cap, sizeof(double))))
                continue;
            snprintf(s->name[k], sizeof s->name[k], "%.*s", (int)sizeof s->name[k] - 1, t[i].name);
            s->render[k] = render_mode;
            s->bytes[k] = solver->vt->pass_bytes ? solver->vt->pass_bytes(solver, t[i].name) * t[i].count : 0;
            for (uint32_t j = 0; j < s->n; j++)
                s->v[k][j] = NAN; /* absent in earlier frames */
            s->count++;
        }
        s->v[k][s->n] = t[i].ms;
    }
    for (uint32_t k = 0; k < s->count; k++) {
        bool seen = false;
        for (uint32_t i = 0; i < n && !seen; i++)
            seen = !strcmp(s->name[k], t[i].name);
        if (!seen)
            s->v[k][s->n] = NAN;
    }
    s->n++;
}

static void stats_of(const samples *s, uint32_t k, double *median, double *lo, double *hi)
{
    double *tmp = calloc(s->n + 1, sizeof *tmp);
    uint32_t m = 0;
    *lo = INFINITY;
    *hi = 0;
    *median = 0;
    if (!tmp)
        return;
    for (uint32_t j = 0; j < s->n; j++)
        if (!isnan(s->v[k][j])) {
            tmp[m++] = s->v[k][j];
            *lo = fmin(*lo, s->v[k][j]);
            *hi = fmax(*hi, s->v[k][j]);
        }
    *median = vf_bench_median(tmp, m);
    if (!m)
        *lo = 0;
    free(tmp);
}

typedef struct run_ctx {
    vf_gpu *gpu;
    vf_frame_runner *runner; /* the frame ring and the profiler's slots */
    vf_solver *solver;       /* the size's solver (the runner's, for failure lines) */
    samples *smp;            /* where the slots' pass times go; NULL: not collected */
    bool render_mode;        /* the frames rendered */
    char scene[128];         /* the size's scene name, the runner's (failure lines and folders) */
    char detail[64];         /* " at KEY SIZE", after the name in failure lines */
    vf_progress *progress;
    uint64_t *done;
    uint32_t incomplete; /* timed frames left out of the pass times: more scopes than the profiler held */
} run_ctx;

/* The runner's collect (vf_frame_collect_fn): adds the pass times of the
 * frame in slot to c->smp when it is set. When the profiler refused some
 * of its scopes (the slot grows at its next reset), only the frame's total
 * (bench.sim, its first scope) counts: a pass whose later substeps went
 * untimed would sum too little. */
static vf_result collect_frame(void *user, vf_profiler *prof, uint32_t slot, const vf_frame_slot *what)
{
    run_ctx *c = user;
    (void)what;
    if (!c->smp)
        return VF_OK;
    vf_pass_time t[VF_BENCH_MAX_PASSES];
    uint32_t n = 0;
    bool whole = vf_profiler_dropped(prof, slot) == 0;
    vf_result res = vf_profiler_collect(prof, slot, t, VF_BENCH_MAX_PASSES, &n);
    if (res != VF_OK)
        return res;
    if (!whole) {
        c->incomplete++;
        n = n && !strcmp(t[0].name, "bench.sim") ? 1 : 0;
    }
    samples_add(c->smp, t, n, c->solver, c->render_mode);
    return VF_OK;
}

/* Records the render of the frame into target after the simulation (the
 * harness's barrier and transition, then the renderer). */
static vf_result record_render(vf_renderer *renderer, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof)
{
    vf_render_barrier_after_sim(cmd);
    vf_render_prepare_target(cmd, target);
    return renderer->vt->record(renderer, cmd, target, prof);
}

/* Runs `count` frames of c->solver through the runner; with render, draws
 * each into target. Collects pass times into smp when not NULL. Returns
 * wall seconds, or < 0 after the failure line (*rc its exit code). */
static double run_frames(run_ctx *c, vf_renderer *renderer, vf_image *target, uint32_t count, samples *smp, int *rc)
{
    vf_frame_runner *r = c->runner;
    vf_solver *solver = c->solver;
    c->smp = smp;
    c->render_mode = renderer != NULL;
    double t0 = vf_app_now();
    for (uint32_t f = 0; f < count; f++) {
        VkCommandBuffer cmd;
        uint32_t slot;
        uint64_t frame = solver->frames + 1;
        vf_result res;
        if ((*rc = vf_frame_runner_begin(r, &cmd, &slot)) != 0)
            return -1;
        uint32_t s = vf_profiler_begin_compute(r->prof, cmd, "bench.sim");
        if ((res = vf_solver_record_frame(solver, cmd, r->prof)) != VF_OK)
            return *rc = vf_frame_runner_fail(r, res, "recording", frame, 1, (int)slot), -1;
        vf_profiler_end_compute(r->prof, cmd, s);
        if (renderer) {
            s = vf_profiler_begin_compute(r->prof, cmd, "bench.render");
            if ((res = record_render(renderer, cmd, target, r->prof)) != VF_OK)
                return *rc = vf_frame_runner_fail(r, res, "rendering", frame, 1, (int)slot), -1;
            vf_profiler_end_compute(r->prof, cmd, s);
        }
        if ((*rc = vf_frame_runner_submit(r, slot, frame, 1, true)) != 0)
            return -1;
        if ((res = vf_solver_frame_done(solver)) != VF_OK)
            return *rc = vf_frame_runner_fail(r, res, "frame bookkeeping", frame, 1, -1), -1;
        vf_progress_update(c->progress, ++*c->done, NULL);
    }
    if ((*rc = vf_frame_runner_finish(r)) != 0)
        return -1;
    return vf_app_now() - t0;
}

/* Work accounting: runs `count` more frames through the runner with the
 * context's work counters attached while the solver (and the renderer, into
 * counters of its own) records, without profiler scopes (they are not the
 * solver's work) and without the frame's own first barrier and the render
 * target's transition (the harness's, not the solver's). Fills z->work;
 * returns 0 or an exit code after printing. */
static int count_work(run_ctx *c, vf_renderer *renderer, vf_image *target, uint32_t count, const bench_opts *o,
                      vf_bench_size *z)
{
    vf_frame_runner *r = c->runner;
    vf_solver *solver = c->solver;
    vf_gpu_counters *sim = calloc(1, sizeof *sim), *ren = calloc(1, sizeof *ren);
    int rc = 0;
    if (!sim || !ren) {
        rc = vf_frame_runner_fail(r, VF_ERR_NO_MEMORY, "counting the work", solver->frames + 1, 0, -1);
        goto done;
    }
    c->smp = NULL;
    uint64_t steps0 = solver->steps;
    for (uint32_t f = 0; f < count && !rc; f++) {
        VkCommandBuffer cmd;
        uint32_t slot;
        uint64_t frame = solver->frames + 1;
        if ((rc = vf_frame_runner_begin(r, &cmd, &slot)) != 0)
            break;
        vf_gpu_counters_attach(c->gpu, sim);
        vf_result res = vf_solver_record_frame(solver, cmd, NULL);
        vf_gpu_counters_attach(c->gpu, NULL);
        if (res != VF_OK) {
            rc = vf_frame_runner_fail(r, res, "recording", frame, 1, (int)slot);
            break;
        }
        if (renderer) {
            vf_render_barrier_after_sim(cmd);
            vf_render_prepare_target(cmd, target);
            vf_gpu_counters_attach(c->gpu, ren);
            res = renderer->vt->record(renderer, cmd, target, NULL);
            vf_gpu_counters_attach(c->gpu, NULL);
            if (res != VF_OK) {
                rc = vf_frame_runner_fail(r, res, "rendering", frame, 1, (int)slot);
                break;
            }
        }
        vf_gpu_counters_attach(c->gpu, sim);
        rc = vf_frame_runner_submit(r, slot, frame, 1, true);
        vf_gpu_counters_attach(c->gpu, NULL);
        if (!rc && (res = vf_solver_frame_done(solver)) != VF_OK)
            rc = vf_frame_runner_fail(r, res, "frame bookkeeping", frame, 1, -1);
    }
    if (!rc)
        rc = vf_frame_runner_finish(r);
    if (!rc) {
        double state = solver->vt->state_bytes ? (double)solver->vt->state_bytes(solver) : 0.0;
        vf_bench_work_from_counters(&z->work, sim, count, (double)(solver->steps - steps0), state);
        vf_render_gpu_counts gc;
        bool have_gc = renderer && renderer->vt->gpu_counts && renderer->vt->gpu_counts(renderer, &gc);
        if (renderer)
            vf_bench_work_render_from_counters(&z->work, ren, count, o->rw, o->rh,
                                               0.5 * state + 4.0 * (double)o->rw * o->rh, have_gc ? &gc : NULL);
    }
done:
    free(sim);
    free(ren);
    return rc;
}

/* One pressure solve of the bench: a 2D grid's (g) or a 3D grid's (g3). */
typedef struct pressure_solve {
    vf_grid *g;
    vf_grid3d *g3;
    int method; /* a vf_grid_pressure or vf_grid3d_pressure */
    uint32_t iters;
} pressure_solve;

/* Records the solve in a timed scope of its own (a 3D grid's residual
 * after it, outside the scope), submits it and waits: its GPU ms in *ms.
 * False when anything failed. */
static bool timed_pressure(vf_gpu *gpu, vf_profiler *prof, const pressure_solve *job, double *ms)
{
    VkCommandBuffer cmd;
    if (vf_cmd_oneshot_begin(gpu, &cmd) != VF_OK)
        return false;
    vf_profiler_reset(prof, cmd, 0);
    vf_cmd_barrier_frame_start(cmd);
    uint32_t s = vf_profiler_begin(prof, cmd, "bench.pressure");
    vf_result res = job->g ? vf_grid_record_pressure(job->g, cmd, NULL, (vf_grid_pressure)job->method, job->iters, 0)
                           : vf_grid3d_record_pressure(job->g3, cmd, (vf_grid3d_pressure)job->method, job->iters);
    vf_profiler_end(prof, cmd, s);
    if (res == VF_OK && job->g3)
        vf_grid3d_record_residual(job->g3, cmd);
    bool ok = vf_cmd_oneshot_submit(gpu, cmd) == VF_OK && res == VF_OK;
    vf_pass_time t[4];
    uint32_t n = 0;
    ok = ok && vf_profiler_collect(prof, 0, t, 4, &n) == VF_OK && n == 1;
    *ms = ok ? t[0].ms : 0.0;
    return ok;
}

/* Notes a timed solve in z's slot k: iters iterations in ms, the residual
 * from `before` to `after`. */
static void note_pressure(vf_bench_size *z, int k, uint32_t iters, double ms, double after, double before)
{
    z->pressure_done[k] = true;
    z->pressure_iters[k] = iters;
    z->pressure_ms[k] = ms;
    z->pressure_reduction[k] = after / before;
    z->pressure_digits_per_ms[k] = ms > 0 && after > 0 ? -log10(z->pressure_reduction[k]) / ms : 0.0;
    z->has_pressure = true;
}

/* Grid only: the pressure solvers on the scene's current right-hand side,
 * each from a zero pressure and timed on the GPU: 4 multigrid V-cycles, 200
 * Jacobi and 8 SSOR iterations, and the FFT's exact solve where the grid
 * was made with it (a doubly periodic scene with pressure=fft): how many
 * decimal digits of residual each buys per millisecond. */
static void measure_pressure(vf_gpu *gpu, vf_profiler *prof, vf_solver *solver, vf_bench_size *z)
{
    vf_grid *g = vf_grid_from_solver(solver);
    if (!g)
        return;
    uint32_t w, h;
    vf_grid_field_size(g, VF_GRID_FIELD_P, &w, &h);
    float *zero = calloc((size_t)w * h, sizeof *zero);
    if (!zero)
        return;
    static const vf_grid_pressure methods[VF_BENCH_PRESSURES] = {VF_GRID_PRESSURE_MULTIGRID, VF_GRID_PRESSURE_JACOBI,
                                                                 VF_GRID_PRESSURE_SSOR, VF_GRID_PRESSURE_FFT};
    const uint32_t iters[VF_BENCH_PRESSURES] = {4, 200, 8, 1};
    bool fft = vf_grid_get_desc(g)->pressure == VF_GRID_PRESSURE_FFT;
    for (int m = 0; m < VF_BENCH_PRESSURES; m++) {
        if (methods[m] == VF_GRID_PRESSURE_FFT && !fft)
            continue;
        vf_grid_stats st;
        double ms = 0;
        const pressure_solve job = {.g = g, .method = (int)methods[m], .iters = iters[m]};
        if (vf_grid_write(g, VF_GRID_FIELD_P, zero) != VF_OK || !timed_pressure(gpu, prof, &job, &ms) ||
            vf_grid_read_stats(g, &st) != VF_OK || !(st.res_before > 0))
            break;
        note_pressure(z, m, iters[m], ms, st.res_after, st.res_before);
    }
    free(zero);
}

/* RMS of a 3D grid cell field (a readback; the benchmark's measure only). */
static double rms3d(vf_grid3d *g, vf_grid3d_field f, float *tmp, size_t n)
{
    if (vf_grid3d_read(g, f, tmp) != VF_OK)
        return -1;
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += (double)tmp[k] * tmp[k];
    return sqrt(s / (double)n);
}

/* Grid3d only: the pressure solvers on the scene's current right-hand side,
 * each from a zero pressure and timed on the GPU: 4 multigrid V-cycles
 * (where the grid has the levels), 200 Jacobi iterations, and the FFT's
 * exact solve where the grid was made with it (a triply periodic scene with
 * pressure=fft); the residual read back after each. */
static void measure_pressure3d(vf_gpu *gpu, vf_profiler *prof, vf_solver *solver, vf_bench_size *z)
{
    vf_grid3d *g = vf_grid3d_from_solver(solver);
    if (!g)
        return;
    size_t n = (size_t)vf_grid3d_field_count(g, VF_GRID3D_FIELD_P);
    float *zero = calloc(n, sizeof *zero), *tmp = malloc(n * sizeof *tmp);
    double rb = zero && tmp ? rms3d(g, VF_GRID3D_FIELD_RHS, tmp, n) : -1;
    /* the bench's slots: [0] multigrid, [1] Jacobi, [3] FFT (no SSOR in 3D) */
    static const int slot[3] = {0, 1, 3};
    static const vf_grid3d_pressure methods[3] = {VF_GRID3D_PRESSURE_MULTIGRID, VF_GRID3D_PRESSURE_JACOBI,
                                                  VF_GRID3D_PRESSURE_FFT};
    const uint32_t iters[3] = {4, 200, 1};
    for (int m = 0; m < 3 && rb > 0; m++) {
        double ms = 0;
        const pressure_solve job = {.g3 = g, .method = (int)methods[m], .iters = iters[m]};
        if (vf_grid3d_write(g, VF_GRID3D_FIELD_P, zero) != VF_OK)
            break;
        /* a method the grid lacks records nothing and is not timed */
        double rr = timed_pressure(gpu, prof, &job, &ms) ? rms3d(g, VF_GRID3D_FIELD_RESIDUAL, tmp, n) : -1;
        if (rr >= 0)
            note_pressure(z, slot[m], iters[m], ms, rr, rb);
    }
    free(zero);
    free(tmp);
}

/* The render work of one frame of solver's current state at w x h on
 * path, counted while it is recorded and run (the render's own counts read
 * back after it) into out's render part. True when counted on that path (a
 * renderer without paths counts on its own); why (cap bytes, may be NULL)
 * gets a reason when not. */
static bool count_render(vf_gpu *gpu, vf_solver *solver, vf_render_path path, uint32_t w, uint32_t h,
                         vf_bench_work *out, char *why, size_t cap)
{
    char err[1600] = {0};
    vf_render_options ro = {.width = w, .height = h, .format = VF_CAPTURE_FORMAT, .path = path};
    vf_capture_desc cd = {.width = w, .height = h};
    vf_renderer *ren = NULL;
    vf_capture *capt = NULL;
    vf_gpu_counters *c = calloc(1, sizeof *c);
    VkCommandBuffer cmd;
    bool counted = false;
    vf_result res = c ? vf_render_create_for(gpu, solver, &ro, &ren, err, sizeof err) : VF_ERR_NO_MEMORY;
    if (res == VF_OK && (res = vf_capture_create(gpu, &cd, &capt)) == VF_OK &&
        (res = vf_cmd_oneshot_begin(gpu, &cmd)) == VF_OK) {
        vf_render_barrier_after_sim(cmd);
        vf_render_prepare_target(cmd, vf_capture_target(capt));
        vf_gpu_counters_attach(gpu, c);
        res = ren->vt->record(ren, cmd, vf_capture_target(capt), NULL);
        vf_gpu_counters_attach(gpu, NULL);
        if (res == VF_OK)
            res = vf_cmd_oneshot_submit(gpu, cmd);
        else
            vf_cmd_oneshot_abandon(gpu, cmd);
    }
    if (res == VF_OK) {
        vf_render_gpu_counts gc;
        bool have = ren->vt->gpu_counts && ren->vt->gpu_counts(ren, &gc);
        double state = solver->vt->state_bytes ? (double)solver->vt->state_bytes(solver) : 0.0;
        vf_bench_work_render_from_counters(out, c, 1, w, h, 0.5 * state + 4.0 * (double)w * h, have ? &gc : NULL);
        counted = (int)ren->path == (int)path;
    } else if (why) {
        snprintf(why, cap, "%.200s", err[0] ? err : vf_result_message(res));
    }
    vf_capture_destroy(&capt);
    vf_renderer_destroy(&ren);
    free(c);
    return counted;
}

/* --model: the render work of the dam break's first frame (not simulated)
 * with VF_BENCH_MODEL_PARTICLES particles at VF_BENCH_MODEL_WIDTH x HEIGHT,
 * counted while one frame is recorded and run on this device on each path,
 * into r->model_render (the model predicts its time on other devices).
 * A scene or target that does not fit leaves a reason in model_render_why. */
static void count_model_render(vf_gpu *gpu, vf_bench_report *r)
{
    const vf_scene_info *scene = vf_scene_find("dam-break");
    vf_scene_loaded loaded = {0};
    char err[1600] = {0}, set[64];
    vf_solver *solver = NULL;
    snprintf(set, sizeof set, "particles=%u", VF_BENCH_MODEL_PARTICLES);
    if (!scene || vf_scene_load_builtin(scene, &loaded, err, sizeof err) != VF_OK ||
        vf_params_set(scene->params, scene->param_count, loaded.desc, set, err, sizeof err) != VF_OK ||
        (scene->validate && scene->validate(scene, loaded.desc, NULL, err, sizeof err) != VF_OK) ||
        scene->create(scene, gpu, loaded.desc, &solver, NULL, err, sizeof err) != VF_OK) {
        snprintf(r->model_render_why, sizeof r->model_render_why, "%.200s", err[0] ? err : "no dam-break scene");
        goto done;
    }
    for (int k = 0; k < 2; k++)
        r->model_render_counted[k] =
            count_render(gpu, solver, k ? VF_RENDER_PATH_RASTER : VF_RENDER_PATH_COMPUTE, VF_BENCH_MODEL_WIDTH,
                         VF_BENCH_MODEL_HEIGHT, &r->model_render[k], r->model_render_why, sizeof r->model_render_why);
done:
    vf_solver_destroy(&solver);
    vf_scene_loaded_free(&loaded);
}

/* --model, the particle solvers: one frame at VF_BENCH_MODEL_PARTICLES of
 * each (its scene, or the --scene base, with the family's setting),
 * recorded with the counters attached and not run (recording is cheap
 * where running is not), into s->model_work; what ran there is taken from
 * the largest benched size (vf_bench_work_extrapolate_run). */
static void count_model_sim(vf_gpu *gpu, const bench_family *fam, const vf_scene_info *scene, const void *base,
                            vf_bench_solver *s)
{
    const vf_bench_size *big = NULL;
    for (uint32_t zi = 0; zi < s->size_count; zi++)
        if (s->sizes[zi].fits && s->sizes[zi].work.counted && (!big || s->sizes[zi].elements > big->elements))
            big = &s->sizes[zi];
    if (!big || big->elements >= VF_BENCH_MODEL_PARTICLES)
        return; /* nothing ran, or the sweep measured that size */
    char err[1600] = {0}, set[64];
    vf_scene_loaded loaded = {0};
    vf_solver *solver = NULL;
    vf_gpu_counters *c = calloc(1, sizeof *c);
    VkCommandBuffer cmd;
    snprintf(set, sizeof set, "%s=%u", fam->keys[0], VF_BENCH_MODEL_PARTICLES);
    vf_result res = c ? VF_OK : VF_ERR_NO_MEMORY;
    if (res == VF_OK && base && (loaded.desc = malloc(scene->desc_size)) != NULL)
        memcpy(loaded.desc, base, scene->desc_size);
    else if (res == VF_OK && !base)
        res = vf_scene_load_builtin(scene, &loaded, err, sizeof err);
    if (res == VF_OK && !loaded.desc)
        res = VF_ERR_NO_MEMORY;
    if (res == VF_OK)
        res = vf_params_set(scene->params, scene->param_count, loaded.desc, set, err, sizeof err);
    if (res == VF_OK && fam->set)
        res = vf_params_set(scene->params, scene->param_count, loaded.desc, fam->set, err, sizeof err);
    if (res == VF_OK && scene->validate)
        res = scene->validate(scene, loaded.desc, NULL, err, sizeof err);
    if (res == VF_OK)
        res = scene->create(scene, gpu, loaded.desc, &solver, NULL, err, sizeof err);
    if (res == VF_OK && (res = vf_cmd_oneshot_begin(gpu, &cmd)) == VF_OK) {
        vf_cmd_barrier_frame_start(cmd);
        vf_gpu_counters_attach(gpu, c);
        res = vf_solver_record_frame(solver, cmd, NULL);
        vf_gpu_counters_attach(gpu, NULL);
        vf_cmd_oneshot_abandon(gpu, cmd);
    }
    if (res == VF_OK) {
        double state = solver->vt->state_bytes ? (double)solver->vt->state_bytes(solver) : 0.0;
        vf_bench_work_from_counters(&s->model_work, c, 1, solver->frame_substeps, state);
        vf_bench_work_extrapolate_run(&s->model_work, &big->work, VF_BENCH_MODEL_PARTICLES);
        s->model_counted = s->model_work.counted;
    } else {
        snprintf(s->model_why, sizeof s->model_why, "%.200s", err[0] ? err : vf_result_message(res));
    }
    vf_solver_destroy(&solver);
    vf_scene_loaded_free(&loaded);
    free(c);
}

/* The pace before a size runs (its first warm-up frame's first substeps):
 * a warning when the size will take long. */
static int warn_estimate(run_ctx *c, const bench_opts *o, const bench_family *fam, vf_solver *solver,
                         vf_renderer *renderer, const vf_bench_size *z)
{
    vf_frame_estimate est;
    int rc = vf_cmd_estimate_frame(c->runner, solver, renderer, 1.0, &est);
    if (rc != 0)
        return rc;
    uint64_t n = o->warmup + (uint64_t)o->frames * o->repeat;
    if (est.measured && est.frame_s > vf_cmd_slow_frame_s()) {
        char per[32], all[32], what[128] = "";
        if (solver->vt->describe)
            solver->vt->describe(solver, what, sizeof what);
        vf_cmd_duration_text(est.frame_s, per, sizeof per);
        vf_cmd_duration_text(est.frame_s * (double)n, all, sizeof all);
        if (c->progress->drawn && c->progress->tty)
            fputc('\n', stderr);
        vf_app_warn("estimate: bench %s at %s %llu (%s): ~%s a frame on %s (%u substeps, measured), its %llu "
                    "simulated frames take ~%s: smaller --sizes or fewer --frames and --repeat run faster",
                    fam->solver, fam->size_key, (unsigned long long)z->size, what, per, c->gpu->info.name,
                    est.substeps, (unsigned long long)n, all);
    }
    return 0;
}

/* The --repeat repeats of --frames timed frames (with renderer: rendered
 * into target), their frames per second into fps; the wall seconds in
 * all, < 0 after the failure line (*rc its exit code). */
static double time_repeats(run_ctx *c, const bench_opts *o, vf_renderer *renderer, vf_image *target, samples *smp,
                           double *fps, int *rc)
{
    double total = 0;
    for (uint32_t r = 0; r < o->repeat; r++) {
        double wall = run_frames(c, renderer, target, o->frames, smp, rc);
        if (wall < 0)
            return -1;
        fps[r] = (double)o->frames / wall;
        total += wall;
    }
    return total;
}

/* The median of n values and their spread, (max - min) / median. */
static void median_spread(const double *v, uint32_t n, double *median, double *spread)
{
    double lo = INFINITY, hi = 0;
    *median = vf_bench_median(v, n);
    for (uint32_t r = 0; r < n; r++) {
        lo = fmin(lo, v[r]);
        hi = fmax(hi, v[r]);
    }
    *spread = *median > 0 ? (hi - lo) / *median : 0;
}

/* The next pass of z (the caller checked there is room): its name and
 * median, smallest and largest ms. */
static vf_bench_pass *add_pass(vf_bench_size *z, const char *name, double med, double mn, double mx)
{
    vf_bench_pass *p = &z->pass[z->pass_count++];
    snprintf(p->name, sizeof p->name, "%s", name);
    p->ms_median = med;
    p->ms_min = mn;
    p->ms_max = mx;
    return p;
}

/* Per-pass statistics: the simulation's passes from the simulation-only
 * frames, the render passes from the rendered frames. */
static void pass_stats(vf_bench_size *z, const samples *sim, const samples *ren)
{
    z->pass_count = 0;
    for (uint32_t k = 0; k < sim->count && z->pass_count < VF_BENCH_MAX_PASSES; k++) {
        double med, mn, mx;
        stats_of(sim, k, &med, &mn, &mx);
        if (!strcmp(sim->name[k], "bench.sim")) {
            z->sim_gpu_ms_median = med;
            z->sim_gpu_ms_min = mn;
            z->sim_gpu_ms_max = mx;
            continue;
        }
        vf_bench_pass *p = add_pass(z, sim->name[k], med, mn, mx);
        p->bytes = (double)sim->bytes[k];
        p->gbps = med > 0 && p->bytes > 0 ? p->bytes / (med * 1e-3) / 1e9 : 0;
    }
    for (uint32_t k = 0; k < ren->count && z->pass_count < VF_BENCH_MAX_PASSES; k++) {
        bool in_sim = false;
        for (uint32_t j = 0; j < sim->count && !in_sim; j++)
            in_sim = !strcmp(sim->name[j], ren->name[k]);
        if (in_sim || !strcmp(ren->name[k], "bench.sim"))
            continue;
        double med, mn, mx;
        stats_of(ren, k, &med, &mn, &mx);
        if (!strcmp(ren->name[k], "bench.render")) {
            z->render_gpu_ms_median = med;
            continue;
        }
        add_pass(z, ren->name[k], med, mn, mx)->render = true;
    }
}

/* The timed frames of one size on c->solver (c->scene set): the pace
 * warning, warm-up, the timed repeats without and with rendering into
 * target (renderer may be NULL), the work counts and the pressure solvers,
 * into z; pass times into sim and ren. 0, or an exit code after the
 * failure line. */
static int bench_measure(run_ctx *c, const bench_opts *o, const bench_family *fam, vf_renderer *renderer,
                         vf_image *target, vf_bench_size *z, samples *sim, samples *ren)
{
    vf_solver *solver = c->solver;
    double fps[64], rfps[64];
    int rc = 0;
    if (!o->quiet && (rc = warn_estimate(c, o, fam, solver, renderer, z)) != 0)
        return rc;
    if (run_frames(c, NULL, NULL, o->warmup, NULL, &rc) < 0)
        return rc;
    c->incomplete = 0;
    uint64_t steps0 = solver->steps, frames0 = solver->frames;
    /* what ran on the GPU over the timed frames (read back before and after
     * them, never inside) */
    vf_solver_work_stats ran0 = {0}, ran1 = {0};
    bool ran = solver->vt->work_stats != NULL;
    if (ran)
        solver->vt->work_stats(solver, &ran0);
    double wall_total = time_repeats(c, o, NULL, NULL, sim, fps, &rc);
    if (wall_total < 0)
        return rc;
    if (ran)
        solver->vt->work_stats(solver, &ran1);
    uint64_t timed_frames = solver->frames - frames0, timed_steps = solver->steps - steps0;
    z->substeps = timed_frames ? (double)timed_steps / (double)timed_frames : 1.0;
    z->steps_per_second = wall_total > 0 ? (double)timed_steps / wall_total : 0.0;
    if (z->steps_per_second == 0 && wall_total > 0)
        z->steps_per_second = (double)o->frames * o->repeat / wall_total;
    median_spread(fps, o->repeat, &z->sim_fps_median, &z->sim_fps_spread);
    if (renderer) {
        if (run_frames(c, renderer, target, o->warmup > 2 ? 2 : o->warmup, NULL, &rc) < 0 ||
            time_repeats(c, o, renderer, target, ren, rfps, &rc) < 0)
            return rc;
        z->rendered = true;
        median_spread(rfps, o->repeat, &z->render_fps_median, &z->render_fps_spread);
    }
    if (c->incomplete) {
        if (c->progress->drawn && c->progress->tty)
            fputc('\n', stderr);
        vf_app_warn("bench %s at %s %llu: %u of %u timed frames recorded more passes than the profiler held then; "
                    "the per-pass times leave them out, the frame totals do not (more --warmup frames avoid it)",
                    fam->solver, fam->size_key, (unsigned long long)z->size, c->incomplete,
                    o->frames * o->repeat * (renderer ? 2u : 1u));
    }
    pass_stats(z, sim, ren);
    if ((rc = count_work(c, renderer, target, o->frames < 2 ? o->frames : 2, o, z)) != 0)
        return rc;
    z->frame_dt = solver->frame_dt;
    vf_bench_work_set_run(&z->work, solver->frame_dt, (double)z->elements, ran ? &ran0 : NULL, ran ? &ran1 : NULL,
                          (double)timed_frames, (double)timed_steps);
    vf_bench_realtime(z);
    if (o->model_dir && !strcmp(fam->size_key, "particles")) /* the model's render at its size, this state */
        z->model_render_counted = count_render(c->gpu, solver, VF_RENDER_PATH_COMPUTE, VF_BENCH_MODEL_WIDTH,
                                               VF_BENCH_MODEL_HEIGHT, &z->model_render, NULL, 0);
    measure_pressure(c->gpu, c->runner->prof, solver, z);
    measure_pressure3d(c->gpu, c->runner->prof, solver, z);
    return 0;
}

/* Measures one size; returns an exit code (0 also when it does not fit). */
static int bench_size(run_ctx *c, const bench_opts *o, const bench_family *fam, const vf_scene_info *scene,
                      const void *base, vf_bench_size *z, bool explicit_size)
{
    char err[1600] = {0};
    vf_scene_loaded loaded; /* the preset, from its embedded scenes/NAME.json, or a copy of base */
    if (base) {
        loaded.desc = malloc(scene->desc_size);
        if (!loaded.desc)
            return VF_EXIT_RUNTIME;
        memcpy(loaded.desc, base, scene->desc_size);
    } else if (vf_scene_load_builtin(scene, &loaded, err, sizeof err) != VF_OK) {
        vf_app_error("%s", err);
        return VF_EXIT_RUNTIME;
    }
    void *desc = loaded.desc; /* owned from here */
    vf_solver *solver = NULL;
    vf_renderer *renderer = NULL;
    vf_capture *cap = NULL;
    samples sim = {0}, ren = {0};
    int rc = VF_EXIT_RUNTIME;
    z->elements = fam->squared ? z->size * z->size : z->size;
    if (!strcmp(fam->solver, "grid3d"))
        z->elements = 2 * z->size * z->size * z->size;
    char set[3][96] = {"", "", ""}; /* the size keys, then the family's setting (the method) */
    for (int k = 0; k < 2 && fam->keys[k]; k++)
        snprintf(set[k], sizeof set[k], "%s=%llu", fam->keys[k], (unsigned long long)z->size);
    snprintf(set[2], sizeof set[2], "%s", fam->set ? fam->set : "");
    for (int k = 0; k < 3; k++) {
        if (set[k][0] && vf_params_set(scene->params, scene->param_count, desc, set[k], err, sizeof err) != VF_OK) {
            snprintf(z->why, sizeof z->why, "%.*s", (int)sizeof z->why - 1, err);
            goto no_fit;
        }
    }
    if (scene->validate && scene->validate(scene, desc, NULL, err, sizeof err) != VF_OK) {
        snprintf(z->why, sizeof z->why, "%.*s", (int)sizeof z->why - 1, err);
        goto no_fit;
    }
    vf_result res = scene->create(scene, c->gpu, desc, &solver, NULL, err, sizeof err);
    if (res == VF_ERR_TOO_LARGE || res == VF_ERR_OUT_OF_DEVICE_MEMORY || res == VF_ERR_INVALID_ARG) {
        snprintf(z->why, sizeof z->why, "%.*s", (int)sizeof z->why - 1, err[0] ? err : vf_result_message(res));
        goto no_fit;
    }
    if (res != VF_OK) {
        vf_app_error("bench %s at %llu: %s", fam->solver, (unsigned long long)z->size, err[0] ? err : vf_result_message(res));
        goto done;
    }
    if (o->rw) {
        vf_render_options ro = {.width = o->rw, .height = o->rh, .format = VF_CAPTURE_FORMAT, .path = o->render_path};
        vf_capture_desc cd = {.width = o->rw, .height = o->rh};
        if (vf_render_create_for(c->gpu, solver, &ro, &renderer, err, sizeof err) != VF_OK)
            renderer = NULL; /* a solver without a renderer is timed without one */
        else if ((res = vf_capture_create(c->gpu, &cd, &cap)) != VF_OK) {
            vf_app_error("bench: cannot create the %ux%u render target: %s", o->rw, o->rh, vf_result_message(res));
            goto done;
        }
        if (renderer)
            snprintf(z->render_path, sizeof z->render_path, "%s", vf_render_path_name(renderer->path));
    }
    c->solver = solver;
    snprintf(c->scene, sizeof c->scene, "%s", scene->name);
    snprintf(c->detail, sizeof c->detail, " at %s %llu", fam->size_key, (unsigned long long)z->size);
    sim.cap = ren.cap = o->frames * o->repeat + 4;
    if ((rc = bench_measure(c, o, fam, renderer, cap ? vf_capture_target(cap) : NULL, z, &sim, &ren)) != 0)
        goto done;
    z->fits = true;
    goto done;
no_fit:
    z->fits = false;
    if (explicit_size) {
        vf_app_error("--sizes: %s %llu does not fit: %s", fam->solver, (unsigned long long)z->size, z->why);
        rc = VF_EXIT_USAGE;
    } else {
        rc = 0;
    }
    goto done;
done:
    samples_free(&sim);
    samples_free(&ren);
    if (c->gpu)
        vkDeviceWaitIdle(c->gpu->device);
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&renderer);
    vf_solver_destroy(&solver);
    c->solver = NULL;
    free(desc);
    return rc;
}

static void slug(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    bool dash = false;
    for (const char *p = in; *p && n + 1 < cap; p++) {
        if (isalnum((unsigned char)*p)) {
            out[n++] = (char)tolower((unsigned char)*p);
            dash = false;
        } else if (!dash && n) {
            out[n++] = '-';
            dash = true;
        }
    }
    while (n && out[n - 1] == '-')
        n--;
    out[n] = 0;
}

static int opt_sizes(const char *name, const char *v, void *ctx)
{
    (void)name;
    return parse_sizes(ctx, v);
}

static int opt_render(const char *name, const char *v, void *ctx)
{
    bench_opts *o = ctx;
    if (!strcmp(v, "none"))
        o->rw = o->rh = 0;
    else if (!vf_app_parse_size(v, 16384, &o->rw, &o->rh)) {
        vf_app_error("%s %s: must be WxH (e.g. 1920x1080) or none", name, v);
        return VF_EXIT_USAGE;
    }
    return 0;
}

static int parse(bench_opts *o, int argc, char **argv, bool *help)
{
    /* --solver first: --sizes LIST depends on it */
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--solver"))
            o->solver = argv[i + 1];
    if (o->solver) {
        int rc = parse_solver_list(o, o->solver);
        if (rc)
            return rc;
    }
    /* --scene SCENE: its solver's sweep, the scene (built-in or file) as the base of every size */
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--scene") || o->scene_file)
            continue;
        o->scene_file = argv[i + 1];
        char ferr[1600];
        const vf_scene_info *builtin = vf_scene_find(o->scene_file);
        vf_result fres = builtin ? vf_scene_load_builtin(builtin, &o->file_scene, ferr, sizeof ferr)
                                 : vf_scene_load_file(o->scene_file, &o->file_scene, ferr, sizeof ferr);
        if (fres == VF_OK &&
            (fres = vf_scene_validate(o->file_scene.info, o->file_scene.desc, o->scene_file, ferr, sizeof ferr)) != VF_OK)
            vf_scene_loaded_free(&o->file_scene);
        if (fres != VF_OK) {
            vf_app_error("%s", ferr);
            return fres == VF_ERR_NO_MEMORY ? VF_EXIT_RUNTIME : VF_EXIT_USAGE;
        }
        /* the listed solvers must be of the scene's family (an SPH scene: sph
         * or one of its methods); none listed: the scene's family */
        for (size_t k = 0; k < FAMILY_COUNT && o->solver; k++) {
            const vf_scene_info *fs = vf_scene_find(families[k].scene);
            if ((o->all || o->listed[k]) && (!fs || strcmp(fs->family, o->file_scene.info->family))) {
                vf_app_error("--solver %s: the scene %s is a %s scene: leave out --solver or name its methods",
                             o->solver, o->scene_file, o->file_scene.info->family);
                return VF_EXIT_USAGE;
            }
        }
        if (!o->solver) {
            o->solver = o->file_scene.info->family;
            int rc = parse_solver_list(o, o->solver);
            if (rc)
                return rc;
        }
    }
    const char *solver_seen = NULL, *scene_seen = NULL; /* taken above */
    const vf_opt opts[] = {
        {.name = "--solver", .type = VF_OPT_TEXT, .out = &solver_seen},
        {.name = "--scene", .type = VF_OPT_TEXT, .out = &scene_seen},
        {.name = "--sizes", .type = VF_OPT_CALL, .out = o, .parse = opt_sizes},
        {.name = "--render", .type = VF_OPT_CALL, .out = o, .parse = opt_render},
        {.name = "--render-path", .type = VF_OPT_CALL, .out = &o->render_path, .parse = vf_cmd_parse_render_path},
        {.name = "--frames", .type = VF_OPT_U32, .out = &o->frames, .min = 1, .max = 100000},
        {.name = "--warmup", .type = VF_OPT_U32, .out = &o->warmup, .min = 0, .max = 100000},
        {.name = "--repeat", .type = VF_OPT_U32, .out = &o->repeat, .min = 1, .max = 64},
        {.name = "--out", .type = VF_OPT_TEXT, .out = &o->out},
        {.name = "--device", .type = VF_OPT_TEXT, .out = &o->device},
        {.name = "--model", .type = VF_OPT_OPTIONAL, .out = &o->model_dir, .dflt = ""},
        {.name = "--force", .type = VF_OPT_FLAG, .out = &o->force},
        {.name = "--results", .type = VF_OPT_FLAG, .out = &o->results},
        {.name = "--quiet", .type = VF_OPT_FLAG, .out = &o->quiet},
    };
    return vf_opt_parse("bench", argc, argv, VF_OPT_TABLE(opts), help, NULL);
}

/* Which families run: those --solver lists; with all, every family but the
 * named-only ones (grid3d, long on a CPU device, and the SPH methods) unless
 * --sizes gives their sizes. A listed family whose scene this build lacks
 * is an error; with all it is left out. */
static int choose_families(const bench_opts *o, bool *want)
{
    for (size_t i = 0; i < FAMILY_COUNT; i++) {
        want[i] = o->listed[i] || (o->all && (!families[i].named_only || o->sizes_given[i]));
        if (want[i] && !vf_scene_find(families[i].scene)) {
            if (o->listed[i]) {
                vf_app_error("--solver %s: this build has no %s scene to benchmark", families[i].solver,
                             families[i].scene);
                return VF_EXIT_USAGE;
            }
            want[i] = false;
        }
    }
    return 0;
}

/* --results: the report also as bench/results/<device>-<date>.{csv,json,svg,md}
 * (relative to the working folder, the source folder); an exit code. */
static int keep_results(const vf_bench_report *rep)
{
    char dev[128], base[512];
    slug(rep->device.name, dev, sizeof dev);
    snprintf(base, sizeof base, "bench/results/%s-%s", dev, rep->date);
    const char *ext[4] = {"csv", "json", "svg", "md"};
    const vf_bench_file kind[4] = {VF_BENCH_FILE_CSV, VF_BENCH_FILE_JSON, VF_BENCH_FILE_SVG, VF_BENCH_FILE_TABLE};
    for (int k = 0; k < 4; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s.%s", base, ext[k]);
        vf_result written = vf_bench_write_file(rep, kind[k], path);
        if (written != VF_OK) {
            vf_app_error("--results: cannot write %s: %s (run from the source folder)", path,
                         vf_result_message(written));
            return VF_EXIT_RUNTIME;
        }
    }
    char shown_base[4200];
    printf("kept as %s.{csv,json,svg,md}\n", vf_app_shown(base, shown_base, sizeof shown_base));
    return VF_EXIT_OK;
}

/* --model [DIR]: the device files of DIR, or with no DIR (opt "") those
 * shipped with vkfluid (app_paths.h); their folder into dir. 0 without
 * --model (opt NULL), else an exit code after a one-line error. */
static int load_models(const char *opt, char *dir, size_t cap, vf_bench_model *models, uint32_t *count)
{
    *count = 0;
    if (!opt)
        return 0;
    if (!opt[0])
        vf_app_data_dir("models", "bench/models", dir, cap);
    else
        snprintf(dir, cap, "%s", opt);
    char err[1024];
    vf_result res = vf_bench_models_load(dir, models, VF_BENCH_MAX_MODELS, count, err, sizeof err);
    if (res == VF_OK)
        return 0;
    vf_app_error("--model %s", err);
    return res == VF_ERR_NO_MEMORY ? VF_EXIT_RUNTIME : VF_EXIT_USAGE;
}

/* The frame runner of the bench on gpu into c->runner (c->progress set):
 * its failure lines name c's scene and size, its slots' pass times go to
 * collect_frame. Prints on failure. */
static vf_result bench_runner(vf_gpu *gpu, run_ctx *c)
{
    c->gpu = gpu;
    vf_frame_runner_desc rd = {.name = "bench frames", .scene = c->scene, .scene_detail = c->detail,
                               .solver = &c->solver, .size_hint = "smaller --sizes or fewer --frames",
                               .progress = c->progress,
                               .keep_hint = "bench runs no checks; run --check-every N keeps one",
                               .max_scopes = 4096, /* a slot grows when a frame asks for more */
                               .collect = collect_frame, .collect_user = c};
    vf_result res = vf_frame_runner_create(gpu, &rd, &c->runner);
    if (res != VF_OK)
        vf_app_error("bench: cannot create the frame ring: %s", vf_result_message(res));
    return res;
}

int vf_cmd_bench(int argc, char **argv)
{
    bench_opts o = {.frames = 30, .warmup = 5, .repeat = 3, .rw = 1280, .rh = 720, .out = "out/bench", .all = true};
    bool help = false;
    int rc = parse(&o, argc, argv, &help);
    vf_scene_loaded file_scene = o.file_scene; /* owned here */
    if (rc) {
        vf_scene_loaded_free(&file_scene);
        return rc;
    }
    if (help) {
        usage(stdout);
        vf_scene_loaded_free(&file_scene);
        return VF_EXIT_OK;
    }
    bool want[FAMILY_COUNT] = {false};
    if ((rc = choose_families(&o, want)) != 0) {
        vf_scene_loaded_free(&file_scene);
        return rc;
    }
    char err[1024];
    vf_bench_model models[VF_BENCH_MAX_MODELS];
    uint32_t model_count = 0;
    char model_dir[4096];
    if ((rc = load_models(o.model_dir, model_dir, sizeof model_dir, models, &model_count)) != 0) {
        vf_scene_loaded_free(&file_scene);
        return rc;
    }
    vf_result ores = vf_output_dir_prepare(o.out, o.force, err, sizeof err);
    if (ores != VF_OK) {
        vf_app_error("--out %s", err);
        vf_scene_loaded_free(&file_scene);
        return ores == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME; /* an output that cannot be written: 3 */
    }
    vf_bench_report *rep = calloc(1, sizeof *rep);
    if (!rep) {
        vf_scene_loaded_free(&file_scene);
        return VF_EXIT_RUNTIME;
    }
    vf_gpu *gpu = NULL;
    vf_progress progress = {0};
    run_ctx ctx = {.progress = &progress};
    if ((rc = vf_app_gpu_open(o.device, false, NULL, 0, &gpu)) != 0)
        goto done;
    rc = VF_EXIT_RUNTIME;
    if (bench_runner(gpu, &ctx) != VF_OK)
        goto done;
    rep->device = gpu->info;
    rep->frames = o.frames;
    rep->warmup = o.warmup;
    rep->repeat = o.repeat;
    rep->render_width = o.rw;
    rep->render_height = o.rh;
    snprintf(rep->render_path, sizeof rep->render_path, "%s", vf_render_path_name(o.render_path));
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(rep->date, sizeof rep->date, "%Y-%m-%d", &tmv);
    measure_copy_bandwidth(gpu, &rep->copy_transfer_gbps, &rep->copy_shader_gbps);
    rep->peak_copy_gbps = fmax(rep->copy_transfer_gbps, rep->copy_shader_gbps);

    /* the work, for the progress bar */
    uint64_t total = 0, done_frames = 0;
    uint64_t per_size = o.warmup + (uint64_t)o.frames * o.repeat + (o.rw ? (o.warmup > 2 ? 2 : o.warmup) + (uint64_t)o.frames * o.repeat : 0);
    for (size_t i = 0; i < FAMILY_COUNT; i++) {
        if (!want[i])
            continue;
        if (!o.size_count[i]) {
            /* last 0: double until a size no longer fits (the sweep stops there) */
            uint64_t last = families[i].last ? families[i].last : families[i].first << (VF_BENCH_MAX_SIZES - 1);
            for (uint64_t s = families[i].first; s <= last && o.size_count[i] < VF_BENCH_MAX_SIZES; s *= 2)
                o.sizes[i][o.size_count[i]++] = s;
        }
        total += per_size * o.size_count[i];
    }
    vf_progress_begin(&progress, "bench", total, o.quiet);
    ctx.done = &done_frames;
    for (size_t i = 0; i < FAMILY_COUNT; i++) {
        if (!want[i])
            continue;
        const bench_family *fam = &families[i];
        const vf_scene_info *scene = file_scene.info ? file_scene.info : vf_scene_find(fam->scene);
        vf_bench_solver *s = &rep->solver[rep->solver_count++];
        snprintf(s->solver, sizeof s->solver, "%s", fam->solver);
        if (o.scene_file) { /* the file's name, e.g. "my.json" */
            const char *slash = strrchr(o.scene_file, '/');
            snprintf(s->scene, sizeof s->scene, "%s", slash ? slash + 1 : o.scene_file);
        } else {
            snprintf(s->scene, sizeof s->scene, "%s", fam->scene);
        }
        snprintf(s->size_key, sizeof s->size_key, "%s", fam->size_key);
        bool explicit_sizes = o.sizes_given[i];
        for (uint32_t k = 0; k < o.size_count[i]; k++) {
            vf_bench_size *z = &s->sizes[s->size_count++];
            z->size = o.sizes[i][k];
            if ((rc = bench_size(&ctx, &o, fam, scene, file_scene.desc, z, explicit_sizes)) != 0) {
                vf_progress_end(&progress);
                goto done;
            }
            if (!z->fits) {
                done_frames += per_size * (o.size_count[i] - k);
                break; /* the default sweep ends at the first size that does not fit */
            }
        }
        vf_bench_fit(s);
        vf_bench_fit_realtime(s);
        if (model_count && !strcmp(fam->size_key, "particles"))
            count_model_sim(gpu, fam, scene, file_scene.desc, s);
    }
    vf_progress_end(&progress);
    if (model_count)
        count_model_render(gpu, rep);
    vf_bench_print(rep, stdout);
    vf_bench_print_work(rep, stdout);
    if (model_count) {
        printf("device files of the model: %s\n", model_dir);
        vf_bench_print_model(rep, models, model_count, stdout);
    }
    vf_result written = vf_bench_write(rep, o.out);
    if (written != VF_OK) {
        vf_app_error("--out %s: cannot write the results: %s", o.out, vf_result_message(written));
        rc = VF_EXIT_RUNTIME;
        goto done;
    }
    char shown_out[4200];
    printf("wrote %s/bench.csv, bench.json, bench.svg, work.csv and table.md\n",
           vf_app_shown(o.out, shown_out, sizeof shown_out));
    if (o.results && (rc = keep_results(rep)) != VF_EXIT_OK)
        goto done;
    rc = VF_EXIT_OK;
done:
    vf_frame_runner_destroy(&ctx.runner); /* first: waits for the submits that use the profiler's queries */
    {
        int close_rc = vf_app_gpu_close(&gpu);
        if (rc == VF_EXIT_OK)
            rc = close_rc;
    }
    free(rep);
    vf_scene_loaded_free(&file_scene);
    return rc;
}
