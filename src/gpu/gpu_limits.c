#include "gpu_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_shaders.h"
#include "gpu_spirv.h"

bool vf_limits_min_desktop(void)
{
    const char *v = getenv("VKFLUID_LIMITS");
    return v && !strcmp(v, "min-desktop");
}

#define VF_MIN(field, v) \
    do {                 \
        if (l->field > (v)) \
            l->field = (v); \
    } while (0)
#define VF_MAX(field, v) \
    do {                 \
        if (l->field < (v)) \
            l->field = (v); \
    } while (0)

void vf_limits_clamp_min_desktop(VkPhysicalDeviceLimits *l)
{
    /* see docs/drivers.md for the sources of these numbers */
    VF_MIN(maxComputeSharedMemorySize, 32768u);
    VF_MIN(maxComputeWorkGroupInvocations, 1024u);
    VF_MIN(maxComputeWorkGroupSize[0], 1024u);
    VF_MIN(maxComputeWorkGroupSize[1], 1024u);
    VF_MIN(maxComputeWorkGroupSize[2], 64u);
    for (int i = 0; i < 3; i++)
        VF_MIN(maxComputeWorkGroupCount[i], 65535u);
    VF_MIN(maxStorageBufferRange, 1u << 30);
    VF_MIN(maxUniformBufferRange, 65536u);
    VF_MIN(maxPushConstantsSize, 128u);
    VF_MIN(maxImageDimension2D, 16384u);
    VF_MIN(maxPerStageDescriptorStorageBuffers, 16u);
    VF_MAX(minStorageBufferOffsetAlignment, 256u);
    VF_MAX(minUniformBufferOffsetAlignment, 256u);
    VF_MAX(nonCoherentAtomSize, 256u);
    VF_MAX(optimalBufferCopyOffsetAlignment, 256u);
}

bool vf_limits_reflect(const uint32_t *code, size_t bytes, uint32_t size[3], uint64_t *shared_bytes)
{
    vf_spirv_info info;
    *shared_bytes = 0;
    if (!vf_spirv_reflect(code, bytes, &info, NULL, 0) || !info.have_local_size)
        return false;
    for (int k = 0; k < 3; k++)
        size[k] = info.local_size[k];
    *shared_bytes = info.shared_bytes;
    return true;
}

bool vf_limits_check_shaders(const VkPhysicalDeviceLimits *l, char *why, size_t why_size)
{
    for (const vf_shader_blob *b = vf_shader_table; b->name; b++) {
        size_t len = strlen(b->name);
        if (len < 5 || strcmp(b->name + len - 5, ".comp"))
            continue;
        uint32_t s[3] = {0, 0, 0};
        uint64_t shared = 0;
        if (!vf_limits_reflect(b->code, b->size, s, &shared)) {
            snprintf(why, why_size, "shader %s: cannot read its workgroup size from the SPIR-V", b->name);
            return false;
        }
        uint64_t inv = (uint64_t)s[0] * s[1] * s[2];
        for (int k = 0; k < 3; k++)
            if (s[k] > l->maxComputeWorkGroupSize[k]) {
                snprintf(why, why_size, "maxComputeWorkGroupSize[%d] is %u, shader %s needs %u", k,
                         l->maxComputeWorkGroupSize[k], b->name, s[k]);
                return false;
            }
        if (inv > l->maxComputeWorkGroupInvocations) {
            snprintf(why, why_size, "maxComputeWorkGroupInvocations is %u, shader %s needs %llu",
                     l->maxComputeWorkGroupInvocations, b->name, (unsigned long long)inv);
            return false;
        }
        if (shared > l->maxComputeSharedMemorySize) {
            snprintf(why, why_size, "maxComputeSharedMemorySize is %u bytes, shader %s needs %llu",
                     l->maxComputeSharedMemorySize, b->name, (unsigned long long)shared);
            return false;
        }
    }
    return true;
}
