/* solver_terrain: water over a changing terrain (see solver_terrain.h). */
#include "solver_terrain.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "export_vti.h"
#include "fileio.h"
#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "text.h"

/* The pass enum (TP_*), binding counts and table TP_passes, from terrain_passes.def. */
#define VF_PASS_FILE "terrain_passes.def"
#define VF_PASS_PREFIX TP
#define VF_PASS_TABLE_FN vf_terrain_pass_table
#include "sim_pass_table.h"
_Static_assert((int)TP_EDIT == (int)VF_TERRAIN_PASS_EDIT && (int)TP_SLIP == (int)VF_TERRAIN_PASS_SLIP &&
                   (int)TP_FLUX == (int)VF_TERRAIN_PASS_FLUX && (int)TP_LIMIT == (int)VF_TERRAIN_PASS_LIMIT &&
                   (int)TP_UPDATE == (int)VF_TERRAIN_PASS_UPDATE,
               "the public pass numbers are the table's");

#define VF_PI 3.14159265358979323846
/* The most substeps one frame may take, checked before any GPU work. */
#define MAX_FRAME_SUBSTEPS 10000
/* Deepest water (m) the depth quanta hold with room for sources. */
#define MAX_DEPTH 2048.0

/* ------------------------------------------------------------------ params */

#define D(field) offsetof(vf_terrain_desc, field)
const vf_param_def vf_terrain_params[VF_TERRAIN_PARAM_COUNT] = {
    {"nx", VF_PARAM_INT, D(nx), 256, 16, 8192, false, NULL, "cells", "grid cells along x"},
    {"ny", VF_PARAM_INT, D(ny), 128, 16, 8192, false, NULL, "cells", "grid cells along y"},
    {"dx", VF_PARAM_DOUBLE, D(dx), 0.5, 0, 1000, true, NULL, "m", "cell size"},
    {"g", VF_PARAM_DOUBLE, D(g), 9.81, 0, 1000, true, NULL, "m/s^2", "gravity"},
    {"ground", VF_PARAM_ENUM, D(ground), VF_TERRAIN_GROUND_VALLEY, 0, 0, false, VF_CHOICES(VF_TERRAIN_GROUND_LIST), "",
     "generated ground: flat, hills, or a valley falling along x (a scene file's heightmap replaces it)"},
    {"relief", VF_PARAM_DOUBLE, D(relief), 8, 0, 1000, false, NULL, "m", "hills: their height; valley: its walls' height"},
    {"slope", VF_PARAM_DOUBLE, D(slope), 0.03, 0, 1, false, NULL, "m/m", "valley: fall of its floor along x"},
    {"seed", VF_PARAM_INT, D(seed), 1, 0, 2147483647, false, NULL, "", "seed of the hills and the valley's bumps"},
    {"dam", VF_PARAM_BOOL, D(dam), 1, 0, 0, false, NULL, "", "valley: a dam across it"},
    {"dam_x", VF_PARAM_DOUBLE, D(dam_x), 0.35, 0, 1, false, NULL, "", "the dam's crest (fraction of x)"},
    {"dam_height", VF_PARAM_DOUBLE, D(dam_height), 5, 0, 1000, false, NULL, "m", "the dam's height above the valley floor"},
    {"dam_crest", VF_PARAM_DOUBLE, D(dam_crest), 3, 0, 1000, false, NULL, "m", "the dam's crest width (faces at 1:2)"},
    {"water_level", VF_PARAM_DOUBLE, D(water_level), 6.5, -10000, 10000, false, NULL, "m",
     "the initial lake's surface elevation (ground below it in water_x0..water_x1 starts under water)"},
    {"water_x0", VF_PARAM_DOUBLE, D(water_x0), 0, 0, 1, false, NULL, "", "the initial lake from this x (fraction)"},
    {"water_x1", VF_PARAM_DOUBLE, D(water_x1), 0.35, 0, 1, false, NULL, "", "the initial lake up to this x (fraction); none when <= water_x0"},
    {"rain", VF_PARAM_DOUBLE, D(rain), 0, 0, 1e6, false, NULL, "mm/h", "rain on every cell"},
    {"source_x", VF_PARAM_DOUBLE, D(source.x), 0.03, 0, 1, false, NULL, "", "a source's centre (fraction of x)"},
    {"source_y", VF_PARAM_DOUBLE, D(source.y), 0.5, 0, 1, false, NULL, "", "a source's centre (fraction of y)"},
    {"source_radius", VF_PARAM_DOUBLE, D(source.radius), 1.5, 0, 10000, false, NULL, "m", "the source's radius"},
    {"source_rate", VF_PARAM_DOUBLE, D(source.rate), 2, 0, 1e6, false, NULL, "m^3/s", "water the source adds; 0: none"},
    {"drain_x", VF_PARAM_DOUBLE, D(drain.x), 0.97, 0, 1, false, NULL, "", "a drain's centre (fraction of x)"},
    {"drain_y", VF_PARAM_DOUBLE, D(drain.y), 0.5, 0, 1, false, NULL, "", "a drain's centre (fraction of y)"},
    {"drain_radius", VF_PARAM_DOUBLE, D(drain.radius), 4, 0, 10000, false, NULL, "m", "the drain's radius"},
    {"drain_rate", VF_PARAM_DOUBLE, D(drain.rate), 20, 0, 1e6, false, NULL, "m^3/s", "water the drain takes at most; 0: none"},
    {"manning", VF_PARAM_DOUBLE, D(manning), 0.03, 0, 1, false, NULL, "s/m^(1/3)", "bed friction (Manning's n); 0: none"},
    {"repose", VF_PARAM_DOUBLE, D(repose), 35, 1, 90, false, NULL, "deg",
     "angle of repose: steeper soil slips to the lower neighbour; 90: no slippage"},
    {"slip_rate", VF_PARAM_DOUBLE, D(slip_rate), 5, 0, 1e6, false, NULL, "1/s",
     "how fast a slope's excess over the angle of repose slips (at most a quarter per frame)"},
    {"dozer", VF_PARAM_BOOL, D(dozer), 1, 0, 0, false, NULL, "", "a bulldozer cuts a path down to dozer_level"},
    {"dozer_time", VF_PARAM_DOUBLE, D(dozer_time), 0.5, 0, 1e6, false, NULL, "s", "when the bulldozer starts"},
    {"dozer_speed", VF_PARAM_DOUBLE, D(dozer_speed), 4, 0, 1000, true, NULL, "m/s", "the bulldozer's speed"},
    {"dozer_x0", VF_PARAM_DOUBLE, D(dozer_x0), 0.45, 0, 1, false, NULL, "", "its path from (fraction of x) ..."},
    {"dozer_y0", VF_PARAM_DOUBLE, D(dozer_y0), 0.5, 0, 1, false, NULL, "", "... (fraction of y) ..."},
    {"dozer_x1", VF_PARAM_DOUBLE, D(dozer_x1), 0.31, 0, 1, false, NULL, "", "... to (fraction of x) ..."},
    {"dozer_y1", VF_PARAM_DOUBLE, D(dozer_y1), 0.5, 0, 1, false, NULL, "", "... (fraction of y)"},
    {"dozer_width", VF_PARAM_DOUBLE, D(dozer_width), 6, 0, 1000, true, NULL, "m", "the width of the bulldozer's cut"},
    {"dozer_level", VF_PARAM_DOUBLE, D(dozer_level), 2.3, -10000, 10000, false, NULL, "m",
     "the bulldozer cuts the ground down to this elevation"},
    {"brush_radius", VF_PARAM_DOUBLE, D(brush_radius), 4, 0, 10000, true, NULL, "m", "the pointer's dig/raise tool radius"},
    {"brush_rate", VF_PARAM_DOUBLE, D(brush_rate), 2, 0, 1000, false, NULL, "m/s", "how fast it digs (left) or raises (right)"},
    {"cfl", VF_PARAM_DOUBLE, D(cfl), 0.45, 0, 0.5, true, NULL, "", "automatic dt: cfl dx / (2 sqrt(g H)), H the deepest water or the relief"},
    {"dt", VF_PARAM_DOUBLE, D(dt), 0, 0, 10, false, NULL, "s", "substep; 0: automatic (see cfl)"},
    {"frame_dt", VF_PARAM_DOUBLE, D(frame_dt), 1.0 / 60.0, 0, 10, true, NULL, "s", "simulated time per frame"},
    {"dry_depth", VF_PARAM_DOUBLE, D(dry_depth), 1e-4, 0, 1, false, NULL, "m", "below this depth water has no velocity"},
};
#undef D
const size_t vf_terrain_param_count = VF_TERRAIN_PARAM_COUNT;
_Static_assert(sizeof vf_terrain_params / sizeof vf_terrain_params[0] == VF_TERRAIN_PARAM_COUNT, "VF_TERRAIN_PARAM_COUNT");

void vf_terrain_desc_defaults(vf_terrain_desc *desc)
{
    memset(desc, 0, sizeof *desc);
    vf_params_defaults(vf_terrain_params, vf_terrain_param_count, desc);
}

/* ------------------------------------------------------------------ ground */

/* Uniform in [0, 1) from a seed and a counter. */
static double hash01(uint32_t seed, uint32_t k)
{
    return (double)(vf_hash(seed ^ vf_hash(k)) >> 8) * (1.0 / 16777216.0);
}

/* Eight smooth round hills from the seed, relief high at most. */
static double hills_at(const vf_terrain_desc *d, double x, double y)
{
    const double lx = d->nx * d->dx, ly = d->ny * d->dx, l = fmin(lx, ly);
    const uint32_t seed = (uint32_t)d->seed ^ 0x7e44a1bu;
    double b = 0.0;
    for (uint32_t k = 0; k < 8; k++) {
        double cx = hash01(seed, 4 * k) * lx, cy = hash01(seed, 4 * k + 1) * ly;
        double w = (0.12 + 0.18 * hash01(seed, 4 * k + 2)) * l, a = 0.4 + 0.6 * hash01(seed, 4 * k + 3);
        double rx = x - cx, ry = y - cy;
        b += a * exp(-(rx * rx + ry * ry) / (w * w));
    }
    return d->relief * fmin(b, 1.5) / 1.5;
}

/* The valley: its floor falls by slope along x, its walls rise as
 * |y - centre|^1.5 to relief at the sides, with small bumps; a dam across
 * it at dam_x stands dam_height above the floor there (crest dam_crest
 * wide, faces at 1:2). */
static double valley_at(const vf_terrain_desc *d, double x, double y)
{
    const double lx = d->nx * d->dx, ly = d->ny * d->dx;
    double floor_at = d->slope * (lx - x);
    double across = fabs(y - 0.5 * ly) / (0.5 * ly);
    double bumps = 0.04 * d->relief * sin(0.37 * x + 6.28 * hash01((uint32_t)d->seed, 1)) *
                   sin(0.29 * y + 6.28 * hash01((uint32_t)d->seed, 2));
    double b = floor_at + d->relief * pow(across, 1.5) + bumps * across;
    if (d->dam && d->dam_height > 0) {
        double xd = d->dam_x * lx, run = 2.0 * d->dam_height, off = fabs(x - xd) - 0.5 * d->dam_crest;
        double top = d->slope * (lx - xd) + d->dam_height;
        double dam = off <= 0 ? top : top - d->dam_height * off / run;
        b = fmax(b, dam);
    }
    return b;
}

/* The ground (absolute m) of every cell from a desc: the heightmap, or the
 * generated shape. */
static void build_ground(const vf_terrain_desc *d, double *g)
{
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++) {
            size_t idx = (size_t)j * d->nx + i;
            double x = (i + 0.5) * d->dx, y = (j + 0.5) * d->dx;
            if (d->heightmap)
                g[idx] = d->heightmap[idx];
            else if (d->ground == VF_TERRAIN_GROUND_HILLS)
                g[idx] = hills_at(d, x, y);
            else if (d->ground == VF_TERRAIN_GROUND_VALLEY)
                g[idx] = valley_at(d, x, y);
            else
                g[idx] = 0.0;
        }
}

/* The initial depth (m) over ground g at cell (i, j). */
static double initial_depth(const vf_terrain_desc *d, int i, double g)
{
    double x = (i + 0.5) / d->nx;
    if (d->water_x1 <= d->water_x0 || x < d->water_x0 || x > d->water_x1)
        return 0.0;
    return fmax(d->water_level - g, 0.0);
}

/* Largest initial depth and the ground's range of a desc (one pass over the
 * ground; no GPU). Returns false when out of memory. */
static bool survey(const vf_terrain_desc *d, double *deepest, double *lo, double *hi)
{
    size_t n = (size_t)d->nx * d->ny;
    double *g = malloc(n * sizeof *g);
    if (!g)
        return false;
    build_ground(d, g);
    *deepest = 0.0;
    *lo = INFINITY;
    *hi = -INFINITY;
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++) {
            double v = g[(size_t)j * d->nx + i];
            *lo = fmin(*lo, v);
            *hi = fmax(*hi, v);
            *deepest = fmax(*deepest, initial_depth(d, i, v));
        }
    free(g);
    return true;
}

/* The depth the automatic dt is made for: the deepest water at the start,
 * or the relief, which water running down it turns into speed. */
static double design_depth(double deepest, double lo, double hi)
{
    return fmax(fmax(deepest, hi - lo), 0.01);
}

static double pick_dt(const vf_terrain_desc *d, double deepest, double lo, double hi)
{
    if (d->dt > 0)
        return d->dt;
    double cap = d->cfl * d->dx / (2.0 * sqrt(d->g * design_depth(deepest, lo, hi)));
    double n = ceil(d->frame_dt / cap - 1e-9);
    return d->frame_dt / (n < 1 ? 1 : n);
}

/* The keys of a spot (a source or a drain): its rate, x and radius. */
typedef struct spot_keys {
    const char *rate, *x, *radius;
} spot_keys;

static const spot_keys source_keys = {"source_rate", "source_x", "source_radius"};
static const spot_keys drain_keys = {"drain_rate", "drain_x", "drain_radius"};

/* Checks one spot (a source or a drain) with keys k. */
static vf_result check_spot(const vf_terrain_desc *d, const vf_terrain_spot *s, const spot_keys *k, const char **key,
                            char *err, size_t cap)
{
    if (s->rate == 0)
        return VF_OK; /* not in use */
    if (!(s->rate >= 0) || !isfinite(s->rate)) {
        vf_set_key_err(key, err, cap, k->rate, "=%g: must be a finite number >= 0", s->rate);
        return VF_ERR_INVALID_ARG;
    }
    if (!(s->x >= 0 && s->x <= 1 && s->y >= 0 && s->y <= 1)) {
        vf_set_key_err(key, err, cap, k->x, "=%g: the centre must lie in the domain (fractions 0..1 of x and y)", s->x);
        return VF_ERR_INVALID_ARG;
    }
    if (!(s->radius >= 0) || s->radius > (d->nx + d->ny) * d->dx) {
        vf_set_key_err(key, err, cap, k->radius, "=%g: must be between 0 and the domain's size", s->radius);
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

vf_result vf_terrain_validate(const vf_terrain_desc *d, const char **key, char *err, size_t cap)
{
    if (d->g <= 0 || d->dx <= 0 || d->frame_dt <= 0) {
        vf_set_key_err(key, err, cap, "g", "=%g: gravity, dx and frame_dt must be positive", d->g);
        return VF_ERR_INVALID_ARG;
    }
    if (d->nx < 2 || d->ny < 2) {
        vf_set_key_err(key, err, cap, "nx", "=%d: at least 2 x 2 cells", d->nx);
        return VF_ERR_INVALID_ARG;
    }
    double deepest, lo, hi;
    if (!survey(d, &deepest, &lo, &hi)) {
        vf_set_key_err(key, err, cap, "nx", "=%d: no memory for %d x %d cells: use fewer cells", d->nx, d->nx, d->ny);
        return VF_ERR_NO_MEMORY;
    }
    if (!isfinite(lo) || !isfinite(hi) || hi - lo > MAX_DEPTH) {
        vf_set_key_err(key, err, cap, "relief", "=%g: the ground spans %.4g m, more than the %g m the solver takes: lower it",
                 d->relief, hi - lo, MAX_DEPTH);
        return VF_ERR_INVALID_ARG;
    }
    if (deepest > MAX_DEPTH) {
        vf_set_key_err(key, err, cap, "water_level", "=%g: water %.4g m deep, more than the %g m the solver takes: lower it",
                 d->water_level, deepest, MAX_DEPTH);
        return VF_ERR_INVALID_ARG;
    }
    double limit = 0.5 * d->dx / (2.0 * sqrt(d->g * design_depth(deepest, lo, hi)));
    if (d->dt > limit) {
        vf_set_key_err(key, err, cap, "dt", "=%g: above the stability limit %.4g s (dx / (4 sqrt(g H)), H = %.3g m, the deepest water "
                 "or the relief): lower dt or use 0 (automatic)", d->dt, limit, design_depth(deepest, lo, hi));
        return VF_ERR_INVALID_ARG;
    }
    double dt = pick_dt(d, deepest, lo, hi);
    if (d->frame_dt / dt > MAX_FRAME_SUBSTEPS) {
        vf_set_key_err(key, err, cap, d->dt > 0 ? "dt" : "dx", "=%g: more than %d substeps per frame (substep %.3g s, frame_dt=%g): %s",
                 d->dt > 0 ? d->dt : d->dx, MAX_FRAME_SUBSTEPS, dt, d->frame_dt,
                 d->dt > 0 ? "raise dt or lower frame_dt" : "use larger cells or a smaller frame_dt");
        return VF_ERR_INVALID_ARG;
    }
    vf_result r;
    if ((r = check_spot(d, &d->source, &source_keys, key, err, cap)) != VF_OK ||
        (r = check_spot(d, &d->drain, &drain_keys, key, err, cap)) != VF_OK)
        return r;
    if (d->dozer && d->dozer_x0 == d->dozer_x1 && d->dozer_y0 == d->dozer_y1) {
        vf_set_key_err(key, err, cap, "dozer_x1", "=%g: the bulldozer's path has no length: give dozer_x1, dozer_y1 away from its start",
                 d->dozer_x1);
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

/* ------------------------------------------------------------------ solver */

typedef struct vf_terrain {
    vf_solver base;
    vf_terrain_desc d;
    uint32_t nx, ny;
    double dt, datum, deepest, lo, hi, carry, sim_time;
    uint64_t step;                 /* substeps recorded */
    uint32_t cur;                  /* the current ground buffer */
    vf_buffer *bed[2], *depth, *mom, *face_x, *face_y, *limit, *eta, *tools, *stats, *objects, *zeros;
    vf_pipeline *pipe[TP_COUNT];
    vf_terrain_tools tool_cells;   /* the discs on the grid */
    vf_terrain_spot spots[VF_TERRAIN_MAX_SOURCES + VF_TERRAIN_MAX_DRAINS]; /* sources, then drains */
    uint32_t sources, drains;
    uint64_t initial, added;       /* quanta */
    float *ground0;                /* the ground at the start (above the datum) */
    uint32_t *good_depth;          /* the state at the last passed check */
    float *good_bed, *good_mom;
    double good_time;
    vf_interaction pointer;        /* the viewer's pointer for the next frame */
} vf_terrain;

static const vf_solver_vtable terrain_vt;

bool vf_terrain_is(const vf_solver *s)
{
    return s && s->vt == &terrain_vt;
}

static size_t cells(const vf_terrain *t)
{
    return (size_t)t->nx * t->ny;
}

static uint32_t groups(uint32_t n, uint32_t wg)
{
    return (n + wg - 1) / wg;
}

static vf_binding bb(vf_buffer *b)
{
    return vf_bind_buffer(b);
}

static void terrain_destroy(vf_solver *s)
{
    vf_terrain *t = (vf_terrain *)s;
    for (int i = 0; i < TP_COUNT; i++)
        vf_pipeline_destroy(&t->pipe[i]);
    vf_buffer **bufs[] = {&t->bed[0], &t->bed[1], &t->depth, &t->mom,   &t->face_x,  &t->face_y,
                          &t->limit,  &t->eta,    &t->tools, &t->stats, &t->objects, &t->zeros};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        vf_buffer_destroy(bufs[i]);
    free(t->ground0);
    free(t->good_depth);
    free(t->good_bed);
    free(t->good_mom);
    free(t);
}

double vf_terrain_dt(const vf_solver *s)
{
    return ((const vf_terrain *)s)->dt;
}

/* Quanta each cell of a spot of rate (m^3/s) over n cells gains (or may
 * lose) in substep k: the whole quanta its running total passes in that
 * substep, so the long-run rate is exact. */
static uint32_t spot_quanta(const vf_terrain *t, double rate, uint32_t n, uint64_t k)
{
    if (!(rate > 0) || n == 0)
        return 0;
    double per = rate * t->dt / ((double)n * t->d.dx * t->d.dx * VF_TERRAIN_QUANTUM);
    double a = floor(per * (double)k), b = floor(per * (double)(k + 1));
    double q = b - a;
    return q > 4e9 ? 4000000000u : (uint32_t)q;
}

/* Rain (mm/h) as quanta per cell in substep k. */
static uint32_t rain_quanta(const vf_terrain *t, uint64_t k)
{
    if (!(t->d.rain > 0))
        return 0;
    double per = t->d.rain * 1e-3 / 3600.0 * t->dt / VF_TERRAIN_QUANTUM;
    double q = floor(per * (double)(k + 1)) - floor(per * (double)k);
    return q > 4e9 ? 4000000000u : (uint32_t)q;
}

vf_terrain_step_push vf_terrain_step_params(const vf_solver *s)
{
    const vf_terrain *t = (const vf_terrain *)s;
    vf_terrain_step_push p = {
        .nx = t->nx,
        .ny = t->ny,
        .dx = (float)t->d.dx,
        .dt = (float)t->dt,
        .g = (float)t->d.g,
        .quanta = (float)(t->dt / (t->d.dx * VF_TERRAIN_QUANTUM)),
        .dry = (float)t->d.dry_depth,
        .friction = (float)(t->d.g * t->d.manning * t->d.manning),
        .speed_cap = (float)(0.5 * t->d.dx / t->dt),
        .rain = rain_quanta(t, t->step),
        .sources = t->sources,
        .drains = t->drains,
    };
    for (uint32_t k = 0; k < t->sources; k++)
        p.source_q[k] = spot_quanta(t, t->spots[k].rate, t->tool_cells.sources[k].cells, t->step);
    for (uint32_t k = 0; k < t->drains; k++)
        p.drain_q[k] = spot_quanta(t, t->spots[VF_TERRAIN_MAX_SOURCES + k].rate, t->tool_cells.drains[k].cells, t->step);
    return p;
}

/* The bulldozer's place at time tm along its path (m) and its direction. */
static void dozer_at(const vf_terrain *t, double tm, double *x, double *y, double *c, double *sn)
{
    const vf_terrain_desc *d = &t->d;
    const double lx = t->nx * d->dx, ly = t->ny * d->dx;
    double x0 = d->dozer_x0 * lx, y0 = d->dozer_y0 * ly, x1 = d->dozer_x1 * lx, y1 = d->dozer_y1 * ly;
    double len = hypot(x1 - x0, y1 - y0), run = fmin(fmax((tm - d->dozer_time) * d->dozer_speed, 0.0), len);
    *c = len > 0 ? (x1 - x0) / len : 1.0;
    *sn = len > 0 ? (y1 - y0) / len : 0.0;
    *x = x0 + run * *c;
    *y = y0 + run * *sn;
}

vf_terrain_edit_push vf_terrain_edit_params(const vf_solver *s)
{
    const vf_terrain *t = (const vf_terrain *)s;
    const vf_terrain_desc *d = &t->d;
    vf_terrain_edit_push p = {.nx = t->nx, .ny = t->ny, .dx = (float)d->dx};
    if (d->dozer) {
        /* the blade sweeps the stretch of its path covered during this frame */
        double xa, ya, xb, yb, c, sn;
        dozer_at(t, t->sim_time, &xa, &ya, &c, &sn);
        dozer_at(t, t->sim_time + d->frame_dt, &xb, &yb, &c, &sn);
        p.flags |= VF_TERRAIN_EDIT_DOZER;
        p.blade_x = (float)(0.5 * (xa + xb));
        p.blade_y = (float)(0.5 * (ya + yb));
        p.blade_cos = (float)c;
        p.blade_sin = (float)sn;
        p.blade_half_len = (float)(0.5 * hypot(xb - xa, yb - ya) + 0.5 * d->dx);
        p.blade_half_width = (float)(0.5 * d->dozer_width);
        p.blade_level = (float)(d->dozer_level - t->datum);
        p.dozer_size = (float)fmax(1.2 * d->dozer_width, 3 * d->dx);
        if (xa != xb || ya != yb) /* it moves during this frame */
            p.flags |= VF_TERRAIN_EDIT_BLADE;
    }
    if (t->pointer.active) {
        p.flags |= VF_TERRAIN_EDIT_BRUSH;
        p.brush_x = (float)(t->pointer.pos[0] * t->nx * d->dx);
        p.brush_y = (float)(t->pointer.pos[1] * t->ny * d->dx);
        p.brush_radius = (float)d->brush_radius;
        p.brush_delta = (float)((t->pointer.button == 1 ? 1.0 : -1.0) * d->brush_rate * d->frame_dt);
    }
    return p;
}

vf_terrain_slip_push vf_terrain_slip_params(const vf_solver *s)
{
    const vf_terrain *t = (const vf_terrain *)s;
    const vf_terrain_desc *d = &t->d;
    double rate = d->repose < 90 ? fmin(d->slip_rate * d->frame_dt, 0.25) : 0.0;
    return (vf_terrain_slip_push){
        .nx = t->nx,
        .ny = t->ny,
        .talus = (float)(d->dx * tan(fmin(d->repose, 89.9) * VF_PI / 180.0)),
        .rate = (float)rate,
    };
}

vf_terrain_tools vf_terrain_get_tools(const vf_solver *s)
{
    return ((const vf_terrain *)s)->tool_cells;
}

/* ------------------------------------------------------------------ recording */

static void record_edit(vf_terrain *t, VkCommandBuffer cmd, vf_profiler *prof, const vf_terrain_edit_push *p)
{
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_TERRAIN_EDIT_BIND_BED] = bb(t->bed[t->cur]),
        [VF_TERRAIN_EDIT_BIND_OBJECTS] = bb(t->objects),
    };
    vf_sim_pass_record(t->base.gpu, cmd, prof, &TP_passes[TP_EDIT], t->pipe[TP_EDIT], b, p, groups(t->nx, VF_WG_2D_X),
                       groups(t->ny, VF_WG_2D_Y), 1);
}

static void record_slip(vf_terrain *t, VkCommandBuffer cmd, vf_profiler *prof, const vf_terrain_slip_push *p)
{
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_TERRAIN_SLIP_BIND_BED] = bb(t->bed[t->cur]),
        [VF_TERRAIN_SLIP_BIND_BED_OUT] = bb(t->bed[t->cur ^ 1u]),
    };
    vf_sim_pass_record(t->base.gpu, cmd, prof, &TP_passes[TP_SLIP], t->pipe[TP_SLIP], b, p, groups(t->nx, VF_WG_2D_X),
                       groups(t->ny, VF_WG_2D_Y), 1);
    t->cur ^= 1u;
}

static void record_flux(vf_terrain *t, VkCommandBuffer cmd, vf_profiler *prof, const vf_terrain_step_push *p)
{
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_TERRAIN_FLUX_BIND_BED] = bb(t->bed[t->cur]), [VF_TERRAIN_FLUX_BIND_DEPTH] = bb(t->depth),
        [VF_TERRAIN_FLUX_BIND_MOM] = bb(t->mom),         [VF_TERRAIN_FLUX_BIND_FACE_X] = bb(t->face_x),
        [VF_TERRAIN_FLUX_BIND_FACE_Y] = bb(t->face_y),
    };
    vf_sim_pass_record(t->base.gpu, cmd, prof, &TP_passes[TP_FLUX], t->pipe[TP_FLUX], b, p,
                       groups(t->nx + 1, VF_WG_2D_X), groups(t->ny + 1, VF_WG_2D_Y), 1);
}

static void record_limit(vf_terrain *t, VkCommandBuffer cmd, vf_profiler *prof, const vf_terrain_step_push *p)
{
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_TERRAIN_LIMIT_BIND_DEPTH] = bb(t->depth), [VF_TERRAIN_LIMIT_BIND_FACE_X] = bb(t->face_x),
        [VF_TERRAIN_LIMIT_BIND_FACE_Y] = bb(t->face_y), [VF_TERRAIN_LIMIT_BIND_LIMIT] = bb(t->limit),
    };
    vf_sim_pass_record(t->base.gpu, cmd, prof, &TP_passes[TP_LIMIT], t->pipe[TP_LIMIT], b, p, groups(t->nx, VF_WG_2D_X),
                       groups(t->ny, VF_WG_2D_Y), 1);
}

static void record_update(vf_terrain *t, VkCommandBuffer cmd, vf_profiler *prof, const vf_terrain_step_push *p)
{
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_TERRAIN_UPDATE_BIND_BED] = bb(t->bed[t->cur]), [VF_TERRAIN_UPDATE_BIND_DEPTH] = bb(t->depth),
        [VF_TERRAIN_UPDATE_BIND_MOM] = bb(t->mom),         [VF_TERRAIN_UPDATE_BIND_FACE_X] = bb(t->face_x),
        [VF_TERRAIN_UPDATE_BIND_FACE_Y] = bb(t->face_y),   [VF_TERRAIN_UPDATE_BIND_LIMIT] = bb(t->limit),
        [VF_TERRAIN_UPDATE_BIND_ETA] = bb(t->eta),         [VF_TERRAIN_UPDATE_BIND_TOOLS] = bb(t->tools),
        [VF_TERRAIN_UPDATE_BIND_STATS] = bb(t->stats),
    };
    vf_sim_pass_record(t->base.gpu, cmd, prof, &TP_passes[TP_UPDATE], t->pipe[TP_UPDATE], b, p,
                       groups(t->nx, VF_WG_2D_X), groups(t->ny, VF_WG_2D_Y), 1);
}

/* The host's count of what a substep of push p adds (sources and rain). */
static uint64_t step_added(const vf_terrain *t, const vf_terrain_step_push *p)
{
    uint64_t a = (uint64_t)p->rain * cells(t);
    for (uint32_t k = 0; k < p->sources; k++)
        a += (uint64_t)p->source_q[k] * t->tool_cells.sources[k].cells;
    return a;
}

/* Substeps per submit (vt->submit_substeps): a substep is three passes. */
#define TERRAIN_SUBMIT_SUBSTEPS 16

static void terrain_part_begin(vf_solver *s, VkCommandBuffer cmd)
{
    vf_cmd_barrier_compute_on(s->gpu, cmd);
}

static vf_result terrain_frame_begin(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t *substeps)
{
    vf_terrain *t = (vf_terrain *)s;
    vf_terrain_edit_push ep = vf_terrain_edit_params(s);
    /* the ground changes (and the bulldozer moves) only when something acts on it */
    if (ep.flags & (VF_TERRAIN_EDIT_BLADE | VF_TERRAIN_EDIT_BRUSH))
        record_edit(t, cmd, prof, &ep);
    vf_terrain_slip_push sp = vf_terrain_slip_params(s);
    if (sp.rate > 0)
        record_slip(t, cmd, prof, &sp);
    double avail = t->d.frame_dt + t->carry;
    uint64_t n = (uint64_t)floor(avail / t->dt + 1e-6);
    t->carry = fmax(avail - (double)n * t->dt, 0.0);
    *substeps = (uint32_t)n; /* at most MAX_FRAME_SUBSTEPS + 1 (validate) */
    return VF_OK;
}

static vf_result terrain_record_substep(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t index)
{
    (void)index;
    vf_terrain *t = (vf_terrain *)s;
    vf_terrain_step_push p = vf_terrain_step_params(s);
    record_flux(t, cmd, prof, &p);
    record_limit(t, cmd, prof, &p);
    record_update(t, cmd, prof, &p);
    t->added += step_added(t, &p);
    t->step++;
    t->sim_time += t->dt;
    return VF_OK;
}

static vf_result terrain_frame_done(vf_solver *s)
{
    s->time += ((vf_terrain *)s)->d.frame_dt;
    return VF_OK;
}

vf_result vf_terrain_run_pass(vf_solver *s, int pass, const void *push)
{
    vf_terrain *t = (vf_terrain *)s;
    if (pass < 0 || pass >= TP_COUNT || !push)
        return VF_ERR_INVALID_ARG;
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(t->base.gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_cmd_barrier_compute_on(t->base.gpu, cmd);
    switch (pass) {
    case TP_EDIT: record_edit(t, cmd, NULL, push); break;
    case TP_SLIP: record_slip(t, cmd, NULL, push); break;
    case TP_FLUX: record_flux(t, cmd, NULL, push); break;
    case TP_LIMIT: record_limit(t, cmd, NULL, push); break;
    default: {
        record_update(t, cmd, NULL, push);
        t->added += step_added(t, push);
        break;
    }
    }
    return vf_cmd_oneshot_submit(t->base.gpu, cmd);
}

/* ------------------------------------------------------------------ readback */

vf_result vf_terrain_download(vf_solver *s, float *bed, uint32_t *depth, float *mom)
{
    vf_terrain *t = (vf_terrain *)s;
    VkDeviceSize n = cells(t) * 4;
    vf_result res = VF_OK;
    if (bed)
        res = vf_buffer_read(t->bed[t->cur], 0, bed, n);
    if (res == VF_OK && depth)
        res = vf_buffer_read(t->depth, 0, depth, n);
    if (res == VF_OK && mom)
        res = vf_buffer_read(t->mom, 0, mom, 2 * n);
    return res;
}

vf_result vf_terrain_download_work(vf_solver *s, float *face_x, float *face_y, float *limit, float *eta)
{
    vf_terrain *t = (vf_terrain *)s;
    vf_result res = VF_OK;
    if (face_x)
        res = vf_buffer_read(t->face_x, 0, face_x, (VkDeviceSize)(t->nx + 1) * t->ny * 16);
    if (res == VF_OK && face_y)
        res = vf_buffer_read(t->face_y, 0, face_y, (VkDeviceSize)t->nx * (t->ny + 1) * 16);
    if (res == VF_OK && limit)
        res = vf_buffer_read(t->limit, 0, limit, cells(t) * 4);
    if (res == VF_OK && eta)
        res = vf_buffer_read(t->eta, 0, eta, cells(t) * 4);
    return res;
}

vf_result vf_terrain_upload(vf_solver *s, const float *bed, const uint32_t *depth, const float *mom)
{
    vf_terrain *t = (vf_terrain *)s;
    VkDeviceSize n = cells(t) * 4;
    vf_result res = VF_OK;
    if (bed)
        res = vf_buffer_write(t->bed[t->cur], 0, bed, n);
    if (res == VF_OK && depth)
        res = vf_buffer_write(t->depth, 0, depth, n);
    if (res == VF_OK && mom)
        res = vf_buffer_write(t->mom, 0, mom, 2 * n);
    return res;
}

vf_result vf_terrain_read_stats(vf_solver *s, vf_terrain_stats *out)
{
    return vf_buffer_read(((vf_terrain *)s)->stats, 0, out, sizeof *out);
}

static uint64_t depth_sum(const uint32_t *depth, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v += depth[i];
    return v;
}

vf_result vf_terrain_read_volume(vf_solver *s, vf_terrain_volume *out)
{
    vf_terrain *t = (vf_terrain *)s;
    uint32_t *depth = malloc(cells(t) * 4);
    if (!depth)
        return VF_ERR_NO_MEMORY;
    vf_terrain_stats st;
    vf_result res = vf_buffer_read(t->depth, 0, depth, cells(t) * 4);
    if (res == VF_OK)
        res = vf_terrain_read_stats(s, &st);
    if (res == VF_OK)
        *out = (vf_terrain_volume){.total = depth_sum(depth, cells(t)),
                                   .initial = t->initial,
                                   .added = t->added,
                                   .drained = ((uint64_t)st.drained_hi << 32) | st.drained_lo,
                                   .cell_area = t->d.dx * t->d.dx};
    free(depth);
    return res;
}

void vf_terrain_get_state(const vf_solver *s, vf_terrain_state *out)
{
    const vf_terrain *t = (const vf_terrain *)s;
    *out = (vf_terrain_state){
        .eta = t->eta,
        .bed = t->bed[t->cur],
        .depth = t->depth,
        .mom = t->mom,
        .zeros = t->zeros,
        .objects = t->objects,
        .nx = t->nx,
        .ny = t->ny,
        .object_count = t->d.dozer ? 1u : 0u,
        .dx = (float)t->d.dx,
        .g = (float)t->d.g,
        .datum = t->datum,
        .ground_lo = (float)(t->lo - t->datum),
        .ground_hi = (float)(t->hi - t->datum),
        .max_depth = (float)fmax(t->deepest, 0.1 * (t->hi - t->lo)),
        .time = t->sim_time,
        .ground0 = t->ground0,
    };
}

/* The surface at the start (ground, or the water on it) at a domain point (m),
 * bilinear over the cell centres. */
static double start_surface(const vf_terrain *t, double x, double y)
{
    double fx = fmin(fmax(x / t->d.dx - 0.5, 0.0), t->nx - 1.0), fy = fmin(fmax(y / t->d.dx - 0.5, 0.0), t->ny - 1.0);
    uint32_t i0 = (uint32_t)fx, j0 = (uint32_t)fy, i1 = i0 + 1 < t->nx ? i0 + 1 : i0, j1 = j0 + 1 < t->ny ? j0 + 1 : j0;
    double tx = fx - i0, ty = fy - j0;
    double v[4];
    uint32_t is[4] = {i0, i1, i0, i1}, js[4] = {j0, j0, j1, j1};
    for (int k = 0; k < 4; k++) {
        double g = t->ground0[(size_t)js[k] * t->nx + is[k]];
        v[k] = g + initial_depth(&t->d, (int)is[k], g + t->datum);
    }
    return (v[0] * (1 - tx) + v[1] * tx) * (1 - ty) + (v[2] * (1 - tx) + v[3] * tx) * ty;
}

bool vf_terrain_pick(const vf_solver *s, const double o[3], const double dir[3], double hit[2])
{
    const vf_terrain *t = (const vf_terrain *)s;
    const double lx = t->nx * t->d.dx, ly = t->ny * t->d.dx;
    /* the ray's stretch over the domain's box (x, y; z from the lowest to the highest ground) */
    double t0 = 0.0, t1 = INFINITY;
    const double lo[3] = {0, 0, t->lo - t->datum - 1.0}, hi[3] = {lx, ly, t->hi - t->datum + 1e4};
    for (int a = 0; a < 3; a++) {
        if (fabs(dir[a]) < 1e-12) {
            if (o[a] < lo[a] || o[a] > hi[a])
                return false;
            continue;
        }
        double ta = (lo[a] - o[a]) / dir[a], tb = (hi[a] - o[a]) / dir[a];
        t0 = fmax(t0, fmin(ta, tb));
        t1 = fmin(t1, fmax(ta, tb));
    }
    if (!(t0 <= t1) || !isfinite(t1))
        return false;
    double len = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]), step = 0.5 * t->d.dx / len;
    double prev = t0;
    for (int k = 0; k < 1000000 && prev <= t1; k++) {
        double tc = fmin(t0 + k * step, t1);
        double x = o[0] + tc * dir[0], y = o[1] + tc * dir[1], z = o[2] + tc * dir[2];
        if (z <= start_surface(t, x, y)) {
            /* between prev (above) and tc (below): bisect */
            double a = prev, b = tc;
            for (int it = 0; it < 30; it++) {
                double m = 0.5 * (a + b);
                double zm = o[2] + m * dir[2];
                if (zm <= start_surface(t, o[0] + m * dir[0], o[1] + m * dir[1]))
                    b = m;
                else
                    a = m;
            }
            hit[0] = o[0] + b * dir[0];
            hit[1] = o[1] + b * dir[1];
            return true;
        }
        prev = tc;
        if (tc >= t1)
            break;
    }
    return false;
}

/* ------------------------------------------------------------------ export, summary, check */

/* Writes terrain_INDEX.csv and terrain_INDEX.vti from host copies. */
static vf_result write_state(vf_terrain *t, const char *dir, uint32_t index, const float *bed, const uint32_t *depth,
                             const float *mom)
{
    size_t n = cells(t);
    float *surf = malloc(n * 4), *ground = malloc(n * 4), *h = malloc(n * 4), *vel = malloc(3 * n * 4);
    vf_result res = surf && ground && h && vel ? VF_OK : VF_ERR_NO_MEMORY;
    if (res != VF_OK)
        goto done;
    for (size_t i = 0; i < n; i++) {
        double hd = depth[i] * VF_TERRAIN_QUANTUM;
        h[i] = (float)hd;
        ground[i] = (float)(bed[i] + t->datum);
        surf[i] = (float)(bed[i] + t->datum + hd);
        bool wet = hd > t->d.dry_depth;
        vel[3 * i] = wet ? (float)(mom[2 * i] / hd) : 0.0f; /* (u, v, 0): VTK's vectors have 3 components */
        vel[3 * i + 1] = wet ? (float)(mom[2 * i + 1] / hd) : 0.0f;
        vel[3 * i + 2] = 0.0f;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/terrain_%04u.csv", dir, index);
    vf_file file;
    if ((res = vf_file_begin(&file, path)) != VF_OK)
        goto done;
    fprintf(file.f, "x,y,surface,ground,depth,u,v\n");
    for (uint32_t j = 0; j < t->ny; j++)
        for (uint32_t i = 0; i < t->nx; i++) {
            size_t k = (size_t)j * t->nx + i;
            fprintf(file.f, "%.6g,%.6g,%.7g,%.7g,%.7g,%.6g,%.6g\n", (i + 0.5) * t->d.dx, (j + 0.5) * t->d.dx, surf[k],
                    ground[k], h[k], vel[3 * k], vel[3 * k + 1]);
        }
    if ((res = vf_file_commit(&file)) != VF_OK)
        goto done;
    snprintf(path, sizeof path, "%s/terrain_%04u.vti", dir, index);
    vf_vti_field fields[4] = {{"surface", 1, surf}, {"ground", 1, ground}, {"depth", 1, h}, {"velocity", 3, vel}};
    vf_vti_desc vd = {.nx = t->nx, .ny = t->ny, .nz = 1, .origin = {0.5 * t->d.dx, 0.5 * t->d.dx, 0},
                      .spacing = {t->d.dx, t->d.dx, t->d.dx}, .fields = fields, .field_count = 4,
                      .compression = t->base.vti_compression};
    res = vf_vti_write(path, &vd);
done:
    free(surf);
    free(ground);
    free(h);
    free(vel);
    return res;
}

/* Host copies of the ground, depth and momentum (free them). */
static vf_result read_all(vf_terrain *t, float **bed, uint32_t **depth, float **mom)
{
    size_t n = cells(t);
    *bed = malloc(n * 4);
    *depth = malloc(n * 4);
    *mom = malloc(2 * n * 4);
    vf_result res = *bed && *depth && *mom ? vf_terrain_download(&t->base, *bed, *depth, *mom) : VF_ERR_NO_MEMORY;
    if (res != VF_OK) {
        free(*bed);
        free(*depth);
        free(*mom);
        *bed = *mom = NULL;
        *depth = NULL;
    }
    return res;
}

static vf_result terrain_export(vf_solver *s, const char *dir, uint32_t index)
{
    vf_terrain *t = (vf_terrain *)s;
    float *bed, *mom;
    uint32_t *depth;
    vf_result res = read_all(t, &bed, &depth, &mom);
    if (res != VF_OK)
        return res;
    res = write_state(t, dir, index, bed, depth, mom);
    free(bed);
    free(depth);
    free(mom);
    return res;
}

static vf_result terrain_export_last_good(vf_solver *s, const char *dir, uint32_t index)
{
    vf_terrain *t = (vf_terrain *)s;
    if (!t->good_depth)
        return VF_ERR_UNSUPPORTED;
    return write_state(t, dir, index, t->good_bed, t->good_depth, t->good_mom);
}

static double quanta_m3(const vf_terrain *t, double q)
{
    return q * VF_TERRAIN_QUANTUM * t->d.dx * t->d.dx;
}

static void terrain_write_summary(vf_solver *s, FILE *f, const char *indent)
{
    vf_terrain *t = (vf_terrain *)s;
    vf_terrain_volume v = {0};
    vf_terrain_stats st = {0};
    bool ok = vf_terrain_read_volume(s, &v) == VF_OK && vf_terrain_read_stats(s, &st) == VF_OK;
    float cfl;
    memcpy(&cfl, &st.cfl_bits, sizeof cfl);
    double expected = (double)v.initial + (double)v.added - (double)v.drained;
    fprintf(f, "%s\"dt\": ", indent);
    vf_json_number(f, t->dt);
    fprintf(f, ",\n%s\"datum\": ", indent);
    vf_json_number(f, t->datum);
    fprintf(f, ",\n%s\"initial_volume\": ", indent);
    vf_json_number(f, quanta_m3(t, (double)v.initial));
    fprintf(f, ",\n%s\"total_volume\": ", indent);
    vf_json_number(f, ok ? quanta_m3(t, (double)v.total) : NAN);
    fprintf(f, ",\n%s\"added_volume\": ", indent);
    vf_json_number(f, quanta_m3(t, (double)v.added));
    fprintf(f, ",\n%s\"drained_volume\": ", indent);
    vf_json_number(f, quanta_m3(t, (double)v.drained));
    /* what the water holds against what it started with plus sources and rain less the drains */
    fprintf(f, ",\n%s\"volume_error\": ", indent);
    vf_json_number(f, ok ? quanta_m3(t, (double)v.total - expected) : NAN);
    fprintf(f, ",\n%s\"max_cfl\": ", indent);
    vf_json_number(f, cfl);
    fprintf(f, ",\n%s\"speed_capped_cell_steps\": %u", indent, st.capped);
}

static vf_result terrain_check(vf_solver *s, char *msg, size_t cap)
{
    vf_terrain *t = (vf_terrain *)s;
    float *bed, *mom;
    uint32_t *depth;
    vf_result res = read_all(t, &bed, &depth, &mom);
    if (res != VF_OK)
        return res;
    size_t n = cells(t);
    for (size_t i = 0; i < n && res == VF_OK; i++)
        if (!isfinite(bed[i]) || !isfinite(mom[2 * i]) || !isfinite(mom[2 * i + 1])) {
            snprintf(msg, cap, "the %s is not finite at cell (%zu, %zu): lower dt or cfl",
                     isfinite(bed[i]) ? "momentum" : "ground", i % t->nx, i / t->nx);
            res = VF_ERR_NUMERIC;
        }
    vf_terrain_stats st;
    if (res == VF_OK && (res = vf_terrain_read_stats(s, &st)) == VF_OK) {
        uint64_t drained = ((uint64_t)st.drained_hi << 32) | st.drained_lo, total = depth_sum(depth, n);
        if (total + drained != t->initial + t->added) {
            snprintf(msg, cap, "the water's volume is %llu quanta, not the %llu the sources, rain and drains leave",
                     (unsigned long long)total, (unsigned long long)(t->initial + t->added - drained));
            res = VF_ERR_NUMERIC;
        }
    }
    if (res == VF_OK) { /* passed: the last good state (export_last_good) */
        free(t->good_bed);
        free(t->good_depth);
        free(t->good_mom);
        t->good_bed = bed;
        t->good_depth = depth;
        t->good_mom = mom;
        return VF_OK;
    }
    free(bed);
    free(depth);
    free(mom);
    return res;
}

static void terrain_interact(vf_solver *s, const vf_interaction *in)
{
    ((vf_terrain *)s)->pointer = *in;
}

static void terrain_describe(vf_solver *s, char *buf, size_t cap)
{
    vf_terrain *t = (vf_terrain *)s;
    snprintf(buf, cap, "terrain %ux%u, dt %.3g ms", t->nx, t->ny, 1e3 * t->dt);
}

/* What the bytes column of terrain_passes.def reads (w->...): f, one cell
 * field; fx, the face fluxes; objects, the dozer is on. */
typedef struct terrain_work {
    uint64_t f, fx;
    bool objects;
} terrain_work;

#define VF_PASS_BYTES_FN terrain_row_bytes
#define VF_PASS_WORK terrain_work
#include "sim_pass_bytes.h"

/* Bytes a pass moves per execution (terrain_passes.def). */
static uint64_t terrain_pass_bytes(vf_solver *s, const char *pass)
{
    vf_terrain *t = (vf_terrain *)s;
    const terrain_work w = {
        .f = 4 * cells(t),
        .fx = 16 * ((uint64_t)(t->nx + 1) * t->ny + (uint64_t)t->nx * (t->ny + 1)),
        .objects = t->d.dozer,
    };
    return terrain_row_bytes(&w, pass);
}

/* The state a substep advances: depth and the two momentum components. */
static uint64_t terrain_state_bytes(vf_solver *s)
{
    return 3 * 4 * cells((vf_terrain *)s);
}

static const vf_solver_vtable terrain_vt = {
    .family = "terrain",
    .destroy = terrain_destroy,
    .part_begin = terrain_part_begin,
    .frame_begin = terrain_frame_begin,
    .record_substep = terrain_record_substep,
    .frame_done = terrain_frame_done,
    .export_frame = terrain_export,
    .write_summary = terrain_write_summary,
    .check = terrain_check,
    .interact = terrain_interact,
    .describe = terrain_describe,
    .pass_bytes = terrain_pass_bytes,
    .state_bytes = terrain_state_bytes,
    .export_last_good = terrain_export_last_good,
    .submit_substeps = TERRAIN_SUBMIT_SUBSTEPS,
};

/* ------------------------------------------------------------------ create */

/* A spot's disc on the grid: its centre cell and squared radius in cells
 * (at least the centre cell), and how many cells it covers. */
static vf_terrain_disc spot_disc(const vf_terrain *t, const vf_terrain_spot *sp)
{
    int ci = (int)fmin(sp->x * t->nx, t->nx - 1.0), cj = (int)fmin(sp->y * t->ny, t->ny - 1.0);
    double r = sp->radius / t->d.dx;
    vf_terrain_disc d = {.ci = ci, .cj = cj, .r2 = (int)floor(r * r)};
    for (int j = 0; j < (int)t->ny; j++)
        for (int i = 0; i < (int)t->nx; i++)
            d.cells += vf_terrain_in_disc(i, j, d.ci, d.cj, d.r2);
    return d;
}

/* The spots of a desc in use (rate > 0): the source and the drain, their discs. */
static void place_spots(vf_terrain *t, const vf_terrain_desc *d)
{
    const vf_terrain_spot *src[VF_TERRAIN_MAX_SOURCES], *drn[VF_TERRAIN_MAX_DRAINS];
    uint32_t ns = 0, nd = 0;
    if (d->source.rate > 0)
        src[ns++] = &d->source;
    if (d->drain.rate > 0)
        drn[nd++] = &d->drain;
    for (uint32_t k = 0; k < ns; k++) {
        t->spots[k] = *src[k];
        t->tool_cells.sources[k] = spot_disc(t, src[k]);
    }
    for (uint32_t k = 0; k < nd; k++) {
        t->spots[VF_TERRAIN_MAX_SOURCES + k] = *drn[k];
        t->tool_cells.drains[k] = spot_disc(t, drn[k]);
    }
    t->sources = ns;
    t->drains = nd;
}

static vf_result make_buffer(vf_terrain *t, VkDeviceSize size, const char *name, vf_buffer **out)
{
    vf_buffer_desc d = {.size = size, .name = name};
    return vf_buffer_create(t->base.gpu, &d, out);
}

static vf_result make_buffers(vf_terrain *t)
{
    const VkDeviceSize n = cells(t), f = n * 4;
    const VkDeviceSize fxb = (VkDeviceSize)(t->nx + 1) * t->ny * 16, fyb = (VkDeviceSize)t->nx * (t->ny + 1) * 16;
    vf_result res = make_buffer(t, f, "terrain ground 0", &t->bed[0]);
    if (res == VF_OK) res = make_buffer(t, f, "terrain ground 1", &t->bed[1]);
    if (res == VF_OK) res = make_buffer(t, f, "terrain depth", &t->depth);
    if (res == VF_OK) res = make_buffer(t, 2 * f, "terrain momentum", &t->mom);
    if (res == VF_OK) res = make_buffer(t, fxb, "terrain x faces", &t->face_x);
    if (res == VF_OK) res = make_buffer(t, fyb, "terrain y faces", &t->face_y);
    if (res == VF_OK) res = make_buffer(t, f, "terrain limit", &t->limit);
    if (res == VF_OK) res = make_buffer(t, f, "terrain surface", &t->eta);
    if (res == VF_OK) res = make_buffer(t, f, "terrain zeros", &t->zeros);
    if (res == VF_OK) res = make_buffer(t, sizeof(vf_terrain_tools), "terrain sources and drains", &t->tools);
    if (res == VF_OK) res = make_buffer(t, sizeof(vf_terrain_stats), "terrain stats", &t->stats);
    if (res == VF_OK) res = make_buffer(t, sizeof(vf_height_object), "terrain bulldozer", &t->objects);
    for (int i = 0; i < TP_COUNT && res == VF_OK; i++)
        res = vf_sim_pass_pipeline(t->base.gpu, &TP_passes[i], NULL, 0, NULL, &t->pipe[i]);
    return res;
}

/* The start: ground above the datum, depth, eta, the bulldozer at its start. */
static vf_result upload_start(vf_terrain *t, const double *ground)
{
    const size_t n = cells(t);
    uint32_t *depth = malloc(n * 4);
    float *eta = malloc(n * 4);
    vf_result res = depth && eta ? VF_OK : VF_ERR_NO_MEMORY;
    for (size_t k = 0; k < n && res == VF_OK; k++) {
        int i = (int)(k % t->nx);
        t->ground0[k] = (float)(ground[k] - t->datum);
        double h = initial_depth(&t->d, i, ground[k]);
        depth[k] = (uint32_t)llround(h / VF_TERRAIN_QUANTUM);
        eta[k] = t->ground0[k] + (float)(depth[k] * VF_TERRAIN_QUANTUM);
    }
    if (res == VF_OK) {
        t->initial = depth_sum(depth, n);
        double x, y, c, sn;
        dozer_at(t, 0.0, &x, &y, &c, &sn);
        uint32_t bi = (uint32_t)fmin(fmax(x / t->d.dx, 0), t->nx - 1), bj = (uint32_t)fmin(fmax(y / t->d.dx, 0), t->ny - 1);
        vf_height_object o = {.x = (float)x, .y = (float)y, .z = t->ground0[(size_t)bj * t->nx + bi],
                              .heading = (float)atan2(sn, c), .size = (float)fmax(1.2 * t->d.dozer_width, 3 * t->d.dx),
                              .kind = VF_HEIGHT_OBJ_DOZER};
        res = vf_buffer_write(t->bed[0], 0, t->ground0, n * 4);
        if (res == VF_OK) res = vf_buffer_write(t->bed[1], 0, t->ground0, n * 4);
        if (res == VF_OK) res = vf_buffer_write(t->depth, 0, depth, n * 4);
        if (res == VF_OK) res = vf_buffer_write(t->eta, 0, eta, n * 4);
        if (res == VF_OK) res = vf_buffer_fill(t->mom, 0, VK_WHOLE_SIZE, 0);
        if (res == VF_OK) res = vf_buffer_fill(t->face_x, 0, VK_WHOLE_SIZE, 0);
        if (res == VF_OK) res = vf_buffer_fill(t->face_y, 0, VK_WHOLE_SIZE, 0);
        if (res == VF_OK) res = vf_buffer_fill(t->limit, 0, VK_WHOLE_SIZE, 0x3f800000u); /* 1.0f */
        if (res == VF_OK) res = vf_buffer_fill(t->zeros, 0, VK_WHOLE_SIZE, 0);
        if (res == VF_OK) res = vf_buffer_fill(t->stats, 0, VK_WHOLE_SIZE, 0);
        if (res == VF_OK) res = vf_buffer_write(t->tools, 0, &t->tool_cells, sizeof t->tool_cells);
        if (res == VF_OK) res = vf_buffer_write(t->objects, 0, &o, sizeof o);
    }
    free(depth);
    free(eta);
    return res;
}

vf_result vf_terrain_create(vf_gpu *gpu, const vf_terrain_desc *desc, vf_solver **out, const char **key, char *err,
                            size_t cap)
{
    char dummy_err[8];
    err = vf_err_buffer(err, &cap, dummy_err, sizeof dummy_err);
    *out = NULL;
    vf_result res; /* the values come validated (vf_terrain_validate): only the device is checked here */
    const uint64_t n = (uint64_t)desc->nx * (uint64_t)desc->ny;
    const uint64_t faces = 16 * ((uint64_t)(desc->nx + 1) * desc->ny);
    char what[64];
    snprintf(what, sizeof what, "%d x %d cells", desc->nx, desc->ny);
    if ((res = vf_solver_check_fit(gpu, n * 4 * 8 + 2 * faces, faces, "nx", what, "use a smaller nx or ny", key, err,
                                   cap)) != VF_OK)
        return res;
    vf_terrain *t = calloc(1, sizeof *t);
    double *ground = malloc(n * sizeof *ground);
    if (!t || !ground || !(t->ground0 = malloc(n * 4))) {
        free(ground);
        if (t)
            terrain_destroy(&t->base);
        return VF_ERR_NO_MEMORY;
    }
    t->base.vt = &terrain_vt;
    t->base.gpu = gpu;
    t->base.frame_dt = desc->frame_dt;
    t->d = *desc;
    t->d.heightmap = NULL; /* the caller's array: create keeps no pointer to it */
    t->nx = (uint32_t)desc->nx;
    t->ny = (uint32_t)desc->ny;
    build_ground(desc, ground);
    bool surveyed = survey(desc, &t->deepest, &t->lo, &t->hi);
    t->datum = floor(t->lo);
    t->dt = pick_dt(desc, t->deepest, t->lo, t->hi);
    place_spots(t, desc);
    res = surveyed ? make_buffers(t) : VF_ERR_NO_MEMORY;
    if (res == VF_OK)
        res = upload_start(t, ground);
    free(ground);
    if (res != VF_OK) {
        res = vf_solver_alloc_failed(gpu, res, n * 4 * 8 + 2 * faces, "nx", what, "use a smaller nx or ny", key, err,
                                     cap);
        terrain_destroy(&t->base);
        return res;
    }
    *out = &t->base;
    return VF_OK;
}

static vf_result family_create(vf_gpu *gpu, const void *desc, vf_solver **out, const char **key, char *err, size_t cap)
{
    return vf_terrain_create(gpu, desc, out, key, err, cap);
}

const vf_solver_family vf_terrain_family = {.name = "terrain", .create = family_create};
