/* scene_sph: the built-in SPH scenes (registered in scenes.c). */
#ifndef VF_SCENE_SPH_H
#define VF_SCENE_SPH_H

#include "scene_info.h"
#include "solver.h"

extern const vf_scene_info vf_scene_dam_break;  /* the default particle scene */
extern const vf_scene_info vf_scene_double_dam;
extern const vf_scene_info vf_scene_drop;
extern const vf_scene_info vf_scene_fountain;

/** The particle spacing (m) a built-in SPH scene's desc gives: the key
 * spacing, or the spacing of `particles` particles in its fluid when that key
 * is above 0. desc: a desc of one of the scenes above. */
double vf_scene_sph_spacing(const void *desc);

#endif
