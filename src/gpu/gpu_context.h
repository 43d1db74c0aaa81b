/* gpu_context: Vulkan instance, device choice, queue, validation and the
 * debug messenger. Everything else on the GPU takes a vf_gpu. */
#ifndef VF_GPU_CONTEXT_H
#define VF_GPU_CONTEXT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpu_check.h"
#include "vf_error.h"

#define VF_MAX_DEVICES 16

/** What `vkfluid devices` shows about one physical device. */
typedef struct vf_device_info {
    uint32_t index;
    char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    VkPhysicalDeviceType type;
    char driver_name[VK_MAX_DRIVER_NAME_SIZE];
    char driver_info[VK_MAX_DRIVER_INFO_SIZE];
    uint32_t api_version;
    uint32_t driver_version;
    uint32_t vendor_id;
    uint64_t device_local_bytes; /* the largest device-local heap */
    uint32_t subgroup_size;
    bool subgroup_quad;  /* subgroup quad operations in compute shaders (and a subgroup size of 4 or more) */
    uint64_t max_storage_buffer_range;
    uint32_t max_workgroup_invocations;
    bool timestamps;     /* timestampComputeAndGraphics */
    bool push_descriptor; /* VK_KHR_push_descriptor present (else the descriptor-set path) */
    bool usable;         /* Vulkan 1.3 with everything vkfluid needs */
    char unusable_why[160];
} vf_device_info;

/** A zeroed desc means: choose the best device, validation from the
 * environment (VKFLUID_VALIDATION=1), no presentation. */
typedef struct vf_gpu_desc {
    int device_index;    /* -1 or 0 with device_set=false: automatic choice */
    bool device_set;     /* true: use device_index */
    int validation;      /* 0: from VKFLUID_VALIDATION, 1: on, -1: off */
    bool present;        /* enable VK_KHR_swapchain (the viewer) */
    const char *const *instance_extensions; /* extra instance extensions (from GLFW); may be NULL */
    uint32_t instance_extension_count;
    /* true: use descriptor sets even where push descriptors exist (tests).
     * VKFLUID_DESCRIPTORS=sets in the environment does the same. */
    bool descriptor_sets;
} vf_gpu_desc;

struct vf_set_cache;

/** The context. Fields are read-only for users; create/destroy own them. */
typedef struct vf_gpu {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkCommandPool oneshot_pool;
    VkSampler sampler_linear;  /* clamp to edge, linear */
    VkSampler sampler_nearest; /* clamp to edge, nearest */
    /* Every pipeline of the context is created through this cache (a driver
     * may keep compiled shaders in it). */
    VkPipelineCache pipeline_cache;
    /* The compute pipelines the context keeps until it is destroyed, with
     * their layouts (gpu_pipeline.c): a compute pipeline created again with
     * the same shader, specialisation and push size (another solver of the
     * same kind) is the same VkPipeline, compiled once, on every driver. A
     * driver's own cache may not do it: SwiftShader's keys its compiled
     * programs by the pipeline layout object, and lavapipe keeps none. */
    struct vf_pipeline_entry *kept;
    uint32_t kept_count, kept_cap;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    vf_device_info info;
    float timestamp_period_ns;     /* ns per timestamp tick */
    uint32_t timestamp_valid_bits; /* 0 when the queue has no timestamps */
    /* VKFLUID_LIMITS=min-desktop (test hook, gpu_limits.h): props.limits and
     * the info limits are clamped, timestamps keep 36 valid bits, and every
     * host-visible memory type is treated as non-coherent (explicit flushes
     * and invalidates rounded to nonCoherentAtomSize). */
    bool min_desktop;
    bool validation;
    bool debug_utils;
    bool present;
    VkDebugUtilsMessengerEXT messenger;
    atomic_uint validation_messages; /* warnings and errors seen by the messenger */
    /* Test-only fault injection, read once from VKFLUID_FAULT when the
     * context is created ("device-lost@N" or "oom@N", N >= 1): the N-th
     * vf_frames_submit (counting every submit of every frame ring of this
     * context, 1-based) returns fault (VF_ERR_DEVICE_LOST or
     * VF_ERR_OUT_OF_DEVICE_MEMORY) without submitting. fault is VF_OK when
     * the variable is unset or malformed. */
    vf_result fault;
    uint64_t fault_submit;
    uint64_t frame_submits; /* vf_frames_submit calls so far (gpu_cmd.c counts them) */
    struct vf_gpu_counters *counters; /* work accounting (gpu_counters.h); NULL: off */
    /* Descriptors: chosen once when the device is created. true: every
     * pipeline pushes its descriptors (VK_KHR_push_descriptor); false: each
     * pipeline binds sets from its own cache (gpu_descriptors.h). */
    bool push_descriptors;
    struct vf_set_cache *set_caches; /* the pipelines' set caches (set path) */
    uint64_t next_serial;            /* last serial given to a buffer or image */
    /* An error met while recording (a full set cache, a misaligned buffer
     * offset): every later submit returns it instead of submitting. VF_OK
     * when none. */
    vf_result deferred_error;
} vf_gpu;

/** Lists the physical devices (creates and destroys a temporary instance).
 * Fills up to max entries of out and sets *count. Returns VF_ERR_NO_LOADER
 * when there is no Vulkan loader and VF_ERR_NO_DEVICE when it lists none. */
vf_result vf_gpu_enumerate(vf_device_info *out, uint32_t max, uint32_t *count);

/** Resolves a --device value against a device list: all digits = index,
 * anything else = case-insensitive name substring (first usable match).
 * Returns VF_ERR_DEVICE_NOT_FOUND when nothing matches. */
vf_result vf_gpu_match_device(const vf_device_info *devs, uint32_t count, const char *spec, uint32_t *index);

/** Picks the default device: discrete, then integrated, then virtual, then
 * CPU (lavapipe), among usable ones. Returns false when none is usable. */
bool vf_gpu_pick_default(const vf_device_info *devs, uint32_t count, uint32_t *index);

/** Parses a VKFLUID_FAULT value ("device-lost@N" or "oom@N", N in
 * 1..10^12) into the result to inject and the 1-based submit number. Returns
 * false (and leaves the outputs untouched) for NULL, empty or malformed text. */
bool vf_gpu_parse_fault(const char *text, vf_result *fault, uint64_t *submit);

/** Creates the context. desc may be NULL (defaults). On success *out owns
 * the instance, device and messenger; free with vf_gpu_destroy. */
vf_result vf_gpu_create(const vf_gpu_desc *desc, vf_gpu **out);

/** Waits for the device to go idle and destroys everything; accepts NULL
 * and *gpu == NULL, and sets *gpu to NULL. */
void vf_gpu_destroy(vf_gpu **gpu);

/** vf_gpu_destroy that returns the number of validation messages seen over
 * the context's whole life, including those raised while destroying it (such
 * as leaked objects). Accepts NULL (returns 0). */
uint32_t vf_gpu_shutdown(vf_gpu **gpu);

/** Gives a Vulkan object a debug name (no-op without debug utils). */
void vf_gpu_name(const vf_gpu *gpu, VkObjectType type, uint64_t handle, const char *name);

/** Number of validation warnings and errors seen so far. */
uint32_t vf_gpu_validation_count(vf_gpu *gpu);

/** A short lowercase name of a device type ("discrete", "cpu", ...). */
const char *vf_device_type_name(VkPhysicalDeviceType t);

#endif
