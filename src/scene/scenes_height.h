/* scenes_height: the built-in height-field scenes (registered in scenes.c)
 * and what every height scene shares: a scene file's shapes, checked and
 * rasterised into the solver's solid and level cells. */
#ifndef VF_SCENES_HEIGHT_H
#define VF_SCENES_HEIGHT_H

#include "scene_shapes.h"
#include "scene_info.h"
#include "solver.h"
#include "solver_height.h"

/** The desc of a height scene. The solver desc comes first, so the key table
 * (vf_height_params, offsets into vf_height_desc) addresses this struct too;
 * solver.solid and solver.level are not used (the shapes give them). */
typedef struct vf_height_scene_desc {
    vf_height_desc solver;
    vf_scene_shapes shapes; /* scene file: obstacles (solid cells: box, cylinder, sphere, png mask) and fluid
                             * regions (the surface starts at their level) */
} vf_height_scene_desc;

extern const vf_scene_info vf_height_scene_pool;  /* the default height scene */
extern const vf_scene_info vf_height_scene_boat;
extern const vf_scene_info vf_height_scene_river; /* scenes_river.c: needs the grid solver */

/* A height scene: the height family's key table over vf_height_scene_desc
 * (the solver's desc first), with its own preset, validate and create. */
#define VF_HEIGHT_SCENE(var, name_, preset_, validate_, create_, text)                                                  \
    const vf_scene_info var = {                                                                                        \
        .name = name_,                                                                                                 \
        .family = "height",                                                                                            \
        .description = text,                                                                                           \
        .params = vf_height_params,                                                                                    \
        .param_count = VF_HEIGHT_PARAM_COUNT,                                                                          \
        .desc_size = sizeof(vf_height_scene_desc),                                                                     \
        .shapes_offset = offsetof(vf_height_scene_desc, shapes),                                                       \
        .preset = preset_,                                                                                             \
        .validate = validate_,                                                                                         \
        .create = create_,                                                                                             \
    };

/** Checks a height scene, the one check of its values: the shapes against
 * the domain (what the height solver takes), obstacles that leave no water,
 * then vf_height_validate with the shapes' cells. One-line reason in err
 * (cap bytes). */
vf_result vf_height_scene_validate(const vf_height_scene_desc *desc, const char **key, char *err, size_t cap);

/** Rasterises the shapes of desc, which must have passed
 * vf_height_scene_validate (create checks nothing of it again), and creates
 * the height solver with them (the cells are freed before it returns). err
 * as for vf_height_create. */
vf_result vf_height_scene_create(vf_gpu *gpu, const vf_height_scene_desc *desc, vf_solver **out,
                                 const char **key, char *err,
                                 size_t cap);

#endif
