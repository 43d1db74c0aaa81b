/* scenes_river: the river scene (issue 4): the grid solver's channel flow
 * with a pillar runs under a height field, which it disturbs through the
 * divergence of its tentative velocity (Klein et al. 2003; coupling=pressure
 * gives Chen & Lobo's h = h0 + p / (rho g) instead); the flow advects with
 * MacCormack, so the pillar sheds a vortex street whose divergence keeps
 * starting waves behind it (the wake); waves spread (the current is slow
 * against sqrt(g d)) and leave at the open ends; leaves drift with the flow
 * and start again at the inflow (advect=true also carries the surface along
 * the current; off by default, see the README). The one file that knows both families: it builds the
 * grid channel over the height field's domain (in metres) and hands it to the
 * height solver as its flow (vf_height_attach_flow_solver). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "scenes_height.h"
#include "solver_grid.h"
#include "text.h"

static void river_preset(const vf_scene_info *scene, void *p)
{
    (void)scene;
    vf_height_desc *d = &((vf_height_scene_desc *)p)->solver;
    d->nx = 256;
    d->ny = 64;
    d->dx = 0.03125; /* an 8 m x 2 m reach */
    d->surface = 0.4;
    d->bed = 0.0;
    d->pillar = true;
    d->pillar_x = 0.25;
    d->pillar_y = 0.52; /* a little off the axis, so the vortex street starts soon */
    d->pillar_r = 0.15;
    d->edges = VF_HEIGHT_EDGES_OPEN_ENDS;
    d->coupling = VF_HEIGHT_COUPLE_DIVERGENCE;
    d->strength = 0.5;
    d->damping = 0.3;
    d->leaves = 40;
    d->recycle = true;
    d->drag_time = 0.3;
    d->inflow = 0.4;
    d->re = 200;
    d->flow_cells = 48;
    d->dye = true;
}

/* The grid channel under a height desc: inflow at x = 0, outflow at x = Lx,
 * free-slip banks, the same pillar, time step from the grid's CFL limit
 * dividing frame_dt evenly. check: also check it (the river's keys, then
 * vf_grid_validate_desc); false: validated before (river_validate), only
 * convert. */
static vf_result flow_desc(const vf_height_scene_desc *sd, vf_grid_desc *g, bool check,
                           const char **key, char *err, size_t cap)
{
    const vf_height_desc *d = &sd->solver;
    memset(g, 0, sizeof *g);
    const double lx = d->nx * d->dx, ly = d->ny * d->dx;
    g->ny = (uint32_t)d->flow_cells;
    g->nx = (uint32_t)lround(d->flow_cells * lx / ly);
    g->nx += g->nx & 1u;
    g->width = lx;
    g->size_key = "flow_cells"; /* the river's key the grid's cells come from */
    const double h = lx / g->nx, height = g->ny * h;
    g->sides[VF_GRID_SIDE_LEFT] = VF_GRID_BC_INFLOW;
    g->sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_OUTFLOW;
    g->sides[VF_GRID_SIDE_BOTTOM] = g->sides[VF_GRID_SIDE_TOP] = VF_GRID_BC_FREESLIP;
    g->side_u[VF_GRID_SIDE_LEFT] = (float)d->inflow;
    g->viscosity = d->inflow * 2 * d->pillar_r / d->re;
    uint32_t slot = 0;
    if (d->pillar)
        g->obstacles[slot++] = (vf_grid_obstacle){.shape = VF_GRID_SHAPE_DISC, .cx = (float)(d->pillar_x * lx),
                                                  .cy = (float)(d->pillar_y * height), .radius = (float)d->pillar_r};
    /* a scene file's obstacles stand in the flow too: the flow grid takes
     * discs (cylinders, spheres) and squares */
    const size_t slots = sizeof g->obstacles / sizeof g->obstacles[0];
    for (uint32_t k = 0; k < sd->shapes.obstacle_count; k++) {
        const vf_shape *o = &sd->shapes.obstacles[k];
        bool square = o->kind == VF_SHAPE_BOX && fabs(o->size[0] - o->size[1]) <= 1e-9 * o->size[0];
        if (slot >= slots || !(o->kind == VF_SHAPE_SPHERE || o->kind == VF_SHAPE_CYLINDER || square)) {
            snprintf(err, cap,
                     "obstacles[%u]: the river's channel flow takes at most %zu obstacles with the pillar, each a "
                     "cylinder, sphere or square box: change the shape or leave it out",
                     k, slots - (d->pillar ? 1 : 0));
            return VF_ERR_INVALID_ARG;
        }
        g->obstacles[slot++] = (vf_grid_obstacle){.shape = square ? VF_GRID_SHAPE_BOX : VF_GRID_SHAPE_DISC,
                                                  .cx = (float)o->center[0],
                                                  .cy = (float)(o->center[1] * height / ly),
                                                  .radius = (float)(square ? 0.5 * o->size[0] : o->radius)};
    }
    /* semi-Lagrangian's numerical viscosity (~ U h / 2) would be ~14x the
     * physical one at 48 cells and damp the vortex street, and the wake, out */
    g->advection = VF_GRID_ADVECT_MACCORMACK;
    g->inflow_stripes = d->dye ? 12u : 0u; /* dye that drifts with the flow (drawn on the water) */
    g->vel_scale = 1.5 * d->inflow;
    g->cfl = 1.0;
    double n = ceil(d->frame_dt / (g->cfl * h / g->vel_scale) - 1e-9);
    g->substeps = (uint32_t)(n < 1 ? 1 : n);
    g->dt = d->frame_dt / g->substeps;
    static const vf_grid_pressure pressure[] = {
        [VF_HEIGHT_FLOW_MULTIGRID] = VF_GRID_PRESSURE_MULTIGRID,
        [VF_HEIGHT_FLOW_JACOBI] = VF_GRID_PRESSURE_JACOBI,
        [VF_HEIGHT_FLOW_SSOR] = VF_GRID_PRESSURE_SSOR,
        [VF_HEIGHT_FLOW_PENALTY] = VF_GRID_PRESSURE_PENALTY,
    };
    g->pressure = pressure[d->flow_pressure];
    if (g->pressure == VF_GRID_PRESSURE_PENALTY) {
        /* the penalty's explicit sub-steps, checked here to name the river's key */
        g->epsilon = d->flow_epsilon;
        uint64_t k = check ? vf_grid_penalty_min_substeps(g) : 0;
        if (k > VF_GRID_PENALTY_MAX_SUBSTEPS) {
            vf_set_key_err(key, err, cap,
                     "flow_epsilon", ": %g: the penalty's explicit sub-steps would need %llu a flow step (flow cell %.3g "
                     "m, step %.3g s), more than %u: use flow_epsilon=%.3g or larger, or fewer flow_cells",
                     d->flow_epsilon, (unsigned long long)k, h, g->dt, VF_GRID_PENALTY_MAX_SUBSTEPS,
                     d->flow_epsilon * (double)k / VF_GRID_PENALTY_MAX_SUBSTEPS);
            return VF_ERR_INVALID_ARG;
        }
    }
    return check ? vf_grid_validate_desc(g, key, err, cap) : VF_OK;
}

/* The grid's current buffers as the height solver's flow: kinematic pressure
 * (times rho: Pa), b = div(u*) / dt (exactly the delta / dt_flow the divergence
 * coupling wants), MAC velocity. */
static void bind_grid(vf_solver *flow, vf_height_flow *out)
{
    vf_grid *g = vf_grid_from_solver(flow);
    const vf_grid_desc *gd = vf_grid_get_desc(g);
    *out = (vf_height_flow){
        .pressure = vf_grid_buffer(g, VF_GRID_FIELD_P),
        .divergence = vf_grid_buffer(g, VF_GRID_FIELD_RHS),
        .velocity = vf_grid_buffer(g, VF_GRID_FIELD_U),
        .velocity_v = vf_grid_buffer(g, VF_GRID_FIELD_V),
        .layout = VF_HEIGHT_FLOW_MAC,
        .nx = gd->nx,
        .ny = gd->ny,
        .pressure_scale = 1000.0f, /* the kinematic pressure times the water density (kg/m^3) */
        .divergence_scale = 1.0f,
        .velocity_scale = 1.0f,
    };
    /* the inflow and outflow columns: their divergence is the boundary
     * condition's (vortices leaving through a zero-gradient outflow pump it
     * up), and fed to the surface it raised the outflow end until the
     * explicit step went unstable (a 30-minute soak found it at t = 30 s) */
    out->edge_cells = 3;
    if (gd->inflow_stripes)
        for (int c = 0; c < 3; c++)
            out->dye[c] = vf_grid_buffer(g, (vf_grid_field)(VF_GRID_FIELD_R + c));
}

/* Projects the uniform start flow once (obstacles, boundary, divergence,
 * pressure, gradient, twice over) without advancing time: the first frame
 * then starts from the potential flow around the pillar instead of a flow
 * that runs into it, whose divergence would raise a 6 cm bump in front of the
 * pillar and dig a hole behind it. */
static vf_result project_start(vf_grid *g)
{
    static const vf_grid_pass passes[] = {VF_GRID_PASS_OBSTACLES, VF_GRID_PASS_BOUNDARY, VF_GRID_PASS_DIVERGENCE,
                                          VF_GRID_PASS_PRESSURE,  VF_GRID_PASS_GRADIENT, VF_GRID_PASS_BOUNDARY,
                                          VF_GRID_PASS_DIVERGENCE, VF_GRID_PASS_PRESSURE, VF_GRID_PASS_GRADIENT,
                                          VF_GRID_PASS_BOUNDARY};
    vf_gpu *gpu = vf_grid_solver(g)->gpu;
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_cmd_barrier_transfer_to_compute(cmd);
    for (size_t k = 0; k < sizeof passes / sizeof passes[0]; k++) {
        if (k)
            vf_cmd_barrier_compute(cmd);
        if ((res = vf_grid_record_pass(g, cmd, passes[k], NULL)) != VF_OK) {
            vf_cmd_oneshot_abandon(gpu, cmd);
            return res;
        }
    }
    return vf_cmd_oneshot_submit(gpu, cmd);
}

static vf_result river_validate(const vf_scene_info *scene, const void *desc, const char **key, char *err, size_t cap)
{
    (void)scene;
    const vf_height_scene_desc *d = desc;
    vf_result res = vf_height_scene_validate(d, key, err, cap);
    if (res != VF_OK)
        return res;
    vf_grid_desc g;
    return flow_desc(d, &g, true, key, err, cap);
}

static vf_result river_create(const vf_scene_info *scene, vf_gpu *gpu, const void *desc, vf_solver **out,
                              const char **key, char *err,
                              size_t cap)
{
    (void)scene;
    const vf_height_scene_desc *sd = desc;
    const vf_height_desc *d = &sd->solver;
    *out = NULL;
    vf_grid_desc gd;
    vf_result res = flow_desc(sd, &gd, false, key, err, cap); /* validated by river_validate */
    if (res != VF_OK)
        return res;
    vf_solver *s = NULL, *flow = NULL;
    if ((res = vf_height_scene_create(gpu, sd, &s, key, err, cap)) != VF_OK)
        return res;
    if ((res = vf_solver_create(gpu, &vf_grid_family, &gd, &flow, key, err, cap)) != VF_OK)
        goto fail;
    /* the channel starts flowing at the inflow speed (Chen & Lobo's initial
     * condition), projected around the pillar: no start-up surge */
    vf_grid *g = vf_grid_from_solver(flow);
    uint32_t uw = 0, uh = 0;
    vf_grid_field_size(g, VF_GRID_FIELD_U, &uw, &uh);
    float *u = malloc((size_t)uw * uh * sizeof(float));
    if (!u) {
        res = VF_ERR_NO_MEMORY;
        goto fail;
    }
    for (size_t i = 0; i < (size_t)uw * uh; i++)
        u[i] = (float)d->inflow;
    res = vf_grid_write(g, VF_GRID_FIELD_U, u);
    free(u);
    if (res == VF_OK)
        res = project_start(g);
    if (res != VF_OK)
        goto fail;
    /* the height solver owns the flow from here */
    vf_height_flow_source src = {.solver = flow, .bind = bind_grid};
    if ((res = vf_height_attach_flow_solver(s, &src)) != VF_OK) {
        vf_set_err(err, cap, "river: the channel flow does not fit the height field (frame_dt %g)", d->frame_dt);
        goto fail;
    }
    *out = s;
    return VF_OK;
fail:
    vf_solver_destroy(&flow);
    vf_solver_destroy(&s);
    return res;
}

VF_HEIGHT_SCENE(vf_height_scene_river, "river", river_preset, river_validate, river_create,
                "a river reach: the grid channel flow past a pillar under a height field (coupling=divergence), "
                "leaves drifting")
