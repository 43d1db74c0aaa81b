/* gpu_check: the VkResult side of vf_error: result names, the mapping to
 * vf_result, and the one Vulkan check macro (VF_VK logs a failed call and
 * maps its VkResult to a vf_result). */
#ifndef VF_GPU_CHECK_H
#define VF_GPU_CHECK_H

#include <volk.h>

#include "vf_error.h"

/** Returns the name of a VkResult, e.g. "VK_ERROR_DEVICE_LOST" (never NULL). */
const char *vf_vk_result_name(VkResult r);

/** Maps a failed VkResult to the closest vf_result. */
vf_result vf_result_from_vk(VkResult r);

/** Logs a failed Vulkan call to stderr: the call text, the result name and file:line. */
void vf_log_vk_failure(const char *call, VkResult r, const char *file, int line);

static inline vf_result vf__vk_try(VkResult r, const char *call, const char *file, int line)
{
    if (r < 0) {
        vf_log_vk_failure(call, r, file, line);
        return vf_result_from_vk(r);
    }
    return VF_OK;
}

/** Evaluates a Vulkan call; when it fails (negative VkResult) logs it with its
 * result name and file:line. Evaluates to VF_OK or the matching vf_result
 * (VF_ERR_OUT_OF_DEVICE_MEMORY, VF_ERR_DEVICE_LOST, ...). */
#define VF_VK(call) vf__vk_try((call), #call, __FILE__, __LINE__)

#endif
