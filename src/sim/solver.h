/* solver: the one interface through which commands (run, capture, bench,
 * view) drive every solver family (grid, height, sph).
 *
 * A scene is a named preset of a family with parameters (params.h). Creating
 * a scene's solver allocates all its GPU buffers; per frame the command records
 * solver->vt->record_frame() into its command buffer (the solver substeps to
 * advance exactly frame_dt of simulated time), submits, and only when asked
 * reads anything back (export, guards).
 *
 * Frames in parts: a long frame (many substeps) may be recorded into several
 * command buffers, each submitted on its own, so no single submit runs for
 * long (a GPU watchdog resets the device after ~2 s on some systems). The
 * caller sets s->part_substeps (at most that many substeps per part; 0, the
 * default, records the whole frame in one call) and calls record_frame again,
 * with a new command buffer after submitting the previous one, for as long as
 * it sets s->part_more; frame_done follows the last part only. The parts
 * record exactly the commands of the one-part frame, so results are
 * bit-identical. vt->submit_substeps is the family's recommended limit
 * (`vkfluid run --substeps-per-submit` overrides it). Callers that submit
 * once per frame (viewer, bench) leave part_substeps at 0. */
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

typedef struct vf_solver_vtable {
    const char *family; /* "grid", "height", "sph" */
    /** Frees everything; the GPU must be idle. */
    void (*destroy)(vf_solver *s);
    /** Records one frame: enough substeps to advance s->frame_dt of simulated
     * time, each pass wrapped in vf_profiler_begin/end when prof is not NULL.
     * With s->part_substeps > 0 it records at most that many substeps (one
     * part) and sets s->part_more when the frame needs another call (see the
     * top of this file); otherwise it clears s->part_more. Must not wait on
     * the GPU or read back. */
    vf_result (*record_frame)(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof);
    /** Called right after the frame's command buffer was submitted (it may
     * still run): host bookkeeping such as time, frames and step counters.
     * Must not wait on the GPU. May be NULL. */
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
     * count, volume). On failure returns VF_ERR_NUMERIC and a one-line reason in
     * msg. May be NULL. */
    vf_result (*check)(vf_solver *s, char *msg, size_t cap);
    /** Applies a pointer interaction for the next recorded frame (no GPU
     * work here: the state is used by record_frame). May be NULL. */
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
    /** Writes the last good state (the host copy kept when check last passed,
     * or the initial state where the family keeps one) into dir like
     * export_frame, without touching the GPU (it may be lost). Sets *frame and
     * *time to the frame count and simulated time of that state. Returns
     * VF_ERR_UNSUPPORTED when no good state is kept. May be NULL. */
    vf_result (*export_last_good)(vf_solver *s, const char *dir, uint32_t index, uint64_t *frame, double *time);
    /** Recommended substeps per submit for this family (see the top of this
     * file); 0: no limit (a frame is one submit). */
    uint32_t submit_substeps;
} vf_solver_vtable;

struct vf_solver {
    const vf_solver_vtable *vt;
    vf_gpu *gpu;
    double frame_dt;     /* simulated seconds per frame */
    double time;         /* simulated seconds so far (updated by frame_done) */
    uint64_t steps;      /* substeps so far */
    uint64_t frames;     /* frames so far */
    uint32_t part_substeps; /* set by the caller: substeps per recorded part, 0 = whole frames */
    bool part_more;      /* set by record_frame: the frame needs another part */
    uint32_t frame_substeps; /* set by record_frame: the substeps of the frame being recorded */
    vf_vti_compression vti_compression; /* set by the caller: how export_frame stores .vti arrays (0: raw) */
};

/** A built-in scene: a family preset with its parameter table. */
typedef struct vf_scene_info {
    const char *name;        /* "smoke", "cavity", "dam-break", ... */
    const char *family;      /* "grid", "height", "sph" */
    const char *description; /* one line for `vkfluid scenes` */
    const vf_param_def *params;
    size_t param_count;
    size_t desc_size;        /* bytes of the family's desc struct */
    size_t shapes_offset;    /* where the desc holds a vf_scene_shapes (scene files' shape lists); 0: none */
    /** Fills desc with this scene's defaults (table defaults plus preset values). */
    void (*defaults)(void *desc);
    /** Checks cross-key constraints (after every --set); one-line reason in err. */
    vf_result (*validate)(const void *desc, char *err, size_t cap);
    /** Creates the solver on the GPU from a validated desc. err gets a
     * one-line reason for VF_ERR_TOO_LARGE and similar. */
    vf_result (*create)(vf_gpu *gpu, const void *desc, vf_solver **out, char *err, size_t cap);
} vf_scene_info;

/** Destroys a solver through its vtable; accepts NULL and *s == NULL. */
void vf_solver_destroy(vf_solver **s);

#endif
