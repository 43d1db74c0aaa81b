/* render_pipelines: the renderers' pipelines, each declared once in
 * render_pipelines.def (shaders, push struct, targets, blend, depth) and
 * created by id. Their bindings come from the shaders (gpu_spirv.h). */
#ifndef VF_RENDER_PIPELINES_H
#define VF_RENDER_PIPELINES_H

#include "gpu_pipeline.h"

/* A color or depth format column that takes the caller's format. */
#define VF_RP_COLOR VK_FORMAT_MAX_ENUM
#define VF_RP_DEPTH VK_FORMAT_MAX_ENUM

typedef enum vf_render_pipe {
#define GFX(id, ...) VF_RP_##id,
#define CS(id, ...) VF_RP_##id,
#include "render_pipelines.def"
#undef GFX
#undef CS
    VF_RP_COUNT
} vf_render_pipe;

/** What a row of render_pipelines.def gives (for the check of rows against
 * their shaders): its shaders (fragment NULL for a compute row), push size and
 * local x size. */
typedef struct vf_render_pipe_row {
    const char *name, *shader, *fragment;
    uint32_t push_size, local_size_x;
} vf_render_pipe_row;

/** The row of id; NULL when id is out of range. */
const vf_render_pipe_row *vf_render_pipe_row_of(vf_render_pipe id);

/** Creates pipeline id. Its debug name is "<prefix> <name>" (prefix may be
 * NULL: the row's name alone); color and depth are the formats of the rows'
 * VF_RP_COLOR and VF_RP_DEPTH columns (ignored by other rows). The caller
 * owns *out (vf_pipeline_destroy). */
vf_result vf_render_pipeline_create(vf_gpu *gpu, vf_render_pipe id, const char *prefix, VkFormat color, VkFormat depth,
                                    vf_pipeline **out);

#endif
