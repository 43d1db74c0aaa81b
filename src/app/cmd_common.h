/* cmd_common: what the scene-driven commands (run, capture, bench, view)
 * share: the scene argument and --set KEY=VALUE handling. App layer. */
#ifndef VF_CMD_COMMON_H
#define VF_CMD_COMMON_H

#include <stdbool.h>

#include "gpu_context.h"
#include "render.h"
#include "render_registry.h"
#include "scene_info.h"
#include "frame_runner.h"
#include "solver.h"

/** The longest renderer key assignment --set takes ("ssf.KEY=VALUE"). */
#define VF_CMD_SETTING_MAX 96

typedef struct vf_cmd_scene {
    const vf_scene_info *info; /* NULL when no scene was given; for a file, the preset it starts from */
    void *desc;                /* the scene's desc, preset, file, then --set applied (owned) */
    const char *file;          /* the scene file's path (argv), NULL for a built-in scene */
    char description[256];     /* the file's description, or the preset's */
    bool *consumed;            /* argv indices taken by the scene and --set */
    int argc;
    /* --set keys of the scene's renderer ("ssf.radius=0.02"), checked */
    char render_settings[VF_RENDER_MAX_SETTINGS][VF_CMD_SETTING_MAX];
    const char *render_setting_ptr[VF_RENDER_MAX_SETTINGS];
    uint32_t render_setting_count;
} vf_cmd_scene;

/** Prints, for help texts, every solver family's views (--render MODE;
 * the first is the default), the built-in scenes whose file chooses another
 * view, and the renderer keys (--set), all from the render registry. */
void vf_cmd_print_views(FILE *f);

/** Prints one family's renderer keys (--set KEY=VALUE) for help texts, a
 * choice key as KEY=a|b, wrapped at 78 columns; nothing when it has none. */
void vf_cmd_print_render_keys(FILE *f, const char *family);

/** Applies one --set assignment to the scene: a renderer key (checked, kept
 * for the renderer; the view key, ssf.view, sets render.mode), a shape,
 * camera or render field, or a solver key. Returns VF_OK or
 * VF_ERR_INVALID_ARG with a one-line reason (no file label) in err. */
vf_result vf_cmd_scene_set(vf_cmd_scene *sc, const char *assignment, char *err, size_t cap);

/** Fills opt->settings with the scene's renderer keys (pointers into sc). */
void vf_cmd_scene_render_settings(vf_cmd_scene *sc, vf_render_options *opt);

/** Takes argv[1] as the scene when it does not start with '-' (a built-in
 * name, or a scene file when it ends in .json or holds a '/'), or
 * "--scene FILE" anywhere, then every "--set KEY=VALUE" pair (KEY may be
 * <solver>.KEY). Built-in scenes load from their embedded scenes/NAME.json.
 * Returns -1 to go on, or an exit code after printing a one-line error
 * (unknown scene, bad file, bad --set); no GPU work. */
int vf_cmd_scene_begin(vf_cmd_scene *sc, int argc, char **argv, const char *cmd);

/** True when argv[i] was taken by vf_cmd_scene_begin. */
bool vf_cmd_scene_consumed(const vf_cmd_scene *sc, int i);

/** Runs the scene's cross-key validation; returns 0, or 2 after a one-line error. */
int vf_cmd_scene_validate(vf_cmd_scene *sc);

/** The checks of vf_cmd_scene_validate on any scene and desc, printing
 * nothing: the view (render.mode) is exactly one of the family's, and the
 * scene's validate() passes. file: the scene file's path for the message,
 * NULL for a built-in scene ("scene NAME"). VF_ERR_INVALID_ARG with one
 * line in err. */
vf_result vf_cmd_scene_check(const vf_scene_info *info, const void *desc, const char *file, char *err, size_t cap);

/** True when mode is exactly one view of the family (no '|' lists). */
bool vf_cmd_view_valid(const char *family, const char *mode);

/** Creates the scene's solver on gpu (after vf_cmd_scene_validate). Sizes
 * that do not fit the device are checked by the solvers before they
 * allocate or record anything; their error, like any other, is printed as
 * one line naming the scene file (or "scene NAME") and the key path.
 * Returns 0 with *out set, or an exit code (2 for bad sizes or arguments,
 * 3 otherwise) after printing. */
int vf_cmd_scene_create(const vf_cmd_scene *sc, vf_gpu *gpu, vf_solver **out);

/** vf_cmd_scene_create with context (may be NULL) put before the error
 * line ("--replay FILE: frame 3, event 2 (RESET)"). */
int vf_cmd_scene_create_in(const vf_cmd_scene *sc, vf_gpu *gpu, const char *context, vf_solver **out);

/** The simulated seconds per frame the scene's solver will take (its
 * frame_dt hook, else the key frame_dt when positive), known without a GPU;
 * 0 when it cannot be known before the solver exists. */
double vf_cmd_scene_frame_dt(const vf_scene_info *info, const void *desc);

/** The view a scene file asks for ("render": {"mode": ...}); NULL when it
 * names none (the solver's default view). */
const char *vf_cmd_scene_render_mode(const vf_scene_info *info, void *desc);

/** Points r's camera where the scene file's "camera" says (eye, target,
 * fov; y up; the renderer's own near and far planes); no-op when the file
 * gives no camera or r has no 3D camera. */
void vf_cmd_scene_apply_camera(const vf_scene_info *info, void *desc, vf_renderer *r);

/** The parser of --render-path auto|compute|raster (an options.h CALL row;
 * ctx: a vf_render_path). Returns 0, or 2 after a one-line error. */
int vf_cmd_parse_render_path(const char *name, const char *value, void *ctx);

/** The help text of --render-path, for the commands that take it. */
#define VF_CMD_RENDER_PATH_HELP                                                                                        \
    "  --render-path P   auto, compute or raster: how the screen-space fluid (the sph\n"                              \
    "                    views ssf) and the height field's 3D view are drawn:\n"                                      \
    "                    compute passes only, or the rasteriser's; auto picks per\n"                                  \
    "                    device (vkfluid devices --json says which and why;\n"                                         \
    "                    default auto)\n"

/** Frees what vf_cmd_scene_begin allocated; safe on a zeroed struct. */
void vf_cmd_scene_end(vf_cmd_scene *sc);

/** Frames estimated slower than this (s) get a warning before they run;
 * VKFLUID_SLOW_FRAME_S (a number of seconds, 0 = always) overrides it. */
#define VF_SLOW_FRAME_S 2.0

/** The threshold above: VF_SLOW_FRAME_S, or VKFLUID_SLOW_FRAME_S when set. */
double vf_cmd_slow_frame_s(void);

/** Checks the environment variables vkfluid reads (VKFLUID_SLOW_FRAME_S,
 * VKFLUID_FAULT, VKFLUID_LIMITS, VKFLUID_DESCRIPTORS): one warning line for
 * each invalid value, naming the variable, what it takes and what is done
 * instead (the value is ignored). */
void vf_cmd_check_env(void);

/** A frame's pace, measured before the frame runs. */
typedef struct vf_frame_estimate {
    bool measured;        /* false: nothing was timed (no substeps) */
    bool frame_complete;  /* the timed parts were the whole frame: frame_done has run */
    double first_s;       /* wall seconds of the first substep (with the frame's own start-up work) */
    double substep_s;     /* mean wall seconds of the substeps after the first (the first when the frame has one) */
    double end_s;         /* the work after the substeps (SPH foam), timed apart; 0 when none or timed within */
    double render_s;      /* one render of the frame; 0 without a renderer */
    double render_share;  /* rendered frames per simulated frame */
    double frame_s;       /* estimate: first_s + (substeps - 1) x substep_s + end_s + render_share x render_s */
    uint32_t substeps;    /* the frame's substeps */
    uint32_t timed;       /* how many of them were timed */
} vf_frame_estimate;

/** Times the first substeps of the solver's next frame on the device (two,
 * or more up to 8 until those after the first add up to 0.5 s), each
 * recorded as its own part (solver.h: a frame in parts records exactly
 * the commands of the one-part frame, so results are unchanged), submitted
 * alone and waited for, and estimates the whole frame from them and the
 * frame's substep count. The work after the substeps (the SPH foam) is in
 * the last part when all were timed, else timed apart through the solver's
 * probe_frame_end (before the first frame). With a renderer (may be NULL),
 * one render of the current state into an image of its own is timed too and
 * counted render_share times a frame (capture --every 4: 0.25). The frame is
 * left in progress (s->part_more) for the caller's next record_frame to
 * finish, unless the timed parts were the whole frame (out->frame_complete:
 * frame_done has been called). No profiler scopes. Each submit is one of
 * run's timed submits (vf_frame_runner_timed), named in a failure line as
 * a part of the next frame. Returns 0, or 3 after the failure line. */
int vf_cmd_estimate_frame(vf_frame_runner *run, vf_solver *s, vf_renderer *renderer, double render_share,
                          vf_frame_estimate *out);

/** When e's frame estimate exceeds vf_cmd_slow_frame_s(), writes one line to
 * buf: the estimate per frame (and for `frames` frames when > 0) on the
 * device, what was measured, and the scene key to change with its suggested
 * value (spacing or particles, n, nx and ny); viewer: the wording for the
 * overlay (the viewer's keys instead of --set). Returns false and writes
 * nothing otherwise. desc: the scene's desc (its current key values).
 * *key (key may be NULL) gets the suggested key's name, or NULL. */
bool vf_cmd_estimate_text(const vf_scene_info *info, const void *desc, vf_solver *s, const vf_gpu *gpu,
                          const vf_frame_estimate *e, uint64_t frames, bool viewer, char *buf, size_t cap,
                          const char **key);

/** Two significant digits of a duration: "12 s", "3.1 min", "5.2 h". */
void vf_cmd_duration_text(double secs, char *buf, size_t cap);

/** vf_cmd_estimate_frame (renderer and render_share as there) then, when
 * slow, the estimate line on stderr as a warning ("warning: estimate: ...");
 * frames: how many frames the command runs. Returns 0, or 3 after printing a GPU failure. */
int vf_cmd_estimate_and_warn(const vf_scene_info *info, const void *desc, vf_frame_runner *run, vf_solver *s,
                             vf_renderer *renderer, double render_share, uint64_t frames, vf_frame_estimate *out);

#endif
