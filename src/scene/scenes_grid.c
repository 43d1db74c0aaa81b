/* scenes_grid: the built-in grid scenes (smoke, cavity, channel), their key
 * tables, and the mapping from keys to the solver's desc. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenes_grid.h"
#include "text.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define MAX_SUBSTEPS 80 /* x ~12 profiler scopes per step stays under run's 1024 */

/* the scenes' own choice keys (params.h choice lists) */
#define WALLS_LIST(X) VF_WALLS_LIST(X, VF_GRID) X(VF_GRID_WALLS_PERIODIC, "periodic")
#define SMOKE_OBSTACLE_LIST(X) X(SMOKE_OBSTACLE_NONE, "none") X(SMOKE_OBSTACLE_DISC, "disc") X(SMOKE_OBSTACLE_MOVING, "moving")
#define CHANNEL_PILLAR_LIST(X) X(CHANNEL_PILLAR_CYLINDER, "cylinder") X(CHANNEL_PILLAR_SQUARE, "square")
#define SHEAR_FLOW_LIST(X) X(SHEAR_FLOW_SHEAR, "shear") X(SHEAR_FLOW_TAYLOR_GREEN, "taylor-green")
enum { WALLS_LIST(VF_CHOICE_ENUM) };
enum { SMOKE_OBSTACLE_LIST(VF_CHOICE_ENUM) };
enum { CHANNEL_PILLAR_LIST(VF_CHOICE_ENUM) };
enum { SHEAR_FLOW_LIST(VF_CHOICE_ENUM) };

#define K(field) offsetof(vf_grid_scene_desc, field)
#define COMMON_KEYS(def_n, def_adv, def_cfl)                                                                           \
    {"n", VF_PARAM_INT, K(n), def_n, VF_GRID_MIN_N, 65536, false, NULL, "cells", "cells per side"},                    \
    {"pressure", VF_PARAM_ENUM, K(pressure), VF_GRID_PRESSURE_MULTIGRID, 0, 0, false,                                \
     VF_CHOICES(VF_GRID_PRESSURE_LIST), "", "pressure solver"},                                                        \
    {"pressure_iters", VF_PARAM_INT, K(pressure_iters), 0, 0, 1000000, false, NULL, "",                                \
     "V-cycles (multigrid), iterations (jacobi, ssor) or sub-steps (penalty) per step; 0: 4 / 200 / 8 / the "          \
     "fewest stable ones (fft: one exact solve)"},                                                                     \
    {"epsilon", VF_PARAM_DOUBLE, K(epsilon), 0.005, 0, 1e6, true, NULL, "s/m^2",                                       \
     "pressure=penalty: Chen & Lobo's penalty parameter, eps p + div u = 0"},                                          \
    {"ssor_omega", VF_PARAM_DOUBLE, K(ssor_omega), 1.7, 0, 1.99, true, NULL, "",                                          \
     "pressure=ssor: the relaxation factor (below 2)"},                                                                \
    {"advect", VF_PARAM_ENUM, K(advect), def_adv, 0, 0, false, VF_CHOICES(VF_GRID_ADVECTION_LIST), "",                \
     "advection scheme"},                                                                                              \
    {"donor_gamma", VF_PARAM_DOUBLE, K(donor_gamma), 1, 0, 1, true, NULL, "",                                          \
     "advect=donor-cell: the upwind share (1: pure donor cell, towards 0: central differences)"},                      \
    {"cfl", VF_PARAM_DOUBLE, K(cfl), def_cfl, 0, 20, true, NULL, "", "substep = cfl * h / speed"},                    \
    {"frame_dt", VF_PARAM_DOUBLE, K(frame_dt), 0, 0, 100, false, NULL, "s",                                            \
     "simulated time per frame; 0: automatic (at most 16 substeps)"},                                                  \
    {"diffuse_iters", VF_PARAM_INT, K(diffuse_iters), 0, 0, 100000, false, NULL, "",                                  \
     "red-black SOR sweeps of the viscosity solve; 0: error / 1e6"},                                              \
    {"report_every", VF_PARAM_INT, K(report_every), 0, 0, 1000000000, false, NULL, "frames",                           \
     "read the solver residuals back every N frames (0: only for the summary)"}

static const vf_param_def cavity_keys[] = {
    COMMON_KEYS(128, VF_GRID_ADVECT_MACCORMACK, 0.5),
    {"re", VF_PARAM_DOUBLE, K(re), 100, 0, 1e7, true, NULL, "", "Reynolds number lid * 1 / viscosity"},
    {"lid", VF_PARAM_DOUBLE, K(lid), 1, -1000, 1000, false, NULL, "m/s", "speed of the lid at y = 1"},
};

static const vf_param_def smoke_keys[] = {
    COMMON_KEYS(256, VF_GRID_ADVECT_MACCORMACK, 2),
    {"viscosity", VF_PARAM_DOUBLE, K(viscosity), 0, 0, 1e6, false, NULL, "m^2/s", "kinematic viscosity"},
    {"vorticity", VF_PARAM_DOUBLE, K(vorticity), 0.4, 0, 100, false, NULL, "", "vorticity confinement (0 = off)"},
    {"buoyancy", VF_PARAM_DOUBLE, K(buoyancy), 2, -1000, 1000, false, NULL, "m/s^2", "upward acceleration per unit dye"},
    {"force", VF_PARAM_DOUBLE, K(force), 30, -1e5, 1e5, false, NULL, "m/s^2", "source acceleration (upward)"},
    {"dye_mix", VF_PARAM_DOUBLE, K(dye_mix), 0.05, 0, 1, false, NULL, "", "colour blending per step"},
    {"obstacle", VF_PARAM_ENUM, K(obstacle), SMOKE_OBSTACLE_NONE, 0, 0, false, VF_CHOICES(SMOKE_OBSTACLE_LIST), "",
     "obstacle in the box"},
    {"walls", VF_PARAM_ENUM, K(walls), VF_GRID_WALLS_FREESLIP, 0, 0, false, VF_CHOICES(WALLS_LIST), "",
     "box walls (periodic: every side wraps, for pressure=fft)"},
    {"periodic", VF_PARAM_BOOL, K(periodic), 0, 0, 1, false, NULL, "", "periodic left and right sides"},
    {"texcoords", VF_PARAM_BOOL, K(texcoords), 1, 0, 1, false, NULL, "", "advect texture coordinates (warped image)"},
};

static const vf_param_def channel_keys[] = {
    COMMON_KEYS(64, VF_GRID_ADVECT_MACCORMACK, 1),
    {"re", VF_PARAM_DOUBLE, K(re), 150, 0, 1e7, true, NULL, "", "Reynolds number inflow * diameter / viscosity"},
    {"inflow", VF_PARAM_DOUBLE, K(inflow), 1, 0, 1000, true, NULL, "m/s", "inflow speed"},
    {"length", VF_PARAM_DOUBLE, K(length), 4, 1, 64, false, NULL, "", "channel length / height"},
    {"obstacle", VF_PARAM_ENUM, K(obstacle), CHANNEL_PILLAR_CYLINDER, 0, 0, false, VF_CHOICES(CHANNEL_PILLAR_LIST), "",
     "pillar shape"},
    {"walls", VF_PARAM_ENUM, K(walls), VF_GRID_WALLS_FREESLIP, 0, 0, false, VF_CHOICES(WALLS_LIST), "",
     "top and bottom walls (periodic: they wrap)"},
    {"dye_mix", VF_PARAM_DOUBLE, K(dye_mix), 0, 0, 1, false, NULL, "", "colour blending per step"},
    {"texcoords", VF_PARAM_BOOL, K(texcoords), 0, 0, 1, false, NULL, "", "advect texture coordinates (warped image)"},
};
static const vf_param_def shear_keys[] = {
    COMMON_KEYS(128, VF_GRID_ADVECT_MACCORMACK, 1),
    {"flow", VF_PARAM_ENUM, K(flow), SHEAR_FLOW_SHEAR, 0, 0, false, VF_CHOICES(SHEAR_FLOW_LIST), "",
     "the start: a double shear layer (Bell, Colella & Glaz) or Taylor-Green vortices"},
    {"thickness", VF_PARAM_DOUBLE, K(thickness), 1.0 / 30.0, 0, 0.25, true, NULL, "",
     "shear: the layers' thickness (of the box)"},
    {"viscosity", VF_PARAM_DOUBLE, K(viscosity), 1e-4, 0, 1e6, false, NULL, "m^2/s", "kinematic viscosity"},
    {"dye_mix", VF_PARAM_DOUBLE, K(dye_mix), 0, 0, 1, false, NULL, "", "colour blending per step"},
};
#undef K

#define COUNT(t) (sizeof(t) / sizeof((t)[0]))

/* no dye in a cavity: the default view is the velocity with arrows */
static void cavity_preset(const vf_scene_info *scene, void *d)
{
    (void)scene;
    vf_grid_scene_desc *sd = d;
    snprintf(sd->shapes.render_mode, sizeof sd->shapes.render_mode, "%s", "velocity");
}

/* the doubly periodic box: Stam's FFT projection */
static void shear_preset(const vf_scene_info *scene, void *d)
{
    (void)scene;
    vf_grid_scene_desc *sd = d;
    sd->pressure = VF_GRID_PRESSURE_FFT;
}

/* Substeps and dt: dt_max = cfl h / speed; frame_dt 0 = nominal, capped at 16 substeps. */
static vf_result timing(const vf_grid_scene_desc *sd, double h, double speed, double nominal, vf_grid_desc *d,
                        const char **key, char *err,
                        size_t cap)
{
    double dt_max = sd->cfl * h / (speed > 0 ? speed : 1.0);
    double frame = sd->frame_dt > 0 ? sd->frame_dt : nominal;
    double steps = ceil(frame / dt_max - 1e-9);
    if (steps < 1)
        steps = 1;
    if (sd->frame_dt <= 0 && steps > 16) {
        steps = 16;
        frame = 16 * dt_max;
    }
    if (steps > MAX_SUBSTEPS) {
        vf_set_key_err(key, err, cap, "frame_dt", "=%g: needs %.6g substeps of at most %.3g s (cfl %g, n %d); at most %d: use frame_dt <= %.3g",
                 sd->frame_dt, steps, dt_max, sd->cfl, sd->n, MAX_SUBSTEPS, MAX_SUBSTEPS * dt_max);
        return VF_ERR_INVALID_ARG;
    }
    d->substeps = (uint32_t)steps;
    d->dt = frame / steps;
    return VF_OK;
}

static void common_desc(const vf_grid_scene_desc *sd, vf_grid_desc *d)
{
    d->pressure = (vf_grid_pressure)sd->pressure;
    d->pressure_iters = (uint32_t)sd->pressure_iters;
    d->advection = (vf_grid_advection)sd->advect;
    d->diffuse_iters = (uint32_t)sd->diffuse_iters;
    d->cfl = sd->cfl;
    d->epsilon = sd->epsilon;
    d->ssor_omega = sd->ssor_omega;
    d->donor_gamma = sd->donor_gamma;
}

/* The side type of a scene's walls key. */
static uint32_t wall_type(int walls)
{
    return walls == VF_GRID_WALLS_NOSLIP ? VF_GRID_BC_NOSLIP
                                         : (walls == VF_GRID_WALLS_PERIODIC ? VF_GRID_BC_PERIODIC : VF_GRID_BC_FREESLIP);
}

/* Klein et al.'s explicit convection is stable for (|u| + |v|) dt / h <= 1:
 * refused above cfl 0.5 (the substep's speed is the scene's expected one). */
static vf_result check_donor_cell(const vf_grid_scene_desc *sd, const char **key, char *err, size_t cap)
{
    if (sd->advect != VF_GRID_ADVECT_DONOR_CELL || sd->cfl <= 0.5)
        return VF_OK;
    vf_set_key_err(key, err, cap, "cfl", ": %g: advect=donor-cell is an explicit step, stable for (|u| + |v|) dt / h <= 1: use cfl=0.5 "
                       "or less",
             sd->cfl);
    return VF_ERR_INVALID_ARG;
}

/* Refused up front: scenes the pressure projection cannot make
 * divergence-free (their checks would pass on a wrong flow), and obstacles
 * that leave no fluid to solve for. */
static vf_result check_fluid(const vf_grid_scene_desc *sd, const vf_grid_desc *d,
                             const char **key, char *err, size_t cap)
{
    const vf_scene_shapes *sh = &sd->shapes;
    const uint32_t slots = sizeof d->obstacles / sizeof d->obstacles[0];
    double width = d->width > 0 ? d->width : 1.0;
    bool outflow = false, inflow = false;
    for (int side = 0; side < 4; side++) {
        outflow = outflow || d->sides[side] == VF_GRID_BC_OUTFLOW;
        inflow = inflow || (d->sides[side] == VF_GRID_BC_INFLOW && (side < 2 ? d->side_u[side] : d->side_v[side]) != 0.0f);
    }
    if (inflow && !outflow) {
        snprintf(err, cap, "%s: fluid flows in but out through no side, so no flow can be divergence-free: make a side "
                           "an outflow (\"outflows\": [{\"side\": \"right\"}]) or drop an inflow",
                 sh->inflow_sides ? "inflows" : "outflows");
        return VF_ERR_INVALID_ARG;
    }
    /* obstacles covering the whole domain leave no fluid to solve for */
    uint32_t sn = d->nx < 256 ? d->nx : 256, sm = d->ny < 256 ? d->ny : 256;
    double dom_h = width * d->ny / d->nx;
    bool any_fluid = false;
    for (uint32_t j = 0; j < sm && !any_fluid; j++)
        for (uint32_t i = 0; i < sn && !any_fluid; i++) {
            double x = (i + 0.5) * width / sn, y = (j + 0.5) * dom_h / sm;
            bool solid = false;
            for (uint32_t k = 0; k < slots && !solid; k++) {
                const vf_grid_obstacle *o = &d->obstacles[k];
                double dx = x - o->cx, dy = y - o->cy;
                if (o->shape == VF_GRID_SHAPE_DISC)
                    solid = dx * dx + dy * dy <= (double)o->radius * o->radius;
                else if (o->shape == VF_GRID_SHAPE_BOX)
                    solid = fabs(dx) <= o->radius && fabs(dy) <= o->radius;
            }
            any_fluid = !solid;
        }
    if (!any_fluid) {
        vf_set_key_err(key, err, cap, "obstacles", ": they cover the whole %g x %g domain: leave room for the fluid (smaller or fewer "
                           "obstacles)", width, dom_h);
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

/* A scene file's shapes on a grid desc: obstacles into the free obstacle
 * slots (discs for cylinders and spheres, squares for square boxes),
 * inflow and outflow sides (vel_scale raised to the fastest inflow); the
 * dye regions are painted by create. check: also refuse what the grid
 * cannot take (false: sd was validated before). */
static vf_result apply_shapes(const vf_grid_scene_desc *sd, vf_grid_desc *d, double *inflow_scale, bool check,
                              const char **key, char *err, size_t cap)
{
    *inflow_scale = 0;
    const vf_scene_shapes *sh = &sd->shapes;
    const uint32_t slots = sizeof d->obstacles / sizeof d->obstacles[0];
    uint32_t used = 0;
    while (used < slots && d->obstacles[used].shape != VF_GRID_SHAPE_NONE)
        used++;
    double width = d->width > 0 ? d->width : 1.0;
    vf_shapes_caps caps = {.family = "grid",
                           .dims = 2,
                           .hi = {width, width * d->ny / d->nx, 0},
                           .max_obstacles = slots - used,
                           .obstacle_cylinder = true,
                           .max_fluid = VF_SHAPES_MAX_FLUID,
                           .sides = true};
    vf_result r = check ? vf_shapes_check(sh, &caps, err, cap) : VF_OK;
    if (r != VF_OK)
        return r;
    for (uint32_t k = 0; k < sh->obstacle_count; k++) {
        const vf_shape *o = &sh->obstacles[k];
        if (check && o->kind == VF_SHAPE_BOX && fabs(o->size[0] - o->size[1]) > 1e-9 * o->size[0]) {
            snprintf(err, cap, "obstacles[%u].size: the grid solver's boxes are squares: give equal sx and sy", k);
            return VF_ERR_INVALID_ARG;
        }
        d->obstacles[used++] = (vf_grid_obstacle){
            .shape = o->kind == VF_SHAPE_BOX ? VF_GRID_SHAPE_BOX : VF_GRID_SHAPE_DISC,
            .cx = (float)o->center[0],
            .cy = (float)o->center[1],
            .radius = (float)(o->kind == VF_SHAPE_BOX ? 0.5 * o->size[0] : o->radius),
        };
    }
    static const char *const names[] = {"left", "right", "bottom", "top"};
    for (int side = 0; side < 4; side++) {
        uint32_t bit = 1u << side;
        if (!((sh->inflow_sides | sh->outflow_sides) & bit))
            continue;
        if (check && d->sides[side] == VF_GRID_BC_PERIODIC) {
            snprintf(err, cap, "%s: the %s side is periodic in this scene: set periodic=false and walls=freeslip first",
                     (sh->inflow_sides & bit) ? "inflows" : "outflows", names[side]);
            return VF_ERR_INVALID_ARG;
        }
        if (sh->inflow_sides & bit) {
            double v = sh->inflow_speed[side], sign = (side == 0 || side == 2) ? 1.0 : -1.0;
            d->sides[side] = VF_GRID_BC_INFLOW;
            d->side_u[side] = side < 2 ? (float)(sign * v) : 0.0f;
            d->side_v[side] = side < 2 ? 0.0f : (float)(sign * v);
            *inflow_scale = fmax(*inflow_scale, 1.5 * v);
        } else {
            d->sides[side] = VF_GRID_BC_OUTFLOW;
            d->side_u[side] = d->side_v[side] = 0.0f;
        }
    }
    return check ? check_fluid(sd, d, key, err, cap) : VF_OK;
}

/* Paints the scene file's fluid regions as dye, a colour per region. */
static vf_result paint_regions(vf_grid *g, const vf_grid_scene_desc *sd, const vf_grid_desc *d)
{
    const vf_scene_shapes *sh = &sd->shapes;
    if (!sh->fluid_count)
        return VF_OK;
    static const float palette[][3] = {{1.0f, 0.3f, 0.1f}, {0.1f, 0.5f, 1.0f}, {0.2f, 0.9f, 0.3f}, {1.0f, 0.85f, 0.1f}};
    size_t n = (size_t)d->nx * d->ny;
    float *c = malloc(3 * n * sizeof(float));
    if (!c)
        return VF_ERR_NO_MEMORY;
    vf_result r = VF_OK;
    for (int ch = 0; ch < 3; ch++)
        if ((r = vf_grid_read(g, (vf_grid_field)(VF_GRID_FIELD_R + ch), c + ch * n)) != VF_OK)
            goto done;
    double h = (d->width > 0 ? d->width : 1.0) / d->nx;
    for (uint32_t j = 0; j < d->ny; j++)
        for (uint32_t i = 0; i < d->nx; i++) {
            double p[3] = {(i + 0.5) * h, (j + 0.5) * h, 0};
            for (uint32_t k = 0; k < sh->fluid_count; k++)
                if (vf_shape_contains(&sh->fluid[k], 2, p, NULL, NULL, NULL)) {
                    for (int ch = 0; ch < 3; ch++)
                        c[ch * n + (size_t)j * d->nx + i] = palette[k % 4][ch];
                    break;
                }
        }
    for (int ch = 0; ch < 3 && r == VF_OK; ch++)
        r = vf_grid_write(g, (vf_grid_field)(VF_GRID_FIELD_R + ch), c + ch * n);
done:
    free(c);
    return r;
}

/* The grid desc of scene sd. check: also refuse values the grid cannot take
 * (the scene-level checks; the solver's own are vf_grid_validate_desc);
 * false: sd was validated before, only convert. */
static vf_result convert(const vf_scene_info *scene, const vf_grid_scene_desc *sd, vf_grid_desc *d, bool check,
                         const char **key, char *err, size_t cap)
{
    memset(d, 0, sizeof *d);
    common_desc(sd, d);
    vf_result res = check ? check_donor_cell(sd, key, err, cap) : VF_OK;
    if (res != VF_OK)
        return res;
    double nominal = 0.05, speed_used = 1.0;
    if (scene == &vf_scene_grid_cavity) {
        d->nx = d->ny = (uint32_t)sd->n;
        d->width = 1.0;
        for (int s = 0; s < 4; s++)
            d->sides[s] = VF_GRID_BC_NOSLIP;
        d->side_u[VF_GRID_SIDE_TOP] = (float)sd->lid;
        d->viscosity = fabs(sd->lid) * 1.0 / sd->re;
        double speed = fabs(sd->lid) > 0 ? fabs(sd->lid) : 1.0;
        d->vel_scale = speed;
        if (d->viscosity == 0)
            d->viscosity = 1.0 / sd->re; /* a still lid: keep the viscosity of a unit lid */
        nominal = 0.1;
        speed_used = speed;
        res = timing(sd, 1.0 / sd->n, speed, nominal, d, key, err, cap);
    } else if (scene == &vf_scene_grid_smoke) {
        d->nx = d->ny = (uint32_t)sd->n;
        d->width = 1.0;
        uint32_t wall = wall_type(sd->walls);
        for (int s = 0; s < 4; s++)
            d->sides[s] = wall;
        if (sd->periodic)
            d->sides[VF_GRID_SIDE_LEFT] = d->sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_PERIODIC;
        d->viscosity = sd->viscosity;
        d->vorticity = sd->vorticity;
        d->buoyancy = sd->buoyancy;
        d->dye_mix = sd->dye_mix;
        d->texcoords = sd->texcoords;
        d->source = (vf_grid_source){.on = true, .hue_rate = 0.15f, .cx = 0.5f, .cy = 0.12f, .radius = 0.035f,
                                     .ax = 0.25f, .ay = 0.04f, .wx = 0.2f, .wy = 0.37f, .fx = 0.0f,
                                     .fy = (float)sd->force, .r = 8.0f, .g = 8.0f, .b = 8.0f};
        if (sd->obstacle == SMOKE_OBSTACLE_DISC)
            d->obstacles[0] = (vf_grid_obstacle){.shape = VF_GRID_SHAPE_DISC, .cx = 0.5f, .cy = 0.55f, .radius = 0.08f};
        else if (sd->obstacle == SMOKE_OBSTACLE_MOVING)
            d->mover = (vf_grid_mover){.shape = VF_GRID_SHAPE_DISC, .cx = 0.5f, .cy = 0.55f, .radius = 0.07f,
                                       .amp = 0.25f, .freq = 0.1f, .dx = 1.0f, .dy = 0.0f};
        nominal = 1.0 / 30.0;
        res = timing(sd, 1.0 / sd->n, 1.0, nominal, d, key, err, cap);
    } else if (scene == &vf_scene_grid_channel) {
        d->ny = (uint32_t)sd->n;
        d->nx = (uint32_t)lround(sd->length * sd->n);
        d->nx += d->nx & 1;
        d->width = (double)d->nx / d->ny; /* height 1 */
        uint32_t wall = wall_type(sd->walls);
        d->sides[VF_GRID_SIDE_LEFT] = VF_GRID_BC_INFLOW;
        d->sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_OUTFLOW;
        d->sides[VF_GRID_SIDE_BOTTOM] = d->sides[VF_GRID_SIDE_TOP] = wall;
        d->side_u[VF_GRID_SIDE_LEFT] = (float)sd->inflow;
        double diameter = 0.2;
        d->viscosity = sd->inflow * diameter / sd->re;
        d->dye_mix = sd->dye_mix;
        d->texcoords = sd->texcoords;
        d->inflow_stripes = 16;
        d->obstacles[0] = (vf_grid_obstacle){.shape = sd->obstacle == CHANNEL_PILLAR_SQUARE ? VF_GRID_SHAPE_BOX : VF_GRID_SHAPE_DISC,
                                             .cx = 1.0f, .cy = 0.52f, .radius = (float)(diameter / 2)};
        d->vel_scale = 1.5 * sd->inflow;
        nominal = 0.05;
        speed_used = d->vel_scale;
        res = timing(sd, 1.0 / sd->n, d->vel_scale, nominal, d, key, err, cap);
    } else if (scene == &vf_scene_grid_shear) {
        d->nx = d->ny = (uint32_t)sd->n;
        d->width = 1.0;
        for (int s = 0; s < 4; s++)
            d->sides[s] = VF_GRID_BC_PERIODIC;
        d->viscosity = sd->viscosity;
        d->dye_mix = sd->dye_mix;
        nominal = 1.0 / 30.0;
        res = timing(sd, 1.0 / sd->n, 1.0, nominal, d, key, err, cap);
    } else {
        snprintf(err, cap, "not a grid scene");
        return VF_ERR_INVALID_ARG;
    }
    if (res != VF_OK)
        return res;
    double inflow_scale;
    if ((res = apply_shapes(sd, d, &inflow_scale, check, key, err, cap)) != VF_OK)
        return res;
    if (inflow_scale > speed_used) {
        /* a scene file's inflow is faster than the preset's flow: substeps for it */
        d->vel_scale = inflow_scale;
        if ((res = timing(sd, 1.0 / sd->n, inflow_scale, nominal, d, key, err, cap)) != VF_OK)
            return res;
    }
    return VF_OK;
}

vf_result vf_grid_scene_to_desc(const vf_scene_info *scene, const vf_grid_scene_desc *sd, vf_grid_desc *d,
                                const char **key, char *err,
                                size_t cap)
{
    vf_result res = convert(scene, sd, d, true, key, err, cap);
    return res == VF_OK ? vf_grid_validate_desc(d, key, err, cap) : res;
}

/* The scene's one check: its keys together, then the solver's desc
 * (vf_grid_validate_desc); create and frame_dt only convert after it. */
static vf_result validate_any(const vf_scene_info *scene, const void *desc, const char **key, char *err, size_t cap)
{
    vf_grid_desc d;
    return vf_grid_scene_to_desc(scene, desc, &d, key, err, cap);
}

/* The periodic box's start on the MAC faces, from a stream function psi
 * at the cell corners (u = dpsi/dy, v = -dpsi/dx as differences: exactly
 * divergence-free on the grid) and the dye of the layers:
 *   shear: Bell, Colella & Glaz's double shear layer, u = tanh((y - 1/4) / d)
 *          below y = 1/2, tanh((3/4 - y) / d) above, v = 0.05 sin(2 pi x)
 *          (that part from its own stream function), the band between the
 *          layers red, the rest blue;
 *   taylor-green: psi = sin(2 pi x) sin(2 pi y) / (2 pi), decaying as
 *          exp(-8 pi^2 nu t) (its nonlinear term is a pressure gradient). */
static double shear_psi(int flow, double thickness, double x, double y)
{
    if (flow == SHEAR_FLOW_TAYLOR_GREEN)
        return sin(2 * M_PI * x) * sin(2 * M_PI * y) / (2 * M_PI);
    /* integral of u over y (u odd about 1/2 in the band's frame), plus the perturbation's */
    double d = thickness;
    double lo = d * log(cosh((y - 0.25) / d)), hi = -d * log(cosh((0.75 - y) / d));
    double c = d * log(cosh(0.25 / d)); /* continuity at y = 1/2 */
    double psi = y <= 0.5 ? lo : hi + 2 * c;
    return psi + 0.05 * cos(2 * M_PI * x) / (2 * M_PI);
}

static vf_result shear_start(vf_grid *g, const vf_grid_scene_desc *sd, const vf_grid_desc *d)
{
    uint32_t nx = d->nx, ny = d->ny;
    double h = d->width / nx;
    size_t nu = (size_t)(nx + 1) * ny, nv = (size_t)nx * (ny + 1), nc = (size_t)nx * ny;
    float *u = malloc(nu * 4), *v = malloc(nv * 4), *dye = malloc(3 * nc * 4);
    vf_result r = u && v && dye ? VF_OK : VF_ERR_NO_MEMORY;
    for (uint32_t j = 0; j < ny && r == VF_OK; j++)
        for (uint32_t i = 0; i <= nx; i++) /* u(i, j) = (psi(i, j + 1) - psi(i, j)) / h */
            u[(size_t)j * (nx + 1) + i] = (float)((shear_psi(sd->flow, sd->thickness, i * h, (j + 1) * h) -
                                                   shear_psi(sd->flow, sd->thickness, i * h, j * h)) / h);
    for (uint32_t j = 0; j <= ny && r == VF_OK; j++)
        for (uint32_t i = 0; i < nx; i++) /* v(i, j) = -(psi(i + 1, j) - psi(i, j)) / h */
            v[(size_t)j * nx + i] = (float)(-(shear_psi(sd->flow, sd->thickness, (i + 1) * h, j * h) -
                                              shear_psi(sd->flow, sd->thickness, i * h, j * h)) / h);
    for (uint32_t j = 0; j < ny && r == VF_OK; j++)
        for (uint32_t i = 0; i < nx; i++) {
            double y = (j + 0.5) * h;
            bool band = y > 0.25 && y < 0.75;
            size_t k = (size_t)j * nx + i;
            bool tg = sd->flow == SHEAR_FLOW_TAYLOR_GREEN;
            dye[k] = tg ? 0.0f : band ? 1.0f : 0.1f;
            dye[nc + k] = tg ? 0.0f : band ? 0.35f : 0.45f;
            dye[2 * nc + k] = tg ? 0.0f : band ? 0.1f : 1.0f;
        }
    if (r == VF_OK && (r = vf_grid_write(g, VF_GRID_FIELD_U, u)) == VF_OK)
        r = vf_grid_write(g, VF_GRID_FIELD_V, v);
    for (int ch = 0; ch < 3 && r == VF_OK; ch++)
        r = vf_grid_write(g, (vf_grid_field)(VF_GRID_FIELD_R + ch), dye + ch * nc);
    free(u);
    free(v);
    free(dye);
    return r;
}

static double frame_dt_any(const vf_scene_info *scene, const void *desc)
{
    vf_grid_desc d;
    char err[256];
    return convert(scene, desc, &d, false, NULL, err, sizeof err) == VF_OK ? d.dt * d.substeps : 0.0;
}

static vf_result create_any(const vf_scene_info *scene, vf_gpu *gpu, const void *desc, vf_solver **out,
                            const char **key, char *err,
                            size_t cap)
{
    *out = NULL;
    vf_grid_desc d;
    vf_result res = convert(scene, desc, &d, false, key, err, cap); /* validated by validate_any */
    if (res != VF_OK)
        return res;
    vf_solver *s = NULL;
    if ((res = vf_solver_create(gpu, &vf_grid_family, &d, &s, key, err, cap)) != VF_OK)
        return res;
    vf_grid *g = vf_grid_from_solver(s);
    vf_grid_set_report_every(g, (uint32_t)((const vf_grid_scene_desc *)desc)->report_every);
    if ((scene == &vf_scene_grid_shear && (res = shear_start(g, desc, &d)) != VF_OK) ||
        (res = paint_regions(g, desc, &d)) != VF_OK) {
        vf_solver_destroy(&s);
        return res;
    }
    *out = s;
    return VF_OK;
}

#define GRID_SCENE(var, name_, keys, preset_, text)                                                                   \
    const vf_scene_info var = {                                                                                        \
        .name = name_,                                                                                                 \
        .family = "grid",                                                                                              \
        .description = text,                                                                                           \
        .params = keys,                                                                                                \
        .param_count = COUNT(keys),                                                                                    \
        .desc_size = sizeof(vf_grid_scene_desc),                                                                       \
        .shapes_offset = offsetof(vf_grid_scene_desc, shapes),                                                         \
        .preset = preset_,                                                                                             \
        .validate = validate_any,                                                                                      \
        .create = create_any,                                                                                          \
        .frame_dt = frame_dt_any,                                                                                      \
    };

GRID_SCENE(vf_scene_grid_smoke, "smoke", smoke_keys, NULL,
           "dye and velocity from a moving source, buoyancy, vorticity confinement, warped image")
GRID_SCENE(vf_scene_grid_cavity, "cavity", cavity_keys, cavity_preset,
           "lid-driven cavity on the unit square (Ghia, Ghia & Shin 1982)")
GRID_SCENE(vf_scene_grid_shear, "shear", shear_keys, shear_preset,
           "doubly periodic box, Stam's FFT projection: a double shear layer rolls up (or Taylor-Green vortices decay)")
GRID_SCENE(vf_scene_grid_channel, "channel", channel_keys, NULL,
           "channel with inflow, outflow and a pillar: a vortex street at high re")
