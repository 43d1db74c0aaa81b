/* gpu_scan: exclusive prefix sum over uint32 arrays on the GPU.
 *
 * Multi-level: each workgroup scans a block of VF_SCAN_BLOCK elements and
 * writes its total; the totals are scanned recursively and added back. Arrays
 * larger than the device's maxStorageBufferRange are processed in chunks, so
 * any length up to max_count works. Correct for any subgroup size. */
#ifndef VF_GPU_SCAN_H
#define VF_GPU_SCAN_H

#include "gpu_pipeline.h"

/** max_count: the largest length this scanner will be asked for (> 0). */
typedef struct vf_scan_desc {
    uint64_t max_count;
} vf_scan_desc;

typedef struct vf_scan vf_scan;

/** Creates the scanner and its scratch buffer for block sums. */
vf_result vf_scan_create(vf_gpu *gpu, const vf_scan_desc *desc, vf_scan **out);
/** Destroys the scanner; accepts NULL. */
void vf_scan_destroy(vf_scan **scan);
/** Records an in-place exclusive scan of count uint32 at byte offset of buf
 * (offset a multiple of 256). The caller records a barrier that makes its
 * writes visible to compute shaders before, and one after for its readers
 * (vf_cmd_barrier_compute). Returns VF_ERR_INVALID_ARG when count is 0 or
 * above max_count or the range exceeds the buffer. */
vf_result vf_scan_record(vf_scan *scan, VkCommandBuffer cmd, vf_buffer *buf, VkDeviceSize offset, uint64_t count);
/** Scans host data with the GPU (one-shot submit): uploads, scans, reads back.
 * For tests and the self-test; not for the hot path. */
vf_result vf_scan_run(vf_scan *scan, uint32_t *data, uint64_t count);
/** CPU reference: exclusive scan of count values (wrapping uint32 arithmetic). */
void vf_scan_cpu(const uint32_t *in, uint32_t *out, uint64_t count);

#endif
