/* solver: the one interface through which commands (run, capture, bench,
 * view) drive every solver family (grid, grid3d, height, sph), and the frame
 * driver written once for all of them.
 *
 * A scene is a named preset of a family with parameters (params.h; its
 * registry row, vf_scene_info, is in the scene layer: src/scene/scene_info.h).
 * Creating a scene's solver allocates all its GPU buffers; per frame the command records
 * vf_solver_record_frame() into its command buffer (the solver substeps to
 * advance exactly frame_dt of simulated time), submits, calls
 * vf_solver_frame_done(), and only when asked reads anything back (export,
 * vf_solver_check).
 *
 * The driver owns the frame: it asks the family for the frame's substep count
 * and its work before the substeps (vt->frame_begin), records the substeps
 * one by one (vt->record_substep), then the work after them (vt->frame_end);
 * it counts frames and substeps, and notes the frame and time of the last
 * state that passed vf_solver_check (the family keeps the data itself, for
 * vt->export_last_good).
 *
 * Frames in parts: a long frame (many substeps) may be recorded into several
 * command buffers, each submitted on its own, so no single submit runs for
 * long (a GPU watchdog resets the device after ~2 s on some systems). The
 * caller sets s->part_substeps (at most that many substeps per part; 0, the
 * default, records the whole frame in one call) and calls
 * vf_solver_record_frame again, with a new command buffer after submitting
 * the previous one, for as long as it sets s->part_more;
 * vf_solver_frame_done follows the last part only. The parts record exactly
 * the commands of the one-part frame, so results are bit-identical.
 * vt->submit_substeps is the family's recommended limit (`vkfluid run
 * --substeps-per-submit` overrides it). Callers that submit once per frame
 * (viewer, bench) leave part_substeps at 0. */
#ifndef VF_SOLVER_H
#define VF_SOLVER_H

#include <stdio.h>

#include "export_vti.h"
#include "gpu_context.h"
#include "gpu_profiler.h"
#include "params.h"

typedef struct vf_solver vf_solver;

/** A pointer interaction from the viewer (or a script). For 2D solvers
 * (grid, height) pos/vel are in the unit square of the domain (x right, y
 * up); for 3D solvers ray_origin/ray_dir is the pick ray in world space. */
typedef struct vf_interaction {
    bool active;         /* the button is down */
    int button;          /* 0 left (push, inject, drop), 1 right (pull) */
    float pos[2], vel[2];/* 2D: position and velocity in domain units (1/s) */
    float ray_origin[3], ray_dir[3];
} vf_interaction;

/** What a solver ran on the GPU since it was created (vt->work_stats), for
 * the benchmark's work per simulated second. A solver whose GPU chooses its
 * substeps or iterations (indirect dispatches of 0 workgroups for the rest)
 * reads its own counts back; for the others what was recorded ran. */
typedef struct vf_solver_work_stats {
    uint64_t substeps;         /* substeps run */
    uint64_t iterations;       /* pressure-solve iterations run (0: the method has none) */
    uint64_t neighbour_passes; /* neighbour-pass dispatches that ran with work (when neighbour_counted) */
    bool neighbour_counted;    /* the solver counted neighbour_passes; false: the recorded count is exact */
} vf_solver_work_stats;

typedef struct vf_solver_vtable {
    const char *family; /* "grid", "height", "sph" */
    /** Frees everything; the GPU must be idle. */
    void (*destroy)(vf_solver *s);
    /** The first part of a frame: records the work before the substeps
     * (sources, the flow under a surface, ...) and sets *substeps to the
     * frame's substep count (what advances s->frame_dt of simulated time).
     * Must not wait on the GPU or read back. */
    vf_result (*frame_begin)(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t *substeps);
    /** Records substep index (0 .. substeps - 1) of the frame; each pass
     * wrapped in profiler scopes when prof is not NULL. */
    vf_result (*record_substep)(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t index);
    /** Records the work after the frame's last substep. May be NULL. */
    vf_result (*frame_end)(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof);
    /** Records the same work as frame_end, for timing it, but leaves the
     * state as it was; only valid before the first frame's frame_end ran.
     * NULL: frame_end has no work worth timing. */
    vf_result (*probe_frame_end)(vf_solver *s, VkCommandBuffer cmd);
    /** Records what every part starts with (before frame_begin in the first
     * part), e.g. a barrier after the previous submit's writes. May be NULL. */
    void (*part_begin)(vf_solver *s, VkCommandBuffer cmd);
    /** Called by vf_solver_frame_done after the driver counted the frame and
     * its substeps (the frame's command buffers were submitted and may still
     * run): the family's host bookkeeping, such as simulated time. Must not
     * wait on the GPU. May be NULL. */
    vf_result (*frame_done)(vf_solver *s);
    /** Writes the state for frame number index into dir (CSV + VTK), whole or
     * not at all; .vti arrays stored as s->vti_compression says. Reads back
     * from the GPU. */
    vf_result (*export_frame)(vf_solver *s, const char *dir, uint32_t index);
    /** Writes family-specific JSON members (no braces) for summary.json, e.g.
     * "final_divergence_l2": 1e-7, each line prefixed by indent, comma-separated
     * with no trailing comma. May be NULL. */
    void (*write_summary)(vf_solver *s, FILE *f, const char *indent);
    /** Guards: reads back and checks finiteness and invariants (particle
     * count, volume); when they hold, keeps a host copy of the state for
     * export_last_good. On failure returns VF_ERR_NUMERIC and a one-line
     * reason in msg. Called through vf_solver_check. May be NULL. */
    vf_result (*check)(vf_solver *s, char *msg, size_t cap);
    /** Applies a pointer interaction for the next recorded frame (no GPU
     * work here: the state is used by the next recorded frame). May be NULL. */
    void (*interact)(vf_solver *s, const vf_interaction *in);
    /** One short line for overlays: "grid 256x256", "65536 particles". May be NULL. */
    void (*describe)(vf_solver *s, char *buf, size_t cap);
    /** Bytes a named pass must move per execution at the current size (its
     * compulsory reads and writes), for the benchmark's effective bandwidth;
     * 0 when unknown. May be NULL. */
    uint64_t (*pass_bytes)(vf_solver *s, const char *pass);
    /** Bytes of the state a substep advances (what it must read and write at
     * least once), for the benchmark's work accounting. May be NULL. */
    uint64_t (*state_bytes)(vf_solver *s);
    /** Writes the state kept by the last passed check into dir like
     * export_frame, without touching the GPU (it may be lost). Called through
     * vf_solver_export_last_good. May be NULL (no state is kept). */
    vf_result (*export_last_good)(vf_solver *s, const char *dir, uint32_t index);
    /** What ran on the GPU so far (vf_solver_work_stats) into *out. May read
     * back and wait for the GPU: for the benchmark after its counted frames,
     * never per frame. May be NULL (what was recorded ran, no iterations). */
    void (*work_stats)(vf_solver *s, vf_solver_work_stats *out);
    /** Recommended substeps per submit for this family (see the top of this
     * file); 0: no limit (a frame is one submit). */
    uint32_t submit_substeps;
} vf_solver_vtable;

struct vf_solver {
    const vf_solver_vtable *vt;
    vf_gpu *gpu;
    double frame_dt;     /* simulated seconds per frame */
    double time;         /* simulated seconds so far (updated by vt->frame_done) */
    uint64_t steps;      /* substeps so far */
    uint64_t frames;     /* frames so far */
    uint32_t part_substeps; /* set by the caller: substeps per recorded part, 0 = whole frames */
    bool part_more;      /* set by vf_solver_record_frame: the frame needs another part */
    uint32_t frame_substeps; /* the substeps of the frame being recorded (vt->frame_begin) */
    uint32_t part_done;  /* the driver's: substeps of the frame recorded so far */
    bool have_good;      /* the driver's: a check has passed ... */
    uint64_t good_frame; /* ... at this frame count */
    double good_time;    /* ... and simulated time */
    vf_vti_compression vti_compression; /* set by the caller: how export_frame stores .vti arrays (0: raw) */
};

/* The pressure solvers and advection schemes of the grid families, declared
 * once (params.h choice lists); P is the family's enum prefix, e.g.
 * VF_PRESSURE_LIST(X, VF_GRID) gives VF_GRID_PRESSURE_MULTIGRID, ... */
#define VF_PRESSURE_LIST(X, P) X(P##_PRESSURE_MULTIGRID, "multigrid") X(P##_PRESSURE_JACOBI, "jacobi")
#define VF_ADVECTION_LIST(X, P) X(P##_ADVECT_SEMI_LAGRANGIAN, "semi-lagrangian") X(P##_ADVECT_MACCORMACK, "maccormack")
/* the walls of a grid scene's box: no-slip or free-slip */
#define VF_WALLS_LIST(X, P) X(P##_WALLS_NOSLIP, "noslip") X(P##_WALLS_FREESLIP, "freeslip")

/** A solver family: every family is created through vf_solver_create with
 * its own desc type (vf_grid_desc, vf_grid3d_desc, vf_height_desc,
 * vf_sph_desc). */
typedef struct vf_solver_family {
    const char *name; /* "grid", "grid3d", "height", "sph" */
    /* key (may be NULL) gets the key err names first (see vf_solver_create) */
    vf_result (*create)(vf_gpu *gpu, const void *desc, vf_solver **out, const char **key, char *err, size_t cap);
} vf_solver_family;

/** Checks that a solver of need bytes of device memory, whose largest buffer
 * is largest bytes, fits gpu: largest within maxStorageBufferRange and need
 * within 90 % of the device-local memory. Otherwise VF_ERR_TOO_LARGE with
 * err (cap bytes): "KEY: WHAT need ...: FIX" and *key_out = key (key_out may
 * be NULL; key, the key the size comes from, e.g. "n"; what, e.g. "64 x 64
 * cells"; fix, the family's own advice for that key, e.g. "use a smaller
 * n"). */
vf_result vf_solver_check_fit(const vf_gpu *gpu, uint64_t need, uint64_t largest, const char *key, const char *what,
                              const char *fix, const char **key_out, char *err, size_t cap);

/** After a create that failed with res: VF_ERR_TOO_LARGE with err (cap
 * bytes) "KEY: WHAT need ... : GPU cannot allocate it: FIX" when res says
 * the device memory ran out, else res unchanged (key, what, fix and key_out
 * as for vf_solver_check_fit). */
vf_result vf_solver_alloc_failed(const vf_gpu *gpu, vf_result res, uint64_t need, const char *key, const char *what,
                                 const char *fix, const char **key_out, char *err, size_t cap);

/** Defines vf_<fam>_family for a family whose typed create is
 * vf_<fam>_create(gpu, desc, type **out, key, err, cap) and whose vf_solver
 * is vf_<fam>_solver(type *). */
#define VF_SOLVER_FAMILY_TYPED(fam, type)                                                                              \
    static vf_result fam##_family_create(vf_gpu *gpu, const void *desc, vf_solver **out, const char **key, char *err, \
                                         size_t cap)                                                                   \
    {                                                                                                                  \
        type *x = NULL;                                                                                                \
        vf_result res = vf_##fam##_create(gpu, desc, &x, key, err, cap);                                               \
        *out = vf_##fam##_solver(x);                                                                                   \
        return res;                                                                                                    \
    }                                                                                                                  \
    const vf_solver_family vf_##fam##_family = {.name = #fam, .create = fam##_family_create};

/** Creates a solver of family from desc (the family's desc type; a zeroed
 * desc means the family's defaults where it has them). On success *out owns
 * every GPU buffer (destroy with vf_solver_destroy); err gets a one-line
 * reason for VF_ERR_INVALID_ARG and VF_ERR_TOO_LARGE (may be NULL when cap
 * is 0), and *key (key may be NULL) the key that line names first, or NULL
 * when it names none. */
vf_result vf_solver_create(vf_gpu *gpu, const vf_solver_family *family, const void *desc, vf_solver **out,
                           const char **key, char *err, size_t cap);

/** Records the frame, or its next part when s->part_substeps > 0 (see the
 * top of this file): vt->part_begin, then in the first part vt->frame_begin,
 * the substeps, and after the last substep vt->frame_end. Sets s->part_more
 * when the frame needs another call. Never waits on the GPU. */
vf_result vf_solver_record_frame(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof);

/** After the submit of the frame's last part: counts the frame and its
 * substeps, then vt->frame_done. */
vf_result vf_solver_frame_done(vf_solver *s);

/** Runs the family's guards (vt->check; VF_OK when it has none); when they
 * pass, the state is the last good one (its frame and time noted here).
 * msg gets a one-line reason on failure. */
vf_result vf_solver_check(vf_solver *s, char *msg, size_t cap);

/** Writes the last good state (see vf_solver_check) into dir like an export
 * of frame number index, and sets *frame and *time to its frame count and
 * simulated time. VF_ERR_UNSUPPORTED when no check has passed or the family
 * keeps no state. */
vf_result vf_solver_export_last_good(vf_solver *s, const char *dir, uint32_t index, uint64_t *frame, double *time);

/** Destroys a solver through its vtable; accepts NULL and *s == NULL. */
void vf_solver_destroy(vf_solver **s);

#endif
