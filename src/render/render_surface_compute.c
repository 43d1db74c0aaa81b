/* render_surface_compute: the height-field surface's compute path (see
 * render_surface_compute.h). */
#include "render_surface_compute.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "gpu_pipeline.h"
#include "render_pipelines.h"

#define CS VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define BINDINGS (VF_SURFACE_BIND_TILES + 1)

struct vf_surface_cs {
    vf_gpu *gpu;
    vf_pipeline *corners, *march;
    vf_buffer *corner_buf, *bounds, *boxes, *tiles;
    uint32_t box_cap; /* boxes the box buffer holds */
    vf_buffer *hits;  /* tests: each pixel's ray and hit (vf_surface_cs_debug_hits), or NULL */
    vf_image *output; /* the copy source for targets without a storage view */
};

static vf_result make_pipeline(vf_gpu *gpu, vf_render_pipe id, vf_pipeline **out)
{
    return vf_render_pipeline_create(gpu, id, NULL, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED, out);
}

void vf_surface_cs_destroy(vf_surface_cs **csp)
{
    if (!csp || !*csp)
        return;
    vf_surface_cs *cs = *csp;
    vf_pipeline_destroy(&cs->corners);
    vf_pipeline_destroy(&cs->march);
    vf_buffer_destroy(&cs->corner_buf);
    vf_buffer_destroy(&cs->bounds);
    vf_buffer_destroy(&cs->boxes);
    vf_buffer_destroy(&cs->tiles);
    vf_image_destroy(&cs->output);
    free(cs);
    *csp = NULL;
}

vf_result vf_surface_cs_create(vf_gpu *gpu, uint32_t mesh_max, uint32_t objects, bool quad, uint32_t w, uint32_t h,
                               vf_surface_cs **out)
{
    *out = NULL;
    vf_surface_cs *cs;
    VF_NEW_OR_RETURN(cs);
    cs->gpu = gpu;
    uint64_t side = (uint64_t)mesh_max + 1 + 2 * VF_SURFACE_RING;
    uint64_t bytes = side * side * sizeof(vf_surface_corner);
    vf_result res = bytes > gpu->props.limits.maxStorageBufferRange ? VF_ERR_TOO_LARGE : VF_OK;
    if (res == VF_OK)
        res = make_pipeline(gpu, VF_RP_SURFACE_CORNERS, &cs->corners);
    if (res == VF_OK)
        res = make_pipeline(gpu, quad ? VF_RP_SURFACE_MARCH_QUAD : VF_RP_SURFACE_MARCH, &cs->march);
    if (res == VF_OK) {
        vf_buffer_desc bd = {.size = bytes, .name = "surface mesh corners"};
        res = vf_buffer_create(gpu, &bd, &cs->corner_buf);
    }
    if (res == VF_OK) {
        vf_buffer_desc bd = {.size = 4 * sizeof(uint32_t), .name = "surface height bounds"};
        res = vf_buffer_create(gpu, &bd, &cs->bounds);
    }
    if (res == VF_OK) {
        uint64_t tiles = mesh_max / VF_SURFACE_TILE + 1;
        vf_buffer_desc bd = {.size = tiles * tiles * sizeof(uint32_t), .name = "surface tile heights"};
        res = vf_buffer_create(gpu, &bd, &cs->tiles);
    }
    if (res == VF_OK) {
        cs->box_cap = 2 * (objects ? objects : 1);
        vf_buffer_desc bd = {.size = (VkDeviceSize)cs->box_cap * sizeof(vf_surface_box), .name = "surface object boxes"};
        res = vf_buffer_create(gpu, &bd, &cs->boxes);
    }
    if (res == VF_OK)
        res = vf_surface_cs_resize(cs, w, h);
    if (res != VF_OK) {
        vf_surface_cs_destroy(&cs);
        return res;
    }
    *out = cs;
    return VF_OK;
}

vf_result vf_surface_cs_resize(vf_surface_cs *cs, uint32_t w, uint32_t h)
{
    vf_image *img = NULL;
    vf_image_desc d = {.width = w, .height = h, .format = VK_FORMAT_R8G8B8A8_UNORM,
                       .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                       .name = "surface compute output"};
    vf_result res = vf_image_create(cs->gpu, &d, &img);
    if (res != VF_OK)
        return res;
    vf_image_destroy(&cs->output);
    cs->output = img;
    return VF_OK;
}

static bool bgra(VkFormat f)
{
    return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM;
}

bool vf_surface_cs_target_ok(const vf_image *target)
{
    return (target->storage && !bgra(target->format)) || (target->usage & VK_IMAGE_USAGE_TRANSFER_DST_BIT);
}

static bool srgb(VkFormat f)
{
    return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_R8G8B8A8_SRGB;
}

/* One dispatch, counted with the bytes of its bindings. */
static void dispatch(vf_surface_cs *cs, VkCommandBuffer cmd, const vf_pipeline *p, const vf_binding *b,
                     const vf_surface_cs_push *push, uint32_t gx, uint32_t gy)
{
    vf_cmd_bind(cmd, p, b, push);
    vkCmdDispatch(cmd, gx, gy, 1);
    vf_count_dispatch(cs->gpu, p->name, vf_pipeline_bound_bytes(p, b), false, false);
}

/* The corner pass: after the last frame's march read the corners and the
 * bounds (the bounds and the tiles' heights restarted by fills). */
static void pass_corners(vf_surface_cs *cs, VkCommandBuffer cmd, vf_profiler *prof, const vf_surface_frame *f,
                         const vf_binding *b, const vf_surface_cs_push *push)
{
    uint32_t id = vf_scope_begin(cs->gpu, prof, cmd, "surface_corners", false);
    vf_cmd_barrier_on(cs->gpu, cmd, CS, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT | CS,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vkCmdFillBuffer(cmd, cs->bounds->buffer, 0, 4, 0xffffffffu);
    vkCmdFillBuffer(cmd, cs->bounds->buffer, 4, 12, 0u);
    vkCmdFillBuffer(cmd, cs->tiles->buffer, 0, VK_WHOLE_SIZE, 0u);
    vf_cmd_barrier_on(cs->gpu, cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, CS,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    uint32_t vertices = (f->mesh_x + 2 * VF_SURFACE_RING) * (f->mesh_y + 2 * VF_SURFACE_RING);
    uint32_t items = vertices > push->boxes ? vertices : push->boxes;
    uint32_t groups = (items + VF_SURFACE_WG_CORNERS - 1) / VF_SURFACE_WG_CORNERS;
    uint32_t lim = cs->gpu->props.limits.maxComputeWorkGroupCount[0];
    uint32_t gy = (groups + lim - 1) / lim, gx = (groups + gy - 1) / gy;
    dispatch(cs, cmd, cs->corners, b, push, gx, gy);
    vf_scope_end(cs->gpu, prof, cmd, id, false);
}

static void pass_march(vf_surface_cs *cs, VkCommandBuffer cmd, vf_profiler *prof, const vf_surface_frame *f,
                       vf_image *target, const vf_binding *b, vf_surface_cs_push *push)
{
    uint32_t id = vf_scope_begin(cs->gpu, prof, cmd, "surface_march", false);
    bool direct = target->storage != NULL && !bgra(target->format);
    vf_image *out = direct ? target : cs->output;
    /* the corners written -> read; the output (contents undefined) -> written */
    vf_cmd_barrier_on(cs->gpu, cmd, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, CS, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    out->layout = VK_IMAGE_LAYOUT_UNDEFINED;
    vf_image_transition(cmd, out, VK_IMAGE_LAYOUT_GENERAL,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT, 0, CS,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vf_count_barriers(cs->gpu, 1);
    vf_binding mb[BINDINGS];
    memcpy(mb, b, sizeof mb);
    mb[VF_SURFACE_BIND_OUTPUT] = (vf_binding){.image = direct ? target->storage : cs->output,
                                              .layout = VK_IMAGE_LAYOUT_GENERAL};
    push->bgra = bgra(target->format);
    uint32_t wg = VF_SURFACE_WG;
    dispatch(cs, cmd, cs->march, mb, push, (f->width + wg - 1) / wg, (f->height + wg - 1) / wg);
    vf_scope_end(cs->gpu, prof, cmd, id, false);
}

/* Back to the record() contract: the target COLOR_ATTACHMENT_OPTIMAL, after
 * the march's writes (or the copy of the output into it). */
static void finish_target(vf_surface_cs *cs, VkCommandBuffer cmd, vf_image *target)
{
    const VkPipelineStageFlags2 co = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkAccessFlags2 ca = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    if (target->storage != NULL && !bgra(target->format)) {
        vf_image_transition(cmd, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, CS,
                            VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, co, ca);
        vf_count_barriers(cs->gpu, 1);
        return;
    }
    vf_image_transition(cmd, cs->output, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, CS, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    vf_image_transition(cmd, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, co, 0, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkImageCopy region = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .extent = {target->width, target->height, 1},
    };
    vkCmdCopyImage(cmd, cs->output->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target->image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    vf_image_transition(cmd, target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT, co, ca);
    vf_count_barriers(cs->gpu, 3);
}

void vf_surface_cs_record(vf_surface_cs *cs, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof,
                          const vf_surface_frame *f, const vf_binding b[VF_SURFACE_RASTER_BINDINGS])
{
    vf_binding all[BINDINGS];
    memset(all, 0, sizeof all);
    memcpy(all, b, VF_SURFACE_RASTER_BINDINGS * sizeof *b);
    all[VF_SURFACE_BIND_CORNERS] = vf_bind_buffer(cs->corner_buf);
    all[VF_SURFACE_BIND_BOUNDS] = vf_bind_buffer(cs->bounds);
    /* the corner pass binds the output too (its shader does not use it) */
    all[VF_SURFACE_BIND_OUTPUT] = (vf_binding){.image = cs->output, .layout = VK_IMAGE_LAYOUT_GENERAL};
    all[VF_SURFACE_BIND_BOXES] = vf_bind_buffer(cs->boxes);
    all[VF_SURFACE_BIND_HITS] = vf_bind_buffer(cs->hits ? cs->hits : cs->corner_buf);
    all[VF_SURFACE_BIND_TILES] = vf_bind_buffer(cs->tiles);
    uint32_t boxes = 2 * f->object_count;
    vf_surface_cs_push push = {.encode_srgb = srgb(target->format), .boxes = boxes < cs->box_cap ? boxes : cs->box_cap,
                               .hits = cs->hits != NULL};
    pass_corners(cs, cmd, prof, f, all, &push);
    pass_march(cs, cmd, prof, f, target, all, &push);
    finish_target(cs, cmd, target);
}

void vf_surface_cs_debug_hits(vf_surface_cs *cs, vf_buffer *hits)
{
    cs->hits = hits;
}
