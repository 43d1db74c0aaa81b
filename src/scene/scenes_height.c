/* scenes_height: the pool and boat scenes, and the shapes of every height
 * scene (see scenes_height.h). */
#include "scenes_height.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

_Static_assert(offsetof(vf_height_scene_desc, solver) == 0, "vf_height_params address the scene desc");

static void pool_preset(const vf_scene_info *scene, void *p)
{
    (void)scene;
    vf_height_desc *d = &((vf_height_scene_desc *)p)->solver;
    d->rain = 6;
    d->leaves = 6;
    d->ducks = 2;
}

static void boat_preset(const vf_scene_info *scene, void *p)
{
    (void)scene;
    vf_height_desc *d = &((vf_height_scene_desc *)p)->solver;
    d->nx = 384;
    d->ny = 128;
    d->dx = 0.05;
    d->surface = 0.6;
    d->bed_shape = VF_HEIGHT_BED_CHANNEL;
    d->edges = VF_HEIGHT_EDGES_OPEN_ENDS;
    d->boat = true;
    d->boat_length = 2.0; /* a hull a tenth of the channel: it and its wake read at a glance */
    d->boat_width = 0.7;
    /* shallow-water waves do not disperse: a boat slower than sqrt(g d)
     * (2.4 m/s here) leaves only a smooth dip that travels with it; faster,
     * its wake is a wedge of half-angle asin(sqrt(g d) / U). At three times
     * sqrt(g d) that is Kelvin's 19.47 degrees, the wedge of a boat in deep water */
    d->wake_speed = 7.3;
    d->leaves = 12;
}

/* ------------------------------------------------------------------ shapes */

/* The shapes against what the height solver takes: 2D, obstacles (masks and
 * cylinders too) and fluid regions with a level, inside the domain. */
static vf_result check_shapes(const vf_height_scene_desc *sd, char *err, size_t cap)
{
    const vf_height_desc *d = &sd->solver;
    vf_shapes_caps caps = {.family = "height",
                           .dims = 2,
                           .hi = {d->nx * d->dx, d->ny * d->dx, 0},
                           .max_obstacles = VF_SHAPES_MAX_OBSTACLES,
                           .obstacle_mask = true,
                           .obstacle_cylinder = true,
                           .max_fluid = VF_SHAPES_MAX_FLUID,
                           .fluid_level = true};
    return vf_shapes_check(&sd->shapes, &caps, err, cap);
}

/* The shapes rasterised at the cell centres: solid where any obstacle holds
 * the centre, the level of the first fluid region holding it (NAN outside
 * all). Each array only when its list is not empty. */
typedef struct height_cells {
    uint8_t *solid;
    double *level;
} height_cells;

static void cells_free(height_cells *c)
{
    free(c->solid);
    free(c->level);
    c->solid = NULL;
    c->level = NULL;
}

/* Fills *c from checked shapes (check_shapes first: masks are readable) and
 * *out with the solver desc that uses them. */
static vf_result cells_build(const vf_height_scene_desc *sd, height_cells *c, vf_height_desc *out,
                             const char **key, char *err,
                             size_t cap)
{
    const vf_height_desc *d = &sd->solver;
    const vf_scene_shapes *sh = &sd->shapes;
    const size_t n = (size_t)d->nx * (size_t)d->ny;
    memset(c, 0, sizeof *c);
    if ((sh->obstacle_count && !(c->solid = malloc(n))) || (sh->fluid_count && !(c->level = malloc(n * sizeof(double))))) {
        cells_free(c);
        vf_set_key_err(key, err, cap, "nx", "=%d: no memory for the shapes' %d x %d cells: use fewer cells", d->nx, d->nx, d->ny);
        return VF_ERR_NO_MEMORY;
    }
    vf_shape_mask masks[VF_SHAPES_MAX_OBSTACLES];
    memset(masks, 0, sizeof masks);
    char why[8];
    for (uint32_t k = 0; k < sh->obstacle_count; k++)
        if (sh->obstacles[k].kind == VF_SHAPE_MASK)
            (void)vf_shape_mask_load(&sh->obstacles[k], &masks[k], why, sizeof why); /* checked by check_shapes */
    const double lo[3] = {0, 0, 0}, hi[3] = {d->nx * d->dx, d->ny * d->dx, 0};
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++) {
            const double p[3] = {(i + 0.5) * d->dx, (j + 0.5) * d->dx, 0};
            const size_t idx = (size_t)j * d->nx + i;
            if (c->solid) {
                bool solid = false;
                for (uint32_t k = 0; k < sh->obstacle_count && !solid; k++)
                    solid = vf_shape_contains(&sh->obstacles[k], 2, p, &masks[k], lo, hi);
                c->solid[idx] = solid;
            }
            if (c->level) {
                double level = NAN;
                for (uint32_t k = 0; k < sh->fluid_count && isnan(level); k++)
                    if (vf_shape_contains(&sh->fluid[k], 2, p, NULL, NULL, NULL))
                        level = sh->fluid[k].level;
                c->level[idx] = level;
            }
        }
    for (uint32_t k = 0; k < VF_SHAPES_MAX_OBSTACLES; k++)
        vf_shape_mask_free(&masks[k]);
    *out = *d;
    out->solid = c->solid;
    out->level = c->level;
    return VF_OK;
}

/* Water without the obstacles but none with them: they are what covers it,
 * so they are named (a mask first: an all-black image is the likely cause). */
static vf_result check_cover(const vf_height_scene_desc *sd, const vf_height_desc *d, char *err, size_t cap)
{
    const vf_scene_shapes *sh = &sd->shapes;
    if (!sh->obstacle_count || vf_height_max_depth(d) > 0)
        return VF_OK;
    vf_height_desc open = *d;
    open.solid = NULL;
    if (vf_height_max_depth(&open) <= 0)
        return VF_OK; /* no water either way: vf_height_validate names the levels */
    uint32_t k = 0;
    while (k + 1 < sh->obstacle_count && sh->obstacles[k].kind != VF_SHAPE_MASK)
        k++;
    const vf_shape *o = &sh->obstacles[k];
    char file[48];
    const char *base = strrchr(o->file, '/');
    vf_text_safe(base ? base + 1 : o->file, file, sizeof file, 40);
    snprintf(err, cap, "obstacles[%u]%s%s%s: the obstacles cover every wet cell, so no water is left: %s", k,
             o->kind == VF_SHAPE_MASK ? " (mask " : "", o->kind == VF_SHAPE_MASK ? file : "",
             o->kind == VF_SHAPE_MASK ? ")" : "",
             o->kind == VF_SHAPE_MASK ? "check that the mask is not solid everywhere (an all-black image)"
                                       : "make them smaller or fewer");
    return VF_ERR_INVALID_ARG;
}

vf_result vf_height_scene_validate(const vf_height_scene_desc *desc, const char **key, char *err, size_t cap)
{
    vf_result res = check_shapes(desc, err, cap);
    if (res != VF_OK)
        return res;
    height_cells c;
    vf_height_desc d;
    if ((res = cells_build(desc, &c, &d, key, err, cap)) != VF_OK)
        return res;
    res = check_cover(desc, &d, err, cap);
    if (res == VF_OK)
        res = vf_height_validate(&d, key, err, cap);
    cells_free(&c);
    return res;
}

vf_result vf_height_scene_create(vf_gpu *gpu, const vf_height_scene_desc *desc, vf_solver **out,
                                 const char **key, char *err,
                                 size_t cap)
{
    char dummy_err[8];
    err = vf_err_buffer(err, &cap, dummy_err, sizeof dummy_err);
    *out = NULL;
    /* validated by vf_height_scene_validate: the shapes are rasterised and
     * the solver's create checks only the device */
    height_cells c;
    vf_height_desc d;
    vf_result res = cells_build(desc, &c, &d, key, err, cap);
    if (res != VF_OK)
        return res;
    res = vf_solver_create(gpu, &vf_height_family, &d, out, key, err, cap);
    cells_free(&c);
    return res;
}

/* ------------------------------------------------------------------ scenes */

static vf_result scene_validate(const vf_scene_info *scene, const void *desc, const char **key, char *err, size_t cap)
{
    (void)scene;
    return vf_height_scene_validate(desc, key, err, cap);
}

static vf_result scene_create(const vf_scene_info *scene, vf_gpu *gpu, const void *desc, vf_solver **out,
                              const char **key, char *err,
                              size_t cap)
{
    (void)scene;
    return vf_height_scene_create(gpu, desc, out, key, err, cap);
}

VF_HEIGHT_SCENE(vf_height_scene_pool, "pool", pool_preset, scene_validate, scene_create,
                "height-field water in a square pool: random drops, floating leaves and ducks")
VF_HEIGHT_SCENE(vf_height_scene_boat, "boat", boat_preset, scene_validate, scene_create,
                "a boat crossing a channel at wake_speed, leaving a wake (waves leave at the open ends)")
