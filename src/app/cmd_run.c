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
#include "frame_runner.h"
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
            "                   [--replay FILE] [--serve [ADDR:]PORT | --join HOST:PORT] [--token T]\n"
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
            "                      and hashed every frame to check both agree; needs --steps;\n"
            "                      prints the session token a peer must present\n"
            "  --join HOST:PORT    join a serving peer (its scene, --set and --steps);\n"
            "                      with --export, DIR/lockstep.txt lists the hashes\n"
            "  --token T           the session token: the server's (default: a new random\n"
            "                      one), which --join must give (8-64 of 0-9 A-Z a-z _ -)\n"
            "\n"
            "On a gpu failure (device lost, out of memory) the error line names the frame,\n"
            "the submit and its passes, and what to try; the state of the last passed check\n"
            "(--check-every) goes to the export folder, or to out/SCENE-failure (a new\n"
            "out/SCENE-failure-K when that one is not empty). SIGINT or SIGTERM ends the\n"
            "current frame or wait (for a peer too), writes summary.json marked\n"
            "interrupted and exits 130. Every recorded or received event is checked as\n"
            "--set and scene files are. Exit codes: 0 ok, 1 a check failed (a number in\n"
            "summary.json that is not finite included), 2 bad input (a recorded event\n"
            "included), 3 a gpu or runtime failure (an export that cannot be written and\n"
            "a lockstep peer's fault included), 130 interrupted.\n"
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
                               const vf_pass_stats *st, double wall, int interrupted, const char *check_failed,
                               char *field, size_t cap)
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
    if (check_failed) { /* the state that failed its check: its numbers may be null */
        fprintf(f, "  \"check_failed\": ");
        vf_json_string(f, check_failed);
        fprintf(f, ",\n");
    }
    vf_report_device(f, gpu);
    fprintf(f, ",\n");
    vf_report_passes(f, "ms_per_frame", st);
    if (s->vt->write_summary) {
        fprintf(f, ",\n");
        s->vt->write_summary(s, f, "  ");
    }
    fprintf(f, "\n}\n");
    return vf_report_commit(&file, field, cap);
}

/* summary.json of a run interrupted before its first frame (waiting for a
 * peer, joining, building the solver): no frames; sc may be NULL (a client
 * that had not heard its scene yet). */
static vf_result write_early_summary(const char *dir, const vf_cmd_scene *sc, const char *during)
{
    char path[4200];
    vf_file file;
    snprintf(path, sizeof path, "%s/summary.json", dir);
    vf_result res = sc && sc->info ? vf_report_begin(&file, dir, "summary.json", sc) : vf_file_begin(&file, path);
    if (res != VF_OK)
        return res;
    fprintf(file.f, "%s  \"frames\": 0,\n  \"steps\": 0,\n  \"simulated_time\": 0,\n  \"interrupted\": true,\n"
                    "  \"interrupted_while\": ",
            sc && sc->info ? ",\n" : "{\n");
    vf_json_string(file.f, during);
    fprintf(file.f, "\n}\n");
    return vf_file_commit(&file);
}

/* A signal before the first frame: summary.json (with --export), one line, 130. */
static int interrupted_early(const char *export_dir, bool force, const vf_cmd_scene *sc, const char *during)
{
    int sig = vf_app_interrupted();
    char err[600];
    vf_result res = VF_OK;
    if (export_dir && (res = vf_output_dir_prepare(export_dir, force, err, sizeof err)) == VF_OK)
        res = write_early_summary(export_dir, sc, during);
    if (res != VF_OK) {
        vf_app_error("interrupted (%s) while %s; writing %s/summary.json failed: %s", vf_app_signal_name(sig), during,
                     export_dir, vf_result_message(res));
        return VF_EXIT_RUNTIME;
    }
    vf_app_note("interrupted (%s) while %s: no frames%s%s", vf_app_signal_name(sig), during,
            export_dir ? "; summary.json marked interrupted written to " : "", export_dir ? export_dir : "");
    return VF_EXIT_INTERRUPTED;
}

/* The options of run. */
typedef struct run_opts {
    const char *device, *export_dir, *export_compress;
    long long steps, check_every, part_substeps;
    double sim_time, export_every, wall_limit;
    bool force, quiet, export_mesh;
    vf_vti_compression vti_compression;
} run_opts;

/* The end of a run: the summary line and passes, summary.json (every
 * number finite, else exit 1 naming the field), or the interrupted line.
 * Returns the exit code. */
static int run_report(const vf_cmd_scene *sc, const run_opts *o, vf_solver *solver, const vf_gpu *gpu,
                      const vf_pass_stats *st, double wall, int interrupted, uint32_t export_index)
{
    char field[512] = "";
    vf_result res = o->export_dir ? write_summary(o->export_dir, sc, solver, gpu, st, wall, interrupted, NULL, field, sizeof field)
                                  : VF_OK;
    if (res != VF_OK && res != VF_ERR_NUMERIC) {
        vf_app_error("--export %s: cannot write %s/summary.json: %s", o->export_dir, o->export_dir, vf_result_message(res));
        return VF_EXIT_RUNTIME;
    }
    if (interrupted) {
        vf_app_note("interrupted (%s) after frame %llu (t = %.6g s)%s%s%s", vf_app_signal_name(interrupted),
                    (unsigned long long)solver->frames, solver->time,
                    o->export_dir ? ": summary.json marked interrupted written to " : "",
                    o->export_dir ? o->export_dir : "", o->export_dir ? "" : ": nothing written (no --export)");
    } else {
        printf("%s: %llu frames, %llu steps, simulated %.6g s in %.2f s wall on %s\n", sc->info->name,
               (unsigned long long)solver->frames, (unsigned long long)solver->steps, solver->time, wall, gpu->info.name);
        for (uint32_t i = 0; i < st->pass_count; i++)
            printf("  %-20s %9.3f ms/frame\n", st->pass[i].name, vf_pass_stats_mean(st, i));
        if (o->export_dir && res == VF_OK)
        {
            char shown[4200];
            printf("wrote %u export%s and summary.json to %s\n", export_index, export_index == 1 ? "" : "s",
                   vf_app_shown(o->export_dir, shown, sizeof shown));
        }
    }
    if (res == VF_ERR_NUMERIC) {
        vf_app_error("scene %s: %s/summary.json: %s is not a finite number (written as null): the state blew up or "
                     "overflowed at frame %llu; check it with --check-every N",
                     sc->info->name, o->export_dir, field, (unsigned long long)solver->frames);
        return VF_EXIT_FAIL;
    }
    return interrupted ? VF_EXIT_INTERRUPTED : VF_EXIT_OK;
}


/* The --time bound's one line. */
static void time_bound_error(const vf_cmd_scene *sc, double sim_time, double frames, double frame_dt)
{
    char dt_key[64];
    bool own = vf_params_find(sc->info->params, sc->info->param_count, "frame_dt") != NULL;
    snprintf(dt_key, sizeof dt_key, "%s%sframe_dt", own ? sc->info->family : "", own ? "." : "");
    vf_app_error("--time %.6g: %.3g frames of %s = %.6g s: at most %.0e frames per run: use a smaller --time or a larger "
                 "%s (with --wall for soaks)",
                 sim_time, frames, dt_key, frame_dt, VF_RUN_MAX_FRAMES, dt_key);
}

/* The checks of the options against the scene, before any gpu work; 0 or 2. */
static int run_checks(vf_cmd_scene *sc, const run_opts *o)
{
    int rc;
    if (!sc->info) {
        vf_app_error("run needs a scene: see vkfluid run --help for the scenes");
        return VF_EXIT_USAGE;
    }
    if ((o->steps < 0) == (o->sim_time < 0)) {
        vf_app_error("run needs exactly one of --steps N or --time SECONDS");
        return VF_EXIT_USAGE;
    }
    if (o->export_every > 0 && !o->export_dir) {
        vf_app_error("--export-every needs --export DIR");
        return VF_EXIT_USAGE;
    }
    if (o->export_compress && (!o->export_dir || !strcmp(sc->info->family, "sph"))) {
        vf_app_error("--export-compress: %s", !o->export_dir ? "needs --export DIR"
                                                               : "particle (sph) scenes write no VTK ImageData; drop the option");
        return VF_EXIT_USAGE;
    }
    if (o->export_mesh && (!o->export_dir || strcmp(sc->info->family, "sph"))) {
        vf_app_error("--export-mesh: %s", !o->export_dir ? "needs --export DIR"
                                                           : "only particle (sph) scenes have a surface mesh; drop the option");
        return VF_EXIT_USAGE;
    }
    if ((rc = vf_cmd_scene_validate(sc)) != 0)
        return rc;
    /* --time over frame_dt, when the scene's frame_dt is known without the solver */
    double dt = vf_cmd_scene_frame_dt(sc->info, sc->desc);
    if (o->sim_time >= 0 && dt > 0 && !(ceil(o->sim_time / dt - 1e-9) <= VF_RUN_MAX_FRAMES)) {
        time_bound_error(sc, o->sim_time, ceil(o->sim_time / dt - 1e-9), dt);
        return VF_EXIT_USAGE;
    }
    return 0;
}

/* --export DIR checked without changing anything; 0, 2 or 3. */
static int check_export_dir(const char *dir, bool force)
{
    char err[600];
    vf_result res = vf_output_dir_check(dir, force, err, sizeof err);
    if (res == VF_OK)
        return 0;
    vf_app_error("--export %s", err);
    return res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME; /* an output that cannot be written: 3 */
}

/* --help with a scene: its keys and views. */
static void scene_help(const vf_cmd_scene *sc)
{
    printf("scene %s (%s): %s\n\nkeys (--set KEY=VALUE):\n", sc->info->name, sc->info->family, sc->info->description);
    vf_params_print_help(sc->info->params, sc->info->param_count, sc->desc, stdout);
    const char *views = vf_render_modes(sc->info->family), *own = vf_cmd_scene_render_mode(sc->info, sc->desc);
    size_t rn = 0;
    vf_render_params(sc->info->family, &rn);
    if (views)
        printf("\nviews (capture and view --render MODE): %s; default %.*s%s%s\n", views,
               own ? (int)strlen(own) : (int)strcspn(views, "|"), own ? own : views,
               rn ? "; renderer keys (--set): vkfluid scenes " : "", rn ? sc->info->name : "");
    if (views && rn) {
        printf("renderer keys (--set KEY=VALUE, a choice key with its values):\n");
        vf_cmd_print_render_keys(stdout, sc->info->family);
    }
}

/* The options table of run and the checks of --export-compress; 0, or an
 * exit code (VF_OPT_LISTED included) after printing. */
static int parse_run_args(int argc, char **argv, vf_cmd_scene *sc, run_opts *o, vf_session_run *srun, bool *help)
{
    const vf_opt opts[] = {
        {.name = "--device", .type = VF_OPT_TEXT, .out = &o->device},
        {.name = "--steps", .type = VF_OPT_INT, .out = &o->steps, .min = 1, .max = 1000000000},
        {.name = "--time", .type = VF_OPT_DOUBLE, .out = &o->sim_time, .min = 0, .max = HUGE_VAL,
         .must = "a positive number of simulated seconds"},
        {.name = "--wall", .type = VF_OPT_DOUBLE, .out = &o->wall_limit, .min = 0, .max = 1e9,
         .must = "a positive number of wall-clock seconds (at most 1e9)"},
        {.name = "--export", .type = VF_OPT_TEXT, .out = &o->export_dir},
        {.name = "--export-every", .type = VF_OPT_DOUBLE, .out = &o->export_every, .min = 0, .max = HUGE_VAL,
         .must = "a positive number of simulated seconds"},
        {.name = "--export-compress", .type = VF_OPT_TEXT, .out = &o->export_compress},
        {.name = "--check-every", .type = VF_OPT_INT, .out = &o->check_every, .min = 1, .max = 1000000000},
        {.name = "--substeps-per-submit", .type = VF_OPT_INT, .out = &o->part_substeps, .min = 0, .max = 1000000,
         .must = " (0: one submit per frame)"},
        {.name = "--replay", .type = VF_OPT_TEXT, .out = &srun->replay},
        {.name = "--serve", .type = VF_OPT_TEXT, .out = &srun->serve},
        {.name = "--join", .type = VF_OPT_TEXT, .out = &srun->join},
        {.name = "--token", .type = VF_OPT_TEXT, .out = &srun->token},
        {.name = "--force", .type = VF_OPT_FLAG, .out = &o->force},
        {.name = "--export-mesh", .type = VF_OPT_FLAG, .out = &o->export_mesh},
        {.name = "--quiet", .type = VF_OPT_FLAG, .out = &o->quiet},
    };
    int rc = vf_opt_parse("run", argc, argv, VF_OPT_TABLE(opts), help, sc);
    if (rc != 0)
        return rc;
    if (o->export_compress && !vf_vti_compression_parse(o->export_compress, &o->vti_compression)) {
        vf_app_error("--export-compress %s: must be one of %s", o->export_compress, VF_CHOICES(VF_VTI_COMPRESSION_LIST));
        return VF_EXIT_USAGE;
    }
    return 0;
}

/* Every check that needs no device, before any wait and any gpu work, then
 * the session's peer (--serve, --join): from here a signal ends the wait or
 * the frame. 0, or an exit code after printing. */
static int run_prepare(vf_cmd_scene *sc, run_opts *o, vf_session_run *srun, int argc, char **argv)
{
    int rc;
    long long steps = o->steps;
    bool length_given = o->steps >= 0 || o->sim_time >= 0;
    if (vf_session_run_active(srun) && (rc = vf_session_run_check(srun, sc, argc, argv, &steps, length_given)) != 0)
        return rc;
    o->steps = steps; /* a record's frames when not given */
    if (!srun->join && (rc = run_checks(sc, o)) != 0)
        return rc;
    if (o->export_dir && (rc = check_export_dir(o->export_dir, o->force)) != 0)
        return rc;
    /* from here a signal ends the wait or the frame, and the summary is written */
    vf_app_catch_interrupts();
    if (vf_session_run_active(srun) && (rc = vf_session_run_connect(srun, sc, &steps)) != 0) {
        if (rc == VF_EXIT_INTERRUPTED)
            rc = interrupted_early(o->export_dir, o->force, srun->serve ? sc : NULL,
                                   srun->serve ? "waiting for a peer to join" : "joining the server");
        return rc;
    }
    o->steps = steps;
    if (srun->join && (rc = run_checks(sc, o)) != 0) /* the server's scene */
        return rc;
    return 0;
}

/* A run from its solver on: what the frames share. */
typedef struct run_state {
    vf_cmd_scene *sc;
    const run_opts *o;
    vf_session_run *srun;
    vf_gpu *gpu;
    vf_solver *solver;
    vf_frame_runner *runner;
    vf_mesh *mesh;
    vf_progress progress;
    uint64_t total;         /* frames to run (--wall and signals lower it) */
    uint64_t export_frames; /* export every this many frames; 0: only at the end */
    uint32_t export_index;
    double t0;
    int interrupted;
} run_state;

/* The solver, the export folder, the frame runner and the frame counts
 * (bounded before the first frame). 0, or an exit code after printing. */
static int run_setup(run_state *r)
{
    const run_opts *o = r->o;
    vf_cmd_scene *sc = r->sc;
    char err[512];
    vf_result res;
    int rc;
    if ((rc = vf_cmd_scene_create(sc, r->gpu, &r->solver)) != 0)
        return rc;
    r->solver->vti_compression = o->vti_compression;
    if (vf_app_interrupted())
        return interrupted_early(o->export_dir, o->force, sc, "building the solver");
    /* the export folder only once the solver exists: a size that does not fit writes nothing */
    if (o->export_dir && (res = vf_output_dir_prepare(o->export_dir, o->force, err, sizeof err)) != VF_OK) {
        vf_app_error("--export %s", err);
        return res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME; /* an output that cannot be written: 3 */
    }
    vf_frame_runner_desc rd = {.name = "run frames", .scene = sc->info->name, .export_dir = o->export_dir,
                               .export_index = &r->export_index, .solver = &r->solver, .split_option = true,
                               .progress = &r->progress};
    if ((res = vf_frame_runner_create(r->gpu, &rd, &r->runner)) != VF_OK) {
        vf_app_error("scene %s: setting up the frames failed: %s", sc->info->name, vf_result_message(res));
        return VF_EXIT_RUNTIME;
    }
    /* every count from user numbers is bounded here, before the first frame
     * (run_checks did so from the scene's frame_dt when it is known without
     * the solver): --time over a tiny frame_dt (or a huge --time) must not
     * overflow */
    double frames_wanted = o->steps > 0 ? (double)o->steps : ceil(o->sim_time / r->solver->frame_dt - 1e-9);
    if (!(r->solver->frame_dt > 0) || !(frames_wanted <= VF_RUN_MAX_FRAMES)) {
        time_bound_error(sc, o->sim_time, frames_wanted, r->solver->frame_dt);
        return VF_EXIT_USAGE;
    }
    r->total = frames_wanted >= 1 ? (uint64_t)frames_wanted : 1;
    /* the export schedule in whole frames (a time schedule stops advancing
     * once an interval is below the precision of the simulated time) */
    if (o->export_every > 0) {
        double k = ceil(o->export_every / r->solver->frame_dt - 1e-9);
        r->export_frames = k < 1 ? 1 : k < (double)r->total ? (uint64_t)k : 0;
    }
    r->solver->part_substeps = o->part_substeps >= 0 ? (uint32_t)o->part_substeps : r->solver->vt->submit_substeps;
    return 0;
}

/* Frame fr (0-based) in parts, each its own submit (solver.h); step: the
 * solver steps; resumed: the estimate ran the frame's first substeps. */
static int run_frame_parts(run_state *r, uint64_t fr, bool step, bool resumed)
{
    vf_solver *solver = r->solver;
    int rc;
    if (!resumed)
        solver->part_more = false;
    for (uint32_t part = 1;; part++) {
        VkCommandBuffer cmd;
        uint32_t slot;
        if ((rc = vf_frame_runner_begin(r->runner, &cmd, &slot)) != 0)
            return rc;
        vf_result res;
        if (step && (res = vf_solver_record_frame(solver, cmd, r->runner->prof)) != VF_OK)
            return vf_frame_runner_fail(r->runner, res, "recording", fr + 1, part, -1);
        if ((rc = vf_frame_runner_submit(r->runner, slot, fr + 1, part, !solver->part_more)) != 0)
            return rc;
        if (!solver->part_more)
            return 0;
        char extra[64]; /* a long frame in parts shows progress too */
        snprintf(extra, sizeof extra, "frame %llu: submit %u", (unsigned long long)fr + 1, part);
        vf_progress_update(&r->progress, fr, extra);
    }
}

/* A failed check: the state the solver kept (its last good one) goes to the
 * export folder, or to a new out/SCENE-failure when there is none, with the
 * summary of the failed state (valid JSON: non-finite numbers are null); 1. */
static int run_check_failed(run_state *r, const char *why)
{
    const run_opts *o = r->o;
    vf_solver *solver = r->solver;
    vf_progress_end(&r->progress);
    char fallback[300];
    const char *dump = vf_failure_dir(r->sc->info->name, o->export_dir, fallback, sizeof fallback);
    bool dumped = dump && solver->vt->export_frame && solver->vt->export_frame(solver, dump, r->export_index++) == VF_OK;
    char field[512];
    if (o->export_dir)
        write_summary(o->export_dir, r->sc, solver, r->gpu, &r->runner->st, vf_app_now() - r->t0, 0, why, field,
                      sizeof field);
    vf_app_error("scene %s: check failed at frame %llu (t = %.6g s): %s%s%s%s", r->sc->info->name,
                 (unsigned long long)solver->frames, solver->time, why, dumped ? ": state written to " : "",
                 dumped ? dump : "", o->export_dir ? " with summary.json" : "");
    return VF_EXIT_FAIL;
}

/* One export of the fields (and with --export-mesh the surface mesh); 0 or
 * an exit code after printing. */
static int run_export(run_state *r)
{
    const run_opts *o = r->o;
    vf_result res;
    if ((res = r->solver->vt->export_frame(r->solver, o->export_dir, r->export_index++)) != VF_OK) {
        vf_progress_end(&r->progress);
        vf_app_error("--export %s: writing export %u failed: %s", o->export_dir, r->export_index - 1, vf_result_message(res));
        return VF_EXIT_RUNTIME; /* an output that cannot be written: 3 in every command */
    }
    if (!o->export_mesh)
        return 0;
    char path[4096], err[512] = "";
    snprintf(path, sizeof path, "%s/surface_%04u.ply", o->export_dir, r->export_index - 1);
    res = vf_mesh_export_sph(r->gpu, r->solver, &r->mesh, path, err, sizeof err);
    if (res != VF_OK) {
        vf_app_error("--export-mesh %s: %s", path, err[0] ? err : vf_result_message(res));
        /* an output that cannot be written: 3 in every command */
        return res == VF_ERR_IO || res == VF_ERR_NO_SPACE || vf_app_exit_code(res) != VF_EXIT_USAGE ? VF_EXIT_RUNTIME
                                                                                                     : VF_EXIT_USAGE;
    }
    if (err[0] && !o->quiet)
        vf_app_note("--export-mesh %s: %s", path, err);
    return 0;
}

/* After frame fr: --wall, a signal, then the check and the export the
 * schedule asks for; 0 or an exit code after printing. */
static int run_after_frame(run_state *r, uint64_t fr)
{
    const run_opts *o = r->o;
    vf_solver *solver = r->solver;
    int rc;
    if (o->wall_limit > 0 && vf_app_now() - r->t0 >= o->wall_limit)
        r->total = fr + 1; /* --wall: this frame is the last */
    if (vf_app_interrupted()) {
        r->interrupted = vf_app_interrupted();
        r->total = fr + 1; /* SIGINT, SIGTERM: this frame is the last */
    }
    bool last = fr + 1 == r->total;
    bool do_export = o->export_dir && (last || (r->export_frames && (fr + 1) % r->export_frames == 0));
    bool do_check = solver->vt->check && (last || (o->check_every > 0 && (fr + 1) % (uint64_t)o->check_every == 0));
    if ((do_export || do_check) && (rc = vf_frame_runner_wait_all(r->runner)) != 0)
        return rc;
    char why[512];
    if (do_check && vf_solver_check(solver, why, sizeof why) != VF_OK)
        return run_check_failed(r, why);
    if (do_export && (rc = run_export(r)) != 0)
        return rc;
    char extra[48];
    snprintf(extra, sizeof extra, "t = %.4g s", solver->time);
    vf_progress_update(&r->progress, fr + 1, extra);
    return 0;
}

/* The frames: each after the session's inputs (--replay, lockstep), the
 * first after the estimate of its pace. 0, or an exit code after printing;
 * a signal in the wait for a peer ends the frames with 0 and r->interrupted. */
static int run_frames(run_state *r)
{
    int rc;
    for (uint64_t fr = 0; fr < r->total; fr++) {
        bool step = true; /* a session's inputs may pause the frame or replace the solver */
        if (vf_session_run_active(r->srun) && (rc = vf_session_run_frame(r->srun, r->gpu, &r->solver, fr, &step)) != 0) {
            vf_progress_end(&r->progress);
            if (rc != VF_EXIT_INTERRUPTED || !r->solver)
                return rc;
            /* a signal in the wait for the peer: end here, with the summary */
            r->interrupted = vf_app_interrupted();
            vf_lockstep_abort(&r->srun->ls);
            return 0;
        }
        bool resumed = false; /* the first frame's first substeps ran to estimate the pace */
        if (fr == 0 && step && !r->o->quiet) {
            vf_frame_estimate est;
            if ((rc = vf_cmd_estimate_and_warn(r->sc->info, r->sc->desc, r->runner, r->solver, NULL, 0, r->total, &est)) != 0) {
                vf_progress_end(&r->progress);
                return rc;
            }
            step = !est.frame_complete;
            resumed = step;
            r->progress.unit_s = est.frame_s;
        }
        if ((rc = run_frame_parts(r, fr, step, resumed)) != 0)
            return rc;
        vf_result res;
        if (step && (res = vf_solver_frame_done(r->solver)) != VF_OK)
            return vf_frame_runner_fail(r->runner, res, "frame bookkeeping", fr + 1, 0, -1);
        if ((rc = run_after_frame(r, fr)) != 0)
            return rc;
    }
    return 0;
}

/* A run on the gpu: setup, the frames, the session's end and the report. */
static int run_on_gpu(run_state *r)
{
    int rc;
    if ((rc = run_setup(r)) != 0)
        return rc;
    r->t0 = vf_app_now();
    vf_progress_begin(&r->progress, r->sc->info->name, r->total, r->o->quiet);
    if ((rc = run_frames(r)) != 0)
        return rc;
    if ((rc = vf_frame_runner_finish(r->runner)) != 0)
        return rc;
    vf_progress_end(&r->progress);
    if (!r->interrupted && (rc = vf_session_run_finish(r->srun, r->solver, r->o->export_dir)) != 0) {
        if (rc != VF_EXIT_INTERRUPTED)
            return rc;
        r->interrupted = vf_app_interrupted(); /* in the last exchange: the summary still goes out */
        vf_lockstep_abort(&r->srun->ls);
    }
    return run_report(r->sc, r->o, r->solver, r->gpu, &r->runner->st, vf_app_now() - r->t0, r->interrupted,
                      r->export_index);
}

int vf_cmd_run(int argc, char **argv)
{
    vf_cmd_scene sc = {0};
    run_opts o = {.steps = -1, .part_substeps = -1, .sim_time = -1, .export_every = -1};
    bool help = false;
    vf_session_run srun = {0};
    int rc = vf_cmd_scene_begin(&sc, argc, argv, "run");
    if (rc >= 0)
        return rc;
    if ((rc = parse_run_args(argc, argv, &sc, &o, &srun, &help)) != 0)
        goto end;
    if (help) {
        if (sc.info)
            scene_help(&sc);
        else
            usage(stdout);
        rc = VF_EXIT_OK;
        goto end;
    }
    if ((rc = run_prepare(&sc, &o, &srun, argc, argv)) != 0)
        goto end;
    run_state r = {.sc = &sc, .o = &o, .srun = &srun};
    if ((rc = vf_app_gpu_open(o.device, false, NULL, 0, &r.gpu)) != 0)
        goto end;
    rc = run_on_gpu(&r);
    vf_frame_runner_destroy(&r.runner); /* first: waits for the submits that use the profiler's queries */
    vf_mesh_destroy(&r.mesh);
    vf_solver_destroy(&r.solver);
    int close_rc = vf_app_gpu_close(&r.gpu);
    if (rc == VF_EXIT_OK)
        rc = close_rc;
end:
    vf_session_run_end(&srun);
    vf_cmd_scene_end(&sc);
    return rc;
}
