/* sph_private.h: the SPH solver's state and the recording helpers its
 * methods share (solver_sph.c: the solver, its binning and the weakly
 * compressible passes; sph_pbf.c: position-based fluids; sph_dfsph.c:
 * divergence-free SPH). Private to src/sim/sph. */
#ifndef VF_SPH_PRIVATE_H
#define VF_SPH_PRIVATE_H

#include "gpu_buffer.h"
#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "gpu_pipeline.h"
#include "sim_pass.h"
#include "solver_sph.h"

/* The most pipelines of the position-based fluid method (pbf_passes.def). */
#define SPH_PBF_MAX_PIPES 8
/* The pipelines of the divergence-free method (dfsph_passes.def). */
#define SPH_DFSPH_MAX_PIPES 16

/* The most pipelines of the solver's own table (sph_passes.def). */
#define SPH_MAX_PIPES 16

struct vf_sph {
    vf_gpu *gpu;
    vf_sph_desc desc; /* pointers cleared */
    vf_sph_params prm;
    double dt;
    uint32_t capacity, cells, initial_count;
    int cur; /* which of the double buffers holds the current particles */

    vf_buffer *params, *state, *dispatch, *start, *counts, *sums, *cell, *slot, *keys, *dens, *acc, *pattern;
    vf_buffer *nb_x, *nb_v; /* the neighbour records sph_density writes for sph_forces (shared_sph.h) */
    vf_buffer *nb_bits;     /* the neighbour bits sph_density writes for sph_forces (shared_sph.h) */
    vf_buffer *pos[2], *vel[2], *id[2];
    vf_buffer *iter; /* pbf: the positions of the constraint iterations (vec4; NULL for the other methods) */
    vf_pipeline *pipe[SPH_MAX_PIPES];
    vf_pipeline *pbf[SPH_PBF_MAX_PIPES]; /* VF_SPH_METHOD_PBF */
    vf_pipeline *dfsph[SPH_DFSPH_MAX_PIPES]; /* VF_SPH_METHOD_DFSPH */
    /* dfsph: the control block and iteration arguments (vf_dfsph_ctl), the
     * solves' summed pressures (vec2, reordered with the particles), this
     * iteration's kappa (float), the error sums (float per workgroup) */
    vf_buffer *ctl, *warm[2], *kappa, *partial;
    vf_buffer *gate;         /* non-NULL: the binning dispatches by this control block's arguments */
    uint32_t dfsph_substeps; /* substeps a frame records */
    uint32_t left;           /* of them, not yet recorded in this frame */
    bool advect_binned;      /* the last substep's advect binned the particles */
    bool texel; /* density, forces, drift and scan read through texel views (VF_SPH_SPEC_TEXEL) */

    vf_sph_forces_push interact;
    double emit_interval, emit_timer, emit_lead; /* emit_lead: m along the jet of the newest layer due */
    double drifted;   /* > 0: this step's drift (of this size) was recorded with the last step's forces */
    bool drift_binned; /* and it binned the particles it moved */
    bool speed_odd;    /* the next pass that keeps the largest speed uses max_speed_bits_odd */
};

/** The binding of a whole buffer. */
static inline vf_binding sph_bind(vf_buffer *b)
{
    return vf_bind_buffer(b);
}

/** The binding of a buffer's first word (a slot a pass binds but does not
 * access with its flags). */
static inline vf_binding sph_bind_word(vf_buffer *b)
{
    return (vf_binding){.buffer = b, .range = 4};
}

/** The barrier after a pass: compute writes before compute reads and writes
 * and indirect arguments. */
void sph_barrier(const vf_sph *s, VkCommandBuffer cmd);

/** Records pipe over the particles in pass's profiler scope (prof may be
 * NULL): an indirect dispatch (the count is on the GPU), then the barrier. */
void sph_record_particles(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                          vf_pipeline *pipe, const vf_binding *b, const void *push);
/** As sph_record_particles, dispatched by the arguments at offset of args. */
void sph_record_particles_at(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                             vf_pipeline *pipe, const vf_binding *b, const void *push, vf_buffer *args,
                             VkDeviceSize offset);

/** The binning (scan, sort, reorder; with binned false also the counting
 * pass) of the current particles; the current buffers flip. */
vf_result sph_record_binning(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, bool binned);

/** Appends `layers` nozzle layers, 1 to VF_SPH_EMIT_LAYERS_MAX (one pass
 * and the args update). */
void sph_record_emit(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t layers);
/** As sph_record_emit, the nozzle pass dispatched by the arguments at
 * offset of args (0 workgroups: no layer), the layers those of the state
 * (vf_sph_state.emit_layers, which dfsph_step sets). */
void sph_record_emit_at(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, vf_buffer *args, VkDeviceSize offset);

/** The nozzle layers a step of dt emits, 0 to VF_SPH_EMIT_LAYERS_MAX: those
 * whose time came in it (advances the emitter's clock and sets emit_lead;
 * a longer backlog is dropped). */
uint32_t sph_emit_step(vf_sph *s, double dt);

/** Whether the step after one of dt will emit (the clock unchanged). */
bool sph_emit_next(const vf_sph *s, double dt);

/** PBF: creates the method's pipelines (spec: the solver's specialization
 * constants, spec_count of them). */
vf_result sph_pbf_create(vf_sph *s, const uint32_t *spec, uint32_t spec_count);
/** PBF: destroys them. */
void sph_pbf_destroy(vf_sph *s);
/** PBF: records one substep of dt (sph_record_substep's contract). */
vf_result sph_pbf_record_substep(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, double dt, bool finish);
/** DFSPH: creates the method's pipelines. */
vf_result sph_dfsph_create(vf_sph *s, const uint32_t *spec, uint32_t spec_count);
/** DFSPH: destroys them. */
void sph_dfsph_destroy(vf_sph *s);
/** DFSPH: records what a frame starts with (its time back to 0) and resets
 * the count of the frame's substeps. */
void sph_dfsph_frame_begin(vf_sph *s, VkCommandBuffer cmd);
/** DFSPH: records one of the frame's substeps (at most s->dfsph_substeps a
 * frame, else VF_ERR_INVALID_ARG); the GPU decides whether it runs. */
vf_result sph_dfsph_record_substep(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, bool finish);
/** DFSPH: reads the control block back (waits for the GPU). */
vf_result sph_dfsph_read_ctl(vf_sph *s, vf_dfsph_ctl *out);

#endif
