#include "render_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_pipeline.h"
#include "render.h"
#include "shared.h"
#include "render_pipelines.h"

typedef struct render_grid {
    vf_renderer base;
    vf_grid *grid;
    vf_pipeline *field, *arrows;
    uint32_t mode;
} render_grid;

static void destroy(vf_renderer *r)
{
    render_grid *rg = (render_grid *)r;
    vf_pipeline_destroy(&rg->field);
    vf_pipeline_destroy(&rg->arrows);
    free(rg);
}

static vf_result record(vf_renderer *r, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof)
{
    render_grid *rg = (render_grid *)r;
    const vf_grid_desc *d = vf_grid_get_desc(rg->grid);
    uint32_t nx = d->nx, ny = d->ny;
    /* letterbox the domain into the target, keeping its aspect */
    float tw = (float)target->width, th = (float)target->height;
    float scale = fminf(tw / (float)nx, th / (float)ny);
    float w = scale * (float)nx, h = scale * (float)ny;
    float range = (float)(d->vel_scale > 0 ? d->vel_scale : 1.0);
    if (rg->mode == VF_VIEW_MODE_PRESSURE)
        range = 0.5f * range * range; /* dynamic pressure of the expected speed (kinematic) */
    else
        range *= 1.5f;
    float spacing = fmaxf(16.0f, fminf(w, h) / 20.0f);
    vf_view_grid_push pc = {
        .rect = {floorf((tw - w) * 0.5f), floorf((th - h) * 0.5f), w, h},
        .params = {range, spacing, tw, th},
        .nx = nx,
        .ny = ny,
        .mode = rg->mode,
        .arrows_x = (uint32_t)(w / spacing),
    };
    static const vf_grid_field fields[VF_VIEW_BINDINGS] = {
        VF_GRID_FIELD_R, VF_GRID_FIELD_G, VF_GRID_FIELD_B, VF_GRID_FIELD_P, VF_GRID_FIELD_U,
        VF_GRID_FIELD_V, VF_GRID_FIELD_MASK, VF_GRID_FIELD_S, VF_GRID_FIELD_T,
    };
    vf_binding b[VF_VIEW_BINDINGS];
    for (int i = 0; i < VF_VIEW_BINDINGS; i++) {
        vf_buffer *buf = vf_grid_buffer(rg->grid, fields[i]);
        if (!buf)
            buf = vf_grid_buffer(rg->grid, VF_GRID_FIELD_R); /* texture coordinates off: any buffer, unused */
        b[i] = vf_bind_buffer(buf);
    }
    uint32_t scope = vf_scope_begin(r->gpu, prof, cmd, "view_grid", false);
    vf_render_begin_color(cmd, target, VK_ATTACHMENT_LOAD_OP_DONT_CARE);
    vf_cmd_bind(cmd, rg->field, b, &pc);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    if (rg->mode == VF_VIEW_MODE_VELOCITY && pc.arrows_x > 0) {
        uint32_t arrows_y = (uint32_t)(h / spacing);
        vf_cmd_bind(cmd, rg->arrows, b, &pc);
        vkCmdDraw(cmd, VF_VIEW_ARROW_VERTS, pc.arrows_x * arrows_y, 0, 0);
    }
    vkCmdEndRendering(cmd);
    vf_scope_end(r->gpu, prof, cmd, scope, false);
    return VF_OK;
}

static const vf_renderer_vtable vtable = {
    .name = "grid",
    .destroy = destroy,
    .resize = vf_renderer_set_size,
    .record = record,
};

vf_result vf_render_grid_create(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                char *err, size_t cap)
{
    *out = NULL;
    vf_grid *grid = vf_grid_from_solver(solver);
    int mode = vf_render_mode_index(VF_RENDER_GRID_MODES, opt ? opt->mode : NULL);
    if (!grid || mode < 0) {
        if (err)
            snprintf(err, cap, "the grid view needs a grid solver and one of %s", VF_RENDER_GRID_MODES);
        return VF_ERR_INVALID_ARG;
    }
    render_grid *rg;
    VF_NEW_OR_RETURN(rg);
    rg->base = vf_renderer_base(&vtable, gpu, opt);
    rg->grid = grid;
    rg->mode = (uint32_t)mode;
    vf_result res = vf_render_pipeline_create(gpu, VF_RP_VIEW_GRID, NULL, rg->base.format, VK_FORMAT_UNDEFINED, &rg->field);
    if (res == VF_OK)
        res = vf_render_pipeline_create(gpu, VF_RP_VIEW_ARROWS, NULL, rg->base.format, VK_FORMAT_UNDEFINED, &rg->arrows);
    if (res != VF_OK) {
        if (err)
            snprintf(err, cap, "cannot create the grid view pipelines: %s", vf_result_message(res));
        destroy(&rg->base);
        return res;
    }
    *out = &rg->base;
    return VF_OK;
}
