/* vkfluid run: simulate a scene headless, optionally exporting fields and a
 * summary. Solver-agnostic: everything goes through solver.h. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "app_gpu.h"
#include "cmd_common.h"
#include "cmd_session.h"
#include "cmd_report.h"
#include "fileio.h"
#include "gpu_cmd.h"
#include "gpu_profiler.h"
#include "options.h"
#include "params.h"
#include "render_registry.h"
#include "solver.h"
#include "sph_mesh.h"
#include "scenes.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkfluid run SCENE [--set KEY=VALUE]... (--steps N | --time SECONDS)\n"
            "                   [--export DIR] [--export-every SECONDS] [--export-compress none|zlib]\n"
            "                   [--check-every N]\n"
            "                   [--substeps-per-submit N] [--force] [--device INDEX|NAME]\n"
            "                   [--wall SECONDS] [--quiet]\n"
            "                   [--replay FILE] [--serve [ADDR:]PORT | --join HOST:PORT]\n"
            "\n"
            "Simulates SCENE headless on the GPU. A step is one frame of the scene's fixed\n"
            "simulated time (key frame_dt); a solver may take several substeps per frame.\n"
            "\n"
            "options:\n"
            "  SCENE               a built-in scene (vkfluid scenes) or a scene file FILE.json\n"
            "  --scene SCENE       as SCENE: a scene file (JSON: solver, scene it starts from,\n"
            "                      keys) or a built-in name\n"
            "  --set KEY=VALUE     change a scene parameter, KEY or SOLVER.KEY (see vkfluid\n"
            "                      run SCENE --help)\n"
            "  --steps N           run N frames\n"
            "  --time SECONDS      run until this much simulated time has passed\n"
            "  --export DIR        write fields (CSV + VTK) and DIR/summary.json\n"
            "  --export-every S    export every S simulated seconds, rounded up to whole\n"
            "                      frames (default: only the end)\n"
            "  --export-compress none|zlib\n"
            "                      how the VTK ImageData (.vti) arrays of grid, grid3d and\n"
            "                      height exports are stored: none (raw binary, the\n"
            "                      default) or zlib (VTK's compressed blocks, which\n"
            "                      ParaView reads; smaller for large grids)\n"
            "  --export-mesh       with each export, the fluid's surface as a triangle mesh\n"
            "                      (marching cubes on the GPU): DIR/surface_NNNN.ply,\n"
            "                      binary PLY (sph scenes)\n"
            "  --check-every N     read back and check finiteness and invariants every N\n"
            "                      frames (default: only at the end)\n"
            "  --substeps-per-submit N\n"
            "                      submit a frame in parts of at most N substeps, so no\n"
            "                      single submit runs for long (default: the solver's\n"
            "                      choice, sph 8, grid 4, height 16; 0: one submit per\n"
            "                      frame); results are identical\n"
            "  --wall SECONDS      stop at the first frame after this much wall-clock\n"
            "                      time, then check and export as at the end (soak\n"
            "                      tests: --time 1e9 --wall 1800 --check-every 600)\n"
            "  --force             replace what an earlier run wrote in the export folder\n"
            "                      (exports, summary.json); other files stay\n"
            "  --device D          the GPU to use (index or name substring)\n"
            "  --quiet             no progress line (and no estimate of slow frames)\n"
            "  --replay FILE       the scene and per-frame inputs of a recorded session\n"
            "                      (vkfluid view --record FILE); --steps defaults to its frames\n"
            "  --serve [ADDR:]PORT wait for one peer (address default 127.0.0.1) and run\n"
            "                      in lockstep with it: each frame's inputs are exchanged\n"
            "                      before the frame is stepped, and the state is read back\n"
            "                      and hashed every frame to check both agree; needs --steps\n"
            "  --join HOST:PORT    join a serving peer (its scene, --set and --steps);\n"
            "                      with --export, DIR/lockstep.txt lists the hashes\n"
            "\n"
            "On a gpu failure (device lost, out of memory) the error line names the frame,\n"
            "the submit and its passes, and what to try; the state of the last passed check\n"
            "(--check-every) goes to the export folder, or to out/SCENE-failure (a new\n"
            "out/SCENE-failure-K when that one is not empty). SIGINT or SIGTERM ends the\n"
            "current frame, writes summary.json marked interrupted and exits 130. Exit\n"
            "codes: 0 ok, 1 a check failed, 2 bad input, 3 a gpu or runtime failure\n"
            "(an export that cannot be written included), 130 interrupted.\n"
            "\n"
            "scenes:\n");
    for (size_t i = 0; vf_scenes[i]; i++)
        fprintf(f, "  %-12s %-7s %s\n", vf_scenes[i]->name, vf_scenes[i]->family, vf_scenes[i]->description);
    fprintf(f, "\n");
    vf_cmd_print_views(f);
    fprintf(f, "\nBefore the first frame, run, capture, bench and view time its first substeps;\n"
               "when a frame is estimated above %g s (environment VKFLUID_SLOW_FRAME_S\n"
               "changes that) a warning gives the estimate and the key to change.\n",
            VF_SLOW_FRAME_S);
}

/* The most frames one run may take (--time over frame_dt): far above any
 * soak, far below where a frame count or the simulated time stops counting. */
#define VF_RUN_MAX_FRAMES 1e15

static vf_result write_summary(const char *dir, const vf_cmd_scene *sc, vf_solver *s, const vf_gpu *gpu,
                               const vf_pass_stats *st, double wall, int interrupted)
{
    vf_file file;
    vf_result res = vf_report_begin(&file, dir, "summary.json", sc);
    if (res != VF_OK)
        return res;
    FILE *f = file.f;
    fprintf(f, ",\n  \"frames\": %llu,\n  \"steps\": %llu,\n  \"simulated_time\": ", (unsigned long long)s->frames,
            (unsigned long long)s->steps);
    vf_json_number(f, s->time);
    fprintf(f, ",\n  \"frame_dt\": ");
    vf_json_number(f, s->frame_dt);
    fprintf(f, ",\n  \"wall_seconds\": ");
    vf_json_number(f, wall);
    fprintf(f, ",\n  \"interrupted\": %s,\n", interrupted ? "true" : "false");
    vf_report_device(f, gpu);
    fprintf(f, ",\n");
    vf_report_passes(f, "ms_per_frame", st);
    if (s->vt->write_summary) {
        fprintf(f, ",\n");
        s->vt->write_summary(s, f, "  ");
    }
    fprintf(f, "\n}\n");
    return vf_file_commit(&file);
}

/* Where a failure's state goes: the run's own export folder, else a new or
 * empty out/SCENE-failure (out/SCENE-failure-2, -3, ... when that one holds
 * anything: a failure never mixes into another run's files). NULL when no
 * folder could be prepared. */
static const char *failure_dir(const char *scene, const char *export_dir, char *buf, size_t cap)
{
    if (export_dir)
        return export_dir;
    char why[512];
    for (int k = 1; k <= 99; k++) {
        if (k == 1)
            snprintf(buf, cap, "out/%s-failure", scene);
        else
            snprintf(buf, cap, "out/%s-failure-%d", scene, k);
        if (vf_output_dir_prepare(buf, false, why, sizeof why) == VF_OK)
            return buf;
    }
    return NULL;
}

/* What a run knows about one frame-ring slot's last submit (for messages). */
typedef struct slot_info {
    bool used;       /* timestamps not yet collected */
    bool ends_frame; /* the submit held the last part of its frame */
    uint64_t frame;  /* 1-based frame number */
    uint32_t part;   /* 1-based submit of that frame */
} slot_info;

/* The context of a gpu failure, for its one error line. */
typedef struct run_fail {
    const char *scene;
    const char *export_dir;
    uint32_t *export_index;
    vf_solver *solver;
    vf_profiler *prof;
    bool split; /* frames go in several submits */
} run_fail;

/* Reports a gpu failure in one line: the frame (and submit) and its passes,
 * what was being done, what to try, and where the last good state went. */
static int gpu_failure(const run_fail *f, vf_result res, const char *what, uint64_t frame, uint32_t part, int slot)
{
    char where[600], passes[400] = "";
    if (slot >= 0 && f->prof)
        vf_profiler_slot_passes(f->prof, (uint32_t)slot, passes, sizeof passes);
    int n = snprintf(where, sizeof where, "frame %llu", (unsigned long long)frame);
    if (f->split && part > 0 && n > 0 && (size_t)n < sizeof where)
        n += snprintf(where + n, sizeof where - (size_t)n, ", submit %u of the frame", part);
    if (passes[0] && n > 0 && (size_t)n < sizeof where)
        snprintf(where + n, sizeof where - (size_t)n, " (passes %s)", passes);
    /* the last good state, from host copies (the gpu may be gone) */
    char saved[600] = "", buf[300];
    if (f->solver && f->solver->vt->export_last_good && res != VF_ERR_INVALID_ARG) {
        uint64_t good_frame = 0;
        double good_time = 0;
        const char *dir = failure_dir(f->scene, f->export_dir, buf, sizeof buf);
        vf_result w = VF_ERR_IO;
        if (dir) {
            w = vf_solver_export_last_good(f->solver, dir, *f->export_index, &good_frame, &good_time);
            if (w == VF_OK)
                (*f->export_index)++;
        }
        if (w == VF_OK)
            snprintf(saved, sizeof saved, "; last good state (frame %llu, t = %.6g s) written to %s",
                     (unsigned long long)good_frame, good_time, dir);
        else if (w == VF_ERR_UNSUPPORTED)
            snprintf(saved, sizeof saved, "; no good state was kept (--check-every N keeps one)");
        else
            snprintf(saved, sizeof saved, "; writing the last good state to %s failed: %s", dir ? dir : "out/",
                     vf_result_message(w));
    }
    const char *split_hint = f->split ? "fewer substeps per submit (--substeps-per-submit 1)"
                                      : "splitting frames (--substeps-per-submit 8)";
    if (res == VF_ERR_DEVICE_LOST)
        vf_app_error("scene %s: the gpu device was lost at %s while %s: try a smaller size (--set), %s, another gpu "
                     "(--device) or a newer driver%s",
                     f->scene, where, what, split_hint, saved);
    else if (res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        vf_app_error("scene %s: out of device memory at %s while %s: try a smaller size (--set), closing other gpu "
                     "programs, another gpu (--device) or a newer driver%s",
                     f->scene, where, what, saved);
    else
        vf_app_error("scene %s: %s while %s: %s%s", f->scene, where, what, vf_result_message(res), saved);
    return VF_EXIT_RUNTIME;
}

int vf_cmd_run(int argc, char **argv)
{
    vf_cmd_scene sc = {0};
    const char *device = NULL, *export_dir = NULL;
    long long steps = -1, check_every = 0, part_substeps = -1;
    double sim_time = -1, export_every = -1, wall_limit = 0;
    bool force = false, quiet = false, help = false, export_mesh = false;
    const char *export_compress = NULL;
    vf_vti_compression vti_compression = VF_VTI_RAW;
    vf_mesh *mesh = NULL;
    vf_session_run srun = {0};
    int rc = vf_cmd_scene_begin(&sc, argc, argv, "run");
    if (rc >= 0)
        return rc;
    const vf_opt opts[] = {
        {.name = "--device", .type = VF_OPT_TEXT, .out = &device},
        {.name = "--steps", .type = VF_OPT_INT, .out = &steps, .min = 1, .max = 1000000000},
        {.name = "--time", .type = VF_OPT_DOUBLE, .out = &sim_time, .min = 0, .max = HUGE_VAL,
         .must = "a positive number of simulated seconds"},
        {.name = "--wall", .type = VF_OPT_DOUBLE, .out = &wall_limit, .min = 0, .max = 1e9,
         .must = "a positive number of wall-clock seconds (at most 1e9)"},
        {.name = "--export", .type = VF_OPT_TEXT, .out = &export_dir},
        {.name = "--export-every", .type = VF_OPT_DOUBLE, .out = &export_every, .min = 0, .max = HUGE_VAL,
         .must = "a positive number of simulated seconds"},
        {.name = "--export-compress", .type = VF_OPT_TEXT, .out = &export_compress},
        {.name = "--check-every", .type = VF_OPT_INT, .out = &check_every, .min = 1, .max = 1000000000},
        {.name = "--substeps-per-submit", .type = VF_OPT_INT, .out = &part_substeps, .min = 0, .max = 1000000,
         .must = " (0: one submit per frame)"},
        {.name = "--replay", .type = VF_OPT_TEXT, .out = &srun.replay},
        {.name = "--serve", .type = VF_OPT_TEXT, .out = &srun.serve},
        {.name = "--join", .type = VF_OPT_TEXT, .out = &srun.join},
        {.name = "--force", .type = VF_OPT_FLAG, .out = &force},
        {.name = "--export-mesh", .type = VF_OPT_FLAG, .out = &export_mesh},
        {.name = "--quiet", .type = VF_OPT_FLAG, .out = &quiet},
    };
    if ((rc = vf_opt_parse("run", argc, argv, VF_OPT_TABLE(opts), &help, &sc)) != 0) {
        vf_session_run_end(&srun);
        vf_cmd_scene_end(&sc);
        return rc;
    }
    if (export_compress && !vf_vti_compression_parse(export_compress, &vti_compression)) {
        vf_app_error("--export-compress %s: must be one of %s", export_compress, VF_CHOICES(VF_VTI_COMPRESSION_LIST));
        goto usage_error;
    }
    if (help) {
        if (sc.info) {
            printf("scene %s (%s): %s\n\nkeys (--set KEY=VALUE):\n", sc.info->name, sc.info->family, sc.info->description);
            vf_params_print_help(sc.info->params, sc.info->param_count, sc.desc, stdout);
            const char *views = vf_render_modes(sc.info->family), *own = vf_cmd_scene_render_mode(sc.info, sc.desc);
            size_t rn = 0;
            vf_render_params(sc.info->family, &rn);
            if (views)
                printf("\nviews (capture and view --render MODE): %s; default %.*s%s%s\n", views,
                       own ? (int)strlen(own) : (int)strcspn(views, "|"), own ? own : views,
                       rn ? "; renderer keys (--set): vkfluid scenes " : "", rn ? sc.info->name : "");
            if (views && rn) {
                printf("renderer keys (--set KEY=VALUE, a choice key with its values):\n");
                vf_cmd_print_render_keys(stdout, sc.info->family);
            }
        } else {
            usage(stdout);
        }
        vf_cmd_scene_end(&sc);
        return VF_EXIT_OK;
    }
    /* a recorded or lockstep session: its scene, steps and peer (cmd_session.h) */
    if (vf_session_run_active(&srun) && (rc = vf_session_run_prepare(&srun, &sc, argc, argv, &steps)) != 0) {
        vf_session_run_end(&srun);
        vf_cmd_scene_end(&sc);
        return rc;
    }
    if (!sc.info) {
        vf_app_error("run needs a scene: see vkfluid run --help for the scenes");
        goto usage_error;
    }
    if ((steps < 0) == (sim_time < 0)) {
        vf_app_error("run needs exactly one of --steps N or --time SECONDS");
        goto usage_error;
    }
    if (export_every > 0 && !export_dir) {
        vf_app_error("--export-every needs --export DIR");
        goto usage_error;
    }
    if (export_compress && (!export_dir || !strcmp(sc.info->family, "sph"))) {
        vf_app_error("--export-compress: %s", !export_dir ? "needs --export DIR"
                                                            : "particle (sph) scenes write no VTK ImageData; drop the option");
        goto usage_error;
    }
    if (export_mesh && (!export_dir || strcmp(sc.info->family, "sph"))) {
        vf_app_error("--export-mesh: %s", !export_dir ? "needs --export DIR"
                                                        : "only particle (sph) scenes have a surface mesh; drop the option");
        goto usage_error;
    }
    if ((rc = vf_cmd_scene_validate(&sc)) != 0) {
        vf_session_run_end(&srun);
        vf_cmd_scene_end(&sc);
        return rc;
    }
    char err[512];

    vf_gpu *gpu = NULL;
    vf_solver *solver = NULL;
    vf_frames *frames = NULL;
    vf_profiler *prof = NULL;
    vf_pass_stats st = {0};
    rc = vf_app_gpu_open(device, false, NULL, 0, &gpu);
    if (rc) {
        vf_session_run_end(&srun);
        vf_cmd_scene_end(&sc);
        return rc;
    }
    vf_result res;
    if ((rc = vf_cmd_scene_create(&sc, gpu, &solver)) != 0)
        goto done;
    solver->vti_compression = vti_compression;
    /* the export folder only once the solver exists: a size that does not fit writes nothing */
    if (export_dir && vf_output_dir_prepare(export_dir, force, err, sizeof err) != VF_OK) {
        vf_app_error("--export %s", err);
        rc = VF_EXIT_USAGE;
        goto done;
    }
    vf_frames_desc fd = {.count = 2, .name = "run frames"};
    vf_profiler_desc pd = {.slots = 2, .max_scopes = 1024};
    if ((res = vf_frames_create(gpu, &fd, &frames)) != VF_OK || (res = vf_profiler_create(gpu, &pd, &prof)) != VF_OK) {
        vf_app_error("scene %s: setting up the frames failed: %s", sc.info->name, vf_result_message(res));
        rc = VF_EXIT_RUNTIME;
        goto done;
    }
    /* every count from user numbers is bounded here, before the first frame:
     * --time over a tiny frame_dt (or a huge --time) must not overflow */
    char dt_key[64];
    snprintf(dt_key, sizeof dt_key, "%s%sframe_dt", vf_params_find(sc.info->params, sc.info->param_count, "frame_dt") ? sc.info->family : "",
             vf_params_find(sc.info->params, sc.info->param_count, "frame_dt") ? "." : "");
    double frames_wanted = steps > 0 ? (double)steps : ceil(sim_time / solver->frame_dt - 1e-9);
    if (!(solver->frame_dt > 0) || !(frames_wanted <= VF_RUN_MAX_FRAMES)) {
        vf_app_error("--time %g: %.3g frames of %s = %g s: at most %.0e frames per run: use a smaller --time or a larger "
                     "%s (with --wall for soaks)",
                     sim_time, frames_wanted, dt_key, solver->frame_dt, VF_RUN_MAX_FRAMES, dt_key);
        rc = VF_EXIT_USAGE;
        goto done;
    }
    uint64_t total = frames_wanted >= 1 ? (uint64_t)frames_wanted : 1;
    /* the export schedule in whole frames (a time schedule stops advancing
     * once an interval is below the precision of the simulated time) */
    uint64_t export_frames = 0; /* 0: only at the end */
    if (export_every > 0) {
        double k = ceil(export_every / solver->frame_dt - 1e-9);
        export_frames = k < 1 ? 1 : k < (double)total ? (uint64_t)k : 0;
    }
    uint32_t export_index = 0;
    solver->part_substeps = part_substeps >= 0 ? (uint32_t)part_substeps : solver->vt->submit_substeps;
    run_fail fail = {.scene = sc.info->name, .export_dir = export_dir, .export_index = &export_index,
                     .solver = solver, .prof = prof, .split = solver->part_substeps > 0};
    slot_info slots[2] = {{0}};
    double t0 = vf_app_now();
    int interrupted = 0;
    vf_app_catch_interrupts();
    vf_progress progress;
    vf_progress_begin(&progress, sc.info->name, total, quiet);
    for (uint64_t fr = 0; fr < total; fr++) {
        bool step = true; /* a session's inputs may pause the frame or replace the solver */
        if (vf_session_run_active(&srun) && (rc = vf_session_run_frame(&srun, gpu, &solver, fr, &step)) != 0) {
            vf_progress_end(&progress);
            goto done;
        }
        fail.solver = solver;
        bool resumed = false; /* the first frame's first substeps ran to estimate the pace */
        if (fr == 0 && step && !quiet) {
            vf_frame_estimate est;
            if ((rc = vf_cmd_estimate_and_warn(sc.info, sc.desc, gpu, solver, NULL, 0, total, &est)) != 0) {
                vf_progress_end(&progress);
                goto done;
            }
            step = !est.frame_complete;
            resumed = step;
            progress.unit_s = est.frame_s;
        }
        /* the frame in parts, each its own submit (solver.h) */
        if (!resumed)
            solver->part_more = false;
        for (uint32_t part = 1;; part++) {
            VkCommandBuffer cmd;
            uint32_t slot = (frames->current + 1) % frames->count;
            if ((res = vf_frames_begin(frames, &cmd, &slot)) != VF_OK) {
                vf_progress_end(&progress);
                rc = gpu_failure(&fail, res, "waiting for the gpu", slots[slot].frame, slots[slot].part, (int)slot);
                goto done;
            }
            if (slots[slot].used && (res = vf_profiler_collect_part(prof, slot, &st, slots[slot].ends_frame)) != VF_OK) {
                vf_progress_end(&progress);
                rc = gpu_failure(&fail, res, "reading timestamps", slots[slot].frame, slots[slot].part, (int)slot);
                goto done;
            }
            slots[slot].used = false;
            vf_profiler_reset(prof, cmd, slot);
            vf_cmd_barrier_frame_start(cmd);
            if (step && (res = vf_solver_record_frame(solver, cmd, prof)) != VF_OK) {
                vf_progress_end(&progress);
                rc = gpu_failure(&fail, res, "recording", fr + 1, part, -1);
                goto done;
            }
            if ((res = vf_frames_submit(frames, VK_NULL_HANDLE, 0, VK_NULL_HANDLE)) != VF_OK) {
                vf_progress_end(&progress);
                rc = gpu_failure(&fail, res, "submitting", fr + 1, part, (int)slot);
                goto done;
            }
            slots[slot] = (slot_info){.used = true, .ends_frame = !solver->part_more, .frame = fr + 1, .part = part};
            if (!solver->part_more)
                break;
            char extra[64]; /* a long frame in parts shows progress too */
            snprintf(extra, sizeof extra, "frame %llu: submit %u", (unsigned long long)fr + 1, part);
            vf_progress_update(&progress, fr, extra);
        }
        if (step && (res = vf_solver_frame_done(solver)) != VF_OK) {
            vf_progress_end(&progress);
            rc = gpu_failure(&fail, res, "frame bookkeeping", fr + 1, 0, -1);
            goto done;
        }
        if (wall_limit > 0 && vf_app_now() - t0 >= wall_limit)
            total = fr + 1; /* --wall: this frame is the last */
        if (vf_app_interrupted()) {
            interrupted = vf_app_interrupted();
            total = fr + 1; /* SIGINT, SIGTERM: this frame is the last */
        }
        bool last = fr + 1 == total;
        bool do_export = export_dir && (last || (export_frames && (fr + 1) % export_frames == 0));
        bool do_check = solver->vt->check && (last || (check_every > 0 && (fr + 1) % (uint64_t)check_every == 0));
        if (do_export || do_check) {
            for (uint32_t k = 0; k < 2; k++)
                if ((res = vf_frames_wait(frames, k)) != VF_OK) {
                    vf_progress_end(&progress);
                    rc = gpu_failure(&fail, res, "waiting for the gpu", slots[k].frame, slots[k].part, (int)k);
                    goto done;
                }
        }
        if (do_check && (res = vf_solver_check(solver, err, sizeof err)) != VF_OK) {
            vf_progress_end(&progress);
            /* the state the solver kept (its last good one) goes to the export
             * folder, or to a new out/SCENE-failure when there is none */
            char fallback[300];
            const char *dump = failure_dir(sc.info->name, export_dir, fallback, sizeof fallback);
            bool dumped = dump && solver->vt->export_frame && solver->vt->export_frame(solver, dump, export_index++) == VF_OK;
            vf_app_error("scene %s: check failed at frame %llu (t = %.6g s): %s%s%s", sc.info->name,
                         (unsigned long long)solver->frames, solver->time, err, dumped ? ": state written to " : "",
                         dumped ? dump : "");
            rc = VF_EXIT_FAIL;
            goto done;
        }
        if (do_export) {
            if ((res = solver->vt->export_frame(solver, export_dir, export_index++)) != VF_OK) {
                vf_progress_end(&progress);
                vf_app_error("--export %s: writing export %u failed: %s", export_dir, export_index - 1, vf_result_message(res));
                rc = VF_EXIT_RUNTIME; /* an output that cannot be written: 3 in every command */
                goto done;
            }
            if (export_mesh) {
                char path[4096];
                snprintf(path, sizeof path, "%s/surface_%04u.ply", export_dir, export_index - 1);
                err[0] = 0;
                res = vf_mesh_export_sph(gpu, solver, &mesh, path, err, sizeof err);
                if (res != VF_OK) {
                    vf_app_error("--export-mesh %s: %s", path, err[0] ? err : vf_result_message(res));
                    /* an output that cannot be written: 3 in every command */
                    rc = res == VF_ERR_IO || res == VF_ERR_NO_SPACE || vf_app_exit_code(res) != VF_EXIT_USAGE
                             ? VF_EXIT_RUNTIME
                             : VF_EXIT_USAGE;
                    goto done;
                }
                if (err[0] && !quiet)
                    fprintf(stderr, "--export-mesh %s: %s\n", path, err);
            }
        }
        char extra[48];
        snprintf(extra, sizeof extra, "t = %.4g s", solver->time);
        vf_progress_update(&progress, fr + 1, extra);
    }
    for (uint32_t k = 0; k < 2; k++) {
        if ((res = vf_frames_wait(frames, k)) != VF_OK) {
            vf_progress_end(&progress);
            rc = gpu_failure(&fail, res, "waiting for the gpu", slots[k].frame, slots[k].part, (int)k);
            goto done;
        }
        if (slots[k].used && vf_profiler_collect_part(prof, k, &st, slots[k].ends_frame) == VF_OK)
            slots[k].used = false;
    }
    vf_progress_end(&progress);
    if ((rc = vf_session_run_finish(&srun, solver, export_dir)) != 0)
        goto done;
    double wall = vf_app_now() - t0;
    if (interrupted) {
        res = export_dir ? write_summary(export_dir, &sc, solver, gpu, &st, wall, interrupted) : VF_OK;
        if (res != VF_OK)
            vf_app_error("interrupted (%s) after frame %llu; writing %s/summary.json failed: %s",
                         interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)solver->frames, export_dir,
                         vf_result_message(res));
        else
            fprintf(stderr, "interrupted (%s) after frame %llu (t = %.6g s)%s%s%s\n",
                    interrupted == SIGTERM ? "SIGTERM" : "SIGINT", (unsigned long long)solver->frames, solver->time,
                    export_dir ? ": summary.json marked interrupted written to " : "", export_dir ? export_dir : "",
                    export_dir ? "" : ": nothing written (no --export)");
        rc = res != VF_OK ? VF_EXIT_RUNTIME : VF_EXIT_INTERRUPTED;
        goto done;
    }
    printf("%s: %llu frames, %llu steps, simulated %.6g s in %.2f s wall on %s\n", sc.info->name,
           (unsigned long long)solver->frames, (unsigned long long)solver->steps, solver->time, wall, gpu->info.name);
    for (uint32_t i = 0; i < st.pass_count; i++)
        printf("  %-20s %9.3f ms/frame\n", st.pass[i].name, vf_pass_stats_mean(&st, i));
    if (export_dir) {
        if ((res = write_summary(export_dir, &sc, solver, gpu, &st, wall, 0)) != VF_OK) {
            vf_app_error("--export %s: cannot write %s/summary.json: %s", export_dir, export_dir, vf_result_message(res));
            rc = VF_EXIT_RUNTIME;
            goto done;
        }
        printf("wrote %u export%s and summary.json to %s\n", export_index, export_index == 1 ? "" : "s", export_dir);
    }
    rc = VF_EXIT_OK;
done:
    vf_frames_destroy(&frames); /* first: waits for the submits that use the profiler's queries */
    vf_profiler_destroy(&prof);
    vf_mesh_destroy(&mesh);
    vf_solver_destroy(&solver);
    {
        int close_rc = vf_app_gpu_close(&gpu);
        if (rc == VF_EXIT_OK)
            rc = close_rc;
    }
    vf_session_run_end(&srun);
    vf_cmd_scene_end(&sc);
    return rc;
usage_error:
    vf_session_run_end(&srun);
    vf_cmd_scene_end(&sc);
    return VF_EXIT_USAGE;
}
