#include "gpu_buffer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "gpu_descriptors.h"

static int find_memory_type(const vf_gpu *gpu, uint32_t bits, const VkMemoryPropertyFlags *prefs, int count)
{
    const VkPhysicalDeviceMemoryProperties *mp = &gpu->memory;
    for (int k = 0; k < count; k++)
        for (uint32_t i = 0; i < mp->memoryTypeCount; i++)
            if ((bits & (1u << i)) && (mp->memoryTypes[i].propertyFlags & prefs[k]) == prefs[k])
                return (int)i;
    return -1;
}

/* Allocates memory for req of the kind; *coherent tells whether host
 * accesses need no flush or invalidate (always false in the min-desktop test
 * mode, so the explicit flushes run). */
static vf_result allocate(vf_gpu *gpu, VkMemoryRequirements req, vf_memory kind, VkDeviceMemory *mem, bool *coherent)
{
    const VkMemoryPropertyFlags V = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, C = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                                K = VK_MEMORY_PROPERTY_HOST_CACHED_BIT, D = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    /* preferences, best first: device memory prefers device-local; uploads
     * prefer coherent; readbacks prefer cached (fast host reads), coherent
     * or not; non-coherent memory is flushed and invalidated explicitly */
    VkMemoryPropertyFlags device[] = {D, 0}, upload[] = {V | C, V}, readback[] = {V | K | C, V | K, V | C, V};
    const VkMemoryPropertyFlags *prefs = kind == VF_MEMORY_UPLOAD ? upload : kind == VF_MEMORY_READBACK ? readback : device;
    int count = kind == VF_MEMORY_UPLOAD ? 2 : kind == VF_MEMORY_READBACK ? 4 : 2;
    int type = find_memory_type(gpu, req.memoryTypeBits, prefs, count);
    if (type < 0)
        return VF_ERR_UNSUPPORTED;
    *coherent = (gpu->memory.memoryTypes[type].propertyFlags & C) && !gpu->min_desktop;
    uint32_t heap = gpu->memory.memoryTypes[type].heapIndex;
    if (req.size > gpu->memory.memoryHeaps[heap].size)
        return VF_ERR_TOO_LARGE;
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type};
    VkResult vr = vkAllocateMemory(gpu->device, &ai, NULL, mem);
    if (vr == VK_ERROR_OUT_OF_DEVICE_MEMORY || vr == VK_ERROR_OUT_OF_HOST_MEMORY)
        return VF_ERR_OUT_OF_DEVICE_MEMORY; /* an expected outcome for big sizes: no log */
    return VF_VK(vr);
}

/* The mapped range [offset, offset+size) widened to nonCoherentAtomSize (or
 * to the end of the allocation). */
static VkMappedMemoryRange atom_range(const vf_buffer *b, VkDeviceSize offset, VkDeviceSize size)
{
    VkDeviceSize atom = b->gpu->props.limits.nonCoherentAtomSize ? b->gpu->props.limits.nonCoherentAtomSize : 1;
    VkDeviceSize end = size == VK_WHOLE_SIZE || size > b->allocation - offset ? b->allocation : offset + size;
    VkDeviceSize start = offset / atom * atom;
    end = (end + atom - 1) / atom * atom;
    return (VkMappedMemoryRange){
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = b->memory,
        .offset = start,
        .size = end >= b->allocation ? VK_WHOLE_SIZE : end - start,
    };
}

vf_result vf_buffer_flush(vf_buffer *b, VkDeviceSize offset, VkDeviceSize size)
{
    if (!b || !b->mapped || b->coherent || offset >= b->allocation)
        return VF_OK;
    VkMappedMemoryRange r = atom_range(b, offset, size);
    return VF_VK(vkFlushMappedMemoryRanges(b->gpu->device, 1, &r));
}

vf_result vf_buffer_invalidate(vf_buffer *b, VkDeviceSize offset, VkDeviceSize size)
{
    if (!b || !b->mapped || b->coherent || offset >= b->allocation)
        return VF_OK;
    VkMappedMemoryRange r = atom_range(b, offset, size);
    return VF_VK(vkInvalidateMappedMemoryRanges(b->gpu->device, 1, &r));
}

void vf_buffer_destroy(vf_buffer **pb)
{
    if (!pb || !*pb)
        return;
    vf_buffer *b = *pb;
    vf_set_cache_forget(b->gpu, b->serial);
    if (b->texel_view)
        vkDestroyBufferView(b->gpu->device, b->texel_view, NULL);
    if (b->buffer)
        vkDestroyBuffer(b->gpu->device, b->buffer, NULL);
    if (b->memory)
        vkFreeMemory(b->gpu->device, b->memory, NULL);
    free(b);
    *pb = NULL;
}

vf_result vf_buffer_create(vf_gpu *gpu, const vf_buffer_desc *desc, vf_buffer **out)
{
    *out = NULL;
    if (!desc || desc->size == 0)
        return VF_ERR_INVALID_ARG;
    vf_buffer *b;
    VF_NEW_OR_RETURN(b);
    b->gpu = gpu;
    b->size = desc->size;
    b->serial = ++gpu->next_serial;
    VkBufferUsageFlags usage = desc->usage ? desc->usage
                                           : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                                 VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    uint32_t texel = desc->texel_format ? vf_format_size(desc->texel_format) : 0;
    vf_result res = VF_ERR_UNSUPPORTED;
    if (desc->texel_format) {
        if (!texel || !vf_gpu_texel_buffer_fits(gpu, desc->texel_format, 1) || desc->size < texel)
            goto fail; /* a format vkfluid has no size for, or the device cannot read as texels */
        usage |= VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
    }
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = desc->size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    res = VF_VK(vkCreateBuffer(gpu->device, &bci, NULL, &b->buffer));
    if (res != VF_OK)
        goto fail;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(gpu->device, b->buffer, &req);
    if ((res = allocate(gpu, req, desc->memory, &b->memory, &b->coherent)) != VF_OK)
        goto fail;
    b->allocation = req.size;
    if ((res = VF_VK(vkBindBufferMemory(gpu->device, b->buffer, b->memory, 0))) != VF_OK)
        goto fail;
    if (desc->memory != VF_MEMORY_DEVICE)
        if ((res = VF_VK(vkMapMemory(gpu->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped))) != VF_OK)
            goto fail;
    if (texel) {
        uint64_t texels = desc->size / texel, max = gpu->props.limits.maxTexelBufferElements;
        b->texel_bytes = (texels < max ? texels : max) * texel;
        VkBufferViewCreateInfo vci = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
            .buffer = b->buffer,
            .format = desc->texel_format,
            .range = b->texel_bytes,
        };
        if ((res = VF_VK(vkCreateBufferView(gpu->device, &vci, NULL, &b->texel_view))) != VF_OK)
            goto fail;
        vf_gpu_name(gpu, VK_OBJECT_TYPE_BUFFER_VIEW, (uint64_t)b->texel_view, desc->name ? desc->name : "texel view");
    }
    vf_gpu_name(gpu, VK_OBJECT_TYPE_BUFFER, (uint64_t)b->buffer, desc->name ? desc->name : "buffer");
    vf_gpu_name(gpu, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)b->memory, desc->name ? desc->name : "buffer memory");
    *out = b;
    return VF_OK;
fail:
    vf_buffer_destroy(&b);
    return res;
}

bool vf_gpu_texel_buffer_fits(vf_gpu *gpu, VkFormat format, uint64_t elements)
{
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(gpu->physical, format, &fp);
    return (fp.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT) &&
           elements <= gpu->props.limits.maxTexelBufferElements;
}

static vf_result staging(vf_gpu *gpu, VkDeviceSize size, vf_memory kind, vf_buffer **out)
{
    vf_buffer_desc d = {
        .size = size,
        .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .memory = kind,
        .name = kind == VF_MEMORY_UPLOAD ? "staging upload" : "staging readback",
    };
    return vf_buffer_create(gpu, &d, out);
}

static bool range_ok(const vf_buffer *b, VkDeviceSize offset, VkDeviceSize size)
{
    return size > 0 && offset <= b->size && size <= b->size - offset;
}

/* One copy between buf (at offset) and host memory through a staging
 * buffer, submitted and waited for: up, data into buf (after every earlier
 * GPU use of buf); else buf into out. */
static vf_result staged_copy(vf_buffer *buf, VkDeviceSize offset, VkDeviceSize size, bool up, const void *data,
                             void *out)
{
    if (!range_ok(buf, offset, size) || !(up ? data : out))
        return VF_ERR_INVALID_ARG;
    vf_gpu *gpu = buf->gpu;
    vf_buffer *st = NULL;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    vf_result res = staging(gpu, size, up ? VF_MEMORY_UPLOAD : VF_MEMORY_READBACK, &st);
    if (res != VF_OK)
        return res;
    if (up) {
        memcpy(st->mapped, data, (size_t)size);
        res = vf_buffer_flush(st, 0, size);
    }
    if (res != VF_OK || (res = vf_cmd_oneshot_begin(gpu, &cmd)) != VF_OK)
        goto fail_staging;
    if (up) {
        /* earlier GPU reads and writes of the buffer finish before the copy overwrites it */
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferCopy region = {.srcOffset = 0, .dstOffset = offset, .size = size};
        vkCmdCopyBuffer(cmd, st->buffer, buf->buffer, 1, &region);
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    } else {
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferCopy region = {.srcOffset = offset, .dstOffset = 0, .size = size};
        vkCmdCopyBuffer(cmd, buf->buffer, st->buffer, 1, &region);
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                       VK_ACCESS_2_HOST_READ_BIT);
    }
    res = vf_cmd_oneshot_submit(gpu, cmd);
    if (res == VF_OK && !up && (res = vf_buffer_invalidate(st, 0, size)) == VF_OK)
        memcpy(out, st->mapped, (size_t)size);
fail_staging:
    vf_buffer_destroy(&st);
    return res;
}

vf_result vf_buffer_write(vf_buffer *buf, VkDeviceSize offset, const void *data, VkDeviceSize size)
{
    return staged_copy(buf, offset, size, true, data, NULL);
}

vf_result vf_buffer_read(vf_buffer *buf, VkDeviceSize offset, void *data, VkDeviceSize size)
{
    return staged_copy(buf, offset, size, false, NULL, data);
}

vf_result vf_buffer_fill(vf_buffer *buf, VkDeviceSize offset, VkDeviceSize size, uint32_t word)
{
    if (size != VK_WHOLE_SIZE && !range_ok(buf, offset, size))
        return VF_ERR_INVALID_ARG;
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(buf->gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, buf->buffer, offset, size, word);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                   VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    return vf_cmd_oneshot_submit(buf->gpu, cmd);
}

uint32_t vf_format_size(VkFormat f)
{
    switch (f) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_R32_SFLOAT:
    case VK_FORMAT_R32_UINT:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_R16G16_SFLOAT: return 4;
    case VK_FORMAT_R16_SFLOAT: return 2;
    case VK_FORMAT_R32G32_SFLOAT:
    case VK_FORMAT_R32G32_UINT:
    case VK_FORMAT_R16G16B16A16_SFLOAT: return 8;
    case VK_FORMAT_R32G32B32A32_SFLOAT: return 16;
    default: return 0;
    }
}

static bool is_depth(VkFormat f)
{
    return f == VK_FORMAT_D32_SFLOAT || f == VK_FORMAT_D16_UNORM || f == VK_FORMAT_D24_UNORM_S8_UINT ||
           f == VK_FORMAT_D32_SFLOAT_S8_UINT;
}

/* An R8G8B8A8 image asked for a storage alias, where the device can write
 * its R8G8B8A8_UNORM view as a storage image. */
static bool storage_alias_ok(vf_gpu *gpu, const vf_image_desc *desc, VkImageUsageFlags usage)
{
    if (!desc->storage_alias || (desc->format != VK_FORMAT_R8G8B8A8_SRGB && desc->format != VK_FORMAT_R8G8B8A8_UNORM))
        return false;
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(gpu->physical, VK_FORMAT_R8G8B8A8_UNORM, &fp);
    VkImageFormatProperties ifp;
    return (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) &&
           vkGetPhysicalDeviceImageFormatProperties(
               gpu->physical, desc->format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL, usage | VK_IMAGE_USAGE_STORAGE_BIT,
               VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT, &ifp) == VK_SUCCESS;
}

/* img->storage: a second vf_image over the same VkImage and memory (not
 * owned by it) with an R8G8B8A8_UNORM storage view. */
static vf_result create_storage_alias(vf_gpu *gpu, vf_image *img, const char *name)
{
    vf_image *a;
    VF_NEW_OR_RETURN(a);
    *a = *img;
    a->serial = ++gpu->next_serial;
    a->format = VK_FORMAT_R8G8B8A8_UNORM;
    a->usage = VK_IMAGE_USAGE_STORAGE_BIT;
    a->memory = VK_NULL_HANDLE;
    a->storage = NULL;
    VkImageViewUsageCreateInfo vu = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
                                     .usage = VK_IMAGE_USAGE_STORAGE_BIT};
    VkImageViewCreateInfo vci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .pNext = &vu,
        .image = img->image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = VK_FORMAT_R8G8B8A8_UNORM,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    vf_result res = VF_VK(vkCreateImageView(gpu->device, &vci, NULL, &a->view));
    if (res != VF_OK) {
        free(a);
        return res;
    }
    char n[96];
    snprintf(n, sizeof n, "%s storage view", name);
    vf_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)a->view, n);
    img->storage = a;
    return VF_OK;
}

void vf_image_destroy(vf_image **pi)
{
    if (!pi || !*pi)
        return;
    vf_image *img = *pi;
    VkDevice dev = img->gpu->device;
    if (img->storage) {
        vf_set_cache_forget(img->gpu, img->storage->serial);
        vkDestroyImageView(dev, img->storage->view, NULL);
        free(img->storage);
    }
    vf_set_cache_forget(img->gpu, img->serial);
    if (img->view)
        vkDestroyImageView(dev, img->view, NULL);
    if (img->image)
        vkDestroyImage(dev, img->image, NULL);
    if (img->memory)
        vkFreeMemory(dev, img->memory, NULL);
    free(img);
    *pi = NULL;
}

vf_result vf_image_create(vf_gpu *gpu, const vf_image_desc *desc, vf_image **out)
{
    *out = NULL;
    if (!desc || desc->width == 0 || desc->height == 0 || desc->format == VK_FORMAT_UNDEFINED)
        return VF_ERR_INVALID_ARG;
    if (desc->width > gpu->props.limits.maxImageDimension2D || desc->height > gpu->props.limits.maxImageDimension2D)
        return VF_ERR_TOO_LARGE;
    bool depth = is_depth(desc->format);
    VkImageUsageFlags usage = desc->usage ? desc->usage
                                          : VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                                VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImageFormatProperties ifp;
    if (vkGetPhysicalDeviceImageFormatProperties(gpu->physical, desc->format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                 usage, 0, &ifp) != VK_SUCCESS)
        return VF_ERR_UNSUPPORTED; /* this format cannot have this usage here */
    VkImageCreateFlags flags = 0;
    if (storage_alias_ok(gpu, desc, usage)) {
        flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
        usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    }
    if (desc->width > ifp.maxExtent.width || desc->height > ifp.maxExtent.height)
        return VF_ERR_TOO_LARGE;
    vf_image *img;
    VF_NEW_OR_RETURN(img);
    img->gpu = gpu;
    img->serial = ++gpu->next_serial;
    img->format = desc->format;
    img->width = desc->width;
    img->height = desc->height;
    img->aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    img->layout = VK_IMAGE_LAYOUT_UNDEFINED;
    img->usage = usage;
    VkImageCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = flags,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = desc->format,
        .extent = {desc->width, desc->height, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    vf_result res = VF_VK(vkCreateImage(gpu->device, &ici, NULL, &img->image));
    if (res != VF_OK)
        goto fail;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(gpu->device, img->image, &req);
    bool unused_coherent;
    if ((res = allocate(gpu, req, VF_MEMORY_DEVICE, &img->memory, &unused_coherent)) != VF_OK)
        goto fail;
    if ((res = VF_VK(vkBindImageMemory(gpu->device, img->image, img->memory, 0))) != VF_OK)
        goto fail;
    /* the image's own view: without the storage usage only its alias has */
    VkImageViewUsageCreateInfo own_usage = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
                                            .usage = usage & ~(VkImageUsageFlags)VK_IMAGE_USAGE_STORAGE_BIT};
    VkImageViewCreateInfo vci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .pNext = flags ? &own_usage : NULL,
        .image = img->image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = desc->format,
        .subresourceRange = {img->aspect, 0, 1, 0, 1},
    };
    if ((res = VF_VK(vkCreateImageView(gpu->device, &vci, NULL, &img->view))) != VF_OK)
        goto fail;
    const char *name = desc->name ? desc->name : "image";
    vf_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE, (uint64_t)img->image, name);
    vf_gpu_name(gpu, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)img->view, name);
    vf_gpu_name(gpu, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)img->memory, name);
    if (flags && (res = create_storage_alias(gpu, img, name)) != VF_OK)
        goto fail;
    *out = img;
    return VF_OK;
fail:
    vf_image_destroy(&img);
    return res;
}

VkImageMemoryBarrier2 vf_image_barrier(const vf_image *img, VkImageLayout layout, VkPipelineStageFlags2 src_stage,
                                       VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                                       VkAccessFlags2 dst_access)
{
    return (VkImageMemoryBarrier2){
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
        .srcStageMask = src_stage,
        .srcAccessMask = src_access,
        .dstStageMask = dst_stage,
        .dstAccessMask = dst_access,
        .oldLayout = img->layout,
        .newLayout = layout,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = img->image,
        .subresourceRange = {img->aspect, 0, 1, 0, 1},
    };
}

void vf_image_transition(VkCommandBuffer cmd, vf_image *img, VkImageLayout layout, VkPipelineStageFlags2 src_stage,
                         VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    VkImageMemoryBarrier2 b = vf_image_barrier(img, layout, src_stage, src_access, dst_stage, dst_access);
    VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .imageMemoryBarrierCount = 1, .pImageMemoryBarriers = &b};
    vkCmdPipelineBarrier2(cmd, &di);
    img->layout = layout;
}

vf_result vf_image_read(vf_image *img, void *dst, VkDeviceSize dst_size)
{
    uint32_t texel = vf_format_size(img->format);
    VkDeviceSize size = (VkDeviceSize)img->width * img->height * texel;
    if (texel == 0 || !dst || dst_size < size)
        return VF_ERR_INVALID_ARG;
    vf_gpu *gpu = img->gpu;
    vf_buffer *st = NULL;
    VkCommandBuffer cmd;
    vf_result res = staging(gpu, size, VF_MEMORY_READBACK, &st);
    if (res != VF_OK)
        return res;
    if ((res = vf_cmd_oneshot_begin(gpu, &cmd)) != VF_OK)
        goto fail_staging;
    VkImageLayout prev = img->layout;
    vf_image_transition(cmd, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                        VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region = {
        .imageSubresource = {img->aspect, 0, 0, 1},
        .imageExtent = {img->width, img->height, 1},
    };
    vkCmdCopyImageToBuffer(cmd, img->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, st->buffer, 1, &region);
    if (prev != VK_IMAGE_LAYOUT_UNDEFINED)
        vf_image_transition(cmd, img, prev, VK_PIPELINE_STAGE_2_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                            VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                   VK_ACCESS_2_HOST_READ_BIT);
    if ((res = vf_cmd_oneshot_submit(gpu, cmd)) == VF_OK && (res = vf_buffer_invalidate(st, 0, size)) == VF_OK)
        memcpy(dst, st->mapped, (size_t)size);
fail_staging:
    vf_buffer_destroy(&st);
    return res;
}
