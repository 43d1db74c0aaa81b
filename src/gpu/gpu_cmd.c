#include "gpu_cmd.h"

#include <stdlib.h>

#include "gpu_counters.h"

vf_result vf_cmd_oneshot_begin(vf_gpu *gpu, VkCommandBuffer *cmd)
{
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = gpu->oneshot_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    vf_result res = VF_VK(vkAllocateCommandBuffers(gpu->device, &ai, cmd));
    if (res != VF_OK)
        return res;
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if ((res = VF_VK(vkBeginCommandBuffer(*cmd, &bi))) != VF_OK) {
        vkFreeCommandBuffers(gpu->device, gpu->oneshot_pool, 1, cmd);
        *cmd = VK_NULL_HANDLE;
    }
    return res;
}

void vf_cmd_oneshot_abandon(vf_gpu *gpu, VkCommandBuffer cmd)
{
    if (cmd)
        vkFreeCommandBuffers(gpu->device, gpu->oneshot_pool, 1, &cmd);
}

vf_result vf_cmd_oneshot_submit(vf_gpu *gpu, VkCommandBuffer cmd)
{
    VkFence fence = VK_NULL_HANDLE;
    vf_result res = VF_VK(vkEndCommandBuffer(cmd));
    if (res != VF_OK)
        goto fail_cmd;
    if ((res = gpu->deferred_error) != VF_OK) /* a bind failed while recording */
        goto fail_cmd;
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((res = VF_VK(vkCreateFence(gpu->device, &fci, NULL, &fence))) != VF_OK)
        goto fail_cmd;
    VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cmd};
    VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2, .commandBufferInfoCount = 1, .pCommandBufferInfos = &cbi};
    if ((res = VF_VK(vkQueueSubmit2(gpu->queue, 1, &si, fence))) != VF_OK)
        goto fail_fence;
    vf_count_submit(gpu);
    res = VF_VK(vkWaitForFences(gpu->device, 1, &fence, VK_TRUE, UINT64_MAX));
fail_fence:
    vkDestroyFence(gpu->device, fence, NULL);
fail_cmd:
    vkFreeCommandBuffers(gpu->device, gpu->oneshot_pool, 1, &cmd);
    return res;
}

void vf_cmd_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                    VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkMemoryBarrier2 mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
    };
    VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
    vkCmdPipelineBarrier2(cmd, &di);
}

void vf_cmd_barrier_compute(VkCommandBuffer cmd)
{
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

void vf_cmd_barrier_on(const vf_gpu *gpu, VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage,
                       VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    vf_cmd_barrier(cmd, src_stage, src_access, dst_stage, dst_access);
    vf_count_barriers(gpu, 1);
}

void vf_cmd_barrier_compute_on(const vf_gpu *gpu, VkCommandBuffer cmd)
{
    vf_cmd_barrier_compute(cmd);
    vf_count_barriers(gpu, 1);
}

void vf_cmd_barrier_transfer_to_compute(VkCommandBuffer cmd)
{
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
}

void vf_cmd_barrier_compute_to_transfer(VkCommandBuffer cmd)
{
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
}

void vf_cmd_barrier_frame_start(VkCommandBuffer cmd)
{
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT,
                   VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
}

void vf_cmd_label_begin(const vf_gpu *gpu, VkCommandBuffer cmd, const char *name)
{
    if (!gpu->debug_utils || !vkCmdBeginDebugUtilsLabelEXT)
        return;
    VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = name};
    vkCmdBeginDebugUtilsLabelEXT(cmd, &l);
}

void vf_cmd_label_end(const vf_gpu *gpu, VkCommandBuffer cmd)
{
    if (gpu->debug_utils && vkCmdEndDebugUtilsLabelEXT)
        vkCmdEndDebugUtilsLabelEXT(cmd);
}

void vf_frames_destroy(vf_frames **pf)
{
    if (!pf || !*pf)
        return;
    vf_frames *f = *pf;
    VkDevice dev = f->gpu->device;
    for (uint32_t i = 0; i < f->count; i++) {
        if (f->fence[i]) {
            if (f->submitted[i])
                vkWaitForFences(dev, 1, &f->fence[i], VK_TRUE, UINT64_MAX);
            vkDestroyFence(dev, f->fence[i], NULL);
        }
    }
    if (f->pool)
        vkDestroyCommandPool(dev, f->pool, NULL);
    free(f);
    *pf = NULL;
}

vf_result vf_frames_create(vf_gpu *gpu, const vf_frames_desc *desc, vf_frames **out)
{
    *out = NULL;
    uint32_t count = desc && desc->count ? desc->count : 2;
    if (count > VF_MAX_FRAMES)
        return VF_ERR_INVALID_ARG;
    vf_frames *f;
    VF_NEW_OR_RETURN(f);
    f->gpu = gpu;
    f->count = count;
    f->current = count - 1;
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = gpu->queue_family,
    };
    vf_result res = VF_VK(vkCreateCommandPool(gpu->device, &pci, NULL, &f->pool));
    if (res != VF_OK)
        goto fail;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)f->pool, desc && desc->name ? desc->name : "frame command pool");
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = f->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = count,
    };
    if ((res = VF_VK(vkAllocateCommandBuffers(gpu->device, &ai, f->cmd))) != VF_OK)
        goto fail;
    for (uint32_t i = 0; i < count; i++) {
        VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        if ((res = VF_VK(vkCreateFence(gpu->device, &fci, NULL, &f->fence[i]))) != VF_OK)
            goto fail;
        vf_gpu_name(gpu, VK_OBJECT_TYPE_FENCE, (uint64_t)f->fence[i], "frame fence");
        vf_gpu_name(gpu, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)f->cmd[i], "frame command buffer");
    }
    *out = f;
    return VF_OK;
fail:
    vf_frames_destroy(&f);
    return res;
}

vf_result vf_frames_wait(vf_frames *f, uint32_t slot)
{
    if (slot >= f->count || !f->submitted[slot])
        return VF_OK;
    vf_result res = VF_VK(vkWaitForFences(f->gpu->device, 1, &f->fence[slot], VK_TRUE, UINT64_MAX));
    if (res == VF_OK) {
        res = VF_VK(vkResetFences(f->gpu->device, 1, &f->fence[slot]));
        f->submitted[slot] = false;
    }
    return res;
}

vf_result vf_frames_begin(vf_frames *f, VkCommandBuffer *cmd, uint32_t *slot)
{
    f->current = (f->current + 1) % f->count;
    vf_result res = vf_frames_wait(f, f->current);
    if (res != VF_OK)
        return res;
    if ((res = VF_VK(vkResetCommandBuffer(f->cmd[f->current], 0))) != VF_OK)
        return res;
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if ((res = VF_VK(vkBeginCommandBuffer(f->cmd[f->current], &bi))) != VF_OK)
        return res;
    *cmd = f->cmd[f->current];
    if (slot)
        *slot = f->current;
    return VF_OK;
}

vf_result vf_frames_submit(vf_frames *f, VkSemaphore wait, VkPipelineStageFlags2 wait_stage, VkSemaphore signal)
{
    uint32_t s = f->current;
    vf_result res = VF_VK(vkEndCommandBuffer(f->cmd[s]));
    if (res != VF_OK)
        return res;
    if (f->gpu->deferred_error != VF_OK) /* a bind failed while recording */
        return f->gpu->deferred_error;
    /* test-only fault injection (VKFLUID_FAULT, see gpu_context.h) */
    if (++f->gpu->frame_submits == f->gpu->fault_submit && f->gpu->fault != VF_OK)
        return f->gpu->fault;
    VkSemaphoreSubmitInfo wi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = wait, .stageMask = wait_stage};
    VkSemaphoreSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO, .semaphore = signal,
                                .stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
    VkCommandBufferSubmitInfo cbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = f->cmd[s]};
    VkSubmitInfo2 sub = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
        .waitSemaphoreInfoCount = wait ? 1u : 0u,
        .pWaitSemaphoreInfos = &wi,
        .commandBufferInfoCount = 1,
        .pCommandBufferInfos = &cbi,
        .signalSemaphoreInfoCount = signal ? 1u : 0u,
        .pSignalSemaphoreInfos = &si,
    };
    if ((res = VF_VK(vkQueueSubmit2(f->gpu->queue, 1, &sub, f->fence[s]))) != VF_OK)
        return res;
    vf_count_submit(f->gpu);
    f->submitted[s] = true;
    return VF_OK;
}
