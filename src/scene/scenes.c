/* scenes: the registry of built-in scenes. Each solver family defines its
 * vf_scene_info rows in its own file and lists them here. */
#include <string.h>

#include "scene_sph.h"
#include "scenes.h"
#include "scenes_grid.h"
#include "scenes_grid3d.h"
#include "scenes_height.h"
#include "scenes_terrain.h"

const vf_scene_info *const vf_scenes[] = {
    &vf_height_scene_pool,
    &vf_height_scene_boat,
    &vf_height_scene_river,
    &vf_scene_grid_smoke,
    &vf_scene_grid_cavity,
    &vf_scene_grid_channel,
    &vf_scene_grid_shear,
    &vf_scene_grid3d_smoke3d,
    &vf_scene_grid3d_fire3d,
    &vf_scene_grid3d_wind3d,
    &vf_scene_dam_break,
    &vf_scene_double_dam,
    &vf_scene_drop,
    &vf_scene_fountain,
    &vf_terrain_scene_terrain,
    NULL,
};

const vf_scene_info *vf_scene_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; vf_scenes[i]; i++)
        if (!strcmp(vf_scenes[i]->name, name))
            return vf_scenes[i];
    return NULL;
}
