/* vkfluid-view: the realtime viewer. Its own executable (started by
 * `vkfluid view`) so that the headless commands never load GLFW.
 *
 * One window, one swapchain; per frame one command buffer records the
 * solver's frame, the renderer into the acquired swapchain image, the
 * overlay, and the present transition. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <volk.h> /* Vulkan declarations first: glfw3.h then declares its Vulkan functions */

#include "app.h"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app_gpu.h"
#include "camera.h"
#include "capture.h"
#include "cmd_common.h"
#include "cmd_session.h"
#include "scene_file.h"
#include "fileio.h"
#include "frame_runner.h"
#include "gpu_cmd.h"
#include "gpu_swapchain.h"
#include "overlay.h"
#include "render_registry.h"
#include "render_volume.h"
#include "scenes.h"
#include "options.h"

#define SLOTS VF_FRAME_RUNNER_SLOTS /* the overlay's slots are the runner's */

typedef struct viewer {
    /* options */
    const char *device, *shot_dir, *shot_path, *mode, *test_keys;
    unsigned width, height;
    bool vsync, shot_overlay;
    long long frame_limit, test_resize, test_script;
    vf_render_path render_path;
    /* window and gpu */
    GLFWwindow *win;
    vf_gpu *gpu;
    VkSurfaceKHR surface;
    vf_swapchain sc;
    bool rebuild;
    vf_frame_runner *runner; /* the frame ring and the profiler's slots */
    char scene_name[128];    /* the shown scene's, for the runner's failure lines */
    VkSemaphore acquired[SLOTS];
    vf_overlay *overlay;
    vf_capture *shot;
    /* scene */
    const vf_scene_info *info;
    void *desc;
    const char *file; /* the scene file (argv) while its scene is shown; NULL for built-in scenes */
    vf_cmd_scene *cli; /* the command line's scene: its renderer keys (--set ssf.KEY=VALUE) */
    vf_solver *solver;
    vf_renderer *renderer;
    int mode_index;
    int selected_param;
    /* state */
    bool paused, help, want_shot, recording;
    uint32_t record_index, shot_index;
    char shot_file[4200];
    long long frame;
    double fps, sim_ms, render_ms, last_fps_time;
    uint32_t fps_frames;
    char status[256];
    bool need_estimate;   /* time the first substeps of the next frame (a new solver) */
    char estimate[512];   /* the slow-frame estimate for the overlay, "" when fast */
    /* input */
    double mx, my;
    bool lmb, rmb, mmb;
    vf_interaction interaction;
    vf_camera cam;
    float yaw, pitch, dist;
    bool adopt_camera; /* take the next renderer's own framing (new scene) */
    /* session (cmd_session.h): every input that changes the simulation is an
     * event, applied through vf_session_apply, recorded and exchanged */
    const char *record_path, *serve, *join, *token;
    vf_frame_inputs pending;   /* this frame's events so far */
    uint64_t session_frame;    /* frames applied so far (names events in messages) */
    vf_session_rate resets;    /* this viewer's own resets, kept to the lockstep bounds */
    vf_event_pointer last_ptr; /* the pointer state last sent */
    vf_session_sim sim;
    vf_session_recorder rec;
    vf_lockstep ls;
} viewer;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: vkfluid view [SCENE] [--set KEY=VALUE]... [--size WxH] [--vsync on|off]\n"
            "                    [--frames N] [--render MODE] [--screenshot FILE.png]\n"
            "                    [--screenshot-dir DIR] [--device INDEX|NAME]\n"
            "                    [--render-path auto|compute|raster]\n"
            "                    [--record FILE] [--serve [ADDR:]PORT | --join HOST:PORT] [--token T]\n"
            "\n"
            "Opens a window and runs SCENE (default smoke) live.\n"
            "\n"
            "options:\n"
            "  SCENE                 a built-in scene (vkfluid scenes) or a scene file FILE.json\n"
            "  --scene SCENE         as SCENE: a scene file or a built-in name\n"
            "  --set KEY=VALUE       change a scene key, KEY or SOLVER.KEY, or a renderer\n"
            "                        key (ssf.*): vkfluid scenes SCENE lists them\n"
            "  --size WxH            window size (default 1280x720)\n"
            "  --vsync on|off        wait for the display's refresh (default on)\n"
            "  --frames N            render N frames, then exit (for tests and scripts)\n"
            "  --render MODE         the starting view (M cycles the views; default: a\n"
            "                        scene file's render.mode, else the first view)\n"
            "  --render-path P       auto, compute or raster: how the screen-space fluid\n"
            "                        (the sph view ssf) and the height field's 3D view\n"
            "                        are drawn; auto picks per device\n"
            "                        (vkfluid devices --json says which and why)\n"
            "  --screenshot FILE.png with --frames: write the last frame to FILE.png\n"
            "  --screenshot-dir DIR  where P/F12 screenshots and V recordings go (default\n"
            "                        screenshots)\n"
            "  --record FILE         write every input that changes the simulation, per\n"
            "                        frame, to FILE (replay: vkfluid capture --replay FILE)\n"
            "  --serve [ADDR:]PORT   wait for a second viewer (address default 127.0.0.1)\n"
            "                        and run in lockstep with it: both step the same\n"
            "                        inputs each frame (docs/replay.md)\n"
            "  --join HOST:PORT      join a serving viewer (its scene, in lockstep)\n"
            "  --token T             the session token: the server prints one (or takes\n"
            "                        this one); --join must give it\n"
            "  --device D            the GPU to use (index or name substring)\n"
            "  --test-resize N       (tests) resize and minimise the window N times\n"
            "  --test-script N       (tests) drive N frames of scripted mouse and keys\n"
            "  --test-keys KEYS      (tests) press the key of KEYS[i] at frame i: [ ] a-z\n"
            "                        0-9 and space; '.' presses nothing\n"
            "  --screenshot-overlay  (tests) the --screenshot includes the overlay\n"
            "\n"
            "keys: 1-9, 0 scene, R reset, Space pause, N single step, M view, H help and\n"
            "      the scene keys in the window,\n"
            "      Tab next parameter, Up/Down change it (applies with a reset),\n"
            "      P or F12 screenshot, V start/stop recording frames, Esc quit,\n"
            "      [ and ] move the slice plane of the 3D grid's slice views\n"
            "mouse: left drag pushes fluid / particles, drops (height) or digs (terrain),\n"
            "       right drag pulls (terrain: raises the ground); in 3D scenes middle\n"
            "       drag orbits, shift + middle drag pans\n"
            "       and the wheel zooms\n"
            "\n");
    vf_cmd_print_views(f);
}

static int scene_count(void)
{
    int n = 0;
    while (vf_scenes[n])
        n++;
    return n;
}

/* ---------------------------------------------------------------- scene */

static void drop_scene(viewer *v)
{
    if (v->gpu)
        vkDeviceWaitIdle(v->gpu->device);
    vf_renderer_destroy(&v->renderer);
    vf_solver_destroy(&v->solver);
}

/* The scene's own view (its file's render.mode, built-in scenes' too) as
 * the index M starts cycling from; 0 (the family's first) without one. */
static int scene_mode_index(const viewer *v)
{
    const char *want = vf_cmd_scene_render_mode(v->info, v->desc), *modes = vf_render_modes(v->info->family);
    int k = 0;
    for (const char *p = modes; want && p; k++) {
        size_t n = strcspn(p, "|");
        if (n == strlen(want) && !strncmp(p, want, n))
            return k;
        p = p[n] ? p + n + 1 : NULL;
    }
    return 0;
}

static int make_renderer(viewer *v)
{
    char err[512] = {0};
    const char *modes = vf_render_modes(v->info->family);
    char mode[64] = {0};
    if (v->mode) {
        snprintf(mode, sizeof mode, "%s", v->mode);
    } else if (modes) {
        const char *p = modes;
        for (int i = 0; i < v->mode_index && p; i++) {
            p = strchr(p, '|');
            if (p)
                p++;
        }
        if (!p) {
            v->mode_index = 0;
            p = modes;
        }
        size_t len = strcspn(p, "|");
        snprintf(mode, sizeof mode, "%.*s", (int)len, p);
    }
    vf_render_options ro = {.width = v->sc.extent.width ? v->sc.extent.width : v->width,
                            .height = v->sc.extent.height ? v->sc.extent.height : v->height,
                            .format = v->sc.format,
                            .mode = mode[0] ? mode : NULL,
                            .path = v->render_path};
    /* a swapchain the compute path cannot write (no transfer-destination
     * usage on this surface): auto draws with the rasteriser */
    if (ro.path == VF_RENDER_PATH_AUTO && v->sc.image_count &&
        !(v->sc.images[0].usage & VK_IMAGE_USAGE_TRANSFER_DST_BIT) && !v->sc.images[0].storage)
        ro.path = VF_RENDER_PATH_RASTER;
    if (v->cli)
        vf_cmd_scene_render_settings(v->cli, &ro);
    vf_result res = vf_render_create_for(v->gpu, v->solver, &ro, &v->renderer, err, sizeof err);
    if (res != VF_OK) {
        vf_app_error("%s", err[0] ? err : vf_result_message(res));
        return res == VF_ERR_UNSUPPORTED ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
    }
    if (v->adopt_camera)
        vf_cmd_scene_apply_camera(v->info, v->desc, v->renderer); /* a scene file's camera */
    if (v->adopt_camera && v->renderer->vt->get_camera) {
        /* the renderer frames its scene (or the file's camera): orbit around that */
        v->renderer->vt->get_camera(v->renderer, &v->cam);
        float d[3] = {v->cam.eye[0] - v->cam.target[0], v->cam.eye[1] - v->cam.target[1], v->cam.eye[2] - v->cam.target[2]};
        v->dist = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (v->dist > 0) {
            v->pitch = asinf(fminf(fmaxf(d[1] / v->dist, -1.0f), 1.0f));
            v->yaw = atan2f(d[0], d[2]);
        }
    } else if (v->renderer->vt->set_camera) {
        v->renderer->vt->set_camera(v->renderer, &v->cam);
    }
    v->adopt_camera = false;
    return 0;
}

static int make_scene(viewer *v)
{
    char err[512] = {0};
    drop_scene(v);
    if (v->info->validate && v->info->validate(v->info, v->desc, NULL, err, sizeof err) != VF_OK) {
        vf_app_error("scene %s: %s", v->info->name, err);
        return VF_EXIT_USAGE;
    }
    vf_cmd_scene sc = {.info = v->info, .desc = v->desc, .file = v->file};
    int rc = vf_cmd_scene_create(&sc, v->gpu, &v->solver);
    if (rc)
        return rc;
    v->need_estimate = true;
    v->estimate[0] = 0;
    return make_renderer(v);
}

/* The session's rebuild (cmd_session.h): a reset, or a new scene (the
 * SCENE event already loaded its info and desc). */
static int rebuild_scene(void *user, bool new_scene, const char *context)
{
    viewer *v = user;
    (void)context; /* make_scene names the scene in its own error line */
    if (new_scene) {
        v->file = NULL;
        v->adopt_camera = true;
        v->mode = NULL;
        v->mode_index = scene_mode_index(v);
        v->selected_param = 0;
    }
    return make_scene(v);
}

/* Queues an event for this frame (cmd_session.h). In lockstep a frame holds
 * both peers' events, so each side may add at most half. */
static void push_event(viewer *v, const vf_event *ev)
{
    uint32_t cap = v->ls.peer ? VF_SESSION_PEER_EVENTS : VF_SESSION_MAX_EVENTS;
    char why[300];
    if (ev->type == VF_EVENT_RESET || ev->type == VF_EVENT_SCENE) {
        /* a reset this viewer could not replay, or one beyond the lockstep
         * bounds (kept solo too, so a recording can be served), is not sent */
        vf_frame_inputs one = {.count = 1, .ev = {*ev}};
        vf_session_rate r = v->resets;
        for (uint32_t i = 0; i < v->pending.count; i++)
            if (v->pending.ev[i].type == VF_EVENT_RESET || v->pending.ev[i].type == VF_EVENT_SCENE) {
                snprintf(v->status, sizeof v->status, "one reset a frame: this one was dropped");
                return;
            }
        if (ev->type == VF_EVENT_RESET && !vf_session_reset_ok(v->info, v->desc, &v->pending, why, sizeof why)) {
            snprintf(v->status, sizeof v->status, "not reset: %.230s", why);
            return;
        }
        if (!vf_session_rate_check(&r, v->session_frame, &one, why, sizeof why)) {
            snprintf(v->status, sizeof v->status, "at most %u resets in %u frames: this one was dropped",
                     VF_SESSION_RESETS_PER_WINDOW, VF_SESSION_RESET_WINDOW);
            return;
        }
        if (v->pending.count < cap && vf_frame_add(&v->pending, ev))
            v->resets = r;
        else
            snprintf(v->status, sizeof v->status, "too many inputs in one frame: one was dropped");
        return;
    }
    if (v->pending.count >= cap || !vf_frame_add(&v->pending, ev))
        snprintf(v->status, sizeof v->status, "too many inputs in one frame: one was dropped");
}

/* ---------------------------------------------------------------- camera */

static void update_camera(viewer *v)
{
    float cp = cosf(v->pitch), sp = sinf(v->pitch), cy = cosf(v->yaw), sy = sinf(v->yaw);
    v->cam.eye[0] = v->cam.target[0] + v->dist * cp * sy;
    v->cam.eye[1] = v->cam.target[1] + v->dist * sp;
    v->cam.eye[2] = v->cam.target[2] + v->dist * cp * cy;
    if (v->renderer && v->renderer->vt->set_camera)
        v->renderer->vt->set_camera(v->renderer, &v->cam);
}

/* ---------------------------------------------------------------- input */

static void adjust_param(viewer *v, double factor)
{
    if (!v->info->param_count)
        return;
    const vf_param_def *d = &v->info->params[v->selected_param % (int)v->info->param_count];
    char cur[64], next[64];
    vf_params_format(d, v->desc, cur, sizeof cur);
    if (d->type == VF_PARAM_DOUBLE) {
        double x = atof(cur) * factor;
        if (x == 0.0)
            x = factor > 1 ? (d->max > 1 ? 1.0 : d->max) : d->min;
        x = fmin(fmax(x, d->min), d->max);
        snprintf(next, sizeof next, "%.6g", x);
    } else if (d->type == VF_PARAM_INT) {
        long x = atol(cur);
        long y = (long)llround((double)x * factor);
        if (y == x)
            y = x + (factor > 1 ? 1 : -1);
        y = (long)fmin(fmax((double)y, d->min), d->max);
        snprintf(next, sizeof next, "%ld", y);
    } else if (d->type == VF_PARAM_BOOL) {
        snprintf(next, sizeof next, "%s", !strcmp(cur, "true") ? "false" : "true");
    } else {
        /* enum: step through the choices */
        int idx = *(const int *)((const char *)v->desc + d->offset);
        int n = 1;
        for (const char *c = d->choices; *c; c++)
            n += *c == '|';
        idx = (idx + (factor > 1 ? 1 : n - 1)) % n;
        const char *c = d->choices;
        for (int k = 0; k < idx && c; k++)
            if ((c = strchr(c, '|')) != NULL)
                c++;
        snprintf(next, sizeof next, "%.*s", c ? (int)strcspn(c, "|") : 0, c ? c : "");
    }
    /* a parameter change is a session event (applied before the next step) */
    vf_event ev = {.type = VF_EVENT_SET};
    snprintf(ev.text, sizeof ev.text, "%s=%s", d->key, next);
    push_event(v, &ev);
}

static void on_key(GLFWwindow *win, int key, int scancode, int action, int mods)
{
    (void)scancode;
    (void)mods;
    viewer *v = glfwGetWindowUserPointer(win);
    if (action != GLFW_PRESS && action != GLFW_REPEAT)
        return;
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) {
        int idx = key == GLFW_KEY_0 ? 9 : key - GLFW_KEY_1; /* 1..9, then 0 for the tenth scene */
        if (idx < scene_count()) {
            vf_event ev = {.type = VF_EVENT_SCENE};
            snprintf(ev.text, sizeof ev.text, "%s", vf_scenes[idx]->name);
            push_event(v, &ev);
        }
        return;
    }
    switch (key) {
    case GLFW_KEY_ESCAPE:
    case GLFW_KEY_Q: glfwSetWindowShouldClose(win, GLFW_TRUE); break;
    case GLFW_KEY_R: push_event(v, &(vf_event){.type = VF_EVENT_RESET}); break;
    case GLFW_KEY_SPACE:
        /* toggles what this frame will show: a pause already queued counts */
        v->paused = !v->paused;
        push_event(v, &(vf_event){.type = VF_EVENT_PAUSE, .on = v->paused});
        break;
    case GLFW_KEY_N: push_event(v, &(vf_event){.type = VF_EVENT_STEP}); break;
    case GLFW_KEY_H: v->help = !v->help; break;
    case GLFW_KEY_M:
        v->mode = NULL;
        v->mode_index++;
        vkDeviceWaitIdle(v->gpu->device);
        vf_renderer_destroy(&v->renderer);
        if (make_renderer(v) != 0)
            snprintf(v->status, sizeof v->status, "view failed (see the terminal)");
        break;
    case GLFW_KEY_TAB:
        if (v->info->param_count)
            v->selected_param = (v->selected_param + 1) % (int)v->info->param_count;
        break;
    case GLFW_KEY_UP: adjust_param(v, 1.25); break;
    case GLFW_KEY_DOWN: adjust_param(v, 0.8); break;
    case GLFW_KEY_P:
    case GLFW_KEY_F12: v->want_shot = true; break;
    case GLFW_KEY_LEFT_BRACKET:
    case GLFW_KEY_RIGHT_BRACKET: /* the 3D grid's slice plane (other views ignore it) */
        vf_render_volume_set_slice(v->renderer, vf_render_volume_slice(v->renderer) + (key == GLFW_KEY_LEFT_BRACKET ? -0.05f : 0.05f));
        break;
    case GLFW_KEY_V:
        v->recording = !v->recording;
        snprintf(v->status, sizeof v->status, v->recording ? "recording to %.200s" : "recording stopped", v->shot_dir);
        break;
    default: break;
    }
}

static void on_mouse_button(GLFWwindow *win, int button, int action, int mods)
{
    (void)mods;
    viewer *v = glfwGetWindowUserPointer(win);
    bool down = action == GLFW_PRESS;
    if (button == GLFW_MOUSE_BUTTON_LEFT)
        v->lmb = down;
    else if (button == GLFW_MOUSE_BUTTON_RIGHT)
        v->rmb = down;
    else if (button == GLFW_MOUSE_BUTTON_MIDDLE)
        v->mmb = down;
}

static void on_cursor(GLFWwindow *win, double x, double y)
{
    viewer *v = glfwGetWindowUserPointer(win);
    double dx = x - v->mx, dy = y - v->my;
    v->mx = x;
    v->my = y;
    if (v->mmb && glfwGetKey(win, GLFW_KEY_LEFT_SHIFT) != GLFW_PRESS && glfwGetKey(win, GLFW_KEY_RIGHT_SHIFT) != GLFW_PRESS) {
        v->yaw -= (float)dx * 0.01f;
        v->pitch = fminf(fmaxf(v->pitch + (float)dy * 0.01f, -1.5f), 1.5f);
        update_camera(v);
    } else if (v->mmb) {
        /* pan: move the orbit centre in the view plane, scaled with the distance */
        float cy = cosf(v->yaw), sy = sinf(v->yaw);
        float right[3] = {cy, 0.0f, -sy}, k = v->dist * 0.0015f;
        float up[3] = {-sinf(v->pitch) * sy, cosf(v->pitch), -sinf(v->pitch) * cy};
        for (int i = 0; i < 3; i++)
            v->cam.target[i] += (float)(-dx * right[i] + dy * up[i]) * k;
        update_camera(v);
    }
}

static void on_scroll(GLFWwindow *win, double dx, double dy)
{
    (void)dx;
    viewer *v = glfwGetWindowUserPointer(win);
    v->dist = fminf(fmaxf(v->dist * (dy > 0 ? 0.9f : 1.1f), 0.05f), 100.0f);
    update_camera(v);
}

static void update_interaction(viewer *v, double dt)
{
    int w, h;
    glfwGetWindowSize(v->win, &w, &h);
    vf_interaction in = {0};
    in.active = v->lmb || v->rmb;
    in.button = v->rmb ? 1 : 0;
    if (w > 0 && h > 0) {
        /* the pick ray through the cursor for 3D solvers */
        vf_camera_pick_ray(&v->cam, (float)w / (float)h, (float)(2.0 * v->mx / w - 1.0), (float)(1.0 - 2.0 * v->my / h),
                           in.ray_origin, in.ray_dir);
        /* 2D solvers: where a 3D view draws the domain under the cursor, or
         * (2D views) the cursor's place in the window */
        if (!(v->renderer && v->renderer->vt->pick &&
              v->renderer->vt->pick(v->renderer, in.ray_origin, in.ray_dir, in.pos))) {
            in.pos[0] = (float)(v->mx / w);
            in.pos[1] = (float)(1.0 - v->my / h);
        }
        if (dt > 0 && v->interaction.active && in.active) {
            in.vel[0] = (float)((in.pos[0] - v->interaction.pos[0]) / dt);
            in.vel[1] = (float)((in.pos[1] - v->interaction.pos[1]) / dt);
        }
    }
    v->interaction = in;
    /* the pointer is a session event when it changed */
    vf_event ev = {.type = VF_EVENT_POINTER};
    ev.pointer = (vf_event_pointer){.active = in.active, .button = (uint8_t)in.button};
    memcpy(ev.pointer.pos, in.pos, sizeof in.pos);
    memcpy(ev.pointer.vel, in.vel, sizeof in.vel);
    memcpy(ev.pointer.ray_origin, in.ray_origin, sizeof in.ray_origin);
    memcpy(ev.pointer.ray_dir, in.ray_dir, sizeof in.ray_dir);
    vf_event_pointer_clamp(&ev.pointer); /* a recording holds only values a replay takes */
    if (memcmp(&ev.pointer, &v->last_ptr, sizeof ev.pointer) && (in.active || v->last_ptr.active)) {
        push_event(v, &ev);
        v->last_ptr = ev.pointer;
    }
}

/* One session frame (cmd_session.h): the pointer, the exchange with a
 * lockstep peer (the state hash of the previous frame goes with it), the
 * record file, then the inputs applied through the one shared path.
 * *step: whether this frame advances the simulation. */
static int session_frame(viewer *v, double dt, bool *step)
{
    int rc;
    update_interaction(v, dt);
    const vf_frame_inputs *ordered[2] = {&v->pending, NULL};
    vf_session_source local_src = {"this viewer's input", VF_EXIT_RUNTIME}, src[2] = {local_src, local_src};
    uint32_t n = 1;
    vf_frame_inputs remote, merged = {0};
    if (v->ls.peer) {
        uint64_t hash = 0;
        vkDeviceWaitIdle(v->gpu->device);
        if (v->ls.frame > 0 && (rc = vf_session_state_hash(v->solver, &hash)) != 0)
            return rc;
        if ((rc = vf_lockstep_exchange(&v->ls, hash, &v->pending, &remote, ordered, &local_src, src)) != 0)
            return rc;
        n = 2;
        if (v->ls.peer_ended) {
            fprintf(stderr, "the other viewer ended the session\n");
            glfwSetWindowShouldClose(v->win, GLFW_TRUE);
        }
    }
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t i = 0; i < ordered[k]->count; i++)
            vf_frame_add(&merged, &ordered[k]->ev[i]);
    if ((rc = vf_session_record_frame(&v->rec, &merged)) != 0)
        return rc;
    rc = vf_session_apply(&v->sim, ordered, src, n, v->session_frame++, step);
    v->pending.count = 0;
    v->paused = v->sim.paused;
    return rc;
}

/* ---------------------------------------------------------------- overlay */

static void draw_overlay(viewer *v, uint32_t slot)
{
    static const uint8_t white[4] = {255, 255, 255, 255}, yellow[4] = {255, 220, 90, 255}, grey[4] = {210, 210, 210, 255},
                         cyan[4] = {140, 220, 255, 255};
    const float gap = 3.0f; /* between lines (font pixels; the overlay scales with the window) */
    vf_overlay_begin(v->overlay, slot);
    char line[512], what[128] = "";
    if (v->solver && v->solver->vt->describe)
        v->solver->vt->describe(v->solver, what, sizeof what);
    what[strcspn(what, ";")] = 0; /* the size part */
    snprintf(line, sizeof line, "%.1f fps   sim %.2f ms   render %.2f ms (%s)   %s%s", v->fps, v->sim_ms, v->render_ms,
             v->renderer ? vf_render_path_name(v->renderer->path) : "-", what, v->paused ? "   [paused]" : "");
    float y = 6;
    y += vf_overlay_text(v->overlay, 6, y, line, white) + gap;
    if (v->info) {
        snprintf(line, sizeof line, "scene %s (%s)   t = %.3f s%s%s", v->info->name, v->info->family,
                 v->solver ? v->solver->time : 0.0, v->recording ? "   [recording]" : "",
                 v->help ? "" : "   H: keys and scenes");
        y += vf_overlay_text(v->overlay, 6, y, line, white) + gap;
        if (v->info->param_count) {
            const vf_param_def *d = &v->info->params[v->selected_param % (int)v->info->param_count];
            char val[64];
            vf_params_format(d, v->desc, val, sizeof val);
            snprintf(line, sizeof line, "Tab/Up/Down: %s = %s %s (R applies)", d->key, val, d->unit ? d->unit : "");
            y += vf_overlay_text(v->overlay, 6, y, line, yellow) + gap;
        }
    }
    if (v->status[0])
        y += vf_overlay_text(v->overlay, 6, y, v->status, yellow) + gap;
    if (v->estimate[0]) {
        y += vf_overlay_text(v->overlay, 6, y, v->estimate, yellow) + gap;
    } else if (v->info && v->fps > 0 && v->fps < 1.0 / vf_cmd_slow_frame_s()) {
        const char *fam = v->info->family;
        snprintf(line, sizeof line, "slow: %.3g s a frame on this device: lower %s (Tab to select it, R applies)",
                 1.0 / v->fps, !strcmp(fam, "sph") ? "spacing (raise it: fewer particles)" : !strcmp(fam, "grid") ? "n" : "nx and ny");
        y += vf_overlay_text(v->overlay, 6, y, line, yellow) + gap;
    }
    if (v->help) {
        const char *help = "R reset   Space pause   N step   M view   H hide help\n"
                           "Tab/Up/Down parameter   P/F12 screenshot   V record   Esc quit   [ ] slice\n"
                           "left drag: push / inject / drop / dig   right drag: pull / raise\n"
                           "middle drag: orbit   shift+middle: pan   wheel: zoom";
        y += vf_overlay_text(v->overlay, 6, y + gap, help, grey) + 3 * gap;
        /* which number key opens which scene, five a line */
        char scenes[512] = "scenes:";
        size_t used = strlen(scenes);
        for (int i = 0; i < scene_count() && i < 10 && used + 1 < sizeof scenes; i++) {
            int w = snprintf(scenes + used, sizeof scenes - used, "%s%d %-10s", i % 5 ? " " : i ? "\n        " : " ",
                             (i + 1) % 10, vf_scenes[i]->name);
            if (w < 0)
                break;
            used += (size_t)w;
        }
        vf_overlay_text(v->overlay, 6, y, scenes, cyan);
    }
}

/* ---------------------------------------------------------------- frame */

/* The runner's collect (vf_frame_collect_fn): the overlay's smoothed
 * simulation and render times from a finished slot. */
static vf_result collect_times(void *user, vf_profiler *prof, uint32_t slot, const vf_frame_slot *what)
{
    viewer *v = user;
    vf_pass_time t[VF_PASS_STATS_MAX];
    uint32_t n = 0;
    (void)what;
    vf_result res = vf_profiler_collect(prof, slot, t, VF_PASS_STATS_MAX, &n);
    if (res != VF_OK)
        return res;
    for (uint32_t i = 0; i < n; i++) {
        if (!strcmp(t[i].name, "view.sim"))
            v->sim_ms = 0.9 * v->sim_ms + 0.1 * t[i].ms;
        else if (!strcmp(t[i].name, "view.render"))
            v->render_ms = 0.9 * v->render_ms + 0.1 * t[i].ms;
    }
    return VF_OK;
}

static int rebuild_swapchain(viewer *v)
{
    int w = 0, h = 0;
    glfwGetFramebufferSize(v->win, &w, &h);
    vkDeviceWaitIdle(v->gpu->device);
    VkExtent2D old = v->sc.extent;
    vf_result res = vf_swapchain_build(&v->sc, v->gpu, v->surface, (uint32_t)w, (uint32_t)h, v->vsync);
    if (res != VF_OK) {
        vf_app_error("cannot create the swapchain: %s", vf_result_message(res));
        return VF_EXIT_RUNTIME;
    }
    v->rebuild = false;
    if (v->sc.extent.width && (old.width != v->sc.extent.width || old.height != v->sc.extent.height)) {
        if (v->renderer && (res = v->renderer->vt->resize(v->renderer, v->sc.extent.width, v->sc.extent.height)) != VF_OK) {
            vf_app_error("cannot resize the render targets: %s", vf_result_message(res));
            return VF_EXIT_RUNTIME;
        }
        vf_capture_destroy(&v->shot);
    }
    return 0;
}

/* Copies target into the screenshot readback and returns it to the colour
 * attachment layout. */
static void record_shot_copy(viewer *v, VkCommandBuffer cmd, vf_image *target)
{
    vf_capture_record_copy(v->shot, cmd, target);
    vf_image_transition(cmd, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT, 0,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
}

/* A new solver's pace from its first substeps, before the frame (after
 * this frame's inputs: the frame's results do not change): the estimate
 * line, a warning when slow, and a pause before a slow frame; *step false
 * when the estimate completed the frame or the viewer pauses. */
static int estimate_new_solver(viewer *v, bool *step)
{
    v->need_estimate = false;
    vf_frame_estimate est;
    int rc = vf_cmd_estimate_frame(v->runner, v->solver, v->renderer, 1.0, &est);
    if (rc != 0)
        return rc;
    char line[1024];
    const char *key = NULL;
    bool slow = vf_cmd_estimate_text(v->info, v->desc, v->solver, v->gpu, &est, 0, false, line, sizeof line, NULL);
    vf_cmd_estimate_text(v->info, v->desc, v->solver, v->gpu, &est, 0, true, v->estimate, sizeof v->estimate, &key);
    for (size_t k = 0; key && k < v->info->param_count; k++) /* the key to change, selected for Up/Down */
        if (!strcmp(v->info->params[k].key, key))
            v->selected_param = (int)k;
    *step = !est.frame_complete;
    /* a slow scene pauses before its first frame instead of freezing the
     * window for it (not in lockstep or while recording: the pause would
     * depend on this machine's pace, not on the inputs) */
    bool pause = slow && *step && !v->ls.peer && !v->rec.open;
    if (slow)
        vf_app_warn("%s%s", line, pause ? " (the viewer pauses: Space runs it)" : "");
    if (pause) {
        *step = false; /* the frame stays in progress: Space or N goes on with it */
        v->paused = true;
        push_event(v, &(vf_event){.type = VF_EVENT_PAUSE, .on = true});
        snprintf(v->status, sizeof v->status, "paused before a slow frame: Space runs, N steps one frame");
    }
    return 0;
}

/* After the frame's submit: waits for it and writes the screenshot (or the
 * recorded frame, or --screenshot's file). 0, or an exit code after
 * printing. */
static int write_shot(viewer *v, uint32_t slot)
{
    int rc;
    if ((rc = vf_frame_runner_wait(v->runner, slot)) != 0 || (rc = vf_frame_runner_collect(v->runner, slot)) != 0)
        return rc;
    const char *path = v->shot_file;
    if (v->shot_path && v->frame + 1 == v->frame_limit) {
        path = v->shot_path;
    } else {
        mkdir(v->shot_dir, 0777);
        if (v->recording)
            snprintf(v->shot_file, sizeof v->shot_file, "%s/frame_%05u.png", v->shot_dir, v->record_index++);
        else
            snprintf(v->shot_file, sizeof v->shot_file, "%s/shot_%03u.png", v->shot_dir, v->shot_index++);
    }
    vf_result res = vf_capture_write_png(v->shot, path);
    if (v->want_shot)
        snprintf(v->status, sizeof v->status, res == VF_OK ? "saved %.200s" : "cannot write %.200s", path);
    if (res != VF_OK && path == v->shot_path) {
        vf_app_error("--screenshot %s: cannot write the file", path);
        return VF_EXIT_USAGE;
    }
    v->want_shot = false;
    return 0;
}

/* Whether this frame is read back (a screenshot, a recorded frame or
 * --screenshot's last frame) into v->shot, created here for target. */
static bool want_shot(viewer *v, const vf_image *target)
{
    bool shot = v->want_shot || v->recording || (v->shot_path && v->frame + 1 == v->frame_limit);
    if (shot && !(target->format == VK_FORMAT_B8G8R8A8_SRGB || target->format == VK_FORMAT_R8G8B8A8_SRGB ||
                  target->format == VK_FORMAT_B8G8R8A8_UNORM || target->format == VK_FORMAT_R8G8B8A8_UNORM))
        shot = false;
    if (shot && !v->shot) {
        vf_capture_desc cd = {.width = target->width, .height = target->height};
        if (vf_capture_create(v->gpu, &cd, &v->shot) != VF_OK)
            shot = false;
    }
    return shot;
}

/* One frame through the runner: the session's inputs, the simulation, then
 * the hook of the viewer (render into the acquired swapchain image, the
 * screenshot's copy, the overlay), the submit that waits for the acquire
 * and signals the present, the present and a screenshot's readback. 0, or
 * an exit code after printing. */
static int draw_frame(viewer *v, double dt)
{
    VkCommandBuffer cmd;
    uint32_t slot, index = 0;
    uint64_t frame = (uint64_t)v->frame + 1;
    snprintf(v->scene_name, sizeof v->scene_name, "%s", v->info->name);
    int rc = vf_frame_runner_begin(v->runner, &cmd, &slot);
    if (rc != 0)
        return rc;
    vf_result res = vf_swapchain_acquire(&v->sc, v->acquired[slot], &index);
    if (res == VF_ERR_UNSUPPORTED) {
        /* out of date: submit the command buffer without work, rebuild, try again next frame */
        v->rebuild = true;
        return vf_frame_runner_submit(v->runner, slot, frame, 1, true);
    }
    if (res != VF_OK)
        return vf_frame_runner_fail(v->runner, res, "acquiring the swapchain image", frame, 0, -1);
    bool step;
    if ((rc = session_frame(v, dt, &step)) != 0)
        return rc; /* the acquired image is never presented: the viewer exits */
    snprintf(v->scene_name, sizeof v->scene_name, "%s", v->info->name); /* the inputs may change the scene */
    if (step && v->need_estimate && (rc = estimate_new_solver(v, &step)) != 0)
        return rc;
    vf_profiler *prof = v->runner->prof;
    if (step) {
        uint32_t s = vf_profiler_begin(prof, cmd, "view.sim");
        res = vf_solver_record_frame(v->solver, cmd, prof);
        vf_profiler_end(prof, cmd, s);
        if (res != VF_OK)
            return vf_frame_runner_fail(v->runner, res, "recording", frame, 1, (int)slot);
    }
    vf_render_barrier_after_sim(cmd);
    vf_image *target = &v->sc.images[index];
    vf_render_prepare_target(cmd, target);
    uint32_t s = vf_profiler_begin(prof, cmd, "view.render");
    res = v->renderer->vt->record(v->renderer, cmd, target, prof);
    vf_profiler_end(prof, cmd, s);
    if (res != VF_OK)
        return vf_frame_runner_fail(v->runner, res, "rendering", frame, 1, (int)slot);
    bool shot = want_shot(v, target);
    /* screenshots show the picture without the overlay (--screenshot-overlay: with it) */
    if (shot && !v->shot_overlay)
        record_shot_copy(v, cmd, target);
    draw_overlay(v, slot);
    vf_overlay_record(v->overlay, cmd, target);
    if (shot && v->shot_overlay)
        record_shot_copy(v, cmd, target);
    vf_image_transition(cmd, target, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_NONE, 0);
    if ((rc = vf_frame_runner_submit_sync(v->runner, slot, frame, v->acquired[slot],
                                          VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, v->sc.render_done[index])) != 0)
        return rc;
    if (step && (res = vf_solver_frame_done(v->solver)) != VF_OK)
        return vf_frame_runner_fail(v->runner, res, "frame bookkeeping", frame, 1, -1);
    bool rebuild = false;
    if ((res = vf_swapchain_present(&v->sc, index, &rebuild)) != VF_OK)
        return vf_frame_runner_fail(v->runner, res, "presenting", frame, 1, (int)slot);
    v->rebuild |= rebuild;
    return shot ? write_shot(v, slot) : 0;
}

/* Scripted resize/minimise cycles for the tests (--test-resize N). */
static void test_resize_step(viewer *v)
{
    long long cycle = v->frame / 2;
    if (v->frame % 2 || cycle >= v->test_resize)
        return;
    static const int sizes[][2] = {{320, 240}, {641, 359}, {200, 500}, {800, 600}, {97, 61}};
    if (cycle % 5 == 4) {
        glfwIconifyWindow(v->win);
        glfwWaitEventsTimeout(0.01);
        glfwRestoreWindow(v->win);
    } else {
        const int *s = sizes[cycle % 5];
        glfwSetWindowSize(v->win, s[0], s[1]);
    }
    v->rebuild = true;
}

/* Scripted input for the tests (--test-script N): drags with both buttons,
 * a pause, a single step, a parameter change and a reset, through the same
 * callbacks as a real mouse and keyboard, in a 24-frame cycle. */
static void test_script_step(viewer *v)
{
    if (v->frame >= v->test_script)
        return;
    int w = 0, h = 0, f = (int)(v->frame % 24);
    glfwGetWindowSize(v->win, &w, &h);
    if (f == 2 || f == 17) {
        on_cursor(v->win, (f == 2 ? 0.3 : 0.7) * w, 0.5 * h);
        on_mouse_button(v->win, f == 2 ? GLFW_MOUSE_BUTTON_LEFT : GLFW_MOUSE_BUTTON_RIGHT, GLFW_PRESS, 0);
    } else if ((f > 2 && f < 9) || (f > 17 && f < 22)) {
        int k = f < 9 ? f - 2 : f - 17;
        on_cursor(v->win, ((f < 9 ? 0.3 : 0.7) + 0.04 * k) * w, (0.5 - 0.03 * k) * h);
    } else if (f == 9 || f == 22) {
        on_mouse_button(v->win, f == 9 ? GLFW_MOUSE_BUTTON_LEFT : GLFW_MOUSE_BUTTON_RIGHT, GLFW_RELEASE, 0);
    } else if (f == 10 || f == 13) {
        on_key(v->win, GLFW_KEY_SPACE, 0, GLFW_PRESS, 0);
    } else if (f == 12) {
        on_key(v->win, GLFW_KEY_N, 0, GLFW_PRESS, 0);
    } else if (f == 14) {
        on_key(v->win, GLFW_KEY_UP, 0, GLFW_PRESS, 0);
    } else if (f == 15) {
        on_key(v->win, GLFW_KEY_R, 0, GLFW_PRESS, 0);
    }
}

/* The key of a --test-keys character; 0 for '.' (none), -1 when not allowed. */
static int test_key_code(char c)
{
    if (c == '.')
        return 0;
    if (c == '[' || c == ']')
        return c == '[' ? GLFW_KEY_LEFT_BRACKET : GLFW_KEY_RIGHT_BRACKET;
    if (c == ' ')
        return GLFW_KEY_SPACE;
    if (c >= 'a' && c <= 'z')
        return GLFW_KEY_A + (c - 'a');
    if (c >= '0' && c <= '9')
        return GLFW_KEY_0 + (c - '0');
    return -1;
}

/* Scripted keys for the tests (--test-keys KEYS): the key of KEYS[frame] is
 * pressed at that frame, through the same callback as the keyboard. */
static void test_keys_step(viewer *v)
{
    if (v->frame >= (long long)strlen(v->test_keys))
        return;
    int key = test_key_code(v->test_keys[v->frame]);
    if (key > 0)
        on_key(v->win, key, 0, GLFW_PRESS, 0);
}

static int run_viewer(viewer *v, vf_cmd_scene *sc)
{
    int rc;
    uint32_t ext_count = 0;
    const char **exts = glfwGetRequiredInstanceExtensions(&ext_count);
    if (!exts) {
        vf_app_error("the vulkan loader has no window-system support: install libvulkan1 and mesa-vulkan-drivers");
        return VF_EXIT_USAGE;
    }
    if ((rc = vf_app_gpu_open(v->device, true, exts, ext_count, &v->gpu)) != 0)
        return rc;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    char title[320];
    snprintf(title, sizeof title, "vkfluid - %s", v->gpu->info.name);
    v->win = glfwCreateWindow((int)v->width, (int)v->height, title, NULL, NULL);
    if (!v->win) {
        vf_app_error("cannot open a window on this display");
        return VF_EXIT_RUNTIME;
    }
    glfwSetWindowUserPointer(v->win, v);
    glfwSetKeyCallback(v->win, on_key);
    glfwSetMouseButtonCallback(v->win, on_mouse_button);
    glfwSetCursorPosCallback(v->win, on_cursor);
    glfwSetScrollCallback(v->win, on_scroll);
    if (VF_VK(glfwCreateWindowSurface(v->gpu->instance, v->win, NULL, &v->surface)) != VF_OK) {
        vf_app_error("cannot create a vulkan surface for the window");
        return VF_EXIT_RUNTIME;
    }
    VkBool32 supported = VK_FALSE;
    vkGetPhysicalDeviceSurfaceSupportKHR(v->gpu->physical, v->gpu->queue_family, v->surface, &supported);
    if (!supported) {
        vf_app_error("%s cannot present to this window: choose another --device", v->gpu->info.name);
        return VF_EXIT_USAGE;
    }
    if ((rc = rebuild_swapchain(v)) != 0)
        return rc;
    vf_frame_runner_desc rd = {.name = "viewer frames", .scene = v->scene_name, .solver = &v->solver,
                               .size_hint = "a smaller size (--set, or the keys)",
                               .keep_hint = "the viewer runs no checks; vkfluid run --check-every N keeps one",
                               .collect = collect_times, .collect_user = v};
    vf_overlay_desc od = {.format = v->sc.format ? v->sc.format : VK_FORMAT_B8G8R8A8_SRGB, .slots = SLOTS};
    vf_result res = vf_frame_runner_create(v->gpu, &rd, &v->runner);
    if (res == VF_OK)
        res = vf_overlay_create(v->gpu, &od, &v->overlay);
    for (uint32_t i = 0; res == VF_OK && i < SLOTS; i++) {
        VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        res = VF_VK(vkCreateSemaphore(v->gpu->device, &sci, NULL, &v->acquired[i]));
        vf_gpu_name(v->gpu, VK_OBJECT_TYPE_SEMAPHORE, (uint64_t)v->acquired[i], "swapchain acquired");
    }
    if (res != VF_OK) {
        vf_app_error("viewer set-up failed: %s", vf_result_message(res));
        return VF_EXIT_RUNTIME;
    }
    /* the scene: the one given on the command line (with its --set), or smoke */
    v->info = sc->info;
    v->file = sc->file;
    v->cli = sc;
    v->adopt_camera = true;
    v->desc = sc->desc;
    sc->desc = NULL;
    v->mode_index = scene_mode_index(v);
    if ((rc = make_scene(v)) != 0)
        return rc;
    v->sim = (vf_session_sim){.info = &v->info, .desc = &v->desc, .solver = &v->solver, .rebuild = rebuild_scene, .user = v};
    /* a renderer that framed its scene keeps its exact camera (as capture
     * renders it) until the user orbits; the others get the orbit camera */
    if (!v->renderer->vt->get_camera)
        update_camera(v);
    double last = vf_app_now();
    v->last_fps_time = last;
    while (!glfwWindowShouldClose(v->win) && (v->frame_limit == 0 || v->frame < v->frame_limit) &&
           !vf_app_interrupted()) {
        glfwPollEvents();
        if (v->test_resize)
            test_resize_step(v);
        if (v->test_script)
            test_script_step(v);
        if (v->test_keys)
            test_keys_step(v);
        int w = 0, h = 0;
        glfwGetFramebufferSize(v->win, &w, &h);
        if (w == 0 || h == 0) {
            /* minimised: no swapchain of zero size; wait for the window to come back */
            if (v->sc.swapchain)
                vf_swapchain_release(&v->sc);
            glfwWaitEventsTimeout(0.05);
            if (v->frame_limit)
                v->frame++;
            continue;
        }
        if (v->rebuild || !v->sc.swapchain || (uint32_t)w != v->sc.extent.width || (uint32_t)h != v->sc.extent.height)
            if ((rc = rebuild_swapchain(v)) != 0)
                return rc;
        if (!v->sc.swapchain)
            continue;
        double now = vf_app_now();
        if ((rc = draw_frame(v, now - last)) != 0)
            return rc;
        last = now;
        v->frame++;
        v->fps_frames++;
        if (now - v->last_fps_time > 0.5) {
            v->fps = v->fps_frames / (now - v->last_fps_time);
            v->fps_frames = 0;
            v->last_fps_time = now;
        }
    }
    return 0;
}

static void cleanup(viewer *v, int *rc)
{
    if (v->gpu)
        vkDeviceWaitIdle(v->gpu->device);
    drop_scene(v);
    vf_capture_destroy(&v->shot);
    vf_overlay_destroy(&v->overlay);
    vf_frame_runner_destroy(&v->runner); /* first: waits for the submits that use the profiler's queries */
    for (uint32_t i = 0; i < SLOTS; i++)
        if (v->acquired[i])
            vkDestroySemaphore(v->gpu->device, v->acquired[i], NULL);
    vf_swapchain_release(&v->sc);
    if (v->surface)
        vkDestroySurfaceKHR(v->gpu->instance, v->surface, NULL);
    if (v->win)
        glfwDestroyWindow(v->win);
    free(v->desc);
    int close_rc = vf_app_gpu_close(&v->gpu);
    if (*rc == 0)
        *rc = close_rc;
}

static int opt_size(const char *name, const char *val, void *ctx)
{
    viewer *v = ctx;
    if (!vf_app_parse_size(val, 16384, &v->width, &v->height)) {
        vf_app_error("%s %s: must be WxH, e.g. 1280x720", name, val);
        return VF_EXIT_USAGE;
    }
    return 0;
}

static int opt_vsync(const char *name, const char *val, void *ctx)
{
    if (strcmp(val, "on") && strcmp(val, "off")) {
        vf_app_error("%s %s: must be on or off", name, val);
        return VF_EXIT_USAGE;
    }
    *(bool *)ctx = !strcmp(val, "on");
    return 0;
}

static int opt_test_keys(const char *name, const char *val, void *ctx)
{
    for (const char *c = val; *c; c++)
        if (test_key_code(*c) < 0 || c - val >= 10000) {
            vf_app_error("%s %s: use up to 10000 of the characters [ ] a-z 0-9, space and '.'", name, val);
            return VF_EXIT_USAGE;
        }
    *(const char **)ctx = val;
    return 0;
}

/* The options of view into v (and the scene's --set into sc); 0, or the
 * option parser's code (VF_OPT_LISTED included). */
static int parse_view_args(viewer *v, vf_cmd_scene *sc, int argc, char **argv, bool *help)
{
    const vf_opt opts[] = {
        {.name = "--size", .type = VF_OPT_CALL, .out = v, .parse = opt_size},
        {.name = "--vsync", .type = VF_OPT_CALL, .out = &v->vsync, .parse = opt_vsync},
        {.name = "--record", .type = VF_OPT_TEXT, .out = &v->record_path},
        {.name = "--serve", .type = VF_OPT_TEXT, .out = &v->serve},
        {.name = "--join", .type = VF_OPT_TEXT, .out = &v->join},
        {.name = "--token", .type = VF_OPT_TEXT, .out = &v->token},
        {.name = "--frames", .type = VF_OPT_INT, .out = &v->frame_limit, .min = 1, .max = 1000000000},
        {.name = "--test-resize", .type = VF_OPT_INT, .out = &v->test_resize, .min = 1, .max = 1000000000},
        {.name = "--test-script", .type = VF_OPT_INT, .out = &v->test_script, .min = 1, .max = 1000000000},
        {.name = "--test-keys", .type = VF_OPT_CALL, .out = &v->test_keys, .parse = opt_test_keys},
        {.name = "--render", .type = VF_OPT_TEXT, .out = &v->mode},
        {.name = "--render-path", .type = VF_OPT_CALL, .out = &v->render_path, .parse = vf_cmd_parse_render_path},
        {.name = "--screenshot", .type = VF_OPT_TEXT, .out = &v->shot_path},
        {.name = "--screenshot-overlay", .type = VF_OPT_FLAG, .out = &v->shot_overlay},
        {.name = "--screenshot-dir", .type = VF_OPT_TEXT, .out = &v->shot_dir},
        {.name = "--device", .type = VF_OPT_TEXT, .out = &v->device},
    };
    return vf_opt_parse("view", argc, argv, VF_OPT_TABLE(opts), help, sc);
}

/* The options checked among themselves, before any wait; 0 or 2 after
 * printing. */
static int check_view_options(viewer *v, const vf_cmd_scene *sc)
{
    if (v->shot_path && !v->frame_limit && !v->join) {
        vf_app_error("--screenshot needs --frames N (the screenshot is the last frame)");
        return VF_EXIT_USAGE;
    }
    if (v->test_resize && !v->frame_limit)
        v->frame_limit = 2 * v->test_resize + 2;
    if (v->serve && v->join) {
        vf_app_error("--serve and --join: a viewer either serves or joins");
        return VF_EXIT_USAGE;
    }
    if (v->join && sc->info) {
        vf_app_error("--join %s: the serving viewer chooses the scene: drop %s", v->join, sc->info->name);
        return VF_EXIT_USAGE;
    }
    if (v->token && !v->serve && !v->join) {
        vf_app_error("--token: only a lockstep session (--serve or --join) has a session token");
        return VF_EXIT_USAGE;
    }
    char err[600];
    const char *where = v->serve ? v->serve : v->join;
    if (where && vf_net_check_address(where, err, sizeof err) != VF_OK) {
        vf_app_error("%s %s", v->serve ? "--serve" : "--join", err);
        return VF_EXIT_USAGE;
    }
    return 0;
}

/* --join: the server's scene, --set and frame count replace the viewer's
 * (the arguments are parsed); 0, or an exit code after printing. */
static int join_server(viewer *v, vf_cmd_scene *sc, vf_session_header *hdr)
{
    int rc;
    vf_cmd_scene_end(sc);
    if ((rc = vf_lockstep_open(&v->ls, NULL, v->join, v->token, "view", hdr)) != 0 ||
        (rc = vf_session_header_scene(hdr, v->ls.peer_label, sc)) != 0) {
        if (rc == VF_EXIT_INTERRUPTED)
            vf_app_note("interrupted (%s) while joining %s", vf_app_signal_name(vf_app_interrupted()), v->join);
        return rc;
    }
    if (!v->frame_limit)
        v->frame_limit = hdr->frames;
    if (v->shot_path && !v->frame_limit) {
        vf_app_error("--screenshot needs --frames N (the serving viewer gave no frame count)");
        return VF_EXIT_USAGE;
    }
    return 0;
}

/* The scene to show: the one given, else smoke (else the first built in),
 * validated, and --render one of its views; 0, or an exit code after
 * printing. */
static int view_scene(const viewer *v, vf_cmd_scene *sc)
{
    int rc;
    if (!sc->info) {
        const vf_scene_info *def = vf_scene_find("smoke");
        if (!def)
            def = vf_scenes[0];
        if (!def) {
            vf_app_error("no scenes are built in");
            return VF_EXIT_USAGE;
        }
        sc->info = def;
        sc->desc = calloc(1, def->desc_size);
        if (!sc->desc)
            return VF_EXIT_USAGE;
        vf_scene_defaults(def, sc->desc);
    }
    if ((rc = vf_cmd_scene_validate(sc)) != 0)
        return rc;
    if (v->mode && !vf_cmd_view_valid(sc->info->family, v->mode)) {
        vf_app_error("--render %s: not a view of the %s solver: give exactly one of %s", v->mode, sc->info->family,
                     vf_render_modes(sc->info->family) ? vf_render_modes(sc->info->family) : "(none)");
        return VF_EXIT_USAGE;
    }
    return 0;
}

/* --serve and --record: the session's header from the arguments, the wait
 * for the joining viewer, the record file; 0, or an exit code after
 * printing. */
static int open_session(viewer *v, vf_cmd_scene *sc, vf_session_header *hdr, int argc, char **argv)
{
    int rc;
    if (!v->join && (v->serve || v->record_path) &&
        (rc = vf_session_header_from_args(sc, argc, argv, v->serve ? "--serve" : "--record", (uint32_t)v->frame_limit,
                                          hdr)) != 0)
        return rc;
    if (v->serve && (rc = vf_lockstep_open(&v->ls, v->serve, NULL, v->token, "view", hdr)) != 0) {
        if (rc == VF_EXIT_INTERRUPTED)
            vf_app_note("interrupted (%s) while waiting for a viewer to join", vf_app_signal_name(vf_app_interrupted()));
        return rc;
    }
    if (v->record_path && (rc = vf_session_record_begin(&v->rec, v->record_path, hdr)) != 0)
        return rc;
    return 0;
}

/* glfw with a display and a vulkan loader; 0, or 2 after printing (glfw
 * terminated). */
static int open_glfw(void)
{
    if (!glfwInit()) {
        vf_app_error("no display found (glfw could not connect): use vkfluid capture SCENE --frames N to render "
                     "frames headless");
        return VF_EXIT_USAGE;
    }
    if (!glfwVulkanSupported()) {
        vf_app_error("glfw finds no vulkan loader: install libvulkan1 and mesa-vulkan-drivers");
        glfwTerminate();
        return VF_EXIT_USAGE;
    }
    return 0;
}

/* The end of a session that ran (rc: run_viewer's): the record closed (an
 * interrupted session is recorded up to its last frame, the file stays
 * whole), the peer told, everything destroyed; the exit code. */
static int end_viewer(viewer *v, vf_cmd_scene *sc, int rc)
{
    int sig = vf_app_interrupted();
    if (sig && rc == VF_EXIT_INTERRUPTED)
        rc = 0; /* a wait for the peer ended by the signal: the session ends as below */
    if (rc == 0 && v->rec.open)
        rc = vf_session_record_end(&v->rec);
    vf_session_record_abort(&v->rec);
    if (rc == 0 && v->ls.peer && !sig)
        rc = vf_lockstep_close(&v->ls);
    vf_lockstep_abort(&v->ls);
    cleanup(v, &rc);
    glfwTerminate();
    vf_cmd_scene_end(sc);
    if (sig && rc == 0) {
        vf_app_note("interrupted (%s) after %llu frames%s%s", vf_app_signal_name(sig), (unsigned long long)v->session_frame,
                    v->record_path ? ": the session so far recorded to " : "", v->record_path ? v->record_path : "");
        rc = VF_EXIT_INTERRUPTED;
    }
    return rc;
}

int main(int argc, char **argv)
{
    viewer v = {.width = 1280, .height = 720, .vsync = true, .shot_dir = "screenshots",
                .dist = 2.5f, .pitch = 0.45f, .yaw = 0.6f};
    v.cam = (vf_camera){.target = {0.6f, 0.25f, 0.25f}, .up = {0, 1, 0}, .fov_y = 0.9f, .znear = 0.01f, .zfar = 100.0f};
    vf_app_install_interrupts(); /* before anything that can block */
    /* argv[1] may be "view" when started through `vkfluid view` */
    if (argc > 1 && !strcmp(argv[1], "view")) {
        argv++;
        argc--;
    }
    vf_cmd_check_env();
    vf_cmd_scene sc = {0};
    int rc = vf_cmd_scene_begin(&sc, argc, argv, "view");
    if (rc >= 0)
        return rc;
    bool help = false;
    if ((rc = parse_view_args(&v, &sc, argc, argv, &help)) != 0 || help) {
        if (!rc)
            usage(stdout);
        vf_cmd_scene_end(&sc);
        return rc == VF_OPT_LISTED ? VF_EXIT_OK : rc;
    }
    if ((rc = check_view_options(&v, &sc)) != 0)
        goto fail;
    vf_session_header hdr = {0};
    vf_app_catch_interrupts(); /* from here a signal ends any wait and the session */
    if ((v.join && (rc = join_server(&v, &sc, &hdr)) != 0) || (rc = view_scene(&v, &sc)) != 0 ||
        (rc = open_session(&v, &sc, &hdr, argc, argv)) != 0 || (rc = open_glfw()) != 0)
        goto fail;
    return end_viewer(&v, &sc, run_viewer(&v, &sc));
fail: /* before the window: nothing else to undo */
    vf_session_record_abort(&v.rec);
    vf_lockstep_abort(&v.ls);
    vf_cmd_scene_end(&sc);
    return rc;
}
