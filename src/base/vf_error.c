#include "vf_error.h"

#include <stdio.h>

static const char *const vf_result_messages[] = {
#define VF_X_MSG(name, msg) msg,
    VF_RESULT_LIST(VF_X_MSG)
#undef VF_X_MSG
};

static const char *const vf_result_names[] = {
#define VF_X_NAME(name, msg) #name,
    VF_RESULT_LIST(VF_X_NAME)
#undef VF_X_NAME
};

const char *vf_result_message(vf_result r)
{
    if ((unsigned)r >= VF_RESULT_COUNT)
        return "unknown error";
    return vf_result_messages[r];
}

const char *vf_result_name(vf_result r)
{
    if ((unsigned)r >= VF_RESULT_COUNT)
        return "VF_ERR_UNKNOWN";
    return vf_result_names[r];
}

const char *vf_vk_result_name(VkResult r)
{
    switch (r) {
#define VF_VK_CASE(x) case x: return #x;
    VF_VK_CASE(VK_SUCCESS)
    VF_VK_CASE(VK_NOT_READY)
    VF_VK_CASE(VK_TIMEOUT)
    VF_VK_CASE(VK_EVENT_SET)
    VF_VK_CASE(VK_EVENT_RESET)
    VF_VK_CASE(VK_INCOMPLETE)
    VF_VK_CASE(VK_SUBOPTIMAL_KHR)
    VF_VK_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    VF_VK_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    VF_VK_CASE(VK_ERROR_INITIALIZATION_FAILED)
    VF_VK_CASE(VK_ERROR_DEVICE_LOST)
    VF_VK_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    VF_VK_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    VF_VK_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    VF_VK_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    VF_VK_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    VF_VK_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    VF_VK_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    VF_VK_CASE(VK_ERROR_FRAGMENTED_POOL)
    VF_VK_CASE(VK_ERROR_UNKNOWN)
    VF_VK_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    VF_VK_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    VF_VK_CASE(VK_ERROR_FRAGMENTATION)
    VF_VK_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    VF_VK_CASE(VK_PIPELINE_COMPILE_REQUIRED)
    VF_VK_CASE(VK_ERROR_SURFACE_LOST_KHR)
    VF_VK_CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    VF_VK_CASE(VK_ERROR_OUT_OF_DATE_KHR)
    VF_VK_CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
    VF_VK_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
#undef VF_VK_CASE
    default: return "VK_RESULT_UNKNOWN";
    }
}

vf_result vf_result_from_vk(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return VF_OK;
    case VK_ERROR_OUT_OF_HOST_MEMORY: return VF_ERR_NO_MEMORY;
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return VF_ERR_OUT_OF_DEVICE_MEMORY;
    case VK_ERROR_DEVICE_LOST: return VF_ERR_DEVICE_LOST;
    case VK_ERROR_LAYER_NOT_PRESENT: return VF_ERR_NO_VALIDATION;
    case VK_ERROR_INCOMPATIBLE_DRIVER: return VF_ERR_NO_DEVICE;
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return VF_ERR_UNSUPPORTED;
    default: return r >= 0 ? VF_OK : VF_ERR_VULKAN;
    }
}

void vf_log_vk_failure(const char *call, VkResult r, const char *file, int line)
{
    fprintf(stderr, "vulkan: %s failed: %s (%d) at %s:%d\n", call, vf_vk_result_name(r), (int)r, file, line);
}
