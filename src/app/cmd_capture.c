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
            "                    30); a failed check exits 1 as in vkfluid run\n"
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

static int gpu_failure(vf_result res, long long frame, const char *what)
{
    if (res == VF_ERR_DEVICE_LOST)
        vf_app_error("the gpu device was lost at frame %lld (%s): try a smaller size, another gpu (--device) or a "
                     "newer driver",
                     frame, what);
    else if (res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        vf_app_error("out of device memory at frame %lld (%s): try a smaller size or --size, closing other gpu programs "
                     "or another gpu (--device)",
                     frame, what);
    else
        vf_app_error("frame %lld (%s): %s", frame, what, vf_result_message(res));
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

int vf_cmd_capture(int argc, char **argv)
{
    vf_cmd_scene sc = {0};
    capture_opts o = {.every = 1, .check_every = 30, .width = 1280, .height = 720};
    vf_record rec = {0};
    vf_frame_inputs *replay_in = NULL; /* --replay: the current frame's inputs */
    char replay_label[300] = "";
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
    rc = VF_EXIT_USAGE;
    if (o.replay) {
        if (sc.info) {
            vf_app_error("--replay %s: the record names its scene: give either SCENE or --replay", o.replay);
            goto end_scene;
        }
        vf_cmd_scene_end(&sc);
        snprintf(replay_label, sizeof replay_label, "--replay %s", o.replay);
        if ((rc = vf_session_load_record(o.replay, &rec)) != 0 ||
            (rc = vf_session_header_scene(&rec.header, o.replay, &sc)) != 0 ||
            (rc = vf_session_check_record(&rec, &sc, replay_label, false)) != 0) /* every event, before any gpu work */
            goto end_scene;
        if (!o.frames)
            o.frames = rec.frame_count ? rec.frame_count : 1;
        rc = VF_EXIT_USAGE;
    }
    if (!sc.info) {
        vf_app_error("capture needs a scene: see vkfluid run --help for the scenes");
        goto end_scene;
    }
    if (!o.frames) {
        vf_app_error("capture needs --frames N (the number of frames to simulate)");
        goto end_scene;
    }
    if (o.video && !on_path("ffmpeg")) {
        vf_app_error("--video %s needs ffmpeg, which is not installed: install it (apt-get install ffmpeg) or drop --video",
                     o.video);
        goto end_scene;
    }
    if ((rc = vf_cmd_scene_validate(&sc)) != 0)
        goto end_scene;
    rc = VF_EXIT_USAGE;
    if (o.mode && !vf_cmd_view_valid(sc.info->family, o.mode)) {
        const char *views = vf_render_modes(sc.info->family);
        vf_app_error("--render %s: not a view of the %s solver: give exactly one of %s", o.mode, sc.info->family,
                     views ? views : "(none)");
        goto end_scene;
    }
    char out_default[256];
    if (!o.out) {
        snprintf(out_default, sizeof out_default, "out/%s", sc.info->name);
        o.out = out_default;
    }
    char err[1024];
    vf_result res;
    if ((res = vf_output_dir_check(o.out, o.force, err, sizeof err)) != VF_OK) {
        vf_app_error("--out %s", err);
        rc = res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME; /* an output that cannot be written: 3 */
        goto end_scene;
    }
    vf_app_catch_interrupts(); /* from here a signal ends the current frame and capture.json is written */

    vf_gpu *gpu = NULL;
    vf_solver *solver = NULL;
    vf_renderer *renderer = NULL;
    vf_capture *cap = NULL;
    vf_frames *frames = NULL;
    vf_profiler *prof = NULL;
    FILE *video = NULL;
    char video_tmp[4200] = {0};
    double *frame_ms = NULL;
    vf_pass_stats st = {0};
    if ((rc = vf_app_gpu_open(o.device, false, NULL, 0, &gpu)) != 0)
        goto end_scene;
    if ((rc = check_size(&o, gpu)) != 0)
        goto done;
    /* the solver first: a size that does not fit the device writes nothing */
    if ((rc = vf_cmd_scene_create(&sc, gpu, &solver)) != 0)
        goto done;
    if ((res = vf_output_dir_prepare(o.out, o.force, err, sizeof err)) != VF_OK) {
        vf_app_error("--out %s", err);
        rc = res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
        goto done;
    }
    if (!o.mode)
        o.mode = vf_cmd_scene_render_mode(sc.info, sc.desc);
    char first_view[32] = ""; /* the family's default view, named in capture.json */
    const char *views = vf_render_modes(sc.info->family);
    if (!o.mode && views) {
        snprintf(first_view, sizeof first_view, "%.*s", (int)strcspn(views, "|"), views);
        o.mode = first_view;
    }
    vf_render_options ro = {
        .width = o.width, .height = o.height, .format = VF_CAPTURE_FORMAT, .mode = o.mode, .path = o.path};
    vf_cmd_scene_render_settings(&sc, &ro);
    err[0] = 0;
    if ((res = vf_render_create_for(gpu, solver, &ro, &renderer, err, sizeof err)) != VF_OK) {
        vf_app_error("%s", err[0] ? err : vf_result_message(res));
        rc = res == VF_ERR_UNSUPPORTED ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
        goto done;
    }
    vf_cmd_scene_apply_camera(sc.info, sc.desc, renderer);
    rc = VF_EXIT_RUNTIME;
    vf_capture_desc cd = {.width = o.width, .height = o.height};
    vf_frames_desc fd = {.count = 2, .name = "capture frames"};
    vf_profiler_desc pd = {.slots = 2, .max_scopes = 1024};
    if ((res = vf_capture_create(gpu, &cd, &cap)) != VF_OK || (res = vf_frames_create(gpu, &fd, &frames)) != VF_OK ||
        (res = vf_profiler_create(gpu, &pd, &prof)) != VF_OK) {
        rc = gpu_failure(res, 0, "setup");
        goto done;
    }
    uint32_t captures = (uint32_t)((o.frames + o.every - 1) / o.every) + 1; /* + the last frame */
    frame_ms = calloc(captures, sizeof *frame_ms);
    if (!frame_ms) {
        vf_app_error("out of memory");
        goto done;
    }
    if (o.video) {
        snprintf(video_tmp, sizeof video_tmp, "%s.tmp.%ld", o.video, (long)getpid());
        double fps = 1.0 / (solver->frame_dt * (double)o.every);
        char cmd[9000];
        /* ffmpeg in a session of its own: a Ctrl-C at the terminal reaches
         * only vkfluid, which ends the frame and closes the pipe, so the
         * frames captured so far are encoded whole */
        snprintf(cmd, sizeof cmd,
                 "exec setsid -w ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgba -s %ux%u -r %.6f -i - -c:v libx264 "
                 "-pix_fmt yuv420p -f mp4 '%s'",
                 o.width, o.height, fps, video_tmp);
        signal(SIGPIPE, SIG_IGN);
        video = popen(cmd, "w");
        if (!video) {
            vf_app_error("--video %s: cannot start ffmpeg", o.video);
            goto done;
        }
    }

    int interrupted = 0;
    vf_progress progress;
    vf_progress_begin(&progress, "capture", (uint64_t)o.frames, o.quiet);
    bool slot_used[2] = {false, false}, slot_ends[2] = {false, false};
    uint32_t captured = 0;
    /* long frames in several submits (solver.h); the last part holds the render */
    solver->part_substeps = solver->vt->submit_substeps;
    replay_target rt = {.sc = &sc, .gpu = gpu, .solver = &solver, .renderer = &renderer, .o = &o};
    vf_session_sim sim = {.info = &sc.info, .desc = &sc.desc, .solver = &solver, .rebuild = replay_rebuild, .user = &rt};
    replay_in = o.replay ? malloc(sizeof *replay_in) : NULL;
    if (o.replay && !replay_in) {
        vf_app_error("out of memory");
        goto done_progress;
    }
    for (long long fr = 0; fr < o.frames; fr++) {
        double t_frame = vf_app_now();
        /* --replay: the recorded frame's inputs, through the viewer's own path */
        bool step = true;
        if (o.replay) {
            const vf_frame_inputs *one = replay_in;
            vf_session_source src = {replay_label, VF_EXIT_USAGE};
            vf_record_frame(&rec, (uint32_t)fr, replay_in);
            if ((rc = vf_session_apply(&sim, &one, &src, 1, (uint64_t)fr, &step)) != 0)
                goto done_progress;
        }
        bool render = fr % o.every == 0 || fr == o.frames - 1; /* the last frame is always written */
        bool resumed = false; /* the first frame's first substeps ran to estimate the pace */
        if (fr == 0 && step && !o.quiet) {
            vf_frame_estimate est;
            if ((rc = vf_cmd_estimate_and_warn(sc.info, sc.desc, gpu, solver, renderer, 1.0 / (double)o.every,
                                               (uint64_t)o.frames, &est)) != 0)
                goto done_progress;
            step = !est.frame_complete;
            resumed = step;
            progress.unit_s = est.frame_s;
        }
        VkCommandBuffer cmd;
        uint32_t slot;
        if (!resumed)
            solver->part_more = false;
        for (;;) {
            if ((res = vf_frames_begin(frames, &cmd, &slot)) != VF_OK) {
                rc = gpu_failure(res, fr, "waiting for the gpu");
                goto done_progress;
            }
            if (slot_used[slot])
                vf_profiler_collect_part(prof, slot, &st, slot_ends[slot]);
            slot_used[slot] = false;
            vf_profiler_reset(prof, cmd, slot);
            vf_cmd_barrier_frame_start(cmd);
            if (step && (res = vf_solver_record_frame(solver, cmd, prof)) != VF_OK) {
                rc = gpu_failure(res, fr, "simulation");
                goto done_progress;
            }
            if (!solver->part_more)
                break;
            if ((res = vf_frames_submit(frames, VK_NULL_HANDLE, 0, VK_NULL_HANDLE)) != VF_OK) {
                rc = gpu_failure(res, fr, "submitting");
                goto done_progress;
            }
            slot_used[slot] = true;
            slot_ends[slot] = false;
            vf_progress_update(&progress, (uint64_t)fr, "a long frame in parts"); /* progress within long frames */
        }
        if (render) {
            vf_render_barrier_after_sim(cmd);
            vf_image *target = vf_capture_target(cap);
            vf_render_prepare_target(cmd, target);
            if ((res = renderer->vt->record(renderer, cmd, target, prof)) != VF_OK) {
                rc = gpu_failure(res, fr, "rendering");
                goto done_progress;
            }
            vf_capture_record_readback(cap, cmd);
        }
        if ((res = vf_frames_submit(frames, VK_NULL_HANDLE, 0, VK_NULL_HANDLE)) != VF_OK) {
            rc = gpu_failure(res, fr, "submitting");
            goto done_progress;
        }
        slot_used[slot] = true;
        slot_ends[slot] = true;
        if (step && (res = vf_solver_frame_done(solver)) != VF_OK) {
            rc = gpu_failure(res, fr, "simulation");
            goto done_progress;
        }
        if (render) {
            if ((res = vf_frames_wait(frames, slot)) != VF_OK) {
                rc = gpu_failure(res, fr, "waiting for the gpu");
                goto done_progress;
            }
            vf_profiler_collect_part(prof, slot, &st, true);
            slot_used[slot] = false;
            char path[4200];
            snprintf(path, sizeof path, "%s/frame_%05lld.png", o.out, fr);
            if ((res = vf_capture_write_png(cap, path)) != VF_OK) {
                vf_app_error("--out %s: cannot write %s: %s", o.out, path, vf_result_message(res));
                goto done_progress;
            }
            if (video && fwrite(vf_capture_pixels(cap), (size_t)o.width * o.height * 4, 1, video) != 1) {
                vf_app_error("--video %s: ffmpeg stopped taking frames (see its message above)", o.video);
                goto done_progress;
            }
            frame_ms[captured++] = (vf_app_now() - t_frame) * 1000.0;
        }
        if (vf_app_interrupted()) {
            interrupted = vf_app_interrupted();
            o.frames = fr + 1; /* SIGINT, SIGTERM: this frame is the last */
        }
        /* the state checks, as in run: a blown-up or emptied scene must not
         * capture black frames and exit 0 */
        if (solver->vt->check && (fr + 1 == o.frames || (fr + 1) % o.check_every == 0)) {
            for (uint32_t k = 0; k < 2; k++)
                if ((res = vf_frames_wait(frames, k)) != VF_OK) {
                    rc = gpu_failure(res, fr, "waiting for the gpu");
                    goto done_progress;
                }
            char why[512];
            if ((res = vf_solver_check(solver, why, sizeof why)) != VF_OK) {
                vf_progress_end(&progress);
                vf_app_error("scene %s: check failed at frame %lld (t = %.6g s): %s", sc.info->name, fr, solver->time,
                             why);
                rc = VF_EXIT_FAIL;
                goto done;
            }
        }
        vf_progress_update(&progress, (uint64_t)fr + 1, NULL);
    }
    for (uint32_t k = 0; k < 2; k++)
        if (vf_frames_wait(frames, k) == VF_OK && slot_used[k])
            vf_profiler_collect_part(prof, k, &st, slot_ends[k]);
    vf_progress_end(&progress);
    if (video) {
        int vrc = pclose(video);
        video = NULL;
        if (vrc != 0 || rename(video_tmp, o.video) != 0) {
            vf_app_error("--video %s: ffmpeg failed (%s %d): check that it has libx264", o.video,
                         WIFSIGNALED(vrc) ? "signal" : "exit", WIFSIGNALED(vrc) ? WTERMSIG(vrc) : WEXITSTATUS(vrc));
            remove(video_tmp);
            goto done;
        }
    }
    char field[512] = "";
    if ((res = write_capture_json(o.out, &sc, solver, gpu, renderer, &o, frame_ms, captured, &st, interrupted, field,
                                  sizeof field)) != VF_OK) {
        if (res == VF_ERR_NUMERIC) {
            vf_app_error("scene %s: %s/capture.json: %s is not a finite number (written as null)", sc.info->name, o.out,
                         field);
            rc = VF_EXIT_FAIL;
        } else {
            vf_app_error("--out %s: cannot write %s/capture.json: %s", o.out, o.out, vf_result_message(res));
        }
        goto done;
    }
    if (interrupted) {
        vf_app_note("interrupted (%s) after frame %lld: %u frame%s and capture.json marked interrupted written to %s",
                    vf_app_signal_name(interrupted), o.frames - 1, captured, captured == 1 ? "" : "s", o.out);
        rc = VF_EXIT_INTERRUPTED;
        goto done;
    }
    char so[4200], sv[4200];
    printf("wrote %u frame%s of %s (%ux%u) to %s%s%s\n", captured, captured == 1 ? "" : "s", sc.info->name, o.width,
           o.height, vf_app_shown(o.out, so, sizeof so), o.video ? " and " : "",
           o.video ? vf_app_shown(o.video, sv, sizeof sv) : "");
    rc = VF_EXIT_OK;
    goto done;
done_progress:
    vf_progress_end(&progress);
done:
    free(replay_in);
    if (video) {
        pclose(video);
        remove(video_tmp);
    }
    free(frame_ms);
    vf_frames_destroy(&frames); /* first: waits for the submits that use the profiler's queries */
    vf_profiler_destroy(&prof);
    vf_capture_destroy(&cap);
    vf_renderer_destroy(&renderer);
    vf_solver_destroy(&solver);
    {
        int close_rc = vf_app_gpu_close(&gpu);
        if (rc == VF_EXIT_OK)
            rc = close_rc;
    }
end_scene:
    vf_record_free(&rec);
    vf_cmd_scene_end(&sc);
    return rc;
}
