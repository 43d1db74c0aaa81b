/* scene_info: a scene's defaults (scene_info.h). */
#include "scene_info.h"

#include <string.h>

void vf_scene_defaults(const vf_scene_info *scene, void *desc)
{
    memset(desc, 0, scene->desc_size);
    vf_params_defaults(scene->params, scene->param_count, desc);
    if (scene->preset)
        scene->preset(scene, desc);
}
