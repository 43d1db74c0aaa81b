#include "render_registry.h"

#include <stdio.h>
#include <string.h>

#include "render_grid.h"
#include "render_sph.h"
#include "render_surface.h"

typedef struct vf_render_entry {
    const char *family;
    const char *modes;
    vf_result (*create)(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out, char *err,
                        size_t cap);
} vf_render_entry;

static const vf_render_entry entries[] = {
    {"grid", VF_RENDER_GRID_MODES, vf_render_grid_create},
    {"height", "surface|height|pressure", vf_render_surface_create_for},
    {"sph", "ssf|particles|mesh", vf_render_sph_create_for},
    {NULL, NULL, NULL},
};

const char *vf_render_modes(const char *family)
{
    for (const vf_render_entry *e = entries; e->family; e++)
        if (family && !strcmp(e->family, family))
            return e->modes;
    return NULL;
}

vf_result vf_render_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt_in, vf_renderer **out,
                               char *err, size_t cap)
{
    *out = NULL;
    vf_render_options opt = opt_in ? *opt_in : (vf_render_options){0};
    if (!opt.width)
        opt.width = 1280;
    if (!opt.height)
        opt.height = 720;
    if (!opt.format)
        opt.format = VF_CAPTURE_FORMAT;
    for (const vf_render_entry *e = entries; e->family; e++) {
        if (strcmp(e->family, solver->vt->family))
            continue;
        if (opt.mode) {
            char modes[256];
            snprintf(modes, sizeof modes, "|%s|", e->modes);
            char want[96];
            snprintf(want, sizeof want, "|%s|", opt.mode);
            if (!strstr(modes, want)) {
                snprintf(err, cap, "--render %s: not a view of the %s solver: use one of %s", opt.mode, e->family, e->modes);
                return VF_ERR_UNSUPPORTED;
            }
        }
        return e->create(gpu, solver, &opt, out, err, cap);
    }
    snprintf(err, cap, "the %s solver has no renderer yet: use vkfluid run for it", solver->vt->family);
    return VF_ERR_UNSUPPORTED;
}
