/* vf_error: the one error enum of vkfluid and its messages (no Vulkan: the
 * VkResult mapping and the Vulkan check macro are in src/gpu/gpu_check.h).
 *
 * Every fallible function returns a vf_result. Messages are declared once in
 * the X-macro below: lowercase, error first, no full stop. */
#ifndef VF_ERROR_H
#define VF_ERROR_H

#define VF_RESULT_LIST(X)                                                              \
    X(VF_OK, "ok")                                                                     \
    X(VF_ERR_INVALID_ARG, "invalid argument")                                          \
    X(VF_ERR_NO_MEMORY, "out of host memory")                                          \
    X(VF_ERR_NO_LOADER, "no vulkan loader found: install libvulkan1 (apt-get install libvulkan1 mesa-vulkan-drivers)") \
    X(VF_ERR_NO_DEVICE, "no vulkan device found: install a driver (apt-get install mesa-vulkan-drivers for the cpu driver lavapipe)") \
    X(VF_ERR_DEVICE_NOT_FOUND, "no vulkan device matches the --device value")          \
    X(VF_ERR_NO_VALIDATION, "validation requested but VK_LAYER_KHRONOS_validation is missing: install vulkan-validationlayers") \
    X(VF_ERR_UNSUPPORTED, "the device lacks a required vulkan feature")                \
    X(VF_ERR_VULKAN, "vulkan call failed")                                             \
    X(VF_ERR_OUT_OF_DEVICE_MEMORY, "out of device memory")                             \
    X(VF_ERR_TOO_LARGE, "size exceeds a device limit")                                 \
    X(VF_ERR_DEVICE_LOST, "the gpu device was lost (driver reset or crash)")           \
    X(VF_ERR_SHADER_NOT_FOUND, "no embedded shader of that name")                      \
    X(VF_ERR_IO, "file input or output failed")                                        \
    X(VF_ERR_NO_SPACE, "no space left on device")                                      \
    X(VF_ERR_PARSE, "could not parse input")                                           \
    X(VF_ERR_NUMERIC, "the simulation produced a non-finite value")                    \
    X(VF_ERR_NO_DISPLAY, "no display found")                                          \
    X(VF_ERR_MISALIGNED, "a buffer binding offset is not a multiple of minStorageBufferOffsetAlignment (or minUniformBufferOffsetAlignment)") \
    X(VF_ERR_SET_CACHE_FULL, "descriptor set cache full: over 1024 live binding combinations on one pipeline") \
    X(VF_ERR_INTERRUPTED, "interrupted (SIGINT or SIGTERM)")

typedef enum vf_result {
#define VF_X_ENUM(name, msg) name,
    VF_RESULT_LIST(VF_X_ENUM)
#undef VF_X_ENUM
    VF_RESULT_COUNT
} vf_result;

/** Returns the static message of a result (never NULL). */
const char *vf_result_message(vf_result r);

/** Returns the enum name of a result, e.g. "VF_ERR_IO" (never NULL). */
const char *vf_result_name(vf_result r);

/** The first allocation of a create function: points p at one zeroed
 * object of its type (calloc), or returns VF_ERR_NO_MEMORY from the
 * calling function when that fails (nothing is held yet to free). */
#define VF_NEW_OR_RETURN(p)                                                                                            \
    do {                                                                                                               \
        if (!((p) = calloc(1, sizeof *(p))))                                                                           \
            return VF_ERR_NO_MEMORY;                                                                                   \
    } while (0)

#endif
