/* gpu_buffer: buffers and images, staging upload, host readback. */
#ifndef VF_GPU_BUFFER_H
#define VF_GPU_BUFFER_H

#include "gpu_context.h"

typedef enum vf_memory {
    VF_MEMORY_DEVICE = 0, /* device-local; filled by GPU work or staging */
    VF_MEMORY_UPLOAD,     /* host-visible (coherent preferred), written by the CPU: vf_buffer_flush after */
    VF_MEMORY_READBACK,   /* host-visible, cached preferred, read by the CPU: vf_buffer_invalidate before */
} vf_memory;

/** Zeroed except size and name means: a device-local storage buffer that can
 * also be a transfer source and destination. */
typedef struct vf_buffer_desc {
    VkDeviceSize size;        /* bytes, > 0 */
    VkBufferUsageFlags usage; /* 0: storage | transfer src | transfer dst */
    vf_memory memory;
    const char *name;         /* debug name (copied into the object name) */
    VkFormat texel_format;    /* 0: none; else the buffer can also be read as a
                                 uniform texel buffer of this format: a view over
                                 its first min(size / texel, maxTexelBufferElements)
                                 texels (see vf_gpu_texel_buffer_fits) */
} vf_buffer_desc;

typedef struct vf_buffer {
    vf_gpu *gpu;
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *mapped; /* non-NULL for host-visible memory */
    uint64_t serial; /* unique within the context, never 0 (descriptor-set cache key) */
    bool coherent;   /* host-visible memory that needs no flush or invalidate */
    VkDeviceSize allocation; /* bytes of the memory allocation */
    VkBufferView texel_view; /* the texel view (vf_buffer_desc.texel_format), or VK_NULL_HANDLE */
    VkDeviceSize texel_bytes; /* bytes the texel view covers */
} vf_buffer;

/** Creates a buffer. Returns VF_ERR_TOO_LARGE when the size exceeds the
 * memory heap it would live in, VF_ERR_OUT_OF_DEVICE_MEMORY when the
 * allocation fails, VF_ERR_UNSUPPORTED when desc->texel_format is set but the
 * device cannot read that format as a uniform texel buffer. Bound ranges above maxStorageBufferRange are the caller's
 * concern (gpu->info.max_storage_buffer_range). */
vf_result vf_buffer_create(vf_gpu *gpu, const vf_buffer_desc *desc, vf_buffer **out);
/** Whether a uniform texel buffer of format can address elements texels on
 * this device: the format supports VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT
 * for buffers and elements <= maxTexelBufferElements. */
bool vf_gpu_texel_buffer_fits(vf_gpu *gpu, VkFormat format, uint64_t elements);

/** Makes host writes to [offset, offset+size) of a mapped buffer visible to
 * the device: vkFlushMappedMemoryRanges with the range widened to
 * nonCoherentAtomSize, or nothing for coherent memory. size may be
 * VK_WHOLE_SIZE. Call after writing through buf->mapped, before the submit. */
vf_result vf_buffer_flush(vf_buffer *buf, VkDeviceSize offset, VkDeviceSize size);
/** Makes device writes to a mapped buffer visible to the host (after the
 * fence wait, before reading buf->mapped): vkInvalidateMappedMemoryRanges,
 * rounded like vf_buffer_flush; nothing for coherent memory. */
vf_result vf_buffer_invalidate(vf_buffer *buf, VkDeviceSize offset, VkDeviceSize size);
/** Destroys a buffer; accepts NULL and *buf == NULL. The GPU must be done with it. */
void vf_buffer_destroy(vf_buffer **buf);
/** Copies size bytes from host memory into the buffer at offset (staging copy,
 * waits for completion). Not for the hot path. */
vf_result vf_buffer_write(vf_buffer *buf, VkDeviceSize offset, const void *data, VkDeviceSize size);
/** Copies size bytes from the buffer at offset to host memory (waits). */
vf_result vf_buffer_read(vf_buffer *buf, VkDeviceSize offset, void *data, VkDeviceSize size);
/** Fills the buffer (offset, size; VK_WHOLE_SIZE allowed) with a 32-bit word (waits). */
vf_result vf_buffer_fill(vf_buffer *buf, VkDeviceSize offset, VkDeviceSize size, uint32_t word);

/** Zeroed except size/format/name: a sampled + storage + transfer 2D image. */
typedef struct vf_image_desc {
    uint32_t width, height;
    VkFormat format;
    VkImageUsageFlags usage; /* 0: sampled | storage | transfer src/dst */
    const char *name;
    /* An R8G8B8A8 sRGB (or UNORM) image that compute passes may write: the
     * image also gets storage usage and vf_image.storage an R8G8B8A8_UNORM
     * view of it (bytes written as they are stored), where the device allows
     * (else storage stays NULL). */
    bool storage_alias;
} vf_image_desc;

typedef struct vf_image {
    vf_gpu *gpu;
    VkImage image;
    VkImageView view;
    VkDeviceMemory memory;
    VkFormat format;
    uint32_t width, height;
    VkImageAspectFlags aspect;
    VkImageLayout layout; /* layout after the last recorded vf_image_transition */
    uint64_t serial;      /* unique within the context, never 0 (descriptor-set cache key) */
    VkImageUsageFlags usage;
    /* A view compute passes write as an rgba8 storage image (bind it with
     * layout GENERAL; record transitions on this image, not on it): the
     * image's R8G8B8A8_UNORM alias (vf_image_desc.storage_alias), or NULL.
     * Owned by the image. */
    struct vf_image *storage;
} vf_image;

/** Creates a 2D image with one mip level and a view. Checks the size against
 * maxImageDimension2D (VF_ERR_TOO_LARGE) and the format's support. */
vf_result vf_image_create(vf_gpu *gpu, const vf_image_desc *desc, vf_image **out);
/** Destroys an image; accepts NULL and *img == NULL. */
void vf_image_destroy(vf_image **img);
/** The barrier that moves img from its current layout to `layout`
 * (src_* before, dst_* after; the whole image, no queue transfer); the
 * caller records it and sets img->layout. */
VkImageMemoryBarrier2 vf_image_barrier(const vf_image *img, VkImageLayout layout, VkPipelineStageFlags2 src_stage,
                                       VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                                       VkAccessFlags2 dst_access);

/** Records a layout transition with the given stages and accesses, and
 * remembers the new layout in img->layout. */
void vf_image_transition(VkCommandBuffer cmd, vf_image *img, VkImageLayout layout, VkPipelineStageFlags2 src_stage,
                         VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
/** Reads the whole image into host memory (tightly packed rows), waiting for
 * completion; the image ends in its previous layout. dst must hold
 * width*height*texel bytes. */
vf_result vf_image_read(vf_image *img, void *dst, VkDeviceSize dst_size);
/** Bytes per texel of the formats vkfluid uses (0 for others). */
uint32_t vf_format_size(VkFormat f);

#endif
