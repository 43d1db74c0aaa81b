/* gpu_spirv: what a shader's SPIR-V declares, read from the module itself so
 * that the C side never restates it: the descriptor bindings of set 0 with
 * their types, the push-constant block's size, the workgroup size, the bytes
 * of Workgroup storage and the specialization constants.
 *
 * A binding's type comes from its variable: StorageBuffer (or Uniform with a
 * BufferBlock struct) is a storage buffer, Uniform with a Block struct a
 * uniform buffer, an image of Dim Buffer sampled with a sampler (Sampled 1) a
 * uniform texel buffer, an image used without a sampler (Sampled 2) a storage
 * image, a sampled image a combined image sampler. Anything else (another
 * set, arrays of descriptors, a separate sampler, a storage texel buffer) is
 * not something vkfluid's pipelines support, and reflection fails naming it. */
#ifndef VF_GPU_SPIRV_H
#define VF_GPU_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Binding slots a pipeline may use: 0 .. VF_MAX_BINDINGS - 1 (the grid's
 * scalar advection binds 21: 12 buffers and texel views of 9 of them). */
#define VF_MAX_BINDINGS 24

typedef enum vf_binding_type {
    VF_BIND_STORAGE_BUFFER = 0,
    VF_BIND_UNIFORM_BUFFER,
    VF_BIND_STORAGE_IMAGE,   /* image in VK_IMAGE_LAYOUT_GENERAL */
    VF_BIND_SAMPLED_IMAGE,   /* combined image sampler */
    VF_BIND_TEXEL_BUFFER,    /* uniform texel buffer: the buffer's texel view (vf_buffer_desc.texel_format) */
} vf_binding_type;

/** What one shader module declares. */
typedef struct vf_spirv_info {
    uint32_t slot_mask;                   /* bit s: set 0 declares binding s */
    vf_binding_type types[VF_MAX_BINDINGS]; /* the type of each declared slot */
    uint32_t push_size;                   /* bytes of the push-constant block (its last member's end); 0: none */
    bool have_local_size;                 /* a compute shader's LocalSize (or LocalSizeId) was found */
    uint32_t local_size[3];               /* workgroup size; a specialized size gives its default */
    uint32_t local_x_spec_id;             /* the SpecId that sizes x; UINT32_MAX: x is a literal */
    uint32_t spec_mask;                   /* bit i: the module declares specialization constant_id i (i < 32) */
    uint64_t shared_bytes;                /* bytes of Workgroup variables (a 3-vector counts as 4) */
} vf_spirv_info;

/** Reads a SPIR-V module (bytes long, 4-byte words). On success fills *info
 * and returns true. On failure (a malformed module, or a declaration vkfluid
 * does not support) writes one phrase saying what into why (may be NULL) and
 * returns false. */
bool vf_spirv_reflect(const uint32_t *code, size_t bytes, vf_spirv_info *info, char *why, size_t why_size);

/** vf_spirv_reflect of the embedded shader `name` (gpu_shaders.h); false with
 * "no embedded shader" in why when there is none. */
bool vf_spirv_reflect_shader(const char *name, vf_spirv_info *info, char *why, size_t why_size);

#endif
