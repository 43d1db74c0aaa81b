#include "gpu_pipeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_counters.h"
#include "gpu_descriptors.h"
#include "gpu_shaders.h"
#include "shared.h"

_Static_assert(VF_MAX_BINDINGS <= VF_SET_MAX_BINDINGS, "a pipeline's set fits the set cache");

static VkDescriptorType descriptor_type(vf_binding_type t)
{
    switch (t) {
    case VF_BIND_UNIFORM_BUFFER: return VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    case VF_BIND_STORAGE_IMAGE: return VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    case VF_BIND_SAMPLED_IMAGE: return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case VF_BIND_TEXEL_BUFFER: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    default: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    }
}

static vf_result create_module(vf_gpu *gpu, const char *name, VkShaderModule *mod)
{
    const vf_shader_blob *blob = vf_shader_find(name);
    if (!blob)
        return VF_ERR_SHADER_NOT_FOUND;
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = blob->size, .pCode = blob->code};
    vf_result res = VF_VK(vkCreateShaderModule(gpu->device, &ci, NULL, mod));
    if (res == VF_OK)
        vf_gpu_name(gpu, VK_OBJECT_TYPE_SHADER_MODULE, (uint64_t)*mod, name);
    return res;
}

/* Takes the bindings of a shader's reflection into p (a graphics pipeline
 * calls it once per stage): a slot both stages declare must have one type. */
static vf_result add_bindings(vf_pipeline *p, const vf_spirv_info *info, uint32_t push_size)
{
    if (info->push_size > push_size)
        return VF_ERR_INVALID_ARG; /* the shader would read past the pushed bytes */
    for (uint32_t s = 0; s < VF_MAX_BINDINGS; s++) {
        if (!(info->slot_mask & (1u << s)))
            continue;
        if ((p->slot_mask & (1u << s)) && p->types[s] != info->types[s])
            return VF_ERR_INVALID_ARG;
        p->slot_mask |= 1u << s;
        p->types[s] = info->types[s];
        p->slot_count = s + 1 > p->slot_count ? s + 1 : p->slot_count;
    }
    return VF_OK;
}

/* The reflection of an embedded shader and its bindings in p. */
static vf_result reflect_into(vf_pipeline *p, const char *shader, uint32_t push_size)
{
    vf_spirv_info info;
    if (!vf_shader_find(shader))
        return VF_ERR_SHADER_NOT_FOUND;
    if (!vf_spirv_reflect_shader(shader, &info, NULL, 0))
        return VF_ERR_INVALID_ARG;
    return add_bindings(p, &info, push_size);
}

/* The set layout of p's declared slots (p->slot_mask, p->types) and the
 * pipeline layout (unless kept: p has the context's), and its set cache on
 * the descriptor-set path. */
static vf_result create_layout(vf_pipeline *p, uint32_t push_size, const char *name, bool kept)
{
    vf_gpu *gpu = p->gpu;
    if (push_size > gpu->props.limits.maxPushConstantsSize || push_size % 4)
        return VF_ERR_INVALID_ARG;
    p->push_size = push_size;
    VkDescriptorSetLayoutBinding b[VF_MAX_BINDINGS];
    VkDescriptorType dtypes[VF_MAX_BINDINGS];
    uint32_t count = 0;
    for (uint32_t s = 0; s < p->slot_count; s++) {
        if (!(p->slot_mask & (1u << s)))
            continue;
        dtypes[count] = descriptor_type(p->types[s]);
        b[count++] = (VkDescriptorSetLayoutBinding){
            .binding = s,
            .descriptorType = descriptor_type(p->types[s]),
            .descriptorCount = 1,
            .stageFlags = p->stages,
        };
    }
    VkDescriptorSetLayoutCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = gpu->push_descriptors ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0u,
        .bindingCount = count,
        .pBindings = b,
    };
    vf_result res = VF_OK;
    if (!kept) {
        if ((res = VF_VK(vkCreateDescriptorSetLayout(gpu->device, &dci, NULL, &p->set_layout))) != VF_OK)
            return res;
        vf_gpu_name(gpu, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)p->set_layout, name);
    }
    if (!gpu->push_descriptors && count > 0 &&
        (res = vf_set_cache_create(gpu, p->set_layout, dtypes, count, name, &p->sets)) != VF_OK)
        return res;
    if (kept)
        return VF_OK;
    VkPushConstantRange pr = {.stageFlags = p->stages, .offset = 0, .size = push_size};
    VkPipelineLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &p->set_layout,
        .pushConstantRangeCount = push_size ? 1u : 0u,
        .pPushConstantRanges = &pr,
    };
    if ((res = VF_VK(vkCreatePipelineLayout(gpu->device, &lci, NULL, &p->layout))) != VF_OK)
        return res;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)p->layout, name);
    return VF_OK;
}

/* A compute pipeline the context keeps: its key (the shader, the
 * specialisation constants, the push size) and its Vulkan objects. */
typedef struct vf_pipeline_entry {
    char shader[64];
    uint32_t spec[VF_MAX_SPEC_CONSTANTS];
    uint32_t spec_count, push_size;
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSetLayout set_layout;
} vf_pipeline_entry;

/* At most this many kept: beyond, a pipeline owns its objects. */
#define VF_KEPT_MAX 1024u

static vf_pipeline_entry *kept_find(vf_gpu *gpu, const vf_compute_desc *d)
{
    for (uint32_t i = 0; i < gpu->kept_count; i++) {
        vf_pipeline_entry *e = &gpu->kept[i];
        if (e->spec_count == d->spec_count && e->push_size == d->push_size && !strcmp(e->shader, d->shader) &&
            (d->spec_count == 0 || !memcmp(e->spec, d->spec, 4 * (size_t)d->spec_count)))
            return e;
    }
    return NULL;
}

/* Hands p's objects to the context (p->kept); leaves p the owner when the
 * context keeps no more or the shader name does not fit the key. */
static void kept_add(vf_gpu *gpu, const vf_compute_desc *d, vf_pipeline *p)
{
    if (gpu->kept_count >= VF_KEPT_MAX || strlen(d->shader) >= sizeof gpu->kept->shader)
        return;
    if (gpu->kept_count == gpu->kept_cap) {
        uint32_t cap = gpu->kept_cap ? 2 * gpu->kept_cap : 64;
        vf_pipeline_entry *k = realloc(gpu->kept, cap * sizeof *k);
        if (!k)
            return;
        gpu->kept = k;
        gpu->kept_cap = cap;
    }
    vf_pipeline_entry *e = &gpu->kept[gpu->kept_count++];
    memset(e, 0, sizeof *e);
    snprintf(e->shader, sizeof e->shader, "%s", d->shader);
    if (d->spec_count)
        memcpy(e->spec, d->spec, 4 * (size_t)d->spec_count);
    e->spec_count = d->spec_count;
    e->push_size = d->push_size;
    e->pipeline = p->pipeline;
    e->layout = p->layout;
    e->set_layout = p->set_layout;
    p->kept = true;
}

void vf_pipelines_kept_destroy(vf_gpu *gpu)
{
    for (uint32_t i = 0; i < gpu->kept_count; i++) {
        vf_pipeline_entry *e = &gpu->kept[i];
        vkDestroyPipeline(gpu->device, e->pipeline, NULL);
        vkDestroyPipelineLayout(gpu->device, e->layout, NULL);
        vkDestroyDescriptorSetLayout(gpu->device, e->set_layout, NULL);
    }
    free(gpu->kept);
    gpu->kept = NULL;
    gpu->kept_count = gpu->kept_cap = 0;
}

vf_result vf_pipeline_compute_create(vf_gpu *gpu, const vf_compute_desc *desc, vf_pipeline **out)
{
    *out = NULL;
    if (!desc || !desc->shader)
        return VF_ERR_INVALID_ARG;
    vf_pipeline *p;
    VF_NEW_OR_RETURN(p);
    p->gpu = gpu;
    p->bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
    p->stages = VK_SHADER_STAGE_COMPUTE_BIT;
    p->local_size_x = desc->local_size_x ? desc->local_size_x : VF_WG_1D;
    p->neighbours = desc->neighbours;
    const char *name = desc->name ? desc->name : desc->shader;
    snprintf(p->name, sizeof p->name, "%s", name);
    if (desc->spec_count > VF_MAX_SPEC_CONSTANTS) {
        free(p);
        return VF_ERR_INVALID_ARG;
    }
    VkSpecializationMapEntry spec_map[VF_MAX_SPEC_CONSTANTS];
    for (uint32_t i = 0; i < desc->spec_count; i++)
        spec_map[i] = (VkSpecializationMapEntry){.constantID = i, .offset = 4 * i, .size = 4};
    VkSpecializationInfo spec = {
        .mapEntryCount = desc->spec_count,
        .pMapEntries = spec_map,
        .dataSize = 4 * (size_t)desc->spec_count,
        .pData = desc->spec,
    };
    VkShaderModule mod = VK_NULL_HANDLE;
    vf_result res = reflect_into(p, desc->shader, desc->push_size);
    const vf_pipeline_entry *e = res == VF_OK ? kept_find(gpu, desc) : NULL;
    if (e) { /* created before: the context's objects, and a set cache of p's own */
        p->pipeline = e->pipeline;
        p->layout = e->layout;
        p->set_layout = e->set_layout;
        p->kept = true;
    }
    if (res == VF_OK)
        res = create_layout(p, desc->push_size, name, e != NULL);
    if (res != VF_OK)
        goto fail;
    if (e) {
        *out = p;
        return VF_OK;
    }
    if ((res = create_module(gpu, desc->shader, &mod)) != VF_OK)
        goto fail;
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = mod,
            .pName = "main",
            .pSpecializationInfo = desc->spec_count ? &spec : NULL,
        },
        .layout = p->layout,
    };
    res = VF_VK(vkCreateComputePipelines(gpu->device, gpu->pipeline_cache, 1, &ci, NULL, &p->pipeline));
    vkDestroyShaderModule(gpu->device, mod, NULL);
    if (res != VF_OK)
        goto fail;
    vf_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE, (uint64_t)p->pipeline, name);
    kept_add(gpu, desc, p);
    *out = p;
    return VF_OK;
fail:
    vf_pipeline_destroy(&p);
    return res;
}

static VkPipelineColorBlendAttachmentState blend_state(vf_blend b)
{
    VkPipelineColorBlendAttachmentState s = {
        .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT,
    };
    if (b == VF_BLEND_ADDITIVE) {
        s.blendEnable = VK_TRUE;
        s.srcColorBlendFactor = s.dstColorBlendFactor = VK_BLEND_FACTOR_ONE;
        s.srcAlphaBlendFactor = s.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        s.colorBlendOp = s.alphaBlendOp = VK_BLEND_OP_ADD;
    } else if (b == VF_BLEND_ALPHA) {
        s.blendEnable = VK_TRUE;
        s.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        s.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        s.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        s.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        s.colorBlendOp = s.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    return s;
}

vf_result vf_pipeline_graphics_create(vf_gpu *gpu, const vf_graphics_desc *desc, vf_pipeline **out)
{
    *out = NULL;
    if (!desc || !desc->vertex_shader || desc->color_count > VF_MAX_COLOR_TARGETS)
        return VF_ERR_INVALID_ARG;
    vf_pipeline *p;
    VF_NEW_OR_RETURN(p);
    p->gpu = gpu;
    p->bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS;
    p->stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    const char *name = desc->name ? desc->name : desc->vertex_shader;
    snprintf(p->name, sizeof p->name, "%s", name);
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    vf_result res = reflect_into(p, desc->vertex_shader, desc->push_size);
    if (res == VF_OK && desc->fragment_shader)
        res = reflect_into(p, desc->fragment_shader, desc->push_size);
    if (res == VF_OK)
        res = create_layout(p, desc->push_size, name, false);
    if (res != VF_OK)
        goto fail;
    if ((res = create_module(gpu, desc->vertex_shader, &vs)) != VF_OK)
        goto fail_modules;
    if (desc->fragment_shader && (res = create_module(gpu, desc->fragment_shader, &fs)) != VF_OK)
        goto fail_modules;
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main"},
    };
    VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = desc->topology ? desc->topology : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkPipelineViewportStateCreateInfo vp = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, .viewportCount = 1, .scissorCount = 1};
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = desc->cull,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO, .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineDepthStencilStateCreateInfo ds = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = desc->depth_test,
        .depthWriteEnable = desc->depth_write,
        .depthCompareOp = desc->depth_compare ? desc->depth_compare : VK_COMPARE_OP_LESS_OR_EQUAL,
    };
    VkPipelineColorBlendAttachmentState att[VF_MAX_COLOR_TARGETS];
    for (uint32_t i = 0; i < desc->color_count; i++)
        att[i] = blend_state(desc->blend[i]);
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = desc->color_count,
        .pAttachments = att,
    };
    VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dy = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, .dynamicStateCount = 2, .pDynamicStates = dyn};
    VkPipelineRenderingCreateInfo rci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = desc->color_count,
        .pColorAttachmentFormats = desc->color_formats,
        .depthAttachmentFormat = desc->depth_format,
    };
    VkGraphicsPipelineCreateInfo gci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &rci,
        .stageCount = fs ? 2u : 1u,
        .pStages = stages,
        .pVertexInputState = &vi,
        .pInputAssemblyState = &ia,
        .pViewportState = &vp,
        .pRasterizationState = &rs,
        .pMultisampleState = &ms,
        .pDepthStencilState = &ds,
        .pColorBlendState = &cb,
        .pDynamicState = &dy,
        .layout = p->layout,
    };
    res = VF_VK(vkCreateGraphicsPipelines(gpu->device, gpu->pipeline_cache, 1, &gci, NULL, &p->pipeline));
    if (res == VF_OK)
        vf_gpu_name(gpu, VK_OBJECT_TYPE_PIPELINE, (uint64_t)p->pipeline, name);
fail_modules:
    if (vs)
        vkDestroyShaderModule(gpu->device, vs, NULL);
    if (fs)
        vkDestroyShaderModule(gpu->device, fs, NULL);
    if (res != VF_OK)
        goto fail;
    *out = p;
    return VF_OK;
fail:
    vf_pipeline_destroy(&p);
    return res;
}

void vf_pipeline_destroy(vf_pipeline **pp)
{
    if (!pp || !*pp)
        return;
    vf_pipeline *p = *pp;
    VkDevice dev = p->gpu->device;
    vf_set_cache_destroy(&p->sets);
    if (p->kept) {
        free(p);
        *pp = NULL;
        return;
    }
    if (p->pipeline)
        vkDestroyPipeline(dev, p->pipeline, NULL);
    if (p->layout)
        vkDestroyPipelineLayout(dev, p->layout, NULL);
    if (p->set_layout)
        vkDestroyDescriptorSetLayout(dev, p->set_layout, NULL);
    free(p);
    *pp = NULL;
}

/* The write and the set-cache key of one binding of slot s. */
static void binding_write(const vf_pipeline *p, uint32_t s, const vf_binding *b, VkWriteDescriptorSet *w,
                          VkDescriptorBufferInfo *bi, VkDescriptorImageInfo *ii, uint64_t *k)
{
    vf_binding_type t = p->types[s];
    *w = (VkWriteDescriptorSet){
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstBinding = s,
        .descriptorCount = 1,
        .descriptorType = descriptor_type(t),
    };
    if (t == VF_BIND_STORAGE_BUFFER || t == VF_BIND_UNIFORM_BUFFER) {
        *bi = (VkDescriptorBufferInfo){
            .buffer = b->buffer->buffer,
            .offset = b->offset,
            .range = b->range ? b->range : b->buffer->size - b->offset,
        };
        w->pBufferInfo = bi;
        VkDeviceSize align = t == VF_BIND_UNIFORM_BUFFER ? p->gpu->props.limits.minUniformBufferOffsetAlignment
                                                          : p->gpu->props.limits.minStorageBufferOffsetAlignment;
        if (align && b->offset % align && p->gpu->deferred_error == VF_OK)
            p->gpu->deferred_error = VF_ERR_MISALIGNED; /* the next submit fails */
        k[0] = b->buffer->serial;
        k[1] = bi->offset;
        k[2] = bi->range;
        k[3] = 0;
    } else if (t == VF_BIND_TEXEL_BUFFER) {
        w->pTexelBufferView = &b->buffer->texel_view;
        k[0] = b->buffer->serial;
        k[1] = 0;
        k[2] = b->buffer->texel_bytes;
        k[3] = 1; /* not a buffer range: a buffer binding's k[3] is 0 */
    } else {
        *ii = (VkDescriptorImageInfo){
            .sampler = b->sampler,
            .imageView = b->image->view,
            .imageLayout = b->layout ? b->layout : b->image->layout,
        };
        w->pImageInfo = ii;
        k[0] = b->image->serial;
        k[1] = (uint64_t)ii->imageLayout;
        k[2] = (uint64_t)(uintptr_t)ii->imageView;
        k[3] = (uint64_t)ii->sampler;
    }
}

void vf_cmd_bind(VkCommandBuffer cmd, const vf_pipeline *p, const vf_binding *bindings, const void *push)
{
    vkCmdBindPipeline(cmd, p->bind_point, p->pipeline);
    if (p->slot_mask && bindings) {
        VkWriteDescriptorSet w[VF_MAX_BINDINGS];
        VkDescriptorBufferInfo bi[VF_MAX_BINDINGS];
        VkDescriptorImageInfo ii[VF_MAX_BINDINGS];
        uint64_t key[VF_MAX_BINDINGS * VF_SET_KEY_WORDS];
        uint32_t n = 0; /* the declared slots in order: the layout's bindings, the cache's key */
        for (uint32_t s = 0; s < p->slot_count; s++)
            if (p->slot_mask & (1u << s)) {
                binding_write(p, s, &bindings[s], &w[n], &bi[n], &ii[n], &key[n * VF_SET_KEY_WORDS]);
                n++;
            }
        if (!p->sets) {
            vkCmdPushDescriptorSetKHR(cmd, p->bind_point, p->layout, 0, n, w);
        } else {
            VkDescriptorSet set = vf_set_cache_get(p->sets, key, w);
            if (set)
                vkCmdBindDescriptorSets(cmd, p->bind_point, p->layout, 0, 1, &set, 0, NULL);
        }
    }
    if (p->push_size && push)
        vkCmdPushConstants(cmd, p->layout, p->stages, 0, p->push_size, push);
}

static uint64_t texel_bytes(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_R8_UNORM: return 1;
    case VK_FORMAT_R16_SFLOAT: case VK_FORMAT_R8G8_UNORM: return 2;
    case VK_FORMAT_R16G16B16A16_SFLOAT: case VK_FORMAT_R32G32_SFLOAT: return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    default: return 4;
    }
}

/* Whether buf is also bound to p as a storage or uniform buffer. */
static bool bound_as_buffer(const vf_pipeline *p, const vf_binding *bindings, const vf_buffer *buf)
{
    for (uint32_t k = 0; k < p->slot_count; k++)
        if ((p->slot_mask & (1u << k)) &&
            (p->types[k] == VF_BIND_STORAGE_BUFFER || p->types[k] == VF_BIND_UNIFORM_BUFFER) &&
            bindings[k].buffer == buf)
            return true;
    return false;
}

uint64_t vf_pipeline_bound_bytes(const vf_pipeline *p, const vf_binding *bindings)
{
    uint64_t n = 0;
    for (uint32_t i = 0; bindings && i < p->slot_count; i++) {
        if (!(p->slot_mask & (1u << i)))
            continue;
        const vf_binding *b = &bindings[i];
        if ((p->types[i] == VF_BIND_STORAGE_BUFFER || p->types[i] == VF_BIND_UNIFORM_BUFFER) && b->buffer)
            n += b->range ? b->range : b->buffer->size - b->offset;
        else if (p->types[i] == VF_BIND_TEXEL_BUFFER && b->buffer)
            n += bound_as_buffer(p, bindings, b->buffer) ? 0 : b->buffer->texel_bytes; /* the same bytes, once */
        else if (b->image)
            n += (uint64_t)b->image->width * b->image->height * texel_bytes(b->image->format);
    }
    return n;
}

void vf_cmd_dispatch(VkCommandBuffer cmd, const vf_pipeline *p, const vf_binding *bindings, const void *push, uint32_t gx,
                     uint32_t gy, uint32_t gz)
{
    vf_cmd_bind(cmd, p, bindings, push);
    vkCmdDispatch(cmd, gx, gy, gz);
    if (p->gpu->counters)
        vf_count_dispatch(p->gpu, p->name, vf_pipeline_bound_bytes(p, bindings), false, p->neighbours);
}

void vf_cmd_dispatch_1d(VkCommandBuffer cmd, const vf_pipeline *p, const vf_binding *bindings, const void *push,
                        uint64_t items)
{
    uint64_t groups = (items + p->local_size_x - 1) / p->local_size_x;
    if (groups == 0)
        return;
    uint64_t max_x = p->gpu->props.limits.maxComputeWorkGroupCount[0];
    uint64_t gx = groups, gy = 1;
    if (groups > max_x) {
        gy = (groups + max_x - 1) / max_x;
        gx = (groups + gy - 1) / gy;
    }
    vf_cmd_dispatch(cmd, p, bindings, push, (uint32_t)gx, (uint32_t)gy, 1);
}
