/* gpu_cmd: command buffers (one-shot and per-frame ring), barriers, labels. */
#ifndef VF_GPU_CMD_H
#define VF_GPU_CMD_H

#include "gpu_context.h"

/** Allocates and begins a one-shot command buffer from the context's pool. */
vf_result vf_cmd_oneshot_begin(vf_gpu *gpu, VkCommandBuffer *cmd);

/** Ends, submits and waits for a one-shot command buffer, then frees it.
 * Returns VF_ERR_DEVICE_LOST when the device was lost. */
vf_result vf_cmd_oneshot_submit(vf_gpu *gpu, VkCommandBuffer cmd);

/** Frees a one-shot command buffer that will not be submitted (error paths). */
void vf_cmd_oneshot_abandon(vf_gpu *gpu, VkCommandBuffer cmd);

/** Records a global memory barrier (synchronization2). */
void vf_cmd_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

/** Compute writes -> compute reads and writes: the barrier between two
 * dependent compute passes. */
void vf_cmd_barrier_compute(VkCommandBuffer cmd);

/** vf_cmd_barrier, counted in gpu's work counters when attached
 * (gpu_counters.h); gpu may be NULL (not counted). */
void vf_cmd_barrier_on(const vf_gpu *gpu, VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage,
                       VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

/** vf_cmd_barrier_compute, counted like vf_cmd_barrier_on. */
void vf_cmd_barrier_compute_on(const vf_gpu *gpu, VkCommandBuffer cmd);

/** Transfer writes (fill, copy) -> compute reads and writes. */
void vf_cmd_barrier_transfer_to_compute(VkCommandBuffer cmd);

/** Compute writes -> transfer reads (copy to a readback buffer). */
void vf_cmd_barrier_compute_to_transfer(VkCommandBuffer cmd);

/** The first barrier of every frame's command buffer: all earlier work
 * (the previous frame's simulation writes and render reads) completes and
 * is visible before this frame's commands read or overwrite anything. */
void vf_cmd_barrier_frame_start(VkCommandBuffer cmd);

/** Opens a debug label region (no-op without debug utils). */
void vf_cmd_label_begin(const vf_gpu *gpu, VkCommandBuffer cmd, const char *name);
/** Closes the region opened by vf_cmd_label_begin. */
void vf_cmd_label_end(const vf_gpu *gpu, VkCommandBuffer cmd);

#define VF_MAX_FRAMES 4

/** A ring of per-frame command buffers with their fences (frames in flight). */
typedef struct vf_frames {
    vf_gpu *gpu;
    uint32_t count, current;
    VkCommandPool pool;
    VkCommandBuffer cmd[VF_MAX_FRAMES];
    VkFence fence[VF_MAX_FRAMES];
    bool submitted[VF_MAX_FRAMES];
} vf_frames;

/** Zeroed desc: 2 frames in flight. */
typedef struct vf_frames_desc {
    uint32_t count; /* 1..VF_MAX_FRAMES */
    const char *name;
} vf_frames_desc;

/** Creates a frame ring. desc may be NULL. */
vf_result vf_frames_create(vf_gpu *gpu, const vf_frames_desc *desc, vf_frames **out);
/** Waits for all frames and destroys the ring; accepts NULL. */
void vf_frames_destroy(vf_frames **frames);
/** Advances to the next slot, waits for its previous submit, resets and begins
 * its command buffer. *slot receives the slot index (for per-slot resources). */
vf_result vf_frames_begin(vf_frames *frames, VkCommandBuffer *cmd, uint32_t *slot);
/** Ends and submits the current slot's command buffer. wait/signal may be
 * VK_NULL_HANDLE (no swapchain). With test fault injection (VKFLUID_FAULT,
 * gpu_context.h) the chosen submit returns the injected error unsubmitted. */
vf_result vf_frames_submit(vf_frames *frames, VkSemaphore wait, VkPipelineStageFlags2 wait_stage, VkSemaphore signal);
/** Waits until the given slot's last submit finished (e.g. before reading its
 * timestamps or a readback). */
vf_result vf_frames_wait(vf_frames *frames, uint32_t slot);

#endif
