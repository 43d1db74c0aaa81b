/* scene_sph: the built-in SPH scenes (registered in scenes.c). */
#ifndef VF_SCENE_SPH_H
#define VF_SCENE_SPH_H

#include "solver.h"

extern const vf_scene_info vf_scene_dam_break;  /* the default particle scene */
extern const vf_scene_info vf_scene_double_dam;
extern const vf_scene_info vf_scene_drop;
extern const vf_scene_info vf_scene_fountain;

#endif
