/* render_ssf_compute: the screen-space fluid's compute path (render_ssf.h):
 * the same picture as the raster path without the rasteriser.
 *
 * Per frame, every pass a compute dispatch in a profiler scope:
 *   ssf_scene           the ray cast of ssf_scene.glsl per pixel into the
 *                       scene's colour and depth-buffer value; starts the
 *                       accumulators and the indirect dispatches
 *   ssf_splat           one invocation per particle splats its sphere over
 *                       its pixel box: atomic minimum on the bits of the
 *                       front hit's linear depth, atomic add of the chord in
 *                       fixed point (ssf_splat.glsl); large spheres are
 *                       listed and splatted by a workgroup each (indirect)
 *   ssf_resolve         the accumulators into the R32F depth and thickness
 *   ssf_smooth, ssf_thickness_blur   as on the raster path
 *   ssf_foam            the foam sprites' optical depth per pixel (indirect)
 *   ssf_composite       fluid or scene per pixel, then the foam layer,
 *                       written as sRGB bytes into the target's storage view
 *                       (an sRGB target's UNORM alias), or into an image
 *                       copied into the target (one copy)
 * Buffers are synchronised by a global memory barrier at each pass boundary
 * (in the same vkCmdPipelineBarrier2 as the image barriers). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "gpu_counters.h"
#include "render_ssf_internal.h"
#include "render_pipelines.h"

#define CS VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT

static bool bgra(VkFormat f)
{
    return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM;
}

bool ssf_compute_target_ok(const vf_image *target)
{
    return target->storage || (target->usage & VK_IMAGE_USAGE_TRANSFER_DST_BIT);
}

#define BIT(n) (1u << (n))

/* Each pass: its pipeline, its row of render_pipelines.def, and the bindings
 * its shader reads or writes whole (the work accounting's bytes; the argument
 * buffer, of which a pass touches a few words, is left out). */
typedef struct cs_pass_def {
    size_t pipeline; /* offset of its vf_pipeline * in ssf_compute */
    vf_render_pipe id;
    uint32_t used;
} cs_pass_def;

static const cs_pass_def cs_passes[] = {
    {offsetof(ssf_compute, p_scene), VF_RP_SSF_CS_SCENE,
     BIT(0) | BIT(VF_SSF_CS_SCENE_COLOR) | BIT(VF_SSF_CS_SCENE_DEPTH) | BIT(VF_SSF_CS_DEPTH_ACC) |
         BIT(VF_SSF_CS_THICK_ACC) | BIT(VF_SSF_CS_FOAM_ACC)},
    {offsetof(ssf_compute, p_splat), VF_RP_SSF_CS_SPLAT,
     BIT(0) | BIT(VF_SSF_CS_SCENE_DEPTH) | BIT(VF_SSF_CS_DEPTH_ACC) | BIT(VF_SSF_CS_THICK_ACC) | BIT(VF_SSF_CS_POSITIONS)},
    {offsetof(ssf_compute, p_big), VF_RP_SSF_CS_BIG,
     BIT(0) | BIT(VF_SSF_CS_SCENE_DEPTH) | BIT(VF_SSF_CS_DEPTH_ACC) | BIT(VF_SSF_CS_THICK_ACC)},
    {offsetof(ssf_compute, p_resolve), VF_RP_SSF_CS_RESOLVE,
     BIT(0) | BIT(VF_SSF_CS_DEPTH_ACC) | BIT(VF_SSF_CS_THICK_ACC) | BIT(VF_SSF_CS_DEPTH_OUT) | BIT(VF_SSF_CS_THICK_OUT)},
    {offsetof(ssf_compute, p_foam), VF_RP_SSF_CS_FOAM,
     BIT(0) | BIT(VF_SSF_CS_SCENE_DEPTH) | BIT(VF_SSF_CS_FOAM_ACC) | BIT(VF_SSF_CS_FLUID_DEPTH) | BIT(VF_SSF_CS_FOAM_POS) |
         BIT(VF_SSF_CS_FOAM_VEL)},
    {offsetof(ssf_compute, p_composite), VF_RP_SSF_CS_COMPOSITE,
     BIT(0) | BIT(VF_SSF_CS_SCENE_DEPTH) | BIT(VF_SSF_CS_FLUID_DEPTH) | BIT(VF_SSF_CS_THICKNESS) |
         BIT(VF_SSF_CS_SCENE_SAMPLED) | BIT(VF_SSF_CS_OUTPUT)},
};
static vf_pipeline **pipeline_of(ssf *s, const cs_pass_def *d)
{
    return (vf_pipeline **)((char *)&s->cs + d->pipeline);
}

vf_result ssf_compute_create(ssf *s)
{
    vf_result res = VF_OK;
    for (size_t i = 0; i < sizeof cs_passes / sizeof cs_passes[0] && res == VF_OK; i++) {
        const cs_pass_def *pd = &cs_passes[i];
        res = vf_render_pipeline_create(s->base.gpu, pd->id, s->name, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED,
                                        pipeline_of(s, pd));
    }
    if (res != VF_OK)
        ssf_compute_destroy(s);
    return res;
}

void ssf_compute_free_buffers(ssf *s)
{
    vf_buffer_destroy(&s->cs.depth_acc);
    vf_buffer_destroy(&s->cs.thick_acc);
    vf_buffer_destroy(&s->cs.foam_acc);
    vf_buffer_destroy(&s->cs.args);
}

void ssf_compute_destroy(ssf *s)
{
    ssf_compute *c = &s->cs;
    vf_pipeline_destroy(&c->p_scene);
    vf_pipeline_destroy(&c->p_splat);
    vf_pipeline_destroy(&c->p_big);
    vf_pipeline_destroy(&c->p_resolve);
    vf_pipeline_destroy(&c->p_foam);
    vf_pipeline_destroy(&c->p_composite);
    ssf_compute_free_buffers(s);
}

vf_result ssf_compute_buffers(ssf *s, uint32_t w, uint32_t h, uint32_t tw, uint32_t th)
{
    ssf_compute_free_buffers(s);
    s->counted = false;
    VkDeviceSize px = (VkDeviceSize)w * h * 4, tpx = (VkDeviceSize)tw * th * 4;
    if (px > s->base.gpu->props.limits.maxStorageBufferRange)
        return VF_ERR_TOO_LARGE;
    struct {
        vf_buffer **out;
        VkDeviceSize size;
        const char *what;
        VkBufferUsageFlags extra;
    } defs[] = {
        {&s->cs.depth_acc, px, "depth accumulator", 0},
        {&s->cs.thick_acc, tpx, "thickness accumulator", 0},
        {&s->cs.foam_acc, px, "foam accumulator", 0},
        {&s->cs.args, VF_SSF_ARGS_WORDS * 4, "compute arguments",
         VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT},
    };
    vf_result res = VF_OK;
    for (size_t i = 0; i < sizeof defs / sizeof defs[0] && res == VF_OK; i++) {
        char n[96];
        snprintf(n, sizeof n, "%s %s", s->name, defs[i].what);
        vf_buffer_desc d = {.size = defs[i].size,
                            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | defs[i].extra,
                            .name = n};
        res = vf_buffer_create(s->base.gpu, &d, defs[i].out);
    }
    if (res != VF_OK)
        ssf_compute_free_buffers(s);
    return res;
}

/* ---------------------------------------------------------------- passes */

/* The bindings every compute pass may take, by VF_SSF_CS_* number; numbers
 * without a resource now get one of the right type (the argument buffer,
 * the output image). */
typedef struct cs_bindings {
    vf_binding b[VF_SSF_CS_FOAM_VEL + 1];
} cs_bindings;

static cs_bindings bindings_of(ssf *s, int depth_img, vf_image *out)
{
    cs_bindings cb;
    VkSampler ns = s->base.gpu->sampler_nearest, ls = s->base.gpu->sampler_linear;
    vf_binding args = vf_bind_buffer(s->cs.args);
    cb.b[0] = ssf_bind_frame(s);
    cb.b[VF_SSF_CS_SCENE_COLOR] = ssf_bind_storage(s, VF_SSF_IMAGE_SCENE_COLOR);
    cb.b[VF_SSF_CS_SCENE_DEPTH] = ssf_bind_storage(s, VF_SSF_IMAGE_SCENE_DEPTH);
    cb.b[VF_SSF_CS_DEPTH_ACC] = vf_bind_buffer(s->cs.depth_acc);
    cb.b[VF_SSF_CS_THICK_ACC] = vf_bind_buffer(s->cs.thick_acc);
    cb.b[VF_SSF_CS_FOAM_ACC] = vf_bind_buffer(s->cs.foam_acc);
    cb.b[VF_SSF_CS_ARGS] = args;
    cb.b[VF_SSF_CS_FOAM_STATE] = s->foam.positions ? vf_bind_buffer(s->foam.draw_args) : args;
    cb.b[VF_SSF_CS_POSITIONS] = ssf_have_particles(s) ? ssf_bind_positions(s) : args;
    cb.b[VF_SSF_CS_DEPTH_OUT] = ssf_bind_storage(s, VF_SSF_IMAGE_DEPTH);
    cb.b[VF_SSF_CS_THICK_OUT] = ssf_bind_storage(s, VF_SSF_IMAGE_THICKNESS);
    cb.b[VF_SSF_CS_FLUID_DEPTH] = ssf_bind_sampled(s, depth_img, ns);
    cb.b[VF_SSF_CS_THICKNESS] = ssf_bind_sampled(s, VF_SSF_IMAGE_THICKNESS_BLUR, ns);
    cb.b[VF_SSF_CS_SCENE_SAMPLED] = ssf_bind_sampled(s, VF_SSF_IMAGE_SCENE_COLOR, ls);
    cb.b[VF_SSF_CS_OUTPUT] = (vf_binding){.image = out ? out : s->img[IMG_OUTPUT], .layout = VK_IMAGE_LAYOUT_GENERAL};
    cb.b[VF_SSF_CS_FOAM_POS] = s->foam.positions ? vf_bind_buffer(s->foam.positions) : args;
    cb.b[VF_SSF_CS_FOAM_VEL] = s->foam.positions ? vf_bind_buffer(s->foam.velocities) : args;
    return cb;
}

/* Records pass k's dispatch: gx x gy x 1 workgroups, or indirect from the
 * argument buffer at word indirect_word (gx 0); counted with the bytes of
 * the bindings its shader uses. */
static void cs_dispatch(ssf *s, VkCommandBuffer cmd, size_t k, const cs_bindings *cb, const vf_ssf_cs_push *push,
                        uint32_t gx, uint32_t gy, uint32_t indirect_word)
{
    const vf_pipeline *p = *pipeline_of(s, &cs_passes[k]);
    vf_cmd_bind(cmd, p, cb->b, push);
    if (gx)
        vkCmdDispatch(cmd, gx, gy, 1);
    else
        vkCmdDispatchIndirect(cmd, s->cs.args->buffer, (VkDeviceSize)indirect_word * 4);
    if (!s->base.gpu->counters)
        return;
    cs_bindings used;
    memset(&used, 0, sizeof used);
    for (int i = 0; i <= VF_SSF_CS_FOAM_VEL; i++)
        if (cs_passes[k].used & BIT(i))
            used.b[i] = cb->b[i];
    vf_count_dispatch(s->base.gpu, p->name, vf_pipeline_bound_bytes(p, used.b), gx == 0, false);
}

enum { K_SCENE, K_SPLAT, K_BIG, K_RESOLVE, K_FOAM, K_COMPOSITE };

static vf_ssf_cs_push push_of(const ssf *s)
{
    return (vf_ssf_cs_push){
        .thick_fused = s->thick_w == s->base.width && s->thick_h == s->base.height,
        .stats = s->stats,
        .has_foam = s->foam.positions != NULL,
    };
}

static void pass_scene(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_scene", false);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_COLOR, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    /* the accumulators and arguments: after every earlier use (the last
     * frame's reads), in the same barrier */
    VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                           .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                           .srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT,
                           .dstStageMask = CS,
                           .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT};
    VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &mb,
                           .imageMemoryBarrierCount = s->batch_count, .pImageMemoryBarriers = s->batch};
    vkCmdPipelineBarrier2(cmd, &di);
    vf_count_barriers(s->base.gpu, 1);
    s->batch_count = 0;
    cs_bindings cb = bindings_of(s, VF_SSF_IMAGE_DEPTH, NULL);
    vf_ssf_cs_push p = push_of(s);
    p.count = s->foam.positions ? (uint32_t)(s->foam.draw_offset / 4 + 1) : 0; /* the draw's instanceCount */
    cs_dispatch(s, cmd, K_SCENE, &cb, &p, ssf_groups(s->base.width, VF_SSF_WG_X),
                ssf_groups(s->base.height, VF_SSF_WG_Y), 0);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void pass_splat(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_splat", false);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    ssf_image_flush(s, cmd, true);
    cs_bindings cb = bindings_of(s, VF_SSF_IMAGE_DEPTH, NULL);
    vf_ssf_cs_push p = push_of(s);
    if (ssf_have_particles(s)) {
        p.count = s->parts.count;
        uint32_t groups = ssf_groups(s->parts.count, VF_SSF_WG_SPLAT);
        uint32_t gy = ssf_groups(groups, s->base.gpu->props.limits.maxComputeWorkGroupCount[0]);
        cs_dispatch(s, cmd, K_SPLAT, &cb, &p, ssf_groups(groups, gy), gy, 0); /* as vf_cmd_dispatch_1d */
        ssf_image_flush(s, cmd, true);
        /* the large spheres the splat listed: a workgroup each */
        cs_dispatch(s, cmd, K_BIG, &cb, &p, 0, 0, VF_SSF_ARGS_BIG);
    }
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void pass_resolve(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_resolve", false);
    ssf_image_use(s, VF_SSF_IMAGE_DEPTH, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_THICKNESS, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    ssf_image_flush(s, cmd, true);
    cs_bindings cb = bindings_of(s, VF_SSF_IMAGE_DEPTH, NULL);
    vf_ssf_cs_push p = push_of(s);
    cs_dispatch(s, cmd, K_RESOLVE, &cb, &p, ssf_groups(s->base.width, VF_SSF_WG_X),
                ssf_groups(s->base.height, VF_SSF_WG_Y), 0);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void pass_foam(ssf *s, VkCommandBuffer cmd, vf_profiler *prof, int depth_img)
{
    if (!s->foam.positions)
        return;
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_foam", false);
    ssf_image_use(s, depth_img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, CS, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    ssf_image_flush(s, cmd, true);
    cs_bindings cb = bindings_of(s, depth_img, NULL);
    vf_ssf_cs_push p = push_of(s);
    cs_dispatch(s, cmd, K_FOAM, &cb, &p, 0, 0, VF_SSF_ARGS_FOAM);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void pass_composite(ssf *s, VkCommandBuffer cmd, vf_profiler *prof, vf_image *target, int depth_img)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_composite", false);
    const VkAccessFlags2 sampled = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT;
    ssf_image_use(s, depth_img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, CS, sampled);
    ssf_image_use(s, VF_SSF_IMAGE_THICKNESS_BLUR, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, CS, sampled);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_COLOR, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, CS, sampled);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    bool direct = target->storage != NULL && !bgra(target->format);
    vf_image *out = direct ? target->storage : s->img[IMG_OUTPUT];
    if (direct) /* the prepared target (contents undefined) becomes the storage image */
        ssf_image_use_other(s, target, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0, CS,
                            VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    else
        ssf_image_use(s, IMG_OUTPUT, VK_IMAGE_LAYOUT_GENERAL, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    ssf_image_flush(s, cmd, true);
    cs_bindings cb = bindings_of(s, depth_img, out);
    vf_ssf_cs_push p = push_of(s);
    p.bgra = bgra(target->format);
    cs_dispatch(s, cmd, K_COMPOSITE, &cb, &p, ssf_groups(s->base.width, VF_SSF_WG_X),
                ssf_groups(s->base.height, VF_SSF_WG_Y), 0);
    /* back to the record() contract: COLOR_ATTACHMENT_OPTIMAL, written
     * before the colour-output stage */
    const VkPipelineStageFlags2 co = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkAccessFlags2 ca = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    if (direct) {
        ssf_image_use_other(s, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                            co, ca);
        ssf_image_flush(s, cmd, false);
    } else {
        ssf_image_use(s, IMG_OUTPUT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_TRANSFER_READ_BIT);
        ssf_image_use_other(s, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, co, 0, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT);
        ssf_image_flush(s, cmd, false);
        VkImageCopy region = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .extent = {s->base.width, s->base.height, 1},
        };
        vkCmdCopyImage(cmd, s->img[IMG_OUTPUT]->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target->image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        ssf_image_use_other(s, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                            VK_ACCESS_2_TRANSFER_WRITE_BIT, co, ca);
        ssf_image_flush(s, cmd, false);
    }
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

bool ssf_compute_gpu_counts(ssf *s, vf_render_gpu_counts *out)
{
    uint32_t w[4];
    if (s->base.path != VF_RENDER_PATH_COMPUTE || !s->counted || !s->cs.args ||
        vf_buffer_read(s->cs.args, VF_SSF_ARGS_STATS * 4, w, sizeof w) != VF_OK)
        return false;
    *out = (vf_render_gpu_counts){w[0], w[1], w[2], w[3]};
    return true;
}

vf_result ssf_compute_record(ssf *s, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof)
{
    s->stats = s->base.gpu->counters != NULL; /* the work accounting's frames count on the device too */
    s->counted |= s->stats;
    ssf_pass_frame_constants(s, cmd);
    pass_scene(s, cmd, prof);
    pass_splat(s, cmd, prof);
    pass_resolve(s, cmd, prof);
    int depth_img = ssf_pass_smooth(s, cmd, prof);
    ssf_pass_thickness_blur(s, cmd, prof);
    pass_foam(s, cmd, prof, depth_img);
    pass_composite(s, cmd, prof, target, depth_img);
    return VF_OK;
}
