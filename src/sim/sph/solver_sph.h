/* solver_sph: smoothed-particle hydrodynamics (Mueller, Charypar & Gross
 * 2003) fully on the GPU.
 *
 * Particles live in structure-of-arrays buffers (vec4 positions, vec4
 * velocities, uint persistent ids, vec2 density+pressure, vec4
 * accelerations). Every step re-bins them into a uniform grid of cell size h:
 * per-particle cell and atomic slot (bin, done by the leapfrog drift), exclusive
 * scan of the cell counts in two passes that also clear the counts for the
 * next binning (scan), ids per cell (sort) and a scatter that moves the particle
 * data itself into cell order, ordered by id inside each cell so results do
 * not depend on atomic races (scatter). Density and forces then loop over the
 * rows of cells within h (cells of h / VF_SPH_CELL_DIV), each row's cells
 * within h one contiguous range, with no neighbour lists.
 *
 * The step size comes from the parameters (CFL with the speed of sound, which
 * dominates in weakly compressible SPH, plus force and viscosity limits), so
 * recording a frame never reads back; the GPU keeps the largest speed seen and
 * the guards check the assumption when they read back. */
#ifndef VF_SOLVER_SPH_H
#define VF_SOLVER_SPH_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_buffer.h"
#include "gpu_profiler.h"
#include "shared_sph.h"
#include "solver.h"

/* The equation of state and the integrator, each declared once (params.h
 * choice lists). The eos values are the shader's VF_SPH_EOS_* (shared_sph.h).
 * leapfrog: kick-drift-kick, states at full steps; euler: symplectic Euler,
 * v += a dt, x += v dt. */
#define VF_SPH_EOS_LIST(X) X(VF_SPH_TAIT, "tait") X(VF_SPH_LINEAR, "linear")
#define VF_SPH_INTEGRATOR_LIST(X) X(VF_SPH_LEAPFROG, "leapfrog") X(VF_SPH_SYMPLECTIC_EULER, "euler")
typedef enum vf_sph_eos { VF_SPH_EOS_LIST(VF_CHOICE_ENUM) } vf_sph_eos;
typedef enum vf_sph_integrator { VF_SPH_INTEGRATOR_LIST(VF_CHOICE_ENUM) } vf_sph_integrator;
/* The solver method: wcsph (weakly compressible, Mueller et al. 2003, a step
 * bound by the speed of sound), pbf (position-based fluids, Macklin & Mueller
 * 2013: a fixed number of substeps a frame, each a fixed number of
 * density-constraint iterations) or dfsph (divergence-free SPH, Bender &
 * Koschier 2015/2017: a step bound by the flow speed, pressure solves that
 * the GPU ends at their tolerance). */
#define VF_SPH_METHOD_LIST(X) X(VF_SPH_WCSPH, "wcsph") X(VF_SPH_PBF, "pbf") X(VF_SPH_DFSPH, "dfsph")
typedef enum vf_sph_method { VF_SPH_METHOD_LIST(VF_CHOICE_ENUM) } vf_sph_method;
/** The artificial viscosity a method applies, in units of the scene's
 * alpha: dfsph takes twice it. Its consistent kernel leaves no pressure
 * noise, which in wcsph's weakly compressible steps also damps the flow: at
 * alpha dfsph's dam-break front (spacing 0.02) leads Martin & Moyce's by
 * 0.103 in Z RMS, at 2 alpha it is 0.042 off (wcsph at alpha: 0.044; the
 * sweep is in docs/testing.md). */
static inline double vf_sph_alpha_scale(vf_sph_method m) { return m == VF_SPH_DFSPH ? 2.0 : 1.0; }
/* pbf's over-relaxation of its position corrections (x += omega V sum (...)
 * grad W, an iteration of the Jacobi solve over-relaxed): the default of
 * the scene key pbf_omega and of a desc's 0. The test_sph_methods column
 * (2 substeps of 6 iterations), its density error at rest averaged over
 * frames 31-120, against omega: 1: +1.34 %, 1.05: +1.00 %, 1.1: +0.64 %,
 * 1.15: +0.46 %, 1.2: -0.39 % with a column that keeps moving (kinetic
 * energy 1.2e-2 J/kg after 1 s, 7.9e-4 at 1.1); 1.3 blows up. 1.1 also
 * brings the dam-break front nearer Martin & Moyce's (0.073 against 0.077
 * in Z RMS) at no cost (docs/testing.md). */
#define VF_SPH_PBF_OMEGA 1.1
/* The walls and obstacles: no-slip (their mirror images carry the velocity
 * reversed, so viscosity and XSPH drag the fluid along them), free-slip
 * (reflected), or auto: free-slip, as every method applies the artificial
 * viscosity, which brakes the flow along no-slip walls (the dam break's
 * front at spacing 0.02 then lags Martin & Moyce's by 0.72 in Z RMS with
 * pbf, 0.67 with dfsph, instead of 0.077 and 0.051; measured before dfsph's
 * kernel and its alpha scale). */
#define VF_SPH_WALLS_LIST(X)                                                                                          \
    X(VF_SPH_WALLS_AUTO, "auto") X(VF_SPH_WALLS_NOSLIP, "noslip") X(VF_SPH_WALLS_FREESLIP, "freeslip")
typedef enum vf_sph_walls { VF_SPH_WALLS_LIST(VF_CHOICE_ENUM) } vf_sph_walls;
_Static_assert(VF_SPH_WCSPH == VF_SPH_METHOD_WCSPH && VF_SPH_PBF == VF_SPH_METHOD_PBF &&
                   VF_SPH_DFSPH == VF_SPH_METHOD_DFSPH,
               "method choices follow shared_sph.h");
_Static_assert(VF_SPH_TAIT == VF_SPH_EOS_TAIT && VF_SPH_LINEAR == VF_SPH_EOS_LINEAR, "eos choices follow shared_sph.h");

/* The most substeps one frame may take (frame_dt / dt): scenes asking for
 * more are refused before any gpu work (scene validation names frame_dt). */
#define VF_SPH_MAX_FRAME_SUBSTEPS 2000

/** Everything the solver needs. Lengths in metres, SI units throughout.
 * Zero means the stated default where one is given. */
typedef struct vf_sph_desc {
    double lo[3], hi[3];       /* the tank (walls); particles stay inside */
    double spacing;            /* initial particle spacing (mass = rho0 spacing^3) */
    double h;                  /* smoothing radius = cell size (> 0) */
    double rho0;               /* rest density (default 1000) */
    vf_sph_eos eos;
    double sound_speed;        /* c (> 0): Tait B = rho0 c^2 / 7 */
    double stiffness;          /* linear k (0: c^2) */
    bool keep_negative_pressure; /* false: negative pressures are clamped to 0 */
    double viscosity;          /* mu, Pa s */
    double tension;            /* sigma, N/m; 0 = off */
    double restitution;        /* 0..1 */
    double damping;            /* 1/s, a -= damping v */
    double gravity[3];
    vf_sph_integrator integrator;
    vf_sph_method method;      /* default wcsph (zero) */
    vf_sph_walls walls;        /* default auto (zero) */
    /* pbf: substeps a frame and iterations a substep (0: 2 and 6), the
     * constraint's relaxation epsilon over sum |grad C|^2 of a particle of
     * the rest lattice (0: none), the over-relaxation of the corrections
     * (0: VF_SPH_PBF_OMEGA), the artificial pressure k, dq / h and n (k 0:
     * off), the XSPH share and the vorticity confinement (m/s) */
    uint32_t pbf_substeps, pbf_iterations;
    double pbf_relaxation, pbf_omega, pbf_tensile_k, pbf_tensile_dq, pbf_tensile_n, xsph, vorticity;
    /* dfsph: the CFL number over the spacing (0: 0.4), the largest step (0:
     * 5 ms), the tolerances of the density and divergence solves (0: 1e-4
     * and 1e-3, Bender & Koschier's 0.01 % and 0.1 %), the most iterations
     * a solve records (0: 30) and substeps a frame records (0: from the CFL
     * step at 1.25 x speed_ref) */
    double dfsph_cfl, dfsph_dt_max, dfsph_eta, dfsph_eta_v;
    uint32_t dfsph_max_iterations, dfsph_substeps;
    double cfl;                /* dt <= cfl h / (c + speed_ref) (default 0.25) */
    double speed_ref;          /* the largest flow speed expected, m/s */
    double frame_dt;           /* simulated seconds per frame (default 1/60) */

    uint32_t count;            /* initial particles */
    const float (*pos)[4];     /* count positions (xyz); may be NULL when count is 0 */
    const float (*vel)[4];     /* count velocities; NULL: at rest */
    uint64_t capacity;         /* particles the buffers hold (0: count) */

    uint32_t sphere_count;     /* obstacles, at most VF_SPH_MAX_SPHERES */
    double spheres[VF_SPH_MAX_SPHERES][4]; /* centre xyz, radius */
    uint32_t box_count;        /* at most VF_SPH_MAX_BOXES */
    double box_lo[VF_SPH_MAX_BOXES][3], box_hi[VF_SPH_MAX_BOXES][3];

    bool sink;                 /* particles inside [sink_lo, sink_hi] are removed */
    double sink_lo[3], sink_hi[3];

    bool emitter;              /* a nozzle: a disc of radius emit_radius at emit_origin */
    double emit_origin[3];
    double emit_velocity[3];   /* its direction and speed (> 0) */
    double emit_radius;

    double interact[4];        /* interactive force: point xyz, radius (0: off) */
    double interact_strength;  /* m/s^2: > 0 pushes away, < 0 pulls */

    bool buffer_reads;         /* density, forces, the drift, the scan and the reorder read from the
                                  storage buffers even where the device can read them as
                                  texels (the fallback path; for tests) */
    const char *count_key;     /* the key the particle count came from, named in size errors:
                                  NULL or "particles" (the count itself), or a key whose value
                                  is the spacing (the count follows from it, e.g. "spacing") */
} vf_sph_desc;

typedef struct vf_sph vf_sph;

/** The substep size desc gives (CFL with the sound and flow speeds, the force
 * and viscous limits); no GPU work. */
double vf_sph_step_size(const vf_sph_desc *desc);
/** The checks of desc that need no device, in this order:
 * vf_sph_check_fields, vf_sph_check_substeps, vf_sph_check_nozzle;
 * VF_ERR_INVALID_ARG with a one-line reason in err (may be NULL) and in
 * *key (key may be NULL; so in the checks here that take one) the key the
 * line names first, NULL when none. For direct users of the solver: vf_sph_create does not run them (scenes run them while
 * validating, before any device exists). */
vf_result vf_sph_check_desc(const vf_sph_desc *desc, const char **key, char *err, size_t cap);
/** Part of vf_sph_check_desc: positive sizes and constants, the spacing in
 * (0, the tank's smallest side] and h positive (their one range check),
 * obstacle counts, restitution, positions present, the emitter's speed.
 * err may be NULL. */
vf_result vf_sph_check_fields(const vf_sph_desc *desc, const char **key, char *err, size_t cap);
/** Part of vf_sph_check_desc (after vf_sph_check_fields passed): the
 * substeps a frame takes, at most VF_SPH_MAX_FRAME_SUBSTEPS, else
 * VF_ERR_INVALID_ARG with a line naming frame_dt and the largest that fits.
 * err may be NULL. */
vf_result vf_sph_check_substeps(const vf_sph_desc *desc, const char **key, char *err, size_t cap);
/** Part of vf_sph_check_desc (after vf_sph_check_fields passed): an
 * emitter's nozzle has 1 to VF_SPH_EMIT_MAX points (the line names no key
 * of the table). err may be NULL. */
vf_result vf_sph_check_nozzle(const vf_sph_desc *desc, char *err, size_t cap);

/** Creates the solver: desc's values must come validated (vf_sph_check_desc;
 * create does not check them again). Checks sizes against the device
 * (vf_sph_check_size: buffer range, heap size; VF_ERR_TOO_LARGE with a
 * one-line reason in err that names desc->count_key and says how many
 * particles or cells fit),
 * allocates every buffer, uploads the particles and evaluates density and
 * forces once. err may be NULL; *key (key may be NULL) gets the key err
 * names first (NULL: none). */
vf_result vf_sph_create(vf_gpu *gpu, const vf_sph_desc *desc, vf_sph **out, const char **key, char *err, size_t cap);
/** Checks that a tank of desc's size and h, and `particles` particles, fit
 * on the device (buffer range, memory); VF_ERR_TOO_LARGE with a one-line
 * reason naming the key (desc->count_key for the particles, spacing for the
 * cells) and how many fit. grid (may be NULL) gets the cells
 * per axis. Call before generating particles on the host. */
vf_result vf_sph_check_size(vf_gpu *gpu, const vf_sph_desc *desc, uint64_t particles, uint32_t grid[3],
                            const char **key, char *err, size_t cap);
/** Destroys the solver; accepts NULL and *s == NULL. The GPU must be idle. */
void vf_sph_destroy(vf_sph **s);

/** The step size (from the parameters, fixed for the run). */
double vf_sph_dt(const vf_sph *s);
/** The constants block the shaders see (for the CPU reference). */
const vf_sph_params *vf_sph_get_params(const vf_sph *s);
/** The particles the buffers hold. */
uint32_t vf_sph_capacity(const vf_sph *s);

/** Records one substep of dt (bin, scan, sort, scatter, density, forces,
 * integrate; emit when due). prof may be NULL. No readback. */
vf_result vf_sph_record_step(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, double dt);
/** As vf_sph_record_step; with finish = false (leapfrog only) the forces
 * pass also records the step's closing half kick and the next substep's
 * drift (and binning), of the same dt: the next call must be another
 * substep of that dt (else VF_ERR_INVALID_ARG). Until a substep with
 * finish = true is recorded the positions on the GPU are a drift ahead of
 * the velocities: read, render or export only after one. */
vf_result vf_sph_record_substep(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, double dt, bool finish);
/** Records only the binning and reorder of the current particles (tests). */
vf_result vf_sph_record_binning(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof);
/** Records density and forces for the current order (tests; after binning).
 * VF_ERR_INVALID_ARG between a substep with finish = false and the next. */
vf_result vf_sph_record_evaluate(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof);
/** What a renderer needs to draw the particles as they are after the last
 * recorded step (the buffers swap every step: ask again after recording).
 * Live particles are [0, count) with count on the GPU; count_max bounds it
 * (equal to it when the scene has neither emitter nor sink) and the slots in
 * between hold the position VF_SPH_HIDDEN (far outside any view), so drawing
 * count_max particles is correct. draw_args holds a VkDrawIndirectCommand
 * (6 vertices x count instances) at draw_offset. */
typedef struct vf_sph_render_view {
    vf_buffer *positions;  /* vec4: xyz m, w pressure (Pa) */
    vf_buffer *attributes; /* vec4: xyz velocity m/s, w density kg/m^3 */
    vf_buffer *draw_args;
    VkDeviceSize draw_offset;
    uint32_t count_max;
    float box_min[3], box_max[3]; /* the tank */
    float spacing;                /* particle spacing (a sphere radius of ~spacing/2 looks right) */
} vf_sph_render_view;

/** Fills out (owned by the solver, valid until the next step is recorded). */
void vf_sph_get_render_view(const vf_sph *s, vf_sph_render_view *out);

/** The buffers a pass over the fluid's neighbourhoods reads (valid until
 * the next step is recorded): the parameter block (uniform vf_sph_params),
 * the state (vf_sph_state), the particles in cell order and the cell starts
 * of the last binning (cells + 1). */
typedef struct vf_sph_neighbor_view {
    vf_buffer *params, *state, *positions, *velocities, *ids, *start;
    uint32_t capacity;
} vf_sph_neighbor_view;
/** Fills out (buffers owned by the solver). */
void vf_sph_get_neighbor_view(const vf_sph *s, vf_sph_neighbor_view *out);

/** Changes the interactive force from the next recorded step on. */
void vf_sph_set_interaction(vf_sph *s, const double point[3], double radius, double strength);

/** A host copy of the particle state, in the GPU's current (cell) order. */
typedef struct vf_sph_snapshot {
    uint32_t count;
    float (*pos)[4];
    float (*vel)[4];
    float (*dens)[2];  /* density, pressure */
    float (*acc)[4];   /* only in a full read; wcsph's accelerations (pbf and dfsph keep their
                          passes' scratch there: the vorticity or the last displacement, v*) */
    uint32_t *id;
    uint32_t *start;   /* cells + 1 cell starts of the last binning (only in a full read) */
    uint32_t *counts;  /* cells + 1 per-cell counts, zero between binnings (only in a full read) */
    uint32_t cells;
    vf_sph_state state;
} vf_sph_snapshot;

/** Reads the state back (waits for the GPU). full also reads the
 * accelerations and the cell starts. Free with vf_sph_snapshot_free. */
vf_result vf_sph_read(vf_sph *s, bool full, vf_sph_snapshot *out);
/** The description the solver was created from (particle pointers cleared). */
const vf_sph_desc *vf_sph_get_desc(const vf_sph *s);
/** Cells along x, y, z of the binning grid. */
void vf_sph_grid(const vf_sph *s, uint32_t out[3]);
/** Particles uploaded at creation. */
uint32_t vf_sph_initial_count(const vf_sph *s);
/** DFSPH: copies the warm start (kappa, kappa_v of the last step, in the
 * GPU's current order) of n particles into out and, when ctl is not NULL,
 * the control block (waits for the GPU). VF_ERR_INVALID_ARG for the other
 * methods or n above the capacity. For tests. */
vf_result vf_sph_read_dfsph(vf_sph *s, float (*out)[2], uint32_t n, vf_dfsph_ctl *ctl);
/** Frees a snapshot's arrays; safe on a zeroed one. */
void vf_sph_snapshot_free(vf_sph_snapshot *snap);

/** Wraps an SPH solver as a vf_solver (takes ownership of sph, also on
 * failure). */
vf_result vf_sph_solver_wrap(vf_sph *sph, vf_gpu *gpu, vf_solver **out);

/** The SPH family for vf_solver_create (desc: a vf_sph_desc): vf_sph_create
 * behind the solver interface. */
extern const vf_solver_family vf_sph_family;
typedef struct vf_foam vf_foam;
/** Gives an SPH vf_solver diffuse particles (sph_foam.h), recorded after the
 * last substep of every frame, counted in the summary and the overlay line.
 * Takes ownership of foam, also on failure (VF_ERR_INVALID_ARG when s is not
 * an SPH solver); replaces an earlier one. */
vf_result vf_sph_solver_attach_foam(vf_solver *s, vf_foam *foam);
/** The diffuse particles of an SPH vf_solver, or NULL. */
vf_foam *vf_sph_solver_foam(vf_solver *s);
/** The SPH solver inside a vf_solver of family "sph" (NULL otherwise). */
vf_sph *vf_sph_from_solver(vf_solver *s);


struct vf_sim_pass;
/** The passes of sph_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_sph_pass_table(uint32_t *count);
/** The passes of pbf_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_pbf_pass_table(uint32_t *count);
/** The passes of dfsph_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_dfsph_pass_table(uint32_t *count);
/** The passes of sph_foam_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_foam_pass_table(uint32_t *count);
/** The passes of sph_mesh_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_mesh_pass_table(uint32_t *count);

#endif
