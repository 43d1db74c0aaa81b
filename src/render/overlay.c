#include "overlay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_pipeline.h"
#include "render.h"
#include "shared.h"
#include "render_pipelines.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wmissing-braces"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

#define VF_OVERLAY_MAX_SLOTS 4
#define VF_FONT_VERTEX_BYTES 16u
#define VF_FONT_BYTES_PER_CHAR 270u /* stb_easy_font: about 270 bytes per character */

struct vf_overlay {
    vf_gpu *gpu;
    vf_pipeline *pipe;
    vf_buffer *verts[VF_OVERLAY_MAX_SLOTS];
    uint32_t slots, slot;
    size_t cap_bytes;
    uint32_t quads; /* quads in the current slot; quad 0 is the panel behind the text */
    float x0, y0, x1, y1; /* extent of the text so far */
};

void vf_overlay_destroy(vf_overlay **pov)
{
    if (!pov || !*pov)
        return;
    vf_overlay *ov = *pov;
    for (uint32_t i = 0; i < VF_OVERLAY_MAX_SLOTS; i++)
        vf_buffer_destroy(&ov->verts[i]);
    vf_pipeline_destroy(&ov->pipe);
    free(ov);
    *pov = NULL;
}

vf_result vf_overlay_create(vf_gpu *gpu, const vf_overlay_desc *desc, vf_overlay **out)
{
    *out = NULL;
    if (!desc || !desc->format)
        return VF_ERR_INVALID_ARG;
    vf_overlay *ov;
    VF_NEW_OR_RETURN(ov);
    ov->gpu = gpu;
    ov->slots = desc->slots ? desc->slots : 2;
    if (ov->slots > VF_OVERLAY_MAX_SLOTS)
        ov->slots = VF_OVERLAY_MAX_SLOTS;
    ov->cap_bytes = (size_t)(desc->max_chars ? desc->max_chars : 8000) * VF_FONT_BYTES_PER_CHAR;
    vf_result res = vf_render_pipeline_create(gpu, VF_RP_OVERLAY_TEXT, NULL, desc->format, VK_FORMAT_UNDEFINED, &ov->pipe);
    for (uint32_t i = 0; res == VF_OK && i < ov->slots; i++) {
        vf_buffer_desc bd = {.size = ov->cap_bytes, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, .memory = VF_MEMORY_UPLOAD,
                             .name = "overlay text vertices"};
        res = vf_buffer_create(gpu, &bd, &ov->verts[i]);
    }
    if (res != VF_OK) {
        vf_overlay_destroy(&ov);
        return res;
    }
    *out = ov;
    return VF_OK;
}

void vf_overlay_begin(vf_overlay *ov, uint32_t slot)
{
    ov->slot = slot % ov->slots;
    ov->quads = 1; /* quad 0: the panel, filled in by vf_overlay_record */
    ov->x0 = ov->y0 = 1e30f;
    ov->x1 = ov->y1 = -1e30f;
}

/* Writes quad 0: a translucent dark panel behind all the text. */
static void write_panel(vf_overlay *ov)
{
    typedef struct {
        float x, y, z;
        uint8_t rgba[4];
    } font_vertex;
    font_vertex *v = ov->verts[ov->slot]->mapped;
    const float pad = 6.0f;
    float xs[4] = {ov->x0 - pad, ov->x1 + pad, ov->x1 + pad, ov->x0 - pad};
    float ys[4] = {ov->y0 - pad, ov->y0 - pad, ov->y1 + pad, ov->y1 + pad};
    for (int i = 0; i < 4; i++)
        v[i] = (font_vertex){xs[i], ys[i], 0.0f, {0, 0, 0, 225}}; /* white text on it keeps a contrast of about 6:1 over a white view (sRGB blending) */
}

float vf_overlay_text(vf_overlay *ov, float x, float y, const char *text, const uint8_t rgba[4])
{
    size_t used = (size_t)ov->quads * 4 * VF_FONT_VERTEX_BYTES;
    if (used >= ov->cap_bytes || !text)
        return 0.0f;
    unsigned char color[4] = {rgba[0], rgba[1], rgba[2], rgba[3]};
    char *dst = (char *)ov->verts[ov->slot]->mapped + used;
    int quads = stb_easy_font_print(x, y, (char *)text, color, dst, (int)(ov->cap_bytes - used));
    ov->quads += (uint32_t)quads;
    float h = (float)stb_easy_font_height((char *)text), w = (float)stb_easy_font_width((char *)text);
    ov->x0 = ov->x0 < x ? ov->x0 : x;
    ov->y0 = ov->y0 < y ? ov->y0 : y;
    ov->x1 = ov->x1 > x + w ? ov->x1 : x + w;
    ov->y1 = ov->y1 > y + h ? ov->y1 : y + h;
    return h;
}

void vf_overlay_record(vf_overlay *ov, VkCommandBuffer cmd, vf_image *target)
{
    if (ov->quads <= 1)
        return;
    write_panel(ov);
    vf_buffer_flush(ov->verts[ov->slot], 0, VK_WHOLE_SIZE); /* non-coherent memory */
    vf_render_begin_color(cmd, target, VK_ATTACHMENT_LOAD_OP_LOAD);
    vf_binding b = vf_bind_buffer(ov->verts[ov->slot]);
    /* scaled with the window: 1x up to 540 rows, 2x at 720, 3x at 1080 */
    float zoom = target->height >= 540 ? floorf((float)target->height / 360.0f + 0.5f) : 1.0f;
    float fit = floorf((float)target->width / (ov->x1 + 12.0f)); /* the widest line stays in the window */
    if (fit >= 1.0f && fit < zoom)
        zoom = fit;
    /* A dark shadow one pixel down-right, then the text in its colours. */
    vf_overlay_push pc = {.screen = {2.0f * zoom / (float)target->width, 2.0f * zoom / (float)target->height, 1.0f, 1.0f},
                          .shade = {0.0f, 0.0f, 0.0f, 1.0f}};
    vf_cmd_bind(cmd, ov->pipe, &b, &pc);
    vkCmdDraw(cmd, ov->quads * 6, 1, 0, 0);
    pc.screen[2] = pc.screen[3] = 0.0f;
    pc.shade[3] = 0.0f;
    vkCmdPushConstants(cmd, ov->pipe->layout, ov->pipe->stages, 0, sizeof pc, &pc);
    vkCmdDraw(cmd, ov->quads * 6, 1, 0, 0);
    vkCmdEndRendering(cmd);
}
