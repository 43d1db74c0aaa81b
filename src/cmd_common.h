/* cmd_common: what the scene-driven commands (run, capture, bench, view)
 * share: the scene argument and --set KEY=VALUE handling. App layer. */
#ifndef VF_CMD_COMMON_H
#define VF_CMD_COMMON_H

#include <stdbool.h>

#include "solver.h"

typedef struct vf_cmd_scene {
    const vf_scene_info *info; /* NULL when no scene was given */
    void *desc;                /* the scene's desc, defaults then --set applied (owned) */
    bool *consumed;            /* argv indices taken by the scene and --set */
    int argc;
} vf_cmd_scene;

/** Takes argv[1] as the scene name when it does not start with '-', and every
 * "--set KEY=VALUE" pair. Returns -1 to go on, or an exit code after printing
 * a one-line error (unknown scene, bad --set). */
int vf_cmd_scene_begin(vf_cmd_scene *sc, int argc, char **argv, const char *cmd);

/** True when argv[i] was taken by vf_cmd_scene_begin. */
bool vf_cmd_scene_consumed(const vf_cmd_scene *sc, int i);

/** Runs the scene's cross-key validation; returns 0, or 2 after a one-line error. */
int vf_cmd_scene_validate(vf_cmd_scene *sc);

/** Frees what vf_cmd_scene_begin allocated; safe on a zeroed struct. */
void vf_cmd_scene_end(vf_cmd_scene *sc);

#endif
