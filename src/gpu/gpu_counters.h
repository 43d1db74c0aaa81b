/* gpu_counters: work accounting of recorded commands.
 *
 * A vf_gpu_counters object counts what the recording helpers record while it
 * is attached to a context (vf_gpu_counters_attach): compute dispatches
 * (direct and indirect), draws, pipeline barriers and queue submits, and per
 * compute kernel the bytes of the storage and uniform buffers its dispatches
 * bind (each bound range counted once per dispatch: the traffic of a pass that
 * reads or writes every bound element once), and per named draw the same
 * with its attachments. The hooks below are called by
 * vf_cmd_dispatch*, the vf_cmd_barrier* helpers that know their context, the
 * frame ring's submit, and the few places that call vkCmdDraw or
 * vkCmdDispatchIndirect themselves. Nothing is counted while no counters are
 * attached (the hooks test one pointer). Counting never changes what is
 * recorded. */
#ifndef VF_GPU_COUNTERS_H
#define VF_GPU_COUNTERS_H

#include <stdint.h>

#include "gpu_context.h"

#define VF_COUNTERS_MAX_KERNELS 64

/** Per compute kernel or draw pipeline (its debug name): dispatches,
 * draws and bytes. */
typedef struct vf_kernel_count {
    char name[40];
    uint64_t dispatches;
    uint64_t draws;
    uint64_t bytes; /* bound buffer and image bytes summed over its dispatches (draws: with the attachments) */
    bool neighbours; /* it loops over neighbours (vf_compute_desc) */
} vf_kernel_count;

/** The totals since the last reset. */
typedef struct vf_gpu_counters {
    uint64_t dispatches;          /* direct and indirect compute dispatches */
    uint64_t indirect_dispatches; /* of which indirect (bytes unknown: counted as bound) */
    uint64_t draws;
    uint64_t barriers;            /* vkCmdPipelineBarrier2 calls through the helpers */
    uint64_t submits;
    uint64_t bytes;               /* bound bytes of every dispatch */
    uint64_t draw_bytes;          /* bytes of the draws counted with vf_count_draw_pass */
    uint64_t neighbour_passes;    /* dispatches of kernels that loop over neighbours */
    vf_kernel_count kernel[VF_COUNTERS_MAX_KERNELS];
    uint32_t kernel_count;
    uint64_t kernels_dropped;     /* dispatches of kernels beyond VF_COUNTERS_MAX_KERNELS */
} vf_gpu_counters;

/** Zeroes every count. */
void vf_gpu_counters_reset(vf_gpu_counters *c);

/** Attaches c to gpu (c NULL detaches): from now on the hooks count into c.
 * The caller owns c and must detach it before freeing it. */
void vf_gpu_counters_attach(vf_gpu *gpu, vf_gpu_counters *c);

/** Hook: one dispatch of kernel `name` binding `bytes` bytes of buffers;
 * neighbours: the kernel loops over neighbours (a neighbour pass). gpu may
 * be NULL; no-op without attached counters. */
void vf_count_dispatch(const vf_gpu *gpu, const char *name, uint64_t bytes, bool indirect, bool neighbours);
/** Hook: one draw call. gpu may be NULL. */
void vf_count_draw(const vf_gpu *gpu);
/** Hook: one draw call of pipeline `name` touching `bytes` bytes (its bound
 * buffers and images and its attachments, each once). gpu may be NULL. */
void vf_count_draw_pass(const vf_gpu *gpu, const char *name, uint64_t bytes);
/** Hook: `n` pipeline barriers. gpu may be NULL. */
void vf_count_barriers(const vf_gpu *gpu, uint32_t n);
/** Hook: one queue submit. gpu may be NULL. */
void vf_count_submit(const vf_gpu *gpu);

/** The kernel entry of that name; NULL when it was never dispatched. */
const vf_kernel_count *vf_gpu_counters_kernel(const vf_gpu_counters *c, const char *name);

#endif
