/* solver_grid: the Eulerian grid solver, Stam's Stable Fluids on Vulkan
 * compute, with a multigrid pressure projection.
 *
 * Discretisation: a 2D staggered (MAC) grid of nx x ny square cells of size h,
 * fp32. The domain is [0, nx h] x [0, ny h].
 *   u(i, j), i in [0, nx], j in [0, ny-1], at (i h, (j + 1/2) h)   index j (nx + 1) + i
 *   v(i, j), i in [0, nx-1], j in [0, ny], at ((i + 1/2) h, j h)   index j nx + i
 *   pressure, dye (r, g, b), texture coordinates (s, t) and the solid mask at
 *   cell centres ((i + 1/2) h, (j + 1/2) h), index j nx + i.
 * With periodic sides face nx (ny) is the same face as 0 and is kept equal.
 *
 * One step (Stam's splitting, each pass its own shader and profiler scope):
 *   grid_obstacles  (moving obstacles only) mask and solid velocities, face weights
 *   grid_splat      Gaussian velocity and dye sources, buoyancy, inflow dye
 *   grid_vorticity  vorticity confinement (strength 0 = off)
 *   grid_advect     semi-Lagrangian RK2 + bilinear self-advection (or MacCormack)
 *   grid_diffuse    implicit viscosity: red-black SOR (optimal omega) to 1e-6
 *   grid_boundary   walls, solids, inflow, outflow, periodic faces
 *   grid_divergence b = div(u) / dt
 *   grid_pressure   A p = b: multigrid V-cycles (default) or Jacobi, warm-started
 *                   from the previous pressure; residual norms before/after
 *   grid_gradient   u -= dt grad p (the projection is exact: div u = dt (b - A p))
 *   grid_residual   divergence after the projection (last substep of a frame)
 *   grid_advect     dye and texture coordinates with the new velocity
 *   grid_dye        colour blending (Chen & Lobo)
 *
 * The pressure operator A p = sum_f w_f (p_nb - p) / h^2 has per-face weights:
 * 1 open, 0 closed (wall, solid, inflow: the velocity there is fixed), 2 at an
 * outflow side (p = 0 half a cell outside). Coarse multigrid levels halve the
 * grid while a side is above VF_GRID_COARSE_TARGET and both are even and >= 8,
 * and average the fine face weights;
 * smoothing is red-black Gauss-Seidel V(pre, post), restriction the mean of 4
 * children, prolongation bilinear, the coarsest level (at most
 * VF_GRID_COARSE_MAX per side) red-black SOR in one workgroup.
 *
 * Norms are RMS over the fluid cells. Nothing is read back on the hot path:
 * the norms land in a small GPU stats buffer that is copied per frame into a
 * readback ring and looked at only when asked (vf_grid_stats, summaries,
 * report_every). */
#ifndef VF_SOLVER_GRID_H
#define VF_SOLVER_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_buffer.h"
#include "gpu_profiler.h"
#include "shared_grid.h"
#include "solver.h"

#define VF_GRID_MIN_N 16
#define VF_GRID_MAX_LEVELS 14

/* The 2D grid's pressure solvers: the grid families' two, and
 *   ssor     Klein et al. 2003: a fixed number of symmetric SOR iterations
 *   penalty  Chen & Lobo 1997: eps p + div u = 0 by explicit sub-steps
 *   fft      Stam: the exact periodic projection in Fourier space (VkFFT)
 * and its advection schemes: the grid families' two, and Klein et al.'s
 * explicit donor-cell convection of the velocity. */
#define VF_GRID_PRESSURE_LIST(X)                                                                                      \
    VF_PRESSURE_LIST(X, VF_GRID) X(VF_GRID_PRESSURE_SSOR, "ssor") X(VF_GRID_PRESSURE_PENALTY, "penalty")             \
    X(VF_GRID_PRESSURE_FFT, "fft")
#define VF_GRID_ADVECTION_LIST(X) VF_ADVECTION_LIST(X, VF_GRID) X(VF_GRID_ADVECT_DONOR_CELL, "donor-cell")
typedef enum vf_grid_pressure { VF_GRID_PRESSURE_LIST(VF_CHOICE_ENUM) } vf_grid_pressure;
typedef enum vf_grid_advection { VF_GRID_ADVECTION_LIST(VF_CHOICE_ENUM) } vf_grid_advection;

typedef enum vf_grid_shape {
    VF_GRID_SHAPE_NONE = 0,
    VF_GRID_SHAPE_DISC = 1,
    VF_GRID_SHAPE_BOX = 2, /* square of half-side `radius` */
} vf_grid_shape;

/** A static obstacle shape (solid cells with an imposed velocity: (0, 0) for a
 * wall, non-zero for inflow cells). */
typedef struct vf_grid_obstacle {
    vf_grid_shape shape;
    float cx, cy, radius; /* domain units */
    float vx, vy;
} vf_grid_obstacle;

/** A moving obstacle: centre(t) = (cx, cy) + amp * sin(2 pi freq t) * (dx, dy);
 * it imposes its velocity on the fluid. */
typedef struct vf_grid_mover {
    vf_grid_shape shape; /* NONE: no moving obstacle */
    float cx, cy, radius;
    float amp, freq, dx, dy;
} vf_grid_mover;

/** A Gaussian source: acceleration (fx, fy) and dye (r, g, b) per second at
 * the centre, radius `radius`; the centre moves on a Lissajous path
 * (cx + ax sin(2 pi wx t), cy + ay sin(2 pi wy t)). */
typedef struct vf_grid_source {
    bool on;
    float hue_rate; /* > 0: the dye colour cycles through the hues this many times per second */
    float cx, cy, radius;
    float ax, ay, wx, wy;
    float fx, fy;
    float r, g, b;
} vf_grid_source;

/** The most penalty sub-steps a substep may take (pressure=penalty). */
#define VF_GRID_PENALTY_MAX_SUBSTEPS 1000000u

/** Solver configuration. A zeroed desc means: 128 x 128 cells on the unit
 * square, no-slip walls, inviscid, multigrid with 4 V(2,2) cycles, dt from
 * cfl 1 and vel_scale 1, one substep per frame. */
typedef struct vf_grid_desc {
    uint32_t nx, ny;        /* cells (>= VF_GRID_MIN_N); 0: 128 */
    double width;           /* domain width; h = width / nx; 0: 1 */
    double dt;              /* substep; 0: cfl * h / vel_scale */
    double cfl;             /* 0: 1 */
    double vel_scale;       /* expected speed for the dt choice; 0: 1 */
    uint32_t substeps;      /* per frame; 0: 1 */
    double viscosity;       /* kinematic, m^2/s; 0: no diffusion pass */
    vf_grid_pressure pressure;
    uint32_t pressure_iters; /* V-cycles (multigrid), iterations (jacobi, ssor) or penalty sub-steps;
                                0: 4 / 200 / 8 / the fewest that are stable (fft: ignored) */
    double epsilon;          /* penalty: the penalty parameter (s/m^2: eps p + div u = 0); 0: 0.005 */
    double ssor_omega;       /* ssor: relaxation in (0, 2); 0: 1.7 */
    double donor_gamma;      /* donor-cell: the donor-cell share gamma in (0, 1] (1: pure donor cell, towards 0:
                                central differences, unstable with the explicit step at 0); 0: 1 */
    uint32_t mg_pre, mg_post;   /* smoothing sweeps; 0: 2 */
    uint32_t coarse_iters;      /* SOR sweeps on the coarsest level; 0: automatic */
    uint32_t diffuse_iters;     /* red-black SOR sweeps; 0: automatic (error / 1e6, at most 1000) */
    vf_grid_advection advection;
    double vorticity;           /* confinement strength; 0 = off */
    double buoyancy;            /* upward acceleration per unit mean dye */
    double dye_mix;             /* colour blending fraction per step, [0, 1] */
    uint32_t inflow_stripes;    /* > 0: dye stripes at the first column */
    uint32_t sides[4];          /* VF_GRID_BC_* for left, right, bottom, top */
    float side_u[4], side_v[4]; /* velocity of each side (lid, inflow) */
    vf_grid_obstacle obstacles[4];
    vf_grid_mover mover;
    vf_grid_source source;
    bool texcoords;             /* advect (s, t) and export the warped image */
    bool buffer_reads;          /* advection reads the fields it samples from the storage
                                   buffers even where the device can read them as texels
                                   (the fallback path; for tests) */
    bool closed_mean;           /* internal: set by create */
    const char *size_key;       /* the key the cell counts come from, named in size errors
                                   (validate's and create's); NULL: "n" */
} vf_grid_desc;

typedef struct vf_grid vf_grid;

/** The fields a test or an exporter can read or write (current buffers). */
typedef enum vf_grid_field {
    VF_GRID_FIELD_U = 0,  /* (nx + 1) x ny */
    VF_GRID_FIELD_V,      /* nx x (ny + 1) */
    VF_GRID_FIELD_P,      /* nx x ny */
    VF_GRID_FIELD_R,      /* dye */
    VF_GRID_FIELD_G,
    VF_GRID_FIELD_B,
    VF_GRID_FIELD_S,      /* texture coordinates (texcoords on) */
    VF_GRID_FIELD_T,
    VF_GRID_FIELD_MASK,   /* uint32 per cell (VF_GRID_CELL_*) */
    VF_GRID_FIELD_SU,     /* solid velocity per cell */
    VF_GRID_FIELD_SV,
    VF_GRID_FIELD_RHS,    /* pressure right-hand side b */
    VF_GRID_FIELD_RESIDUAL, /* level-0 residual scratch */
    VF_GRID_FIELD_OMEGA,  /* vorticity */
    VF_GRID_FIELD_WX,     /* level-0 face weights */
    VF_GRID_FIELD_WY,
    VF_GRID_FIELD_MASK_STATIC, /* uint32 */
    VF_GRID_FIELD_SU_STATIC,
    VF_GRID_FIELD_SV_STATIC,
    VF_GRID_FIELD_COUNT
} vf_grid_field;

/** The stages of a step, one by one (tests and the benchmark record them
 * singly), from grid_stages.def. */
typedef enum vf_grid_pass {
#define STAGE(id) VF_GRID_PASS_##id,
#include "grid_stages.def"
#undef STAGE
    VF_GRID_PASS_COUNT
} vf_grid_pass;

/** Norms of the last solve, read back from the GPU (RMS over fluid cells). */
typedef struct vf_grid_stats {
    double div_before;    /* divergence before the projection, 1/s */
    double res_before;    /* pressure residual x dt before the solve (warm start), 1/s */
    double res_after;     /* after the solve, 1/s */
    double div_after;     /* divergence after the projection, 1/s (measured) */
    double div_after_max; /* max |div| after the projection */
    double trace[VF_GRID_STAT_MAX_TRACE]; /* residual x dt after each cycle (trace mode) */
    uint32_t trace_count;
} vf_grid_stats;

/** Creates the solver: allocates every buffer, builds the pipelines, sets the
 * initial state (rest, texture coordinates linear, static obstacles). desc may
 * be NULL (defaults). desc's values must come validated: create checks only
 * what needs the device (memory, buffer range), so a desc that did not pass
 * vf_grid_validate_desc (the scenes run it while validating) is undefined.
 * On failure returns VF_ERR_TOO_LARGE (with a one-line reason in err: how
 * much memory it needs and the limit, naming desc->size_key), or a GPU
 * error. err may be NULL; *key (key may be NULL) gets the key err names
 * first (NULL: none). */
vf_result vf_grid_create(vf_gpu *gpu, const vf_grid_desc *desc, vf_grid **out, const char **key, char *err, size_t cap);

/** Destroys the solver; accepts NULL and *g == NULL. The GPU must be idle. */
void vf_grid_destroy(vf_grid **g);

/** The solver as a vf_solver (the vtable view run/bench use); owned by g. */
vf_solver *vf_grid_solver(vf_grid *g);

/** The grid family for vf_solver_create (desc: a vf_grid_desc). */
extern const vf_solver_family vf_grid_family;

/** The desc after defaults were filled in. */
const vf_grid_desc *vf_grid_get_desc(const vf_grid *g);

/** The viscosity solve's SOR sweeps per step and omega (0 without viscosity). */
uint32_t vf_grid_diffuse_sweeps(const vf_grid *g, float *omega);

/** Number of multigrid levels (1 when Jacobi or too small to coarsen). */
uint32_t vf_grid_levels(const vf_grid *g);

/** The first multigrid level that one workgroup V-cycles in shared memory
 * (grid_mg_tail.comp: that level and every coarser one cost one dispatch per
 * V-cycle), chosen from the device's maxComputeSharedMemorySize; equal to
 * vf_grid_levels(g) when no level is solved that way. */
uint32_t vf_grid_tail_level(const vf_grid *g);

/** Device memory bytes the solver would allocate for desc (after defaults). */
uint64_t vf_grid_memory_bytes(const vf_grid_desc *desc);

/** Checks a desc (after defaults) without a GPU: sizes, periodic pairs, the
 * multigrid coarsening. One-line reason in err, and in *key (key may be
 * NULL) the key it names first (NULL: none). */
vf_result vf_grid_validate_desc(const vf_grid_desc *desc, const char **key, char *err, size_t cap);

/** Records one substep (all passes) into cmd. prof may be NULL. `last`: also
 * measure the divergence after the projection. Never waits or reads back. */
vf_result vf_grid_record_step(vf_grid *g, VkCommandBuffer cmd, vf_profiler *prof, bool last);

/** Records one pass on the current state (see vf_grid_pass). prof may be NULL. */
vf_result vf_grid_record_pass(vf_grid *g, VkCommandBuffer cmd, vf_grid_pass pass, vf_profiler *prof);

/** Records a pressure solve of `iters` V-cycles (multigrid), Jacobi or SSOR
 * iterations, or penalty sub-steps (method penalty: only the grid's own
 * method; it leaves the sum of the sub-steps' pressures for the gradient
 * pass, see solver_grid.c), or one FFT solve (fft: only on a grid created
 * with it), on the current right-hand side, with the before/after norms
 * (penalty: the right-hand side's only). iters 0: the desc's count. trace > 0: also record the residual after every
 * `trace` cycles/iterations into the trace slots (at most
 * VF_GRID_STAT_MAX_TRACE). */
vf_result vf_grid_record_pressure(vf_grid *g, VkCommandBuffer cmd, vf_profiler *prof, vf_grid_pressure method,
                                  uint32_t iters, uint32_t trace);

/** Dispatches that `iters` Jacobi iterations take (iters rounded up to
 * even): several iterations run per dispatch (grid_jacobi.comp), the count
 * of dispatches even so that the result ends in the pressure buffer. */
uint32_t vf_grid_jacobi_dispatches(const vf_grid *g, uint32_t iters);

/** Penalty sub-steps per substep (pressure=penalty; 0 otherwise) and the
 * sub-step dtau. */
uint32_t vf_grid_penalty_substeps(const vf_grid *g, double *dtau);

/** The fewest penalty sub-steps that are stable for a desc after defaults:
 * ceil(dt sum_w / (0.9 eps h^2)), sum_w = 4, 5 with an outflow side (the
 * largest eigenvalue of -A is at most 2 sum_w / h^2). */
uint64_t vf_grid_penalty_min_substeps(const vf_grid_desc *desc);

/** Records only the V-cycles / Jacobi iterations (no norms): for timing. */
vf_result vf_grid_record_pressure_iterations(vf_grid *g, VkCommandBuffer cmd, vf_grid_pressure method, uint32_t iters);

/** Records one multigrid V-cycle on level 0 (no norms). */
void vf_grid_record_vcycle(vf_grid *g, VkCommandBuffer cmd);

/** Width and height of a field's array. */
void vf_grid_field_size(const vf_grid *g, vf_grid_field f, uint32_t *w, uint32_t *h);

/** The GPU buffer currently holding a field (renderers bind it read-only;
 * ping-pong fields change buffers every pass, so look it up after recording
 * the frame). NULL for a field the solver was created without. */
vf_buffer *vf_grid_buffer(vf_grid *g, vf_grid_field f);

/** Reads a field (floats, or uint32 for masks) into dst (w*h values). Waits. */
vf_result vf_grid_read(vf_grid *g, vf_grid_field f, void *dst);

/** Writes a field from src (w*h values). Waits. Writing MASK_STATIC,
 * SU_STATIC or SV_STATIC takes effect at the next obstacles pass (recorded
 * automatically by the next step). */
vf_result vf_grid_write(vf_grid *g, vf_grid_field f, const void *src);

/** Reads the stats buffer (norms of the last solve). Waits. */
vf_result vf_grid_read_stats(vf_grid *g, vf_grid_stats *out);

/** Paints a disc of static solid cells (solid) or fluid cells (!solid) with an
 * imposed velocity (vx, vy) (inflow cells when non-zero). Takes effect at the
 * next step. Not for the hot path (uploads). VF_ERR_UNSUPPORTED for solid
 * cells with pressure=fft (it solves the periodic box without solids). */
vf_result vf_grid_paint(vf_grid *g, float x, float y, float radius, bool solid, float vx, float vy);

/** Replaces the scripted source (the viewer's mouse). */
void vf_grid_set_source(vf_grid *g, const vf_grid_source *src);

/** Writes DIR/grid_NNNN.csv (x,y,u,v,p,r,g,b), DIR/grid_NNNN.vti and, with
 * texture coordinates, DIR/grid_NNNN_warp.png, each atomically. Waits. */
vf_result vf_grid_export(vf_grid *g, const char *dir, uint32_t index);

/** Simulated time of the substeps recorded so far. */
double vf_grid_time(const vf_grid *g);

/** The grid solver behind a vf_solver made by a grid scene; NULL for other
 * families. */
vf_grid *vf_grid_from_solver(vf_solver *s);

/** Reads the norms back every `frames` frames in frame_done (0: never; the
 * summary and checks read them anyway). Values lag VF_MAX_FRAMES frames
 * behind (the newest certainly finished frame); the worst residual reduction
 * seen goes into the summary. */
void vf_grid_set_report_every(vf_grid *g, uint32_t frames);


struct vf_sim_pass;
/** The passes of grid_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_grid_pass_table(uint32_t *count);

#endif
