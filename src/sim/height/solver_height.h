/* solver_height: height-field water on the GPU (fp32).
 *
 * The surface elevation eta (above the rest level `surface`) over a grid of
 * nx x ny square cells follows the shallow-water wave equation
 *     d2eta/dt2 = div(g d grad eta),  d = surface + eta - bed,
 * in flux form with a depth per face (Kass & Miller 1990), so waves slow down
 * over shallows, dry cells (bed above the water) carry no flux and the total
 * volume is conserved by construction. Two integrators:
 *   explicit  Mueller-Fischer's velocity of height (symplectic Euler, i.e.
 *             leapfrog), damping on the velocity; stable for
 *             sqrt(g d) dt / dx <= 1/sqrt(2);
 *   adi       Kass & Miller's implicit step, factorised into a tridiagonal
 *             (Thomas) solve per row, then per column (alternating
 *             directions); stable for any dt. adi_form=trapezoidal weights
 *             eta^(n+1), eta^n, eta^(n-1) by 1/4, 1/2, 1/4 (second order, no
 *             numerical damping); adi_form=kass-miller is the paper's
 *             first-order form (weights 1, 0, 0; damps short waves).
 * Around that: reflecting walls or absorbing edges (first-order radiation
 * condition deta/dt + c deta/dn = 0 at the domain edge), obstacle
 * cells, rain drops from a seeded hash (deterministic), a boat whose hull
 * presses the surface while it moves at wake_speed (the wake follows), floating
 * leaves and ducks (GPU particles), a per-frame volume correction (GPU
 * reduction and a depth-proportional shift; no readback), and coupling to a 2D flow:
 * coupling=pressure (Chen & Lobo: eta = p / (rho g)) or coupling=divergence
 * (Klein et al.: each flow step of length dt_f adds -s delta / (1 + eta^2),
 * delta the divergence of the tentative velocity; here as the rate
 * -s (delta / dt_f) / (1 + eta^2), so substeps do not change the result).
 * With `advect`, the surface state (eta and the velocity of height, or
 * eta^(n-1)) is also carried along the flow velocity once per frame
 * (semi-Lagrangian, height_advect), so disturbances drift with the current.
 *
 * Scenes: pool, boat (scenes_height.c), river (scenes_river.c). */
#ifndef VF_SOLVER_HEIGHT_H
#define VF_SOLVER_HEIGHT_H

#include <stdbool.h>

#include "gpu_buffer.h"
#include "shared_height.h"
#include "solver.h"

/* The choice keys of the height family, each declared once (params.h): the
 * enum and the key's choices come from the same list. */
#define VF_HEIGHT_INTEGRATOR_LIST(X) X(VF_HEIGHT_INT_EXPLICIT, "explicit") X(VF_HEIGHT_INT_ADI, "adi")
#define VF_HEIGHT_ADI_FORM_LIST(X) X(VF_HEIGHT_ADI_TRAPEZOIDAL, "trapezoidal") X(VF_HEIGHT_ADI_KASS_MILLER, "kass-miller")
#define VF_HEIGHT_EDGES_LIST(X)                                                                                        \
    X(VF_HEIGHT_EDGES_WALLS, "walls") X(VF_HEIGHT_EDGES_ABSORBING, "absorbing") X(VF_HEIGHT_EDGES_OPEN_ENDS, "open-ends")
#define VF_HEIGHT_BED_LIST(X)                                                                                          \
    X(VF_HEIGHT_BED_FLAT, "flat") X(VF_HEIGHT_BED_SHELF, "shelf") X(VF_HEIGHT_BED_BEACH, "beach")                      \
    X(VF_HEIGHT_BED_CHANNEL, "channel")
#define VF_HEIGHT_INIT_LIST(X) X(VF_HEIGHT_INIT_REST, "rest") X(VF_HEIGHT_INIT_COSINE, "cosine") X(VF_HEIGHT_INIT_BUMP, "bump")
/* the coupling's values are the shader's (shared_height.h) */
#define VF_HEIGHT_COUPLING_LIST(X)                                                                                     \
    X(VF_HEIGHT_COUPLE_NONE, "none") X(VF_HEIGHT_COUPLE_PRESSURE, "pressure") X(VF_HEIGHT_COUPLE_DIVERGENCE, "divergence")
/* the river's flow: the grid's pressure solvers that suit its inflow/outflow
 * channel (the scene layer maps them onto the grid's) */
#define VF_HEIGHT_FLOW_PRESSURE_LIST(X)                                                                                \
    X(VF_HEIGHT_FLOW_MULTIGRID, "multigrid") X(VF_HEIGHT_FLOW_JACOBI, "jacobi") X(VF_HEIGHT_FLOW_SSOR, "ssor")         \
    X(VF_HEIGHT_FLOW_PENALTY, "penalty")

enum { VF_HEIGHT_INTEGRATOR_LIST(VF_CHOICE_ENUM) };
enum { VF_HEIGHT_ADI_FORM_LIST(VF_CHOICE_ENUM) };
enum { VF_HEIGHT_EDGES_LIST(VF_CHOICE_ENUM) };
enum { VF_HEIGHT_BED_LIST(VF_CHOICE_ENUM) };
enum { VF_HEIGHT_INIT_LIST(VF_CHOICE_ENUM) };
enum { VF_HEIGHT_FLOW_PRESSURE_LIST(VF_CHOICE_ENUM) };
VF_CHOICES_CHECK(VF_HEIGHT_COUPLING_LIST)

/** Every key of the height family (the param table stores into this). */
typedef struct vf_height_desc {
    int nx, ny;             /* cells */
    double dx;              /* cell size (m) */
    double g;               /* gravity (m/s^2) */
    double surface;         /* rest water level (m) */
    double bed;             /* bed elevation of the flat part (m) */
    int bed_shape;          /* VF_HEIGHT_BED_* */
    double shelf_x;         /* shelf/beach start as a fraction of the length */
    double shelf_depth;     /* water depth over the shelf (m) */
    double channel_width;   /* channel: width of the flat bed (fraction of the width) */
    bool pillar;            /* a round obstacle */
    double pillar_x, pillar_y, pillar_r; /* centre (fractions), radius (m) */
    int integrator;         /* VF_HEIGHT_INT_* */
    int adi_form;           /* VF_HEIGHT_ADI_* */
    double dt;              /* substep (s); 0: automatic */
    double frame_dt;        /* simulated time per frame (s) */
    double damping;         /* velocity damping (1/s) */
    int edges;              /* VF_HEIGHT_EDGES_* */
    bool volume_fix;        /* correct the volume drift every frame */
    int init;               /* VF_HEIGHT_INIT_* */
    double init_amplitude;  /* m */
    double init_x, init_y;  /* bump centre (fractions) */
    double init_width;      /* bump radius (m) */
    double rain;            /* drops per second */
    double drop_radius;     /* m */
    double drop_amplitude;  /* m */
    int seed;               /* rain and object placement */
    int leaves, ducks;      /* floating objects */
    double drag_time;       /* s: how fast objects follow the flow */
    bool recycle;           /* objects reaching the right end start again at the left */
    bool boat;
    double wake_speed;      /* boat speed (m/s), Chen & Lobo's WakeSpeed */
    double boat_length, boat_width, boat_draft; /* m */
    double boat_y;          /* lane (fraction of the width) */
    int coupling;           /* VF_HEIGHT_COUPLE_* */
    double inflow;          /* river: inflow speed of the channel flow (m/s) */
    double re;              /* river: Reynolds number of the pillar, inflow * 2 r / nu */
    int flow_cells;         /* river: flow cells across the channel */
    int flow_pressure;      /* river: the flow's pressure solver, VF_HEIGHT_FLOW_* */
    double flow_epsilon;    /* river: the penalty parameter of flow_pressure=penalty (s/m^2) */
    bool advect;            /* carry the surface state along the flow velocity every frame */
    bool dye;               /* river: dye stripes enter with the flow, drift with it and are drawn on the water */
    double strength;        /* divergence coupling s (m s): a flow step adds -s delta / (1 + eta^2) */
    double rho;             /* density for the pressure coupling (kg/m^3) */
    /* Work per invocation (not scene keys; 0: by the device). A CPU device loads buffers one lane
     * at a time and runs a workgroup as SIMD batches that execute every branch masked, so there
     * the explicit step and the disturbances take VF_HEIGHT_CPU_ROWS consecutive rows per
     * invocation (a row's neighbours above and below come from the rows before, and the frame's
     * volume sum has fewer workgroups) and the correction at the frame's end
     * VF_HEIGHT_END_CPU_CELLS cells (fewer batches pay for the objects' code); a GPU takes one of
     * each, for parallelism. */
    int rows;               /* 1 or VF_HEIGHT_CPU_ROWS */
    int end_cells;          /* 1 to VF_HEIGHT_END_CPU_CELLS */
    /* Cells given by the caller (e.g. a scene file's shapes, rasterised), nx*ny each, row-major (cell (i, j) at
     * j * nx + i). Owned by the caller and read only while vf_height_validate, vf_height_max_depth,
     * vf_height_explicit_limit or vf_height_create runs (create keeps no pointer to them). */
    const uint8_t *solid;   /* nonzero: an obstacle cell (besides the pillar); NULL: none */
    const double *level;    /* the water surface elevation a cell starts at (m, like surface; init does not apply
                             * there, dry below the bed), NAN where the rest level and init apply; NULL: none */
} vf_height_desc;

/** The parameter table of the height family (shared by its scenes). */
#define VF_HEIGHT_PARAM_COUNT 50
extern const vf_param_def vf_height_params[VF_HEIGHT_PARAM_COUNT];
extern const size_t vf_height_param_count;

/** Fills desc with the table defaults (the pool preset; no solid or level cells). */
void vf_height_desc_defaults(vf_height_desc *desc);

/** Cross-key checks: some water somewhere (surface above the bed), the
 * explicit stability limit, sizes. One-line reason in err (cap bytes)
 * starting with the key, and that key in *key (key may be NULL). The one
 * check of a desc's values: vf_height_create does not repeat it. */
vf_result vf_height_validate(const vf_height_desc *desc, const char **key, char *err, size_t cap);

/** The largest water depth of a desc at the start (m): the rest level, or
 * a level cell's, over the bed of every cell that is not solid; 0 or less
 * when there is no water. */
double vf_height_max_depth(const vf_height_desc *desc);

/** The explicit stability limit dx / (sqrt(2 g d_max)) of a desc (s), d_max
 * the largest rest depth; 0 when there is no water. */
double vf_height_explicit_limit(const vf_height_desc *desc);

/** Creates the solver. desc's values must come validated: create checks
 * only what needs the device (the largest field within
 * maxStorageBufferRange, every buffer within its memory), so a desc that did
 * not pass vf_height_validate (the scenes run it while validating) is
 * undefined. On success *out owns every GPU buffer; destroy with
 * vf_solver_destroy. err gets a one-line reason for VF_ERR_TOO_LARGE naming
 * nx (may be NULL when cap is 0), and *key (key may be NULL) that key. */
vf_result vf_height_create(vf_gpu *gpu, const vf_height_desc *desc, vf_solver **out, const char **key, char *err,
                           size_t cap);

/** The height family for vf_solver_create (desc: a vf_height_desc). */
extern const vf_solver_family vf_height_family;

/** What renderers and tests read: the solver's live buffers (owned by the
 * solver; eta changes with every step, so query it when recording). */
typedef struct vf_height_state {
    vf_buffer *eta;       /* current eta (m above rest), nx*ny floats */
    vf_buffer *bed;       /* bed relative to the rest level (m), nx*ny floats */
    vf_buffer *flags;     /* VF_HEIGHT_SOLID per cell, nx*ny uint32 */
    vf_buffer *pres;      /* pressure height p / (rho g) (m), zero without coupling=pressure */
    vf_buffer *objects;   /* vf_height_object[object_count] (at least one slot) */
    uint32_t nx, ny, object_count;
    float dx, surface, g;
    float max_depth;      /* largest rest depth (m) */
    float display_scale;  /* a good colour scale for 2D views (m): the largest expected disturbance */
    double time;          /* simulated seconds recorded so far */
    int coupling;
    vf_buffer *dye[3];    /* the flow's dye (red, green, blue per flow cell); NULL without a flow or dye */
    uint32_t flow_nx, flow_ny;
} vf_height_state;

/** Fills *out with the current buffers of a height solver. */
void vf_height_get_state(const vf_solver *s, vf_height_state *out);

/** True when s is a height-family solver. */
bool vf_height_is(const vf_solver *s);

/** A 2D flow under the surface on an nx x ny grid over the same domain,
 * sampled bilinearly. Any buffer may be NULL (that part of the coupling then
 * reads zeros). The buffers stay owned by the caller and must outlive the
 * solver's use of them (until the next set_flow or destroy). */
typedef struct vf_height_flow {
    vf_buffer *pressure;   /* float per cell; times pressure_scale it is Pa (rho in kg/m^3) */
    vf_buffer *divergence; /* float per cell; times divergence_scale it is b = delta / dt_flow, the divergence of the
                            * flow's tentative velocity per unit time (1/s^2; Stable Fluids' pressure right-hand side) */
    vf_buffer *velocity;   /* CELL: (u, v) per cell; MAC: u on the x faces, (nx + 1) x ny; times velocity_scale it is m/s */
    vf_buffer *velocity_v; /* MAC: v on the y faces, nx x (ny + 1) */
    uint32_t layout;       /* VF_HEIGHT_FLOW_CELL or VF_HEIGHT_FLOW_MAC */
    uint32_t nx, ny;
    float pressure_scale, divergence_scale, velocity_scale; /* 0 = 1 */
    vf_buffer *dye[3];     /* optional: red, green, blue dye carried by the flow, float per cell (renderers draw it) */
    uint32_t edge_cells;   /* flow cells at the left and right ends (x) whose divergence the coupling leaves out:
                            * an inflow or outflow boundary's divergence is the boundary condition's, not the flow's */
} vf_height_flow;

/** Attaches (or with NULL detaches) a flow. The coupling key decides what is
 * used. The writer of the flow buffers must record a compute barrier before
 * the height solver's record_frame reads them. */
vf_result vf_height_set_flow(vf_solver *s, const vf_height_flow *flow);

/** A flow solver running under the surface (e.g. the grid solver's channel
 * for the river scene). */
typedef struct vf_height_flow_source {
    vf_solver *solver; /* given to the height solver: recorded before it every frame, destroyed with it */
    /** Fills *out with the flow's current buffers; called after the flow's
     * frame was recorded (ping-pong buffers change every step). */
    void (*bind)(vf_solver *flow, vf_height_flow *out);
} vf_height_flow_source;

/** Makes src->solver the flow under s: every frame s records the flow's frame
 * first (and its frame_done, check, export and summary ride along), then binds
 * its buffers with src->bind. The flow must advance the same frame_dt. On
 * success s owns src->solver; VF_ERR_INVALID_ARG (nothing taken) when a flow
 * solver is already attached, the frame times differ or bind gives bad buffers. */
vf_result vf_height_attach_flow_solver(vf_solver *s, const vf_height_flow_source *src);

/* ---- host arithmetic the solver shares with its CPU references */

/** Uniform in [0, 1) from seed and counter (vf_hash01): rain drops and
 * object placement. */
float vf_height_hash01(uint32_t seed, uint32_t k);
/** The excess water volume / dx^2 of a state over host arrays of nx*ny cells
 * (what the volume sum of a frame's last pass computes, here in double): the
 * depth of every wet cell that is not solid, less the rest depth of its bed. The wet cells
 * and their summed depth go to *wet and *depth (each may be NULL). */
double vf_height_excess(uint32_t nx, uint32_t ny, const float *eta, const float *bed, const uint32_t *flags,
                        uint32_t *wet, double *depth);

/* ---- for tests and the benchmark: single steps */

/** The push constants the next substep (at simulated time t) would use. */
vf_height_step_push vf_height_step_params(const vf_solver *s, double t);
/** The disturbance push of the substep with global index step. */
vf_height_disturb_push vf_height_disturb_params(const vf_solver *s, uint64_t step);
/** Substep length (s) the solver uses. */
double vf_height_dt(const vf_solver *s);

/** Replaces eta (and the second state array: the velocity of height for the
 * explicit integrator, eta^(n-1) for ADI; NULL leaves it alone). Waits. */
vf_result vf_height_upload(vf_solver *s, const float *eta, const float *second);
/** Reads eta, and the second state array when second is not NULL. Waits. */
vf_result vf_height_download(vf_solver *s, float *eta, float *second);
/** Total water volume in m^3 from a readback, summed in double. Waits. */
vf_result vf_height_volume(vf_solver *s, double *volume);
/** Reads the floating objects (count = state.object_count). Waits. */
vf_result vf_height_read_objects(vf_solver *s, vf_height_object *out);

/** Records exactly one substep (integrator + disturbances) with the given
 * pushes, without objects or the volume correction. With volume, the
 * substep's last pass also sums the volume of its output into the volume
 * result (vf_height_read_volume_result), as the last substep of a frame
 * does with volume_fix. */
vf_result vf_height_record_step(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, const vf_height_step_push *sp,
                                const vf_height_disturb_push *dp, bool volume);
/** Runs one tridiagonal sweep (push->axis) of the ADI kernel on rhs (nx*ny)
 * with the face depths of the current eta, writing out. Waits. */
vf_result vf_height_run_sweep(vf_solver *s, const vf_height_step_push *push, const float *rhs, float *out);
/** The advection push of the next frame (flow sizes of the attached flow). */
vf_height_advect_push vf_height_advect_params(const vf_solver *s);
/** Runs the advection kernel once with the given push on the current state
 * (eta and the second array), with the attached flow's velocity. Waits.
 * VF_ERR_INVALID_ARG when the solver was created without `advect` or has no
 * flow velocity. */
vf_result vf_height_run_advect(vf_solver *s, const vf_height_advect_push *push);
/** Runs the frame's end once: the objects with the given push (objects may
 * be NULL: none; its end_flags are ignored), and with apply the volume
 * correction of the last volume sum (vf_height_record_step with volume),
 * which then becomes the current eta. Waits. */
vf_result vf_height_run_frame_end(vf_solver *s, const vf_height_objects_push *objects, bool apply);
/** The object push of the next frame. */
vf_height_objects_push vf_height_objects_params(const vf_solver *s);
/** Reads the volume result: the last sum and the scale it computed, and how
 * many sums ran. Waits. */
vf_result vf_height_read_volume_result(vf_solver *s, vf_height_volume_result *out);



struct vf_sim_pass;
/** The passes of height_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_height_pass_table(uint32_t *count);

#endif
