#include "solver_grid.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "export_vti.h"
#include "gpu_buffer.h"
#include "gpu_cmd.h"
#include "gpu_fft.h"
#include "gpu_pipeline.h"
#include "png_io.h"
#include "sim_multigrid.h"
#include "text.h"

/* Readback ring of per-frame stats copies. frame_done(k) may run right after
 * frame k was submitted; frame k - VF_MAX_FRAMES has certainly completed then
 * (vf_frames_begin waited for it), so that is the one read, from a ring large
 * enough that no frame in flight writes its slot. */
#define STATS_RING (2 * VF_MAX_FRAMES)

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The pass enum (GP_*), binding counts and table GP_passes, from grid_passes.def. */
#define VF_PASS_FILE "grid_passes.def"
#define VF_PASS_PREFIX GP
#define VF_PASS_TABLE_FN vf_grid_pass_table
#include "sim_pass_table.h"

/* The variants a pass is built in (its variants column): GV_OPEN also for a
 * domain without solids (VF_GRID_SPEC_OPEN). */
enum { GV_CLOSED, GV_OPEN, GV_COUNT };

/* The stage column of a pass dispatched outside the step's stages. */
enum { VF_GRID_PASS_NONE = -1 };

/* The spec column: which specialization constants a pass takes after
 * VF_GRID_SPEC_OPEN (create_pipeline). */
typedef enum grid_spec {
    GRID_SPEC_PLAIN,
    GRID_SPEC_TEXEL,
    GRID_SPEC_TILE,
    GRID_SPEC_TAIL,
    GRID_SPEC_SSOR,
    GRID_SPEC_PENALTY
} grid_spec;

/* The built column: ALWAYS, or only on a grid of one pressure solver or one
 * advection scheme (pass_needed). */
typedef enum grid_built_by { GRID_BUILT_ALWAYS, GRID_BUILT_PRESSURE, GRID_BUILT_ADVECTION } grid_built_by;

/* The grid's own columns of a grid_passes.def row. */
typedef struct grid_pass_info {
    int stage;         /* the vf_grid_pass whose scope dispatches it, VF_GRID_PASS_NONE: none */
    uint32_t variants; /* 1, or GV_COUNT for the passes also built open */
    grid_spec spec;
    grid_built_by built_by;
    uint32_t built_for; /* the vf_grid_pressure or vf_grid_advection it is built for */
} grid_pass_info;

static const grid_pass_info pass_info[GP_COUNT] = {
#define ALWAYS GRID_BUILT_ALWAYS, 0
#define IF_PRESSURE(method) GRID_BUILT_PRESSURE, VF_GRID_PRESSURE_##method
#define IF_ADVECTION(scheme) GRID_BUILT_ADVECTION, VF_GRID_ADVECT_##scheme
#define PASS(id, name, shader, push, local, bytes, stage, variants, spec, built)                                     \
    [GP_##id] = {VF_GRID_PASS_##stage, GV_##variants + 1, GRID_SPEC_##spec, built},
#include "grid_passes.def"
#undef PASS
#undef IF_ADVECTION
#undef IF_PRESSURE
#undef ALWAYS
};

/* The pressure solvers' names (summary, describe). */
static const char *const pressure_names[] = {VF_GRID_PRESSURE_LIST(VF_CHOICE_NAME)};

typedef struct grid_level {
    uint32_t nx, ny;
    float h;
    vf_buffer *x, *b, *r, *wx, *wy; /* level 0: x = p, b = rhs, r = res */
} grid_level;

struct vf_grid {
    vf_solver base; /* first: the vtable view */
    vf_gpu *gpu;
    vf_grid_desc d;
    uint32_t nx, ny;
    float h, dt;
    uint32_t sides_packed;
    uint32_t levels;
    uint32_t tail;        /* first level V-cycled by grid_mg_tail; levels when none */
    uint32_t tail_floats; /* its shared array (VF_GRID_SPEC_TAIL_FLOATS) */
    uint32_t tail_wg;     /* its workgroup size (VF_GRID_SPEC_TAIL_WG) */
    uint32_t jt_wg;       /* grid_jacobi's workgroup side (VF_GRID_SPEC_JT_WX / _WY) */
    uint32_t ssor_wg;     /* grid_ssor's workgroup size (VF_GRID_SPEC_SSOR_WG) */
    uint32_t pen_wg, pen_cells; /* grid_penalty's workgroup side and cells per invocation per axis */
    uint32_t pen_substeps;      /* penalty sub-steps per substep */
    double pen_dtau;            /* their step */
    vf_buffer *pen_p[2], *pen_s[2]; /* penalty: the sub-steps' pressures and sums (ping-pong) */
    uint32_t pen_sum;           /* which pen_s holds the sum after the last solve */
    vf_fft *fft;                /* fft: the transforms */
    vf_buffer *fft_eig;         /* fft: the operator's eigenvalues per axis (grid_fft_scale) */
    bool texel;           /* advection reads the fields through texel views (VF_GRID_SPEC_TEXEL) */
    uint32_t coarse_iters;
    float coarse_omega;
    uint32_t diffuse_iters;
    float diffuse_omega;
    vf_pipeline *pipe[GP_COUNT][GV_COUNT]; /* GV_OPEN of the passes built OPEN only */
    vf_buffer *u[2], *v[2], *uh, *vh;
    vf_buffer *dye[2][3], *dyeh[3];
    vf_buffer *tex[2][2], *texh[2];
    vf_buffer *mask, *su, *sv, *mask_static, *su_static, *sv_static;
    vf_buffer *omega, *partials, *stats, *stats_ring, *warp;
    grid_level lv[VF_GRID_MAX_LEVELS];
    uint32_t cu, cd, ct; /* current index of velocity, dye, texcoord pairs */
    uint64_t rec_steps;  /* substeps recorded (sets the time of sources and movers) */
    uint64_t rec_frames, done_frames;
    /* the fields at the last passed check (export_last_good) */
    float *good_u, *good_v, *good_p, *good_dye; /* dye: r, g, b planes */
    uint32_t *good_mask;
    bool have_good;
    bool obstacles_dirty;
    bool solids;           /* a solid cell may exist (obstacles, mover, painted or written mask) */
    uint64_t cycles_total; /* V-cycles or Jacobi iterations recorded */
    /* last values read back (report_every, summary) */
    vf_grid_stats last;
    bool have_last;
    double worst_res_ratio; /* max res_after / res_before seen in reports */
    uint32_t report_every;
    /* the viewer's pointer for the next frame (vf_solver interact) */
    vf_interaction pointer;
};

static void free_good(vf_grid *g);

/* ------------------------------------------------------------------ sizes */

static void fill_defaults(vf_grid_desc *d)
{
    if (!d->nx)
        d->nx = 128;
    if (!d->ny)
        d->ny = d->nx;
    if (d->width <= 0)
        d->width = 1.0;
    if (d->cfl <= 0)
        d->cfl = 1.0;
    if (d->vel_scale <= 0)
        d->vel_scale = 1.0;
    if (!d->substeps)
        d->substeps = 1;
    if (d->epsilon <= 0)
        d->epsilon = 0.005; /* Chen & Lobo's examples */
    if (d->ssor_omega <= 0)
        d->ssor_omega = 1.7;
    if (d->donor_gamma <= 0)
        d->donor_gamma = 1.0;
    if (!d->mg_pre)
        d->mg_pre = 2;
    if (!d->mg_post)
        d->mg_post = 2;
    double h = d->width / d->nx;
    if (d->dt <= 0)
        d->dt = d->cfl * h / d->vel_scale;
    if (!d->pressure_iters) {
        static const uint32_t iters[] = {[VF_GRID_PRESSURE_MULTIGRID] = 4, [VF_GRID_PRESSURE_JACOBI] = 200,
                                         [VF_GRID_PRESSURE_SSOR] = 8, [VF_GRID_PRESSURE_FFT] = 1};
        uint64_t k = vf_grid_penalty_min_substeps(d);
        bool known = (unsigned)d->pressure < sizeof iters / sizeof iters[0]; /* else validate refuses it */
        d->pressure_iters = d->pressure == VF_GRID_PRESSURE_PENALTY ? (uint32_t)(k < UINT32_MAX ? k : UINT32_MAX)
                                                                    : (known ? iters[d->pressure] : 4);
    }
    bool dirichlet = false;
    for (int s = 0; s < 4; s++)
        dirichlet |= d->sides[s] == VF_GRID_BC_OUTFLOW;
    d->closed_mean = !dirichlet;
}

uint64_t vf_grid_penalty_min_substeps(const vf_grid_desc *d)
{
    double h = (d->width > 0 ? d->width : 1.0) / d->nx, eps = d->epsilon > 0 ? d->epsilon : 0.005;
    /* the most face weight a cell has: 1 a face, 2 towards an outflow side */
    const uint32_t *sd = d->sides;
    double sw = 4.0 + (sd[VF_GRID_SIDE_LEFT] == VF_GRID_BC_OUTFLOW || sd[VF_GRID_SIDE_RIGHT] == VF_GRID_BC_OUTFLOW) +
                (sd[VF_GRID_SIDE_BOTTOM] == VF_GRID_BC_OUTFLOW || sd[VF_GRID_SIDE_TOP] == VF_GRID_BC_OUTFLOW);
    double k = ceil(d->dt / (0.9 * eps * h * h / sw) - 1e-9);
    return k < 1 ? 1 : (k > 1e18 ? (uint64_t)1e18 : (uint64_t)k);
}

/* Plans the multigrid levels of an nx x ny grid; returns the count. */
static uint32_t plan_levels(const vf_grid_desc *d, uint32_t *cnx, uint32_t *cny)
{
    uint32_t nx = d->nx, ny = d->ny, n = 1;
    bool px = d->sides[VF_GRID_SIDE_LEFT] == VF_GRID_BC_PERIODIC;
    bool py = d->sides[VF_GRID_SIDE_BOTTOM] == VF_GRID_BC_PERIODIC;
    while (n < VF_GRID_MAX_LEVELS && nx % 2 == 0 && ny % 2 == 0 && nx >= 8 && ny >= 8 &&
           (nx > VF_GRID_COARSE_TARGET || ny > VF_GRID_COARSE_TARGET)) {
        uint32_t a = nx / 2, b = ny / 2;
        if ((px && a % 2) || (py && b % 2))
            break;
        nx = a;
        ny = b;
        n++;
    }
    if (cnx)
        *cnx = nx;
    if (cny)
        *cny = ny;
    return n;
}

/* Picks the tail level (the finest level whose V-cycle down to the coarsest
 * fits one workgroup's shared memory, from the device's limits) and the
 * tail kernel's workgroup size. g->tail = g->levels: no tail (one level, or
 * not even two levels fit). */
static void plan_tail(vf_grid *g)
{
    uint64_t cells[VF_GRID_MAX_LEVELS];
    for (uint32_t l = 0; l < g->levels; l++)
        cells[l] = (uint64_t)g->lv[l].nx * g->lv[l].ny;
    vf_mg_tail_plan p = vf_mg_plan_tail(&g->gpu->props.limits, g->levels, cells, VF_GRID_TAIL_MAX_LEVELS,
                                        VF_GRID_TAIL_MAX_WG, VF_GRID_TAIL_DEFAULT_FLOATS);
    g->tail = p.tail;
    g->tail_floats = p.floats;
    g->tail_wg = p.wg;
}

/* grid_jacobi's workgroup side: the largest up to VF_GRID_JT_MAX_WG whose
 * square fits the device's invocations and workgroup size and whose two
 * shared arrays ((side x VF_GRID_JT_CELLS)^2 floats each) fit its shared
 * memory; at least the default, which fits the Vulkan minimum limits. */
static uint32_t plan_jacobi_wg(const VkPhysicalDeviceLimits *lim)
{
    uint32_t w = VF_GRID_JT_MAX_WG;
    while (w > VF_GRID_JT_DEFAULT_WG) {
        uint64_t r = (uint64_t)w * VF_GRID_JT_CELLS;
        if ((uint64_t)w * w <= lim->maxComputeWorkGroupInvocations && w <= lim->maxComputeWorkGroupSize[0] &&
            w <= lim->maxComputeWorkGroupSize[1] && 2 * r * r * 4 <= lim->maxComputeSharedMemorySize)
            break;
        w--;
    }
    return w;
}

/* grid_ssor's workgroup: up to VF_GRID_SSOR_MAX_WG invocations (a
 * diagonal's cells), at most the device's. */
static uint32_t plan_ssor_wg(const VkPhysicalDeviceLimits *lim)
{
    uint32_t w = VF_GRID_SSOR_MAX_WG;
    while (w > 1 && (w > lim->maxComputeWorkGroupInvocations || w > lim->maxComputeWorkGroupSize[0]))
        w /= 2;
    return w;
}

/* grid_penalty's workgroup side and cells per invocation: the largest
 * region R = side x cells (up to 16 x VF_GRID_PEN_MAX_CELLS) whose two
 * shared copies (2 R^2 floats) fit the device's shared memory, with the
 * side's square within its invocations and workgroup size. */
static void plan_penalty(const VkPhysicalDeviceLimits *lim, uint32_t *wg, uint32_t *cells)
{
    *wg = 16;
    while (*wg > VF_GRID_PEN_DEFAULT_WG &&
           ((uint64_t)*wg * *wg > lim->maxComputeWorkGroupInvocations || *wg > lim->maxComputeWorkGroupSize[0] ||
            *wg > lim->maxComputeWorkGroupSize[1]))
        *wg /= 2;
    *cells = VF_GRID_PEN_MAX_CELLS;
    while (*cells > 1 && 2ull * (*wg * *cells) * (*wg * *cells) * 4 > lim->maxComputeSharedMemorySize)
        (*cells)--;
}

static uint64_t align256(uint64_t b)
{
    return (b + 255) / 256 * 256;
}

uint64_t vf_grid_memory_bytes(const vf_grid_desc *desc_in)
{
    vf_grid_desc d = desc_in ? *desc_in : (vf_grid_desc){0};
    fill_defaults(&d);
    uint64_t c = (uint64_t)d.nx * d.ny, fu = (uint64_t)(d.nx + 1) * d.ny, fv = (uint64_t)d.nx * (d.ny + 1);
    uint64_t floats = 2 * (fu + fv);            /* u, v pairs */
    floats += 3 * c;                            /* p, rhs, res */
    floats += 6 * c;                            /* dye pairs */
    if (d.vorticity > 0)
        floats += c;
    floats += 6 * c;                            /* mask, su, sv, static copies */
    floats += fu + fv;                          /* level-0 weights */
    bool mc = d.advection == VF_GRID_ADVECT_MACCORMACK;
    if (mc)
        floats += fu + fv + 3 * c;
    if (d.texcoords)
        floats += (mc ? 6 : 4) * c + c;
    uint32_t nx = d.nx, ny = d.ny;
    uint32_t levels = plan_levels(&d, NULL, NULL);
    for (uint32_t l = 1; l < levels; l++) {
        nx /= 2;
        ny /= 2;
        floats += 3 * (uint64_t)nx * ny + (uint64_t)(nx + 1) * ny + (uint64_t)nx * (ny + 1);
    }
    uint64_t extra = 0;
    if (d.pressure == VF_GRID_PRESSURE_PENALTY)
        floats += 4 * c; /* the sub-steps' pressures and sums, two each */
    if (d.pressure == VF_GRID_PRESSURE_FFT) {
        const uint32_t size[3] = {d.nx, d.ny, 1};
        extra = 2 * (vf_fft_real_bytes(2, size) - c * 4) + vf_fft_memory_bytes(2, size) + (d.nx / 2 + 1 + d.ny) * 4;
    }
    return floats * 4 + extra + align256(((d.nx + 63) / 64) * ((d.ny + 63) / 64) * 16) + 64 * 1024;
}

/* The key size errors name (vf_grid_desc.size_key). */
static const char *size_key(const vf_grid_desc *d)
{
    return d->size_key ? d->size_key : "n";
}

/* The FFT solver's domain: doubly periodic, without solids, sides whose
 * prime factors VkFFT's radix kernels take. */
static vf_result validate_fft(const vf_grid_desc *d, const char **key, char *err, size_t cap)
{
    for (int s = 0; s < 4; s++)
        if (d->sides[s] != VF_GRID_BC_PERIODIC) {
            vf_set_key_err(key, err, cap, "pressure", ": fft solves a doubly periodic box only (Stam's FFT solver), and this one "
                                 "has walls, an inflow or an outflow: use walls=periodic in a box (smoke, shear), or "
                                 "pressure=multigrid");
            return VF_ERR_INVALID_ARG;
        }
    bool solids = d->mover.shape != VF_GRID_SHAPE_NONE;
    for (int k = 0; k < 4; k++)
        solids = solids || d->obstacles[k].shape != VF_GRID_SHAPE_NONE;
    if (solids) {
        vf_set_key_err(key, err, cap, "obstacles", ": pressure=fft solves a box without solids: leave the obstacles out, or use "
                             "pressure=multigrid");
        return VF_ERR_INVALID_ARG;
    }
    const uint32_t n[2] = {d->nx, d->ny};
    for (int a = 0; a < 2; a++) {
        uint32_t p = vf_fft_largest_prime(n[a]);
        if (p > VF_FFT_MAX_PRIME) {
            vf_set_key_err(key, err, cap, size_key(d), ": %u x %u cells: pressure=fft takes sides whose prime factors are at most %d "
                                 "(VkFFT's radix kernels) and %u has %u: use %s=%u",
                       d->nx, d->ny, VF_FFT_MAX_PRIME, n[a], p, size_key(d), vf_fft_nearest_size(n[a], true));
            return VF_ERR_INVALID_ARG;
        }
    }
    return VF_OK;
}

/* The keys of the penalty, SSOR and donor-cell choices. */
static vf_result validate_methods(const vf_grid_desc *desc, const char **key, char *err, size_t cap)
{
    vf_grid_desc d = *desc;
    fill_defaults(&d);
    if (d.pressure == VF_GRID_PRESSURE_FFT) {
        vf_result res = validate_fft(&d, key, err, cap);
        if (res != VF_OK)
            return res;
    }
    if (d.pressure == VF_GRID_PRESSURE_PENALTY) {
        uint64_t k = vf_grid_penalty_min_substeps(&d);
        double h = d.width / d.nx;
        if (!isfinite(d.epsilon) || k > VF_GRID_PENALTY_MAX_SUBSTEPS) {
            vf_set_key_err(key, err, cap, "epsilon", ": %g: the penalty's explicit sub-steps would need %llu a substep (dt %.3g s, "
                                 "h %.3g m: at most 0.9 eps h^2 / 4 each), more than %u: use a larger epsilon "
                                 "(%.2g or more), fewer cells or a smaller cfl",
                       d.epsilon, (unsigned long long)k, d.dt, h, VF_GRID_PENALTY_MAX_SUBSTEPS,
                       d.epsilon * (double)k / VF_GRID_PENALTY_MAX_SUBSTEPS);
            return VF_ERR_INVALID_ARG;
        }
        if (desc->pressure_iters && desc->pressure_iters < k) {
            vf_set_key_err(key, err, cap, "pressure_iters", ": %u: the penalty's explicit sub-steps are stable from %llu a substep "
                                 "(dt %.3g s, epsilon %g, h %.3g m): use pressure_iters=0 (that many) or more",
                       desc->pressure_iters, (unsigned long long)k, d.dt, d.epsilon, h);
            return VF_ERR_INVALID_ARG;
        }
    }
    if (d.pressure == VF_GRID_PRESSURE_SSOR && !(d.ssor_omega > 0 && d.ssor_omega < 2)) {
        vf_set_key_err(key, err, cap, "ssor_omega", ": %g: SOR converges for 0 < omega < 2", d.ssor_omega);
        return VF_ERR_INVALID_ARG;
    }
    if (d.advection == VF_GRID_ADVECT_DONOR_CELL && !(d.donor_gamma > 0 && d.donor_gamma <= 1)) {
        vf_set_key_err(key, err, cap, "donor_gamma", ": %g: must be in (0, 1]", d.donor_gamma);
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

vf_result vf_grid_validate_desc(const vf_grid_desc *d, const char **key, char *err, size_t cap)
{
    if (d->nx < VF_GRID_MIN_N || d->ny < VF_GRID_MIN_N) {
        vf_set_key_err(key, err, cap, size_key(d), ": %u x %u cells: must be at least %d per side", d->nx, d->ny,
                       VF_GRID_MIN_N);
        return VF_ERR_INVALID_ARG;
    }
    uint64_t field = (uint64_t)(d->nx + 1) * (d->ny + 1) * 4;
    if (field > UINT32_MAX) {
        char nb[32], fb[32];
        vf_format_bytes(vf_grid_memory_bytes(d), nb, sizeof nb);
        vf_format_bytes(field, fb, sizeof fb);
        vf_set_key_err(key, err, cap, size_key(d), ": %u x %u cells need %s of device memory in buffers of up to %s; vulkan binds at most 4 GiB per buffer: use a smaller %s",
                d->nx, d->ny, nb, fb, size_key(d));
        return VF_ERR_TOO_LARGE;
    }
    for (int s = 0; s < 4; s++)
        if (d->sides[s] > VF_GRID_BC_PERIODIC) {
            vf_set_err(err, cap, "sides: unknown boundary type %u", d->sides[s]);
            return VF_ERR_INVALID_ARG;
        }
    for (int a = 0; a < 2; a++) {
        bool p0 = d->sides[2 * a] == VF_GRID_BC_PERIODIC, p1 = d->sides[2 * a + 1] == VF_GRID_BC_PERIODIC;
        if (p0 != p1) {
            vf_set_key_err(key, err, cap, "periodic", ": the %s sides must both be periodic", a ? "bottom and top" : "left and right");
            return VF_ERR_INVALID_ARG;
        }
        uint32_t n = a ? d->ny : d->nx;
        if (p0 && n % 2) {
            vf_set_key_err(key, err, cap, size_key(d), ": %u: periodic sides need an even number of cells (red-black ordering)", n);
            return VF_ERR_INVALID_ARG;
        }
    }
    if ((unsigned)d->pressure > VF_GRID_PRESSURE_FFT || (unsigned)d->advection > VF_GRID_ADVECT_DONOR_CELL) {
        vf_set_err(err, cap, "pressure, advect: unknown solver %u or scheme %u", (unsigned)d->pressure,
                   (unsigned)d->advection);
        return VF_ERR_INVALID_ARG;
    }
    vf_result res = validate_methods(d, key, err, cap);
    if (res != VF_OK)
        return res;
    if (d->pressure == VF_GRID_PRESSURE_MULTIGRID) {
        uint32_t cnx, cny;
        plan_levels(d, &cnx, &cny);
        if (cnx > VF_GRID_COARSE_MAX || cny > VF_GRID_COARSE_MAX) {
            vf_set_key_err(key, err, cap, size_key(d),
                    ": %u x %u cells do not coarsen below %u x %u for multigrid: use %s = m * 2^k with m <= %d "
                    "(e.g. %u), or pressure=jacobi",
                    d->nx, d->ny, cnx, cny, size_key(d), VF_GRID_COARSE_MAX, (d->nx + 63) / 64 * 64);
            return VF_ERR_INVALID_ARG;
        }
    }
    if (d->dye_mix < 0 || d->dye_mix > 1) {
        vf_set_key_err(key, err, cap, "dye_mix", ": %g: must be in [0, 1]", d->dye_mix);
        return VF_ERR_INVALID_ARG;
    }
    if (d->viscosity < 0) {
        vf_set_key_err(key, err, cap, "viscosity", ": %g: must be >= 0", d->viscosity);
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

/* ------------------------------------------------------------------ create */

/* The formats of the texel views through which advection reads the fields
 * and the mask (shared_grid.h, VF_GRID_SPEC_TEXEL); Vulkan requires uniform
 * texel buffer support of both. */
#define GRID_FIELD_TEXELS VK_FORMAT_R32_SFLOAT
#define GRID_MASK_TEXELS VK_FORMAT_R32_UINT

/* A storage buffer; with a texel view of format texel unless it is
 * VK_FORMAT_UNDEFINED. */
static vf_result make_view_buf(vf_grid *g, vf_buffer **out, uint64_t bytes, VkFormat texel, const char *name)
{
    vf_buffer_desc bd = {.size = align256(bytes), .name = name, .texel_format = texel};
    return vf_buffer_create(g->gpu, &bd, out);
}

/* Whether the device can read every element of the sampled fields (the u
 * and v faces, the cells) and of the mask as a texel. */
static bool texel_reads_fit(const vf_grid *g)
{
    uint64_t fu = (uint64_t)(g->nx + 1) * g->ny, fv = (uint64_t)g->nx * (g->ny + 1);
    return vf_gpu_texel_buffer_fits(g->gpu, GRID_FIELD_TEXELS, fu > fv ? fu : fv) &&
           vf_gpu_texel_buffer_fits(g->gpu, GRID_MASK_TEXELS, (uint64_t)g->nx * g->ny);
}

static uint64_t field_count(const vf_grid *g, vf_grid_field f)
{
    uint32_t w, h;
    vf_grid_field_size(g, f, &w, &h);
    return (uint64_t)w * h;
}

static vf_result run_oneshot_obstacles(vf_grid *g);

static vf_result create_buffers(vf_grid *g)
{
    vf_result res;
    uint64_t c = (uint64_t)g->nx * g->ny * 4, fu = (uint64_t)(g->nx + 1) * g->ny * 4, fv = (uint64_t)g->nx * (g->ny + 1) * 4;
    bool mc = g->d.advection == VF_GRID_ADVECT_MACCORMACK;
#define MKV(ptr, bytes, texel, name)                                            \
    do {                                                                        \
        if ((res = make_view_buf(g, &(ptr), (bytes), (texel), (name))) != VF_OK) \
            return res;                                                         \
    } while (0)
#define MK(ptr, bytes, name) MKV(ptr, bytes, VK_FORMAT_UNDEFINED, name)
#define MKF(ptr, bytes, name) MKV(ptr, bytes, GRID_FIELD_TEXELS, name) /* a field advection samples */
    MKF(g->u[0], fu, "grid u 0");
    MKF(g->u[1], fu, "grid u 1");
    MKF(g->v[0], fv, "grid v 0");
    MKF(g->v[1], fv, "grid v 1");
    if (mc) {
        MKF(g->uh, fu, "grid u maccormack");
        MKF(g->vh, fv, "grid v maccormack");
    }
    static const char *dye_names[2][3] = {{"grid dye r 0", "grid dye g 0", "grid dye b 0"},
                                          {"grid dye r 1", "grid dye g 1", "grid dye b 1"}};
    static const char *dyeh_names[3] = {"grid dye r maccormack", "grid dye g maccormack", "grid dye b maccormack"};
    for (int k = 0; k < 2; k++)
        for (int ch = 0; ch < 3; ch++)
            MKF(g->dye[k][ch], c, dye_names[k][ch]);
    if (mc)
        for (int ch = 0; ch < 3; ch++)
            MKF(g->dyeh[ch], c, dyeh_names[ch]);
    if (g->d.texcoords) {
        MKF(g->tex[0][0], c, "grid tex s 0");
        MKF(g->tex[0][1], c, "grid tex t 0");
        MKF(g->tex[1][0], c, "grid tex s 1");
        MKF(g->tex[1][1], c, "grid tex t 1");
        if (mc) {
            MKF(g->texh[0], c, "grid tex s maccormack");
            MKF(g->texh[1], c, "grid tex t maccormack");
        }
        MK(g->warp, c, "grid warp image");
    }
    MKV(g->mask, c, GRID_MASK_TEXELS, "grid mask");
    MK(g->su, c, "grid solid u");
    MK(g->sv, c, "grid solid v");
    MK(g->mask_static, c, "grid mask static");
    MK(g->su_static, c, "grid solid u static");
    MK(g->sv_static, c, "grid solid v static");
    if (g->d.vorticity > 0)
        MK(g->omega, c, "grid vorticity");
    uint64_t groups = (uint64_t)((g->nx + 63) / 64) * ((g->ny + 63) / 64);
    MK(g->partials, groups * 16, "grid norm partials");
    MK(g->stats, VF_GRID_STAT_COUNT * 16, "grid stats");
    vf_buffer_desc rd = {.size = STATS_RING * VF_GRID_STAT_COUNT * 16, .memory = VF_MEMORY_READBACK,
                         .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT, .name = "grid stats readback"};
    if ((res = vf_buffer_create(g->gpu, &rd, &g->stats_ring)) != VF_OK)
        return res;
    for (uint32_t l = 0; l < g->levels; l++) {
        grid_level *L = &g->lv[l];
        uint64_t lc = (uint64_t)L->nx * L->ny * 4;
        char name[64];
        if (l == 0) {
            /* the FFT's transforms bind the padded rows of the real fields they read and write */
            const uint32_t size[3] = {g->nx, g->ny, 1};
            uint64_t lr = g->d.pressure == VF_GRID_PRESSURE_FFT ? vf_fft_real_bytes(2, size) : lc;
            MK(L->x, lr, "grid pressure");
            MK(L->b, lr, "grid pressure rhs");
            MK(L->r, lc, "grid pressure residual");
        } else {
            snprintf(name, sizeof name, "grid mg x %u", l);
            MK(L->x, lc, name);
            snprintf(name, sizeof name, "grid mg b %u", l);
            MK(L->b, lc, name);
            snprintf(name, sizeof name, "grid mg r %u", l);
            MK(L->r, lc, name);
        }
        snprintf(name, sizeof name, "grid mg wx %u", l);
        MK(L->wx, (uint64_t)(L->nx + 1) * L->ny * 4, name);
        snprintf(name, sizeof name, "grid mg wy %u", l);
        MK(L->wy, (uint64_t)L->nx * (L->ny + 1) * 4, name);
    }
    if (g->d.pressure == VF_GRID_PRESSURE_PENALTY) {
        MK(g->pen_p[0], c, "grid penalty pressure 0");
        MK(g->pen_p[1], c, "grid penalty pressure 1");
        MK(g->pen_s[0], c, "grid penalty sum 0");
        MK(g->pen_s[1], c, "grid penalty sum 1");
    }
    if (g->d.pressure == VF_GRID_PRESSURE_FFT)
        MK(g->fft_eig, (uint64_t)(g->nx / 2 + 1 + g->ny) * 4, "grid fft eigenvalues");
#undef MKF
#undef MK
#undef MKV
    return VF_OK;
}

/* Whether grid `g` uses pass i (its built column): the passes of the
 * pressure solvers and the advection scheme it was not made with are not
 * built (each pipeline costs a compile, seconds on a CPU device), except
 * SSOR, which the benchmark runs on any grid: it is built on its first use
 * (record_ssor). */
static bool pass_needed(const vf_grid *g, int i)
{
    const grid_pass_info *p = &pass_info[i];
    if (p->built_by == GRID_BUILT_PRESSURE)
        return (uint32_t)g->d.pressure == p->built_for;
    if (p->built_by == GRID_BUILT_ADVECTION)
        return (uint32_t)g->d.advection == p->built_for;
    return true;
}

/* Builds pass i's pipeline in variant v (GV_OPEN: for a domain without
 * solids) with the specialization constants of its spec column. */
static vf_result create_pipeline(vf_grid *g, int i, uint32_t v)
{
    uint32_t spec[3] = {[VF_GRID_SPEC_OPEN] = v}, count = v;
    switch (pass_info[i].spec) {
    case GRID_SPEC_PLAIN: break;
    case GRID_SPEC_TEXEL:
        spec[VF_GRID_SPEC_TEXEL] = g->texel;
        spec[VF_GRID_SPEC_SIDES] = g->sides_packed;
        count = 3;
        break;
    case GRID_SPEC_TILE:
        spec[VF_GRID_SPEC_JT_WX] = spec[VF_GRID_SPEC_JT_WY] = g->jt_wg;
        count = 3;
        break;
    case GRID_SPEC_TAIL:
        spec[VF_GRID_SPEC_TAIL_FLOATS] = g->tail_floats;
        spec[VF_GRID_SPEC_TAIL_WG] = g->tail_wg;
        count = 3;
        break;
    case GRID_SPEC_SSOR:
        spec[VF_GRID_SPEC_SSOR_WG] = g->ssor_wg;
        count = 2;
        break;
    case GRID_SPEC_PENALTY:
        spec[VF_GRID_SPEC_PEN_WG] = g->pen_wg;
        spec[VF_GRID_SPEC_PEN_CELLS] = g->pen_cells;
        count = 3;
        break;
    }
    return vf_sim_pass_pipeline(g->gpu, &GP_passes[i], spec, count, v == GV_OPEN ? "open" : NULL, &g->pipe[i][v]);
}

/* Builds every pass the grid uses (pass_needed) in each of its variants;
 * grid_jacobi and grid_mg_tail take their sizes from the plan (create). */
static vf_result create_pipelines(vf_grid *g)
{
    for (int i = 0; i < GP_COUNT; i++)
        for (uint32_t v = 0; v < pass_info[i].variants && pass_needed(g, i); v++) {
            vf_result res = create_pipeline(g, i, v);
            if (res != VF_OK)
                return res;
        }
    return VF_OK;
}

static void shape_mask(const vf_grid *g, const vf_grid_obstacle *o, uint32_t *mask, float *su, float *sv)
{
    if (o->shape == VF_GRID_SHAPE_NONE)
        return;
    for (uint32_t j = 0; j < g->ny; j++)
        for (uint32_t i = 0; i < g->nx; i++) {
            double x = (i + 0.5) * g->h - o->cx, y = (j + 0.5) * g->h - o->cy;
            bool in = o->shape == VF_GRID_SHAPE_DISC ? x * x + y * y <= (double)o->radius * o->radius
                                                     : fmax(fabs(x), fabs(y)) <= o->radius;
            if (in) {
                size_t k = (size_t)j * g->nx + i;
                mask[k] = VF_GRID_CELL_SOLID;
                su[k] = o->vx;
                sv[k] = o->vy;
            }
        }
}

static vf_result init_state(vf_grid *g)
{
    vf_result res = VF_OK;
    size_t c = (size_t)g->nx * g->ny;
    uint32_t *mask = calloc(c, 4);
    float *su = calloc(c, 4), *sv = calloc(c, 4), *tmp = calloc(c, 4);
    if (!mask || !su || !sv || !tmp) {
        res = VF_ERR_NO_MEMORY;
        goto done;
    }
    for (int k = 0; k < 4; k++)
        shape_mask(g, &g->d.obstacles[k], mask, su, sv);
    if ((res = vf_buffer_write(g->mask_static, 0, mask, c * 4)) != VF_OK ||
        (res = vf_buffer_write(g->su_static, 0, su, c * 4)) != VF_OK ||
        (res = vf_buffer_write(g->sv_static, 0, sv, c * 4)) != VF_OK)
        goto done;
    vf_buffer *zero[] = {g->u[0], g->u[1], g->v[0], g->v[1], g->stats, g->lv[0].x, g->lv[0].b,
                         g->lv[0].r, g->dye[0][0], g->dye[0][1], g->dye[0][2], g->dye[1][0], g->dye[1][1], g->dye[1][2]};
    for (size_t k = 0; k < sizeof zero / sizeof zero[0]; k++)
        if ((res = vf_buffer_fill(zero[k], 0, VK_WHOLE_SIZE, 0)) != VF_OK)
            goto done;
    if (g->omega && (res = vf_buffer_fill(g->omega, 0, VK_WHOLE_SIZE, 0)) != VF_OK)
        goto done;
    for (uint32_t l = 1; l < g->levels; l++)
        if ((res = vf_buffer_fill(g->lv[l].x, 0, VK_WHOLE_SIZE, 0)) != VF_OK)
            goto done;
    if (g->d.texcoords) {
        double w = g->nx * (double)g->h, hgt = g->ny * (double)g->h;
        for (int a = 0; a < 2; a++) {
            for (uint32_t j = 0; j < g->ny; j++)
                for (uint32_t i = 0; i < g->nx; i++)
                    tmp[(size_t)j * g->nx + i] = (float)(a == 0 ? (i + 0.5) * g->h / w : (j + 0.5) * g->h / hgt);
            if ((res = vf_buffer_write(g->tex[0][a], 0, tmp, c * 4)) != VF_OK ||
                (res = vf_buffer_write(g->tex[1][a], 0, tmp, c * 4)) != VF_OK)
                goto done;
        }
    }
    res = run_oneshot_obstacles(g);
done:
    free(mask);
    free(su);
    free(sv);
    free(tmp);
    return res;
}

/* The FFT solver: the transforms between the right-hand side and the
 * pressure, and the operator's eigenvalues along each axis,
 * 4 sin^2(pi k / n) / h^2 (computed here in double precision). */
static vf_result create_fft(vf_grid *g, char *err, size_t cap)
{
    vf_fft_desc fd = {.dims = 2, .size = {g->nx, g->ny, 1}, .real_in = g->lv[0].b, .real_out = g->lv[0].x,
                      .name = "grid pressure"};
    vf_result res = vf_fft_create(g->gpu, &fd, &g->fft, err, cap);
    if (res != VF_OK)
        return res;
    uint32_t cx = g->nx / 2 + 1;
    float *e = malloc((size_t)(cx + g->ny) * sizeof(float));
    if (!e)
        return VF_ERR_NO_MEMORY;
    double h2 = (double)g->h * g->h;
    for (uint32_t k = 0; k < cx; k++)
        e[k] = (float)(4.0 * pow(sin(M_PI * k / g->nx), 2) / h2);
    for (uint32_t k = 0; k < g->ny; k++)
        e[cx + k] = (float)(4.0 * pow(sin(M_PI * k / g->ny), 2) / h2);
    res = vf_buffer_write(g->fft_eig, 0, e, (size_t)(cx + g->ny) * sizeof(float));
    free(e);
    return res;
}

static const vf_solver_vtable grid_vtable;

void vf_grid_destroy(vf_grid **pg)
{
    if (!pg || !*pg)
        return;
    vf_grid *g = *pg;
    free_good(g);
    for (int i = 0; i < GP_COUNT; i++)
        for (int v = 0; v < GV_COUNT; v++)
            vf_pipeline_destroy(&g->pipe[i][v]);
    vf_buffer **all[] = {&g->u[0], &g->u[1], &g->v[0], &g->v[1], &g->uh, &g->vh, &g->dyeh[0], &g->dyeh[1],
                         &g->dyeh[2], &g->tex[0][0], &g->tex[0][1], &g->tex[1][0], &g->tex[1][1], &g->texh[0],
                         &g->texh[1], &g->mask, &g->su, &g->sv, &g->mask_static, &g->su_static, &g->sv_static,
                         &g->omega, &g->partials, &g->stats, &g->stats_ring, &g->warp, &g->pen_p[0], &g->pen_p[1],
                         &g->pen_s[0], &g->pen_s[1], &g->fft_eig};
    vf_fft_destroy(&g->fft);
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        vf_buffer_destroy(all[i]);
    for (int k = 0; k < 2; k++)
        for (int ch = 0; ch < 3; ch++)
            vf_buffer_destroy(&g->dye[k][ch]);
    for (uint32_t l = 0; l < VF_GRID_MAX_LEVELS; l++) {
        vf_buffer_destroy(&g->lv[l].x);
        vf_buffer_destroy(&g->lv[l].b);
        vf_buffer_destroy(&g->lv[l].r);
        vf_buffer_destroy(&g->lv[l].wx);
        vf_buffer_destroy(&g->lv[l].wy);
    }
    free(g);
    *pg = NULL;
}

vf_result vf_grid_create(vf_gpu *gpu, const vf_grid_desc *desc, vf_grid **out, const char **key, char *err, size_t cap)
{
    *out = NULL;
    if (err && cap)
        err[0] = 0;
    vf_grid_desc d = desc ? *desc : (vf_grid_desc){0};
    fill_defaults(&d); /* the values come validated (vf_grid_validate_desc): only the device is checked here */
    vf_result res;
    uint64_t need = vf_grid_memory_bytes(&d);
    char what[64], fix[48];
    snprintf(what, sizeof what, "%u x %u cells", d.nx, d.ny);
    snprintf(fix, sizeof fix, "use a smaller %s", size_key(&d));
    if ((res = vf_solver_check_fit(gpu, need, (uint64_t)(d.nx + 1) * (d.ny + 1) * 4, size_key(&d), what, fix, key,
                                   err, cap)) != VF_OK)
        return res;
    vf_grid *g;
    VF_NEW_OR_RETURN(g);
    g->gpu = gpu;
    g->d = d;
    g->nx = d.nx;
    g->ny = d.ny;
    g->h = (float)(d.width / d.nx);
    g->dt = (float)d.dt;
    for (int s = 0; s < 4; s++)
        g->sides_packed |= (d.sides[s] & 15u) << (4 * s);
    uint32_t cnx, cny;
    g->levels = plan_levels(&d, &cnx, &cny);
    if (d.pressure != VF_GRID_PRESSURE_MULTIGRID && (cnx > VF_GRID_COARSE_MAX || cny > VF_GRID_COARSE_MAX))
        g->levels = 1; /* Jacobi only: no hierarchy needed */
    for (uint32_t l = 0; l < g->levels; l++) {
        g->lv[l].nx = d.nx >> l;
        g->lv[l].ny = d.ny >> l;
        g->lv[l].h = g->h * (float)(1u << l);
    }
    plan_tail(g);
    g->jt_wg = plan_jacobi_wg(&gpu->props.limits);
    g->ssor_wg = plan_ssor_wg(&gpu->props.limits);
    plan_penalty(&gpu->props.limits, &g->pen_wg, &g->pen_cells);
    {
        /* a domain that fits one region: as few invocations as cover it
         * (CPU devices run a workgroup's invocations a few at a time, and
         * every barrier visits them all) */
        uint32_t m = d.nx > d.ny ? d.nx : d.ny, w = (m + g->pen_cells - 1) / g->pen_cells;
        if (w < g->pen_wg)
            g->pen_wg = w;
    }
    if (d.pressure == VF_GRID_PRESSURE_PENALTY) {
        g->pen_substeps = d.pressure_iters;
        g->pen_dtau = d.dt / d.pressure_iters;
    }
    uint32_t m = cnx > cny ? cnx : cny;
    g->coarse_iters = d.coarse_iters ? d.coarse_iters : (2 * m > 8 ? 2 * m : 8);
    g->coarse_omega = (float)(2.0 / (1.0 + sin(M_PI / (m + 1))));
    if (d.viscosity > 0) {
        /* Red-black SOR on (I - alpha L): the Jacobi spectral radius is at
         * most rho_J = 4 alpha / (1 + 4 alpha); with the matching optimal
         * omega the error falls by omega - 1 per sweep (consistently ordered
         * matrix), so sweeps to cut it 1e6, plus 2 for the defective
         * eigenvalue at omega_opt. */
        double alpha = d.viscosity * d.dt / ((double)g->h * g->h);
        double rj = 4 * alpha / (1 + 4 * alpha);
        g->diffuse_omega = (float)(2.0 / (1.0 + sqrt(1.0 - rj * rj)));
        double rate = g->diffuse_omega - 1.0;
        uint32_t it = rate > 1e-6 ? (uint32_t)ceil(log(1e-6) / log(rate)) + 2 : 2;
        g->diffuse_iters = d.diffuse_iters ? d.diffuse_iters : (it > 1000 ? 1000 : it);
    }
    g->base.vt = &grid_vtable;
    g->base.gpu = gpu;
    g->base.frame_dt = d.dt * d.substeps;
    g->obstacles_dirty = false;
    g->solids = g->d.mover.shape != VF_GRID_SHAPE_NONE;
    for (int k = 0; k < 4; k++)
        g->solids = g->solids || g->d.obstacles[k].shape != VF_GRID_SHAPE_NONE;
    g->texel = !d.buffer_reads && texel_reads_fit(g);
    if ((res = create_buffers(g)) != VF_OK || (res = create_pipelines(g)) != VF_OK || (res = init_state(g)) != VF_OK) {
        vf_grid_destroy(&g);
        return vf_solver_alloc_failed(gpu, res, need, size_key(&d), what, fix, key, err, cap);
    }
    if (d.pressure == VF_GRID_PRESSURE_FFT && (res = create_fft(g, err, cap)) != VF_OK) {
        vf_grid_destroy(&g);
        return res == VF_ERR_OUT_OF_DEVICE_MEMORY ? vf_solver_alloc_failed(gpu, res, need, size_key(&d), what, fix, key, err, cap)
                                                    : res;
    }
    *out = g;
    return VF_OK;
}

vf_solver *vf_grid_solver(vf_grid *g)
{
    return g ? &g->base : NULL;
}

VF_SOLVER_FAMILY_TYPED(grid, vf_grid)

const vf_grid_desc *vf_grid_get_desc(const vf_grid *g)
{
    return &g->d;
}

uint32_t vf_grid_diffuse_sweeps(const vf_grid *g, float *omega)
{
    if (omega)
        *omega = g->diffuse_omega;
    return g->d.viscosity > 0 ? g->diffuse_iters : 0;
}

uint32_t vf_grid_penalty_substeps(const vf_grid *g, double *dtau)
{
    if (dtau)
        *dtau = g->pen_dtau;
    return g->pen_substeps;
}

uint32_t vf_grid_levels(const vf_grid *g)
{
    return g->levels;
}

uint32_t vf_grid_tail_level(const vf_grid *g)
{
    return g->tail;
}

double vf_grid_time(const vf_grid *g)
{
    return (double)g->rec_steps * g->dt;
}

/* ------------------------------------------------------------------ recording helpers */

static vf_grid_push push_for(const vf_grid *g, uint32_t level)
{
    vf_grid_push pc = {
        .nx = g->lv[level].nx ? g->lv[level].nx : g->nx >> level,
        .ny = g->lv[level].ny ? g->lv[level].ny : g->ny >> level,
        .h = g->h * (float)(1u << level),
        .dt = g->dt,
        .sides = g->sides_packed,
    };
    for (int s = 0; s < 4; s++) {
        pc.side_u[s] = g->d.side_u[s];
        pc.side_v[s] = g->d.side_v[s];
    }
    return pc;
}

static uint32_t groups(uint32_t n, uint32_t wg)
{
    return (n + wg - 1) / wg;
}

/* One dispatch of pass p, gx x gy groups, and the barrier after it; the open
 * variant while no solid cell can exist (where p has one). prof: the pass's
 * own profiler scope; NULL inside the scope of its stage (vf_grid_record_pass). */
static void run(vf_grid *g, VkCommandBuffer cmd, vf_profiler *prof, int p, const vf_binding *b, const vf_grid_push *pc,
                uint32_t gx, uint32_t gy)
{
    vf_pipeline *open = g->pipe[p][GV_OPEN];
    vf_sim_pass_record(g->gpu, cmd, prof, &GP_passes[p], open && !g->solids ? open : g->pipe[p][GV_CLOSED], b, pc, gx,
                       gy, 1);
}

/* run over w x h threads, inside its stage's scope. */
static void run2d(vf_grid *g, VkCommandBuffer cmd, int p, const vf_binding *b, const vf_grid_push *pc, uint32_t w,
                  uint32_t h)
{
    run(g, cmd, NULL, p, b, pc, groups(w, VF_GRID_WG_X), groups(h, VF_GRID_WG_Y));
}

#define B(buf) vf_bind_buffer(buf)

/* A face-weight or mask array's binding: its first element only when the
 * open variant (which never reads it) runs. */
static vf_binding weight_binding(const vf_grid *g, vf_buffer *w)
{
    return g->solids ? vf_bind_buffer(w) : (vf_binding){.buffer = w, .range = 4};
}
#define W(buf) weight_binding(g, buf)

/* Norm of a cell field over the fluid cells (x scale) into stats[slot]. */
static void record_norm(vf_grid *g, VkCommandBuffer cmd, vf_buffer *field, float scale, uint32_t slot)
{
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = scale;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_NORM_FIELD] = B(field), [VF_GRID_NORM_MASK] = B(g->mask), [VF_GRID_NORM_PARTIALS] = B(g->partials)};
    uint32_t tile = VF_GRID_WG_X * VF_GRID_NORM_PER;
    uint32_t gx = groups(g->nx, tile), gy = groups(g->ny, tile);
    run(g, cmd, NULL, GP_NORM, b, &pc, gx, gy);
    pc.count = gx * gy;
    pc.color = slot;
    vf_binding bf[VF_MAX_BINDINGS] = {[VF_GRID_NORMF_PARTIALS] = B(g->partials),
                                             [VF_GRID_NORMF_STATS] = B(g->stats)};
    run(g, cmd, NULL, GP_NORM_FINAL, bf, &pc, 1, 1);
}

/* ------------------------------------------------------------------ passes */

static void record_weights(vf_grid *g, VkCommandBuffer cmd)
{
    vf_grid_push pc = push_for(g, 0);
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_W_MASK] = B(g->mask), [VF_GRID_W_WX] = B(g->lv[0].wx), [VF_GRID_W_WY] = B(g->lv[0].wy)};
    run2d(g, cmd, GP_WEIGHTS, b, &pc, g->nx + 1, g->ny + 1);
    for (uint32_t l = 1; l < g->levels; l++) {
        vf_grid_push pl = push_for(g, l);
        vf_binding bl[VF_MAX_BINDINGS] = {
            [VF_GRID_CW_WX_F] = B(g->lv[l - 1].wx), [VF_GRID_CW_WY_F] = B(g->lv[l - 1].wy),
            [VF_GRID_CW_WX_C] = B(g->lv[l].wx),     [VF_GRID_CW_WY_C] = B(g->lv[l].wy),
        };
        run2d(g, cmd, GP_COARSEN, bl, &pl, g->lv[l].nx + 1, g->lv[l].ny + 1);
    }
}

static void mover_state(const vf_grid *g, double t, float *cx, float *cy, float *vx, float *vy)
{
    const vf_grid_mover *m = &g->d.mover;
    double w = 2 * M_PI * m->freq;
    double s = m->amp * sin(w * t), ds = m->amp * w * cos(w * t);
    *cx = (float)(m->cx + s * m->dx);
    *cy = (float)(m->cy + s * m->dy);
    *vx = (float)(ds * m->dx);
    *vy = (float)(ds * m->dy);
}

static void pass_obstacles(vf_grid *g, VkCommandBuffer cmd)
{
    vf_grid_push pc = push_for(g, 0);
    if (g->d.mover.shape != VF_GRID_SHAPE_NONE) {
        float cx, cy, vx, vy;
        mover_state(g, (double)g->rec_steps * g->dt, &cx, &cy, &vx, &vy);
        pc.a[0] = cx;
        pc.a[1] = cy;
        pc.a[2] = g->d.mover.radius;
        pc.a[3] = (float)g->d.mover.shape;
        pc.b[0] = vx;
        pc.b[1] = vy;
    }
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_OBS_MASK_STATIC] = B(g->mask_static), [VF_GRID_OBS_SU_STATIC] = B(g->su_static),
        [VF_GRID_OBS_SV_STATIC] = B(g->sv_static),     [VF_GRID_OBS_MASK] = B(g->mask),
        [VF_GRID_OBS_SU] = B(g->su),                   [VF_GRID_OBS_SV] = B(g->sv),
    };
    run2d(g, cmd, GP_OBSTACLES, b, &pc, g->nx, g->ny);
    record_weights(g, cmd);
}

static vf_result run_oneshot_obstacles(vf_grid *g)
{
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(g->gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_cmd_barrier_transfer_to_compute(cmd);
    pass_obstacles(g, cmd);
    return vf_cmd_oneshot_submit(g->gpu, cmd);
}

static bool splat_active(const vf_grid *g)
{
    return g->d.source.on || g->d.buoyancy != 0 || g->d.inflow_stripes > 0 ||
           (g->pointer.active && g->pointer.button == 0);
}

/* One splat dispatch: a source (may be off), plus buoyancy and inflow stripes
 * when `extras`. */
static void splat_dispatch(vf_grid *g, VkCommandBuffer cmd, const vf_grid_source *s, bool extras)
{
    vf_grid_push pc = push_for(g, 0);
    double t = (double)g->rec_steps * g->dt;
    pc.a[2] = 1.0f;
    if (s->on) {
        pc.mode |= VF_GRID_SPLAT_VELOCITY | VF_GRID_SPLAT_DYE;
        pc.a[0] = (float)(s->cx + s->ax * sin(2 * M_PI * s->wx * t));
        pc.a[1] = (float)(s->cy + s->ay * sin(2 * M_PI * s->wy * t));
        pc.a[2] = s->radius > 0 ? s->radius : 1e-6f;
        pc.b[0] = s->fx;
        pc.b[1] = s->fy;
        pc.c[0] = s->r;
        pc.c[1] = s->g;
        pc.c[2] = s->b;
        if (s->hue_rate > 0) {
            /* cycle through the hues so that colours meet and blend */
            double hue = fmod(t * s->hue_rate, 1.0) * 6.0;
            for (int ch = 0; ch < 3; ch++) {
                double x = fmod(hue + 6.0 - 2.0 * ch, 6.0); /* 0 at the channel's peak */
                double w = x < 1 ? 1 : x < 2 ? 2 - x : x < 4 ? 0 : x < 5 ? x - 4 : 1;
                pc.c[ch] *= (float)w;
            }
        }
    }
    if (extras && g->d.buoyancy != 0) {
        pc.mode |= VF_GRID_SPLAT_BUOYANCY;
        pc.b[2] = (float)g->d.buoyancy;
    }
    if (extras && g->d.inflow_stripes) {
        pc.mode |= VF_GRID_SPLAT_STRIPES;
        pc.count = g->d.inflow_stripes;
    }
    uint32_t cu = g->cu, nu = cu ^ 1, cd = g->cd, nd = cd ^ 1;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_SPLAT_U_IN] = B(g->u[cu]),       [VF_GRID_SPLAT_V_IN] = B(g->v[cu]),
        [VF_GRID_SPLAT_U_OUT] = B(g->u[nu]),      [VF_GRID_SPLAT_V_OUT] = B(g->v[nu]),
        [VF_GRID_SPLAT_R_IN] = B(g->dye[cd][0]),  [VF_GRID_SPLAT_G_IN] = B(g->dye[cd][1]),
        [VF_GRID_SPLAT_B_IN] = B(g->dye[cd][2]),  [VF_GRID_SPLAT_R_OUT] = B(g->dye[nd][0]),
        [VF_GRID_SPLAT_G_OUT] = B(g->dye[nd][1]), [VF_GRID_SPLAT_B_OUT] = B(g->dye[nd][2]),
        [VF_GRID_SPLAT_WX] = B(g->lv[0].wx),      [VF_GRID_SPLAT_WY] = B(g->lv[0].wy),
        [VF_GRID_SPLAT_MASK] = B(g->mask),
    };
    run2d(g, cmd, GP_SPLAT, b, &pc, g->nx + 1, g->ny + 1);
    g->cu = nu;
    g->cd = nd;
}

static void pass_splat(vf_grid *g, VkCommandBuffer cmd)
{
    if (g->d.source.on || g->d.buoyancy != 0 || g->d.inflow_stripes > 0)
        splat_dispatch(g, cmd, &g->d.source, true);
    if (g->pointer.active && g->pointer.button == 0) {
        /* the viewer's pointer: push the fluid along the drag and inject dye */
        double w = g->nx * (double)g->h, hgt = g->ny * (double)g->h, size = w > hgt ? w : hgt;
        vf_grid_source p = {.on = true, .hue_rate = 0.2f, .cx = g->pointer.pos[0] * (float)w,
                            .cy = g->pointer.pos[1] * (float)hgt, .radius = (float)(0.025 * size),
                            .fx = 8.0f * g->pointer.vel[0] * (float)w, .fy = 8.0f * g->pointer.vel[1] * (float)hgt,
                            .r = 10.0f, .g = 10.0f, .b = 10.0f};
        splat_dispatch(g, cmd, &p, false);
    }
}

static void pass_vorticity(vf_grid *g, VkCommandBuffer cmd)
{
    if (!g->omega)
        return; /* created without confinement */
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = (float)g->d.vorticity;
    uint32_t cu = g->cu, nu = cu ^ 1;
    vf_binding bv[VF_MAX_BINDINGS] = {
        [VF_GRID_VORT_U] = B(g->u[cu]), [VF_GRID_VORT_V] = B(g->v[cu]), [VF_GRID_VORT_OMEGA] = B(g->omega)};
    run2d(g, cmd, GP_VORTICITY, bv, &pc, g->nx, g->ny);
    vf_binding bc[VF_MAX_BINDINGS] = {
        [VF_GRID_CONF_U_IN] = B(g->u[cu]),  [VF_GRID_CONF_V_IN] = B(g->v[cu]), [VF_GRID_CONF_OMEGA] = B(g->omega),
        [VF_GRID_CONF_U_OUT] = B(g->u[nu]), [VF_GRID_CONF_V_OUT] = B(g->v[nu]), [VF_GRID_CONF_WX] = B(g->lv[0].wx),
        [VF_GRID_CONF_WY] = B(g->lv[0].wy),
    };
    run2d(g, cmd, GP_CONFINE, bc, &pc, g->nx + 1, g->ny + 1);
    g->cu = nu;
}

/* Klein et al.'s explicit donor-cell convection of the velocity. */
static void pass_donor_cell(vf_grid *g, VkCommandBuffer cmd)
{
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = (float)g->d.donor_gamma;
    uint32_t cu = g->cu, nu = cu ^ 1;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_DC_U_IN] = B(g->u[cu]),  [VF_GRID_DC_V_IN] = B(g->v[cu]),  [VF_GRID_DC_U_OUT] = B(g->u[nu]),
        [VF_GRID_DC_V_OUT] = B(g->v[nu]), [VF_GRID_DC_WX] = W(g->lv[0].wx), [VF_GRID_DC_WY] = W(g->lv[0].wy),
    };
    run2d(g, cmd, GP_DONOR_CELL, b, &pc, g->nx + 1, g->ny + 1);
    g->cu = nu;
}

static void pass_advect_velocity(vf_grid *g, VkCommandBuffer cmd)
{
    if (g->d.advection == VF_GRID_ADVECT_DONOR_CELL) {
        pass_donor_cell(g, cmd);
        return;
    }
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = g->dt;
    uint32_t cu = g->cu, nu = cu ^ 1;
    bool mc = g->d.advection == VF_GRID_ADVECT_MACCORMACK;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_AV_U] = B(g->u[cu]),   [VF_GRID_AV_V] = B(g->v[cu]),
        [VF_GRID_AV_U_SRC] = B(g->u[cu]), [VF_GRID_AV_V_SRC] = B(g->v[cu]),
        [VF_GRID_AV_U_OUT] = B(mc ? g->uh : g->u[nu]), [VF_GRID_AV_V_OUT] = B(mc ? g->vh : g->v[nu]),
        [VF_GRID_AV_WX] = W(g->lv[0].wx), [VF_GRID_AV_WY] = W(g->lv[0].wy),
        [VF_GRID_AV_MASK] = W(g->mask), [VF_GRID_AV_SU] = W(g->su), [VF_GRID_AV_SV] = W(g->sv),
        [VF_GRID_AV_U_T] = B(g->u[cu]), [VF_GRID_AV_V_T] = B(g->v[cu]),
        [VF_GRID_AV_U_SRC_T] = B(g->u[cu]), [VF_GRID_AV_V_SRC_T] = B(g->v[cu]), [VF_GRID_AV_MASK_T] = B(g->mask),
    };
    run2d(g, cmd, GP_ADVECT_VEL, b, &pc, g->nx + 1, g->ny + 1);
    if (mc) {
        b[VF_GRID_AV_U_SRC] = b[VF_GRID_AV_U_SRC_T] = B(g->uh);
        b[VF_GRID_AV_V_SRC] = b[VF_GRID_AV_V_SRC_T] = B(g->vh);
        b[VF_GRID_AV_U_OUT] = B(g->u[nu]);
        b[VF_GRID_AV_V_OUT] = B(g->v[nu]);
        run2d(g, cmd, GP_MACCORMACK_VEL, b, &pc, g->nx + 1, g->ny + 1);
    }
    g->cu = nu;
}

static void pass_diffuse(vf_grid *g, VkCommandBuffer cmd)
{
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = (float)(g->d.viscosity * g->dt / ((double)g->h * g->h));
    pc.a[1] = g->diffuse_omega;
    uint32_t cu = g->cu, nu = cu ^ 1;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_DIF_RHS_U] = B(g->u[cu]), [VF_GRID_DIF_X_U] = B(g->u[nu]), [VF_GRID_DIF_W_U] = B(g->lv[0].wx),
        [VF_GRID_DIF_RHS_V] = B(g->v[cu]), [VF_GRID_DIF_X_V] = B(g->v[nu]), [VF_GRID_DIF_W_V] = B(g->lv[0].wy),
    };
    for (uint32_t it = 0; it <= g->diffuse_iters; it++) {
        for (uint32_t color = 0; color < 2; color++) {
            if (it == 0 && color == 1)
                break;
            pc.count = it; /* 0: copy */
            pc.color = color;
            run2d(g, cmd, GP_DIFFUSE, b, &pc, g->nx + 1, g->ny + 1);
        }
    }
    g->cu = nu;
}

static void pass_boundary(vf_grid *g, VkCommandBuffer cmd)
{
    vf_grid_push pc = push_for(g, 0);
    uint32_t cu = g->cu, nu = cu ^ 1;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_BND_U_IN] = B(g->u[cu]),  [VF_GRID_BND_V_IN] = B(g->v[cu]),  [VF_GRID_BND_U_OUT] = B(g->u[nu]),
        [VF_GRID_BND_V_OUT] = B(g->v[nu]), [VF_GRID_BND_WX] = W(g->lv[0].wx), [VF_GRID_BND_WY] = W(g->lv[0].wy),
        [VF_GRID_BND_MASK] = W(g->mask),   [VF_GRID_BND_SU] = W(g->su),       [VF_GRID_BND_SV] = W(g->sv),
    };
    run2d(g, cmd, GP_BOUNDARY, b, &pc, g->nx + 1, g->ny + 1);
    g->cu = nu;
}

static void record_divergence(vf_grid *g, VkCommandBuffer cmd, vf_buffer *out, float scale)
{
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = scale;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_GRID_DIV_U] = B(g->u[g->cu]), [VF_GRID_DIV_V] = B(g->v[g->cu]),
                                            [VF_GRID_DIV_MASK] = B(g->mask), [VF_GRID_DIV_OUT] = B(out)};
    run2d(g, cmd, GP_DIVERGENCE, b, &pc, g->nx, g->ny);
}

/* u -= dt grad p; with the penalty: u -= dtau grad S (the sub-steps'
 * pressures summed, grid_penalty.comp), then p = -div(u) / eps, Chen &
 * Lobo's pressure of the new velocity. */
static void pass_gradient(vf_grid *g, VkCommandBuffer cmd)
{
    vf_grid_push pc = push_for(g, 0);
    bool penalty = g->d.pressure == VF_GRID_PRESSURE_PENALTY;
    if (penalty)
        pc.dt = (float)g->pen_dtau;
    uint32_t cu = g->cu, nu = cu ^ 1;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_GRAD_U_IN] = B(g->u[cu]),   [VF_GRID_GRAD_V_IN] = B(g->v[cu]),
        [VF_GRID_GRAD_P] = B(penalty ? g->pen_s[g->pen_sum] : g->lv[0].x),
        [VF_GRID_GRAD_WX] = B(g->lv[0].wx),  [VF_GRID_GRAD_WY] = B(g->lv[0].wy),  [VF_GRID_GRAD_U_OUT] = B(g->u[nu]),
        [VF_GRID_GRAD_V_OUT] = B(g->v[nu]),
    };
    run2d(g, cmd, GP_GRADIENT, b, &pc, g->nx + 1, g->ny + 1);
    g->cu = nu;
    if (penalty)
        record_divergence(g, cmd, g->lv[0].x, (float)(-1.0 / g->d.epsilon));
}

static void advect_scalars(vf_grid *g, VkCommandBuffer cmd, vf_buffer *const *src, vf_buffer *const *dst,
                           vf_buffer *const *hat, uint32_t channels)
{
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = g->dt;
    pc.count = channels;
    bool mc = g->d.advection == VF_GRID_ADVECT_MACCORMACK;
    vf_buffer *s[3], *d[3], *h[3];
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t q = k < channels ? k : 0;
        s[k] = src[q];
        d[k] = dst[q];
        h[k] = mc ? hat[q] : dst[q];
    }
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_AS_U] = B(g->u[g->cu]), [VF_GRID_AS_V] = B(g->v[g->cu]), [VF_GRID_AS_MASK] = W(g->mask),
        [VF_GRID_AS_SRC0] = B(s[0]),     [VF_GRID_AS_SRC1] = B(s[1]),     [VF_GRID_AS_SRC2] = B(s[2]),
        [VF_GRID_AS_HAT0] = B(h[0]),     [VF_GRID_AS_HAT1] = B(h[1]),     [VF_GRID_AS_HAT2] = B(h[2]),
        [VF_GRID_AS_OUT0] = B(mc ? h[0] : d[0]), [VF_GRID_AS_OUT1] = B(mc ? h[1] : d[1]),
        [VF_GRID_AS_OUT2] = B(mc ? h[2] : d[2]),
        [VF_GRID_AS_U_T] = B(g->u[g->cu]), [VF_GRID_AS_V_T] = B(g->v[g->cu]),
        [VF_GRID_AS_SRC0_T] = B(s[0]),     [VF_GRID_AS_SRC1_T] = B(s[1]),     [VF_GRID_AS_SRC2_T] = B(s[2]),
        [VF_GRID_AS_HAT0_T] = B(h[0]),     [VF_GRID_AS_HAT1_T] = B(h[1]),     [VF_GRID_AS_HAT2_T] = B(h[2]),
        [VF_GRID_AS_MASK_T] = B(g->mask),
    };
    run2d(g, cmd, GP_ADVECT_SCALAR, b, &pc, g->nx, g->ny);
    if (mc) {
        b[VF_GRID_AS_OUT0] = B(d[0]);
        b[VF_GRID_AS_OUT1] = B(d[1]);
        b[VF_GRID_AS_OUT2] = B(d[2]);
        run2d(g, cmd, GP_MACCORMACK_SCALAR, b, &pc, g->nx, g->ny);
    }
}

static void pass_advect_scalars(vf_grid *g, VkCommandBuffer cmd)
{
    uint32_t cd = g->cd, nd = cd ^ 1;
    advect_scalars(g, cmd, g->dye[cd], g->dye[nd], g->dyeh, 3);
    g->cd = nd;
    if (g->d.texcoords) {
        uint32_t ct = g->ct, nt = ct ^ 1;
        advect_scalars(g, cmd, g->tex[ct], g->tex[nt], g->texh, 2);
        g->ct = nt;
    }
}

static void pass_dye_mix(vf_grid *g, VkCommandBuffer cmd)
{
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = (float)g->d.dye_mix;
    uint32_t cd = g->cd, nd = cd ^ 1;
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_GRID_MIX_MASK] = B(g->mask),
        [VF_GRID_MIX_IN0] = B(g->dye[cd][0]),  [VF_GRID_MIX_IN1] = B(g->dye[cd][1]),  [VF_GRID_MIX_IN2] = B(g->dye[cd][2]),
        [VF_GRID_MIX_OUT0] = B(g->dye[nd][0]), [VF_GRID_MIX_OUT1] = B(g->dye[nd][1]), [VF_GRID_MIX_OUT2] = B(g->dye[nd][2]),
    };
    run2d(g, cmd, GP_DYE_MIX, b, &pc, g->nx, g->ny);
    g->cd = nd;
}

/* ------------------------------------------------------------------ pressure */
/* Jacobi ping-pongs between p and the level-0 residual buffer (scratch while
 * iterating; the norms are taken before and after). */

/* The bindings grid_mg_smooth, grid_mg_coarse and grid_mg_residual share:
 * level l's x, b and face weights. */
static void mg_bindings(const vf_grid *g, const grid_level *L, vf_binding b[VF_MAX_BINDINGS])
{
    b[VF_GRID_MG_X] = B(L->x);
    b[VF_GRID_MG_B] = B(L->b);
    b[VF_GRID_MG_WX] = weight_binding(g, L->wx);
    b[VF_GRID_MG_WY] = weight_binding(g, L->wy);
}

static void mg_smooth(vf_grid *g, VkCommandBuffer cmd, uint32_t l, uint32_t sweeps)
{
    grid_level *L = &g->lv[l];
    vf_grid_push pc = push_for(g, l);
    vf_binding b[VF_MAX_BINDINGS];
    mg_bindings(g, L, b);
    for (uint32_t s = 0; s < sweeps; s++)
        for (uint32_t color = 0; color < 2; color++) {
            pc.color = color;
            run2d(g, cmd, GP_SMOOTH, b, &pc, L->nx, L->ny);
        }
}

/* `sweeps` red-black sweeps of level l (red first) from `in` to `out` in
 * grid_mg_smooth_tile dispatches; with `prolong`, the first adds the
 * prolongated correction of level l + 1 to `in` (grid_mg_prolong.glsl). A
 * dispatch of k half-sweeps writes tiles of R - 2k cells (R the region's
 * side); at most R / 4 per dispatch, and an odd number of dispatches, which
 * ping-pong between out and in, so that the result ends in `out` (`in` then
 * holds an intermediate). Level l has a coarser level, and its size is even
 * along a periodic side (plan_levels), as grid_sweep_tile.glsl needs. */
static void mg_smooth_tiles(vf_grid *g, VkCommandBuffer cmd, uint32_t l, uint32_t sweeps, vf_buffer *in,
                            vf_buffer *out, bool prolong)
{
    grid_level *L = &g->lv[l], *C = &g->lv[l + 1];
    uint32_t r = g->jt_wg * VF_GRID_JT_CELLS, half = 2 * sweeps, kmax = r / 4;
    uint32_t n = (half + kmax - 1) / kmax;
    n += (n & 1) ^ 1; /* odd: the last dispatch writes out */
    vf_grid_push pc = push_for(g, l);
    for (uint32_t q = 0, done = 0; q < n; q++) {
        bool first = q == 0 && prolong; /* reads the coarse level's arrays; the others bind their first element */
        vf_binding b[VF_MAX_BINDINGS] = {
            [VF_GRID_JAC_X_IN] = B(q & 1 ? out : in),
            [VF_GRID_JAC_B] = B(L->b),
            [VF_GRID_JAC_WX] = weight_binding(g, L->wx),
            [VF_GRID_JAC_WY] = weight_binding(g, L->wy),
            [VF_GRID_JAC_X_OUT] = B(q & 1 ? in : out),
            [VF_GRID_JAC_X_C] = first ? B(C->x) : (vf_binding){.buffer = C->x, .range = 4},
            [VF_GRID_JAC_WX_C] = first ? weight_binding(g, C->wx) : (vf_binding){.buffer = C->wx, .range = 4},
            [VF_GRID_JAC_WY_C] = first ? weight_binding(g, C->wy) : (vf_binding){.buffer = C->wy, .range = 4},
        };
        pc.count = half / n + (q < half % n ? 1 : 0);
        pc.color = done & 1;
        pc.mode = first ? VF_GRID_TILE_PROLONG : 0;
        uint32_t tile = r - 2 * pc.count;
        run(g, cmd, NULL, GP_SMOOTH_TILE, b, &pc, groups(L->nx, tile), groups(L->ny, tile));
        done += pc.count;
    }
}

static void mg_residual(vf_grid *g, VkCommandBuffer cmd, uint32_t l)
{
    grid_level *L = &g->lv[l];
    vf_grid_push pc = push_for(g, l);
    vf_binding b[VF_MAX_BINDINGS];
    mg_bindings(g, L, b);
    b[VF_GRID_MG_R] = B(L->r);
    run2d(g, cmd, GP_RESIDUAL, b, &pc, L->nx, L->ny);
}

/* One V-cycle of the levels from the tail level down, in one dispatch. */
static void mg_tail(vf_grid *g, VkCommandBuffer cmd)
{
    uint32_t t = g->tail, n = g->levels - t;
    grid_level *L = &g->lv[t];
    vf_grid_push pc = push_for(g, t);
    pc.color = n;
    pc.mode = g->d.mg_pre | (g->d.mg_post << 16);
    pc.count = g->coarse_iters;
    pc.a[0] = g->coarse_omega;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_GRID_TAIL_X] = B(L->x), [VF_GRID_TAIL_B] = B(L->b)};
    for (uint32_t q = 0; q < VF_GRID_TAIL_MAX_LEVELS; q++) {
        grid_level *Q = q < n ? &g->lv[t + q] : L;
        b[VF_GRID_TAIL_WX0 + q] = q < n ? weight_binding(g, Q->wx) : (vf_binding){.buffer = L->wx, .range = 4};
        b[VF_GRID_TAIL_WY0 + q] = q < n ? weight_binding(g, Q->wy) : (vf_binding){.buffer = L->wy, .range = 4};
    }
    run(g, cmd, NULL, GP_TAIL, b, &pc, 1, 1);
}

static void mg_cycle(vf_grid *g, VkCommandBuffer cmd, uint32_t l)
{
    grid_level *L = &g->lv[l];
    if (l == g->tail) {
        mg_tail(g, cmd);
        return;
    }
    if (l + 1 == g->levels) {
        vf_grid_push pc = push_for(g, l);
        pc.count = g->coarse_iters;
        pc.a[0] = g->coarse_omega;
        vf_binding b[VF_MAX_BINDINGS];
        mg_bindings(g, L, b);
        run(g, cmd, NULL, GP_COARSE, b, &pc, 1, 1);
        return;
    }
    /* pre-smoothing from x into the level's scratch r, the residual and its
     * restriction in one pass (fine push, coarse cells), the coarse cycle,
     * then prolongation and post-smoothing in one pass from r back to x */
    grid_level *C = &g->lv[l + 1];
    mg_smooth_tiles(g, cmd, l, g->d.mg_pre, L->x, L->r, false);
    vf_grid_push pr = push_for(g, l);
    vf_binding br[VF_MAX_BINDINGS] = {
        [VF_GRID_RR_X_F] = B(L->r), [VF_GRID_RR_B_F] = B(L->b), [VF_GRID_RR_WX_F] = weight_binding(g, L->wx),
        [VF_GRID_RR_WY_F] = weight_binding(g, L->wy), [VF_GRID_RR_B_C] = B(C->b), [VF_GRID_RR_X_C] = B(C->x),
    };
    run2d(g, cmd, GP_RESTRICT_RES, br, &pr, C->nx, C->ny);
    mg_cycle(g, cmd, l + 1);
    mg_smooth_tiles(g, cmd, l, g->d.mg_post, L->r, L->x, true);
}

void vf_grid_record_vcycle(vf_grid *g, VkCommandBuffer cmd)
{
    if (g->levels == 1) {
        /* no hierarchy: the "cycle" is the coarse solver on level 0 when it
         * fits, else smoothing */
        if (g->nx <= VF_GRID_COARSE_MAX && g->ny <= VF_GRID_COARSE_MAX)
            mg_cycle(g, cmd, 0);
        else
            mg_smooth(g, cmd, 0, g->d.mg_pre + g->d.mg_post);
        return;
    }
    mg_cycle(g, cmd, 0);
}

/* Jacobi iterations in as many grid_jacobi dispatches: an even count D (the
 * result ends in p) of about iters / D iterations each, the D that costs the
 * least in cells computed. A dispatch of k iterations computes whole regions
 * of R x R cells, one per tile of (R - 2k)^2 cells written, and loads the
 * region once (about VF_GRID_JT_LOAD_COST iterations' worth); so its cost is
 * tiles x (VF_GRID_JT_LOAD_COST + k). Few dispatches mean wide halos and
 * many tiles; many mean loads repeated. On lavapipe at 256^2 this picks 6
 * iterations a dispatch for 400 iterations, which ran in less CPU time than
 * 8 or 15. */
#define VF_GRID_JT_LOAD_COST 3
uint32_t vf_grid_jacobi_dispatches(const vf_grid *g, uint32_t iters)
{
    iters += iters & 1;
    uint32_t r = g->jt_wg * VF_GRID_JT_CELLS, best = 2;
    double best_cost = -1;
    for (uint32_t d = 2; d <= (iters > 2 ? iters : 2); d += 2) {
        uint32_t k = (iters + d - 1) / d;
        if (2 * k >= r)
            continue; /* no tile left */
        uint32_t t = r - 2 * k;
        double cost = (double)d * ((g->nx + t - 1) / t) * ((g->ny + t - 1) / t) * (VF_GRID_JT_LOAD_COST + k);
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = d;
        }
        if (k == 1)
            break;
    }
    return best;
}

/* `iters` (even) Jacobi iterations in an even number of dispatches that
 * ping-pong between p and the level-0 residual buffer, so that the result
 * ends in p; the iterations are spread evenly over the dispatches. */
static void record_jacobi(vf_grid *g, VkCommandBuffer cmd, uint32_t iters)
{
    grid_level *L = &g->lv[0];
    vf_grid_push pc = push_for(g, 0);
    vf_buffer *x[2] = {L->x, L->r}; /* even dispatches read p and write r, odd ones back */
    vf_binding b[2][VF_MAX_BINDINGS];
    for (int k = 0; k < 2; k++) {
        b[k][VF_GRID_JAC_X_IN] = B(x[k]);
        b[k][VF_GRID_JAC_B] = B(L->b);
        b[k][VF_GRID_JAC_WX] = weight_binding(g, L->wx);
        b[k][VF_GRID_JAC_WY] = weight_binding(g, L->wy);
        b[k][VF_GRID_JAC_X_OUT] = B(x[k ^ 1]);
    }
    uint32_t n = vf_grid_jacobi_dispatches(g, iters), r = g->jt_wg * VF_GRID_JT_CELLS;
    for (uint32_t q = 0; q < n; q++) {
        pc.count = iters / n + (q < iters % n ? 1 : 0);
        uint32_t tile = r - 2 * pc.count;
        run(g, cmd, NULL, GP_JACOBI, b[q & 1], &pc, groups(L->nx, tile), groups(L->ny, tile));
    }
}

/* `iters` symmetric SOR iterations in one grid_ssor dispatch (one
 * workgroup); its pipeline is built here on a grid made with another
 * solver. */
static vf_result record_ssor(vf_grid *g, VkCommandBuffer cmd, uint32_t iters)
{
    if (!g->pipe[GP_SSOR][GV_CLOSED]) {
        vf_result res = create_pipeline(g, GP_SSOR, GV_CLOSED);
        if (res != VF_OK)
            return res;
    }
    grid_level *L = &g->lv[0];
    vf_grid_push pc = push_for(g, 0);
    pc.count = iters;
    pc.a[0] = (float)g->d.ssor_omega;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_GRID_SSOR_X] = B(L->x), [VF_GRID_SSOR_B] = B(L->b),
                                      [VF_GRID_SSOR_WX] = B(L->wx), [VF_GRID_SSOR_WY] = B(L->wy)};
    run(g, cmd, NULL, GP_SSOR, b, &pc, 1, 1);
    return VF_OK;
}

/* Penalty sub-steps per grid_penalty dispatch: all of them when the region
 * holds the whole domain (one workgroup), else the count that computes the
 * fewest cells, as for Jacobi (a dispatch of k sub-steps computes regions
 * of R x R cells, one per tile of R - 2k along each tiled axis). */
static uint32_t penalty_dispatches(const vf_grid *g, uint32_t total, uint32_t r, bool fx, bool fy)
{
    if (fx && fy)
        return 1;
    uint32_t best = 1;
    double best_cost = -1;
    for (uint32_t d = 1; d <= total; d++) {
        uint32_t k = (total + d - 1) / d;
        if (4 * k > r)
            continue; /* halos wider than a quarter of the region */
        uint32_t t = r - 2 * k;
        double tiles = (double)(fx ? 1 : (g->nx + t - 1) / t) * (fy ? 1 : (g->ny + t - 1) / t);
        double cost = d * tiles * (VF_GRID_JT_LOAD_COST + k);
        if (best_cost < 0 || cost < best_cost) {
            best_cost = cost;
            best = d;
        }
        if (k == 1)
            break;
    }
    return best;
}

/* `total` penalty sub-steps of dtau = dt / total on the right-hand side b
 * and the previous pressure p (grid_penalty.comp, which reads p as p_0
 * throughout): the sub-steps' pressures ping-pong between pen_p[0] and [1],
 * the sum of them ends in pen_s[pen_sum], for the gradient pass. */
static void record_penalty(vf_grid *g, VkCommandBuffer cmd, uint32_t total)
{
    grid_level *L = &g->lv[0];
    uint32_t r = g->pen_wg * g->pen_cells;
    bool fx = g->nx <= r, fy = g->ny <= r;
    uint32_t n = penalty_dispatches(g, total, r, fx, fy);
    g->pen_dtau = (double)g->dt / total;
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = (float)(g->pen_dtau / (g->d.epsilon * (double)g->h * g->h));
    pc.a[1] = (float)(g->pen_dtau / g->d.epsilon);
    pc.a[2] = (float)(1.0 / total);
    for (uint32_t q = 0; q < n; q++) {
        vf_binding b[VF_MAX_BINDINGS] = {
            [VF_GRID_PEN_P_IN] = B(q ? g->pen_p[(q + 1) & 1] : L->x), [VF_GRID_PEN_S_IN] = B(g->pen_s[q & 1]),
            [VF_GRID_PEN_B] = B(L->b),                 [VF_GRID_PEN_WX] = B(L->wx),
            [VF_GRID_PEN_WY] = B(L->wy),               [VF_GRID_PEN_P_OUT] = B(g->pen_p[q & 1]),
            [VF_GRID_PEN_S_OUT] = B(g->pen_s[(q + 1) & 1]),  [VF_GRID_PEN_P0] = B(L->x),
        };
        pc.count = total / n + (q < total % n ? 1 : 0);
        pc.mode = (q == 0 ? VF_GRID_PENALTY_FIRST : 0u) | (fx ? VF_GRID_PENALTY_FULL_X : 0u) |
                  (fy ? VF_GRID_PENALTY_FULL_Y : 0u);
        uint32_t t = r - 2 * pc.count;
        run(g, cmd, NULL, GP_PENALTY, b, &pc, fx ? 1 : groups(g->nx, t), fy ? 1 : groups(g->ny, t));
    }
    g->pen_sum = n & 1;
}

/* Stam's FFT solve: b to its spectrum, divided by the operator's
 * eigenvalues, back to p. */
static vf_result record_fft(vf_grid *g, VkCommandBuffer cmd)
{
    vf_result res = vf_fft_record(g->fft, cmd, false);
    if (res != VF_OK)
        return res;
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = (float)(1.0 / ((double)g->nx * g->ny));
    vf_binding b[VF_MAX_BINDINGS] = {[VF_GRID_FFT_SPECTRUM] = B(vf_fft_spectrum(g->fft)),
                                           [VF_GRID_FFT_EIG] = B(g->fft_eig)};
    run2d(g, cmd, GP_FFT_SCALE, b, &pc, g->nx / 2 + 1, g->ny);
    return vf_fft_record(g->fft, cmd, true);
}

vf_result vf_grid_record_pressure_iterations(vf_grid *g, VkCommandBuffer cmd, vf_grid_pressure method, uint32_t iters)
{
    switch (method) {
    case VF_GRID_PRESSURE_MULTIGRID:
        for (uint32_t k = 0; k < iters; k++)
            vf_grid_record_vcycle(g, cmd);
        break;
    case VF_GRID_PRESSURE_JACOBI:
        iters += iters & 1; /* an even count: the result ends in p */
        if (iters)
            record_jacobi(g, cmd, iters);
        break;
    case VF_GRID_PRESSURE_SSOR:
        if (iters) {
            vf_result res = record_ssor(g, cmd, iters);
            if (res != VF_OK)
                return res;
        }
        break;
    case VF_GRID_PRESSURE_PENALTY:
        if (!g->pen_p[0] || !iters)
            return VF_ERR_INVALID_ARG; /* created without the penalty's buffers */
        record_penalty(g, cmd, iters);
        break;
    case VF_GRID_PRESSURE_FFT: {
        if (!g->fft)
            return VF_ERR_INVALID_ARG; /* created without the transforms */
        vf_result res = record_fft(g, cmd);
        if (res != VF_OK)
            return res;
        iters = 1;
        break;
    }
    default: return VF_ERR_INVALID_ARG;
    }
    g->cycles_total += iters;
    return VF_OK;
}

vf_result vf_grid_record_pressure(vf_grid *g, VkCommandBuffer cmd, vf_profiler *prof, vf_grid_pressure method,
                                  uint32_t iters, uint32_t trace)
{
    (void)prof;
    if (!iters)
        iters = g->d.pressure_iters;
    if (method == VF_GRID_PRESSURE_JACOBI)
        iters += iters & 1; /* pairs: the result ends in p */
    grid_level *L = &g->lv[0];
    record_norm(g, cmd, L->b, g->dt, VF_GRID_STAT_RHS);
    if (method == VF_GRID_PRESSURE_PENALTY) /* no equation to solve: no residuals */
        return vf_grid_record_pressure_iterations(g, cmd, method, iters);
    if (method == VF_GRID_PRESSURE_FFT)
        trace = 0;
    if (g->d.closed_mean) {
        vf_grid_push pc = push_for(g, 0);
        pc.color = VF_GRID_STAT_RHS;
        pc.a[0] = 1.0f / g->dt;
        vf_binding b[VF_MAX_BINDINGS] = {
            [VF_GRID_MEAN_B] = B(L->b), [VF_GRID_MEAN_MASK] = B(g->mask), [VF_GRID_MEAN_STATS] = B(g->stats)};
        run2d(g, cmd, GP_MEAN, b, &pc, g->nx, g->ny);
    }
    mg_residual(g, cmd, 0);
    record_norm(g, cmd, L->r, g->dt, VF_GRID_STAT_RES_BEFORE);
    uint32_t slot = 0;
    if (trace) {
        if (method == VF_GRID_PRESSURE_JACOBI)
            trace += trace & 1;
        for (uint32_t done = 0; done < iters;) {
            uint32_t n = iters - done < trace ? iters - done : trace;
            vf_result res = vf_grid_record_pressure_iterations(g, cmd, method, n);
            if (res != VF_OK)
                return res;
            done += n;
            if (slot < VF_GRID_STAT_MAX_TRACE) {
                mg_residual(g, cmd, 0);
                record_norm(g, cmd, L->r, g->dt, VF_GRID_STAT_CYCLE0 + slot++);
            }
        }
    } else {
        vf_result res = vf_grid_record_pressure_iterations(g, cmd, method, iters);
        if (res != VF_OK)
            return res;
    }
    mg_residual(g, cmd, 0);
    record_norm(g, cmd, L->r, g->dt, VF_GRID_STAT_RES_AFTER);
    return VF_OK;
}

/* ------------------------------------------------------------------ steps */

/* The table pass whose name (and bytes) the scope of stage s takes: the
 * stage's first row in grid_passes.def (its stage column); -1 when s is no
 * stage or has no row. Its other passes are dispatched inside the scope. */
static int stage_pass(vf_grid_pass s)
{
    for (int i = 0; i < GP_COUNT && (unsigned)s < VF_GRID_PASS_COUNT; i++)
        if (pass_info[i].stage == (int)s)
            return i;
    return -1;
}

vf_result vf_grid_record_pass(vf_grid *g, VkCommandBuffer cmd, vf_grid_pass pass, vf_profiler *prof)
{
    int first = stage_pass(pass);
    if (first < 0)
        return VF_ERR_INVALID_ARG;
    uint32_t scope = vf_scope_begin(g->gpu, prof, cmd, GP_passes[first].name, true);
    switch (pass) {
    case VF_GRID_PASS_OBSTACLES: pass_obstacles(g, cmd); break;
    case VF_GRID_PASS_SPLAT: pass_splat(g, cmd); break;
    case VF_GRID_PASS_VORTICITY: pass_vorticity(g, cmd); break;
    case VF_GRID_PASS_ADVECT_VELOCITY: pass_advect_velocity(g, cmd); break;
    case VF_GRID_PASS_DIFFUSE: pass_diffuse(g, cmd); break;
    case VF_GRID_PASS_BOUNDARY: pass_boundary(g, cmd); break;
    case VF_GRID_PASS_DIVERGENCE: record_divergence(g, cmd, g->lv[0].b, 1.0f / g->dt); break;
    case VF_GRID_PASS_PRESSURE: vf_grid_record_pressure(g, cmd, prof, g->d.pressure, 0, 0); break;
    case VF_GRID_PASS_GRADIENT: pass_gradient(g, cmd); break;
    case VF_GRID_PASS_MEASURE:
        record_divergence(g, cmd, g->lv[0].r, 1.0f);
        record_norm(g, cmd, g->lv[0].r, 1.0f, VF_GRID_STAT_DIV_AFTER);
        break;
    case VF_GRID_PASS_ADVECT_SCALARS: pass_advect_scalars(g, cmd); break;
    case VF_GRID_PASS_DYE_MIX: pass_dye_mix(g, cmd); break;
    default: break;
    }
    vf_scope_end(g->gpu, prof, cmd, scope, true);
    return VF_OK;
}

vf_result vf_grid_record_step(vf_grid *g, VkCommandBuffer cmd, vf_profiler *prof, bool last)
{
    if (g->d.mover.shape != VF_GRID_SHAPE_NONE || g->obstacles_dirty) {
        vf_grid_record_pass(g, cmd, VF_GRID_PASS_OBSTACLES, prof);
        g->obstacles_dirty = false;
    }
    if (splat_active(g))
        vf_grid_record_pass(g, cmd, VF_GRID_PASS_SPLAT, prof);
    if (g->d.vorticity > 0)
        vf_grid_record_pass(g, cmd, VF_GRID_PASS_VORTICITY, prof);
    vf_grid_record_pass(g, cmd, VF_GRID_PASS_ADVECT_VELOCITY, prof);
    if (g->d.viscosity > 0)
        vf_grid_record_pass(g, cmd, VF_GRID_PASS_DIFFUSE, prof);
    vf_grid_record_pass(g, cmd, VF_GRID_PASS_BOUNDARY, prof);
    vf_grid_record_pass(g, cmd, VF_GRID_PASS_DIVERGENCE, prof);
    vf_grid_record_pass(g, cmd, VF_GRID_PASS_PRESSURE, prof);
    vf_grid_record_pass(g, cmd, VF_GRID_PASS_GRADIENT, prof);
    if (last)
        vf_grid_record_pass(g, cmd, VF_GRID_PASS_MEASURE, prof);
    vf_grid_record_pass(g, cmd, VF_GRID_PASS_ADVECT_SCALARS, prof);
    if (g->d.dye_mix > 0)
        vf_grid_record_pass(g, cmd, VF_GRID_PASS_DYE_MIX, prof);
    g->rec_steps++;
    return VF_OK;
}

/* Copies the stats into the readback ring slot of frame `frame`. */
static void record_stats_copy(vf_grid *g, VkCommandBuffer cmd, uint64_t frame)
{
    vf_cmd_barrier_compute_to_transfer(cmd);
    VkBufferCopy region = {.srcOffset = 0, .dstOffset = (frame % STATS_RING) * VF_GRID_STAT_COUNT * 16,
                           .size = VF_GRID_STAT_COUNT * 16};
    vkCmdCopyBuffer(cmd, g->stats->buffer, g->stats_ring->buffer, 1, &region);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                   VK_ACCESS_2_HOST_READ_BIT);
    /* the next frame's compute passes write the stats again after the copy read them */
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT);
}

static void stats_from_raw(const float *raw, vf_grid_stats *out, uint32_t trace_count)
{
    memset(out, 0, sizeof *out);
    out->div_before = raw[4 * VF_GRID_STAT_RHS + 1];
    out->res_before = raw[4 * VF_GRID_STAT_RES_BEFORE + 1];
    out->res_after = raw[4 * VF_GRID_STAT_RES_AFTER + 1];
    out->div_after = raw[4 * VF_GRID_STAT_DIV_AFTER + 1];
    out->div_after_max = raw[4 * VF_GRID_STAT_DIV_AFTER + 3];
    out->trace_count = trace_count;
    for (uint32_t k = 0; k < VF_GRID_STAT_MAX_TRACE; k++)
        out->trace[k] = raw[4 * (VF_GRID_STAT_CYCLE0 + k) + 1];
}

vf_result vf_grid_read_stats(vf_grid *g, vf_grid_stats *out)
{
    float raw[VF_GRID_STAT_COUNT * 4];
    vf_result res = vf_buffer_read(g->stats, 0, raw, sizeof raw);
    if (res != VF_OK)
        return res;
    stats_from_raw(raw, out, VF_GRID_STAT_MAX_TRACE);
    return VF_OK;
}

/* ------------------------------------------------------------------ fields */

void vf_grid_field_size(const vf_grid *g, vf_grid_field f, uint32_t *w, uint32_t *h)
{
    *w = g->nx;
    *h = g->ny;
    if (f == VF_GRID_FIELD_U || f == VF_GRID_FIELD_WX)
        *w = g->nx + 1;
    else if (f == VF_GRID_FIELD_V || f == VF_GRID_FIELD_WY)
        *h = g->ny + 1;
}

static vf_buffer *field_buffer(vf_grid *g, vf_grid_field f)
{
    switch (f) {
    case VF_GRID_FIELD_U: return g->u[g->cu];
    case VF_GRID_FIELD_V: return g->v[g->cu];
    case VF_GRID_FIELD_P: return g->lv[0].x;
    case VF_GRID_FIELD_R: return g->dye[g->cd][0];
    case VF_GRID_FIELD_G: return g->dye[g->cd][1];
    case VF_GRID_FIELD_B: return g->dye[g->cd][2];
    case VF_GRID_FIELD_S: return g->tex[g->ct][0];
    case VF_GRID_FIELD_T: return g->tex[g->ct][1];
    case VF_GRID_FIELD_MASK: return g->mask;
    case VF_GRID_FIELD_SU: return g->su;
    case VF_GRID_FIELD_SV: return g->sv;
    case VF_GRID_FIELD_RHS: return g->lv[0].b;
    case VF_GRID_FIELD_RESIDUAL: return g->lv[0].r;
    case VF_GRID_FIELD_OMEGA: return g->omega;
    case VF_GRID_FIELD_WX: return g->lv[0].wx;
    case VF_GRID_FIELD_WY: return g->lv[0].wy;
    case VF_GRID_FIELD_MASK_STATIC: return g->mask_static;
    case VF_GRID_FIELD_SU_STATIC: return g->su_static;
    case VF_GRID_FIELD_SV_STATIC: return g->sv_static;
    default: return NULL;
    }
}

vf_buffer *vf_grid_buffer(vf_grid *g, vf_grid_field f)
{
    return field_buffer(g, f);
}

vf_result vf_grid_read(vf_grid *g, vf_grid_field f, void *dst)
{
    vf_buffer *b = field_buffer(g, f);
    if (!b || !dst)
        return VF_ERR_INVALID_ARG;
    return vf_buffer_read(b, 0, dst, field_count(g, f) * 4);
}

vf_result vf_grid_write(vf_grid *g, vf_grid_field f, const void *src)
{
    vf_buffer *b = field_buffer(g, f);
    if (!b || !src)
        return VF_ERR_INVALID_ARG;
    if (f == VF_GRID_FIELD_MASK_STATIC || f == VF_GRID_FIELD_SU_STATIC || f == VF_GRID_FIELD_SV_STATIC)
        g->obstacles_dirty = true;
    if (f == VF_GRID_FIELD_MASK_STATIC || f == VF_GRID_FIELD_MASK || f == VF_GRID_FIELD_WX || f == VF_GRID_FIELD_WY)
        g->solids = true;
    return vf_buffer_write(b, 0, src, field_count(g, f) * 4);
}

/* Paints a disc of the static mask (solid, with velocity vx, vy) or clears
 * it; in its own profiler scope when prof is not NULL. */
static void record_paint(vf_grid *g, VkCommandBuffer cmd, vf_profiler *prof, float x, float y, float radius, bool solid,
                         float vx, float vy)
{
    vf_grid_push pc = push_for(g, 0);
    pc.a[0] = x;
    pc.a[1] = y;
    pc.a[2] = radius;
    pc.a[3] = solid ? 1.0f : 0.0f;
    pc.b[0] = vx;
    pc.b[1] = vy;
    vf_binding b[VF_MAX_BINDINGS] = {[VF_GRID_PAINT_MASK_STATIC] = B(g->mask_static),
                                       [VF_GRID_PAINT_SU_STATIC] = B(g->su_static),
                                       [VF_GRID_PAINT_SV_STATIC] = B(g->sv_static)};
    run(g, cmd, prof, GP_PAINT, b, &pc, groups(g->nx, VF_GRID_WG_X), groups(g->ny, VF_GRID_WG_Y));
    g->obstacles_dirty = true;
    g->solids = g->solids || solid;
}

vf_result vf_grid_paint(vf_grid *g, float x, float y, float radius, bool solid, float vx, float vy)
{
    if (solid && g->d.pressure == VF_GRID_PRESSURE_FFT)
        return VF_ERR_UNSUPPORTED; /* the FFT solves the periodic box without solids */
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(g->gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_cmd_barrier_transfer_to_compute(cmd);
    record_paint(g, cmd, NULL, x, y, radius, solid, vx, vy);
    return vf_cmd_oneshot_submit(g->gpu, cmd);
}

void vf_grid_set_source(vf_grid *g, const vf_grid_source *src)
{
    if (src)
        g->d.source = *src;
    else
        g->d.source.on = false;
}

/* ------------------------------------------------------------------ export */

/* Writes grid_INDEX.csv and grid_INDEX.vti from host copies of the fields:
 * u, v on the faces, p, dye as r, g, b planes, the cell mask, and the
 * texture coordinates (3 per cell, may be NULL). */
static vf_result write_fields(vf_grid *g, const char *dir, uint32_t index, const float *u, const float *v,
                              const float *p, const float *dye_planar, const uint32_t *mask, const float *st3)
{
    size_t c = (size_t)g->nx * g->ny;
    float *dye = malloc(c * 12), *vel = malloc(c * 12), *solid = malloc(c * 4);
    vf_result res = VF_ERR_NO_MEMORY;
    char path[4096];
    if (!dye || !vel || !solid)
        goto done;
    for (size_t k = 0; k < c; k++)
        for (int ch = 0; ch < 3; ch++)
            dye[3 * k + ch] = dye_planar[c * ch + k];
    for (uint32_t j = 0; j < g->ny; j++)
        for (uint32_t i = 0; i < g->nx; i++) {
            size_t k = (size_t)j * g->nx + i;
            vel[3 * k + 0] = 0.5f * (u[(size_t)j * (g->nx + 1) + i] + u[(size_t)j * (g->nx + 1) + i + 1]);
            vel[3 * k + 1] = 0.5f * (v[k] + v[k + g->nx]);
            vel[3 * k + 2] = 0.0f;
            solid[k] = mask[k] != VF_GRID_CELL_FLUID ? 1.0f : 0.0f;
        }
    snprintf(path, sizeof path, "%s/grid_%04u.csv", dir, index);
    vf_export_csv csv;
    if ((res = vf_export_csv_begin(&csv, path, "x,y,u,v,p,r,g,b")) != VF_OK)
        goto done;
    double wdom = g->nx * (double)g->h, hdom = g->ny * (double)g->h, scale = wdom > hdom ? wdom : hdom;
    for (uint32_t j = 0; j < g->ny; j++)
        for (uint32_t i = 0; i < g->nx; i++) {
            size_t k = (size_t)j * g->nx + i;
            double row[8] = {(i + 0.5) * g->h / scale, (j + 0.5) * g->h / scale, vel[3 * k], vel[3 * k + 1], p[k],
                             dye[3 * k], dye[3 * k + 1], dye[3 * k + 2]};
            vf_export_csv_row(&csv, row);
        }
    if ((res = vf_export_csv_commit(&csv)) != VF_OK)
        goto done;
    snprintf(path, sizeof path, "%s/grid_%04u.vti", dir, index);
    vf_vti_field arrays[5] = {
        {"velocity", 3, vel}, {"pressure", 1, p}, {"dye", 3, dye}, {"solid", 1, solid}, {"texcoords", 3, st3},
    };
    vf_vti_desc vd = {.nx = g->nx, .ny = g->ny, .nz = 1, .origin = {0.5 * g->h, 0.5 * g->h, 0},
                      .spacing = {g->h, g->h, g->h}, .fields = arrays, .field_count = st3 ? 5 : 4,
                      .compression = g->base.vti_compression};
    res = vf_vti_write(path, &vd);
done:
    free(dye);
    free(vel);
    free(solid);
    return res;
}

vf_result vf_grid_export(vf_grid *g, const char *dir, uint32_t index)
{
    size_t c = (size_t)g->nx * g->ny;
    size_t fu = (size_t)(g->nx + 1) * g->ny, fv = (size_t)g->nx * (g->ny + 1);
    float *u = malloc(fu * 4), *v = malloc(fv * 4), *p = malloc(c * 4), *dye = malloc(c * 12);
    float *st = g->d.texcoords ? malloc(c * 12) : NULL;
    uint32_t *mask = malloc(c * 4);
    uint8_t *img = NULL;
    vf_result res = VF_ERR_NO_MEMORY;
    char path[4096];
    if (!u || !v || !p || !dye || !mask || (g->d.texcoords && !st))
        goto done;
    if ((res = vf_grid_read(g, VF_GRID_FIELD_U, u)) != VF_OK || (res = vf_grid_read(g, VF_GRID_FIELD_V, v)) != VF_OK ||
        (res = vf_grid_read(g, VF_GRID_FIELD_P, p)) != VF_OK || (res = vf_grid_read(g, VF_GRID_FIELD_MASK, mask)) != VF_OK)
        goto done;
    for (int ch = 0; ch < 3; ch++)
        if ((res = vf_buffer_read(g->dye[g->cd][ch], 0, dye + c * ch, c * 4)) != VF_OK)
            goto done;
    if (g->d.texcoords) {
        float *s0 = malloc(c * 4), *t0 = malloc(c * 4);
        res = s0 && t0 ? VF_OK : VF_ERR_NO_MEMORY;
        if (res == VF_OK && (res = vf_grid_read(g, VF_GRID_FIELD_S, s0)) == VF_OK)
            res = vf_grid_read(g, VF_GRID_FIELD_T, t0);
        if (res == VF_OK)
            for (size_t k = 0; k < c; k++) {
                st[3 * k] = s0[k];
                st[3 * k + 1] = t0[k];
                st[3 * k + 2] = 0.0f;
            }
        free(s0);
        free(t0);
        if (res != VF_OK)
            goto done;
    }
    if ((res = write_fields(g, dir, index, u, v, p, dye, mask, st)) != VF_OK)
        goto done;
    if (g->d.texcoords) {
        /* Stam's warped image through the advected texture coordinates */
        img = malloc(c * 4);
        if (!img) {
            res = VF_ERR_NO_MEMORY;
            goto done;
        }
        VkCommandBuffer cmd;
        if ((res = vf_cmd_oneshot_begin(g->gpu, &cmd)) != VF_OK)
            goto done;
        vf_grid_push pc = push_for(g, 0);
        pc.a[0] = 8.0f;
        vf_binding b[VF_MAX_BINDINGS] = {[VF_GRID_WARP_S] = B(g->tex[g->ct][0]), [VF_GRID_WARP_T] = B(g->tex[g->ct][1]),
                                          [VF_GRID_WARP_MASK] = B(g->mask), [VF_GRID_WARP_OUT] = B(g->warp)};
        vf_cmd_barrier_transfer_to_compute(cmd);
        run2d(g, cmd, GP_WARP, b, &pc, g->nx, g->ny);
        if ((res = vf_cmd_oneshot_submit(g->gpu, cmd)) != VF_OK || (res = vf_buffer_read(g->warp, 0, img, c * 4)) != VF_OK)
            goto done;
        snprintf(path, sizeof path, "%s/grid_%04u_warp.png", dir, index);
        if ((res = vf_png_write(path, img, g->nx, g->ny)) != VF_OK)
            goto done;
    }
    res = VF_OK;
done:
    free(u);
    free(v);
    free(p);
    free(dye);
    free(st);
    free(mask);
    free(img);
    return res;
}

/* ------------------------------------------------------------------ vtable */

static void grid_destroy(vf_solver *s)
{
    vf_grid *g = (vf_grid *)s;
    vf_grid_destroy(&g);
}

/* Substeps per submit (vt->submit_substeps): a substep is advection plus a
 * multigrid pressure solve; at 2048^2 a fast GPU takes a few ms, so 4 keep
 * a submit in the tens of ms. Frames take at most 16 substeps (scenes_grid.c). */
#define GRID_SUBMIT_SUBSTEPS 4

static vf_result grid_frame_begin(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t *substeps)
{
    vf_grid *g = (vf_grid *)s;
    if (g->rec_frames == 0)
        vf_cmd_barrier_transfer_to_compute(cmd);
    if (g->pointer.active && g->pointer.button == 1 && g->d.pressure != VF_GRID_PRESSURE_FFT) {
        /* the viewer's right button paints walls (not with the FFT solver: it solves the box without solids) */
        double w = g->nx * (double)g->h, hgt = g->ny * (double)g->h, size = w > hgt ? w : hgt;
        record_paint(g, cmd, prof, g->pointer.pos[0] * (float)w, g->pointer.pos[1] * (float)hgt,
                     (float)(0.02 * size), true, 0.0f, 0.0f);
    }
    *substeps = g->d.substeps;
    return VF_OK;
}

static vf_result grid_record_substep(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t index)
{
    vf_grid *g = (vf_grid *)s;
    return vf_grid_record_step(g, cmd, prof, index + 1 == g->d.substeps);
}

static vf_result grid_frame_end(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    (void)prof;
    vf_grid *g = (vf_grid *)s;
    record_stats_copy(g, cmd, g->rec_frames);
    g->rec_frames++;
    return VF_OK;
}

static void note_stats(vf_grid *g, const vf_grid_stats *st)
{
    g->last = *st;
    g->have_last = true;
    if (st->res_before > 0) {
        double r = st->res_after / st->res_before;
        if (r > g->worst_res_ratio)
            g->worst_res_ratio = r;
    }
}

static vf_result grid_frame_done(vf_solver *s)
{
    vf_grid *g = (vf_grid *)s;
    s->time = (double)s->steps * g->dt; /* the driver counted the frame's substeps */
    uint64_t frame = g->done_frames++;
    if (g->report_every && (frame + 1) % g->report_every == 0 && frame >= VF_MAX_FRAMES) {
        frame -= VF_MAX_FRAMES; /* certainly completed (see STATS_RING) */
        VkDeviceSize at = (frame % STATS_RING) * VF_GRID_STAT_COUNT * 16;
        vf_buffer_invalidate(g->stats_ring, at, VF_GRID_STAT_COUNT * 16); /* non-coherent memory */
        const float *raw = (const float *)((const char *)g->stats_ring->mapped + at);
        vf_grid_stats st;
        stats_from_raw(raw, &st, 0);
        note_stats(g, &st);
    }
    return VF_OK;
}

static vf_result grid_export_frame(vf_solver *s, const char *dir, uint32_t index)
{
    return vf_grid_export((vf_grid *)s, dir, index);
}

static void grid_write_summary(vf_solver *s, FILE *f, const char *indent)
{
    vf_grid *g = (vf_grid *)s;
    vf_grid_stats st;
    if (vf_grid_read_stats(g, &st) == VF_OK)
        note_stats(g, &st);
    else
        memset(&st, 0, sizeof st);
    const vf_grid_desc *d = &g->d;
    fprintf(f, "%s\"grid\": {\"nx\": %u, \"ny\": %u, \"h\": %.9g, \"dt\": %.9g, \"substeps\": %u, \"levels\": %u},\n", indent,
            g->nx, g->ny, g->h, g->dt, d->substeps, g->levels);
    fprintf(f, "%s\"pressure_solver\": \"%s\",\n", indent, pressure_names[d->pressure]);
    if (d->pressure == VF_GRID_PRESSURE_PENALTY)
        fprintf(f, "%s\"penalty_epsilon\": %.9g,\n%s\"penalty_substep_dt\": %.9g,\n", indent, d->epsilon, indent,
                g->pen_dtau);
    if (d->pressure == VF_GRID_PRESSURE_SSOR)
        fprintf(f, "%s\"ssor_omega\": %.9g,\n", indent, d->ssor_omega);
    if (d->advection == VF_GRID_ADVECT_DONOR_CELL)
        fprintf(f, "%s\"donor_gamma\": %.9g,\n", indent, d->donor_gamma);
    fprintf(f, "%s\"pressure_iterations_per_step\": %u,\n", indent,
            d->pressure == VF_GRID_PRESSURE_JACOBI ? d->pressure_iters + (d->pressure_iters & 1) : d->pressure_iters);
    fprintf(f, "%s\"pressure_iterations_total\": %llu,\n", indent, (unsigned long long)g->cycles_total);
    fprintf(f, "%s\"diffuse_sweeps_per_step\": %u,\n", indent, d->viscosity > 0 ? g->diffuse_iters : 0);
    fprintf(f, "%s\"diffuse_sor_omega\": %.6g,\n", indent, d->viscosity > 0 ? g->diffuse_omega : 0.0);
    /* measured values: non-finite ones are written as null (and fail the run's check) */
    const struct {
        const char *key;
        double v;
    } m[] = {{"divergence_before_projection_rms", st.div_before},
             {"residual_before_rms", st.res_before},
             {"residual_after_rms", st.res_after},
             {"residual_reduction", st.res_before > 0 ? st.res_after / st.res_before : 0.0},
             {"worst_reported_residual_reduction", g->worst_res_ratio},
             {"final_divergence_l2", st.div_after},
             {"final_divergence_max", st.div_after_max}};
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        fprintf(f, "%s%s\"%s\": ", i ? ",\n" : "", indent, m[i].key);
        vf_json_number(f, m[i].v);
    }
}

static void free_good(vf_grid *g)
{
    free(g->good_u);
    free(g->good_v);
    free(g->good_p);
    free(g->good_dye);
    free(g->good_mask);
    g->good_u = g->good_v = g->good_p = g->good_dye = NULL;
    g->good_mask = NULL;
    g->have_good = false;
}

/* Reads the fields back, checks them, and keeps them as the last good state
 * (export_last_good) when they pass. */
static vf_result grid_check(vf_solver *s, char *msg, size_t cap)
{
    vf_grid *g = (vf_grid *)s;
    size_t fu = (size_t)(g->nx + 1) * g->ny, fv = (size_t)g->nx * (g->ny + 1), c = (size_t)g->nx * g->ny;
    float *u = malloc(fu * 4), *v = malloc(fv * 4), *p = malloc(c * 4), *dye = malloc(c * 12);
    uint32_t *mask = malloc(c * 4);
    vf_result res = VF_ERR_NO_MEMORY;
    if (!u || !v || !p || !dye || !mask)
        goto done;
    const vf_grid_field fields[] = {VF_GRID_FIELD_U, VF_GRID_FIELD_V, VF_GRID_FIELD_P,
                                    VF_GRID_FIELD_R, VF_GRID_FIELD_G, VF_GRID_FIELD_B};
    static const char *names[] = {"u", "v", "p", "dye r", "dye g", "dye b"};
    float *dst[] = {u, v, p, dye, dye + c, dye + 2 * c};
    res = vf_grid_read(g, VF_GRID_FIELD_MASK, mask);
    for (size_t f = 0; f < sizeof fields / sizeof fields[0] && res == VF_OK; f++) {
        if ((res = vf_grid_read(g, fields[f], dst[f])) != VF_OK)
            break;
        size_t n = field_count(g, fields[f]);
        for (size_t k = 0; k < n; k++)
            if (!isfinite(dst[f][k])) {
                vf_set_err(msg, cap, "%s is not finite at index %zu (of %zu)", names[f], k, n);
                res = VF_ERR_NUMERIC;
                break;
            }
    }
    if (res == VF_OK) {
        vf_grid_stats st;
        if ((res = vf_grid_read_stats(g, &st)) == VF_OK) {
            note_stats(g, &st);
            if (!isfinite(st.res_after) || !isfinite(st.div_after)) {
                vf_set_err(msg, cap, "the pressure residual is not finite");
                res = VF_ERR_NUMERIC;
            }
        }
    }
    if (res == VF_OK) {
        free_good(g);
        g->good_u = u;
        g->good_v = v;
        g->good_p = p;
        g->good_dye = dye;
        g->good_mask = mask;
        g->have_good = true;
        return VF_OK;
    }
done:
    free(u);
    free(v);
    free(p);
    free(dye);
    free(mask);
    return res;
}

static vf_result grid_export_last_good(vf_solver *s, const char *dir, uint32_t index)
{
    vf_grid *g = (vf_grid *)s;
    if (!g->have_good)
        return VF_ERR_UNSUPPORTED;
    return write_fields(g, dir, index, g->good_u, g->good_v, g->good_p, g->good_dye, g->good_mask, NULL);
}

static void grid_interact(vf_solver *s, const vf_interaction *in)
{
    vf_grid *g = (vf_grid *)s;
    if (in)
        g->pointer = *in;
    else
        g->pointer.active = false;
}

static void grid_describe(vf_solver *s, char *buf, size_t cap)
{
    vf_grid *g = (vf_grid *)s;
    const vf_grid_desc *d = &g->d;
    int n = snprintf(buf, cap, "grid %ux%u, %s %u/step, dt %.3g x%u", g->nx, g->ny, pressure_names[d->pressure],
                     d->pressure_iters, g->dt, d->substeps);
    if (g->have_last && n > 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, ", div %.2g", g->last.div_after);
}

/* What the bytes column of grid_passes.def reads (w->...): c, one cell
 * field; f, the u and v faces; adv_vel, adv_sc, one velocity and one scalar
 * advection; iters, per_iter, the pressure iterations and the bytes of one;
 * sweeps, the diffusion sweeps. */
typedef struct grid_work {
    uint64_t c, f, adv_vel, adv_sc, iters, per_iter, sweeps;
} grid_work;

#define VF_PASS_BYTES_FN grid_row_bytes
#define VF_PASS_WORK grid_work
#include "sim_pass_bytes.h"

/* Compulsory bytes (each array read or written once) of one execution of a
 * named pass at this size (the bytes of grid_passes.def). */
static uint64_t grid_pass_bytes(vf_solver *s, const char *pass)
{
    vf_grid *g = (vf_grid *)s;
    const vf_grid_desc *d = &g->d;
    const uint64_t c = (uint64_t)g->nx * g->ny * 4, f = ((uint64_t)(g->nx + 1) * g->ny + (uint64_t)g->nx * (g->ny + 1)) * 4;
    const bool mc = d->advection == VF_GRID_ADVECT_MACCORMACK, jacobi = d->pressure == VF_GRID_PRESSURE_JACOBI;
    const uint64_t ch = d->texcoords ? 5 : 3; /* scalar channels: dye, texture coordinates */
    const uint64_t adv_vel = (mc ? 2 : 1) * (2 * f + f + 3 * c) + (mc ? 2 * f : 0);
    const uint64_t adv_sc = (mc ? 2 : 1) * (f + c + 2 * ch * c) + (mc ? ch * c : 0);
    const uint64_t sweeps = g->diffuse_iters;
    const bool once = d->pressure == VF_GRID_PRESSURE_PENALTY || d->pressure == VF_GRID_PRESSURE_FFT;
    const uint64_t iters = once ? 1 : d->pressure_iters + (jacobi ? d->pressure_iters & 1 : 0);
    uint64_t per_iter = ((uint64_t)(d->mg_pre + d->mg_post) * 2 * (3 * c + f) + (3 * c + f) + 2 * c + 3 * c) * 4 / 3;
    if (jacobi)
        per_iter = 3 * c + f;
    else if (d->pressure == VF_GRID_PRESSURE_SSOR)
        per_iter = 2 * (3 * c + f); /* a forward and a backward sweep */
    else if (d->pressure == VF_GRID_PRESSURE_PENALTY)
        per_iter = 3 * c + f + c; /* p and b read, the weights, the sum written */
    else if (d->pressure == VF_GRID_PRESSURE_FFT)
        per_iter = 6 * c; /* b to the half spectrum, scaled in place, back to p */
    const grid_work w = {.c = c, .f = f, .adv_vel = adv_vel, .adv_sc = adv_sc, .iters = iters, .per_iter = per_iter,
                         .sweeps = sweeps};
    return grid_row_bytes(&w, pass);
}

/* The state a substep advances: the face velocities, the dye channels, the
 * texture coordinates when on, and the pressure (the next solve's start). */
static uint64_t grid_state_bytes(vf_solver *s)
{
    vf_grid *g = (vf_grid *)s;
    uint64_t c = (uint64_t)g->nx * g->ny * 4, f = ((uint64_t)(g->nx + 1) * g->ny + (uint64_t)g->nx * (g->ny + 1)) * 4;
    return f + (3 + (g->d.texcoords ? 2 : 0)) * c + c;
}

static const vf_solver_vtable grid_vtable = {
    .family = "grid",
    .destroy = grid_destroy,
    .frame_begin = grid_frame_begin,
    .record_substep = grid_record_substep,
    .frame_end = grid_frame_end,
    .frame_done = grid_frame_done,
    .export_frame = grid_export_frame,
    .write_summary = grid_write_summary,
    .check = grid_check,
    .interact = grid_interact,
    .describe = grid_describe,
    .pass_bytes = grid_pass_bytes,
    .state_bytes = grid_state_bytes,
    .export_last_good = grid_export_last_good,
    .submit_substeps = GRID_SUBMIT_SUBSTEPS,
};

vf_grid *vf_grid_from_solver(vf_solver *s)
{
    return s && s->vt == &grid_vtable ? (vf_grid *)s : NULL;
}

void vf_grid_set_report_every(vf_grid *g, uint32_t frames)
{
    g->report_every = frames;
}
