#include "render.h"

#include "gpu_cmd.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void vf_renderer_destroy(vf_renderer **r)
{
    if (!r || !*r)
        return;
    (*r)->vt->destroy(*r);
    *r = NULL;
}

void vf_render_barrier_after_sim(VkCommandBuffer cmd)
{
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_READ_BIT);
}

void vf_render_prepare_target(VkCommandBuffer cmd, vf_image *target)
{
    target->layout = VK_IMAGE_LAYOUT_UNDEFINED;
    vf_image_transition(cmd, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT);
}

static VkRenderingAttachmentInfo attachment(const vf_image *img, VkImageLayout layout, VkAttachmentLoadOp load,
                                            VkAttachmentStoreOp store, VkClearValue clear)
{
    return (VkRenderingAttachmentInfo){
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = img->view,
        .imageLayout = layout,
        .loadOp = load,
        .storeOp = store,
        .clearValue = clear,
    };
}

VkRenderingAttachmentInfo vf_render_color_attachment(const vf_image *img, VkAttachmentLoadOp load)
{
    return attachment(img, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, load, VK_ATTACHMENT_STORE_OP_STORE,
                      (VkClearValue){.color = {{0.0f, 0.0f, 0.0f, 0.0f}}});
}

VkRenderingAttachmentInfo vf_render_depth_attachment(const vf_image *img, VkImageLayout layout, VkAttachmentLoadOp load,
                                                     VkAttachmentStoreOp store)
{
    return attachment(img, layout, load, store, (VkClearValue){.depthStencil = {1.0f, 0}});
}

void vf_render_begin(VkCommandBuffer cmd, uint32_t w, uint32_t h, const VkRenderingAttachmentInfo *color,
                     const VkRenderingAttachmentInfo *depth)
{
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, {w, h}},
        .layerCount = 1,
        .colorAttachmentCount = 1,
        .pColorAttachments = color,
        .pDepthAttachment = depth,
    };
    vkCmdBeginRendering(cmd, &ri);
    VkViewport vp = {0, 0, (float)w, (float)h, 0, 1};
    VkRect2D sc = {{0, 0}, {w, h}};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &sc);
}

void vf_render_begin_color(VkCommandBuffer cmd, const vf_image *target, VkAttachmentLoadOp load)
{
    VkRenderingAttachmentInfo ca = vf_render_color_attachment(target, load);
    vf_render_begin(cmd, target->width, target->height, &ca, NULL);
}

vf_renderer vf_renderer_base(const vf_renderer_vtable *vt, vf_gpu *gpu, const vf_render_options *opt)
{
    return (vf_renderer){
        .vt = vt,
        .gpu = gpu,
        .format = opt && opt->format ? opt->format : VF_CAPTURE_FORMAT,
        .width = opt && opt->width ? opt->width : 1280,
        .height = opt && opt->height ? opt->height : 720,
        .path = VF_RENDER_PATH_RASTER,
    };
}

vf_result vf_renderer_set_size(vf_renderer *r, uint32_t width, uint32_t height)
{
    if (!width || !height)
        return VF_ERR_INVALID_ARG;
    r->width = width;
    r->height = height;
    return VF_OK;
}

int vf_render_mode_index(const char *views, const char *mode)
{
    return mode ? vf_choice_index(views, mode) : 0;
}

vf_result vf_render_settings_apply(const vf_render_options *opt, const vf_param_def *table, size_t count, void *options,
                                   char *err, size_t cap)
{
    for (uint32_t i = 0; opt && i < opt->setting_count; i++) {
        const char *a = opt->settings[i];
        size_t kl = strcspn(a, "=");
        bool ours = false;
        for (size_t k = 0; k < count && !ours; k++)
            ours = strlen(table[k].key) == kl && !strncmp(table[k].key, a, kl);
        if (!ours)
            continue; /* another renderer's key (the viewer switched scenes) */
        vf_result r = vf_params_set(table, count, options, a, err, cap);
        if (r != VF_OK)
            return r;
    }
    return VF_OK;
}

const char *vf_render_path_name(vf_render_path path)
{
    static const char *const names[] = {VF_RENDER_PATH_LIST(VF_CHOICE_NAME)};
    return (unsigned)path < sizeof names / sizeof names[0] ? names[path] : "?";
}

/* The auto choices, the same on every device so far: the screen-space
 * fluid's (0) and the height field surface's (1) path, and why. */
static const struct {
    vf_render_path path;
    const char *why;
} auto_choices[2] = {
    {VF_RENDER_PATH_COMPUTE, "compute on every device: no device measured so far draws the screen-space fluid faster "
                             "with its rasteriser (docs/architecture.md, Render paths)"},
    {VF_RENDER_PATH_RASTER, "raster on every device: every device measured so far (lavapipe, SwiftShader) draws the "
                            "height field's surface faster with its rasteriser (docs/architecture.md, Render paths)"},
};

/* Auto choice k, with its reason in why (cap bytes; may be NULL). */
static vf_render_path auto_choice(int k, char *why, size_t cap)
{
    if (why && cap)
        snprintf(why, cap, "%s", auto_choices[k].why);
    return auto_choices[k].path;
}

vf_render_path vf_render_path_auto(const vf_device_info *dev, char *why, size_t cap)
{
    (void)dev;
    return auto_choice(0, why, cap);
}

vf_render_path vf_render_path_auto_surface(const vf_device_info *dev, char *why, size_t cap)
{
    (void)dev;
    return auto_choice(1, why, cap);
}
