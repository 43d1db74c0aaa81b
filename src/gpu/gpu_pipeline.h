/* gpu_pipeline: compute and graphics pipelines from embedded SPIR-V, with one
 * descriptor set (set 0) and push constants. A pipeline's descriptor-set
 * layout is what its shaders declare (gpu_spirv.h): binding slot s has the
 * type the SPIR-V gives it, and a graphics pipeline's set is the union of its
 * vertex and fragment shaders' bindings. At record time a vf_binding array
 * indexed by slot supplies the resources; an entry for a slot the shaders do
 * not declare (one the optimizer removed, or a fill shared by several passes)
 * is ignored. Where the device has VK_KHR_push_descriptor
 * (gpu->push_descriptors) set 0 is pushed; elsewhere it is bound from the
 * pipeline's descriptor-set cache (gpu_descriptors.h). */
#ifndef VF_GPU_PIPELINE_H
#define VF_GPU_PIPELINE_H

#include "gpu_buffer.h"
#include "gpu_spirv.h"

#define VF_MAX_COLOR_TARGETS 4
#define VF_MAX_SPEC_CONSTANTS 8

/** One resource for one binding. For buffers: buffer, offset and range
 * (0 = the rest of the buffer); a texel buffer binding reads buffer's texel
 * view (offset and range unused). For images: image, sampler (sampled only) and
 * the layout it will be in when the commands run (0 = image->layout). */
typedef struct vf_binding {
    vf_buffer *buffer;
    VkDeviceSize offset, range;
    vf_image *image;
    VkSampler sampler;
    VkImageLayout layout;
} vf_binding;

/** A buffer binding over the whole buffer. */
static inline vf_binding vf_bind_buffer(vf_buffer *b)
{
    return (vf_binding){.buffer = b};
}

typedef struct vf_compute_desc {
    const char *shader;          /* embedded shader file name, e.g. "scan_block.comp" */
    uint32_t push_size;          /* bytes of push constants, 0..128, multiple of 4; at least the shader's block */
    uint32_t local_size_x;       /* workgroup x size the shader declares (for dispatch_1d); 0 = VF_WG_1D */
    const char *name;            /* debug name; NULL = shader name */
    bool neighbours;             /* the kernel loops over each element's neighbours (work accounting) */
    uint32_t spec_count;         /* specialization constants: constant_id i = spec[i] (32-bit) */
    uint32_t spec[VF_MAX_SPEC_CONSTANTS];
} vf_compute_desc;

typedef enum vf_blend {
    VF_BLEND_NONE = 0,
    VF_BLEND_ADDITIVE,  /* dst + src */
    VF_BLEND_ALPHA,     /* premultiplied-free "over": src*a + dst*(1-a) */
} vf_blend;

typedef struct vf_graphics_desc {
    const char *vertex_shader;   /* e.g. "ssf_sphere.vert" */
    const char *fragment_shader; /* NULL: depth-only */
    uint32_t push_size;          /* at least the larger of the two shaders' push blocks */
    uint32_t color_count;
    VkFormat color_formats[VF_MAX_COLOR_TARGETS];
    vf_blend blend[VF_MAX_COLOR_TARGETS];
    VkFormat depth_format;       /* VK_FORMAT_UNDEFINED: none */
    bool depth_test, depth_write;
    VkCompareOp depth_compare;   /* 0 (NEVER) means LESS_OR_EQUAL */
    VkPrimitiveTopology topology;/* 0 = triangle list */
    VkCullModeFlags cull;
    const char *name;
} vf_graphics_desc;

typedef struct vf_pipeline {
    vf_gpu *gpu;
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSetLayout set_layout;
    VkPipelineBindPoint bind_point;
    VkShaderStageFlags stages;
    uint32_t slot_mask;  /* bit s: the shaders declare binding slot s */
    uint32_t slot_count; /* the highest declared slot + 1 (0: no bindings) */
    vf_binding_type types[VF_MAX_BINDINGS]; /* by slot, for the declared ones */
    uint32_t push_size;
    uint32_t local_size_x;
    char name[40];       /* debug name (work accounting, gpu_counters.h) */
    bool neighbours;     /* a compute kernel that loops over neighbours (vf_compute_desc) */
    struct vf_set_cache *sets; /* the descriptor-set path only; NULL with push descriptors */
    bool kept;                 /* pipeline, layout and set_layout belong to gpu->kept */
} vf_pipeline;

/** Creates a compute pipeline from an embedded shader; its bindings are the
 * shader's (gpu_spirv.h). Fails with VF_ERR_INVALID_ARG when the shader's
 * push-constant block is larger than desc->push_size or it declares a
 * binding vkfluid does not support, VF_ERR_SHADER_NOT_FOUND when there is no
 * such shader. */
vf_result vf_pipeline_compute_create(vf_gpu *gpu, const vf_compute_desc *desc, vf_pipeline **out);
/** Creates a graphics pipeline for dynamic rendering (no render pass). Its
 * bindings are the union of its shaders' (VF_ERR_INVALID_ARG when the two give
 * one slot different types, or a push block is larger than desc->push_size).
 * Viewport and scissor are dynamic. There are no vertex inputs: shaders pull vertices
 * from storage buffers. */
vf_result vf_pipeline_graphics_create(vf_gpu *gpu, const vf_graphics_desc *desc, vf_pipeline **out);
/** Destroys a pipeline; accepts NULL and *p == NULL. A compute pipeline's
 * Vulkan objects stay with the context that keeps them (vf_gpu.kept). */
void vf_pipeline_destroy(vf_pipeline **p);
/** Destroys the compute pipelines and layouts gpu keeps (vf_gpu_shutdown,
 * after the device is idle and before it is destroyed). */
void vf_pipelines_kept_destroy(vf_gpu *gpu);

/** Binds the pipeline, its descriptors (bindings is indexed by slot and has
 * at least slot_count entries, each declared slot filled; entries for other
 * slots are ignored; may be NULL when there are none: pushed, or bound from
 * the pipeline's set cache) and its push constants (push may be NULL when push_size is 0). A
 * buffer offset that is not a multiple of the device's (possibly clamped,
 * VKFLUID_LIMITS) offset alignment makes every later submit fail with
 * VF_ERR_MISALIGNED; on the set path a full cache does the same with
 * VF_ERR_SET_CACHE_FULL (gpu_descriptors.h). */
void vf_cmd_bind(VkCommandBuffer cmd, const vf_pipeline *p, const vf_binding *bindings, const void *push);

/** Bytes of the buffer ranges and images that `bindings` gives p's declared
 * slots (each
 * counted once; a texel view of a buffer the pass also binds as a buffer adds
 * nothing): the traffic of a pass touching every bound element once.
 * bindings may be NULL (0). */
uint64_t vf_pipeline_bound_bytes(const vf_pipeline *p, const vf_binding *bindings);

/** vf_cmd_bind, then vkCmdDispatch(gx, gy, gz); counted when the context has
 * work counters attached (gpu_counters.h). */
void vf_cmd_dispatch(VkCommandBuffer cmd, const vf_pipeline *p, const vf_binding *bindings, const void *push, uint32_t gx,
                     uint32_t gy, uint32_t gz);

/** vf_cmd_bind, then enough workgroups of local_size_x for `items` items. When
 * the count exceeds maxComputeWorkGroupCount[0] it is split over y, so the
 * shader must use vf_group_linear() from shared.h and bound-check its index. */
void vf_cmd_dispatch_1d(VkCommandBuffer cmd, const vf_pipeline *p, const vf_binding *bindings, const void *push,
                        uint64_t items);

#endif
