/* gpu_profiler: GPU timestamps around named passes, reported in milliseconds.
 *
 * Per frame slot: vf_profiler_reset() at the start of the command buffer,
 * vf_profiler_begin()/vf_profiler_end() around each pass, and after the
 * slot's fence vf_profiler_collect() sums the time of every name.
 *
 * Compute passes use vf_profiler_begin_compute/end_compute: on CPU devices
 * (lavapipe) they precede the timestamp with an execution barrier, because
 * llvmpipe writes a timestamp without waiting for compute work still running
 * on its thread pool, so a pass's time would otherwise land in whichever later
 * scope holds the next barrier. GPUs wait as the spec says and get no extra
 * barrier. Scopes inside a render pass instance use the plain begin/end. */
#ifndef VF_GPU_PROFILER_H
#define VF_GPU_PROFILER_H

#include <stddef.h>

#include "gpu_context.h"

#define VF_PASS_NAME_MAX 32

typedef struct vf_pass_time {
    char name[VF_PASS_NAME_MAX];
    double ms;      /* summed over the scopes of that name in the frame */
    uint32_t count; /* how many scopes had that name */
} vf_pass_time;

/** Zeroed: 256 scopes per slot, 2 slots. A slot grows when a frame asks for
 * more (vf_profiler_reset), up to 65536 scopes. */
typedef struct vf_profiler_desc {
    uint32_t max_scopes;
    uint32_t slots;
} vf_profiler_desc;

typedef struct vf_profiler vf_profiler;

/** Creates a profiler. desc may be NULL. Works (reporting zeros) on a queue
 * without timestamps; vf_profiler_supported() says which. */
vf_result vf_profiler_create(vf_gpu *gpu, const vf_profiler_desc *desc, vf_profiler **out);
/** Destroys a profiler; accepts NULL. */
void vf_profiler_destroy(vf_profiler **prof);
/** True when the device writes timestamps on this queue. */
bool vf_profiler_supported(const vf_profiler *prof);
/** Records the reset of a slot's queries and makes it current. Must be
 * recorded outside a render pass, before any begin/end of this slot, once the
 * slot's earlier submit has completed (as after vf_frames_begin of that slot)
 * and been collected. When the slot's last recording asked for more scopes
 * than it held, the slot first grows to hold them (doubling, up to 65536;
 * on failure it stays as it was), so a frame with more passes than
 * max_scopes is timed whole from its slot's next use on. */
void vf_profiler_reset(vf_profiler *prof, VkCommandBuffer cmd, uint32_t slot);
/** Scopes vf_profiler_begin refused since the slot's last reset because the
 * slot was full: their passes, and the later ones, are missing from what
 * vf_profiler_collect reports for it. */
uint32_t vf_profiler_dropped(const vf_profiler *prof, uint32_t slot);
/** Writes the start timestamp of a named pass (the name is copied, truncated
 * to 31 bytes). Returns the scope id for vf_profiler_end, or UINT32_MAX when
 * the slot is full (then end ignores it). */
uint32_t vf_profiler_begin(vf_profiler *prof, VkCommandBuffer cmd, const char *name);
/** Writes the end timestamp of a scope. */
void vf_profiler_end(vf_profiler *prof, VkCommandBuffer cmd, uint32_t scope);
/** vf_profiler_begin for work outside a render pass instance (compute, the
 * whole of a solver's frame): on CPU devices it first records an execution
 * barrier so the timestamp follows the earlier work. prof may be NULL
 * (returns UINT32_MAX). */
uint32_t vf_profiler_begin_compute(vf_profiler *prof, VkCommandBuffer cmd, const char *name);
/** vf_profiler_end for a scope opened with vf_profiler_begin_compute. prof may be NULL. */
void vf_profiler_end_compute(vf_profiler *prof, VkCommandBuffer cmd, uint32_t scope);

/** Reads the slot's timestamps (the slot's submit must have completed) and
 * fills out with one entry per distinct name, in first-seen order. */
vf_result vf_profiler_collect(vf_profiler *prof, uint32_t slot, vf_pass_time *out, uint32_t max, uint32_t *count);

#define VF_PASS_STATS_MAX 64

/** Per-pass totals over many frames (e.g. a run or a benchmark size). */
typedef struct vf_pass_stats {
    vf_pass_time pass[VF_PASS_STATS_MAX]; /* ms and count summed over the frames */
    uint32_t pass_count;
    uint64_t frames;
} vf_pass_stats;

/** Adds one frame's collected pass times to the totals. */
void vf_pass_stats_add(vf_pass_stats *st, const vf_pass_time *t, uint32_t n);

/** Collects a slot (vf_profiler_collect) straight into the totals. */
vf_result vf_profiler_collect_into(vf_profiler *prof, uint32_t slot, vf_pass_stats *st);

/** vf_profiler_collect_into for a frame split into several submits (one
 * slot per part): the pass times are added, but the frame count only grows
 * when ends_frame is true, so means stay per frame (the parts summed). */
vf_result vf_profiler_collect_part(vf_profiler *prof, uint32_t slot, vf_pass_stats *st, bool ends_frame);

/** Writes the distinct pass names recorded into a slot since its last reset,
 * in first-seen order, as "a, b, c" into buf (truncated to cap; "" when none).
 * Host-side only: works after a device loss. */
void vf_profiler_slot_passes(const vf_profiler *prof, uint32_t slot, char *buf, size_t cap);

/** Mean milliseconds per frame of pass i. */
double vf_pass_stats_mean(const vf_pass_stats *st, uint32_t i);

/** A named pass for profiles and debuggers: a debug label (where the device
 * has debug utils) and, when prof is not NULL, its timestamps. compute: the
 * pass is outside a render pass instance (vf_profiler_begin_compute), else
 * inside one (vf_profiler_begin). Returns the scope for vf_scope_end. */
uint32_t vf_scope_begin(const vf_gpu *gpu, vf_profiler *prof, VkCommandBuffer cmd, const char *name, bool compute);
/** Ends a scope of vf_scope_begin (the same gpu, prof and compute). */
void vf_scope_end(const vf_gpu *gpu, vf_profiler *prof, VkCommandBuffer cmd, uint32_t scope, bool compute);

#endif
