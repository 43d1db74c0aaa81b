/* scenes_grid3d: the built-in 3D grid scenes (smoke3d, fire3d, wind3d), their
 * key tables, and the mapping from keys to the solver's desc. The domain is 1
 * wide (x, z); smoke3d and fire3d are 2 tall (y), wind3d is 2 long (x). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "scenes_grid3d.h"
#include "text.h"

#define MAX_SUBSTEPS 16

/* the scenes' own choice keys (params.h choice lists) */
#define WALLS_LIST(X) VF_WALLS_LIST(X, VF_GRID3D) X(VF_GRID3D_WALLS_PERIODIC, "periodic")
#define OBSTACLE_LIST(X) X(OBSTACLE_NONE, "none") X(OBSTACLE_SPHERE, "sphere") X(OBSTACLE_BOX, "box") X(OBSTACLE_CYLINDER, "cylinder")
enum { WALLS_LIST(VF_CHOICE_ENUM) };
enum { OBSTACLE_LIST(VF_CHOICE_ENUM) };

#define K(field) offsetof(vf_grid3d_scene_desc, field)
#define COMMON_KEYS(def_n, def_adv, def_cfl)                                                                           \
    {"n", VF_PARAM_INT, K(n), def_n, VF_GRID3D_MIN_N, 4096, false, NULL, "cells",                                     \
     "cells across the domain's width (the long axis gets 2 n); multigrid needs n = m 2^k with m <= 4"},             \
    {"pressure", VF_PARAM_ENUM, K(pressure), VF_GRID3D_PRESSURE_MULTIGRID, 0, 0, false,                              \
     VF_CHOICES(VF_GRID3D_PRESSURE_LIST), "",                                                                          \
     "pressure solver (fft: Stam's exact solve, with walls=periodic and obstacle=none)"},                             \
    {"pressure_iters", VF_PARAM_INT, K(pressure_iters), 0, 0, 10000, false, NULL, "",                                  \
     "V-cycles (multigrid) or iterations (jacobi) per step; 0: 2 / 100 (fft: ignored)"},                               \
    {"advect", VF_PARAM_ENUM, K(advect), def_adv, 0, 0, false, VF_CHOICES(VF_GRID3D_ADVECTION_LIST), "",              \
     "advection scheme"},                                                                                              \
    {"cfl", VF_PARAM_DOUBLE, K(cfl), def_cfl, 0, 20, true, NULL, "", "substep = cfl * h / speed"},                    \
    {"frame_dt", VF_PARAM_DOUBLE, K(frame_dt), 0, 0, 10, false, NULL, "s",                                             \
     "simulated time per frame; 0: 1/30 s (at most 16 substeps)"},                                                     \
    {"vorticity", VF_PARAM_DOUBLE, K(vorticity), 0.3, 0, 100, false, NULL, "", "vorticity confinement (0 = off)"},    \
    {"walls", VF_PARAM_ENUM, K(walls), VF_GRID3D_WALLS_FREESLIP, 0, 0, false, VF_CHOICES(WALLS_LIST), "",   \
     "box walls (periodic: all six sides wrap, no outflow; for pressure=fft)"},                                       \
    {"obstacle_z", VF_PARAM_DOUBLE, K(obstacle_z), 0.5, -100, 100, false, NULL, "m", "obstacle centre z"}

#define PLUME_KEYS(def_radius)                                                                                         \
    {"viscosity", VF_PARAM_DOUBLE, K(viscosity), 0, 0, 1e6, false, NULL, "m^2/s", "kinematic viscosity"},             \
    {"buoyancy", VF_PARAM_DOUBLE, K(alpha), 4, -1000, 1000, false, NULL, "m/s^2", "upward acceleration per unit temperature"}, \
    {"weight", VF_PARAM_DOUBLE, K(beta), 0.5, -1000, 1000, false, NULL, "m/s^2", "downward acceleration per unit density"}, \
    {"source_radius", VF_PARAM_DOUBLE, K(source_radius), def_radius, 0, 0.5, true, NULL, "m", "radius of the source sphere at (0.5, 0.15, 0.5)"}, \
    {"source_profile", VF_PARAM_ENUM, K(source_profile), VF_GRID3D_SOURCE_UNIFORM, 0, 0, false,                      \
     VF_CHOICES(VF_GRID3D_SOURCE_PROFILE_LIST), "",                                                                    \
     "how the source injects: uniform in the cells inside the sphere, or smooth, weighted 35/8 (1 - d^2/r^2)^2 "        \
     "(the same amount, no edge: far better conserved, docs/grid3d.md)"},                                               \
    {"obstacle_x", VF_PARAM_DOUBLE, K(obstacle_x), 0.5, -100, 100, false, NULL, "m", "obstacle centre x"},             \
    {"obstacle_y", VF_PARAM_DOUBLE, K(obstacle_y), 0.9, -100, 100, false, NULL, "m", "obstacle centre y (up)"}

static const vf_param_def smoke3d_keys[] = {
    COMMON_KEYS(64, VF_GRID3D_ADVECT_MACCORMACK, 1),
    PLUME_KEYS(0.1),
    {"source_density", VF_PARAM_DOUBLE, K(source_density), 4, 0, 1e6, false, NULL, "1/s", "density injected per second"},
    {"source_temperature", VF_PARAM_DOUBLE, K(source_temperature), 2, -1e6, 1e6, false, NULL, "1/s",
     "temperature injected per second"},
    {"cooling", VF_PARAM_DOUBLE, K(cooling), 0, 0, 1000, false, NULL, "1/s",
     "the temperature above ambient decays as exp(-cooling t) (0 = never)"},
    {"obstacle", VF_PARAM_ENUM, K(obstacle), OBSTACLE_SPHERE, 0, 0, false, VF_CHOICES(OBSTACLE_LIST), "", "obstacle in the plume"},
    {"obstacle_size", VF_PARAM_DOUBLE, K(obstacle_size), 0.15, 0, 10, true, NULL, "m", "obstacle radius or half side"},
};

static const vf_param_def fire3d_keys[] = {
    COMMON_KEYS(64, VF_GRID3D_ADVECT_MACCORMACK, 1),
    PLUME_KEYS(0.15),
    {"source_density", VF_PARAM_DOUBLE, K(source_density), 3, 0, 1e6, false, NULL, "1/s", "soot injected per second"},
    {"source_temperature", VF_PARAM_DOUBLE, K(source_temperature), 20, -1e6, 1e6, false, NULL, "1/s",
     "temperature injected per second (the soot glows as a black body at 300 K + 800 K per unit)"},
    {"cooling", VF_PARAM_DOUBLE, K(cooling), 10, 0, 1000, false, NULL, "1/s",
     "the temperature above ambient decays as exp(-cooling t): the flame's height (0 = never)"},
    {"obstacle", VF_PARAM_ENUM, K(obstacle), OBSTACLE_NONE, 0, 0, false, VF_CHOICES(OBSTACLE_LIST), "", "obstacle above the fire"},
    {"obstacle_size", VF_PARAM_DOUBLE, K(obstacle_size), 0.15, 0, 10, true, NULL, "m", "obstacle radius or half side"},
};

static const vf_param_def wind3d_keys[] = {
    COMMON_KEYS(32, VF_GRID3D_ADVECT_MACCORMACK, 1),
    {"obstacle_x", VF_PARAM_DOUBLE, K(obstacle_x), 0.5, -100, 100, false, NULL, "m", "obstacle centre x (along the flow)"},
    {"obstacle_y", VF_PARAM_DOUBLE, K(obstacle_y), 0.5, -100, 100, false, NULL, "m", "obstacle centre y (up)"},
    {"re", VF_PARAM_DOUBLE, K(re), 200, 0, 1e7, true, NULL, "", "Reynolds number inflow * cube side / viscosity"},
    {"inflow", VF_PARAM_DOUBLE, K(inflow), 1, 0, 1000, true, NULL, "m/s", "inflow speed at x = 0"},
    {"obstacle", VF_PARAM_ENUM, K(obstacle), OBSTACLE_BOX, 0, 0, false, VF_CHOICES(OBSTACLE_LIST), "", "obstacle in the stream"},
    {"obstacle_size", VF_PARAM_DOUBLE, K(obstacle_size), 0.1, 0, 10, true, NULL, "m", "obstacle radius or half side"},
    {"source_density", VF_PARAM_DOUBLE, K(source_density), 3, 0, 1e6, false, NULL, "1/s",
     "smoke injected per second upstream of the obstacle"},
};
#undef K

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

static vf_grid3d_shape shape_of(int k)
{
    switch (k) {
    case OBSTACLE_SPHERE: return VF_GRID3D_SHAPE_SPHERE;
    case OBSTACLE_BOX: return VF_GRID3D_SHAPE_BOX;
    case OBSTACLE_CYLINDER: return VF_GRID3D_SHAPE_CYLINDER;
    default: return VF_GRID3D_SHAPE_NONE;
    }
}

static const char *const obstacle_keys[3] = {"obstacle_x", "obstacle_y", "obstacle_z"};

/* Builds the solver desc; one line naming the key for what the solver cannot
 * run. check: also run the solver's own checks (vf_grid3d_validate_desc);
 * false: sd was validated before, only convert (the key comparisons on the
 * way cannot fail then). */
static vf_result scene_to_desc(const vf_scene_info *scene, const vf_grid3d_scene_desc *sd, vf_grid3d_desc *d, bool check,
                               const char **key, char *err, size_t cap)
{
    memset(d, 0, sizeof *d);
    bool wind = scene == &vf_scene_grid3d_wind3d;
    uint32_t n = (uint32_t)sd->n;
    if (sd->pressure == VF_GRID3D_PRESSURE_MULTIGRID) {
        /* multigrid: n and 2 n must halve to at most VF_GRID3D_COARSE_MAX */
        uint32_t c = n;
        while (c % 2 == 0 && c >= 4 && 2 * c > VF_GRID3D_COARSE_MAX)
            c /= 2;
        if (2 * c > VF_GRID3D_COARSE_MAX) {
            uint32_t m = n;
            for (;; m++) {
                uint32_t q = m;
                while (q % 2 == 0 && q >= 4 && 2 * q > VF_GRID3D_COARSE_MAX)
                    q /= 2;
                if (2 * q <= VF_GRID3D_COARSE_MAX)
                    break;
            }
            vf_set_key_err(key, err, cap, "n", "=%d: multigrid needs n = m * 2^k with m <= %d (e.g. n=%u), or pressure=jacobi", sd->n,
                     VF_GRID3D_COARSE_MAX / 2, m);
            return VF_ERR_INVALID_ARG;
        }
    }
    if (sd->walls == VF_GRID3D_WALLS_PERIODIC && wind) {
        vf_set_key_err(key, err, cap, "walls", "=periodic: wind3d has an inflow and an outflow side: use walls=freeslip, or smoke3d "
                           "or fire3d for a periodic box");
        return VF_ERR_INVALID_ARG;
    }
    if (sd->pressure == VF_GRID3D_PRESSURE_FFT && sd->walls != VF_GRID3D_WALLS_PERIODIC) {
        vf_set_key_err(key, err, cap, "pressure", "=fft: solves a triply periodic box only (Stam's FFT solver): add walls=periodic, or "
                           "use pressure=multigrid");
        return VF_ERR_INVALID_ARG;
    }
    if (sd->pressure == VF_GRID3D_PRESSURE_FFT && sd->obstacle != OBSTACLE_NONE) {
        vf_set_key_err(key, err, cap, "obstacle", ": pressure=fft solves a box without solids: use obstacle=none, or pressure=multigrid");
        return VF_ERR_INVALID_ARG;
    }
    d->nx = wind ? 2 * n : n;
    d->ny = wind ? n : 2 * n;
    d->nz = n;
    d->width = wind ? 2.0 : 1.0;
    d->pressure = (vf_grid3d_pressure)sd->pressure;
    d->pressure_iters = (uint32_t)sd->pressure_iters;
    d->advection = (vf_grid3d_advection)sd->advect;
    d->vorticity = sd->vorticity;
    const bool periodic = sd->walls == VF_GRID3D_WALLS_PERIODIC;
    uint32_t wall = sd->walls == VF_GRID3D_WALLS_NOSLIP ? VF_G3_BC_NOSLIP
                    : periodic                           ? VF_G3_BC_PERIODIC
                                                         : VF_G3_BC_FREESLIP;
    for (int s = 0; s < 6; s++)
        d->sides[s] = wall;
    double speed;
    if (wind) {
        d->sides[VF_G3_SIDE_XMIN] = VF_G3_BC_INFLOW;
        d->sides[VF_G3_SIDE_XMAX] = VF_G3_BC_OUTFLOW;
        d->inflow[VF_G3_SIDE_XMIN] = (float)sd->inflow;
        d->viscosity = sd->inflow * 2 * sd->obstacle_size / sd->re;
        d->source_on = sd->source_density > 0;
        d->source[0] = 0.15f;
        d->source[1] = (float)sd->obstacle_y;
        d->source[2] = (float)sd->obstacle_z;
        d->source[3] = 0.08f;
        d->source_density = (float)sd->source_density;
        speed = 1.5 * sd->inflow;
        /* the camera frames the smoke, the obstacle and the near wake, from the side */
        const float lo[3] = {0.05f, 0.25f, 0.25f}, hi[3] = {1.45f, 0.75f, 0.75f}, dir[3] = {0.15f, 0.2f, 1};
        memcpy(d->view_lo, lo, sizeof lo);
        memcpy(d->view_hi, hi, sizeof hi);
        memcpy(d->view_dir, dir, sizeof dir);
    } else {
        if (!periodic)
            d->sides[VF_G3_SIDE_YMAX] = VF_G3_BC_OUTFLOW; /* smoke leaves through the top */
        d->viscosity = sd->viscosity;
        d->alpha = sd->alpha;
        d->beta = sd->beta;
        d->source_on = true;
        d->source[0] = 0.5f;
        d->source[1] = 0.15f;
        d->source[2] = 0.5f;
        d->source[3] = (float)sd->source_radius;
        d->source_profile = (vf_grid3d_source_profile)sd->source_profile;
        d->source_density = (float)sd->source_density;
        d->source_temperature = (float)sd->source_temperature;
        d->cooling = sd->cooling;
        if (scene == &vf_scene_grid3d_fire3d) {
            d->emission = 5.0f; /* fire: glowing soot, darker smoke */
            d->extinction = 4.0f;
            d->albedo = 0.25f;
            d->kelvin = 800.0f;
        }
        /* the camera frames the plume's lowest 1.15 m around the axis (the
         * source, the obstacle above it, the flame), from a little above */
        const float lo[3] = {0.15f, 0, 0.15f}, hi[3] = {0.85f, 1.15f, 0.85f}, dir[3] = {0.3f, 0.25f, 1};
        memcpy(d->view_lo, lo, sizeof lo);
        memcpy(d->view_hi, hi, sizeof hi);
        memcpy(d->view_dir, dir, sizeof dir);
        speed = 1.0;
    }
    d->vel_scale = speed;
    if (sd->obstacle != OBSTACLE_NONE) {
        vf_grid3d_obstacle *o = &d->obstacles[0];
        o->shape = shape_of(sd->obstacle);
        o->centre[0] = (float)sd->obstacle_x;
        o->centre[1] = (float)sd->obstacle_y;
        o->centre[2] = (float)sd->obstacle_z;
        o->size[0] = o->size[1] = o->size[2] = (float)sd->obstacle_size;
        o->axis = 2;
        double ext[3] = {d->width, d->width * d->ny / d->nx, d->width * d->nz / d->nx};
        const double pos[3] = {sd->obstacle_x, sd->obstacle_y, sd->obstacle_z};
        for (int a = 0; a < 3; a++) {
            double c = pos[a];
            if (c - sd->obstacle_size < 0 || c + sd->obstacle_size > ext[a]) {
                vf_set_key_err(key, err, cap, obstacle_keys[a],
                               "=%g: the obstacle (size %g) reaches outside the domain [0, %g]: keep %s within [%g, %g]",
                               c, sd->obstacle_size, ext[a], obstacle_keys[a], sd->obstacle_size,
                         ext[a] - sd->obstacle_size);
                return VF_ERR_INVALID_ARG;
            }
        }
    }
    /* substeps: at most cfl h / speed each; frame_dt 0 = 1/30 s capped at 16 substeps */
    double h = d->width / d->nx, dt_max = sd->cfl * h / speed;
    double frame = sd->frame_dt > 0 ? sd->frame_dt : 1.0 / 30.0;
    double steps = ceil(frame / dt_max - 1e-9);
    if (steps < 1)
        steps = 1;
    if (sd->frame_dt <= 0 && steps > MAX_SUBSTEPS) {
        steps = MAX_SUBSTEPS;
        frame = MAX_SUBSTEPS * dt_max;
    }
    if (steps > MAX_SUBSTEPS) {
        vf_set_key_err(key, err, cap, "frame_dt", "=%g: needs %.6g substeps of at most %.3g s (cfl %g, n %d); at most %d: use frame_dt <= %.3g",
                 sd->frame_dt, steps, dt_max, sd->cfl, sd->n, MAX_SUBSTEPS, MAX_SUBSTEPS * dt_max);
        return VF_ERR_INVALID_ARG;
    }
    d->substeps = (uint32_t)steps;
    d->dt = frame / steps;
    vf_grid3d_fill_defaults(d);
    return check ? vf_grid3d_validate_desc(d, key, err, cap) : VF_OK;
}

/* The scene's one check; create and frame_dt only convert after it. */
static vf_result validate_any(const vf_scene_info *scene, const void *desc, const char **key, char *err, size_t cap)
{
    vf_grid3d_desc d;
    return scene_to_desc(scene, desc, &d, true, key, err, cap);
}

static double frame_dt_any(const vf_scene_info *scene, const void *desc)
{
    vf_grid3d_desc d;
    char err[256];
    return scene_to_desc(scene, desc, &d, false, NULL, err, sizeof err) == VF_OK ? d.dt * d.substeps : 0.0;
}

static vf_result create_any(const vf_scene_info *scene, vf_gpu *gpu, const void *desc, vf_solver **out,
                            const char **key, char *err,
                            size_t cap)
{
    *out = NULL;
    vf_grid3d_desc d;
    vf_result res = scene_to_desc(scene, desc, &d, false, key, err, cap); /* validated by validate_any */
    if (res != VF_OK)
        return res;
    return vf_solver_create(gpu, &vf_grid3d_family, &d, out, key, err, cap);
}

#define GRID3D_SCENE(var, name_, keys, text)                                                                           \
    const vf_scene_info var = {                                                                                        \
        .name = name_,                                                                                                 \
        .family = "grid3d",                                                                                            \
        .description = text,                                                                                          \
        .params = keys,                                                                                                \
        .param_count = COUNT(keys),                                                                                    \
        .desc_size = sizeof(vf_grid3d_scene_desc),                                                                     \
        .validate = validate_any,                                                                                      \
        .create = create_any,                                                                                          \
        .frame_dt = frame_dt_any,                                                                                      \
    };

GRID3D_SCENE(vf_scene_grid3d_smoke3d, "smoke3d", smoke3d_keys,
             "3D grid: a hot smoke plume rising past a sphere, leaving through the top")
GRID3D_SCENE(vf_scene_grid3d_fire3d, "fire3d", fire3d_keys,
             "3D grid: a fire: hot soot rising, glowing as a black body while it cools, smoke above")
GRID3D_SCENE(vf_scene_grid3d_wind3d, "wind3d", wind3d_keys,
             "3D grid: flow past a cube at moderate re, inflow at x = 0, outflow at x = 2, smoke upstream")
