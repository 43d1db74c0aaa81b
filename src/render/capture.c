#include "capture.h"

#include <stdlib.h>

#include "gpu_cmd.h"
#include "png_io.h"
#include "render.h"

struct vf_capture {
    vf_gpu *gpu;
    vf_image *target;
    vf_buffer *readback;
    uint32_t width, height;
    bool bgra; /* the last copy came from a BGRA image */
};

void vf_capture_destroy(vf_capture **pc)
{
    if (!pc || !*pc)
        return;
    vf_image_destroy(&(*pc)->target);
    vf_buffer_destroy(&(*pc)->readback);
    free(*pc);
    *pc = NULL;
}

vf_result vf_capture_create(vf_gpu *gpu, const vf_capture_desc *desc, vf_capture **out)
{
    *out = NULL;
    vf_capture *c;
    VF_NEW_OR_RETURN(c);
    c->gpu = gpu;
    c->width = desc && desc->width ? desc->width : 1280;
    c->height = desc && desc->height ? desc->height : 720;
    vf_image_desc id = {
        .width = c->width,
        .height = c->height,
        .format = VF_CAPTURE_FORMAT,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                 VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .name = "capture target",
        .storage_alias = true, /* compute renderers write it directly */
    };
    vf_result res = vf_image_create(gpu, &id, &c->target);
    if (res != VF_OK)
        goto fail;
    vf_buffer_desc bd = {
        .size = (VkDeviceSize)c->width * c->height * 4,
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .memory = VF_MEMORY_READBACK,
        .name = "capture readback",
    };
    if ((res = vf_buffer_create(gpu, &bd, &c->readback)) != VF_OK)
        goto fail;
    *out = c;
    return VF_OK;
fail:
    vf_capture_destroy(&c);
    return res;
}

vf_image *vf_capture_target(vf_capture *c)
{
    return c->target;
}

void vf_capture_record_readback(vf_capture *c, VkCommandBuffer cmd)
{
    vf_capture_record_copy(c, cmd, c->target);
}

void vf_capture_record_copy(vf_capture *c, VkCommandBuffer cmd, vf_image *src)
{
    c->bgra = src->format == VK_FORMAT_B8G8R8A8_SRGB || src->format == VK_FORMAT_B8G8R8A8_UNORM;
    vf_image_transition(cmd, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {c->width, c->height, 1},
    };
    vkCmdCopyImageToBuffer(cmd, src->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c->readback->buffer, 1, &region);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                   VK_ACCESS_2_HOST_READ_BIT);
}

const uint8_t *vf_capture_pixels(const vf_capture *c)
{
    vf_buffer_invalidate(c->readback, 0, VK_WHOLE_SIZE); /* non-coherent memory */
    return c->readback->mapped;
}

vf_result vf_capture_write_png(const vf_capture *c, const char *path)
{
    if (!c->bgra)
        return vf_png_write(path, vf_capture_pixels(c), c->width, c->height);
    size_t n = (size_t)c->width * c->height;
    uint8_t *rgba = malloc(n * 4);
    if (!rgba)
        return VF_ERR_NO_MEMORY;
    const uint8_t *p = vf_capture_pixels(c);
    for (size_t i = 0; i < n; i++) {
        rgba[4 * i + 0] = p[4 * i + 2];
        rgba[4 * i + 1] = p[4 * i + 1];
        rgba[4 * i + 2] = p[4 * i + 0];
        rgba[4 * i + 3] = p[4 * i + 3];
    }
    vf_result res = vf_png_write(path, rgba, c->width, c->height);
    free(rgba);
    return res;
}
