#include "render_registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_grid.h"
#include "render_sph.h"
#include "render_ssf.h"
#include "render_surface.h"
#include "render_volume.h"

typedef struct vf_render_entry {
    const char *family;
    const char *modes;
    vf_result (*create)(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out, char *err,
                        size_t cap);
    const vf_param_def *params;  /* the renderer's keys, NULL: none */
    const size_t *param_count;
    size_t options_size;         /* the struct the keys write into */
    const char *prefix;          /* the keys' prefix, "ssf." */
    const char *view_key;        /* the key set by the view instead */
} vf_render_entry;

static const vf_render_entry entries[] = {
    {"grid", VF_RENDER_GRID_MODES, vf_render_grid_create, NULL, NULL, 0, NULL, NULL},
    {"height", VF_RENDER_SURFACE_MODES, vf_render_surface_create_for, NULL, NULL, 0, NULL, NULL},
    {"sph", VF_RENDER_SPH_MODES, vf_render_sph_create_for, vf_ssf_params, &vf_ssf_param_count,
     sizeof(vf_ssf_options), "ssf.", "ssf.view"},
    {"grid3d", VF_RENDER_VOLUME_MODES, vf_render_volume_create_for, NULL, NULL, 0, NULL, NULL},
    {"terrain", VF_RENDER_SURFACE_MODES, vf_render_surface_create_for, NULL, NULL, 0, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL},
};

static const vf_render_entry *entry_of(const char *family)
{
    for (const vf_render_entry *e = entries; e->family; e++)
        if (family && !strcmp(e->family, family))
            return e;
    return NULL;
}

const char *vf_render_family(size_t i)
{
    return i < sizeof entries / sizeof entries[0] ? entries[i].family : NULL;
}

const vf_param_def *vf_render_params(const char *family, size_t *count)
{
    const vf_render_entry *e = entry_of(family);
    *count = e && e->params ? *e->param_count : 0;
    return e ? e->params : NULL;
}

const char *vf_render_view_key(const char *family)
{
    const vf_render_entry *e = entry_of(family);
    return e ? e->view_key : NULL;
}

vf_result vf_render_setting_check(const char *family, const char *assignment, char *err, size_t cap)
{
    const vf_render_entry *owner = NULL;
    for (const vf_render_entry *e = entries; e->family && !owner; e++)
        if (e->prefix && !strncmp(assignment, e->prefix, strlen(e->prefix)))
            owner = e;
    if (!owner)
        return VF_ERR_UNSUPPORTED;
    size_t kl = strcspn(assignment, "=");
    if (strcmp(owner->family, family ? family : "")) {
        snprintf(err, cap, "%.*s: a key of the %s solver's renderer: a %s scene's renderer takes no %s* keys",
                 (int)(kl < 64 ? kl : 64), assignment, owner->family, family ? family : "?", owner->prefix);
        return VF_ERR_INVALID_ARG;
    }
    void *scratch = calloc(1, owner->options_size);
    if (!scratch) {
        snprintf(err, cap, "out of memory");
        return VF_ERR_NO_MEMORY;
    }
    vf_result r = vf_params_set(owner->params, *owner->param_count, scratch, assignment, err, cap);
    free(scratch);
    return r;
}

const char *vf_render_modes(const char *family)
{
    const vf_render_entry *e = entry_of(family);
    return e ? e->modes : NULL;
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
