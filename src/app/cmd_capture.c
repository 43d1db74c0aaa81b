/* vkfluid capture: simulate headless and render every K-th frame offscreen
 * with the viewer's render code; PNG frames, capture.json, optional MP4. */
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app.h"
#include "app_gpu.h"
#include "capture.h"
#include "cmd_common.h"
#include "cmd_session.h"
#include "cmd_report.h"
#include "fileio.h"
#include "frame_runner.h"
#include "gpu_cmd.h"
#include "render_registry.h"
#include "options.h"
#include "png_io.h"
#include "text.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkfluid capture SCENE [--set KEY=VALUE]... --frames N [--every K]\n"
            "       vkfluid capture --replay FILE [--frames N] [--every K] ...\n"
            "                       [--size WxH] [--out DIR] [--video FILE.mp4] [--render MODE]\n"
            "                       [--render-path auto|compute|raster]\n"
            "                       [--check-every N] [--force] [--device INDEX|NAME] [--quiet]\n"
            "\n"
            "Simulates SCENE headless and renders every K-th frame offscreen with the\n"
            "same render code as the viewer. Frames advance by the scene's fixed simulated\n"
            "time (key frame_dt), so a capture does not depend on the machine's speed: the\n"
            "same scene, settings and device give byte-identical PNGs.\n"
            "\n"
            "writes DIR/frame_NNNNN.png (8-bit sRGB; NNNNN is the frame number, counted\n"
            "from 0 after the first simulated frame) and DIR/capture.json (scene, every\n"
            "parameter, device, driver, frame times, simulated time per frame).\n"
            "\n"
            "options:\n"
            "  SCENE             a built-in scene (vkfluid scenes) or a scene file FILE.json\n"
            "  --scene SCENE     as SCENE: a scene file or a built-in name\n"
            "  --set KEY=VALUE   change a scene key, KEY or SOLVER.KEY, or a renderer key\n"
            "                    (ssf.*): vkfluid scenes SCENE lists them\n"
            "  --frames N        simulate N frames (1..10000000)\n"
            "  --every K         render every K-th frame and the last one (default 1)\n"
            "  --size WxH        image size (default 1280x720)\n"
            "  --out DIR         output folder (default out/SCENE); must be new or empty\n"
            "  --check-every N   read back and check finiteness and invariants (particles\n"
            "                    kept, no NaN) every N frames and after the last (default\n"
            "                    30); a failed check exits 1 as in vkfluid run; on a gpu\n"
            "                    failure (device lost, out of memory) the error line names\n"
            "                    the frame, the submit and its passes, and the state of\n"
            "                    the last passed check goes to out/SCENE-failure (or a new\n"
            "                    out/SCENE-failure-K)\n"
            "  --force           replace what an earlier run wrote in the output folder\n"
            "                    (frames, capture.json, ...); other files stay\n"
            "  --replay FILE     replay a session recorded with vkfluid view --record FILE:\n"
            "                    its scene, and per frame its inputs (pointer, pauses,\n"
            "                    steps, resets, parameters); --frames defaults to the\n"
            "                    recorded frames (docs/replay.md)\n"
            "  --video FILE.mp4  also encode the frames to H.264 with ffmpeg\n"
            "  --render MODE     the view to render (the solver's views are listed below);\n"
            "                    default: a scene file's render.mode, else the solver's\n"
            "                    first view; a scene file's camera places 3D views\n"
            VF_CMD_RENDER_PATH_HELP
            "  --device D        the GPU to use (index or name substring)\n"
            "  --quiet           no progress bar (and no estimate of slow frames)\n"
            "\n");
    vf_cmd_print_views(f);
}

/* True when an executable named prog is on PATH. */
static bool on_path(const char *prog)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char buf[4096];
    for (const char *p = path; *p;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        if (len && len < sizeof buf - 64) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, p, prog);
            if (access(buf, X_OK) == 0)
                return true;
        }
        if (!colon)
            break;
        p = colon + 1;
    }
    return false;
}

typedef struct capture_opts {
    const char *device, *out, *video, *mode, *replay;
    long long frames, every, check_every;
    unsigned width, height;
    bool force, quiet;
    vf_render_path path;
} capture_opts;

static int parse_size(const char *name, const char *v, void *ctx)
{
    capture_opts *o = ctx;
    if (!vf_app_parse_size(v, 65536, &o->width, &o->height)) {
        vf_app_error("%s %s: must be WxH with both in 1..65536 (and at most the device's image limit, "
                     "see vkfluid devices), e.g. 1280x720",
                     name, v);
        return VF_EXIT_USAGE;
    }
    return 0;
}

static int parse(capture_opts *o, vf_cmd_scene *sc, int argc, char **argv, bool *help)
{
    const vf_opt opts[] = {
        {.name = "--frames", .type = VF_OPT_INT, .out = &o->frames, .min = 1, .max = 10000000},
        {.name = "--every", .type = VF_OPT_INT, .out = &o->every, .min = 1, .max = 10000000},
        {.name = "--check-every", .type = VF_OPT_INT, .out = &o->check_every, .min = 1, .max = 10000000},
        {.name = "--size", .type = VF_OPT_CALL, .out = o, .parse = parse_size},
        {.name = "--out", .type = VF_OPT_TEXT, .out = &o->out},
        {.name = "--video", .type = VF_OPT_TEXT, .out = &o->video},
        {.name = "--render", .type = VF_OPT_TEXT, .out = &o->mode},
        {.name = "--render-path", .type = VF_OPT_CALL, .out = &o->path, .parse = vf_cmd_parse_render_path},
        {.name = "--replay", .type = VF_OPT_TEXT, .out = &o->replay},
        {.name = "--device", .type = VF_OPT_TEXT, .out = &o->device},
        {.name = "--force", .type = VF_OPT_FLAG, .out = &o->force},
        {.name = "--quiet", .type = VF_OPT_FLAG, .out = &o->quiet},
    };
    return vf_opt_parse("capture", argc, argv, VF_OPT_TABLE(opts), help, sc);
}

static vf_result write_capture_json(const char *dir, const vf_cmd_scene *sc, const vf_solver *s, const vf_gpu *gpu,
                                    const vf_renderer *r, const capture_opts *o, const double *frame_ms,
                                    uint32_t captured, const vf_pass_stats *st, int interrupted, char *field, size_t cap)
{
    vf_file file;
    vf_result res = vf_report_begin(&file, dir, "capture.json", sc);
    if (res != VF_OK)
        return res;
    FILE *f = file.f;
    fprintf(f, ",\n  \"render\": ");
    vf_json_string(f, o->mode ? o->mode : "default");
    fprintf(f, ",\n  \"renderer_keys\": [");
    for (uint32_t k = 0; k < sc->render_setting_count; k++) {
        fprintf(f, "%s", k ? ", " : "");
        vf_json_string(f, sc->render_settings[k]);
    }
    fprintf(f, "]");
    /* the path the frames took (the gpu_ms_per_frame passes are its), and the one asked for */
    fprintf(f, ",\n  \"render_path\": \"%s\",\n  \"render_path_asked\": \"%s\"", vf_render_path_name(r->path),
            vf_render_path_name(o->path));
    fprintf(f, ",\n  \"width\": %u,\n  \"height\": %u,\n  \"frames\": %lld,\n  \"every\": %lld,\n", o->width, o->height,
            o->frames, o->every);
    fprintf(f, "  \"interrupted\": %s,\n", interrupted ? "true" : "false");
    fprintf(f, "  \"simulated_time_per_frame\": ");
    vf_json_number(f, s->frame_dt);
    fprintf(f, ",\n  \"simulated_time\": ");
    vf_json_number(f, s->time);
    fprintf(f, ",\n");
    vf_report_device(f, gpu);
    fprintf(f, ",\n  \"frame_wall_ms\": [");
    for (uint32_t i = 0; i < captured; i++) {
        fprintf(f, "%s", i ? ", " : "");
        vf_json_number(f, frame_ms[i]);
    }
    fprintf(f, "],\n");
    vf_report_passes(f, "gpu_ms_per_frame", st);
    fprintf(f, "\n}\n");
    return vf_report_commit(&file, field, cap);
}

/* A failure while setting up the capture target or the frames (before any
 * frame); 3. */
static int setup_failure(vf_result res)
{
    if (res == VF_ERR_DEVICE_LOST)
        vf_app_error("the gpu device was lost at frame 0 (setup): try a smaller size, another gpu (--device) or a "
                     "newer driver");
    else if (res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        vf_app_error("out of device memory at frame 0 (setup): try a smaller size or --size, closing other gpu programs "
                     "or another gpu (--device)");
    else
        vf_app_error("frame 0 (setup): %s", vf_result_message(res));
    return VF_EXIT_RUNTIME;
}

/* --replay: what a RESET or SCENE event recreates (cmd_session.h). */
typedef struct replay_target {
    vf_cmd_scene *sc;
    vf_gpu *gpu;
    vf_solver **solver;
    vf_renderer **renderer;
    const capture_opts *o;
    bool switched; /* a SCENE event: the solver's default view from then on */
} replay_target;

static int replay_rebuild(void *user, bool new_scene, const char *context)
{
    replay_target *t = user;
    t->switched |= new_scene;
    vkDeviceWaitIdle(t->gpu->device);
    /* as in the viewer, a reset keeps the camera; a new scene is framed anew */
    vf_camera cam;
    bool keep_cam = !new_scene && *t->renderer && (*t->renderer)->vt->get_camera;
    if (keep_cam)
        (*t->renderer)->vt->get_camera(*t->renderer, &cam);
    vf_renderer_destroy(t->renderer);
    vf_solver_destroy(t->solver);
    int rc = vf_cmd_scene_create_in(t->sc, t->gpu, context, t->solver);
    if (rc)
        return rc;
    const char *mode = t->o->mode && !t->switched ? t->o->mode : NULL;
    vf_render_options ro = {
        .width = t->o->width, .height = t->o->height, .format = VF_CAPTURE_FORMAT, .mode = mode, .path = t->o->path};
    vf_cmd_scene_render_settings(t->sc, &ro);
    char err[512] = {0};
    vf_result res = vf_render_create_for(t->gpu, *t->solver, &ro, t->renderer, err, sizeof err);
    if (res != VF_OK) {
        vf_app_error("%s: %s", context, err[0] ? err : vf_result_message(res));
        return res == VF_ERR_UNSUPPORTED ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
    }
    if (keep_cam && (*t->renderer)->vt->set_camera)
        (*t->renderer)->vt->set_camera(*t->renderer, &cam);
    else
        vf_cmd_scene_apply_camera(t->sc->info, t->sc->desc, *t->renderer);
    (*t->solver)->part_substeps = (*t->solver)->vt->submit_substeps;
    return 0;
}

/* What one frame of a capture costs per pixel. At least the colour target
 * and its readback buffer (4 + 4 bytes) are on the device: a size whose
 * two exceed 90% of the device memory is refused, as the solvers refuse
 * sizes. Measured with /usr/bin/time on lavapipe (2 cores) between 512^2
 * and 2048^2, the peak memory grew by 9 (3D volume) to 48 (sph screen-space
 * fluid) bytes a pixel, host memory included, and the time by 0.4 to 1.3 us
 * a pixel (render, readback and PNG): the estimate for large frames. */
#define CAPTURE_MIN_DEVICE_BYTES_PER_PIXEL 8.0
#define CAPTURE_BYTES_PER_PIXEL_LOW 9.0
#define CAPTURE_BYTES_PER_PIXEL_HIGH 48.0
#define CAPTURE_HOST_BYTES_PER_PIXEL 8.0
#define CAPTURE_CPU_SECONDS_PER_PIXEL 1.3e-6
/* Frames larger than this get the estimate before any work. */
#define CAPTURE_ESTIMATE_PIXELS (4096.0 * 4096.0)

/* --size against the device and the PNG limits, with an estimate of memory
 * and time for large frames; 0 or 2 after printing. */
static int check_size(const capture_opts *o, const vf_gpu *gpu)
{
    uint32_t max_dim = gpu->props.limits.maxImageDimension2D;
    double px = (double)o->width * o->height;
    double dev = px * CAPTURE_MIN_DEVICE_BYTES_PER_PIXEL, host = px * CAPTURE_HOST_BYTES_PER_PIXEL;
    double ram = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    char db[32], hb[32], have[32], rb[32], lo[32], hi[32];
    vf_format_bytes((unsigned long long)dev, db, sizeof db);
    vf_format_bytes((unsigned long long)host, hb, sizeof hb);
    vf_format_bytes(gpu->info.device_local_bytes, have, sizeof have);
    vf_format_bytes(ram > 0 ? (unsigned long long)ram : 0ull, rb, sizeof rb);
    vf_format_bytes((unsigned long long)(px * CAPTURE_BYTES_PER_PIXEL_LOW), lo, sizeof lo);
    vf_format_bytes((unsigned long long)(px * CAPTURE_BYTES_PER_PIXEL_HIGH), hi, sizeof hi);
    if (o->width > max_dim || o->height > max_dim) {
        vf_app_error("--size %ux%u: above this device's image limit of %u pixels per side (maxImageDimension2D)",
                     o->width, o->height, max_dim);
        return VF_EXIT_USAGE;
    }
    if (o->width > VF_PNG_MAX_SIDE || o->height > VF_PNG_MAX_SIDE || px > (double)VF_PNG_MAX_PIXELS) {
        vf_app_error("--size %ux%u: a PNG frame holds at most %u pixels per side and %llu pixels in all: use a smaller "
                     "--size",
                     o->width, o->height, VF_PNG_MAX_SIDE, (unsigned long long)VF_PNG_MAX_PIXELS);
        return VF_EXIT_USAGE;
    }
    if (gpu->info.device_local_bytes && dev > 0.9 * (double)gpu->info.device_local_bytes) {
        vf_app_error("--size %ux%u: its colour target and readback alone need %s of device memory (about %s to %s with "
                     "the renderer's own images); %s has %s: use a smaller --size",
                     o->width, o->height, db, lo, hi, gpu->info.name, have);
        return VF_EXIT_USAGE;
    }
    if (ram > 0 && host > 0.8 * ram) {
        vf_app_error("--size %ux%u: its readback and PNG need about %s of host memory; this machine has %s: use a "
                     "smaller --size",
                     o->width, o->height, hb, rb);
        return VF_EXIT_USAGE;
    }
    if (px > CAPTURE_ESTIMATE_PIXELS && !o->quiet) {
        char t[32];
        vf_cmd_duration_text(px * CAPTURE_CPU_SECONDS_PER_PIXEL, t, sizeof t);
        vf_app_warn("estimate: --size %ux%u: about %s to %s of memory for the images (%s has %s of device memory); "
                    "on a 2-core CPU device up to %s a written frame (less on a GPU)",
                    o->width, o->height, lo, hi, gpu->info.name, have, t);
    }
    return 0;
}

/* --replay FILE: the record loaded and every event checked against its
 * scene, before any gpu work; 0, or an exit code after printing. */
static int load_replay(vf_cmd_scene *sc, capture_opts *o, vf_record *rec, char *label, size_t label_cap)
{
    int rc;
    if (sc->info) {
        vf_app_error("--replay %s: the record names its scene: give either SCENE or --replay", o->replay);
        return VF_EXIT_USAGE;
    }
    vf_cmd_scene_end(sc);
    snprintf(label, label_cap, "--replay %s", o->replay);
    if ((rc = vf_session_load_record(o->replay, rec)) != 0 || (rc = vf_session_header_scene(&rec->header, o->replay, sc)) != 0 ||
        (rc = vf_session_check_record(rec, sc, label, false)) != 0) /* every event, before any gpu work */
        return rc;
    if (!o->frames)
        o->frames = rec->frame_count ? rec->frame_count : 1;
    return 0;
}

/* Every check of the arguments that needs no device (the output folder
 * checked, not changed); 0, or an exit code after printing. */
static int capture_checks(vf_cmd_scene *sc, capture_opts *o, char *out_default, size_t out_cap)
{
    int rc;
    if (!sc->info) {
        vf_app_error("capture needs a scene: see vkfluid run --help for the scenes");
        return VF_EXIT_USAGE;
    }
    if (!o->frames) {
        vf_app_error("capture needs --frames N (the number of frames to simulate)");
        return VF_EXIT_USAGE;
    }
    if (o->video && !on_path("ffmpeg")) {
        vf_app_error("--video %s needs ffmpeg, which is not installed: install it (apt-get install ffmpeg) or drop --video",
                     o->video);
        return VF_EXIT_USAGE;
    }
    if ((rc = vf_cmd_scene_validate(sc)) != 0)
        return rc;
    if (o->mode && !vf_cmd_view_valid(sc->info->family, o->mode)) {
        const char *views = vf_render_modes(sc->info->family);
        vf_app_error("--render %s: not a view of the %s solver: give exactly one of %s", o->mode, sc->info->family,
                     views ? views : "(none)");
        return VF_EXIT_USAGE;
    }
    if (!o->out) {
        snprintf(out_default, out_cap, "out/%s", sc->info->name);
        o->out = out_default;
    }
    char err[1024];
    vf_result res;
    if ((res = vf_output_dir_check(o->out, o->force, err, sizeof err)) != VF_OK) {
        vf_app_error("--out %s", err);
        return res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME; /* an output that cannot be written: 3 */
    }
    return 0;
}

/* A capture from its gpu on: what the frames share. */
typedef struct capture_state {
    vf_cmd_scene *sc;
    capture_opts *o;
    vf_record *rec;
    const char *replay_label;
    vf_gpu *gpu;
    vf_solver *solver;
    vf_renderer *renderer;
    vf_capture *cap;
    vf_frame_runner *runner;
    FILE *video;
    char video_tmp[4200];
    double *frame_ms;
    uint32_t captured;
    char first_view[32]; /* the family's default view, named in capture.json */
    vf_progress progress;
    vf_frame_inputs *replay_in; /* --replay: the current frame's inputs */
    vf_session_sim sim;
    replay_target rt;
    int interrupted;
} capture_state;

/* The renderer of the view asked for (the scene file's, else the family's
 * first), framed by the scene's camera; 0, or an exit code after printing. */
static int capture_renderer(capture_state *c)
{
    capture_opts *o = c->o;
    if (!o->mode)
        o->mode = vf_cmd_scene_render_mode(c->sc->info, c->sc->desc);
    const char *views = vf_render_modes(c->sc->info->family);
    if (!o->mode && views) {
        snprintf(c->first_view, sizeof c->first_view, "%.*s", (int)strcspn(views, "|"), views);
        o->mode = c->first_view;
    }
    vf_render_options ro = {
        .width = o->width, .height = o->height, .format = VF_CAPTURE_FORMAT, .mode = o->mode, .path = o->path};
    vf_cmd_scene_render_settings(c->sc, &ro);
    char err[1024] = "";
    vf_result res;
    if ((res = vf_render_create_for(c->gpu, c->solver, &ro, &c->renderer, err, sizeof err)) != VF_OK) {
        vf_app_error("%s", err[0] ? err : vf_result_message(res));
        return res == VF_ERR_UNSUPPORTED ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
    }
    vf_cmd_scene_apply_camera(c->sc->info, c->sc->desc, c->renderer);
    return 0;
}

/* --video: ffmpeg started on a temporary file; 0 or 3 after printing. */
static int capture_start_video(capture_state *c)
{
    const capture_opts *o = c->o;
    snprintf(c->video_tmp, sizeof c->video_tmp, "%s.tmp.%ld", o->video, (long)getpid());
    double fps = 1.0 / (c->solver->frame_dt * (double)o->every);
    char cmd[9000];
    /* ffmpeg in a session of its own: a Ctrl-C at the terminal reaches
     * only vkfluid, which ends the frame and closes the pipe, so the
     * frames captured so far are encoded whole */
    snprintf(cmd, sizeof cmd,
             "exec setsid -w ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgba -s %ux%u -r %.6f -i - -c:v libx264 "
             "-pix_fmt yuv420p -f mp4 '%s'",
             o->width, o->height, fps, c->video_tmp);
    signal(SIGPIPE, SIG_IGN);
    c->video = popen(cmd, "w");
    if (!c->video) {
        vf_app_error("--video %s: cannot start ffmpeg", o->video);
        return VF_EXIT_RUNTIME;
    }
    return 0;
}

/* The solver (a size that does not fit the device writes nothing), the
 * output folder, the renderer, the capture target, the frame runner, the
 * frame times and --video; 0, or an exit code after printing. */
static int capture_setup(capture_state *c)
{
    capture_opts *o = c->o;
    char err[1024];
    vf_result res;
    int rc;
    if ((rc = check_size(o, c->gpu)) != 0)
        return rc;
    if ((rc = vf_cmd_scene_create(c->sc, c->gpu, &c->solver)) != 0)
        return rc;
    if ((res = vf_output_dir_prepare(o->out, o->force, err, sizeof err)) != VF_OK) {
        vf_app_error("--out %s", err);
        return res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
    }
    if ((rc = capture_renderer(c)) != 0)
        return rc;
    vf_capture_desc cd = {.width = o->width, .height = o->height};
    vf_frame_runner_desc rd = {.name = "capture frames", .scene = c->sc->info->name, .solver = &c->solver,
                               .size_hint = "a smaller size (--set) or --size", .progress = &c->progress};
    if ((res = vf_capture_create(c->gpu, &cd, &c->cap)) != VF_OK ||
        (res = vf_frame_runner_create(c->gpu, &rd, &c->runner)) != VF_OK)
        return setup_failure(res);
    uint32_t captures = (uint32_t)((o->frames + o->every - 1) / o->every) + 1; /* + the last frame */
    c->frame_ms = calloc(captures, sizeof *c->frame_ms);
    c->replay_in = o->replay ? malloc(sizeof *c->replay_in) : NULL;
    if (!c->frame_ms || (o->replay && !c->replay_in)) {
        vf_app_error("out of memory");
        return VF_EXIT_RUNTIME;
    }
    if (o->video && (rc = capture_start_video(c)) != 0)
        return rc;
    /* long frames in several submits (solver.h); the last part holds the render */
    c->solver->part_substeps = c->solver->vt->submit_substeps;
    c->rt = (replay_target){.sc = c->sc, .gpu = c->gpu, .solver = &c->solver, .renderer = &c->renderer, .o = o};
    c->sim = (vf_session_sim){
        .info = &c->sc->info, .desc = &c->sc->desc, .solver = &c->solver, .rebuild = replay_rebuild, .user = &c->rt};
    return 0;
}

/* The simulation of frame fr (0-based) in parts: every part but the last
 * submitted; the last stays open in *cmd (slot *slot, part *part) for the
 * render. 0, or an exit code after printing. */
static int capture_sim_parts(capture_state *c, long long fr, bool step, bool resumed, VkCommandBuffer *cmd,
                             uint32_t *slot, uint32_t *part)
{
    vf_solver *solver = c->solver;
    vf_result res;
    int rc;
    if (!resumed)
        solver->part_more = false;
    for (*part = 1;; (*part)++) {
        if ((rc = vf_frame_runner_begin(c->runner, cmd, slot)) != 0)
            return rc;
        if (step && (res = vf_solver_record_frame(solver, *cmd, c->runner->prof)) != VF_OK)
            return vf_frame_runner_fail(c->runner, res, "recording", (uint64_t)fr + 1, *part, -1);
        if (!solver->part_more)
            return 0;
        if ((rc = vf_frame_runner_submit(c->runner, *slot, (uint64_t)fr + 1, *part, false)) != 0)
            return rc;
        vf_progress_update(&c->progress, (uint64_t)fr, "a long frame in parts"); /* progress within long frames */
    }
}

/* A rendered frame, once its slot finished: its PNG, its pixels to ffmpeg
 * and its wall time; 0, or an exit code after printing. */
static int capture_write_frame(capture_state *c, long long fr, uint32_t slot, double t_frame)
{
    const capture_opts *o = c->o;
    int rc;
    if ((rc = vf_frame_runner_wait(c->runner, slot)) != 0 || (rc = vf_frame_runner_collect(c->runner, slot)) != 0)
        return rc;
    char path[4200];
    snprintf(path, sizeof path, "%s/frame_%05lld.png", o->out, fr);
    vf_result res;
    if ((res = vf_capture_write_png(c->cap, path)) != VF_OK) {
        vf_app_error("--out %s: cannot write %s: %s", o->out, path, vf_result_message(res));
        return VF_EXIT_RUNTIME;
    }
    if (c->video && fwrite(vf_capture_pixels(c->cap), (size_t)o->width * o->height * 4, 1, c->video) != 1) {
        vf_app_error("--video %s: ffmpeg stopped taking frames (see its message above)", o->video);
        return VF_EXIT_RUNTIME;
    }
    c->frame_ms[c->captured++] = (vf_app_now() - t_frame) * 1000.0;
    return 0;
}

/* Frame fr (0-based): the replayed inputs, the simulation, the render of
 * every K-th and the last frame in the same submit as the last part, then
 * its PNG; 0, or an exit code after printing. */
static int capture_frame(capture_state *c, long long fr)
{
    const capture_opts *o = c->o;
    double t_frame = vf_app_now();
    vf_result res;
    int rc;
    /* --replay: the recorded frame's inputs, through the viewer's own path */
    bool step = true;
    if (o->replay) {
        const vf_frame_inputs *one = c->replay_in;
        vf_session_source src = {c->replay_label, VF_EXIT_USAGE};
        vf_record_frame(c->rec, (uint32_t)fr, c->replay_in);
        if ((rc = vf_session_apply(&c->sim, &one, &src, 1, (uint64_t)fr, &step)) != 0)
            return rc;
    }
    bool render = fr % o->every == 0 || fr == o->frames - 1; /* the last frame is always written */
    bool resumed = false; /* the first frame's first substeps ran to estimate the pace */
    if (fr == 0 && step && !o->quiet) {
        vf_frame_estimate est;
        if ((rc = vf_cmd_estimate_and_warn(c->sc->info, c->sc->desc, c->runner, c->solver, c->renderer,
                                           1.0 / (double)o->every, (uint64_t)o->frames, &est)) != 0)
            return rc;
        step = !est.frame_complete;
        resumed = step;
        c->progress.unit_s = est.frame_s;
    }
    VkCommandBuffer cmd;
    uint32_t slot, part;
    if ((rc = capture_sim_parts(c, fr, step, resumed, &cmd, &slot, &part)) != 0)
        return rc;
    if (render) {
        vf_render_barrier_after_sim(cmd);
        vf_image *target = vf_capture_target(c->cap);
        vf_render_prepare_target(cmd, target);
        if ((res = c->renderer->vt->record(c->renderer, cmd, target, c->runner->prof)) != VF_OK)
            return vf_frame_runner_fail(c->runner, res, "rendering", (uint64_t)fr + 1, part, -1);
        vf_capture_record_readback(c->cap, cmd);
    }
    if ((rc = vf_frame_runner_submit(c->runner, slot, (uint64_t)fr + 1, part, true)) != 0)
        return rc;
    if (step && (res = vf_solver_frame_done(c->solver)) != VF_OK)
        return vf_frame_runner_fail(c->runner, res, "frame bookkeeping", (uint64_t)fr + 1, 0, -1);
    if (render && (rc = capture_write_frame(c, fr, slot, t_frame)) != 0)
        return rc;
    return 0;
}

/* After frame fr: a signal makes it the last; the state checks, as in run
 * (a blown-up or emptied scene must not capture black frames and exit 0);
 * 0, or an exit code after printing. */
static int capture_after_frame(capture_state *c, long long fr)
{
    capture_opts *o = c->o;
    int rc;
    if (vf_app_interrupted()) {
        c->interrupted = vf_app_interrupted();
        o->frames = fr + 1; /* SIGINT, SIGTERM: this frame is the last */
    }
    if (c->solver->vt->check && (fr + 1 == o->frames || (fr + 1) % o->check_every == 0)) {
        if ((rc = vf_frame_runner_wait_all(c->runner)) != 0)
            return rc;
        char why[512];
        if (vf_solver_check(c->solver, why, sizeof why) != VF_OK) {
            vf_progress_end(&c->progress);
            vf_app_error("scene %s: check failed at frame %lld (t = %.6g s): %s", c->sc->info->name, fr, c->solver->time,
                         why);
            return VF_EXIT_FAIL;
        }
    }
    vf_progress_update(&c->progress, (uint64_t)fr + 1, NULL);
    return 0;
}

/* The end: ffmpeg finished and its file renamed into place, capture.json
 * (every number finite, else 1 naming the field), the last line; the exit
 * code. */
static int capture_report(capture_state *c)
{
    const capture_opts *o = c->o;
    if (c->video) {
        int vrc = pclose(c->video);
        c->video = NULL;
        if (vrc != 0 || rename(c->video_tmp, o->video) != 0) {
            vf_app_error("--video %s: ffmpeg failed (%s %d): check that it has libx264", o->video,
                         WIFSIGNALED(vrc) ? "signal" : "exit", WIFSIGNALED(vrc) ? WTERMSIG(vrc) : WEXITSTATUS(vrc));
            remove(c->video_tmp);
            return VF_EXIT_RUNTIME;
        }
    }
    char field[512] = "";
    vf_result res = write_capture_json(o->out, c->sc, c->solver, c->gpu, c->renderer, o, c->frame_ms, c->captured,
                                       &c->runner->st, c->interrupted, field, sizeof field);
    if (res == VF_ERR_NUMERIC) {
        vf_app_error("scene %s: %s/capture.json: %s is not a finite number (written as null)", c->sc->info->name, o->out,
                     field);
        return VF_EXIT_FAIL;
    }
    if (res != VF_OK) {
        vf_app_error("--out %s: cannot write %s/capture.json: %s", o->out, o->out, vf_result_message(res));
        return VF_EXIT_RUNTIME;
    }
    if (c->interrupted) {
        vf_app_note("interrupted (%s) after frame %lld: %u frame%s and capture.json marked interrupted written to %s",
                    vf_app_signal_name(c->interrupted), o->frames - 1, c->captured, c->captured == 1 ? "" : "s", o->out);
        return VF_EXIT_INTERRUPTED;
    }
    char so[4200], sv[4200];
    printf("wrote %u frame%s of %s (%ux%u) to %s%s%s\n", c->captured, c->captured == 1 ? "" : "s", c->sc->info->name,
           o->width, o->height, vf_app_shown(o->out, so, sizeof so), o->video ? " and " : "",
           o->video ? vf_app_shown(o->video, sv, sizeof sv) : "");
    return VF_EXIT_OK;
}

/* A capture on the gpu: setup, the frames, the report. */
static int capture_on_gpu(capture_state *c)
{
    int rc;
    if ((rc = capture_setup(c)) != 0)
        return rc;
    vf_progress_begin(&c->progress, "capture", (uint64_t)c->o->frames, c->o->quiet);
    for (long long fr = 0; fr < c->o->frames; fr++)
        if ((rc = capture_frame(c, fr)) != 0 || (rc = capture_after_frame(c, fr)) != 0) {
            vf_progress_end(&c->progress);
            return rc;
        }
    if ((rc = vf_frame_runner_finish(c->runner)) != 0)
        return rc;
    vf_progress_end(&c->progress);
    return capture_report(c);
}

int vf_cmd_capture(int argc, char **argv)
{
    vf_cmd_scene sc = {0};
    capture_opts o = {.every = 1, .check_every = 30, .width = 1280, .height = 720};
    vf_record rec = {0};
    char replay_label[300] = "", out_default[256];
    bool help = false;
    int rc = vf_cmd_scene_begin(&sc, argc, argv, "capture");
    if (rc >= 0)
        return rc;
    if ((rc = parse(&o, &sc, argc, argv, &help)) != 0)
        goto end_scene;
    if (help) {
        usage(stdout);
        goto end_scene;
    }
    if (o.replay && (rc = load_replay(&sc, &o, &rec, replay_label, sizeof replay_label)) != 0)
        goto end_scene;
    if ((rc = capture_checks(&sc, &o, out_default, sizeof out_default)) != 0)
        goto end_scene;
    vf_app_catch_interrupts(); /* from here a signal ends the current frame and capture.json is written */

    capture_state c = {.sc = &sc, .o = &o, .rec = &rec, .replay_label = replay_label};
    if ((rc = vf_app_gpu_open(o.device, false, NULL, 0, &c.gpu)) != 0)
        goto end_scene;
    rc = capture_on_gpu(&c);
    free(c.replay_in);
    if (c.video) {
        pclose(c.video);
        remove(c.video_tmp);
    }
    free(c.frame_ms);
    vf_frame_runner_destroy(&c.runner); /* first: waits for the submits that use the profiler's queries */
    vf_capture_destroy(&c.cap);
    vf_renderer_destroy(&c.renderer);
    vf_solver_destroy(&c.solver);
    int close_rc = vf_app_gpu_close(&c.gpu);
    if (rc == VF_EXIT_OK)
        rc = close_rc;
end_scene:
    vf_record_free(&rec);
    vf_cmd_scene_end(&sc);
    return rc;
}
