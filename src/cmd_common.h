/* cmd_common: what the scene-driven commands (run, capture, bench, view)
 * share: the scene argument and --set KEY=VALUE handling. App layer. */
#ifndef VF_CMD_COMMON_H
#define VF_CMD_COMMON_H

#include <stdbool.h>

#include "render.h"
#include "solver.h"

typedef struct vf_cmd_scene {
    const vf_scene_info *info; /* NULL when no scene was given; for a file, the preset it starts from */
    void *desc;                /* the scene's desc, preset, file, then --set applied (owned) */
    const char *file;          /* the scene file's path (argv), NULL for a built-in scene */
    char description[256];     /* the file's description, or the preset's */
    bool *consumed;            /* argv indices taken by the scene and --set */
    int argc;
} vf_cmd_scene;

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

/** Creates the scene's solver on gpu (after vf_cmd_scene_validate). Sizes
 * that do not fit the device are checked by the solvers before they
 * allocate or record anything; their error, like any other, is printed as
 * one line naming the scene file (or "scene NAME") and the key path.
 * Returns 0 with *out set, or an exit code (2 for bad sizes or arguments,
 * 3 otherwise) after printing. */
int vf_cmd_scene_create(const vf_cmd_scene *sc, vf_gpu *gpu, vf_solver **out);

/** The view a scene file asks for ("render": {"mode": ...}); NULL when it
 * names none (the solver's default view). */
const char *vf_cmd_scene_render_mode(const vf_scene_info *info, void *desc);

/** Points r's camera where the scene file's "camera" says (eye, target,
 * fov; y up; the renderer's own near and far planes); no-op when the file
 * gives no camera or r has no 3D camera. */
void vf_cmd_scene_apply_camera(const vf_scene_info *info, void *desc, vf_renderer *r);

/** Frees what vf_cmd_scene_begin allocated; safe on a zeroed struct. */
void vf_cmd_scene_end(vf_cmd_scene *sc);

/** Frames slower than this (s) get vf_cmd_slow_frame_hint's warning. */
#define VF_SLOW_FRAME_S 2.0

/** When frame_s (measured wall seconds per frame) exceeds VF_SLOW_FRAME_S,
 * warns once on stderr: the time per frame, the estimated time for the
 * frames_left, and which key (spacing, n, nx/ny) to lower for faster frames.
 * Prints nothing otherwise. */
void vf_cmd_slow_frame_hint(const vf_scene_info *info, double frame_s, uint64_t frames_left);

#endif
