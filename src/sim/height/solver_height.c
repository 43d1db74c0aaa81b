/* solver_height: height-field water (see solver_height.h). */
#include "solver_height.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "export_vti.h"
#include "fileio.h"
#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "text.h"

#define MAX_OBJECTS 4096

/* ------------------------------------------------------------------ passes */

/* The pass enum (HP_*), binding counts and table HP_passes, from height_passes.def. */
#define VF_PASS_FILE "height_passes.def"
#define VF_PASS_PREFIX HP
#define VF_PASS_TABLE_FN vf_height_pass_table
#include "sim_pass_table.h"
#define VF_PI 3.14159265358979323846

/* ------------------------------------------------------------------ params */

#define D(field) offsetof(vf_height_desc, field)
const vf_param_def vf_height_params[VF_HEIGHT_PARAM_COUNT] = {
    {"nx", VF_PARAM_INT, D(nx), 192, 16, 8192, false, NULL, "cells", "grid cells along x"},
    {"ny", VF_PARAM_INT, D(ny), 192, 16, 8192, false, NULL, "cells", "grid cells along y"},
    {"dx", VF_PARAM_DOUBLE, D(dx), 0.04, 0, 1000, true, NULL, "m", "cell size"},
    {"g", VF_PARAM_DOUBLE, D(g), 9.81, 0, 1000, true, NULL, "m/s^2", "gravity"},
    {"surface", VF_PARAM_DOUBLE, D(surface), 1.2, -10000, 10000, false, NULL, "m", "rest water level"},
    {"bed", VF_PARAM_DOUBLE, D(bed), 0, -10000, 10000, false, NULL, "m", "bed elevation of the flat part"},
    {"bed_shape", VF_PARAM_ENUM, D(bed_shape), VF_HEIGHT_BED_FLAT, 0, 0, false, VF_CHOICES(VF_HEIGHT_BED_LIST), "",
     "terrain: flat, a shallow shelf from shelf_x on, a beach rising from shelf_x, a channel with banks"},
    {"shelf_x", VF_PARAM_DOUBLE, D(shelf_x), 0.5, 0, 1, false, NULL, "", "where the shelf or beach starts (fraction of x)"},
    {"shelf_depth", VF_PARAM_DOUBLE, D(shelf_depth), 0.25, 0, 10000, false, NULL, "m", "water depth over the shelf"},
    {"channel_width", VF_PARAM_DOUBLE, D(channel_width), 0.7, 0, 1, true, NULL, "", "flat channel bed (fraction of y)"},
    {"pillar", VF_PARAM_BOOL, D(pillar), 0, 0, 0, false, NULL, "", "a round obstacle"},
    {"pillar_x", VF_PARAM_DOUBLE, D(pillar_x), 0.3, 0, 1, false, NULL, "", "pillar centre (fraction of x)"},
    {"pillar_y", VF_PARAM_DOUBLE, D(pillar_y), 0.5, 0, 1, false, NULL, "", "pillar centre (fraction of y)"},
    {"pillar_r", VF_PARAM_DOUBLE, D(pillar_r), 0.3, 0, 10000, true, NULL, "m", "pillar radius"},
    {"integrator", VF_PARAM_ENUM, D(integrator), VF_HEIGHT_INT_EXPLICIT, 0, 0, false, VF_CHOICES(VF_HEIGHT_INTEGRATOR_LIST), "",
     "explicit (stable for sqrt(g d) dt/dx <= 1/sqrt(2)) or implicit adi (any dt)"},
    {"adi_form", VF_PARAM_ENUM, D(adi_form), VF_HEIGHT_ADI_TRAPEZOIDAL, 0, 0, false, VF_CHOICES(VF_HEIGHT_ADI_FORM_LIST), "",
     "adi weights: trapezoidal (1/4,1/2,1/4, no numerical damping) or kass-miller (1,0,0)"},
    {"dt", VF_PARAM_DOUBLE, D(dt), 0, 0, 10, false, NULL, "s",
     "substep; 0 picks 0.9x the explicit limit (explicit) or up to 4x it (adi)"},
    {"frame_dt", VF_PARAM_DOUBLE, D(frame_dt), 1.0 / 60.0, 0, 10, true, NULL, "s", "simulated time per frame"},
    {"damping", VF_PARAM_DOUBLE, D(damping), 0.02, 0, 1000, false, NULL, "1/s", "damping of the surface velocity"},
    {"edges", VF_PARAM_ENUM, D(edges), VF_HEIGHT_EDGES_WALLS, 0, 0, false, VF_CHOICES(VF_HEIGHT_EDGES_LIST), "",
     "reflecting walls, absorbing edges all round, or absorbing only at the x ends (channels)"},
    {"volume_fix", VF_PARAM_BOOL, D(volume_fix), 1, 0, 0, false, NULL, "",
     "correct volume drift every frame (gpu reduction, depth-proportional shift)"},
    {"init", VF_PARAM_ENUM, D(init), VF_HEIGHT_INIT_REST, 0, 0, false, VF_CHOICES(VF_HEIGHT_INIT_LIST), "",
     "initial surface: at rest, amplitude*cos(pi x/L), or a gaussian bump"},
    {"init_amplitude", VF_PARAM_DOUBLE, D(init_amplitude), 0.05, -1000, 1000, false, NULL, "m", "initial amplitude"},
    {"init_x", VF_PARAM_DOUBLE, D(init_x), 0.5, 0, 1, false, NULL, "", "bump centre (fraction of x)"},
    {"init_y", VF_PARAM_DOUBLE, D(init_y), 0.5, 0, 1, false, NULL, "", "bump centre (fraction of y)"},
    {"init_width", VF_PARAM_DOUBLE, D(init_width), 0.3, 0, 10000, true, NULL, "m", "bump radius"},
    {"rain", VF_PARAM_DOUBLE, D(rain), 0, 0, 1e6, false, NULL, "1/s", "drops per second (deterministic from seed)"},
    {"drop_radius", VF_PARAM_DOUBLE, D(drop_radius), 0.08, 0, 1000, true, NULL, "m", "drop crater radius"},
    {"drop_amplitude", VF_PARAM_DOUBLE, D(drop_amplitude), 0.03, 0, 1000, false, NULL, "m", "drop crater depth"},
    {"seed", VF_PARAM_INT, D(seed), 1, 0, 2147483647, false, NULL, "", "seed of the rain and object placement"},
    {"leaves", VF_PARAM_INT, D(leaves), 0, 0, 2000, false, NULL, "", "floating leaves"},
    {"ducks", VF_PARAM_INT, D(ducks), 0, 0, 2000, false, NULL, "", "floating ducks"},
    {"drag_time", VF_PARAM_DOUBLE, D(drag_time), 0.5, 0, 1000, true, NULL, "s", "how fast floating objects take the flow velocity"},
    {"recycle", VF_PARAM_BOOL, D(recycle), 0, 0, 0, false, NULL, "",
     "floating objects reaching the right end start again at the left (rivers)"},
    {"boat", VF_PARAM_BOOL, D(boat), 0, 0, 0, false, NULL, "", "a boat crossing at wake_speed"},
    {"wake_speed", VF_PARAM_DOUBLE, D(wake_speed), 1.8, 0, 1000, false, NULL, "m/s", "boat speed (Chen & Lobo's WakeSpeed)"},
    {"boat_length", VF_PARAM_DOUBLE, D(boat_length), 1.2, 0, 10000, true, NULL, "m", "hull length"},
    {"boat_width", VF_PARAM_DOUBLE, D(boat_width), 0.45, 0, 10000, true, NULL, "m", "hull width"},
    {"boat_draft", VF_PARAM_DOUBLE, D(boat_draft), 0.12, 0, 1000, false, NULL, "m", "how deep the hull presses the surface"},
    {"boat_y", VF_PARAM_DOUBLE, D(boat_y), 0.5, 0, 1, false, NULL, "", "boat lane (fraction of y)"},
    {"coupling", VF_PARAM_ENUM, D(coupling), VF_HEIGHT_COUPLE_NONE, 0, 0, false, VF_CHOICES(VF_HEIGHT_COUPLING_LIST), "",
     "2D flow coupling: none, pressure (eta = p/(rho g)), divergence (eta -= s delta/(1+eta^2) per flow step)"},
    {"dye", VF_PARAM_BOOL, D(dye), 0, 0, 1, false, NULL, "",
     "(river) coloured dye stripes enter with the flow, drift with its velocity and are drawn on the water"},
    {"strength", VF_PARAM_DOUBLE, D(strength), 0.02, -1e6, 1e6, false, NULL, "m s",
     "divergence coupling s: each flow step adds -s delta/(1+eta^2), delta the divergence of the tentative velocity"},
    {"rho", VF_PARAM_DOUBLE, D(rho), 1000, 0, 1e6, true, NULL, "kg/m^3", "density for the pressure coupling"},
    {"inflow", VF_PARAM_DOUBLE, D(inflow), 0.4, 0, 100, true, NULL, "m/s", "(river) inflow speed of the channel flow"},
    {"re", VF_PARAM_DOUBLE, D(re), 200, 0, 1e6, true, NULL, "", "(river) Reynolds number of the pillar, inflow * 2r / nu"},
    {"flow_cells", VF_PARAM_INT, D(flow_cells), 48, 16, 4096, false, NULL, "cells", "(river) flow grid cells across the channel"},
    {"flow_pressure", VF_PARAM_ENUM, D(flow_pressure), VF_HEIGHT_FLOW_MULTIGRID, 0, 0, false,
     VF_CHOICES(VF_HEIGHT_FLOW_PRESSURE_LIST), "",
     "(river) the flow's pressure solver: multigrid, jacobi, ssor (Klein et al.) or penalty (Chen & Lobo: "
     "eps p + div u = 0, the pressure coupling's p)"},
    {"flow_epsilon", VF_PARAM_DOUBLE, D(flow_epsilon), 0.05, 0, 1e6, true, NULL, "s/m^2",
     "(river) flow_pressure=penalty: the penalty parameter eps (Chen & Lobo used 0.005: ten times the sub-steps)"},
    {"advect", VF_PARAM_BOOL, D(advect), 0, 0, 0, false, NULL, "",
     "carry the surface along the flow velocity every frame (semi-lagrangian), so waves trail downstream"},
};
#undef D
const size_t vf_height_param_count = VF_HEIGHT_PARAM_COUNT;
_Static_assert(sizeof vf_height_params / sizeof vf_height_params[0] == VF_HEIGHT_PARAM_COUNT, "VF_HEIGHT_PARAM_COUNT");

void vf_height_desc_defaults(vf_height_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    vf_params_defaults(vf_height_params, vf_height_param_count, desc);
}

/* ------------------------------------------------------------------ host arithmetic */

float vf_height_hash01(uint32_t seed, uint32_t k)
{
    return (float)(vf_hash(seed ^ vf_hash(k)) >> 8) * (1.0f / 16777216.0f);
}

double vf_height_excess(uint32_t nx, uint32_t ny, const float *eta, const float *bed, const uint32_t *flags,
                        uint32_t *wet, double *depth)
{
    double e = 0.0, dsum = 0.0;
    uint32_t w = 0;
    for (size_t idx = 0; idx < (size_t)nx * ny; idx++) {
        if (flags[idx] & VF_HEIGHT_SOLID)
            continue;
        double d = (double)eta[idx] - (double)bed[idx];
        e += fmax(d, 0.0) - fmax(-(double)bed[idx], 0.0);
        dsum += fmax(d, 0.0);
        w += eta[idx] - bed[idx] > 0.0f;
    }
    if (wet)
        *wet = w;
    if (depth)
        *depth = dsum;
    return e;
}

/* ------------------------------------------------------------------ terrain */

/* Absolute bed elevation at (x, y) (m) and whether the point is solid. */
static double bed_at(const vf_height_desc *d, double x, double y, bool *solid)
{
    const double lx = d->nx * d->dx, ly = d->ny * d->dx, depth = d->surface - d->bed;
    double b = d->bed;
    switch (d->bed_shape) {
    case VF_HEIGHT_BED_SHELF:
        if (x >= d->shelf_x * lx)
            b = d->surface - d->shelf_depth;
        break;
    case VF_HEIGHT_BED_BEACH: {
        double x0 = d->shelf_x * lx;
        if (x > x0 && lx > x0)
            b = d->bed + (x - x0) / (lx - x0) * 1.3 * fabs(depth);
        break;
    }
    case VF_HEIGHT_BED_CHANNEL: {
        double half = 0.5 * d->channel_width * ly, bank = 0.5 * (ly - 2 * half), off = fabs(y - 0.5 * ly) - half;
        if (off > 0 && bank > 0)
            b = d->bed + fmin(1.0, off / bank) * 1.3 * fabs(depth);
        break;
    }
    default: break;
    }
    *solid = false;
    if (d->pillar) {
        double px = x - d->pillar_x * lx, py = y - d->pillar_y * ly;
        *solid = px * px + py * py < d->pillar_r * d->pillar_r;
    }
    return b;
}

/* A level cell's start surface relative to the rest level, or NAN where the
 * rest level applies. */
static double cell_level(const vf_height_desc *d, size_t idx)
{
    return d->level ? d->level[idx] - d->surface : NAN;
}

/* Bed relative to the rest level and flags of every cell; solid cells get a
 * bed above the water (drawn as a column). Returns the largest depth at the
 * start (rest level, or a fluid region's level). */
static double build_terrain(const vf_height_desc *d, float *bed, uint32_t *flags)
{
    double dmax = 0.0;
    const double top = 0.5 * fmax(fabs(d->surface - d->bed), 2 * d->dx);
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++) {
            bool solid;
            const double x = (i + 0.5) * d->dx, y = (j + 0.5) * d->dx;
            double b = bed_at(d, x, y, &solid) - d->surface;
            size_t idx = (size_t)j * d->nx + i;
            solid = solid || (d->solid && d->solid[idx]);
            double level = cell_level(d, idx), depth = (isnan(level) ? 0.0 : fmax(level, 0.0)) - b;
            if (solid) {
                b = fmax(b, 0.0) + top;
            } else if (depth > dmax) {
                dmax = depth;
            }
            if (bed)
                bed[idx] = (float)b;
            if (flags)
                flags[idx] = solid ? VF_HEIGHT_SOLID : 0u;
        }
    return dmax;
}

double vf_height_max_depth(const vf_height_desc *desc)
{
    return build_terrain(desc, NULL, NULL);
}

double vf_height_explicit_limit(const vf_height_desc *desc)
{
    double dmax = vf_height_max_depth(desc);
    return dmax > 0 ? desc->dx / sqrt(2.0 * desc->g * dmax) : 0.0;
}

/* The most substeps one frame may take, checked before any gpu work (a tiny
 * dx would otherwise run a frame for minutes). */
#define VF_HEIGHT_MAX_FRAME_SUBSTEPS 10000

/* The substep a desc runs with. */
static double pick_dt(const vf_height_desc *d, double limit)
{
    if (d->dt > 0)
        return d->dt;
    double cap = d->integrator == VF_HEIGHT_INT_ADI ? 4.0 * limit : 0.9 * limit;
    double n = ceil(d->frame_dt / cap - 1e-9);
    return d->frame_dt / (n < 1 ? 1 : n);
}

vf_result vf_height_validate(const vf_height_desc *d, const char **key, char *err, size_t cap)
{
    if (d->g <= 0) {
        vf_set_key_err(key, err, cap, "g", "=%g: gravity must be positive", d->g);
        return VF_ERR_INVALID_ARG;
    }
    double dmax = vf_height_max_depth(d);
    if (dmax <= 0) {
        vf_set_key_err(key, err, cap,
                 "surface", "=%g: the water depth (surface - bed) is zero or negative everywhere (bed=%g, bed_shape=%s): "
                 "raise surface above the bed or lower the bed",
                 d->surface, d->bed,
                 d->bed_shape == VF_HEIGHT_BED_SHELF   ? "shelf"
                 : d->bed_shape == VF_HEIGHT_BED_BEACH ? "beach"
                 : d->bed_shape == VF_HEIGHT_BED_CHANNEL ? "channel"
                                                       : "flat");
        return VF_ERR_INVALID_ARG;
    }
    double limit = d->dx / sqrt(2.0 * d->g * dmax);
    if (d->integrator == VF_HEIGHT_INT_EXPLICIT && d->dt > limit) {
        vf_set_key_err(key, err, cap,
                 "dt", "=%g: above the explicit stability limit %.4g s (sqrt(g d) dt/dx <= 1/sqrt(2), depth %g m, dx %g m): "
                 "lower dt or use integrator=adi",
                 d->dt, limit, dmax, d->dx);
        return VF_ERR_INVALID_ARG;
    }
    double dt = pick_dt(d, limit);
    if (d->frame_dt / dt > VF_HEIGHT_MAX_FRAME_SUBSTEPS) {
        if (d->dt > 0) /* the key the user set */
            vf_set_key_err(key, err, cap, "dt", "=%g: more than %d substeps per frame (frame_dt=%g): raise dt or lower frame_dt", dt,
                     VF_HEIGHT_MAX_FRAME_SUBSTEPS, d->frame_dt);
        else
            vf_set_key_err(key, err, cap,
                     "dx", "=%g: a cell this small needs %.6g substeps per frame (stability limit %.3g s, frame_dt=%g): at "
                     "most %d: use dx >= %.3g or a smaller frame_dt",
                     d->dx, ceil(d->frame_dt / dt), limit, d->frame_dt, VF_HEIGHT_MAX_FRAME_SUBSTEPS,
                     d->dx * (d->frame_dt / dt) / VF_HEIGHT_MAX_FRAME_SUBSTEPS);
        return VF_ERR_INVALID_ARG;
    }
    if (d->drop_radius < 0.5 * d->dx && d->rain > 0) {
        vf_set_key_err(key, err, cap, "drop_radius", "=%g: smaller than half a cell (dx=%g): raise drop_radius or refine the grid",
                 d->drop_radius, d->dx);
        return VF_ERR_INVALID_ARG;
    }
    if (d->boat && (d->boat_length < 2 * d->dx || d->boat_width < 2 * d->dx)) {
        vf_set_key_err(key, err, cap, "boat_width", "=%g: the hull must span at least 2 cells (dx=%g): make it larger or refine the grid",
                 fmin(d->boat_width, d->boat_length), d->dx);
        return VF_ERR_INVALID_ARG;
    }
    if (d->boat && d->boat_length * 2 >= d->nx * d->dx) {
        vf_set_key_err(key, err, cap, "boat_length", "=%g: the boat needs a domain at least twice its length (%g m): shorten it",
                 d->boat_length, d->nx * d->dx);
        return VF_ERR_INVALID_ARG;
    }
    if ((uint64_t)d->boat + (uint64_t)d->leaves + (uint64_t)d->ducks > MAX_OBJECTS) {
        vf_set_key_err(key, err, cap, "leaves", "=%d: at most %d floating objects in all", d->leaves, MAX_OBJECTS);
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

/* ------------------------------------------------------------------ solver */

typedef struct vf_height {
    vf_solver base;
    vf_height_desc d;
    uint32_t nx, ny, object_count;
    float dx;
    double dt, limit, dmax, carry, sim_time;
    uint64_t step;         /* substeps recorded */
    uint64_t drops;        /* drops started so far */
    uint32_t cur;          /* index of eta^n in eta[] */
    uint32_t partials;     /* volume partial sums (the most workgroups of a pass that may end a frame) and block entries */
    uint32_t rows, end_cells; /* from the desc, or by the device (vf_height_desc) */
    float *good_eta;       /* eta at the last passed check (export_last_good) */
    vf_buffer *eta[3];     /* explicit: 2 ping-pong; adi: n+1, n, n-1 rotating */
    vf_buffer *vel;        /* explicit: velocity of height */
    vf_buffer *mid, *scratch; /* adi: row-sweep result, Thomas c' */
    vf_buffer *bed, *flags, *pres, *objects, *partial, *result, *dummy;
    vf_pipeline *pipe[HP_COUNT];           /* HP_ADVECT only with advect */
    vf_pipeline *pipe_volume[HP_COUNT];    /* volume_fix only: the variants with the volume sum
                                              of the passes that may end a frame (volume_pass) */
    vf_buffer *adv_eta, *adv_second;       /* advect only: the pass's outputs, swapped in */
    float *bed_host;
    uint32_t *flags_host;
    double volume0;        /* m^3 at creation */
    double excess0;        /* excess volume / dx^2 at creation (the target) */
    vf_height_flow flow;
    vf_height_flow_source flow_src; /* an owned flow solver under the surface (river) */
    vf_interaction pointer; /* the viewer's pointer for the next frame */
    double pointer_last;    /* simulated time of the last pointer drop */
} vf_height;

static const vf_solver_vtable height_vt;

bool vf_height_is(const vf_solver *s)
{
    return s && s->vt == &height_vt;
}

static bool is_adi(const vf_height *h)
{
    return h->d.integrator == VF_HEIGHT_INT_ADI;
}

static uint32_t prev_index(const vf_height *h)
{
    return (h->cur + 2) % 3;
}

static uint32_t next_index(const vf_height *h)
{
    return is_adi(h) ? (h->cur + 1) % 3 : h->cur ^ 1u;
}

static size_t cells(const vf_height *h)
{
    return (size_t)h->nx * h->ny;
}

/* Copies host data into a buffer with barriers on both sides (safe between
 * frames of any earlier GPU use). Waits. */
static vf_result upload(vf_buffer *buf, const void *data, VkDeviceSize size)
{
    vf_gpu *gpu = buf->gpu;
    vf_buffer *st = NULL;
    vf_buffer_desc sd = {.size = size, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT, .memory = VF_MEMORY_UPLOAD,
                         .name = "height upload"};
    vf_result res = vf_buffer_create(gpu, &sd, &st);
    if (res != VF_OK)
        return res;
    memcpy(st->mapped, data, (size_t)size);
    VkCommandBuffer cmd;
    if ((res = vf_buffer_flush(st, 0, size)) == VF_OK && (res = vf_cmd_oneshot_begin(gpu, &cmd)) == VF_OK) {
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferCopy region = {.size = size};
        vkCmdCopyBuffer(cmd, st->buffer, buf->buffer, 1, &region);
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        res = vf_cmd_oneshot_submit(gpu, cmd);
    }
    vf_buffer_destroy(&st);
    return res;
}

static void height_destroy(vf_solver *s)
{
    vf_height *h = (vf_height *)s;
    free(h->good_eta);
    vf_solver_destroy(&h->flow_src.solver);
    for (int i = 0; i < HP_COUNT; i++)
        vf_pipeline_destroy(&h->pipe[i]);
    for (int i = 0; i < HP_COUNT; i++)
        vf_pipeline_destroy(&h->pipe_volume[i]);
    vf_buffer_destroy(&h->adv_eta);
    vf_buffer_destroy(&h->adv_second);
    for (int i = 0; i < 3; i++)
        vf_buffer_destroy(&h->eta[i]);
    vf_buffer_destroy(&h->vel);
    vf_buffer_destroy(&h->mid);
    vf_buffer_destroy(&h->scratch);
    vf_buffer_destroy(&h->bed);
    vf_buffer_destroy(&h->flags);
    vf_buffer_destroy(&h->pres);
    vf_buffer_destroy(&h->objects);
    vf_buffer_destroy(&h->partial);
    vf_buffer_destroy(&h->result);
    vf_buffer_destroy(&h->dummy);
    free(h->bed_host);
    free(h->flags_host);
    free(h);
}

/* Boat centre and heading at simulated time t: back and forth along x on
 * its lane, turning at a boat length from each end. */
static void boat_at(const vf_height *h, double t, double *x, double *y, double *heading)
{
    const double lx = h->nx * h->dx, m = h->d.boat_length, run = lx - 2 * m;
    double s = fmod(h->d.wake_speed * t, 2 * run);
    if (s < run) {
        *x = m + s;
        *heading = 0.0;
    } else {
        *x = m + 2 * run - s;
        *heading = VF_PI;
    }
    *y = h->d.boat_y * h->ny * h->dx;
}

vf_height_step_push vf_height_step_params(const vf_solver *s, double t)
{
    const vf_height *h = (const vf_height *)s;
    vf_height_step_push p = {
        .nx = h->nx,
        .ny = h->ny,
        .dx = h->dx,
        .g = (float)h->d.g,
        .dt = (float)h->dt,
        .damping = (float)h->d.damping,
        .wa = 0.25f,
        .wb = 0.5f,
        .wc = 0.25f,
    };
    if (h->d.adi_form == VF_HEIGHT_ADI_KASS_MILLER) {
        p.wa = 1.0f;
        p.wb = 0.0f;
        p.wc = 0.0f;
    }
    if (h->d.coupling == VF_HEIGHT_COUPLE_PRESSURE)
        p.flags |= VF_HEIGHT_STEP_PRES;
    if (h->d.edges == VF_HEIGHT_EDGES_ABSORBING)
        p.radiate = VF_HEIGHT_SIDE_LEFT | VF_HEIGHT_SIDE_RIGHT | VF_HEIGHT_SIDE_BOTTOM | VF_HEIGHT_SIDE_TOP;
    else if (h->d.edges == VF_HEIGHT_EDGES_OPEN_ENDS)
        p.radiate = VF_HEIGHT_SIDE_LEFT | VF_HEIGHT_SIDE_RIGHT;
    if (h->d.boat) {
        double bx, by, hd;
        boat_at(h, t, &bx, &by, &hd);
        p.flags |= VF_HEIGHT_STEP_HULL;
        p.hull_x = (float)bx;
        p.hull_y = (float)by;
        p.hull_a = (float)(0.5 * h->d.boat_length);
        p.hull_b = (float)(0.5 * h->d.boat_width);
        /* the hull settles in over the time it takes to move one length
         * (0.25 to 1 s; no start-up ring from switching the pressure on at once) */
        double ramp = h->d.wake_speed > 0 ? fmin(fmax(h->d.boat_length / h->d.wake_speed, 0.25), 1.0) : 1.0;
        double k = fmin(t / ramp, 1.0);
        p.hull_draft = (float)(h->d.boat_draft * k * k * (3 - 2 * k));
        p.hull_cos = (float)cos(hd);
        p.hull_sin = (float)sin(hd);
    }
    return p;
}

vf_height_disturb_push vf_height_disturb_params(const vf_solver *s, uint64_t step)
{
    const vf_height *h = (const vf_height *)s;
    vf_height_disturb_push p = {
        .nx = h->nx,
        .ny = h->ny,
        .dx = h->dx,
        .dt = (float)h->dt,
        .seed = (uint32_t)h->d.seed,
        .drop_base = (uint32_t)h->drops,
        .flags = (is_adi(h) ? VF_HEIGHT_DISTURB_PREV : 0u) | (h->flow.pressure ? VF_HEIGHT_DISTURB_TRACK_P : 0u),
        .drop_sigma = (float)h->d.drop_radius,
        /* the pointer's drop: a hand in the water rather than a raindrop, at
         * least 4 cells wide, so its rings are waves the grid carries (a
         * 2-cell crater's energy sits at wavelengths of 2 to 4 cells, which
         * the 5-point stencil slows and smears into a faint speckle) */
        .user_sigma = (float)fmax(h->d.drop_radius, 4.0 * h->dx),
        .drop_amp = (float)h->d.drop_amplitude,
        .coupling = (uint32_t)h->d.coupling,
        .strength = (float)h->d.strength,
        .inv_rho_g = (float)((h->flow.pressure_scale > 0 ? h->flow.pressure_scale : 1.0) / (h->d.rho * h->d.g)),
        .flow_nx = h->flow.nx ? h->flow.nx : 1,
        .flow_ny = h->flow.ny ? h->flow.ny : 1,
        .div_scale = h->flow.divergence_scale > 0 ? h->flow.divergence_scale : 1.0f,
        .edge_cells = h->flow.edge_cells,
    };
    if (h->d.rain > 0) {
        /* expected rain * dt drops: the whole part always, the fraction with
         * that probability (hash of the step: deterministic) */
        double lambda = h->d.rain * h->dt, whole = floor(lambda);
        uint32_t n = (uint32_t)whole;
        if (vf_height_hash01((uint32_t)h->d.seed ^ 0x9e3779b9u, (uint32_t)step) < (float)(lambda - whole))
            n++;
        p.drop_count = n < VF_HEIGHT_MAX_DROPS_PER_STEP ? n : VF_HEIGHT_MAX_DROPS_PER_STEP;
    }
    return p;
}

double vf_height_dt(const vf_solver *s)
{
    return ((const vf_height *)s)->dt;
}

/* Whether pass may end a frame, and so has a variant with the volume sum. */
static bool volume_pass(int pass)
{
    return pass == HP_EXPLICIT || pass == HP_ADI_Y || pass == HP_DISTURB;
}

/* One pass: its profiler scope (named in height_passes.def), the dispatch
 * of gx x gy groups (threads_1d > 0: that many threads in 1D instead), and
 * the barrier after it. With volume, the pass's variant with the volume sum. */
static void run_pass(vf_height *h, VkCommandBuffer cmd, vf_profiler *prof, int pass, const vf_binding *b,
                     const void *push, uint32_t gx, uint32_t gy, uint64_t threads_1d, bool volume)
{
    vf_pipeline *pipe = volume ? h->pipe_volume[pass] : h->pipe[pass];
    if (threads_1d)
        vf_sim_pass_record_1d(h->base.gpu, cmd, prof, &HP_passes[pass], pipe, b, push, threads_1d);
    else
        vf_sim_pass_record(h->base.gpu, cmd, prof, &HP_passes[pass], pipe, b, push, gx, gy, 1);
}

static vf_binding bb(vf_buffer *b)
{
    return vf_bind_buffer(b);
}

static uint32_t groups(uint32_t n, uint32_t wg)
{
    return (n + wg - 1) / wg;
}

/* The bindings of an ADI sweep: rhs in, solution out (the column sweep's
 * volume sum bindings too; the row sweep has the first six only). */
static void sweep_bindings(vf_height *h, vf_buffer *eta, vf_buffer *in, vf_buffer *out,
                           vf_binding b[VF_MAX_BINDINGS])
{
    b[VF_HEIGHT_SWEEP_BIND_ETA] = bb(eta);
    b[VF_HEIGHT_SWEEP_BIND_IN] = bb(in);
    b[VF_HEIGHT_SWEEP_BIND_OUT] = bb(out);
    b[VF_HEIGHT_SWEEP_BIND_SCRATCH] = bb(h->scratch);
    b[VF_HEIGHT_SWEEP_BIND_BED] = bb(h->bed);
    b[VF_HEIGHT_SWEEP_BIND_FLAGS] = bb(h->flags);
    b[VF_HEIGHT_SWEEP_BIND_PARTIAL] = bb(h->partial);
    b[VF_HEIGHT_SWEEP_BIND_RESULT] = bb(h->result);
}

/* Whether a substep with this disturbance push records the disturbance pass. */
static bool disturbs(const vf_height_disturb_push *dp)
{
    return dp->drop_count > 0 || dp->coupling != VF_HEIGHT_COUPLE_NONE || dp->user_amp != 0.0f ||
           (dp->flags & VF_HEIGHT_DISTURB_TRACK_P);
}

/* One substep: the integrator, then disturbances (when any). With volume
 * (the frame's last substep) the last of its passes also sums the volume of
 * its output into h->result (height_volume_sum.glsl). */
static void record_substep(vf_height *h, VkCommandBuffer cmd, vf_profiler *prof, const vf_height_step_push *sp,
                           const vf_height_disturb_push *dp, bool volume)
{
    const bool disturb = disturbs(dp);
    volume = volume && h->pipe_volume[HP_DISTURB]; /* the variants exist with volume_fix */
    const uint32_t gx = groups(h->nx, VF_WG_2D_X), gy = groups(h->ny, VF_WG_2D_Y);
    const uint32_t gy_rows = groups(h->ny, VF_WG_2D_Y * h->rows); /* explicit and disturb: h->rows rows each */
    vf_buffer *eta = h->eta[h->cur];
    vf_height_step_push last = *sp; /* the push of the step's last pass */
    last.volume_target = (float)h->excess0;
    /* the wave step first, then the disturbances on its result: a continuous
     * source (the divergence coupling) added before the step would be taken
     * straight back by it (the velocity of height settles at minus the
     * source), leaving a grid-scale sawtooth of -source * dt in every state
     * the frame ends with, and that was what the views showed: a dip where
     * the flow converges. Added last, the frame ends on the disturbed state,
     * whose smooth part is the damped response. Drops and the pressure
     * coupling are the same either way, a substep later. */
    if (!is_adi(h)) {
        vf_buffer *out = h->eta[next_index(h)];
        vf_binding b[VF_MAX_BINDINGS] = {
            [VF_HEIGHT_EXPL_BIND_ETA] = bb(eta),        [VF_HEIGHT_EXPL_BIND_ETA_OUT] = bb(out),
            [VF_HEIGHT_EXPL_BIND_VEL] = bb(h->vel),     [VF_HEIGHT_EXPL_BIND_BED] = bb(h->bed),
            [VF_HEIGHT_EXPL_BIND_FLAGS] = bb(h->flags), [VF_HEIGHT_EXPL_BIND_PRES] = bb(h->pres),
            [VF_HEIGHT_EXPL_BIND_PARTIAL] = bb(h->partial), [VF_HEIGHT_EXPL_BIND_RESULT] = bb(h->result),
        };
        run_pass(h, cmd, prof, HP_EXPLICIT, b, &last, gx, gy_rows, 0, volume && !disturb);
    } else {
        vf_buffer *prev = h->eta[prev_index(h)], *next = h->eta[next_index(h)];
        vf_binding rb[VF_MAX_BINDINGS] = {
            [VF_HEIGHT_RHS_BIND_ETA] = bb(eta),        [VF_HEIGHT_RHS_BIND_PREV] = bb(prev),
            [VF_HEIGHT_RHS_BIND_OUT] = bb(next),       [VF_HEIGHT_RHS_BIND_BED] = bb(h->bed),
            [VF_HEIGHT_RHS_BIND_FLAGS] = bb(h->flags), [VF_HEIGHT_RHS_BIND_PRES] = bb(h->pres),
        };
        vf_height_step_push q = *sp;
        run_pass(h, cmd, prof, HP_ADI_RHS, rb, &q, gx, gy, 0, false);
        q.axis = 0;
        vf_binding xb[VF_MAX_BINDINGS];
        sweep_bindings(h, eta, next, h->mid, xb);
        run_pass(h, cmd, prof, HP_ADI_X, xb, &q, groups(h->ny, VF_HEIGHT_SWEEP_WG), 1, 0, false);
        last.axis = 1;
        vf_binding yb[VF_MAX_BINDINGS];
        sweep_bindings(h, eta, h->mid, next, yb);
        run_pass(h, cmd, prof, HP_ADI_Y, yb, &last, groups(h->nx, VF_HEIGHT_SWEEP_WG), 1, 0, volume && !disturb);
    }
    h->cur = next_index(h);
    eta = h->eta[h->cur];
    if (disturb) {
        vf_buffer *flow_p = h->flow.pressure ? h->flow.pressure : h->dummy;
        vf_buffer *flow_div = h->flow.divergence ? h->flow.divergence : h->dummy;
        vf_height_disturb_push q = *dp;
        q.volume_target = (float)h->excess0;
        if (!h->flow.pressure)
            q.flags &= ~VF_HEIGHT_DISTURB_TRACK_P;
        if (!h->flow.divergence && q.coupling == VF_HEIGHT_COUPLE_DIVERGENCE)
            q.flow_nx = q.flow_ny = 1; /* reads the zero dummy */
        vf_binding b[VF_MAX_BINDINGS] = {
            [VF_HEIGHT_DIST_BIND_ETA] = bb(eta),
            [VF_HEIGHT_DIST_BIND_PREV] = bb(is_adi(h) ? h->eta[prev_index(h)] : eta),
            [VF_HEIGHT_DIST_BIND_BED] = bb(h->bed),
            [VF_HEIGHT_DIST_BIND_FLAGS] = bb(h->flags),
            [VF_HEIGHT_DIST_BIND_PRES] = bb(h->pres),
            [VF_HEIGHT_DIST_BIND_FLOW_P] = bb(flow_p),
            [VF_HEIGHT_DIST_BIND_FLOW_DIV] = bb(flow_div),
            [VF_HEIGHT_DIST_BIND_PARTIAL] = bb(h->partial),
            [VF_HEIGHT_DIST_BIND_RESULT] = bb(h->result),
        };
        run_pass(h, cmd, prof, HP_DISTURB, b, &q, gx, gy_rows, 0, volume);
    }
}

vf_height_objects_push vf_height_objects_params(const vf_solver *s)
{
    const vf_height *h = (const vf_height *)s;
    vf_height_objects_push p = {
        .nx = h->nx,
        .ny = h->ny,
        .dx = h->dx,
        .g = (float)h->d.g,
        .dt = (float)h->d.frame_dt,
        .count = h->object_count,
        .tau = (float)h->d.drag_time,
        .flow = h->flow.velocity ? 1u : 0u,
        .flow_nx = h->flow.velocity ? h->flow.nx : 1u,
        .flow_ny = h->flow.velocity ? h->flow.ny : 1u,
        .boat = h->d.boat ? 1u : 0u,
        .boat_speed = (float)h->d.wake_speed,
        .time = (float)h->sim_time,
        .flow_layout = h->flow.layout,
        .vel_scale = h->flow.velocity_scale > 0 ? h->flow.velocity_scale : 1.0f,
        .recycle = h->d.recycle ? 1u : 0u,
    };
    if (h->d.boat) {
        double bx, by, hd;
        boat_at(h, h->sim_time, &bx, &by, &hd);
        p.boat_x = (float)bx;
        p.boat_y = (float)by;
        p.boat_heading = (float)hd;
    }
    return p;
}

/* The frame's end, one dispatch: the objects (op, NULL for none) on the
 * frame's surface, and with apply the volume correction computed by the
 * frame's last pass, written to the spare eta slot, which then becomes the
 * current one (the objects read the surface before the correction, so the
 * two never touch the same written data). */
static void record_frame_end(vf_height *h, VkCommandBuffer cmd, vf_profiler *prof, const vf_height_objects_push *op,
                             bool apply)
{
    vf_height_objects_push p = op ? *op : (vf_height_objects_push){.nx = h->nx, .ny = h->ny};
    p.end_flags = apply ? VF_HEIGHT_END_APPLY | (is_adi(h) ? VF_HEIGHT_END_PREV : 0u) : 0u;
    p.end_cells = h->end_cells;
    const uint64_t object_groups = groups(p.count, VF_HEIGHT_END_WG);
    const uint64_t cell_groups = apply ? groups((uint32_t)cells(h), VF_HEIGHT_END_WG * h->end_cells) : 0;
    if (object_groups + cell_groups == 0)
        return;
    vf_buffer *out = apply ? h->eta[next_index(h)] : h->dummy;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_HEIGHT_END_BIND_ETA] = bb(h->eta[h->cur]),
        [VF_HEIGHT_END_BIND_BED] = bb(h->bed),
        [VF_HEIGHT_END_BIND_FLAGS] = bb(h->flags),
        [VF_HEIGHT_END_BIND_OBJECTS] = bb(h->objects),
        [VF_HEIGHT_END_BIND_FLOW_VEL] = bb(h->flow.velocity ? h->flow.velocity : h->dummy),
        [VF_HEIGHT_END_BIND_FLOW_V] = bb(h->flow.velocity_v ? h->flow.velocity_v : h->dummy),
        [VF_HEIGHT_END_BIND_ETA_OUT] = bb(out),
        [VF_HEIGHT_END_BIND_PREV] = bb(apply && is_adi(h) ? h->eta[prev_index(h)] : h->dummy),
        [VF_HEIGHT_END_BIND_RESULT] = bb(h->result),
    };
    run_pass(h, cmd, prof, HP_FRAME_END, b, &p, 0, 0, (object_groups + cell_groups) * VF_HEIGHT_END_WG, false);
    if (apply) {
        h->eta[next_index(h)] = h->eta[h->cur];
        h->eta[h->cur] = out;
    }
}

vf_height_advect_push vf_height_advect_params(const vf_solver *s)
{
    const vf_height *h = (const vf_height *)s;
    return (vf_height_advect_push){
        .nx = h->nx,
        .ny = h->ny,
        .dx = h->dx,
        .dt = (float)h->d.frame_dt,
        .flow_nx = h->flow.velocity ? h->flow.nx : 1u,
        .flow_ny = h->flow.velocity ? h->flow.ny : 1u,
        .flow_layout = h->flow.layout,
        .vel_scale = h->flow.velocity_scale > 0 ? h->flow.velocity_scale : 1.0f,
    };
}

/* The state array that travels with eta: the velocity of height (explicit)
 * or eta^(n-1) (adi). */
static vf_buffer **second_slot(vf_height *h)
{
    return is_adi(h) ? &h->eta[prev_index(h)] : &h->vel;
}

/* Semi-Lagrangian advection of eta and the second array into the adv
 * buffers, which then take their places (pointer swap, no copy). */
static void record_advect(vf_height *h, VkCommandBuffer cmd, vf_profiler *prof, const vf_height_advect_push *p)
{
    vf_buffer **second = second_slot(h), *tmp;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_HEIGHT_ADV_BIND_ETA] = bb(h->eta[h->cur]),
        [VF_HEIGHT_ADV_BIND_SECOND] = bb(*second),
        [VF_HEIGHT_ADV_BIND_ETA_OUT] = bb(h->adv_eta),
        [VF_HEIGHT_ADV_BIND_SECOND_OUT] = bb(h->adv_second),
        [VF_HEIGHT_ADV_BIND_BED] = bb(h->bed),
        [VF_HEIGHT_ADV_BIND_FLAGS] = bb(h->flags),
        [VF_HEIGHT_ADV_BIND_FLOW_VEL] = bb(h->flow.velocity),
        [VF_HEIGHT_ADV_BIND_FLOW_V] = bb(h->flow.velocity_v ? h->flow.velocity_v : h->dummy),
    };
    run_pass(h, cmd, prof, HP_ADVECT, b, p, groups(h->nx, VF_WG_2D_X), groups(h->ny, VF_WG_2D_Y), 0, false);
    tmp = h->eta[h->cur];
    h->eta[h->cur] = h->adv_eta;
    h->adv_eta = tmp;
    tmp = *second;
    *second = h->adv_second;
    h->adv_second = tmp;
}

vf_result vf_height_run_advect(vf_solver *s, const vf_height_advect_push *push)
{
    vf_height *h = (vf_height *)s;
    if (!h->pipe[HP_ADVECT] || !h->flow.velocity)
        return VF_ERR_INVALID_ARG;
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(h->base.gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_cmd_barrier_compute_on(h->base.gpu, cmd);
    record_advect(h, cmd, NULL, push);
    return vf_cmd_oneshot_submit(h->base.gpu, cmd);
}

/* Substeps per submit (vt->submit_substeps): an explicit substep is one
 * pass over the grid, an ADI substep four; at 4096^2 a fast GPU takes a few
 * ms for the latter, so 16 keep a submit in the tens of ms. Frames may take
 * up to VF_HEIGHT_MAX_FRAME_SUBSTEPS substeps (vf_height_validate). */
#define HEIGHT_SUBMIT_SUBSTEPS 16

static void height_part_begin(vf_solver *s, VkCommandBuffer cmd)
{
    /* the previous frame's or part's (or an upload's) writes -> this one */
    vf_cmd_barrier_compute_on(s->gpu, cmd);
}

static vf_result height_frame_begin(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t *substeps)
{
    vf_height *h = (vf_height *)s;
    /* the flow, advection, the substep count */
    if (h->flow_src.solver) {
        /* the flow under the surface first (its whole frame); then its current buffers */
        vf_result res = vf_solver_record_frame(h->flow_src.solver, cmd, prof);
        if (res != VF_OK)
            return res;
        vf_cmd_barrier_compute_on(h->base.gpu, cmd);
        vf_height_flow f = {0};
        h->flow_src.bind(h->flow_src.solver, &f);
        if ((res = vf_height_set_flow(s, &f)) != VF_OK)
            return res;
    }
    if (h->pipe[HP_ADVECT] && h->flow.velocity) {
        vf_height_advect_push ap = vf_height_advect_params(s);
        record_advect(h, cmd, prof, &ap);
    }
    double avail = h->d.frame_dt + h->carry;
    uint64_t n = (uint64_t)floor(avail / h->dt + 1e-6);
    h->carry = avail - (double)n * h->dt;
    if (h->carry < 0)
        h->carry = 0;
    *substeps = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n; /* at most VF_HEIGHT_MAX_FRAME_SUBSTEPS (validate) */
    return VF_OK;
}

static vf_result height_record_substep(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t index)
{
    vf_height *h = (vf_height *)s;
    vf_height_step_push sp = vf_height_step_params(s, h->sim_time);
    vf_height_disturb_push dp = vf_height_disturb_params(s, h->step);
    if (index == 0 && h->pointer.active && h->sim_time - h->pointer_last >= 0.1) {
        /* one drop (left button) or bump (right) every 0.1 s while held */
        dp.user_x = h->pointer.pos[0] * (float)(h->nx * h->d.dx);
        dp.user_y = h->pointer.pos[1] * (float)(h->ny * h->d.dx);
        dp.user_amp = (float)(h->pointer.button == 1 ? -h->d.drop_amplitude : h->d.drop_amplitude) * 2.0f;
        h->pointer_last = h->sim_time;
    }
    record_substep(h, cmd, prof, &sp, &dp, h->d.volume_fix && index + 1 == s->frame_substeps);
    h->drops += dp.drop_count;
    h->step++;
    h->sim_time += h->dt;
    return VF_OK;
}

static vf_result height_frame_end(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    vf_height *h = (vf_height *)s;
    vf_height_objects_push op = vf_height_objects_params(s);
    /* the last substep summed the volume (none without substeps: nothing to correct) */
    record_frame_end(h, cmd, prof, &op, h->d.volume_fix && s->frame_substeps > 0);
    return VF_OK;
}

static vf_result height_frame_done(vf_solver *s)
{
    vf_height *h = (vf_height *)s;
    if (h->flow_src.solver) {
        vf_result res = vf_solver_frame_done(h->flow_src.solver);
        if (res != VF_OK)
            return res;
    }
    s->time += h->d.frame_dt;
    return VF_OK;
}

vf_result vf_height_record_step(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, const vf_height_step_push *sp,
                                const vf_height_disturb_push *dp, bool volume)
{
    vf_height *h = (vf_height *)s;
    vf_cmd_barrier_compute_on(h->base.gpu, cmd);
    record_substep(h, cmd, prof, sp, dp, volume);
    h->drops += dp->drop_count;
    h->step++;
    h->sim_time += sp->dt;
    s->steps++;
    return VF_OK;
}

/* ------------------------------------------------------------------ readback */

vf_result vf_height_download(vf_solver *s, float *eta, float *second)
{
    vf_height *h = (vf_height *)s;
    VkDeviceSize bytes = cells(h) * sizeof(float);
    vf_result res = vf_buffer_read(h->eta[h->cur], 0, eta, bytes);
    if (res == VF_OK && second)
        res = vf_buffer_read(is_adi(h) ? h->eta[prev_index(h)] : h->vel, 0, second, bytes);
    return res;
}

vf_result vf_height_upload(vf_solver *s, const float *eta, const float *second)
{
    vf_height *h = (vf_height *)s;
    VkDeviceSize bytes = cells(h) * sizeof(float);
    vf_result res = upload(h->eta[h->cur], eta, bytes);
    if (res == VF_OK && second)
        res = upload(is_adi(h) ? h->eta[prev_index(h)] : h->vel, second, bytes);
    return res;
}

static double volume_of(const vf_height *h, const float *eta)
{
    double v = 0.0;
    for (size_t i = 0; i < cells(h); i++)
        if (!(h->flags_host[i] & VF_HEIGHT_SOLID))
            v += fmax((double)eta[i] - (double)h->bed_host[i], 0.0);
    return v * (double)h->dx * (double)h->dx;
}

vf_result vf_height_volume(vf_solver *s, double *volume)
{
    vf_height *h = (vf_height *)s;
    float *eta = malloc(cells(h) * sizeof(float));
    if (!eta)
        return VF_ERR_NO_MEMORY;
    vf_result res = vf_height_download(s, eta, NULL);
    if (res == VF_OK)
        *volume = volume_of(h, eta);
    free(eta);
    return res;
}

vf_result vf_height_read_objects(vf_solver *s, vf_height_object *out)
{
    vf_height *h = (vf_height *)s;
    if (!h->object_count)
        return VF_OK;
    return vf_buffer_read(h->objects, 0, out, h->object_count * sizeof(vf_height_object));
}

/* The largest disturbance a scene is expected to make (m): what 2D views
 * show at full colour. */
static double display_scale(const vf_height *h)
{
    const vf_height_desc *d = &h->d;
    double s = 0.002 * h->dmax;
    if (d->init != VF_HEIGHT_INIT_REST)
        s = fmax(s, 0.5 * fabs(d->init_amplitude));
    if (d->rain > 0)
        s = fmax(s, 0.15 * d->drop_amplitude); /* ripples spread: a fraction of the crater depth */
    if (d->boat)
        s = fmax(s, 0.25 * d->boat_draft);
    if (d->coupling != VF_HEIGHT_COUPLE_NONE)
        s = fmax(s, 0.01 * h->dmax);
    return s;
}

void vf_height_get_state(const vf_solver *s, vf_height_state *out)
{
    const vf_height *h = (const vf_height *)s;
    *out = (vf_height_state){
        .eta = h->eta[h->cur],
        .bed = h->bed,
        .flags = h->flags,
        .pres = h->pres,
        .objects = h->objects,
        .nx = h->nx,
        .ny = h->ny,
        .object_count = h->object_count,
        .dx = h->dx,
        .surface = (float)h->d.surface,
        .g = (float)h->d.g,
        .max_depth = (float)h->dmax,
        .display_scale = (float)display_scale(h),
        .time = h->sim_time,
        .coupling = h->d.coupling,
        .dye = {h->flow.dye[0], h->flow.dye[1], h->flow.dye[2]},
        .flow_nx = h->flow.nx,
        .flow_ny = h->flow.ny,
    };
}

vf_result vf_height_attach_flow_solver(vf_solver *s, const vf_height_flow_source *src)
{
    vf_height *h = (vf_height *)s;
    if (!src || !src->solver || !src->bind || h->flow_src.solver)
        return VF_ERR_INVALID_ARG;
    if (fabs(src->solver->frame_dt - h->d.frame_dt) > 1e-9 * h->d.frame_dt)
        return VF_ERR_INVALID_ARG;
    h->flow_src = *src;
    vf_height_flow f = {0};
    src->bind(src->solver, &f);
    return vf_height_set_flow(s, &f);
}

vf_result vf_height_set_flow(vf_solver *s, const vf_height_flow *flow)
{
    vf_height *h = (vf_height *)s;
    if (!flow) {
        memset(&h->flow, 0, sizeof h->flow);
        return VF_OK;
    }
    if ((flow->pressure || flow->divergence || flow->velocity) && (!flow->nx || !flow->ny))
        return VF_ERR_INVALID_ARG;
    if (flow->layout != VF_HEIGHT_FLOW_CELL && flow->layout != VF_HEIGHT_FLOW_MAC)
        return VF_ERR_INVALID_ARG;
    const VkDeviceSize f = sizeof(float), need = (VkDeviceSize)flow->nx * flow->ny * f;
    if ((flow->pressure && flow->pressure->size < need) || (flow->divergence && flow->divergence->size < need))
        return VF_ERR_INVALID_ARG;
    if (flow->layout == VF_HEIGHT_FLOW_CELL && flow->velocity && flow->velocity->size < 2 * need)
        return VF_ERR_INVALID_ARG;
    if (flow->layout == VF_HEIGHT_FLOW_MAC && flow->velocity &&
        (!flow->velocity_v || flow->velocity->size < (VkDeviceSize)(flow->nx + 1) * flow->ny * f ||
         flow->velocity_v->size < (VkDeviceSize)flow->nx * (flow->ny + 1) * f))
        return VF_ERR_INVALID_ARG;
    for (int c = 0; c < 3; c++)
        if (flow->dye[c] && (!flow->dye[0] || !flow->dye[1] || !flow->dye[2] || flow->dye[c]->size < need))
            return VF_ERR_INVALID_ARG;
    h->flow = *flow;
    return VF_OK;
}

/* One-shot helpers for tests: record, submit, wait. */
vf_result vf_height_run_sweep(vf_solver *s, const vf_height_step_push *push, const float *rhs, float *out)
{
    vf_height *h = (vf_height *)s;
    VkDeviceSize bytes = cells(h) * sizeof(float);
    vf_buffer *in = NULL, *res_buf = NULL;
    vf_buffer_desc bd = {.size = bytes, .name = "height sweep test in"};
    vf_result res = vf_buffer_create(h->base.gpu, &bd, &in);
    bd.name = "height sweep test out";
    if (res == VF_OK)
        res = vf_buffer_create(h->base.gpu, &bd, &res_buf);
    if (res == VF_OK)
        res = upload(in, rhs, bytes);
    VkCommandBuffer cmd;
    if (res == VF_OK && (res = vf_cmd_oneshot_begin(h->base.gpu, &cmd)) == VF_OK) {
        vf_binding b[VF_MAX_BINDINGS];
        sweep_bindings(h, h->eta[h->cur], in, res_buf, b);
        uint32_t lines = push->axis == 0 ? h->ny : h->nx;
        vf_cmd_dispatch(cmd, h->pipe[push->axis == 0 ? HP_ADI_X : HP_ADI_Y], b, push, groups(lines, VF_HEIGHT_SWEEP_WG),
                        1, 1);
        res = vf_cmd_oneshot_submit(h->base.gpu, cmd);
    }
    if (res == VF_OK)
        res = vf_buffer_read(res_buf, 0, out, bytes);
    vf_buffer_destroy(&in);
    vf_buffer_destroy(&res_buf);
    return res;
}

vf_result vf_height_run_frame_end(vf_solver *s, const vf_height_objects_push *objects, bool apply)
{
    vf_height *h = (vf_height *)s;
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(h->base.gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_cmd_barrier_compute_on(h->base.gpu, cmd);
    record_frame_end(h, cmd, NULL, objects, apply);
    return vf_cmd_oneshot_submit(h->base.gpu, cmd);
}

vf_result vf_height_read_volume_result(vf_solver *s, vf_height_volume_result *out)
{
    return vf_buffer_read(((vf_height *)s)->result, 0, out, sizeof *out);
}

/* ------------------------------------------------------------------ export, summary, check */

/* Writes height_INDEX.csv and height_INDEX.vti from a host copy of eta. */
static vf_result write_eta(vf_height *h, const char *dir, uint32_t index, const float *eta)
{
    size_t n = cells(h);
    float *hs = malloc(n * sizeof(float)), *bs = malloc(n * sizeof(float)), *depth = malloc(n * sizeof(float));
    vf_result res = hs && bs && depth ? VF_OK : VF_ERR_NO_MEMORY;
    if (res != VF_OK)
        goto done;
    const float surf = (float)h->d.surface;
    for (size_t i = 0; i < n; i++) {
        hs[i] = surf + eta[i];
        bs[i] = surf + h->bed_host[i];
        depth[i] = (h->flags_host[i] & VF_HEIGHT_SOLID) ? 0.0f : fmaxf(eta[i] - h->bed_host[i], 0.0f);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/height_%04u.csv", dir, index);
    vf_file file;
    if ((res = vf_file_begin(&file, path)) != VF_OK)
        goto done;
    fprintf(file.f, "x,y,h,bed\n");
    for (uint32_t j = 0; j < h->ny; j++)
        for (uint32_t i = 0; i < h->nx; i++) {
            size_t idx = (size_t)j * h->nx + i;
            fprintf(file.f, "%.6g,%.6g,%.7g,%.7g\n", (i + 0.5) * h->d.dx, (j + 0.5) * h->d.dx, hs[idx], bs[idx]);
        }
    if ((res = vf_file_commit(&file)) != VF_OK)
        goto done;
    snprintf(path, sizeof path, "%s/height_%04u.vti", dir, index);
    vf_vti_field fields[4] = {{"h", 1, hs}, {"bed", 1, bs}, {"depth", 1, depth}, {"eta", 1, eta}};
    vf_vti_desc vd = {.nx = h->nx, .ny = h->ny, .nz = 1, .origin = {0.5 * h->d.dx, 0.5 * h->d.dx, 0},
                      .spacing = {h->d.dx, h->d.dx, h->d.dx}, .fields = fields, .field_count = 4,
                      .compression = h->base.vti_compression};
    res = vf_vti_write(path, &vd);
done:
    free(hs);
    free(bs);
    free(depth);
    return res;
}

static vf_result height_export(vf_solver *s, const char *dir, uint32_t index)
{
    vf_height *h = (vf_height *)s;
    float *eta = malloc(cells(h) * sizeof(float));
    vf_result res = eta ? vf_height_download(s, eta, NULL) : VF_ERR_NO_MEMORY;
    if (res == VF_OK)
        res = write_eta(h, dir, index, eta);
    if (res == VF_OK && h->flow_src.solver && h->flow_src.solver->vt->export_frame) {
        h->flow_src.solver->vti_compression = s->vti_compression;
        res = h->flow_src.solver->vt->export_frame(h->flow_src.solver, dir, index);
    }
    free(eta);
    return res;
}

/* The surface (and the flow under it, where the scene has one) of the last
 * passed check, from host copies. */
static vf_result height_export_last_good(vf_solver *s, const char *dir, uint32_t index)
{
    vf_height *h = (vf_height *)s;
    if (!h->good_eta)
        return VF_ERR_UNSUPPORTED;
    vf_result res = write_eta(h, dir, index, h->good_eta);
    uint64_t flow_frame;
    double flow_time;
    if (res == VF_OK && h->flow_src.solver) {
        h->flow_src.solver->vti_compression = s->vti_compression;
        res = vf_solver_export_last_good(h->flow_src.solver, dir, index, &flow_frame, &flow_time);
        if (res == VF_ERR_UNSUPPORTED)
            res = VF_OK; /* the surface alone */
    }
    return res;
}

static void height_write_summary(vf_solver *s, FILE *f, const char *indent)
{
    vf_height *h = (vf_height *)s;
    size_t n = cells(h);
    float *eta = malloc(n * sizeof(float));
    double vol = NAN, maxabs = NAN;
    uint32_t wet = 0;
    if (eta && vf_height_download(s, eta, NULL) == VF_OK) {
        vol = volume_of(h, eta);
        maxabs = 0.0;
        for (size_t i = 0; i < n; i++)
            if (!(h->flags_host[i] & VF_HEIGHT_SOLID) && eta[i] - h->bed_host[i] > 0.0f) {
                wet++;
                maxabs = fmax(maxabs, fabs((double)eta[i]));
            }
    }
    free(eta);
    vf_height_volume_result vr = {0};
    vf_buffer_read(h->result, 0, &vr, sizeof vr);
    fprintf(f, "%s\"integrator\": \"%s\",\n", indent, is_adi(h) ? "adi" : "explicit");
    fprintf(f, "%s\"dt\": ", indent);
    vf_json_number(f, h->dt);
    fprintf(f, ",\n%s\"explicit_dt_limit\": ", indent);
    vf_json_number(f, h->limit);
    fprintf(f, ",\n%s\"courant\": ", indent);
    vf_json_number(f, sqrt(h->d.g * h->dmax) * h->dt / h->d.dx);
    fprintf(f, ",\n%s\"max_rest_depth\": ", indent);
    vf_json_number(f, h->dmax);
    fprintf(f, ",\n%s\"initial_volume\": ", indent);
    vf_json_number(f, h->volume0);
    fprintf(f, ",\n%s\"total_volume\": ", indent);
    vf_json_number(f, vol);
    fprintf(f, ",\n%s\"volume_drift_relative\": ", indent);
    vf_json_number(f, (vol - h->volume0) / h->volume0);
    if (h->flow_src.solver && h->flow_src.solver->vt->write_summary) {
        fprintf(f, ",\n%s\"flow\": {\n", indent);
        char inner[64];
        snprintf(inner, sizeof inner, "%s  ", indent);
        h->flow_src.solver->vt->write_summary(h->flow_src.solver, f, inner);
        fprintf(f, "\n%s}", indent);
    }
    fprintf(f, ",\n%s\"volume_corrections\": %u,\n", indent, vr.corrections);
    fprintf(f, "%s\"wet_cells\": %u,\n", indent, wet);
    fprintf(f, "%s\"max_abs_eta\": ", indent);
    vf_json_number(f, maxabs);
    fprintf(f, ",\n%s\"drops\": %llu,\n", indent, (unsigned long long)h->drops);
    fprintf(f, "%s\"floating_objects\": %u", indent, h->object_count);
}

static vf_result height_check(vf_solver *s, char *msg, size_t cap)
{
    vf_height *h = (vf_height *)s;
    size_t n = cells(h);
    float *eta = malloc(n * sizeof(float));
    if (!eta)
        return VF_ERR_NO_MEMORY;
    vf_result res = vf_height_download(s, eta, NULL);
    if (res != VF_OK) {
        free(eta);
        return res;
    }
    for (size_t i = 0; i < n; i++)
        if (!isfinite(eta[i])) {
            snprintf(msg, cap, "eta is not finite at cell (%zu, %zu): lower dt or use integrator=adi", i % h->nx,
                     i / h->nx);
            free(eta);
            return VF_ERR_NUMERIC;
        }
    double vol = volume_of(h, eta), drift = fabs(vol - h->volume0) / h->volume0;
    if (h->flow_src.solver && (res = vf_solver_check(h->flow_src.solver, msg, cap)) != VF_OK) {
        free(eta);
        return res;
    }
    if (h->d.volume_fix && drift > 1e-3) {
        snprintf(msg, cap, "the volume drifted by %.3g relative (%.6g m^3 -> %.6g m^3)", drift, h->volume0, vol);
        free(eta);
        return VF_ERR_NUMERIC;
    }
    /* passed: the last good state (export_last_good) */
    free(h->good_eta);
    h->good_eta = eta;
    return VF_OK;
}

static void height_interact(vf_solver *s, const vf_interaction *in)
{
    vf_height *h = (vf_height *)s;
    h->pointer = *in;
    if (!in->active)
        h->pointer_last = -1e30;
}

static void height_describe(vf_solver *s, char *buf, size_t cap)
{
    vf_height *h = (vf_height *)s;
    snprintf(buf, cap, "height %ux%u %s, dt %.3g ms, %u objects", h->nx, h->ny, is_adi(h) ? "adi" : "explicit",
             1e3 * h->dt, h->object_count);
}

/* What the bytes column of height_passes.def reads (w->...): f, one cell
 * field; flow, one field of the attached flow; objects, their count; apply,
 * the volume correction is on; pres, the pressure coupling; track, a flow
 * pressure is tracked; adi, the ADI integrator; divergence, the divergence
 * coupling. */
typedef struct height_work {
    uint64_t f, flow, objects;
    bool apply, pres, track, adi, divergence;
} height_work;

#define VF_PASS_BYTES_FN height_row_bytes
#define VF_PASS_WORK height_work
#include "sim_pass_bytes.h"

/* Bytes a pass moves per execution: 4 per cell for every array it must read
 * or write (the Thomas sweeps also write and re-read their c' scratch). */
static uint64_t height_pass_bytes(vf_solver *s, const char *pass)
{
    vf_height *h = (vf_height *)s;
    const height_work w = {
        .f = 4 * cells(h),
        .flow = (uint64_t)h->flow.nx * h->flow.ny * 4,
        .objects = h->object_count,
        .apply = h->d.volume_fix,
        .pres = h->d.coupling == VF_HEIGHT_COUPLE_PRESSURE,
        .track = h->flow.pressure != NULL,
        .adi = is_adi(h),
        .divergence = h->d.coupling == VF_HEIGHT_COUPLE_DIVERGENCE,
    };
    return height_row_bytes(&w, pass);
}

/* The state a substep advances: the surface height and the two velocity
 * components of every cell. */
static uint64_t height_state_bytes(vf_solver *s)
{
    return 3 * 4 * cells((vf_height *)s);
}

static const vf_solver_vtable height_vt = {
    .family = "height",
    .destroy = height_destroy,
    .part_begin = height_part_begin,
    .frame_begin = height_frame_begin,
    .record_substep = height_record_substep,
    .frame_end = height_frame_end,
    .frame_done = height_frame_done,
    .export_frame = height_export,
    .write_summary = height_write_summary,
    .check = height_check,
    .interact = height_interact,
    .describe = height_describe,
    .pass_bytes = height_pass_bytes,
    .state_bytes = height_state_bytes,
    .export_last_good = height_export_last_good,
    .submit_substeps = HEIGHT_SUBMIT_SUBSTEPS,
};

/* ------------------------------------------------------------------ create */

static vf_result make_buffer(vf_height *h, VkDeviceSize size, const char *name, vf_buffer **out)
{
    vf_buffer_desc d = {.size = size, .name = name};
    return vf_buffer_create(h->base.gpu, &d, out);
}

/* Initial eta of every cell (dry and solid cells sit on their bed). */
static void initial_eta(const vf_height *h, float *eta)
{
    const vf_height_desc *d = &h->d;
    const double lx = d->nx * d->dx, ly = d->ny * d->dx;
    for (uint32_t j = 0; j < h->ny; j++)
        for (uint32_t i = 0; i < h->nx; i++) {
            size_t idx = (size_t)j * h->nx + i;
            double x = (i + 0.5) * d->dx, y = (j + 0.5) * d->dx, e = 0.0;
            if (d->init == VF_HEIGHT_INIT_COSINE) {
                e = d->init_amplitude * cos(VF_PI * x / lx);
            } else if (d->init == VF_HEIGHT_INIT_BUMP) {
                double rx = x - d->init_x * lx, ry = y - d->init_y * ly;
                e = d->init_amplitude * exp(-(rx * rx + ry * ry) / (d->init_width * d->init_width));
            }
            double level = cell_level(d, idx);
            if (!isnan(level))
                e = level; /* a level cell (a scene file's fluid region): its surface, dry below the bed */
            float b = h->bed_host[idx];
            eta[idx] = (h->flags_host[idx] & VF_HEIGHT_SOLID) ? b : fmaxf((float)e, b);
        }
}

/* Floating objects at hash-drawn wet places (the boat first). */
static void initial_objects(const vf_height *h, const float *eta, vf_height_object *o)
{
    const vf_height_desc *d = &h->d;
    const double lx = d->nx * d->dx, ly = d->ny * d->dx, l = fmin(lx, ly);
    uint32_t k = 0, tries = 0;
    if (d->boat) {
        double bx, by, hd;
        boat_at(h, 0.0, &bx, &by, &hd);
        o[k++] = (vf_height_object){.x = (float)bx, .y = (float)by, .heading = (float)hd,
                                    .size = (float)d->boat_length, .kind = VF_HEIGHT_OBJ_BOAT};
    }
    const uint32_t seed = (uint32_t)d->seed ^ 0x51ed270bu;
    for (int n = 0; n < d->leaves + d->ducks; n++) {
        bool duck = n >= d->leaves;
        float x = 0, y = 0;
        for (int t = 0; t < 64; t++) {
            uint32_t k2 = 2 * tries++; /* every try (and so every object) draws new numbers */
            x = (float)((0.05 + 0.9 * vf_height_hash01(seed, k2)) * lx);
            y = (float)((0.05 + 0.9 * vf_height_hash01(seed, k2 + 1)) * ly);
            uint32_t i = (uint32_t)(x / d->dx), j = (uint32_t)(y / d->dx);
            size_t idx = (size_t)j * h->nx + i;
            if (!(h->flags_host[idx] & VF_HEIGHT_SOLID) && eta[idx] - h->bed_host[idx] > 0.01f)
                break;
        }
        o[k++] = (vf_height_object){
            .x = x,
            .y = y,
            .heading = (float)(6.2831853 * vf_height_hash01(seed ^ 0x1234567u, (uint32_t)n)),
            .size = (float)(duck ? fmax(6 * d->dx, 0.05 * l) : fmax(3 * d->dx, 0.035 * l)),
            .kind = duck ? VF_HEIGHT_OBJ_DUCK : VF_HEIGHT_OBJ_LEAF,
        };
    }
}

/* Device bytes of the buffers create makes for h (its desc, partials and
 * object count set). */
static uint64_t device_bytes(const vf_height *h)
{
    const uint64_t field = (uint64_t)cells(h) * sizeof(float);
    const bool adi = is_adi(h);
    /* eta slots, adi's mid and scratch or the velocity, bed, flags, pressure, advect's two */
    uint64_t fields = (adi ? 3 : 2) + (adi ? 2 : 1) + 3 + (h->d.advect ? 2 : 0);
    return fields * field + (uint64_t)(h->object_count + 1) * sizeof(vf_height_object) +
           (uint64_t)h->partials * sizeof(vf_height_partial) + sizeof(vf_height_volume_result) + 256;
}

vf_result vf_height_create(vf_gpu *gpu, const vf_height_desc *desc, vf_solver **out, const char **key, char *err,
                           size_t cap)
{
    char dummy_err[8];
    err = vf_err_buffer(err, &cap, dummy_err, sizeof dummy_err);
    *out = NULL;
    vf_result res = VF_OK; /* the values come validated (vf_height_validate): only the device is checked here */
    const uint64_t n = (uint64_t)desc->nx * (uint64_t)desc->ny;
    vf_height *h;
    VF_NEW_OR_RETURN(h);
    h->base.vt = &height_vt;
    h->base.gpu = gpu;
    h->base.frame_dt = desc->frame_dt;
    h->d = *desc;
    h->nx = (uint32_t)desc->nx;
    h->ny = (uint32_t)desc->ny;
    h->dx = (float)desc->dx;
    h->object_count = (uint32_t)((desc->boat ? 1 : 0) + desc->leaves + desc->ducks);
    /* the explicit step and the disturbances run 2D workgroups, the column
     * sweep 1D ones; a partial per workgroup, then an entry per block */
    const bool cpu = gpu->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    h->rows = desc->rows > 0 ? (desc->rows > 1 ? VF_HEIGHT_CPU_ROWS : 1u) : (cpu ? VF_HEIGHT_CPU_ROWS : 1u);
    h->end_cells = desc->end_cells > 0 ? (uint32_t)(desc->end_cells < VF_HEIGHT_END_CPU_CELLS ? desc->end_cells
                                                                                               : VF_HEIGHT_END_CPU_CELLS)
                                       : (cpu ? VF_HEIGHT_END_CPU_CELLS : 1u);
    uint32_t most = groups(h->nx, VF_WG_2D_X) * groups(h->ny, VF_WG_2D_Y * h->rows);
    if (most < groups(h->nx, VF_HEIGHT_SWEEP_WG))
        most = groups(h->nx, VF_HEIGHT_SWEEP_WG);
    h->partials = most + groups(most, VF_HEIGHT_VOLUME_BLOCK);
    char what[64];
    snprintf(what, sizeof what, "%d x %d cells", desc->nx, desc->ny);
    const uint64_t need = device_bytes(h);
    if ((res = vf_solver_check_fit(gpu, need, n * sizeof(float), "nx", what, "use a smaller nx or ny", key, err,
                                   cap)) != VF_OK) {
        height_destroy(&h->base);
        return res;
    }
    h->bed_host = malloc(n * sizeof(float));
    h->flags_host = malloc(n * sizeof(uint32_t));
    float *eta = malloc(n * sizeof(float));
    vf_height_object *objs = calloc(h->object_count + 1, sizeof *objs);
    if (!h->bed_host || !h->flags_host || !eta || !objs) {
        res = VF_ERR_NO_MEMORY;
        goto fail;
    }
    h->dmax = build_terrain(desc, h->bed_host, h->flags_host);
    h->limit = desc->dx / sqrt(2.0 * desc->g * h->dmax);
    h->dt = pick_dt(desc, h->limit);
    initial_eta(h, eta);
    initial_objects(h, eta, objs);
    h->volume0 = volume_of(h, eta);
    h->excess0 = vf_height_excess(h->nx, h->ny, eta, h->bed_host, h->flags_host, NULL, NULL);
    h->d.solid = NULL; /* the caller's cells: create keeps no pointer to them */
    h->d.level = NULL;

    const VkDeviceSize bytes = n * sizeof(float);
    const int slots = desc->integrator == VF_HEIGHT_INT_ADI ? 3 : 2;
    static const char *eta_names[3] = {"height eta 0", "height eta 1", "height eta 2"};
    for (int i = 0; i < slots && res == VF_OK; i++)
        res = make_buffer(h, bytes, eta_names[i], &h->eta[i]);
    if (res == VF_OK && desc->integrator == VF_HEIGHT_INT_ADI) {
        if ((res = make_buffer(h, bytes, "height adi mid", &h->mid)) == VF_OK)
            res = make_buffer(h, bytes, "height adi scratch", &h->scratch);
    } else if (res == VF_OK) {
        res = make_buffer(h, bytes, "height velocity", &h->vel);
    }
    if (res == VF_OK) res = make_buffer(h, bytes, "height bed", &h->bed);
    if (res == VF_OK) res = make_buffer(h, n * sizeof(uint32_t), "height flags", &h->flags);
    if (res == VF_OK) res = make_buffer(h, bytes, "height pressure height", &h->pres);
    if (res == VF_OK) res = make_buffer(h, (h->object_count + 1) * sizeof(vf_height_object), "height objects", &h->objects);
    if (res == VF_OK) res = make_buffer(h, (VkDeviceSize)h->partials * sizeof(vf_height_partial), "height volume partials", &h->partial);
    if (res == VF_OK) res = make_buffer(h, sizeof(vf_height_volume_result), "height volume result", &h->result);
    if (res == VF_OK) res = make_buffer(h, 256, "height zero flow", &h->dummy);
    if (res == VF_OK && desc->advect) res = make_buffer(h, bytes, "height advected eta", &h->adv_eta);
    if (res == VF_OK && desc->advect) res = make_buffer(h, bytes, "height advected second", &h->adv_second);
    if (res != VF_OK) {
        res = vf_solver_alloc_failed(gpu, res, need, "nx", what, "use a smaller nx or ny", key, err, cap);
        goto fail;
    }

    /* the shaders that have no such constant ignore it */
    const uint32_t plain_spec[] = {[VF_HEIGHT_SPEC_VOLUME] = 0, [VF_HEIGHT_SPEC_ROWS] = h->rows};
    for (int i = 0; i < HP_COUNT && res == VF_OK; i++)
        if (i != HP_ADVECT || desc->advect)
            res = vf_sim_pass_pipeline(h->base.gpu, &HP_passes[i], plain_spec, 2, NULL, &h->pipe[i]);
    const uint32_t volume_spec[] = {[VF_HEIGHT_SPEC_VOLUME] = 1, [VF_HEIGHT_SPEC_ROWS] = h->rows};
    for (int i = 0; i < HP_COUNT && res == VF_OK && desc->volume_fix; i++)
        if (volume_pass(i))
            res = vf_sim_pass_pipeline(h->base.gpu, &HP_passes[i], volume_spec, 2, "volume", &h->pipe_volume[i]);
    if (res != VF_OK)
        goto fail;

    for (int i = 0; i < slots && res == VF_OK; i++)
        res = upload(h->eta[i], eta, bytes);
    if (res == VF_OK && h->vel) res = vf_buffer_fill(h->vel, 0, VK_WHOLE_SIZE, 0);
    if (res == VF_OK) res = upload(h->bed, h->bed_host, bytes);
    if (res == VF_OK) res = upload(h->flags, h->flags_host, n * sizeof(uint32_t));
    if (res == VF_OK) res = vf_buffer_fill(h->pres, 0, VK_WHOLE_SIZE, 0);
    if (res == VF_OK) res = upload(h->objects, objs, (h->object_count + 1) * sizeof(vf_height_object));
    if (res == VF_OK) res = vf_buffer_fill(h->result, 0, VK_WHOLE_SIZE, 0);
    if (res == VF_OK) res = vf_buffer_fill(h->partial, 0, VK_WHOLE_SIZE, 0); /* the block counts start at 0 */
    if (res == VF_OK) res = vf_buffer_fill(h->dummy, 0, VK_WHOLE_SIZE, 0);
    if (res != VF_OK)
        goto fail;
    h->cur = 0;
    h->pointer_last = -1e30;
    free(eta);
    free(objs);
    *out = &h->base;
    return VF_OK;
fail:
    free(eta);
    free(objs);
    height_destroy(&h->base);
    return res;
}

static vf_result family_create(vf_gpu *gpu, const void *desc, vf_solver **out, const char **key, char *err, size_t cap)
{
    return vf_height_create(gpu, desc, out, key, err, cap);
}

const vf_solver_family vf_height_family = {.name = "height", .create = family_create};
