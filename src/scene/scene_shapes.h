/* scene_shapes: the shape lists of a scene file (obstacles, initial fluid
 * regions, emitters, sinks, inflow and outflow sides: keys obstacles, fluid,
 * emitters, sinks, inflows, outflows), a terrain's heightmap and its camera
 * and render settings; parsing from cJSON, the checks every solver shares
 * (inside the domain, no overlaps that make no sense, what a solver
 * supports), point-in-shape tests and PNG masks. No GPU.
 *
 * Coordinates are the solver's domain units: metres for height and sph,
 * the grid's domain (unit height) for grid. 2D solvers read x and y; a
 * cylinder there is a disc, a sphere too. In 3D a cylinder stands along y. */
#ifndef VF_SCENE_SHAPES_H
#define VF_SCENE_SHAPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "params.h"
#include "vf_error.h"

#define VF_SHAPES_MAX_OBSTACLES 8
#define VF_SHAPES_MAX_FLUID 8
#define VF_SHAPES_MAX_EMITTERS 1
#define VF_SHAPES_MAX_SINKS 1
#define VF_SHAPES_PATH_MAX 512

/** A shape's "shape" (a mask is a PNG stretched over the whole domain: dark
 * pixels are inside). */
#define VF_SHAPE_KIND_LIST(X)                                                                                          \
    X(VF_SHAPE_BOX, "box") X(VF_SHAPE_SPHERE, "sphere") X(VF_SHAPE_CYLINDER, "cylinder") X(VF_SHAPE_MASK, "mask")
typedef enum vf_shape_kind { VF_SHAPE_KIND_LIST(VF_CHOICE_ENUM) } vf_shape_kind;

/** One shape of a list. */
typedef struct vf_shape {
    vf_shape_kind kind;
    double center[3];
    double size[3];      /* box: full extents */
    double radius;       /* sphere, cylinder */
    double height;       /* cylinder (3D): extent along y; 0: the whole domain */
    double velocity[3];  /* emitters: the jet's velocity */
    double level;        /* height fluid regions: the surface there (m); NAN: not given */
    char file[VF_SHAPES_PATH_MAX]; /* mask: the PNG, resolved against the scene file's folder */
} vf_shape;

/** The sides of a 2D domain (grid inflow/outflow). */
enum { VF_SHAPES_SIDE_LEFT = 0, VF_SHAPES_SIDE_RIGHT, VF_SHAPES_SIDE_BOTTOM, VF_SHAPES_SIDE_TOP };

/** A terrain's heightmap (key heightmap): a 16-bit PNG (grey 0 at `low`,
 * 65535 at `high`) or raw little-endian float32 elevations in metres
 * (width x height samples), row 0 at the domain's far side (y = size[1]),
 * stretched over size[0] x size[1] metres. */
typedef struct vf_scene_heightmap {
    bool given;
    char file[VF_SHAPES_PATH_MAX]; /* resolved against the scene file's folder */
    double size[2];                /* m */
    double low, high;              /* PNG: the elevations of grey 0 and 65535 (m) */
    uint32_t width, height;        /* raw files: samples per row, rows */
} vf_scene_heightmap;

/** Everything a scene file may add to a preset besides its keys. A zeroed
 * struct means: nothing added (the preset's own geometry). */
typedef struct vf_scene_shapes {
    uint32_t obstacle_count, fluid_count, emitter_count, sink_count;
    vf_shape obstacles[VF_SHAPES_MAX_OBSTACLES];
    vf_shape fluid[VF_SHAPES_MAX_FLUID];
    vf_shape emitters[VF_SHAPES_MAX_EMITTERS];
    vf_shape sinks[VF_SHAPES_MAX_SINKS];
    uint32_t inflow_sides, outflow_sides; /* bit masks of VF_SHAPES_SIDE_* */
    double inflow_speed[4];               /* per side, into the domain */
    bool has_camera;
    double eye[3], target[3], fov_deg;
    char render_mode[32]; /* "" = the solver's default view */
    vf_scene_heightmap heightmap; /* terrain: the ground from a file */
} vf_scene_shapes;

/** What a solver accepts; the checks refuse the rest with a one-line reason. */
typedef struct vf_shapes_caps {
    const char *family;
    int dims;                    /* 2 or 3 */
    double lo[3], hi[3];         /* the domain (z unused in 2D) */
    uint32_t max_obstacles;      /* 0: no obstacle list */
    bool obstacle_mask;          /* PNG masks */
    bool obstacle_cylinder;
    uint32_t max_fluid, max_emitters, max_sinks;
    bool sides;                  /* inflow / outflow */
    bool fluid_level;            /* fluid regions take "level" (height) */
    bool heightmap;              /* a heightmap (terrain) */
} vf_shapes_caps;

/** True for the top-level keys this module parses. */
bool vf_shapes_is_key(const char *key);
/** A comma-separated list of those keys, for error messages. */
const char *vf_shapes_key_list(void);

/** Parses top-level key `key` (its cJSON value, passed as const void * so
 * callers need not include cJSON) into sh. base_dir (may be NULL) resolves
 * relative mask paths. On error err gets "key[i].field: reason: fix" (no
 * file label) and VF_ERR_INVALID_ARG is returned. */
vf_result vf_shapes_parse(vf_scene_shapes *sh, const char *key, const void *json, const char *base_dir, char *err,
                          size_t cap);

/** Applies a --set assignment to a shape field: LIST[i].FIELD=NUMBER or
 * LIST[i].FIELD[k]=NUMBER (obstacles, fluid, emitters, sinks: center[k],
 * size[k], radius, height, velocity[k], level; inflows[i].speed),
 * camera.eye[k], camera.target[k], camera.fov, render.mode=NAME. The shape
 * must exist (lists are given in the scene file); vf_shapes_check runs
 * afterwards with the scene's validation. err gets a one-line reason. */
vf_result vf_shapes_set(vf_scene_shapes *sh, const char *assignment, char *err, size_t cap);

/** Checks sh against what a solver supports and its domain: counts and
 * kinds, shapes inside the domain, fluid regions clear of obstacles and of
 * each other, emitters and sinks clear of obstacles, masks readable. err
 * gets "key[i]...: reason: fix". */
vf_result vf_shapes_check(const vf_scene_shapes *sh, const vf_shapes_caps *caps, char *err, size_t cap);

/** A PNG mask in memory: w x h luminance, row 0 at the domain's top. */
typedef struct vf_shape_mask {
    uint8_t *lum;
    uint32_t w, h;
} vf_shape_mask;

/** Loads shape's PNG (kind VF_SHAPE_MASK). err gets a one-line reason. */
vf_result vf_shape_mask_load(const vf_shape *shape, vf_shape_mask *out, char *err, size_t cap);
/** Frees the pixels; accepts a zeroed struct. */
void vf_shape_mask_free(vf_shape_mask *m);

/** True when point p (dims 2: x, y; 3: x, y, z) lies inside shape. Masks
 * need `mask` (loaded) and the domain lo/hi; other kinds ignore them. */
bool vf_shape_contains(const vf_shape *shape, int dims, const double p[3], const vf_shape_mask *mask,
                       const double lo[3], const double hi[3]);

/** The shapes a family desc carries (NULL when its scenes take none). */
struct vf_scene_info;
vf_scene_shapes *vf_scene_shapes_of(const struct vf_scene_info *info, void *desc);

#endif
