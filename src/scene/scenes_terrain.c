/* scenes_terrain: the terrain scene (see scenes_terrain.h). */
#include "scenes_terrain.h"

#include <stddef.h>

_Static_assert(offsetof(vf_terrain_scene_desc, solver) == 0, "vf_terrain_params address the scene desc");

/* The shapes a terrain scene takes: none of the lists (its sources and
 * drains are keys); camera and render settings. */
static vf_result check_shapes(const vf_terrain_scene_desc *sd, char *err, size_t cap)
{
    const vf_terrain_desc *d = &sd->solver;
    vf_shapes_caps caps = {.family = "terrain", .dims = 2, .hi = {d->nx * d->dx, d->ny * d->dx, 0}};
    return vf_shapes_check(&sd->shapes, &caps, err, cap);
}

vf_result vf_terrain_scene_validate(const vf_terrain_scene_desc *desc, char *err, size_t cap)
{
    vf_result res = check_shapes(desc, err, cap);
    if (res != VF_OK)
        return res;
    vf_terrain_desc d = desc->solver;
    d.heightmap = NULL;
    return vf_terrain_validate(&d, err, cap);
}

vf_result vf_terrain_scene_create(vf_gpu *gpu, const vf_terrain_scene_desc *desc, vf_solver **out, char *err, size_t cap)
{
    *out = NULL;
    vf_result res = vf_terrain_scene_validate(desc, err, cap);
    if (res != VF_OK)
        return res;
    vf_terrain_desc d = desc->solver;
    d.heightmap = NULL;
    return vf_solver_create(gpu, &vf_terrain_family, &d, out, err, cap);
}

static vf_result scene_validate(const vf_scene_info *scene, const void *desc, char *err, size_t cap)
{
    (void)scene;
    return vf_terrain_scene_validate(desc, err, cap);
}

static vf_result scene_create(const vf_scene_info *scene, vf_gpu *gpu, const void *desc, vf_solver **out, char *err,
                              size_t cap)
{
    (void)scene;
    return vf_terrain_scene_create(gpu, desc, out, err, cap);
}

const vf_scene_info vf_terrain_scene_terrain = {
    .name = "terrain",
    .family = "terrain",
    .description = "water over a changing terrain: a bulldozer breaches a dam and the lake runs down the valley",
    .params = vf_terrain_params,
    .param_count = VF_TERRAIN_PARAM_COUNT,
    .desc_size = sizeof(vf_terrain_scene_desc),
    .shapes_offset = offsetof(vf_terrain_scene_desc, shapes),
    .validate = scene_validate,
    .create = scene_create,
};
