#include "solver_grid3d.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_vti.h"
#include "fileio.h"
#include "gpu_cmd.h"
#include "gpu_fft.h"
#include "gpu_pipeline.h"
#include "sim_multigrid.h"
#include "text.h"

/* The pass enum (G3_*), binding counts and table G3_passes, from grid3d_passes.def. */
#define VF_PASS_FILE "grid3d_passes.def"
#define VF_PASS_PREFIX G3
#define VF_PASS_TABLE_FN vf_grid3d_pass_table
#include "sim_pass_table.h"

/* the tail packs the sweeps into its mode: pre and post in 8 bits, the
 * coarse sweeps in 16 (create checks mg_pre, mg_post <= 64, coarse_iters <= 10000) */

size_t vf_grid3d_face_index(uint32_t nx, uint32_t ny, uint32_t nz, int c, int i, int j, int k)
{
    size_t o1 = (size_t)(nx + 1) * ny * nz, o2 = o1 + (size_t)nx * (ny + 1) * nz;
    size_t dx = nx + (c == 0), dy = ny + (c == 1);
    return (c == 0 ? 0 : c == 1 ? o1 : o2) + ((size_t)k * dy + (size_t)j) * dx + (size_t)i;
}

void vf_grid3d_coarsen_mask(uint32_t nx, uint32_t ny, uint32_t nz, const uint32_t *fine, uint32_t *coarse)
{
    uint32_t cx = nx / 2, cy = ny / 2, cz = nz / 2;
    for (uint32_t k = 0; k < cz; k++)
        for (uint32_t j = 0; j < cy; j++)
            for (uint32_t i = 0; i < cx; i++) {
                uint32_t all = VF_G3_CELL_SOLID;
                for (uint32_t n = 0; n < 8; n++) {
                    uint32_t x = 2 * i + (n & 1), y = 2 * j + ((n >> 1) & 1), z = 2 * k + ((n >> 2) & 1);
                    if (fine[((size_t)z * ny + y) * nx + x] == VF_G3_CELL_FLUID)
                        all = VF_G3_CELL_FLUID;
                }
                coarse[((size_t)k * cy + j) * cx + i] = all;
            }
}

typedef struct g3_level {
    uint32_t nx, ny, nz;
    float h;
    vf_buffer *x, *b, *r, *mask; /* level 0: x = pressure, b = rhs, r = residual / Jacobi scratch */
} g3_level;

struct vf_grid3d {
    vf_solver base; /* first: the vtable view */
    vf_gpu *gpu;
    vf_grid3d_desc d;
    uint32_t nx, ny, nz;
    float h, dt;
    uint32_t sides_packed;
    uint32_t levels, coarse_iters, diffuse_iters;
    float coarse_omega;
    uint32_t tail;        /* first level V-cycled by grid3d_mg_tail; levels when none */
    uint32_t tail_floats; /* its shared array (VF_G3_SPEC_TAIL_FLOATS) */
    uint32_t tail_wg;     /* its workgroup size (VF_G3_SPEC_TAIL_WG) */
    vf_pipeline *pipe[G3_COUNT];
    vf_buffer *vel[2], *velh, *scal[2], *scalh, *omega;
    g3_level lv[VF_GRID3D_MAX_LEVELS];
    uint32_t cu, cs;   /* current velocity and scalar buffers */
    vf_fft *fft;       /* fft: the transforms between lv[0].b and lv[0].x */
    vf_buffer *fft_eig;/* fft: the operator's eigenvalues per axis (grid3d_fft_scale) */
    uint64_t rec_steps, rec_frames;
    /* the viewer's push for the next substeps */
    float push_centre[3], push_radius, push_acc[3];
    bool push_inject;
};

#define B(buf) vf_bind_buffer(buf)

/* ------------------------------------------------------------------ sizes */

void vf_grid3d_fill_defaults(vf_grid3d_desc *d)
{
    if (!d->nx)
        d->nx = 32;
    if (!d->ny)
        d->ny = d->nx;
    if (!d->nz)
        d->nz = d->nx;
    if (d->width <= 0)
        d->width = 1.0;
    if (d->cfl <= 0)
        d->cfl = 1.0;
    if (d->vel_scale <= 0)
        d->vel_scale = 1.0;
    if (!d->substeps)
        d->substeps = 1;
    if (!d->pressure_iters)
        d->pressure_iters = d->pressure == VF_GRID3D_PRESSURE_JACOBI ? 100 : 2;
    if (!d->mg_pre)
        d->mg_pre = 2;
    if (!d->mg_post)
        d->mg_post = 2;
    if (d->dt <= 0)
        d->dt = d->cfl * (d->width / d->nx) / d->vel_scale;
}

/* Plans the multigrid levels; returns the count and the coarsest size. */
static uint32_t plan_levels(uint32_t nx, uint32_t ny, uint32_t nz, uint32_t c[3])
{
    uint32_t n = 1;
    while (n < VF_GRID3D_MAX_LEVELS && nx % 2 == 0 && ny % 2 == 0 && nz % 2 == 0 && nx >= 4 && ny >= 4 && nz >= 4 &&
           (nx > VF_GRID3D_COARSE_TARGET || ny > VF_GRID3D_COARSE_TARGET || nz > VF_GRID3D_COARSE_TARGET)) {
        nx /= 2;
        ny /= 2;
        nz /= 2;
        n++;
    }
    c[0] = nx;
    c[1] = ny;
    c[2] = nz;
    return n;
}

/* Levels the solver keeps: multigrid's; with fft, multigrid's too where
 * they are valid (the benchmark and the tests compare the two on one grid);
 * Jacobi none. */
static uint32_t kept_levels(const vf_grid3d_desc *d)
{
    uint32_t c[3], levels = plan_levels(d->nx, d->ny, d->nz, c);
    if (d->pressure == VF_GRID3D_PRESSURE_JACOBI)
        return 1;
    if (d->pressure == VF_GRID3D_PRESSURE_FFT)
        for (int a = 0; a < 3; a++)
            if (c[a] > VF_GRID3D_COARSE_MAX || (d->sides[2 * a] == VF_G3_BC_PERIODIC && c[a] % 2))
                return 1;
    return levels;
}

static uint64_t faces_of(uint64_t nx, uint64_t ny, uint64_t nz)
{
    return (nx + 1) * ny * nz + nx * (ny + 1) * nz + nx * ny * (nz + 1);
}

uint64_t vf_grid3d_memory_bytes(const vf_grid3d_desc *din)
{
    vf_grid3d_desc d = din ? *din : (vf_grid3d_desc){0};
    vf_grid3d_fill_defaults(&d);
    uint64_t c = (uint64_t)d.nx * d.ny * d.nz, f = faces_of(d.nx, d.ny, d.nz);
    bool mc = d.advection == VF_GRID3D_ADVECT_MACCORMACK;
    uint64_t floats = (mc ? 3 : 2) * f + (mc ? 6 : 4) * c + (d.vorticity > 0 ? 4 * c : 0);
    uint32_t cs[3];
    uint32_t levels = d.pressure == VF_GRID3D_PRESSURE_FFT ? kept_levels(&d) : plan_levels(d.nx, d.ny, d.nz, cs);
    for (uint32_t l = 0; l < levels; l++)
        floats += 4 * ((uint64_t)(d.nx >> l) * (d.ny >> l) * (d.nz >> l));
    uint64_t extra = 0;
    if (d.pressure == VF_GRID3D_PRESSURE_FFT) {
        /* the padded rows of b and p, the transforms, the eigenvalues */
        const uint32_t size[3] = {d.nx, d.ny, d.nz};
        extra = 2 * (vf_fft_real_bytes(3, size) - c * 4) + vf_fft_memory_bytes(3, size) +
                ((uint64_t)d.nx / 2 + 1 + d.ny + d.nz) * 4;
    }
    return floats * 4 + extra;
}

static bool shape_cell(const vf_grid3d_obstacle *o, const double x[3])
{
    double d[3];
    for (int a = 0; a < 3; a++)
        d[a] = x[a] - o->centre[a];
    switch (o->shape) {
    case VF_GRID3D_SHAPE_BOX:
        return fabs(d[0]) <= o->size[0] && fabs(d[1]) <= o->size[1] && fabs(d[2]) <= o->size[2];
    case VF_GRID3D_SHAPE_SPHERE:
        return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= (double)o->size[0] * o->size[0];
    case VF_GRID3D_SHAPE_CYLINDER: {
        uint32_t a = o->axis % 3, b = (a + 1) % 3, c = (a + 2) % 3;
        return fabs(d[a]) <= o->size[1] && d[b] * d[b] + d[c] * d[c] <= (double)o->size[0] * o->size[0];
    }
    default:
        return false;
    }
}

/* Half-extents of an obstacle's bounding box. */
static void shape_extent(const vf_grid3d_obstacle *o, double e[3])
{
    for (int a = 0; a < 3; a++)
        e[a] = o->shape == VF_GRID3D_SHAPE_BOX ? o->size[a] : o->size[0];
    if (o->shape == VF_GRID3D_SHAPE_CYLINDER)
        e[o->axis % 3] = o->size[1];
}

/* The smallest size >= n that halves (while even and >= 4) to at most cmax. */
static uint32_t next_mg_size(uint32_t n, uint32_t cmax)
{
    for (uint32_t m = n;; m++) {
        uint32_t c = m;
        while (c % 2 == 0 && c >= 4 && c > cmax)
            c /= 2;
        if (c <= cmax)
            return m;
    }
}

static uint32_t next_pow2(uint32_t n)
{
    uint32_t m = 8;
    while (m < n && m < (1u << 31))
        m <<= 1;
    return m;
}

/* Periodic sides: in pairs, an even count of cells along a periodic axis on
 * every multigrid level (red-black ordering across the wrap); pressure=fft:
 * all six sides periodic, no solids, sides VkFFT's radix kernels take. */
static vf_result validate_periodic(const vf_grid3d_desc *d, const char **key, char *err, size_t cap)
{
    static const char *const axis[3] = {"x", "y", "z"};
    const uint32_t n[3] = {d->nx, d->ny, d->nz};
    uint32_t c[3];
    plan_levels(d->nx, d->ny, d->nz, c);
    int periodic = 0;
    for (int a = 0; a < 3; a++) {
        bool p0 = d->sides[2 * a] == VF_G3_BC_PERIODIC, p1 = d->sides[2 * a + 1] == VF_G3_BC_PERIODIC;
        if (p0 != p1) {
            vf_set_err(err, cap, "sides: the two %s sides must both be periodic or neither", axis[a]);
            return VF_ERR_INVALID_ARG;
        }
        if (!p0)
            continue;
        periodic++;
        if (n[a] % 2) {
            vf_set_key_err(key, err, cap, "n", ": %u cells along %s: periodic sides need an even number of cells (red-black "
                                 "ordering): use n=%u", n[a], axis[a], n[a] + 1);
            return VF_ERR_INVALID_ARG;
        }
        if (d->pressure == VF_GRID3D_PRESSURE_MULTIGRID && c[a] % 2) {
            vf_set_key_err(key, err, cap, "n", ": %u cells along %s coarsen to an odd %u: periodic multigrid needs an even count on "
                                 "every level: use n=%u (a power of 2), or pressure=fft",
                       n[a], axis[a], c[a], next_pow2(n[a]));
            return VF_ERR_INVALID_ARG;
        }
    }
    if (d->pressure != VF_GRID3D_PRESSURE_FFT)
        return VF_OK;
    if (periodic != 3) {
        vf_set_key_err(key, err, cap, "pressure", ": fft solves a triply periodic box only (Stam's FFT solver), and this one has "
                             "walls, an inflow or an outflow: use walls=periodic (smoke3d, fire3d), or "
                             "pressure=multigrid");
        return VF_ERR_INVALID_ARG;
    }
    for (int k = 0; k < VF_GRID3D_MAX_OBSTACLES; k++)
        if (d->obstacles[k].shape != VF_GRID3D_SHAPE_NONE) {
            vf_set_key_err(key, err, cap, "obstacle", ": pressure=fft solves a box without solids: use obstacle=none, or "
                                 "pressure=multigrid");
            return VF_ERR_INVALID_ARG;
        }
    for (int a = 0; a < 3; a++) {
        uint32_t p = vf_fft_largest_prime(n[a]);
        if (p > VF_FFT_MAX_PRIME) {
            vf_set_key_err(key, err, cap, "n", ": %u x %u x %u cells: pressure=fft takes sides whose prime factors are at most %d "
                                 "(VkFFT's radix kernels) and %u has %u: use n=%u",
                       d->nx, d->ny, d->nz, VF_FFT_MAX_PRIME, n[a], p, vf_fft_nearest_size(n[a], true));
            return VF_ERR_INVALID_ARG;
        }
    }
    return VF_OK;
}

vf_result vf_grid3d_validate_desc(const vf_grid3d_desc *d, const char **key, char *err, size_t cap)
{
    if (d->nx < VF_GRID3D_MIN_N || d->ny < VF_GRID3D_MIN_N || d->nz < VF_GRID3D_MIN_N) {
        vf_set_key_err(key, err, cap, "n", ": %u x %u x %u cells: must be at least %d per axis", d->nx, d->ny, d->nz, VF_GRID3D_MIN_N);
        return VF_ERR_INVALID_ARG;
    }
    uint64_t bytes = faces_of(d->nx, d->ny, d->nz) * 4;
    if (bytes > UINT32_MAX) {
        vf_set_key_err(key, err, cap, "n", ": %u x %u x %u cells need a %.1f GiB velocity buffer; vulkan binds at most 4 GiB: use a smaller n",
                d->nx, d->ny, d->nz, (double)bytes / (1u << 30));
        return VF_ERR_TOO_LARGE;
    }
    vf_result res = validate_periodic(d, key, err, cap);
    if (res != VF_OK)
        return res;
    if (d->pressure == VF_GRID3D_PRESSURE_MULTIGRID) {
        uint32_t c[3];
        plan_levels(d->nx, d->ny, d->nz, c);
        if (c[0] > VF_GRID3D_COARSE_MAX || c[1] > VF_GRID3D_COARSE_MAX || c[2] > VF_GRID3D_COARSE_MAX) {
            vf_set_key_err(key, err, cap,
                    "n", ": %u x %u x %u cells do not coarsen below %u x %u x %u for multigrid: use sizes m * 2^k with "
                    "m <= %d on every axis (e.g. %u x %u x %u), or pressure=jacobi",
                    d->nx, d->ny, d->nz, c[0], c[1], c[2], VF_GRID3D_COARSE_MAX, next_mg_size(d->nx, VF_GRID3D_COARSE_MAX),
                    next_mg_size(d->ny, VF_GRID3D_COARSE_MAX), next_mg_size(d->nz, VF_GRID3D_COARSE_MAX));
            return VF_ERR_INVALID_ARG;
        }
    }
    bool outflow = false, inflow = false;
    for (int s = 0; s < 6; s++) {
        if (d->sides[s] > VF_G3_BC_PERIODIC) {
            vf_set_err(err, cap, "sides: unknown boundary type %u", d->sides[s]);
            return VF_ERR_INVALID_ARG;
        }
        outflow |= d->sides[s] == VF_G3_BC_OUTFLOW;
        inflow |= d->sides[s] == VF_G3_BC_INFLOW;
    }
    if (inflow && !outflow) {
        vf_set_err(err, cap, "sides: an inflow side needs an outflow side (a closed box cannot take in fluid)");
        return VF_ERR_INVALID_ARG;
    }
    double h = d->width / d->nx, ext[3] = {d->nx * h, d->ny * h, d->nz * h};
    for (int k = 0; k < VF_GRID3D_MAX_OBSTACLES; k++) {
        const vf_grid3d_obstacle *o = &d->obstacles[k];
        if (o->shape == VF_GRID3D_SHAPE_NONE)
            continue;
        double e[3];
        shape_extent(o, e);
        for (int a = 0; a < 3; a++) {
            if (!(e[a] > 0) || !(o->centre[a] - e[a] >= 0) || !(o->centre[a] + e[a] <= ext[a])) {
                vf_set_err(err, cap, "obstacle %d: %s extent [%g, %g] lies outside the domain [0, %g]: move or shrink it", k,
                        a == 0 ? "x" : a == 1 ? "y" : "z", o->centre[a] - e[a], o->centre[a] + e[a], ext[a]);
                return VF_ERR_INVALID_ARG;
            }
        }
    }
    if (d->source_on) {
        for (int a = 0; a < 3; a++)
            if (!(d->source[a] >= 0 && d->source[a] <= ext[a]) || !(d->source[3] > 0)) {
                vf_set_err(err, cap, "source: centre (%g, %g, %g) radius %g must lie inside the domain with radius > 0",
                        d->source[0], d->source[1], d->source[2], d->source[3]);
                return VF_ERR_INVALID_ARG;
            }
    }
    if (d->viscosity < 0 || !isfinite(d->viscosity)) {
        vf_set_key_err(key, err, cap, "viscosity", ": %g: must be >= 0", d->viscosity);
        return VF_ERR_INVALID_ARG;
    }
    if (d->cooling < 0 || !isfinite(d->cooling)) {
        vf_set_key_err(key, err, cap, "cooling", ": %g: must be >= 0", d->cooling);
        return VF_ERR_INVALID_ARG;
    }
    if (d->vorticity < 0 || !isfinite(d->vorticity)) {
        vf_set_key_err(key, err, cap, "vorticity", ": %g: must be >= 0", d->vorticity);
        return VF_ERR_INVALID_ARG;
    }
    if (d->pressure_iters > 10000 || d->substeps > 64 || d->diffuse_iters > 10000 || d->coarse_iters > 10000 ||
        d->mg_pre > 64 || d->mg_post > 64) {
        vf_set_err(err, cap, "pressure_iters/substeps: too many iterations per step (at most 10000 iterations, 64 substeps)");
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

/* ------------------------------------------------------------------ create */

static vf_result make_buf(vf_grid3d *g, vf_buffer **out, uint64_t bytes, const char *name)
{
    vf_buffer_desc bd = {.size = (bytes + 255) / 256 * 256, .name = name};
    return vf_buffer_create(g->gpu, &bd, out);
}

static vf_result create_buffers(vf_grid3d *g)
{
    vf_result res;
    uint64_t c = (uint64_t)g->nx * g->ny * g->nz * 4, f = faces_of(g->nx, g->ny, g->nz) * 4;
    bool mc = g->d.advection == VF_GRID3D_ADVECT_MACCORMACK;
#define MK(ptr, bytes, name)                                       \
    do {                                                           \
        if ((res = make_buf(g, &(ptr), (bytes), (name))) != VF_OK) \
            return res;                                            \
    } while (0)
    MK(g->vel[0], f, "grid3d velocity 0");
    MK(g->vel[1], f, "grid3d velocity 1");
    MK(g->scal[0], 2 * c, "grid3d scalars 0");
    MK(g->scal[1], 2 * c, "grid3d scalars 1");
    if (mc) {
        MK(g->velh, f, "grid3d velocity maccormack");
        MK(g->scalh, 2 * c, "grid3d scalars maccormack");
    }
    if (g->d.vorticity > 0)
        MK(g->omega, 4 * c, "grid3d vorticity");
    const bool fft = g->d.pressure == VF_GRID3D_PRESSURE_FFT;
    for (uint32_t l = 0; l < g->levels; l++) {
        g3_level *L = &g->lv[l];
        uint64_t lc = (uint64_t)L->nx * L->ny * L->nz * 4;
        /* the FFT's transforms bind the padded rows of the real fields they read and write */
        const uint32_t size[3] = {L->nx, L->ny, L->nz};
        uint64_t lr = fft && l == 0 ? vf_fft_real_bytes(3, size) : lc;
        char name[64];
        snprintf(name, sizeof name, "grid3d pressure x %u", l);
        MK(L->x, lr, name);
        snprintf(name, sizeof name, "grid3d pressure b %u", l);
        MK(L->b, lr, name);
        snprintf(name, sizeof name, "grid3d pressure r %u", l);
        MK(L->r, lc, name);
        snprintf(name, sizeof name, "grid3d mask %u", l);
        MK(L->mask, lc, name);
    }
    if (fft)
        MK(g->fft_eig, ((uint64_t)g->nx / 2 + 1 + g->ny + g->nz) * 4, "grid3d fft eigenvalues");
#undef MK
    return VF_OK;
}

/* Picks the tail level (the finest level whose V-cycle down to the coarsest
 * fits one workgroup's shared memory, from the device's limits, in at most
 * VF_G3_TAIL_MAX_LEVELS levels) and the tail kernel's workgroup size.
 * g->tail = g->levels: no tail (one level, or not even two levels fit). */
static void plan_tail(vf_grid3d *g)
{
    uint64_t cells[VF_GRID3D_MAX_LEVELS];
    for (uint32_t l = 0; l < g->levels; l++)
        cells[l] = (uint64_t)g->lv[l].nx * g->lv[l].ny * g->lv[l].nz;
    vf_mg_tail_plan p = vf_mg_plan_tail(&g->gpu->props.limits, g->levels, cells, VF_G3_TAIL_MAX_LEVELS,
                                        VF_G3_TAIL_MAX_WG, VF_G3_TAIL_DEFAULT_FLOATS);
    g->tail = p.tail;
    g->tail_floats = p.floats;
    g->tail_wg = p.wg;
}

/* Builds every pass; grid3d_mg_tail takes its sizes from the plan, every
 * pass whether some side is periodic. */
static vf_result create_pipelines(vf_grid3d *g)
{
    vf_result res = VF_OK;
    uint32_t periodic = 0;
    for (int s = 0; s < 6; s++)
        periodic |= g->d.sides[s] == VF_G3_BC_PERIODIC;
    _Static_assert(VF_G3_SPEC_PERIODIC == 3 && VF_G3_SPEC_TAIL_FLOATS < 3 && VF_G3_SPEC_TAIL_WG < 3,
                   "the 3D grid's specialization constants are ids 0 to 3");
    for (int i = 0; i < G3_COUNT && res == VF_OK; i++) {
        uint32_t spec[4] = {[VF_G3_SPEC_TAIL_FLOATS] = g->tail_floats, [VF_G3_SPEC_TAIL_WG] = g->tail_wg,
                            [VF_G3_SPEC_PERIODIC] = periodic};
        res = vf_sim_pass_pipeline(g->gpu, &G3_passes[i], spec, 4, NULL, &g->pipe[i]);
    }
    return res;
}

static vf_result init_state(vf_grid3d *g)
{
    size_t c = (size_t)g->nx * g->ny * g->nz;
    uint32_t *mask = calloc(c, 4), *coarse = calloc(c, 4);
    float *scal = calloc(2 * c, 4);
    vf_result res = VF_ERR_NO_MEMORY;
    if (!mask || !coarse || !scal)
        goto done;
    for (uint32_t k = 0; k < g->nz; k++)
        for (uint32_t j = 0; j < g->ny; j++)
            for (uint32_t i = 0; i < g->nx; i++) {
                double x[3] = {(i + 0.5) * g->h, (j + 0.5) * g->h, (k + 0.5) * g->h};
                for (int o = 0; o < VF_GRID3D_MAX_OBSTACLES; o++)
                    if (shape_cell(&g->d.obstacles[o], x))
                        mask[((size_t)k * g->ny + j) * g->nx + i] = VF_G3_CELL_SOLID;
            }
    for (uint32_t l = 0; l < g->levels; l++) {
        g3_level *L = &g->lv[l];
        size_t lc = (size_t)L->nx * L->ny * L->nz;
        if ((res = vf_buffer_write(L->mask, 0, mask, lc * 4)) != VF_OK)
            goto done;
        if (l + 1 < g->levels) {
            vf_grid3d_coarsen_mask(L->nx, L->ny, L->nz, mask, coarse);
            memcpy(mask, coarse, lc / 8 * 4);
        }
        vf_buffer *zero[] = {L->x, L->b, L->r};
        for (int z = 0; z < 3; z++)
            if ((res = vf_buffer_fill(zero[z], 0, VK_WHOLE_SIZE, 0)) != VF_OK)
                goto done;
    }
    for (size_t k = 0; k < c; k++)
        scal[c + k] = g->d.initial_temperature;
    vf_buffer *zero[] = {g->vel[0], g->vel[1], g->velh, g->scalh, g->omega};
    for (int z = 0; z < 5; z++)
        if (zero[z] && (res = vf_buffer_fill(zero[z], 0, VK_WHOLE_SIZE, 0)) != VF_OK)
            goto done;
    if ((res = vf_buffer_write(g->scal[0], 0, scal, 2 * c * 4)) != VF_OK ||
        (res = vf_buffer_write(g->scal[1], 0, scal, 2 * c * 4)) != VF_OK)
        goto done;
    res = VF_OK;
done:
    free(mask);
    free(coarse);
    free(scal);
    return res;
}

/* The FFT solver: the transforms between the right-hand side and the
 * pressure, and the operator's eigenvalues along each axis,
 * 4 sin^2(pi k / n) / h^2 (computed here in double precision). */
static vf_result create_fft(vf_grid3d *g, char *err, size_t cap)
{
    vf_fft_desc fd = {.dims = 3, .size = {g->nx, g->ny, g->nz}, .real_in = g->lv[0].b, .real_out = g->lv[0].x,
                      .name = "grid3d pressure"};
    vf_result res = vf_fft_create(g->gpu, &fd, &g->fft, err, cap);
    if (res != VF_OK)
        return res;
    const uint32_t cx = g->nx / 2 + 1, len[3] = {cx, g->ny, g->nz}, n[3] = {g->nx, g->ny, g->nz};
    size_t count = (size_t)cx + g->ny + g->nz, o = 0;
    float *e = malloc(count * sizeof(float));
    if (!e)
        return VF_ERR_NO_MEMORY;
    double h2 = (double)g->h * g->h;
    for (int a = 0; a < 3; a++)
        for (uint32_t k = 0; k < len[a]; k++)
            e[o++] = (float)(4.0 * pow(sin(3.14159265358979323846 * k / n[a]), 2) / h2);
    res = vf_buffer_write(g->fft_eig, 0, e, count * sizeof(float));
    free(e);
    return res;
}

static const vf_solver_vtable grid3d_vtable;

void vf_grid3d_destroy(vf_grid3d **pg)
{
    if (!pg || !*pg)
        return;
    vf_grid3d *g = *pg;
    for (int i = 0; i < G3_COUNT; i++)
        vf_pipeline_destroy(&g->pipe[i]);
    vf_fft_destroy(&g->fft);
    vf_buffer **all[] = {&g->vel[0], &g->vel[1], &g->velh, &g->scal[0], &g->scal[1], &g->scalh, &g->omega,
                         &g->fft_eig};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        vf_buffer_destroy(all[i]);
    for (uint32_t l = 0; l < VF_GRID3D_MAX_LEVELS; l++) {
        vf_buffer_destroy(&g->lv[l].x);
        vf_buffer_destroy(&g->lv[l].b);
        vf_buffer_destroy(&g->lv[l].r);
        vf_buffer_destroy(&g->lv[l].mask);
    }
    free(g);
    *pg = NULL;
}

vf_result vf_grid3d_create(vf_gpu *gpu, const vf_grid3d_desc *desc, vf_grid3d **out, const char **key, char *err,
                           size_t cap)
{
    *out = NULL;
    if (err && cap)
        err[0] = 0;
    vf_grid3d_desc d = desc ? *desc : (vf_grid3d_desc){0};
    vf_grid3d_fill_defaults(&d); /* the values come validated (vf_grid3d_validate_desc): only the device is checked */
    vf_result res;
    uint64_t need = vf_grid3d_memory_bytes(&d);
    char what[80];
    snprintf(what, sizeof what, "%u x %u x %u cells", d.nx, d.ny, d.nz);
    if ((res = vf_solver_check_fit(gpu, need, faces_of(d.nx, d.ny, d.nz) * 4, "n", what, "use a smaller n", key, err,
                                   cap)) != VF_OK)
        return res;
    vf_grid3d *g;
    VF_NEW_OR_RETURN(g);
    g->gpu = gpu;
    g->d = d;
    g->nx = d.nx;
    g->ny = d.ny;
    g->nz = d.nz;
    g->h = (float)(d.width / d.nx);
    g->dt = (float)d.dt;
    for (int s = 0; s < 6; s++)
        g->sides_packed |= (d.sides[s] & 15u) << (4 * s);
    g->levels = kept_levels(&d);
    for (uint32_t l = 0; l < g->levels; l++) {
        g->lv[l].nx = d.nx >> l;
        g->lv[l].ny = d.ny >> l;
        g->lv[l].nz = d.nz >> l;
        g->lv[l].h = g->h * (float)(1u << l);
    }
    uint32_t m = g->lv[g->levels - 1].nx;
    if (g->lv[g->levels - 1].ny > m)
        m = g->lv[g->levels - 1].ny;
    if (g->lv[g->levels - 1].nz > m)
        m = g->lv[g->levels - 1].nz;
    g->coarse_iters = d.coarse_iters ? d.coarse_iters : 8 * m;
    g->coarse_omega = (float)(2.0 / (1.0 + sin(3.14159265358979 / (2.0 * m))));
    plan_tail(g);
    if (d.viscosity > 0) {
        /* Gauss-Seidel on (I - a L): the Jacobi spectral radius is
         * rho = 6a / (1 + 6a) and a red-black sweep cuts the error by rho^2;
         * sweeps for a 1e-5 reduction, at least 2, at most 500. */
        double a = d.viscosity * d.dt / ((double)g->h * g->h), rho = 6 * a / (1 + 6 * a);
        uint32_t it = (uint32_t)ceil(log(1e-5) / log(rho * rho));
        it = it < 2 ? 2 : it > 500 ? 500 : it;
        g->diffuse_iters = d.diffuse_iters ? d.diffuse_iters : it;
    }
    g->base.vt = &grid3d_vtable;
    g->base.gpu = gpu;
    g->base.frame_dt = d.dt * d.substeps;
    if ((res = create_buffers(g)) != VF_OK || (res = create_pipelines(g)) != VF_OK || (res = init_state(g)) != VF_OK) {
        vf_grid3d_destroy(&g);
        return vf_solver_alloc_failed(gpu, res, need, "n", what, "use a smaller n", key, err, cap);
    }
    if (d.pressure == VF_GRID3D_PRESSURE_FFT && (res = create_fft(g, err, cap)) != VF_OK) {
        vf_grid3d_destroy(&g);
        return res == VF_ERR_OUT_OF_DEVICE_MEMORY ? vf_solver_alloc_failed(gpu, res, need, "n", what, "use a smaller n", key, err, cap)
                                                    : res;
    }
    *out = g;
    return VF_OK;
}

vf_solver *vf_grid3d_solver(vf_grid3d *g)
{
    return g ? &g->base : NULL;
}

VF_SOLVER_FAMILY_TYPED(grid3d, vf_grid3d)

vf_grid3d *vf_grid3d_from_solver(vf_solver *s)
{
    return s && s->vt == &grid3d_vtable ? (vf_grid3d *)s : NULL;
}

const vf_grid3d_desc *vf_grid3d_get_desc(const vf_grid3d *g)
{
    return &g->d;
}

uint32_t vf_grid3d_levels(const vf_grid3d *g)
{
    return g->levels;
}

uint32_t vf_grid3d_tail_level(const vf_grid3d *g)
{
    return g->tail;
}

uint32_t vf_grid3d_coarse_sweeps(const vf_grid3d *g, float *omega)
{
    if (omega)
        *omega = g->coarse_omega;
    return g->coarse_iters;
}

uint32_t vf_grid3d_diffuse_sweeps(const vf_grid3d *g)
{
    return g->d.viscosity > 0 ? g->diffuse_iters : 0;
}

/* ------------------------------------------------------------------ recording */

static vf_grid3d_push push_for(const vf_grid3d *g, uint32_t level)
{
    vf_grid3d_push pc = {
        .nx = g->lv[level].nx, .ny = g->lv[level].ny, .nz = g->lv[level].nz,
        .sides = g->sides_packed, .h = g->lv[level].h, .dt = g->dt,
    };
    for (int s = 0; s < 4; s++)
        pc.inflow0[s] = g->d.inflow[s];
    pc.inflow1[0] = g->d.inflow[4];
    pc.inflow1[1] = g->d.inflow[5];
    return pc;
}

/* Records one dispatch of pass over w x h x d threads inside the open scope
 * of its step (vf_grid3d_record_pass). */
static void dispatch3(vf_grid3d *g, VkCommandBuffer cmd, int pass, const vf_binding *b, const vf_grid3d_push *pc,
                      uint32_t w, uint32_t h, uint32_t d)
{
    vf_sim_pass_dispatch(g->gpu, cmd, g->pipe[pass], b, pc, (w + VF_G3_WG_X - 1) / VF_G3_WG_X,
                         (h + VF_G3_WG_Y - 1) / VF_G3_WG_Y, (d + VF_G3_WG_Z - 1) / VF_G3_WG_Z);
}

/* Dispatches over the cells (faces: one more per axis). */
#define CELLS(g) (g)->nx, (g)->ny, (g)->nz
#define FACES(g) (g)->nx + 1, (g)->ny + 1, (g)->nz + 1

static void pass_source(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_grid3d_push pc = push_for(g, 0);
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_SRC_SCAL] = B(g->scal[g->cs]), [VF_G3_SRC_MASK] = B(g->lv[0].mask)};
    /* the cooling goes with the scene's source (or alone, radius 0) */
    pc.b[2] = g->d.cooling > 0 ? (float)exp(-g->d.cooling * g->d.dt) : 1.0f;
    pc.b[3] = (float)g->d.ambient;
    if (g->d.source_on || g->d.cooling > 0) {
        if (g->d.source_on)
            memcpy(pc.a, g->d.source, sizeof pc.a);
        pc.b[0] = g->d.source_density;
        pc.b[1] = g->d.source_temperature;
        pc.mode = g->d.source_profile == VF_GRID3D_SOURCE_SMOOTH ? VF_G3_SOURCE_SMOOTH : VF_G3_SOURCE_UNIFORM;
        dispatch3(g, cmd, G3_SOURCE, b, &pc, CELLS(g));
    }
    if (g->push_inject && g->push_radius > 0) {
        memcpy(pc.a, g->push_centre, 3 * sizeof(float));
        pc.a[3] = g->push_radius;
        pc.b[0] = g->d.source_density > 0 ? g->d.source_density : 1.0f;
        pc.b[1] = g->d.source_temperature;
        pc.b[2] = 1.0f; /* cooled once above */
        pc.mode = VF_G3_SOURCE_UNIFORM;
        dispatch3(g, cmd, G3_SOURCE, b, &pc, CELLS(g));
    }
}

static void pass_buoyancy(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = (float)g->d.alpha;
    pc.a[1] = (float)g->d.beta;
    pc.a[2] = (float)g->d.ambient;
    if (g->push_radius > 0) {
        memcpy(pc.b, g->push_centre, 3 * sizeof(float));
        pc.b[3] = g->push_radius;
        memcpy(pc.c, g->push_acc, 3 * sizeof(float));
    }
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_BUOY_VEL] = B(g->vel[g->cu]), [VF_G3_BUOY_SCAL] = B(g->scal[g->cs]),
                                         [VF_G3_BUOY_MASK] = B(g->lv[0].mask)};
    dispatch3(g, cmd, G3_BUOYANCY, b, &pc, FACES(g));
}

static void pass_vorticity(vf_grid3d *g, VkCommandBuffer cmd)
{
    if (!g->omega)
        return;
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = (float)g->d.vorticity;
    vf_binding bv[VF_MAX_BINDINGS] = {[VF_G3_VORT_VEL] = B(g->vel[g->cu]), [VF_G3_VORT_OMEGA] = B(g->omega)};
    dispatch3(g, cmd, G3_VORTICITY, bv, &pc, CELLS(g));
    vf_binding bc[VF_MAX_BINDINGS] = {[VF_G3_CONF_VEL] = B(g->vel[g->cu]), [VF_G3_CONF_OMEGA] = B(g->omega),
                                        [VF_G3_CONF_MASK] = B(g->lv[0].mask)};
    dispatch3(g, cmd, G3_CONFINE, bc, &pc, FACES(g));
}

static void pass_advect_velocity(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = g->dt;
    uint32_t cu = g->cu, nu = cu ^ 1;
    bool mc = g->d.advection == VF_GRID3D_ADVECT_MACCORMACK;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_AV_VEL] = B(g->vel[cu]), [VF_G3_AV_SRC] = B(g->vel[cu]),
                                          [VF_G3_AV_OUT] = B(mc ? g->velh : g->vel[nu]),
                                          [VF_G3_AV_MASK] = B(g->lv[0].mask)};
    dispatch3(g, cmd, G3_ADVECT_VEL, b, &pc, FACES(g));
    if (mc) {
        pc.mode = 1;
        b[VF_G3_AV_SRC] = B(g->velh);
        b[VF_G3_AV_OUT] = B(g->vel[nu]);
        dispatch3(g, cmd, G3_ADVECT_VEL, b, &pc, FACES(g));
    }
    g->cu = nu;
}

static void pass_diffuse(vf_grid3d *g, VkCommandBuffer cmd)
{
    uint32_t cu = g->cu, nu = cu ^ 1;
    vf_cmd_barrier_compute_to_transfer(cmd);
    VkBufferCopy region = {.size = faces_of(g->nx, g->ny, g->nz) * 4};
    vkCmdCopyBuffer(cmd, g->vel[cu]->buffer, g->vel[nu]->buffer, 1, &region);
    vf_cmd_barrier_transfer_to_compute(cmd);
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = (float)(g->d.viscosity * g->dt / ((double)g->h * g->h));
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_DIF_RHS] = B(g->vel[cu]), [VF_G3_DIF_X] = B(g->vel[nu]),
                                        [VF_G3_DIF_MASK] = B(g->lv[0].mask)};
    for (uint32_t it = 0; it < g->diffuse_iters; it++)
        for (uint32_t color = 0; color < 2; color++) {
            pc.color = color;
            dispatch3(g, cmd, G3_DIFFUSE, b, &pc, FACES(g));
        }
    g->cu = nu;
}

static void pass_boundary(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_grid3d_push pc = push_for(g, 0);
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_BND_VEL] = B(g->vel[g->cu]), [VF_G3_BND_MASK] = B(g->lv[0].mask)};
    dispatch3(g, cmd, G3_BOUNDARY, b, &pc, FACES(g));
}

static void pass_divergence(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = 1.0f / g->dt;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_DIV_VEL] = B(g->vel[g->cu]), [VF_G3_DIV_MASK] = B(g->lv[0].mask),
                                           [VF_G3_DIV_OUT] = B(g->lv[0].b)};
    dispatch3(g, cmd, G3_DIVERGENCE, b, &pc, CELLS(g));
}

static void pass_gradient(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = g->dt;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_GRAD_VEL] = B(g->vel[g->cu]), [VF_G3_GRAD_P] = B(g->lv[0].x),
                                         [VF_G3_GRAD_MASK] = B(g->lv[0].mask)};
    dispatch3(g, cmd, G3_GRADIENT, b, &pc, FACES(g));
}

static void pass_advect_scalars(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = g->dt;
    uint32_t cs = g->cs, ns = cs ^ 1;
    bool mc = g->d.advection == VF_GRID3D_ADVECT_MACCORMACK;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_AS_VEL] = B(g->vel[g->cu]), [VF_G3_AS_SRC] = B(g->scal[cs]),
                                             [VF_G3_AS_HAT] = B(g->scal[cs]),
                                             [VF_G3_AS_OUT] = B(mc ? g->scalh : g->scal[ns]),
                                             [VF_G3_AS_MASK] = B(g->lv[0].mask)};
    dispatch3(g, cmd, G3_ADVECT_SCALAR, b, &pc, CELLS(g));
    if (mc) {
        pc.mode = 1;
        b[VF_G3_AS_HAT] = B(g->scalh);
        b[VF_G3_AS_OUT] = B(g->scal[ns]);
        dispatch3(g, cmd, G3_ADVECT_SCALAR, b, &pc, CELLS(g));
    }
    g->cs = ns;
}

/* ------------------------------------------------------------------ pressure */

static void mg_smooth(vf_grid3d *g, VkCommandBuffer cmd, uint32_t l, uint32_t sweeps)
{
    g3_level *L = &g->lv[l];
    vf_grid3d_push pc = push_for(g, l);
    pc.a[0] = 1.0f;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_MG_X] = B(L->x), [VF_G3_MG_B] = B(L->b), [VF_G3_MG_MASK] = B(L->mask)};
    for (uint32_t s = 0; s < sweeps; s++)
        for (uint32_t color = 0; color < 2; color++) {
            pc.color = color;
            dispatch3(g, cmd, G3_SMOOTH, b, &pc, L->nx, L->ny, L->nz);
        }
}

/* One V-cycle of the levels from the tail level down, in one dispatch. */
static void mg_tail(vf_grid3d *g, VkCommandBuffer cmd)
{
    uint32_t t = g->tail, n = g->levels - t;
    g3_level *L = &g->lv[t];
    vf_grid3d_push pc = push_for(g, t);
    pc.color = n;
    pc.mode = g->d.mg_pre | g->d.mg_post << 8 | g->coarse_iters << 16;
    pc.a[0] = g->coarse_omega;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_TAIL_X] = B(L->x), [VF_G3_TAIL_B] = B(L->b)};
    for (uint32_t q = 0; q < VF_G3_TAIL_MAX_LEVELS; q++)
        b[VF_G3_TAIL_MASK0 + q] = q < n ? B(g->lv[t + q].mask) : (vf_binding){.buffer = L->mask, .range = 4};
    vf_sim_pass_dispatch(g->gpu, cmd, g->pipe[G3_TAIL], b, &pc, 1, 1, 1);
}

static void mg_cycle(vf_grid3d *g, VkCommandBuffer cmd, uint32_t l)
{
    if (l == g->tail) {
        mg_tail(g, cmd);
        return;
    }
    if (l + 1 == g->levels) {
        g3_level *L = &g->lv[l];
        vf_grid3d_push pc = push_for(g, l);
        pc.mode = g->coarse_iters;
        pc.a[0] = g->coarse_omega;
        vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_MG_X] = B(L->x), [VF_G3_MG_B] = B(L->b),
                                           [VF_G3_MG_MASK] = B(L->mask)};
        vf_sim_pass_dispatch(g->gpu, cmd, g->pipe[G3_COARSE], b, &pc, 1, 1, 1);
        return;
    }
    g3_level *L = &g->lv[l], *C = &g->lv[l + 1];
    mg_smooth(g, cmd, l, g->d.mg_pre);
    vf_grid3d_push pc = push_for(g, l);
    vf_binding br[VF_MAX_BINDINGS] = {[VF_G3_MG_X] = B(L->x), [VF_G3_MG_B] = B(L->b), [VF_G3_MG_MASK] = B(L->mask),
                                          [VF_G3_MG_R] = B(L->r)};
    dispatch3(g, cmd, G3_RESIDUAL, br, &pc, L->nx, L->ny, L->nz);
    vf_grid3d_push pcc = push_for(g, l + 1);
    vf_binding bs[VF_MAX_BINDINGS] = {[VF_G3_RST_R_F] = B(L->r), [VF_G3_RST_B_C] = B(C->b), [VF_G3_RST_X_C] = B(C->x)};
    dispatch3(g, cmd, G3_RESTRICT, bs, &pcc, C->nx, C->ny, C->nz);
    mg_cycle(g, cmd, l + 1);
    vf_binding bp[VF_MAX_BINDINGS] = {[VF_G3_PRO_X_C] = B(C->x), [VF_G3_PRO_MASK_F] = B(L->mask),
                                         [VF_G3_PRO_X_F] = B(L->x)};
    dispatch3(g, cmd, G3_PROLONG, bp, &pc, L->nx, L->ny, L->nz);
    mg_smooth(g, cmd, l, g->d.mg_post);
}

/* Stam's FFT solve: b to its spectrum, divided by the operator's
 * eigenvalues, back to p. */
static vf_result record_fft(vf_grid3d *g, VkCommandBuffer cmd)
{
    vf_result res = vf_fft_record(g->fft, cmd, false);
    if (res != VF_OK)
        return res;
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = (float)(1.0 / ((double)g->nx * g->ny * g->nz));
    vf_binding b[VF_MAX_BINDINGS] = {[VF_G3_FFT_SPECTRUM] = B(vf_fft_spectrum(g->fft)),
                                           [VF_G3_FFT_EIG] = B(g->fft_eig)};
    dispatch3(g, cmd, G3_FFT_SCALE, b, &pc, g->nx / 2 + 1, g->ny, g->nz);
    return vf_fft_record(g->fft, cmd, true);
}

void vf_grid3d_record_residual(vf_grid3d *g, VkCommandBuffer cmd)
{
    g3_level *L = &g->lv[0];
    vf_grid3d_push pc = push_for(g, 0);
    vf_binding br[VF_MAX_BINDINGS] = {[VF_G3_MG_X] = B(L->x), [VF_G3_MG_B] = B(L->b), [VF_G3_MG_MASK] = B(L->mask),
                                          [VF_G3_MG_R] = B(L->r)};
    dispatch3(g, cmd, G3_RESIDUAL, br, &pc, L->nx, L->ny, L->nz);
}

vf_result vf_grid3d_record_pressure(vf_grid3d *g, VkCommandBuffer cmd, vf_grid3d_pressure method, uint32_t iters)
{
    if (method == VF_GRID3D_PRESSURE_FFT)
        return g->fft ? record_fft(g, cmd) : VF_ERR_INVALID_ARG;
    if (method == VF_GRID3D_PRESSURE_MULTIGRID) {
        if (g->levels < 2 && (uint64_t)g->nx * g->ny * g->nz > VF_G3_COARSE_CELLS)
            return VF_ERR_INVALID_ARG; /* created without the coarse levels */
        for (uint32_t k = 0; k < iters; k++)
            mg_cycle(g, cmd, 0);
        return VF_OK;
    }
    g3_level *L = &g->lv[0];
    vf_grid3d_push pc = push_for(g, 0);
    pc.a[0] = 1.0f; /* plain Jacobi, as in Stam's solver */
    vf_binding b1[VF_MAX_BINDINGS] = {[VF_G3_JAC_X_IN] = B(L->x), [VF_G3_JAC_B] = B(L->b),
                                         [VF_G3_JAC_MASK] = B(L->mask), [VF_G3_JAC_X_OUT] = B(L->r)};
    vf_binding b2[VF_MAX_BINDINGS] = {[VF_G3_JAC_X_IN] = B(L->r), [VF_G3_JAC_B] = B(L->b),
                                         [VF_G3_JAC_MASK] = B(L->mask), [VF_G3_JAC_X_OUT] = B(L->x)};
    for (uint32_t k = 0; k < iters; k += 2) {
        dispatch3(g, cmd, G3_JACOBI, b1, &pc, CELLS(g));
        dispatch3(g, cmd, G3_JACOBI, b2, &pc, CELLS(g));
    }
    return VF_OK;
}

static void pass_pressure(vf_grid3d *g, VkCommandBuffer cmd)
{
    /* the desc's own method was created with everything it records; a
     * failure of VkFFT's recording shows as a failed submit */
    (void)vf_grid3d_record_pressure(g, cmd, g->d.pressure, g->d.pressure_iters);
}

/* Each step of vf_grid3d_pass: the table's pass whose name is the step's
 * profiler scope, and the function that records its dispatches. */
static const struct {
    int pass;
    void (*record)(vf_grid3d *g, VkCommandBuffer cmd);
} steps[VF_GRID3D_PASS_COUNT] = {
    [VF_GRID3D_PASS_SOURCE] = {G3_SOURCE, pass_source},
    [VF_GRID3D_PASS_BUOYANCY] = {G3_BUOYANCY, pass_buoyancy},
    [VF_GRID3D_PASS_VORTICITY] = {G3_VORTICITY, pass_vorticity},
    [VF_GRID3D_PASS_ADVECT_VELOCITY] = {G3_ADVECT_VEL, pass_advect_velocity},
    [VF_GRID3D_PASS_DIFFUSE] = {G3_DIFFUSE, pass_diffuse},
    [VF_GRID3D_PASS_BOUNDARY] = {G3_BOUNDARY, pass_boundary},
    [VF_GRID3D_PASS_DIVERGENCE] = {G3_DIVERGENCE, pass_divergence},
    [VF_GRID3D_PASS_PRESSURE] = {G3_SMOOTH, pass_pressure},
    [VF_GRID3D_PASS_GRADIENT] = {G3_GRADIENT, pass_gradient},
    [VF_GRID3D_PASS_ADVECT_SCALARS] = {G3_ADVECT_SCALAR, pass_advect_scalars},
};

vf_result vf_grid3d_record_pass(vf_grid3d *g, VkCommandBuffer cmd, vf_grid3d_pass pass, vf_profiler *prof)
{
    if ((unsigned)pass >= VF_GRID3D_PASS_COUNT)
        return VF_ERR_INVALID_ARG;
    uint32_t scope = vf_sim_pass_begin(g->gpu, cmd, prof, &G3_passes[steps[pass].pass]);
    steps[pass].record(g, cmd);
    vf_sim_pass_end(g->gpu, cmd, prof, scope);
    return VF_OK;
}

vf_result vf_grid3d_record_step(vf_grid3d *g, VkCommandBuffer cmd, vf_profiler *prof)
{
    if (g->d.source_on || g->push_inject || g->d.cooling > 0)
        vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_SOURCE, prof);
    if (g->d.alpha != 0 || g->d.beta != 0 || g->push_radius > 0)
        vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_BUOYANCY, prof);
    if (g->d.vorticity > 0)
        vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_VORTICITY, prof);
    vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_ADVECT_VELOCITY, prof);
    if (g->d.viscosity > 0)
        vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_DIFFUSE, prof);
    vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_BOUNDARY, prof);
    vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_DIVERGENCE, prof);
    vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_PRESSURE, prof);
    vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_GRADIENT, prof);
    vf_grid3d_record_pass(g, cmd, VF_GRID3D_PASS_ADVECT_SCALARS, prof);
    g->rec_steps++;
    return VF_OK;
}

void vf_grid3d_set_push(vf_grid3d *g, const float centre[3], float radius, const float acc[3], bool inject)
{
    g->push_radius = radius > 0 ? radius : 0;
    g->push_inject = inject && radius > 0;
    for (int a = 0; a < 3; a++) {
        g->push_centre[a] = centre ? centre[a] : 0;
        g->push_acc[a] = acc ? acc[a] : 0;
    }
}

/* ------------------------------------------------------------------ fields */

uint64_t vf_grid3d_field_count(const vf_grid3d *g, vf_grid3d_field f)
{
    uint64_t c = (uint64_t)g->nx * g->ny * g->nz;
    switch (f) {
    case VF_GRID3D_FIELD_VEL: return faces_of(g->nx, g->ny, g->nz);
    case VF_GRID3D_FIELD_SCALARS: return 2 * c;
    case VF_GRID3D_FIELD_OMEGA: return 4 * c;
    default: return c;
    }
}

vf_buffer *vf_grid3d_buffer(vf_grid3d *g, vf_grid3d_field f)
{
    switch (f) {
    case VF_GRID3D_FIELD_VEL: return g->vel[g->cu];
    case VF_GRID3D_FIELD_SCALARS: return g->scal[g->cs];
    case VF_GRID3D_FIELD_P: return g->lv[0].x;
    case VF_GRID3D_FIELD_RHS: return g->lv[0].b;
    case VF_GRID3D_FIELD_RESIDUAL: return g->lv[0].r;
    case VF_GRID3D_FIELD_MASK: return g->lv[0].mask;
    case VF_GRID3D_FIELD_OMEGA: return g->omega;
    default: return NULL;
    }
}

vf_result vf_grid3d_read(vf_grid3d *g, vf_grid3d_field f, void *dst)
{
    vf_buffer *b = vf_grid3d_buffer(g, f);
    if (!b || !dst)
        return VF_ERR_INVALID_ARG;
    return vf_buffer_read(b, 0, dst, vf_grid3d_field_count(g, f) * 4);
}

vf_result vf_grid3d_write(vf_grid3d *g, vf_grid3d_field f, const void *src)
{
    vf_buffer *b = vf_grid3d_buffer(g, f);
    if (!b || !src || f == VF_GRID3D_FIELD_MASK)
        return VF_ERR_INVALID_ARG;
    return vf_buffer_write(b, 0, src, vf_grid3d_field_count(g, f) * 4);
}

/* ------------------------------------------------------------------ export */

vf_result vf_grid3d_export(vf_grid3d *g, const char *dir, uint32_t index)
{
    size_t c = (size_t)g->nx * g->ny * g->nz;
    float *vel = malloc(vf_grid3d_field_count(g, VF_GRID3D_FIELD_VEL) * 4), *scal = malloc(c * 8);
    float *p = malloc(c * 4), *vc = malloc(c * 12), *solid = malloc(c * 4);
    uint32_t *mask = malloc(c * 4);
    vf_result res = VF_ERR_NO_MEMORY;
    if (!vel || !scal || !p || !vc || !solid || !mask)
        goto done;
    if ((res = vf_grid3d_read(g, VF_GRID3D_FIELD_VEL, vel)) != VF_OK ||
        (res = vf_grid3d_read(g, VF_GRID3D_FIELD_SCALARS, scal)) != VF_OK ||
        (res = vf_grid3d_read(g, VF_GRID3D_FIELD_P, p)) != VF_OK ||
        (res = vf_grid3d_read(g, VF_GRID3D_FIELD_MASK, mask)) != VF_OK)
        goto done;
#define F(c, i, j, k) vf_grid3d_face_index(g->nx, g->ny, g->nz, c, (int)(i), (int)(j), (int)(k))
    for (uint32_t k = 0; k < g->nz; k++)
        for (uint32_t j = 0; j < g->ny; j++)
            for (uint32_t i = 0; i < g->nx; i++) {
                size_t q = ((size_t)k * g->ny + j) * g->nx + i;
                vc[3 * q + 0] = 0.5f * (vel[F(0, i, j, k)] +
                                        vel[F(0, i + 1, j, k)]);
                vc[3 * q + 1] = 0.5f * (vel[F(1, i, j, k)] +
                                        vel[F(1, i, j + 1, k)]);
                vc[3 * q + 2] = 0.5f * (vel[F(2, i, j, k)] +
                                        vel[F(2, i, j, k + 1)]);
                solid[q] = mask[q] != VF_G3_CELL_FLUID ? 1.0f : 0.0f;
            }
#undef F
    vf_vti_field fields[] = {
        {"density", 1, scal}, {"temperature", 1, scal + c}, {"velocity", 3, vc}, {"pressure", 1, p}, {"solid", 1, solid},
    };
    char path[4096];
    if (snprintf(path, sizeof path, "%s/grid3d_%04u.vti", dir, index) >= (int)sizeof path) {
        res = VF_ERR_INVALID_ARG;
        goto done;
    }
    vf_vti_desc vd = {.nx = g->nx, .ny = g->ny, .nz = g->nz, .origin = {0.5 * g->h, 0.5 * g->h, 0.5 * g->h},
                      .spacing = {g->h, g->h, g->h}, .fields = fields, .field_count = 5,
                      .compression = g->base.vti_compression};
    res = vf_vti_write(path, &vd);
done:
    free(vel);
    free(scal);
    free(p);
    free(vc);
    free(solid);
    free(mask);
    return res;
}

/* ------------------------------------------------------------------ vtable */

static void g3_destroy(vf_solver *s)
{
    vf_grid3d *g = (vf_grid3d *)s;
    vf_grid3d_destroy(&g);
}

static vf_result g3_frame_begin(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t *substeps)
{
    (void)prof;
    vf_grid3d *g = (vf_grid3d *)s;
    if (g->rec_frames == 0)
        vf_cmd_barrier_transfer_to_compute(cmd);
    *substeps = g->d.substeps;
    return VF_OK;
}

static vf_result g3_record_substep(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t index)
{
    (void)index;
    vf_grid3d_record_step((vf_grid3d *)s, cmd, prof);
    return VF_OK;
}

static vf_result g3_frame_end(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    (void)cmd;
    (void)prof;
    ((vf_grid3d *)s)->rec_frames++;
    return VF_OK;
}

static vf_result g3_frame_done(vf_solver *s)
{
    vf_grid3d *g = (vf_grid3d *)s;
    s->time = (double)s->steps * g->dt; /* the driver counted the frame's substeps */
    return VF_OK;
}

static vf_result g3_export_frame(vf_solver *s, const char *dir, uint32_t index)
{
    return vf_grid3d_export((vf_grid3d *)s, dir, index);
}

/* Divergence after the last projection, from a readback (summary only). */
#define F3(c, i, j, k) vf_grid3d_face_index(g->nx, g->ny, g->nz, c, (int)(i), (int)(j), (int)(k))
static double measured_divergence(vf_grid3d *g, double *maxabs)
{
    size_t c = (size_t)g->nx * g->ny * g->nz;
    float *vel = malloc(vf_grid3d_field_count(g, VF_GRID3D_FIELD_VEL) * 4);
    uint32_t *mask = malloc(c * 4);
    double rms = -1;
    *maxabs = -1;
    if (vel && mask && vf_grid3d_read(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK &&
        vf_grid3d_read(g, VF_GRID3D_FIELD_MASK, mask) == VF_OK) {
        double s2 = 0, m = 0;
        size_t n = 0;
        for (uint32_t k = 0; k < g->nz; k++)
            for (uint32_t j = 0; j < g->ny; j++)
                for (uint32_t i = 0; i < g->nx; i++) {
                    if (mask[((size_t)k * g->ny + j) * g->nx + i] != VF_G3_CELL_FLUID)
                        continue;
                    /* the same float sums as the divergence pass: u, then v, then w */
                    float d = 0;
                    d += vel[F3(0, i + 1, j, k)] - vel[F3(0, i, j, k)];
                    d += vel[F3(1, i, j + 1, k)] - vel[F3(1, i, j, k)];
                    d += vel[F3(2, i, j, k + 1)] - vel[F3(2, i, j, k)];
                    d *= 1.0f / g->h;
                    s2 += (double)d * d;
                    m = fmax(m, fabs(d));
                    n++;
                }
        rms = n ? sqrt(s2 / (double)n) : 0;
        *maxabs = m;
    }
    free(vel);
    free(mask);
    return rms;
}
#undef F3

static void g3_write_summary(vf_solver *s, FILE *f, const char *indent)
{
    vf_grid3d *g = (vf_grid3d *)s;
    double mx, rms = measured_divergence(g, &mx);
    fprintf(f, "%s\"grid3d\": {\"nx\": %u, \"ny\": %u, \"nz\": %u, \"h\": %.9g, \"dt\": %.9g, \"substeps\": %u, \"levels\": %u},\n",
            indent, g->nx, g->ny, g->nz, g->h, g->dt, g->d.substeps, g->levels);
    fprintf(f, "%s\"pressure_solver\": \"%s\",\n", indent,
            g->d.pressure == VF_GRID3D_PRESSURE_JACOBI ? "jacobi"
            : g->d.pressure == VF_GRID3D_PRESSURE_FFT  ? "fft"
                                                       : "multigrid");
    fprintf(f, "%s\"pressure_iterations_per_step\": %u,\n", indent,
            g->d.pressure == VF_GRID3D_PRESSURE_FFT ? 1u : g->d.pressure_iters);
    fprintf(f, "%s\"final_divergence_l2\": ", indent);
    vf_json_number(f, rms); /* non-finite: null (and the run's check fails) */
    fprintf(f, ",\n%s\"final_divergence_max\": ", indent);
    vf_json_number(f, mx);
}

static vf_result g3_check(vf_solver *s, char *msg, size_t cap)
{
    vf_grid3d *g = (vf_grid3d *)s;
    const vf_grid3d_field fields[] = {VF_GRID3D_FIELD_VEL, VF_GRID3D_FIELD_SCALARS, VF_GRID3D_FIELD_P};
    static const char *names[] = {"velocity", "density/temperature", "pressure"};
    vf_result res = VF_OK;
    for (int f = 0; f < 3 && res == VF_OK; f++) {
        uint64_t n = vf_grid3d_field_count(g, fields[f]);
        float *buf = malloc(n * 4);
        if (!buf)
            return VF_ERR_NO_MEMORY;
        res = vf_grid3d_read(g, fields[f], buf);
        for (uint64_t k = 0; k < n && res == VF_OK; k++)
            if (!isfinite(buf[k])) {
                vf_set_err(msg, cap, "%s is not finite at index %llu (of %llu)", names[f], (unsigned long long)k,
                        (unsigned long long)n);
                res = VF_ERR_NUMERIC;
            }
        free(buf);
    }
    return res;
}

/* The viewer's pointer: a push (left: along the view ray, with density
 * injected; right: against it) at the middle of the ray's chord through the
 * domain. */
static void g3_interact(vf_solver *s, const vf_interaction *in)
{
    vf_grid3d *g = (vf_grid3d *)s;
    if (!in->active) {
        vf_grid3d_set_push(g, NULL, 0, NULL, false);
        return;
    }
    float ext[3] = {g->nx * g->h, g->ny * g->h, g->nz * g->h};
    float t0 = 0, t1 = 1e30f;
    for (int a = 0; a < 3; a++) {
        float o = in->ray_origin[a], d = in->ray_dir[a];
        if (fabsf(d) < 1e-12f) {
            if (o < 0 || o > ext[a])
                t1 = -1;
            continue;
        }
        float ta = (0 - o) / d, tb = (ext[a] - o) / d;
        if (ta > tb) {
            float t = ta;
            ta = tb;
            tb = t;
        }
        t0 = ta > t0 ? ta : t0;
        t1 = tb < t1 ? tb : t1;
    }
    if (t1 < t0) {
        vf_grid3d_set_push(g, NULL, 0, NULL, false);
        return;
    }
    float tm = 0.5f * (t0 + t1), c[3], acc[3], sign = in->button == 1 ? -1.0f : 1.0f;
    float size = fmaxf(ext[0], fmaxf(ext[1], ext[2]));
    for (int a = 0; a < 3; a++) {
        c[a] = in->ray_origin[a] + tm * in->ray_dir[a];
        acc[a] = sign * 10.0f * size * in->ray_dir[a];
    }
    vf_grid3d_set_push(g, c, 0.06f * size, acc, in->button == 0);
}

static void g3_describe(vf_solver *s, char *buf, size_t cap)
{
    vf_grid3d *g = (vf_grid3d *)s;
    snprintf(buf, cap, "grid3d %ux%ux%u", g->nx, g->ny, g->nz);
}

/* What the bytes column of grid3d_passes.def reads (w->...): c, one cell
 * field; f, the face velocities. */
typedef struct g3_work {
    uint64_t c, f;
} g3_work;

#define VF_PASS_BYTES_FN g3_row_bytes
#define VF_PASS_WORK g3_work
#include "sim_pass_bytes.h"

/* Bytes a step moves per execution (grid3d_passes.def). */
static uint64_t g3_pass_bytes(vf_solver *s, const char *pass)
{
    vf_grid3d *g = (vf_grid3d *)s;
    const g3_work w = {.c = (uint64_t)g->nx * g->ny * g->nz * 4, .f = faces_of(g->nx, g->ny, g->nz) * 4};
    if (g->d.pressure == VF_GRID3D_PRESSURE_FFT && !strcmp(pass, "grid3d_pressure"))
        return 6 * w.c; /* b to the half spectrum (about c), scaled in place, back to p */
    return g3_row_bytes(&w, pass);
}

/* The state a substep advances: the face velocities, the two scalars
 * (density, temperature) and the pressure (the next solve's start). */
static uint64_t g3_state_bytes(vf_solver *s)
{
    vf_grid3d *g = (vf_grid3d *)s;
    const uint64_t c = (uint64_t)g->nx * g->ny * g->nz * 4, f = faces_of(g->nx, g->ny, g->nz) * 4;
    return f + 2 * c + c;
}

static const vf_solver_vtable grid3d_vtable = {
    .family = "grid3d",
    .destroy = g3_destroy,
    .frame_begin = g3_frame_begin,
    .record_substep = g3_record_substep,
    .frame_end = g3_frame_end,
    .frame_done = g3_frame_done,
    .export_frame = g3_export_frame,
    .write_summary = g3_write_summary,
    .check = g3_check,
    .interact = g3_interact,
    .describe = g3_describe,
    .pass_bytes = g3_pass_bytes,
    .state_bytes = g3_state_bytes,
    .submit_substeps = 2,
};
