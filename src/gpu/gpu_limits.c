#include "gpu_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_shaders.h"

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

/* SPIR-V opcodes and enums used here */
enum {
    OP_EXECUTION_MODE = 16,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_MATRIX = 24,
    OP_TYPE_ARRAY = 28,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43,
    OP_SPEC_CONSTANT = 50,
    OP_VARIABLE = 59,
    OP_EXECUTION_MODE_ID = 331,
    MODE_LOCAL_SIZE = 17,
    MODE_LOCAL_SIZE_ID = 38,
    STORAGE_WORKGROUP = 4,
};

bool vf_limits_reflect(const uint32_t *code, size_t bytes, uint32_t size[3], uint64_t *shared_bytes)
{
    size_t n = bytes / 4;
    if (n < 5 || code[0] != 0x07230203u)
        return false;
    uint32_t bound = code[3];
    if (bound == 0 || bound > (1u << 22))
        return false;
    uint64_t *type_size = calloc(bound, sizeof *type_size); /* bytes of a type id; constant value of a constant id */
    uint64_t *value = calloc(bound, sizeof *value);
    uint32_t *pointee = calloc(bound, sizeof *pointee);     /* pointer id -> pointee type (Workgroup pointers only) */
    if (!type_size || !value || !pointee) {
        free(type_size);
        free(value);
        free(pointee);
        return false;
    }
    bool have_size = false, ok = true;
    uint32_t size_ids[3] = {0, 0, 0};
    *shared_bytes = 0;
    for (size_t i = 5; i < n && ok;) {
        uint32_t wc = code[i] >> 16, op = code[i] & 0xffffu;
        if (wc == 0 || i + wc > n) {
            ok = false;
            break;
        }
        const uint32_t *w = &code[i];
#define ID(k) (w[k] < bound ? w[k] : 0)
        switch (op) {
        case OP_EXECUTION_MODE:
            if (wc >= 6 && w[2] == MODE_LOCAL_SIZE) {
                size[0] = w[3], size[1] = w[4], size[2] = w[5];
                have_size = true;
            }
            break;
        case OP_EXECUTION_MODE_ID:
            if (wc >= 6 && w[2] == MODE_LOCAL_SIZE_ID)
                for (int k = 0; k < 3; k++)
                    size_ids[k] = ID(3 + k);
            break;
        case OP_TYPE_BOOL: type_size[ID(1)] = 4; break;
        case OP_TYPE_INT:
        case OP_TYPE_FLOAT:
            if (wc >= 3)
                type_size[ID(1)] = w[2] / 8;
            break;
        case OP_TYPE_VECTOR:
            if (wc >= 4) /* a 3-vector counts as 4 (how drivers lay them out) */
                type_size[ID(1)] = type_size[ID(2)] * (w[3] == 3 ? 4 : w[3]);
            break;
        case OP_TYPE_MATRIX:
            if (wc >= 4)
                type_size[ID(1)] = type_size[ID(2)] * w[3];
            break;
        case OP_TYPE_ARRAY:
            if (wc >= 4)
                type_size[ID(1)] = type_size[ID(2)] * value[ID(3)];
            break;
        case OP_TYPE_STRUCT: {
            uint64_t s = 0;
            for (uint32_t k = 2; k < wc; k++)
                s += type_size[ID(k)];
            type_size[ID(1)] = s;
            break;
        }
        case OP_TYPE_POINTER:
            if (wc >= 4 && w[2] == STORAGE_WORKGROUP)
                pointee[ID(1)] = ID(3);
            break;
        case OP_CONSTANT:
        case OP_SPEC_CONSTANT: /* its default: what the shader needs unless the host sets it */
            if (wc >= 4)
                value[ID(2)] = w[3];
            break;
        case OP_VARIABLE:
            if (wc >= 4 && w[3] == STORAGE_WORKGROUP && pointee[ID(1)])
                *shared_bytes += type_size[pointee[ID(1)]];
            break;
        default: break;
        }
#undef ID
        i += wc;
    }
    if (ok && !have_size && size_ids[0]) {
        for (int k = 0; k < 3; k++)
            size[k] = (uint32_t)value[size_ids[k]];
        have_size = true;
    }
    free(type_size);
    free(value);
    free(pointee);
    return ok && have_size;
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
