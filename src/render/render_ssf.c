/* render_ssf: screen-space fluid rendering (see render_ssf.h for the passes).
 *
 * Synchronisation: every internal image carries the stage and access of its
 * last use (img_state); use_image() records the one barrier (with layout
 * transition) from that use to the next. At the start of a frame every image
 * is discarded (old layout UNDEFINED) behind a barrier from all earlier
 * commands' writes, so frames in flight and reads by other code (vf_image_read
 * between frames) never race with this frame's writes. */
#include "render_ssf_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "render_pipelines.h"

#define DEPTH_FORMAT VK_FORMAT_D32_SFLOAT
#define SCENE_FORMAT VK_FORMAT_R16G16B16A16_SFLOAT

/* ---------------------------------------------------------------- options */

#define OPT(field) offsetof(vf_ssf_options, field)
const vf_param_def vf_ssf_params[] = {
    {"ssf.view", VF_PARAM_ENUM, OPT(mode), VF_SSF_MODE_SSF, 0, 0, false, VF_CHOICES(VF_SSF_VIEW_LIST), "1",
     "what to draw: the fluid surface or the particles as coloured spheres"},
    {"ssf.radius", VF_PARAM_DOUBLE, OPT(radius), 0, 0, 10, true, NULL, "m",
     "particle sphere radius; 0 = 0.6 x the particle spacing (the particle's volume)"},
    {"ssf.filter", VF_PARAM_ENUM, OPT(filter), VF_SSF_FILTER_BILATERAL, 0, 0, false, VF_CHOICES(VF_SSF_FILTER_LIST), "1",
     "depth smoothing filter (narrow-range: Truong and Yuksel 2018)"},
    {"ssf.iterations", VF_PARAM_INT, OPT(iterations), 3, 1, 16, false, NULL, "1",
     "depth smoothing iterations (each an x and a y pass)"},
    {"ssf.smooth_off", VF_PARAM_BOOL, OPT(smooth_off), 0, 0, 1, false, NULL, "1",
     "no depth smoothing (shows the raw spheres; for debugging)"},
    {"ssf.filter_radius", VF_PARAM_DOUBLE, OPT(filter_radius), 0, 0, 10, false, NULL, "m",
     "smoothing half-width at the surface; 0 = 4 x radius"},
    {"ssf.filter_max_px", VF_PARAM_DOUBLE, OPT(filter_max_px), 20, 1, VF_SSF_MAX_RADIUS_PX, false, NULL, "px",
     "cap of the smoothing half-width in pixels"},
    {"ssf.range_sigma", VF_PARAM_DOUBLE, OPT(range_sigma), 0, 0, 10, false, NULL, "m",
     "bilateral: sigma of the weight on depth difference; 0 = 2 x radius"},
    {"ssf.nr_threshold", VF_PARAM_DOUBLE, OPT(nr_threshold), 0, 0, 10, false, NULL, "m",
     "narrow-range: depth window half-width; 0 = 4 x radius"},
    {"ssf.nr_clamp", VF_PARAM_DOUBLE, OPT(nr_clamp), 0, 0, 10, false, NULL, "m",
     "narrow-range: farther samples clamp to centre + this; 0 = radius"},
    {"ssf.thickness_half", VF_PARAM_BOOL, OPT(thickness_half), 0, 0, 1, false, NULL, "1",
     "render the thickness at half resolution"},
    {"ssf.thickness_blur_px", VF_PARAM_DOUBLE, OPT(thickness_blur_px), 4, 0.25, 16, false, NULL, "px",
     "sigma of the thickness Gaussian (thickness pixels)"},
    {"ssf.fluid_r", VF_PARAM_DOUBLE, OPT(fluid_r), 0.30, 0.001, 1, false, NULL, "1",
     "fluid colour (red): transmittance through absorption_length of fluid"},
    {"ssf.fluid_g", VF_PARAM_DOUBLE, OPT(fluid_g), 0.62, 0.001, 1, false, NULL, "1", "fluid colour (green)"},
    {"ssf.fluid_b", VF_PARAM_DOUBLE, OPT(fluid_b), 0.85, 0.001, 1, false, NULL, "1", "fluid colour (blue)"},
    {"ssf.absorption_length", VF_PARAM_DOUBLE, OPT(absorption_length), 0.08, 0, 100, true, NULL, "m",
     "thickness at which the fluid colour is reached (Beer-Lambert)"},
    {"ssf.refraction", VF_PARAM_DOUBLE, OPT(refraction), 0.1, 0, 10, false, NULL, "m/m",
     "background shift along the normal per metre of thickness"},
    {"ssf.color_by", VF_PARAM_ENUM, OPT(color_by), VF_SSF_COLOR_SPEED, 0, 0, false, VF_CHOICES(VF_SSF_COLOR_LIST), "1",
     "particles view colouring: |velocity|, density (attributes) or pressure (position w)"},
    {"ssf.color_min", VF_PARAM_DOUBLE, OPT(color_min), 0, -1e30, 1e30, false, NULL, "1",
     "particles view: value at the blue end of the ramp; min = max: by color_by (0, 950, 0)"},
    {"ssf.color_max", VF_PARAM_DOUBLE, OPT(color_max), 0, -1e30, 1e30, false, NULL, "1",
     "particles view: value at the red end of the ramp; min = max: by color_by (2 m/s, 1050 kg/m3, 9810 Pa)"},
    {"ssf.debug", VF_PARAM_ENUM, OPT(debug_view), VF_SSF_DEBUG_NONE, 0, 0, false, VF_CHOICES(VF_SSF_DEBUG_LIST), "1",
     "show an input of the composite instead of the shaded fluid"},
};
const size_t vf_ssf_param_count = sizeof vf_ssf_params / sizeof vf_ssf_params[0];

static double or_default(double v, double def)
{
    return v > 0.0 ? v : def;
}

static void resolve_options(const vf_ssf_options *in, vf_ssf_options *o)
{
    if (in)
        *o = *in;
    else
        memset(o, 0, sizeof *o);
    o->mode = o->mode == VF_SSF_MODE_PARTICLES ? VF_SSF_MODE_PARTICLES : VF_SSF_MODE_SSF;
    o->radius = or_default(o->radius, 0.01);
    o->filter = o->filter == VF_SSF_FILTER_NARROW_RANGE ? VF_SSF_FILTER_NARROW_RANGE : VF_SSF_FILTER_BILATERAL;
    o->iterations = o->iterations > 0 ? o->iterations : 3;
    o->filter_radius = or_default(o->filter_radius, 4.0 * o->radius);
    o->filter_max_px = fmin(or_default(o->filter_max_px, 20.0), VF_SSF_MAX_RADIUS_PX);
    o->range_sigma = or_default(o->range_sigma, 2.0 * o->radius);
    o->nr_threshold = or_default(o->nr_threshold, 4.0 * o->radius);
    o->nr_clamp = or_default(o->nr_clamp, o->radius);
    o->thickness_blur_px = or_default(o->thickness_blur_px, 4.0);
    if (o->fluid_r <= 0.0 && o->fluid_g <= 0.0 && o->fluid_b <= 0.0) {
        o->fluid_r = 0.30;
        o->fluid_g = 0.62;
        o->fluid_b = 0.85;
    }
    o->fluid_r = fmin(fmax(o->fluid_r, 0.001), 1.0);
    o->fluid_g = fmin(fmax(o->fluid_g, 0.001), 1.0);
    o->fluid_b = fmin(fmax(o->fluid_b, 0.001), 1.0);
    o->absorption_length = or_default(o->absorption_length, 0.08);
    o->refraction = o->refraction > 0.0 ? o->refraction : (o->refraction < 0.0 ? 0.0 : 0.1);
    if (o->color_by < VF_SSF_COLOR_SPEED || o->color_by > VF_SSF_COLOR_PRESSURE)
        o->color_by = VF_SSF_COLOR_SPEED;
    if (o->debug_view < VF_SSF_DEBUG_NONE || o->debug_view > VF_SSF_DEBUG_DEPTH)
        o->debug_view = VF_SSF_DEBUG_NONE;
    if (o->color_min == o->color_max) {
        /* Speed in m/s, density of water +-5 % in kg/m^3, pressure up to a
         * metre of water column in Pa. */
        static const double lo[3] = {0.0, 950.0, 0.0}, hi[3] = {2.0, 1050.0, 9810.0};
        o->color_min = lo[o->color_by];
        o->color_max = hi[o->color_by];
    }
}

/* ---------------------------------------------------------------- images */

void ssf_image_use(ssf *s, int i, VkImageLayout layout, VkPipelineStageFlags2 stage, VkAccessFlags2 access)
{
    const VkAccessFlags2 writes = VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                                  VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    vf_image *img = s->img[i];
    img_state *st = &s->st[i];
    if (img->layout == layout && !(st->access & writes) && !(access & writes) && !(stage & ~st->synced) &&
        !(access & ~st->synced_access)) {
        /* Read after read in stages the last barrier (and its layout
         * transition) already reaches: no barrier, remember every reader. */
        st->stage |= stage;
        st->access |= access;
        return;
    }
    s->batch[s->batch_count++] = vf_image_barrier(img, layout, st->stage, st->access & writes, stage, access);
    img->layout = layout;
    st->stage = stage;
    st->access = access;
    st->synced = stage;
    st->synced_access = access;
}

void ssf_image_use_other(ssf *s, vf_image *img, VkImageLayout layout, VkPipelineStageFlags2 src_stage,
                         VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    s->batch[s->batch_count++] = vf_image_barrier(img, layout, src_stage, src_access, dst_stage, dst_access);
    img->layout = layout;
}

void ssf_image_flush(ssf *s, VkCommandBuffer cmd, bool memory)
{
    if (!s->batch_count && !memory)
        return;
    VkMemoryBarrier2 mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
        .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
        .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                         VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
    };
    VkDependencyInfo di = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .memoryBarrierCount = memory ? 1 : 0,
        .pMemoryBarriers = &mb,
        .imageMemoryBarrierCount = s->batch_count,
        .pImageMemoryBarriers = s->batch,
    };
    vkCmdPipelineBarrier2(cmd, &di);
    vf_count_barriers(s->base.gpu, 1);
    s->batch_count = 0;
}

/* Forgets the contents of an image: the next use transitions from UNDEFINED
 * after every earlier command (any stage, any write). */
static void image_discard(ssf *s, int i)
{
    if (!s->img[i])
        return;
    s->img[i]->layout = VK_IMAGE_LAYOUT_UNDEFINED;
    s->st[i].stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    s->st[i].access = VK_ACCESS_2_MEMORY_WRITE_BIT;
    s->st[i].synced = 0;
    s->st[i].synced_access = 0;
}

static void destroy_images(ssf *s)
{
    for (int i = 0; i < IMG_ALL; i++)
        vf_image_destroy(&s->img[i]);
    ssf_compute_free_buffers(s);
}

/* The path the targets are made for: compute where it was asked for (or
 * picked by auto), the view is the fluid surface of particles (the
 * particles view and the surface mesh draw with the rasteriser), the
 * compute pipelines exist and, for auto, the accumulators fit the device's
 * storage buffer range (an explicit compute path reports VF_ERR_TOO_LARGE). */
static vf_render_path path_for(const ssf *s, uint32_t w, uint32_t h)
{
    if (s->want == VF_RENDER_PATH_RASTER || s->opt.mode != VF_SSF_MODE_SSF || s->surf.vertices || !s->cs.p_scene)
        return VF_RENDER_PATH_RASTER;
    if (s->want_auto && (uint64_t)w * h * 4 > s->base.gpu->props.limits.maxStorageBufferRange)
        return VF_RENDER_PATH_RASTER;
    return VF_RENDER_PATH_COMPUTE;
}

static vf_result create_images(ssf *s, uint32_t w, uint32_t h)
{
    const VkImageUsageFlags sampled = VK_IMAGE_USAGE_SAMPLED_BIT, xfer = VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                                          VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            storage = VK_IMAGE_USAGE_STORAGE_BIT, color = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                            zbuf = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    uint32_t tw = s->opt.thickness_half ? (w + 1) / 2 : w, th = s->opt.thickness_half ? (h + 1) / 2 : h;
    bool cs = path_for(s, w, h) == VF_RENDER_PATH_COMPUTE;
    struct {
        const char *what;
        VkFormat format; /* UNDEFINED: none on this path */
        VkImageUsageFlags usage;
        bool thick;
    } defs[IMG_ALL] = {
        [VF_SSF_IMAGE_SCENE_COLOR] = {"scene color", SCENE_FORMAT, (cs ? storage : color) | sampled | xfer, false},
        [VF_SSF_IMAGE_SCENE_DEPTH] = {"scene depth", cs ? VK_FORMAT_R32_SFLOAT : DEPTH_FORMAT, (cs ? storage : zbuf) | sampled | xfer,
                                      false},
        [VF_SSF_IMAGE_FLUID_ZBUF] = {"fluid zbuffer", cs ? VK_FORMAT_UNDEFINED : DEPTH_FORMAT, zbuf | xfer, false},
        [VF_SSF_IMAGE_DEPTH] = {"depth", VK_FORMAT_R32_SFLOAT, color | storage | sampled | xfer, false},
        [VF_SSF_IMAGE_DEPTH_SMOOTH] = {"depth smooth", VK_FORMAT_R32_SFLOAT, storage | sampled | xfer, false},
        [VF_SSF_IMAGE_THICKNESS] = {"thickness", cs ? VK_FORMAT_R32_SFLOAT : VK_FORMAT_R16_SFLOAT,
                                    (cs ? storage : color) | sampled | xfer, true},
        [VF_SSF_IMAGE_THICKNESS_BLUR] = {"thickness blur", VK_FORMAT_R32_SFLOAT, storage | sampled | xfer, true},
        [IMG_DEPTH_TMP] = {"depth tmp", VK_FORMAT_R32_SFLOAT, storage | xfer, false},
        [IMG_THICK_TMP] = {"thickness tmp", VK_FORMAT_R32_SFLOAT, storage | sampled | xfer, true},
        [IMG_OUTPUT] = {"output", cs ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_UNDEFINED, storage | xfer, false},
    };
    vf_result res = VF_OK;
    for (int i = 0; i < IMG_ALL && res == VF_OK; i++) {
        if (defs[i].format == VK_FORMAT_UNDEFINED)
            continue;
        char name[96];
        snprintf(name, sizeof name, "%s %s", s->name, defs[i].what);
        vf_image_desc d = {
            .width = defs[i].thick ? tw : w,
            .height = defs[i].thick ? th : h,
            .format = defs[i].format,
            .usage = defs[i].usage,
            .name = name,
        };
        if ((res = vf_image_create(s->base.gpu, &d, &s->img[i])) == VF_OK)
            image_discard(s, i);
    }
    if (res == VF_OK && cs)
        res = ssf_compute_buffers(s, w, h, tw, th);
    if (res != VF_OK) {
        destroy_images(s);
        return res;
    }
    s->thick_w = tw;
    s->thick_h = th;
    s->base.width = w;
    s->base.height = h;
    s->base.path = cs ? VF_RENDER_PATH_COMPUTE : VF_RENDER_PATH_RASTER;
    return VF_OK;
}

/* ---------------------------------------------------------------- pipelines */

static void destroy_pipelines(ssf *s)
{
    vf_pipeline_destroy(&s->p_scene);
    vf_pipeline_destroy(&s->p_background);
    vf_pipeline_destroy(&s->p_depth);
    vf_pipeline_destroy(&s->p_thickness);
    vf_pipeline_destroy(&s->p_composite);
    vf_pipeline_destroy(&s->p_particles);
    vf_pipeline_destroy(&s->p_smooth);
    vf_pipeline_destroy(&s->p_blur);
    vf_pipeline_destroy(&s->p_pack);
    vf_pipeline_destroy(&s->p_mesh_depth);
    vf_pipeline_destroy(&s->p_mesh_thickness);
    vf_pipeline_destroy(&s->p_foam);
}

static vf_result create_pipelines(ssf *s)
{
    const struct {
        vf_render_pipe id;
        vf_pipeline **p;
    } pipes[] = {
        {VF_RP_SSF_SCENE, &s->p_scene},         {VF_RP_SSF_BACKGROUND, &s->p_background},
        {VF_RP_SSF_DEPTH, &s->p_depth},         {VF_RP_SSF_THICKNESS, &s->p_thickness},
        {VF_RP_SSF_COMPOSITE, &s->p_composite}, {VF_RP_SSF_PARTICLES, &s->p_particles},
        {VF_RP_SSF_SMOOTH, &s->p_smooth},       {VF_RP_SSF_BLUR, &s->p_blur},
        {VF_RP_SSF_PACK, &s->p_pack},
    };
    vf_result res = VF_OK;
    for (size_t i = 0; i < sizeof pipes / sizeof pipes[0] && res == VF_OK; i++)
        res = vf_render_pipeline_create(s->base.gpu, pipes[i].id, s->name, s->base.format, VK_FORMAT_UNDEFINED,
                                        pipes[i].p);
    if (res != VF_OK)
        destroy_pipelines(s);
    return res;
}

/* ---------------------------------------------------------------- frame constants */

static vf_camera current_camera(const ssf *s)
{
    if (s->cam_set)
        return s->cam;
    return vf_camera_for_box(s->box_min, s->box_max, (float)s->base.width / (float)s->base.height);
}

static void fill_frame(const ssf *s, vf_ssf_frame *f)
{
    memset(f, 0, sizeof *f);
    vf_camera cam = current_camera(s);
    vf_mat4 view, proj;
    vf_camera_matrices(&cam, (float)s->base.width / (float)s->base.height, &view, &proj);
    vf_mat4 inv = vf_mat4_rigid_inverse(&view);
    memcpy(f->view, view.m, sizeof f->view);
    memcpy(f->proj, proj.m, sizeof f->proj);
    memcpy(f->inv_view, inv.m, sizeof f->inv_view);
    const vf_ssf_options *o = &s->opt;
    float w = (float)s->base.width, h = (float)s->base.height;
    float tw = (float)s->thick_w, th = (float)s->thick_h;
    f->eye[0] = cam.eye[0];
    f->eye[1] = cam.eye[1];
    f->eye[2] = cam.eye[2];
    f->eye[3] = vf_camera_focal_px(&cam, s->base.height);
    f->proj_params[0] = proj.m[0];
    f->proj_params[1] = proj.m[5];
    f->proj_params[2] = cam.znear;
    f->proj_params[3] = cam.zfar;
    f->viewport[0] = w;
    f->viewport[1] = h;
    f->viewport[2] = 1.0f / w;
    f->viewport[3] = 1.0f / h;
    f->thick_size[0] = tw;
    f->thick_size[1] = th;
    f->thick_size[2] = 1.0f / tw;
    f->thick_size[3] = 1.0f / th;
    float l[3] = {-0.45f, 0.80f, 0.40f}, ll = sqrtf(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    for (int i = 0; i < 3; i++) {
        f->light[i] = l[i] / ll;
        f->box_min[i] = s->box_min[i];
        f->box_max[i] = s->box_max[i];
    }
    f->light[3] = 1.0f;
    float ext = fmaxf(fmaxf(s->box_max[0] - s->box_min[0], s->box_max[1] - s->box_min[1]), s->box_max[2] - s->box_min[2]);
    f->box_min[3] = 0.004f * ext; /* edge beam radius */
    f->box_max[3] = 0.125f * ext; /* checker tile */
    double col[3] = {o->fluid_r, o->fluid_g, o->fluid_b};
    for (int i = 0; i < 3; i++) {
        f->absorb[i] = (float)(-log(col[i]) / o->absorption_length);
        f->fluid_color[i] = (float)col[i];
    }
    f->absorb[3] = (float)o->refraction;
    f->fluid_color[3] = 0.02f; /* F0 of water */
    f->shade[0] = (float)o->radius;
    f->shade[1] = 120.0f; /* specular exponent */
    f->shade[2] = 1.2f;   /* specular intensity */
    f->shade[3] = 0.25f;  /* in-scattered light */
    f->color_range[0] = (float)o->color_min;
    f->color_range[1] = (float)o->color_max;
    f->count = s->parts.count;
    f->color_by = (uint32_t)o->color_by;
    f->encode_srgb = s->encode_srgb;
    f->has_attributes = s->parts.attributes != NULL;
    f->debug_view = (uint32_t)o->debug_view;
}

/* ---------------------------------------------------------------- passes */

vf_binding ssf_bind_frame(ssf *s)
{
    return vf_bind_buffer(s->frame);
}

vf_binding ssf_bind_positions(ssf *s)
{
    return (vf_binding){.buffer = s->parts.positions, .offset = s->parts.offset, .range = (VkDeviceSize)s->parts.count * 16};
}

vf_binding ssf_bind_sampled(ssf *s, int i, VkSampler sampler)
{
    return (vf_binding){.image = s->img[i], .sampler = sampler};
}

vf_binding ssf_bind_storage(ssf *s, int i)
{
    return (vf_binding){.image = s->img[i], .layout = VK_IMAGE_LAYOUT_GENERAL};
}

bool ssf_have_particles(const ssf *s)
{
    return s->parts.positions && s->parts.count > 0;
}

void ssf_pass_frame_constants(ssf *s, VkCommandBuffer cmd)
{
    vf_ssf_frame f;
    fill_frame(s, &f);
    /* The previous frame's uniform reads and update are done before this update. */
    vf_cmd_barrier_on(s->base.gpu, cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdUpdateBuffer(cmd, s->frame->buffer, 0, sizeof f, &f);
    vf_cmd_barrier_on(s->base.gpu, cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_UNIFORM_READ_BIT);
}

/* Counts a draw of p with bindings b in the work counters (when attached):
 * its bound bytes and the attachments' bytes, each once. */
static void count_draw(ssf *s, const vf_pipeline *p, const vf_binding *b, uint64_t attachment_bytes)
{
    if (s->base.gpu->counters)
        vf_count_draw_pass(s->base.gpu, p->name, vf_pipeline_bound_bytes(p, b) + attachment_bytes);
}

/* Bytes of an image (an attachment), or 0. */
static uint64_t image_bytes(const vf_image *img)
{
    return img ? (uint64_t)img->width * img->height * vf_format_size(img->format) : 0;
}

static void pass_scene(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_scene", false);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_COLOR, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    ssf_image_flush(s, cmd, false);
    VkRenderingAttachmentInfo c =
        vf_render_color_attachment(s->img[VF_SSF_IMAGE_SCENE_COLOR], VK_ATTACHMENT_LOAD_OP_CLEAR);
    VkRenderingAttachmentInfo d = vf_render_depth_attachment(
        s->img[VF_SSF_IMAGE_SCENE_DEPTH], VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_STORE);
    vf_render_begin(cmd, s->base.width, s->base.height, &c, &d);
    vf_binding b = ssf_bind_frame(s);
    vf_cmd_bind(cmd, s->p_scene, &b, NULL);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    count_draw(s, s->p_scene, &b, image_bytes(s->img[VF_SSF_IMAGE_SCENE_COLOR]) + image_bytes(s->img[VF_SSF_IMAGE_SCENE_DEPTH]));
    vkCmdEndRendering(cmd);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void pass_depth(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_depth", false);
    /* The spheres' depth buffer starts as a copy of the scene's, so spheres
     * behind the floor or the tank edges leave no depth. */
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_FLUID_ZBUF, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_DEPTH, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    ssf_image_flush(s, cmd, false);
    VkImageCopy region = {
        .srcSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1},
        .dstSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1},
        .extent = {s->base.width, s->base.height, 1},
    };
    vkCmdCopyImage(cmd, s->img[VF_SSF_IMAGE_SCENE_DEPTH]->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                   s->img[VF_SSF_IMAGE_FLUID_ZBUF]->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    ssf_image_use(s, VF_SSF_IMAGE_FLUID_ZBUF, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    ssf_image_flush(s, cmd, false);
    VkRenderingAttachmentInfo c = vf_render_color_attachment(s->img[VF_SSF_IMAGE_DEPTH], VK_ATTACHMENT_LOAD_OP_CLEAR);
    VkRenderingAttachmentInfo d = vf_render_depth_attachment(
        s->img[VF_SSF_IMAGE_FLUID_ZBUF], VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE);
    vf_render_begin(cmd, s->base.width, s->base.height, &c, &d);
    /* the attachments, and the copy of the scene's depth into the depth buffer (read and written) */
    uint64_t att = image_bytes(s->img[VF_SSF_IMAGE_DEPTH]) + 3 * image_bytes(s->img[VF_SSF_IMAGE_FLUID_ZBUF]);
    if (s->surf.vertices) {
        vf_binding b[3] = {ssf_bind_frame(s), vf_bind_buffer(s->surf.vertices), vf_bind_buffer(s->surf.indices)};
        vf_cmd_bind(cmd, s->p_mesh_depth, b, NULL);
        vkCmdDrawIndirect(cmd, s->surf.draw_args->buffer, s->surf.draw_offset, 1, 0);
        count_draw(s, s->p_mesh_depth, b, att);
    } else if (ssf_have_particles(s)) {
        vf_binding b[2] = {ssf_bind_frame(s), ssf_bind_positions(s)};
        vf_cmd_bind(cmd, s->p_depth, b, NULL);
        vkCmdDraw(cmd, 6, s->parts.count, 0, 0);
        count_draw(s, s->p_depth, b, att);
    }
    vkCmdEndRendering(cmd);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void pass_thickness(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_thickness", false);
    /* Read-only from here on: sampled here, the composite's depth test later. */
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                  VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                      VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                  VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_THICKNESS, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    ssf_image_flush(s, cmd, false);
    VkRenderingAttachmentInfo c =
        vf_render_color_attachment(s->img[VF_SSF_IMAGE_THICKNESS], VK_ATTACHMENT_LOAD_OP_CLEAR);
    vf_render_begin(cmd, s->thick_w, s->thick_h, &c, NULL);
    if (s->surf.vertices) {
        vf_binding b[4] = {ssf_bind_frame(s), vf_bind_buffer(s->surf.vertices), vf_bind_buffer(s->surf.indices),
                           ssf_bind_sampled(s, VF_SSF_IMAGE_SCENE_DEPTH, s->base.gpu->sampler_nearest)};
        vf_cmd_bind(cmd, s->p_mesh_thickness, b, NULL);
        vkCmdDrawIndirect(cmd, s->surf.draw_args->buffer, s->surf.draw_offset, 1, 0);
        count_draw(s, s->p_mesh_thickness, b, image_bytes(s->img[VF_SSF_IMAGE_THICKNESS]));
    } else if (ssf_have_particles(s)) {
        vf_binding b[3] = {ssf_bind_frame(s), ssf_bind_positions(s),
                           ssf_bind_sampled(s, VF_SSF_IMAGE_SCENE_DEPTH, s->base.gpu->sampler_nearest)};
        vf_cmd_bind(cmd, s->p_thickness, b, NULL);
        vkCmdDraw(cmd, 6, s->parts.count, 0, 0);
        count_draw(s, s->p_thickness, b, image_bytes(s->img[VF_SSF_IMAGE_THICKNESS]));
    }
    vkCmdEndRendering(cmd);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void smooth_push(const ssf *s, vf_ssf_smooth_push *p)
{
    memset(p, 0, sizeof *p);
    vf_camera cam = current_camera(s);
    p->width = s->base.width;
    p->height = s->base.height;
    p->focal_px = vf_camera_focal_px(&cam, s->base.height);
    p->world_radius = (float)s->opt.filter_radius;
    p->max_radius_px = (float)s->opt.filter_max_px;
    p->range_sigma = (float)s->opt.range_sigma;
    p->mode = (uint32_t)s->opt.filter;
    p->nr_threshold = (float)s->opt.nr_threshold;
    p->nr_clamp = (float)s->opt.nr_clamp;
}

uint32_t ssf_groups(uint32_t n, uint32_t wg)
{
    return (n + wg - 1) / wg;
}

/* Smooths VF_SSF_IMAGE_DEPTH into VF_SSF_IMAGE_DEPTH_SMOOTH; returns the
 * image the composite reads (the raw depth when smoothing is off). */
int ssf_pass_smooth(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    if (s->opt.smooth_off)
        return VF_SSF_IMAGE_DEPTH;
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_smooth", false);
    const VkPipelineStageFlags2 cs = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    const VkAccessFlags2 rw = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    ssf_image_use(s, VF_SSF_IMAGE_DEPTH, VK_IMAGE_LAYOUT_GENERAL, cs, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    ssf_image_use(s, IMG_DEPTH_TMP, VK_IMAGE_LAYOUT_GENERAL, cs, rw);
    ssf_image_use(s, VF_SSF_IMAGE_DEPTH_SMOOTH, VK_IMAGE_LAYOUT_GENERAL, cs, rw);
    ssf_image_flush(s, cmd, false);
    vf_ssf_smooth_push p;
    smooth_push(s, &p);
    uint32_t gx = ssf_groups(s->base.width, VF_SSF_WG_X), gy = ssf_groups(s->base.height, VF_SSF_WG_Y);
    int src = VF_SSF_IMAGE_DEPTH;
    for (int it = 0; it < s->opt.iterations; it++) {
        vf_binding bx[2] = {ssf_bind_storage(s, src), ssf_bind_storage(s, IMG_DEPTH_TMP)};
        p.dir_x = 1;
        p.dir_y = 0;
        vf_cmd_dispatch(cmd, s->p_smooth, bx, &p, gx, gy, 1);
        vf_cmd_barrier_compute_on(s->base.gpu, cmd);
        vf_binding by[2] = {ssf_bind_storage(s, IMG_DEPTH_TMP), ssf_bind_storage(s, VF_SSF_IMAGE_DEPTH_SMOOTH)};
        p.dir_x = 0;
        p.dir_y = 1;
        vf_cmd_dispatch(cmd, s->p_smooth, by, &p, gx, gy, 1);
        if (it + 1 < s->opt.iterations)
            vf_cmd_barrier_compute_on(s->base.gpu, cmd);
        src = VF_SSF_IMAGE_DEPTH_SMOOTH;
    }
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
    return VF_SSF_IMAGE_DEPTH_SMOOTH;
}

static void blur_push(const ssf *s, vf_ssf_blur_push *p)
{
    float sigma = (float)s->opt.thickness_blur_px;
    *p = (vf_ssf_blur_push){.dir_x = 1, .width = s->thick_w, .height = s->thick_h, .sigma_px = sigma,
                            .radius_px = (int32_t)ceilf(3.0f * sigma)};
}

void ssf_pass_thickness_blur(ssf *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_thickness_blur", false);
    const VkPipelineStageFlags2 cs = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    ssf_image_use(s, VF_SSF_IMAGE_THICKNESS, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, cs, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    ssf_image_use(s, IMG_THICK_TMP, VK_IMAGE_LAYOUT_GENERAL, cs,
                  VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_THICKNESS_BLUR, VK_IMAGE_LAYOUT_GENERAL, cs, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    ssf_image_flush(s, cmd, false);
    vf_ssf_blur_push p;
    blur_push(s, &p);
    uint32_t gx = ssf_groups(s->thick_w, VF_SSF_WG_X), gy = ssf_groups(s->thick_h, VF_SSF_WG_Y);
    VkSampler ns = s->base.gpu->sampler_nearest;
    vf_binding bx[2] = {ssf_bind_sampled(s, VF_SSF_IMAGE_THICKNESS, ns), ssf_bind_storage(s, IMG_THICK_TMP)};
    vf_cmd_dispatch(cmd, s->p_blur, bx, &p, gx, gy, 1);
    vf_cmd_barrier_compute_on(s->base.gpu, cmd);
    vf_binding by[2] = {{.image = s->img[IMG_THICK_TMP], .sampler = ns, .layout = VK_IMAGE_LAYOUT_GENERAL},
                        ssf_bind_storage(s, VF_SSF_IMAGE_THICKNESS_BLUR)};
    p.dir_x = 0;
    p.dir_y = 1;
    vf_cmd_dispatch(cmd, s->p_blur, by, &p, gx, gy, 1);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void draw_background(ssf *s, VkCommandBuffer cmd, const vf_image *target)
{
    vf_binding b[2] = {ssf_bind_frame(s), ssf_bind_sampled(s, VF_SSF_IMAGE_SCENE_COLOR, s->base.gpu->sampler_nearest)};
    vf_cmd_bind(cmd, s->p_background, b, NULL);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    count_draw(s, s->p_background, b, image_bytes(target));
}

static void pass_composite(ssf *s, VkCommandBuffer cmd, vf_profiler *prof, vf_image *target, int depth_img)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_composite", false);
    const VkPipelineStageFlags2 fs = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    ssf_image_use(s, depth_img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, fs, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_THICKNESS_BLUR, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, fs, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_COLOR, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, fs, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                  VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
    ssf_image_flush(s, cmd, false);
    VkRenderingAttachmentInfo c = vf_render_color_attachment(target, VK_ATTACHMENT_LOAD_OP_DONT_CARE);
    VkRenderingAttachmentInfo d = vf_render_depth_attachment(
        s->img[VF_SSF_IMAGE_SCENE_DEPTH], VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
        VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_NONE);
    vf_render_begin(cmd, s->base.width, s->base.height, &c, &d);
    draw_background(s, cmd, target);
    VkSampler ns = s->base.gpu->sampler_nearest, ls = s->base.gpu->sampler_linear;
    vf_binding b[4] = {ssf_bind_frame(s), ssf_bind_sampled(s, depth_img, ns), ssf_bind_sampled(s, VF_SSF_IMAGE_THICKNESS_BLUR, ns),
                       ssf_bind_sampled(s, VF_SSF_IMAGE_SCENE_COLOR, ls)};
    vf_cmd_bind(cmd, s->p_composite, b, NULL);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    count_draw(s, s->p_composite, b, image_bytes(target) + image_bytes(s->img[VF_SSF_IMAGE_SCENE_DEPTH]));
    if (s->foam.positions) {
        vf_binding fb[4] = {ssf_bind_frame(s), vf_bind_buffer(s->foam.positions), vf_bind_buffer(s->foam.velocities),
                            ssf_bind_sampled(s, depth_img, ns)};
        vf_cmd_bind(cmd, s->p_foam, fb, NULL);
        vkCmdDrawIndirect(cmd, s->foam.draw_args->buffer, s->foam.draw_offset, 1, 0);
        count_draw(s, s->p_foam, fb, image_bytes(target) + image_bytes(s->img[VF_SSF_IMAGE_SCENE_DEPTH]));
    }
    vkCmdEndRendering(cmd);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

static void pass_particles(ssf *s, VkCommandBuffer cmd, vf_profiler *prof, vf_image *target)
{
    uint32_t sc = vf_scope_begin(s->base.gpu, prof, cmd, "ssf_particles", false);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_COLOR, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                  VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    ssf_image_use(s, VF_SSF_IMAGE_SCENE_DEPTH, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                  VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    ssf_image_flush(s, cmd, false);
    VkRenderingAttachmentInfo c = vf_render_color_attachment(target, VK_ATTACHMENT_LOAD_OP_DONT_CARE);
    VkRenderingAttachmentInfo d = vf_render_depth_attachment(
        s->img[VF_SSF_IMAGE_SCENE_DEPTH], VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
        VK_ATTACHMENT_LOAD_OP_LOAD, VK_ATTACHMENT_STORE_OP_STORE);
    vf_render_begin(cmd, s->base.width, s->base.height, &c, &d);
    draw_background(s, cmd, target);
    if (ssf_have_particles(s)) {
        vf_binding attr = s->parts.attributes
                              ? (vf_binding){.buffer = s->parts.attributes, .offset = s->parts.attributes_offset,
                                             .range = (VkDeviceSize)s->parts.count * 16}
                              : ssf_bind_positions(s);
        vf_binding b[3] = {ssf_bind_frame(s), ssf_bind_positions(s), attr};
        vf_cmd_bind(cmd, s->p_particles, b, NULL);
        vkCmdDraw(cmd, 6, s->parts.count, 0, 0);
        count_draw(s, s->p_particles, b, image_bytes(target) + image_bytes(s->img[VF_SSF_IMAGE_SCENE_DEPTH]));
    }
    vkCmdEndRendering(cmd);
    vf_scope_end(s->base.gpu, prof, cmd, sc, false);
}

/* ---------------------------------------------------------------- vtable */

static void ssf_destroy(vf_renderer *r)
{
    ssf *s = (ssf *)r;
    destroy_images(s);
    destroy_pipelines(s);
    ssf_compute_destroy(s);
    vf_buffer_destroy(&s->frame);
    free(s);
}

static vf_result ssf_resize(vf_renderer *r, uint32_t width, uint32_t height)
{
    ssf *s = (ssf *)r;
    if (width == 0 || height == 0)
        return VF_ERR_INVALID_ARG;
    destroy_images(s);
    return create_images(s, width, height);
}

static void begin_frame(ssf *s)
{
    for (int i = 0; i < IMG_ALL; i++)
        image_discard(s, i);
}

static vf_result ssf_record(vf_renderer *r, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof)
{
    ssf *s = (ssf *)r;
    /* The caller prepared the target (vf_render_prepare_target); the
     * background draw of the last pass (the compute composite) overwrites
     * every pixel. */
    if (!target || target->width != s->base.width || target->height != s->base.height || target->format != s->base.format ||
        target->layout != VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL || !s->img[0])
        return VF_ERR_INVALID_ARG;
    if (s->base.path == VF_RENDER_PATH_COMPUTE) {
        if (!ssf_compute_target_ok(target))
            return VF_ERR_INVALID_ARG;
        begin_frame(s);
        return ssf_compute_record(s, cmd, target, prof);
    }
    begin_frame(s);
    ssf_pass_frame_constants(s, cmd);
    pass_scene(s, cmd, prof);
    if (s->opt.mode == VF_SSF_MODE_PARTICLES) {
        pass_particles(s, cmd, prof, target);
        return VF_OK;
    }
    pass_depth(s, cmd, prof);
    pass_thickness(s, cmd, prof);
    int depth_img = ssf_pass_smooth(s, cmd, prof);
    ssf_pass_thickness_blur(s, cmd, prof);
    pass_composite(s, cmd, prof, target, depth_img);
    return VF_OK;
}

static void ssf_set_camera(vf_renderer *r, const vf_camera *cam)
{
    ssf *s = (ssf *)r;
    if (cam && cam->fov_y > 0.0f) {
        s->cam = *cam;
        s->cam_set = true;
    } else {
        s->cam_set = false;
    }
}

static void ssf_get_camera(vf_renderer *r, vf_camera *cam)
{
    *cam = current_camera((ssf *)r);
}

static bool ssf_gpu_counts(vf_renderer *r, vf_render_gpu_counts *out)
{
    return ssf_compute_gpu_counts((ssf *)r, out);
}

static const vf_renderer_vtable ssf_vtable = {
    .name = "ssf",
    .destroy = ssf_destroy,
    .resize = ssf_resize,
    .record = ssf_record,
    .set_camera = ssf_set_camera,
    .get_camera = ssf_get_camera,
    .gpu_counts = ssf_gpu_counts,
};

static bool is_ssf(const vf_renderer *r)
{
    return r && r->vt == &ssf_vtable;
}

/* ---------------------------------------------------------------- public */

static vf_result check_particles(const vf_gpu *gpu, const vf_ssf_particles *p)
{
    VkDeviceSize align = gpu->props.limits.minStorageBufferOffsetAlignment;
    VkDeviceSize bytes = (VkDeviceSize)p->count * 16;
    if (!p->positions)
        return p->count == 0 ? VF_OK : VF_ERR_INVALID_ARG;
    if ((align && p->offset % align) || p->offset > p->positions->size || bytes > p->positions->size - p->offset ||
        bytes > gpu->props.limits.maxStorageBufferRange)
        return VF_ERR_INVALID_ARG;
    if (p->attributes && ((align && p->attributes_offset % align) || p->attributes_offset > p->attributes->size ||
                          bytes > p->attributes->size - p->attributes_offset))
        return VF_ERR_INVALID_ARG;
    return VF_OK;
}

vf_result vf_render_ssf_create(vf_gpu *gpu, const vf_render_ssf_desc *desc, vf_renderer **out)
{
    *out = NULL;
    vf_render_ssf_desc zero;
    if (!desc) {
        memset(&zero, 0, sizeof zero);
        desc = &zero;
    }
    vf_result res = check_particles(gpu, &desc->particles);
    if (res != VF_OK)
        return res;
    ssf *s;
    VF_NEW_OR_RETURN(s);
    s->base.vt = &ssf_vtable;
    s->base.gpu = gpu;
    s->base.format = desc->format ? desc->format : VF_CAPTURE_FORMAT;
    s->encode_srgb = s->base.format == VK_FORMAT_R8G8B8A8_UNORM || s->base.format == VK_FORMAT_B8G8R8A8_UNORM ||
                     s->base.format == VK_FORMAT_A2B10G10R10_UNORM_PACK32;
    snprintf(s->name, sizeof s->name, "%s", desc->name ? desc->name : "ssf");
    resolve_options(&desc->options, &s->opt);
    s->parts = desc->particles;
    bool box_set = false;
    for (int i = 0; i < 3; i++)
        box_set |= desc->box_min[i] != desc->box_max[i];
    for (int i = 0; i < 3; i++) {
        s->box_min[i] = box_set ? desc->box_min[i] : 0.0f;
        s->box_max[i] = box_set ? desc->box_max[i] : 1.0f;
    }
    ssf_set_camera(&s->base, &desc->camera);
    char name[64];
    snprintf(name, sizeof name, "%s frame constants", s->name);
    vf_buffer_desc bd = {
        .size = sizeof(vf_ssf_frame),
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .name = name,
    };
    if ((res = vf_buffer_create(gpu, &bd, &s->frame)) != VF_OK)
        goto fail;
    if ((res = create_pipelines(s)) != VF_OK)
        goto fail;
    s->want_auto = desc->path == VF_RENDER_PATH_AUTO;
    s->want = s->want_auto ? vf_render_path_auto(&gpu->info, NULL, 0) : desc->path;
    if (s->want == VF_RENDER_PATH_COMPUTE && (res = ssf_compute_create(s)) != VF_OK) {
        if (!s->want_auto)
            goto fail;
        s->want = VF_RENDER_PATH_RASTER; /* auto: the rasteriser where the compute pipelines cannot be made */
    }
    if ((res = create_images(s, desc->width ? desc->width : 1280, desc->height ? desc->height : 720)) != VF_OK)
        goto fail;
    *out = &s->base;
    return VF_OK;
fail:
    ssf_destroy(&s->base);
    return res;
}

vf_result vf_render_ssf_set_particles(vf_renderer *r, const vf_ssf_particles *p)
{
    if (!is_ssf(r) || !p)
        return VF_ERR_INVALID_ARG;
    vf_result res = check_particles(r->gpu, p);
    if (res == VF_OK)
        ((ssf *)r)->parts = *p;
    return res;
}

/* Recreates the targets when the view or the surface mesh changed the path
 * they are for (the GPU must be done with them); record() reports
 * VF_ERR_INVALID_ARG if that fails. */
static void retarget(ssf *s)
{
    if (!s->img[0] || path_for(s, s->base.width, s->base.height) == s->base.path)
        return;
    destroy_images(s);
    if (create_images(s, s->base.width, s->base.height) != VF_OK)
        destroy_images(s);
}

/* An indirect draw's arguments: one VkDrawIndirectCommand at a 4-byte aligned
 * offset inside args. */
static bool draw_args_fit(const vf_buffer *args, VkDeviceSize offset)
{
    return args && offset % 4 == 0 && offset + sizeof(VkDrawIndirectCommand) <= args->size;
}

vf_result vf_render_ssf_set_surface(vf_renderer *r, const vf_ssf_surface *surf)
{
    if (!is_ssf(r))
        return VF_ERR_INVALID_ARG;
    ssf *s = (ssf *)r;
    if (!surf || !surf->vertices) {
        memset(&s->surf, 0, sizeof s->surf);
        retarget(s);
        return VF_OK;
    }
    if (!surf->indices || !draw_args_fit(surf->draw_args, surf->draw_offset))
        return VF_ERR_INVALID_ARG;
    if (!s->p_mesh_depth) {
        vf_result res = vf_render_pipeline_create(r->gpu, VF_RP_SSF_MESH_DEPTH, s->name, s->base.format,
                                                  VK_FORMAT_UNDEFINED, &s->p_mesh_depth);
        if (res == VF_OK)
            res = vf_render_pipeline_create(r->gpu, VF_RP_SSF_MESH_THICKNESS, s->name, s->base.format,
                                            VK_FORMAT_UNDEFINED, &s->p_mesh_thickness);
        if (res != VF_OK) {
            vf_pipeline_destroy(&s->p_mesh_depth);
            return res;
        }
    }
    s->surf = *surf;
    retarget(s);
    return s->img[0] ? VF_OK : VF_ERR_NO_MEMORY;
}

vf_result vf_render_ssf_set_foam(vf_renderer *r, const vf_ssf_foam *foam)
{
    if (!is_ssf(r))
        return VF_ERR_INVALID_ARG;
    ssf *s = (ssf *)r;
    if (!foam || !foam->positions) {
        memset(&s->foam, 0, sizeof s->foam);
        return VF_OK;
    }
    if (!foam->velocities || !draw_args_fit(foam->draw_args, foam->draw_offset))
        return VF_ERR_INVALID_ARG;
    if (!s->p_foam) {
        vf_result res = vf_render_pipeline_create(r->gpu, VF_RP_SSF_FOAM, s->name, s->base.format, VK_FORMAT_UNDEFINED,
                                                  &s->p_foam);
        if (res != VF_OK)
            return res;
    }
    s->foam = *foam;
    return VF_OK;
}

void vf_render_ssf_set_options(vf_renderer *r, const vf_ssf_options *opt)
{
    if (!is_ssf(r))
        return;
    ssf *s = (ssf *)r;
    bool half = s->opt.thickness_half;
    resolve_options(opt, &s->opt);
    if (half != s->opt.thickness_half && s->img[0]) {
        /* The thickness targets change size: recreate all targets (GPU idle is the caller's). */
        destroy_images(s);
        if (create_images(s, s->base.width, s->base.height) != VF_OK)
            destroy_images(s); /* record() then reports VF_ERR_INVALID_ARG */
    }
    retarget(s); /* the view decides the path */
}

void vf_render_ssf_get_options(const vf_renderer *r, vf_ssf_options *out)
{
    if (is_ssf(r))
        *out = ((const ssf *)r)->opt;
}

vf_image *vf_render_ssf_image(vf_renderer *r, vf_ssf_image which)
{
    if (!is_ssf(r) || (int)which < 0 || which >= VF_SSF_IMAGE_COUNT)
        return NULL;
    return ((ssf *)r)->img[which];
}

void vf_render_ssf_record_smooth(vf_renderer *r, VkCommandBuffer cmd, vf_profiler *prof)
{
    if (!is_ssf(r))
        return;
    ssf *s = (ssf *)r;
    /* The raw depth was written by someone else: wait for any earlier write. */
    s->st[VF_SSF_IMAGE_DEPTH].stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    s->st[VF_SSF_IMAGE_DEPTH].access = VK_ACCESS_2_MEMORY_WRITE_BIT;
    s->st[VF_SSF_IMAGE_DEPTH].synced = 0;
    s->st[VF_SSF_IMAGE_DEPTH].synced_access = 0;
    image_discard(s, IMG_DEPTH_TMP);
    image_discard(s, VF_SSF_IMAGE_DEPTH_SMOOTH);
    bool off = s->opt.smooth_off;
    s->opt.smooth_off = false;
    ssf_pass_smooth(s, cmd, prof);
    s->opt.smooth_off = off;
}

void vf_render_ssf_smooth_params(const vf_renderer *r, vf_ssf_smooth_push *params, uint32_t *iterations)
{
    if (!is_ssf(r))
        return;
    const ssf *s = (const ssf *)r;
    smooth_push(s, params);
    if (iterations)
        *iterations = s->opt.smooth_off ? 0u : (uint32_t)s->opt.iterations;
}

void vf_render_ssf_frame(const vf_renderer *r, vf_ssf_frame *out)
{
    if (is_ssf(r))
        fill_frame((const ssf *)r, out);
}

void vf_render_ssf_blur_params(const vf_renderer *r, vf_ssf_blur_push *params)
{
    if (is_ssf(r))
        blur_push((const ssf *)r, params);
}

vf_result vf_render_ssf_record_pack(vf_renderer *r, VkCommandBuffer cmd, vf_buffer *x, vf_buffer *y, vf_buffer *z,
                                    vf_buffer *w, float w_const, vf_buffer *out, uint32_t count)
{
    if (!is_ssf(r) || !x || !y || !z || !out)
        return VF_ERR_INVALID_ARG;
    VkDeviceSize n4 = (VkDeviceSize)count * 4;
    if (count == 0)
        return VF_OK;
    if (x->size < n4 || y->size < n4 || z->size < n4 || (w && w->size < n4) || out->size < n4 * 4)
        return VF_ERR_INVALID_ARG;
    ssf *s = (ssf *)r;
    vf_ssf_pack_push p = {.count = count, .has_w = w != NULL, .w_const = w_const};
    vf_binding b[5] = {{.buffer = x, .range = n4}, {.buffer = y, .range = n4}, {.buffer = z, .range = n4},
                       {.buffer = w ? w : x, .range = n4}, {.buffer = out, .range = n4 * 4}};
    vf_cmd_dispatch_1d(cmd, s->p_pack, b, &p, count);
    return VF_OK;
}
