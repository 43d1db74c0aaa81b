/* render_registry: which renderer draws which solver family. The only place
 * that knows both sides, so a solver never knows its renderer. */
#ifndef VF_RENDER_REGISTRY_H
#define VF_RENDER_REGISTRY_H

#include "render.h"
#include "solver.h"

/** Zeroed: the family's default view at 1280x720 into VF_CAPTURE_FORMAT. */
typedef struct vf_render_options {
    uint32_t width, height;
    VkFormat format;
    const char *mode; /* a family's view: "dye", "pressure", "ssf", "particles", ...; NULL = default */
} vf_render_options;

/** Creates the renderer for a solver's family. Returns VF_ERR_UNSUPPORTED
 * with a one-line reason in err when the family has no renderer or the mode
 * is unknown to it. */
vf_result vf_render_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                               char *err, size_t cap);

/** Lists the render modes of a family ("dye|pressure|velocity"), or NULL. */
const char *vf_render_modes(const char *family);

#endif
