/* scenes: the registry of built-in scenes (each family's rows, listed once). */
#ifndef VF_SCENES_H
#define VF_SCENES_H

#include "scene_info.h"

/** All built-in scenes (NULL-terminated by a row with name == NULL). */
extern const vf_scene_info *const vf_scenes[];

/** Finds a built-in scene by name; NULL when there is none. */
const vf_scene_info *vf_scene_find(const char *name);

#endif
