/* solver_grid3d: the 3D Eulerian grid solver (Stam's Stable Fluids in three
 * dimensions) on Vulkan compute, for smoke and fire, with a multigrid
 * pressure projection.
 *
 * Discretisation: a staggered (MAC) grid of nx x ny x nz cubic cells of size
 * h, fp32 (layout: shaders/shared_grid3d.h). Velocity components live on the
 * faces normal to their axis, pressure, density and temperature at cell
 * centres; y is up. The staggered grid is the one the 2D family uses: the
 * divergence and the pressure gradient are compact two-point differences, so
 * the projection leaves a divergence at round-off and has no checkerboard
 * null space (a collocated grid needs a wide stencil or an interpolation that
 * is only approximately divergence-free).
 *
 * One substep (each pass its own shader and profiler scope):
 *   grid3d_source     density and temperature injected in the source sphere
 *   grid3d_buoyancy   v += dt (alpha (T - ambient) - beta rho) (+ the viewer's push)
 *   grid3d_vorticity  omega, then grid3d_confine (strength 0 = off)
 *   grid3d_advect     semi-Lagrangian RK2 + trilinear, or MacCormack with the
 *                     min/max limiter (a second dispatch)
 *   grid3d_diffuse    implicit viscosity, red-black Gauss-Seidel sweeps
 *   grid3d_boundary   walls, solids, inflow, outflow
 *   grid3d_divergence b = div(u) / dt
 *   grid3d_pressure   A p = b: multigrid V-cycles (default) or Jacobi,
 *                     warm-started from the previous pressure, or Stam's
 *                     FFT solve (exact, in the triply periodic box)
 *   grid3d_gradient   u -= dt grad p
 *   grid3d_scalars    density and temperature advected with the new velocity
 *
 * The pressure operator A p = sum_f w_f (p_nb - p) / h^2 over the six faces
 * of a fluid cell has weight 1 towards a fluid cell, 0 towards a solid cell,
 * a wall or an inflow side, 2 towards an outflow side (p = 0 there). Coarse
 * levels halve every axis while all are even and >= 4 and one is above
 * VF_GRID3D_COARSE_TARGET; a coarse cell is solid when its 8 children are;
 * smoothing is red-black Gauss-Seidel V(pre, post), restriction the mean of 8
 * children, prolongation trilinear; the coarsest level (at most
 * VF_GRID3D_COARSE_MAX cells per side) is solved by red-black SOR sweeps in
 * one workgroup (omega for the slowest mode of an m-cell side,
 * 2 / (1 + sin(pi / 2m)), 8 m sweeps).
 *
 * Periodic sides (VF_G3_BC_PERIODIC, both sides of an axis): cell -1 is cell
 * n - 1, the faces at 0 and n are one face (the boundary pass copies face 0
 * to face n), advection samples wrap, and the operator's weight across the
 * side is 1. Every multigrid level must have an even count of cells along a
 * periodic axis (red-black ordering); the prolongation clamps at the sides
 * (slower convergence, the same fixed point). Every kernel gets
 * VF_G3_SPEC_PERIODIC, so a box without periodic sides compiles without the
 * wrapping. pressure=fft needs all six
 * sides periodic and no solids: in that box A is diagonal in Fourier space
 * (eigenvalues -(4 / h^2) sum_a sin^2(pi k_a / n_a)), and the solve is
 * VkFFT's forward transform of b, grid3d_fft_scale, and the inverse (sides
 * whose prime factors are at most 13). */
#ifndef VF_SOLVER_GRID3D_H
#define VF_SOLVER_GRID3D_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_buffer.h"
#include "gpu_profiler.h"
#include "shared_grid3d.h"
#include "solver.h"

#define VF_GRID3D_MIN_N 8
#define VF_GRID3D_MAX_LEVELS 10
#define VF_GRID3D_COARSE_TARGET 4
#define VF_GRID3D_COARSE_MAX VF_G3_COARSE_MAX
#define VF_GRID3D_MAX_OBSTACLES 4

/* fft: Stam's exact projection in Fourier space (all six sides periodic, VkFFT) */
#define VF_GRID3D_PRESSURE_LIST(X) VF_PRESSURE_LIST(X, VF_GRID3D) X(VF_GRID3D_PRESSURE_FFT, "fft")
#define VF_GRID3D_ADVECTION_LIST(X) VF_ADVECTION_LIST(X, VF_GRID3D)
typedef enum vf_grid3d_pressure { VF_GRID3D_PRESSURE_LIST(VF_CHOICE_ENUM) } vf_grid3d_pressure;
typedef enum vf_grid3d_advection { VF_GRID3D_ADVECTION_LIST(VF_CHOICE_ENUM) } vf_grid3d_advection;

/** How the source sphere injects (shared_grid3d.h has the weight): uniform,
 * the rates in every cell whose centre is inside; smooth, the rates times
 * 35/8 (1 - d^2/r^2)^2, with no jump at the edge. */
#define VF_GRID3D_SOURCE_PROFILE_LIST(X) X(VF_GRID3D_SOURCE_UNIFORM, "uniform") X(VF_GRID3D_SOURCE_SMOOTH, "smooth")
typedef enum vf_grid3d_source_profile { VF_GRID3D_SOURCE_PROFILE_LIST(VF_CHOICE_ENUM) } vf_grid3d_source_profile;

typedef enum vf_grid3d_shape {
    VF_GRID3D_SHAPE_NONE = 0,
    VF_GRID3D_SHAPE_BOX = 1,      /* half-extents size[0..2] */
    VF_GRID3D_SHAPE_SPHERE = 2,   /* radius size[0] */
    VF_GRID3D_SHAPE_CYLINDER = 3, /* radius size[0], half-length size[1], along `axis` */
} vf_grid3d_shape;

/** A static solid obstacle; cells whose centre lies inside are solid. */
typedef struct vf_grid3d_obstacle {
    vf_grid3d_shape shape;
    float centre[3];
    float size[3];
    uint32_t axis; /* cylinder: 0 x, 1 y, 2 z */
} vf_grid3d_obstacle;

/** Solver configuration. A zeroed desc means: 32^3 cells of a unit cube,
 * no-slip walls, inviscid, no sources, multigrid with 2 V(2,2) cycles per
 * step, dt from cfl 1 and vel_scale 1, semi-Lagrangian, one substep per frame. */
typedef struct vf_grid3d_desc {
    uint32_t nx, ny, nz;      /* cells; 0: 32 (ny, nz: nx) */
    double width;             /* domain extent along x; h = width / nx; 0: 1 */
    double dt;                /* substep; 0: cfl h / vel_scale */
    double cfl, vel_scale;    /* 0: 1 */
    uint32_t substeps;        /* per frame; 0: 1 */
    double viscosity;         /* kinematic; 0: no diffusion pass */
    uint32_t diffuse_iters;   /* red-black sweeps; 0: automatic */
    vf_grid3d_pressure pressure;
    uint32_t pressure_iters;  /* V-cycles or Jacobi iterations per step; 0: 2 / 100 */
    uint32_t mg_pre, mg_post; /* 0: 2 */
    uint32_t coarse_iters;    /* SOR sweeps on the coarsest level; 0: 8 x its largest side */
    vf_grid3d_advection advection;
    double vorticity;         /* confinement epsilon; 0: off */
    double alpha, beta;       /* buoyancy: alpha per unit temperature, beta per unit density */
    double ambient;           /* ambient temperature */
    uint32_t sides[6];        /* VF_G3_BC_* for xmin, xmax, ymin, ymax, zmin, zmax */
    float inflow[6];          /* inflow speed of an inflow side (inward) */
    vf_grid3d_obstacle obstacles[VF_GRID3D_MAX_OBSTACLES];
    bool source_on;
    float source[4];          /* sphere: centre x, y, z, radius */
    vf_grid3d_source_profile source_profile;
    float source_density;     /* density per second inside the source */
    float source_temperature; /* temperature per second inside the source */
    float initial_temperature;/* initial temperature everywhere (fire: the ambient) */
    double cooling;           /* 1/s: the temperature above ambient decays as exp(-cooling t)
                               * in every fluid cell (Newton's law of cooling); 0: none */
    /* render hints for the volume view (the solver ignores them) */
    float extinction;         /* per unit density per m; 0: 10 */
    float emission;           /* brightness of the black-body emission of the gas (fire); 0: none (smoke) */
    float kelvin;             /* black-body temperature in K per unit of temperature above
                               * ambient, over 300 K (fire); 0: 600 */
    float albedo;             /* scattering albedo of the smoke; 0: 0.8 */
    float view_lo[3], view_hi[3]; /* the region the default camera frames (m); all 0: the domain */
    float view_dir[3];        /* from that region towards the eye; all 0: (0.35, 0.45, 1) */
} vf_grid3d_desc;

typedef struct vf_grid3d vf_grid3d;

/** Fields a test, exporter or renderer reads or writes. */
typedef enum vf_grid3d_field {
    VF_GRID3D_FIELD_VEL = 0, /* u, v, w faces one after another */
    VF_GRID3D_FIELD_SCALARS, /* density (nc), temperature (nc) */
    VF_GRID3D_FIELD_P,
    VF_GRID3D_FIELD_RHS,
    VF_GRID3D_FIELD_RESIDUAL,
    VF_GRID3D_FIELD_MASK,    /* uint32 per cell */
    VF_GRID3D_FIELD_OMEGA,   /* 4 floats per cell (vorticity on only) */
    VF_GRID3D_FIELD_COUNT
} vf_grid3d_field;

typedef enum vf_grid3d_pass {
    VF_GRID3D_PASS_SOURCE = 0,
    VF_GRID3D_PASS_BUOYANCY,
    VF_GRID3D_PASS_VORTICITY,
    VF_GRID3D_PASS_ADVECT_VELOCITY,
    VF_GRID3D_PASS_DIFFUSE,
    VF_GRID3D_PASS_BOUNDARY,
    VF_GRID3D_PASS_DIVERGENCE,
    VF_GRID3D_PASS_PRESSURE,
    VF_GRID3D_PASS_GRADIENT,
    VF_GRID3D_PASS_ADVECT_SCALARS,
    VF_GRID3D_PASS_COUNT
} vf_grid3d_pass;

/** Fills the defaults of a zeroed desc in place (see vf_grid3d_desc). */
void vf_grid3d_fill_defaults(vf_grid3d_desc *d);

/** Checks a desc with defaults filled (no GPU): sizes, multigrid
 * divisibility, obstacles inside the domain, side types. One line naming the
 * key in err, and that key in *key (key may be NULL; NULL: none). */
vf_result vf_grid3d_validate_desc(const vf_grid3d_desc *d, const char **key, char *err, size_t cap);

/** Device bytes the solver would allocate for desc (defaults filled). */
uint64_t vf_grid3d_memory_bytes(const vf_grid3d_desc *d);

/** Creates the solver: checks desc against the device's limits (memory,
 * buffer range), allocates every buffer, builds the pipelines, uploads the
 * obstacle masks and sets the state to rest. desc may be NULL (defaults).
 * desc's values must come validated (vf_grid3d_validate_desc, which the
 * scenes run while validating): create does not check them again. err (may
 * be NULL) gets one line for VF_ERR_TOO_LARGE naming n, and *key (key may
 * be NULL) that key. The caller owns *out. */
vf_result vf_grid3d_create(vf_gpu *gpu, const vf_grid3d_desc *desc, vf_grid3d **out, const char **key, char *err,
                           size_t cap);

/** Destroys the solver (the GPU must be idle); accepts NULL and *g == NULL. */
void vf_grid3d_destroy(vf_grid3d **g);

/** The vf_solver view of g (owned by g). */
vf_solver *vf_grid3d_solver(vf_grid3d *g);

/** The 3D grid family for vf_solver_create (desc: a vf_grid3d_desc). */
extern const vf_solver_family vf_grid3d_family;

/** The 3D grid solver behind a vf_solver; NULL for other families. */
vf_grid3d *vf_grid3d_from_solver(vf_solver *s);

/** The desc in use (defaults filled). */
const vf_grid3d_desc *vf_grid3d_get_desc(const vf_grid3d *g);

/** Multigrid levels planned for the grid. */
uint32_t vf_grid3d_levels(const vf_grid3d *g);

/** The first multigrid level V-cycled by one workgroup (grid3d_mg_tail),
 * chosen from the device's shared memory; vf_grid3d_levels when none. */
uint32_t vf_grid3d_tail_level(const vf_grid3d *g);

/** SOR sweeps and omega (may be NULL) of the coarsest-level solve. */
uint32_t vf_grid3d_coarse_sweeps(const vf_grid3d *g, float *omega);

/** Red-black sweeps per diffusion pass (0 without viscosity). */
uint32_t vf_grid3d_diffuse_sweeps(const vf_grid3d *g);

/** Values (floats or uint32) of a field. */
uint64_t vf_grid3d_field_count(const vf_grid3d *g, vf_grid3d_field f);

/** The GPU buffer holding a field now (ping-pong fields move: look it up
 * after recording). NULL for a field the solver was created without. */
vf_buffer *vf_grid3d_buffer(vf_grid3d *g, vf_grid3d_field f);

/** Reads / writes a whole field (waits). */
vf_result vf_grid3d_read(vf_grid3d *g, vf_grid3d_field f, void *dst);
vf_result vf_grid3d_write(vf_grid3d *g, vf_grid3d_field f, const void *src);

/** Records one pass (tests and the benchmark record them singly); prof may be NULL. */
vf_result vf_grid3d_record_pass(vf_grid3d *g, VkCommandBuffer cmd, vf_grid3d_pass pass, vf_profiler *prof);

/** Records one substep (every pass in order); prof may be NULL. */
vf_result vf_grid3d_record_step(vf_grid3d *g, VkCommandBuffer cmd, vf_profiler *prof);

/** Records `iters` V-cycles (multigrid) or Jacobi iterations, or one FFT
 * solve (iters ignored), on the current right-hand side into the pressure.
 * VF_ERR_INVALID_ARG for fft on a grid created without it; VF_ERR_VULKAN when
 * VkFFT fails to record. */
vf_result vf_grid3d_record_pressure(vf_grid3d *g, VkCommandBuffer cmd, vf_grid3d_pressure method, uint32_t iters);

/** Records the residual b - A p of the current pressure into
 * VF_GRID3D_FIELD_RESIDUAL (the benchmark's measure of a solve). */
void vf_grid3d_record_residual(vf_grid3d *g, VkCommandBuffer cmd);

/** Sets the viewer's push/inject for the next recorded substeps: a Gaussian
 * acceleration acc at centre (radius r; r <= 0: none) and, when inject,
 * density and temperature there at the source rates. */
void vf_grid3d_set_push(vf_grid3d *g, const float centre[3], float radius, const float acc[3], bool inject);

/** Writes DIR/grid3d_NNNN.vti (cell data as points: density, temperature,
 * velocity at cell centres, pressure, solid) atomically, the arrays stored as
 * the solver's vti_compression says (solver.h). Waits. */
vf_result vf_grid3d_export(vf_grid3d *g, const char *dir, uint32_t index);

/** Index of the MAC face (c, i, j, k) (c: 0 u, 1 v, 2 w) in a velocity array
 * of an nx x ny x nz grid: the u faces ((nx+1) ny nz), then v, then w, each
 * x fastest. The layout of VF_GRID3D_FIELD_VEL. */
size_t vf_grid3d_face_index(uint32_t nx, uint32_t ny, uint32_t nz, int c, int i, int j, int k);

/** Coarsens a cell mask (VF_G3_CELL_*) of nx x ny x nz cells by 2 per axis
 * into coarse (nx/2 ny/2 nz/2 values, caller-owned): a coarse cell is fluid
 * when any of its 8 children is. The multigrid levels' masks. */
void vf_grid3d_coarsen_mask(uint32_t nx, uint32_t ny, uint32_t nz, const uint32_t *fine, uint32_t *coarse);


struct vf_sim_pass;
/** The passes of grid3d_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_grid3d_pass_table(uint32_t *count);

#endif
