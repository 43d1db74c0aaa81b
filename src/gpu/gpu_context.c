#include "gpu_context.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_limits.h"
#include "gpu_pipeline.h"
#include "text.h"

#define VF_VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

const char *vf_device_type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
    }
}

static bool has_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *ext = calloc(n, sizeof *ext);
    if (!ext)
        return false;
    bool found = false;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, ext) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(ext[i].extensionName, name);
    free(ext);
    return found;
}

static bool find_queue_family(VkPhysicalDevice pd, uint32_t *family, uint32_t *ts_bits)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    if (n == 0 || n > 64)
        return false;
    VkQueueFamilyProperties q[64];
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    for (uint32_t i = 0; i < n; i++) {
        VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        if ((q[i].queueFlags & need) == need) {
            *family = i;
            *ts_bits = q[i].timestampValidBits;
            return true;
        }
    }
    return false;
}

static void fill_info(VkPhysicalDevice pd, uint32_t index, vf_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->index = index;
    VkPhysicalDeviceDriverProperties drv = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties sg = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, .pNext = &drv};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &sg};
    vkGetPhysicalDeviceProperties2(pd, &p2);
    if (vf_limits_min_desktop())
        vf_limits_clamp_min_desktop(&p2.properties.limits);
    const VkPhysicalDeviceProperties *p = &p2.properties;
    snprintf(d->name, sizeof d->name, "%s", p->deviceName);
    snprintf(d->driver_name, sizeof d->driver_name, "%s", drv.driverName);
    snprintf(d->driver_info, sizeof d->driver_info, "%s", drv.driverInfo);
    d->type = p->deviceType;
    d->api_version = p->apiVersion;
    d->driver_version = p->driverVersion;
    d->vendor_id = p->vendorID;
    d->subgroup_size = sg.subgroupSize;
    d->subgroup_quad = (sg.supportedOperations & VK_SUBGROUP_FEATURE_QUAD_BIT) &&
                       (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) && sg.subgroupSize >= 4;
    d->max_storage_buffer_range = p->limits.maxStorageBufferRange;
    d->max_workgroup_invocations = p->limits.maxComputeWorkGroupInvocations;
    d->timestamps = p->limits.timestampComputeAndGraphics;

    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (uint32_t i = 0; i < mp.memoryHeapCount; i++)
        if ((mp.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) && mp.memoryHeaps[i].size > d->device_local_bytes)
            d->device_local_bytes = mp.memoryHeaps[i].size;

    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    uint32_t family, bits;
    d->usable = false;
    if (VK_API_VERSION_MINOR(p->apiVersion) < 3 && VK_API_VERSION_MAJOR(p->apiVersion) == 1) {
        snprintf(d->unusable_why, sizeof d->unusable_why, "needs vulkan 1.3");
        return;
    }
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    d->push_descriptor = has_extension(pd, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    /* subgroup sums and votes in compute shaders (the height field's volume sum) */
    const VkSubgroupFeatureFlags subgroup_ops =
        VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    if (!f13.synchronization2 || !f13.dynamicRendering)
        snprintf(d->unusable_why, sizeof d->unusable_why, "lacks synchronization2 or dynamicRendering");
    else if ((sg.supportedOperations & subgroup_ops) != subgroup_ops || !(sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT))
        snprintf(d->unusable_why, sizeof d->unusable_why, "lacks subgroup vote and arithmetic operations in compute shaders");
    else if (!find_queue_family(pd, &family, &bits))
        snprintf(d->unusable_why, sizeof d->unusable_why, "has no graphics+compute queue");
    else if (!vf_limits_check_shaders(&p->limits, d->unusable_why, sizeof d->unusable_why))
        ; /* why names the limit */
    else
        d->usable = true;
}

static vf_result load_vulkan(void)
{
    if (volkInitialize() != VK_SUCCESS)
        return VF_ERR_NO_LOADER;
    if (volkGetInstanceVersion() < VK_API_VERSION_1_3)
        return VF_ERR_NO_LOADER;
    return VF_OK;
}

vf_result vf_gpu_enumerate(vf_device_info *out, uint32_t max, uint32_t *count)
{
    *count = 0;
    vf_result res = load_vulkan();
    if (res != VF_OK)
        return res;
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "vkfluid", .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance inst = VK_NULL_HANDLE;
    VkResult vr = vkCreateInstance(&ici, NULL, &inst);
    if (vr == VK_ERROR_INCOMPATIBLE_DRIVER)
        return VF_ERR_NO_DEVICE;
    if ((res = VF_VK(vr)) != VF_OK)
        return res;
    volkLoadInstanceOnly(inst);
    uint32_t n = 0;
    VkPhysicalDevice pds[VF_MAX_DEVICES];
    vr = vkEnumeratePhysicalDevices(inst, &n, NULL);
    if (vr >= 0) {
        if (n > VF_MAX_DEVICES)
            n = VF_MAX_DEVICES;
        vr = vkEnumeratePhysicalDevices(inst, &n, pds);
    }
    if (vr < 0) {
        res = VF_VK(vr);
        goto fail_instance;
    }
    for (uint32_t i = 0; i < n && i < max; i++)
        fill_info(pds[i], i, &out[i]);
    *count = n < max ? n : max;
    res = n == 0 ? VF_ERR_NO_DEVICE : VF_OK;
fail_instance:
    vkDestroyInstance(inst, NULL);
    return res;
}

vf_result vf_gpu_match_device(const vf_device_info *devs, uint32_t count, const char *spec, uint32_t *index)
{
    if (!spec || !*spec)
        return VF_ERR_DEVICE_NOT_FOUND;
    bool digits = true;
    for (const char *c = spec; *c; c++)
        digits = digits && isdigit((unsigned char)*c);
    if (digits) {
        unsigned long v = strtoul(spec, NULL, 10);
        if (strlen(spec) > 3 || v >= count)
            return VF_ERR_DEVICE_NOT_FOUND;
        *index = (uint32_t)v;
        return VF_OK;
    }
    for (uint32_t i = 0; i < count; i++)
        if (vf_text_icontains(devs[i].name, spec) || vf_text_icontains(devs[i].driver_name, spec)) {
            *index = i;
            return VF_OK;
        }
    return VF_ERR_DEVICE_NOT_FOUND;
}

bool vf_gpu_pick_default(const vf_device_info *devs, uint32_t count, uint32_t *index)
{
    int best = -1;
    for (uint32_t i = 0; i < count; i++) {
        if (!devs[i].usable)
            continue;
        if (best < 0 || type_rank(devs[i].type) < type_rank(devs[best].type))
            best = (int)i;
    }
    if (best < 0)
        return false;
    *index = (uint32_t)best;
    return true;
}

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    vf_gpu *gpu = user;
    bool counted = (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) &&
                   (types & (VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT));
    if (counted && gpu)
        atomic_fetch_add(&gpu->validation_messages, 1u);
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        fprintf(stderr, "validation: %s: %s\n", data->pMessageIdName ? data->pMessageIdName : "message",
                data->pMessage ? data->pMessage : "");
    return VK_FALSE;
}

static bool instance_has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkLayerProperties *l = calloc(n, sizeof *l);
    if (!l)
        return false;
    bool found = false;
    if (vkEnumerateInstanceLayerProperties(&n, l) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(l[i].layerName, name);
    free(l);
    return found;
}

static bool instance_has_extension(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *e = calloc(n, sizeof *e);
    if (!e)
        return false;
    bool found = false;
    if (vkEnumerateInstanceExtensionProperties(NULL, &n, e) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(e[i].extensionName, name);
    free(e);
    return found;
}

static bool env_validation(void)
{
    const char *v = getenv("VKFLUID_VALIDATION");
    return v && *v && strcmp(v, "0") != 0;
}

bool vf_gpu_parse_fault(const char *text, vf_result *fault, uint64_t *submit)
{
    if (!text)
        return false;
    vf_result f;
    const char *n;
    if (!strncmp(text, "device-lost@", 12)) {
        f = VF_ERR_DEVICE_LOST;
        n = text + 12;
    } else if (!strncmp(text, "oom@", 4)) {
        f = VF_ERR_OUT_OF_DEVICE_MEMORY;
        n = text + 4;
    } else {
        return false;
    }
    uint64_t v = 0;
    if (!*n)
        return false;
    for (; *n; n++) {
        if (*n < '0' || *n > '9' || v > 100000000000ull)
            return false;
        v = v * 10 + (uint64_t)(*n - '0');
    }
    if (v < 1 || v > 1000000000000ull)
        return false;
    *fault = f;
    *submit = v;
    return true;
}

static vf_result create_instance(vf_gpu *gpu, const vf_gpu_desc *desc)
{
    const char *exts[32];
    uint32_t next = 0;
    for (uint32_t i = 0; i < desc->instance_extension_count && next < 30; i++)
        exts[next++] = desc->instance_extensions[i];
    gpu->debug_utils = instance_has_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (gpu->debug_utils)
        exts[next++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;

    const char *layers[1] = {VF_VALIDATION_LAYER};
    if (gpu->validation && !instance_has_layer(VF_VALIDATION_LAYER))
        return VF_ERR_NO_VALIDATION;

    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT vfeat = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
    };
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .pNext = gpu->validation ? &vfeat : NULL,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = debug_callback,
        .pUserData = gpu,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vkfluid",
        .pEngineName = "vkfluid",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = gpu->debug_utils ? (void *)&mci : (gpu->validation ? (void *)&vfeat : NULL),
        .pApplicationInfo = &app,
        .enabledLayerCount = gpu->validation ? 1u : 0u,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
    };
    VkResult vr = vkCreateInstance(&ici, NULL, &gpu->instance);
    if (vr == VK_ERROR_INCOMPATIBLE_DRIVER)
        return VF_ERR_NO_DEVICE;
    vf_result res = VF_VK(vr);
    if (res != VF_OK)
        return res;
    volkLoadInstance(gpu->instance);
    if (gpu->debug_utils) {
        mci.pNext = NULL;
        if ((res = VF_VK(vkCreateDebugUtilsMessengerEXT(gpu->instance, &mci, NULL, &gpu->messenger))) != VF_OK)
            return res;
    }
    return VF_OK;
}

static vf_result create_device(vf_gpu *gpu, const vf_gpu_desc *desc)
{
    uint32_t n = 0;
    VkPhysicalDevice pds[VF_MAX_DEVICES];
    vf_result res = VF_VK(vkEnumeratePhysicalDevices(gpu->instance, &n, NULL));
    if (res != VF_OK)
        return res;
    if (n == 0)
        return VF_ERR_NO_DEVICE;
    if (n > VF_MAX_DEVICES)
        n = VF_MAX_DEVICES;
    VkResult vr = vkEnumeratePhysicalDevices(gpu->instance, &n, pds);
    if (vr < 0)
        return VF_VK(vr);
    vf_device_info infos[VF_MAX_DEVICES];
    for (uint32_t i = 0; i < n; i++)
        fill_info(pds[i], i, &infos[i]);
    uint32_t pick = 0;
    if (desc->device_set) {
        if (desc->device_index < 0 || (uint32_t)desc->device_index >= n)
            return VF_ERR_DEVICE_NOT_FOUND;
        pick = (uint32_t)desc->device_index;
        if (!infos[pick].usable)
            return VF_ERR_UNSUPPORTED;
    } else if (!vf_gpu_pick_default(infos, n, &pick)) {
        return VF_ERR_UNSUPPORTED;
    }
    gpu->physical = pds[pick];
    gpu->info = infos[pick];
    vkGetPhysicalDeviceProperties(gpu->physical, &gpu->props);
    vkGetPhysicalDeviceMemoryProperties(gpu->physical, &gpu->memory);
    gpu->min_desktop = vf_limits_min_desktop();
    if (gpu->min_desktop)
        vf_limits_clamp_min_desktop(&gpu->props.limits);
    gpu->timestamp_period_ns = gpu->props.limits.timestampPeriod;
    if (!find_queue_family(gpu->physical, &gpu->queue_family, &gpu->timestamp_valid_bits))
        return VF_ERR_UNSUPPORTED;
    if (gpu->min_desktop && gpu->timestamp_valid_bits > 36)
        gpu->timestamp_valid_bits = 36;

    /* Features: the required ones plus useful optional ones the device has. */
    VkPhysicalDeviceVulkan13Features have13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features have12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &have13};
    VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &have12};
    vkGetPhysicalDeviceFeatures2(gpu->physical, &have);

    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .synchronization2 = VK_TRUE,
        .dynamicRendering = VK_TRUE,
        .maintenance4 = have13.maintenance4,
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &f13,
        .hostQueryReset = have12.hostQueryReset,
        .scalarBlockLayout = have12.scalarBlockLayout,
        .timelineSemaphore = have12.timelineSemaphore,
        .shaderFloat16 = have12.shaderFloat16,
        .storageBuffer8BitAccess = have12.storageBuffer8BitAccess,
    };
    VkPhysicalDeviceFeatures2 f = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &f12,
        .features = {
            .fragmentStoresAndAtomics = have.features.fragmentStoresAndAtomics,
            .vertexPipelineStoresAndAtomics = have.features.vertexPipelineStoresAndAtomics,
            .shaderStorageImageWriteWithoutFormat = have.features.shaderStorageImageWriteWithoutFormat,
            .independentBlend = have.features.independentBlend,
            .largePoints = have.features.largePoints,
        },
    };
    const char *exts[4];
    uint32_t next = 0;
    const char *dmode = getenv("VKFLUID_DESCRIPTORS");
    bool force_sets = desc->descriptor_sets || (dmode && !strcmp(dmode, "sets"));
    gpu->push_descriptors = gpu->info.push_descriptor && !force_sets;
    if (gpu->push_descriptors)
        exts[next++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    if (desc->present) {
        if (!has_extension(gpu->physical, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
            return VF_ERR_UNSUPPORTED;
        exts[next++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
        gpu->present = true;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = gpu->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
    };
    if ((res = VF_VK(vkCreateDevice(gpu->physical, &dci, NULL, &gpu->device))) != VF_OK)
        return res;
    volkLoadDevice(gpu->device);
    vkGetDeviceQueue(gpu->device, gpu->queue_family, 0, &gpu->queue);
    vf_gpu_name(gpu, VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)gpu->device, "vkfluid device");
    vf_gpu_name(gpu, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)gpu->queue, "vkfluid queue");
    return VF_OK;
}

static vf_result create_shared_objects(vf_gpu *gpu)
{
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT | VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = gpu->queue_family,
    };
    vf_result res = VF_VK(vkCreateCommandPool(gpu->device, &pci, NULL, &gpu->oneshot_pool));
    if (res != VF_OK)
        return res;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)gpu->oneshot_pool, "one-shot command pool");
    VkSamplerCreateInfo sci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_LINEAR,
        .minFilter = VK_FILTER_LINEAR,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = 0.0f,
    };
    if ((res = VF_VK(vkCreateSampler(gpu->device, &sci, NULL, &gpu->sampler_linear))) != VF_OK)
        return res;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_SAMPLER, (uint64_t)gpu->sampler_linear, "sampler linear clamp");
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    if ((res = VF_VK(vkCreateSampler(gpu->device, &sci, NULL, &gpu->sampler_nearest))) != VF_OK)
        return res;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_SAMPLER, (uint64_t)gpu->sampler_nearest, "sampler nearest clamp");
    VkPipelineCacheCreateInfo cci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    if ((res = VF_VK(vkCreatePipelineCache(gpu->device, &cci, NULL, &gpu->pipeline_cache))) != VF_OK)
        return res;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE_CACHE, (uint64_t)gpu->pipeline_cache, "pipeline cache");
    return VF_OK;
}

void vf_gpu_destroy(vf_gpu **pgpu)
{
    (void)vf_gpu_shutdown(pgpu);
}

vf_result vf_gpu_create(const vf_gpu_desc *desc_in, vf_gpu **out)
{
    *out = NULL;
    vf_gpu_desc desc = desc_in ? *desc_in : (vf_gpu_desc){0};
    vf_result res = load_vulkan();
    if (res != VF_OK)
        return res;
    vf_gpu *gpu;
    VF_NEW_OR_RETURN(gpu);
    atomic_init(&gpu->validation_messages, 0u);
    gpu->validation = desc.validation > 0 || (desc.validation == 0 && env_validation());
    gpu->fault = VF_OK;
    vf_gpu_parse_fault(getenv("VKFLUID_FAULT"), &gpu->fault, &gpu->fault_submit);
    if ((res = create_instance(gpu, &desc)) != VF_OK)
        goto fail;
    if ((res = create_device(gpu, &desc)) != VF_OK)
        goto fail;
    if ((res = create_shared_objects(gpu)) != VF_OK)
        goto fail;
    *out = gpu;
    return VF_OK;
fail:
    vf_gpu_destroy(&gpu);
    return res;
}

uint32_t vf_gpu_shutdown(vf_gpu **pgpu)
{
    if (!pgpu || !*pgpu)
        return 0;
    vf_gpu *gpu = *pgpu;
    if (gpu->device) {
        vkDeviceWaitIdle(gpu->device);
        if (gpu->sampler_linear)
            vkDestroySampler(gpu->device, gpu->sampler_linear, NULL);
        if (gpu->sampler_nearest)
            vkDestroySampler(gpu->device, gpu->sampler_nearest, NULL);
        if (gpu->oneshot_pool)
            vkDestroyCommandPool(gpu->device, gpu->oneshot_pool, NULL);
        vf_pipelines_kept_destroy(gpu);
        if (gpu->pipeline_cache)
            vkDestroyPipelineCache(gpu->device, gpu->pipeline_cache, NULL);
        vkDestroyDevice(gpu->device, NULL);
    }
    if (gpu->instance) {
        if (gpu->messenger)
            vkDestroyDebugUtilsMessengerEXT(gpu->instance, gpu->messenger, NULL);
        vkDestroyInstance(gpu->instance, NULL);
    }
    uint32_t count = atomic_load(&gpu->validation_messages);
    free(gpu);
    *pgpu = NULL;
    return count;
}

void vf_gpu_name(const vf_gpu *gpu, VkObjectType type, uint64_t handle, const char *name)
{
    if (!gpu || !gpu->debug_utils || !gpu->device || !handle || !name || !vkSetDebugUtilsObjectNameEXT)
        return;
    VkDebugUtilsObjectNameInfoEXT ni = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    vkSetDebugUtilsObjectNameEXT(gpu->device, &ni);
}

uint32_t vf_gpu_validation_count(vf_gpu *gpu)
{
    return gpu ? atomic_load(&gpu->validation_messages) : 0;
}
