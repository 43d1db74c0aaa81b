/* scenes_terrain: the terrain scene (water over a changing terrain) and what
 * a terrain scene file may add: a heightmap (a 16-bit PNG or raw floats with
 * its size in metres) instead of the generated ground. */
#ifndef VF_SCENES_TERRAIN_H
#define VF_SCENES_TERRAIN_H

#include "scene_shapes.h"
#include "scene_info.h"
#include "solver.h"
#include "solver_terrain.h"

/** The desc of a terrain scene. The solver desc comes first, so the key
 * table (vf_terrain_params, offsets into vf_terrain_desc) addresses this
 * struct too; solver.heightmap is not used (the shapes' heightmap gives it). */
typedef struct vf_terrain_scene_desc {
    vf_terrain_desc solver;
    vf_scene_shapes shapes; /* scene file: heightmap, camera and render settings */
} vf_terrain_scene_desc;

extern const vf_scene_info vf_terrain_scene_terrain;

/** Checks a terrain scene, the one check of its values: the shapes it
 * takes, its heightmap (readable, of a size that fits), then
 * vf_terrain_validate. One-line reason in err. */
vf_result vf_terrain_scene_validate(const vf_terrain_scene_desc *desc, const char **key, char *err, size_t cap);

/** Loads the heightmap of desc, which must have passed
 * vf_terrain_scene_validate (create checks nothing of it again), resampled
 * onto the grid, and creates the terrain solver. err as for
 * vf_terrain_create, or the heightmap's line when it no longer loads. */
vf_result vf_terrain_scene_create(vf_gpu *gpu, const vf_terrain_scene_desc *desc, vf_solver **out,
                                  const char **key, char *err, size_t cap);

#endif
