/* render_pipelines: the renderers' pipelines from render_pipelines.def. */
#include "render_pipelines.h"

#include <stdio.h>

#include "shared_height.h"
#include "shared_ssf.h"
#include "shared_volume.h"
#include "sim_pass.h"

typedef struct rp_def {
    vf_render_pipe_row row;
    bool graphics;
    VkFormat color, depth;
    vf_blend blend;
    bool test, write;
    VkCompareOp compare;
} rp_def;

static const rp_def rp_defs[VF_RP_COUNT] = {
#define GFX(id, name, vs, fs, push, color_, blend_, depth_, test_, write_, compare_)                                    \
    [VF_RP_##id] = {{name, vs, fs, VF_PASS_PUSH_SIZE(push), 0}, true, color_, depth_, blend_, test_, write_, compare_},
#define CS(id, name, shader, push, local)                                                                              \
    [VF_RP_##id] = {{name, shader, NULL, VF_PASS_PUSH_SIZE(push), local}, false, 0, 0, 0, false, false, 0},
#include "render_pipelines.def"
#undef GFX
#undef CS
};

const vf_render_pipe_row *vf_render_pipe_row_of(vf_render_pipe id)
{
    return (unsigned)id < VF_RP_COUNT ? &rp_defs[id].row : NULL;
}

vf_result vf_render_pipeline_create(vf_gpu *gpu, vf_render_pipe id, const char *prefix, VkFormat color, VkFormat depth,
                                    vf_pipeline **out)
{
    *out = NULL;
    if ((unsigned)id >= VF_RP_COUNT)
        return VF_ERR_INVALID_ARG;
    const rp_def *d = &rp_defs[id];
    char name[64];
    if (prefix)
        snprintf(name, sizeof name, "%s %s", prefix, d->row.name);
    else
        snprintf(name, sizeof name, "%s", d->row.name);
    if (!d->graphics) {
        vf_compute_desc cd = {
            .shader = d->row.shader,
            .push_size = d->row.push_size,
            .local_size_x = d->row.local_size_x,
            .name = name,
        };
        return vf_pipeline_compute_create(gpu, &cd, out);
    }
    vf_graphics_desc gd = {
        .vertex_shader = d->row.shader,
        .fragment_shader = d->row.fragment,
        .push_size = d->row.push_size,
        .color_count = 1,
        .color_formats = {d->color == VF_RP_COLOR ? color : d->color},
        .blend = {d->blend},
        .depth_format = d->depth == VF_RP_DEPTH ? depth : d->depth,
        .depth_test = d->test,
        .depth_write = d->write,
        .depth_compare = d->compare,
        .name = name,
    };
    return vf_pipeline_graphics_create(gpu, &gd, out);
}
