#include "render_sph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_ssf.h"
#include "solver_sph.h"
#include "sph_foam.h"
#include "sph_mesh.h"

typedef struct render_sph {
    vf_renderer base;
    vf_renderer *ssf; /* owned */
    vf_sph *sph;      /* not owned */
    vf_solver *solver;/* not owned: its diffuse particles, if any, are drawn as foam */
    vf_mesh *mesh;    /* owned; the surface mesh of --render mesh, else NULL */
} render_sph;

static void rs_destroy(vf_renderer *r)
{
    render_sph *s = (render_sph *)r;
    vf_renderer_destroy(&s->ssf);
    vf_mesh_destroy(&s->mesh);
    free(s);
}

static vf_result rs_resize(vf_renderer *r, uint32_t width, uint32_t height)
{
    render_sph *s = (render_sph *)r;
    vf_result res = s->ssf->vt->resize(s->ssf, width, height);
    if (res == VF_OK) {
        r->width = s->ssf->width;
        r->height = s->ssf->height;
        r->path = s->ssf->path;
    }
    return res;
}

static vf_ssf_particles particles_of(const vf_sph *sph)
{
    vf_sph_render_view v;
    vf_sph_get_render_view(sph, &v);
    return (vf_ssf_particles){.positions = v.positions, .count = v.count_max, .attributes = v.attributes};
}

static vf_result rs_record(vf_renderer *r, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof)
{
    render_sph *s = (render_sph *)r;
    vf_ssf_particles p = particles_of(s->sph);
    vf_result res = vf_render_ssf_set_particles(s->ssf, &p);
    if (res != VF_OK)
        return res;
    if (s->mesh && (res = vf_mesh_record(s->mesh, cmd, prof, p.positions, p.count)) != VF_OK)
        return res;
    vf_foam *foam = vf_sph_solver_foam(s->solver);
    if (foam) {
        vf_foam_view fv;
        vf_foam_get_view(foam, &fv);
        vf_ssf_foam sf = {.positions = fv.positions, .velocities = fv.velocities, .draw_args = fv.draw_args,
                          .draw_offset = fv.draw_offset};
        if ((res = vf_render_ssf_set_foam(s->ssf, &sf)) != VF_OK)
            return res;
    }
    return s->ssf->vt->record(s->ssf, cmd, target, prof);
}

static void rs_set_camera(vf_renderer *r, const vf_camera *cam)
{
    render_sph *s = (render_sph *)r;
    if (s->ssf->vt->set_camera)
        s->ssf->vt->set_camera(s->ssf, cam);
}

static void rs_get_camera(vf_renderer *r, vf_camera *cam)
{
    render_sph *s = (render_sph *)r;
    if (s->ssf->vt->get_camera)
        s->ssf->vt->get_camera(s->ssf, cam);
}

static bool rs_gpu_counts(vf_renderer *r, vf_render_gpu_counts *out)
{
    render_sph *s = (render_sph *)r;
    return s->ssf->vt->gpu_counts && s->ssf->vt->gpu_counts(s->ssf, out);
}

static const vf_renderer_vtable rs_vtable = {
    .name = "ssf",
    .destroy = rs_destroy,
    .resize = rs_resize,
    .record = rs_record,
    .set_camera = rs_set_camera,
    .get_camera = rs_get_camera,
    .gpu_counts = rs_gpu_counts,
};

vf_result vf_render_sph_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                   char *err, size_t cap)
{
    *out = NULL;
    vf_sph *sph = vf_sph_from_solver(solver);
    if (!sph) {
        snprintf(err, cap, "the sph renderer needs an sph solver");
        return VF_ERR_UNSUPPORTED;
    }
    vf_ssf_options o = {0};
    int view = vf_render_mode_index(VF_RENDER_SPH_MODES, opt->mode);
    if (view < 0) {
        snprintf(err, cap, "--render %s: not a view of the sph solver: use one of %s", opt->mode, VF_RENDER_SPH_MODES);
        return VF_ERR_UNSUPPORTED;
    }
    bool mesh = view == VF_SPH_VIEW_MESH;
    if (view == VF_SPH_VIEW_PARTICLES)
        o.mode = VF_SSF_MODE_PARTICLES;
    vf_sph_render_view v;
    vf_sph_get_render_view(sph, &v);
    o.radius = VF_RENDER_SPH_RADIUS_PER_SPACING * v.spacing;
    if (vf_render_settings_apply(opt, vf_ssf_params, vf_ssf_param_count, &o, err, cap) != VF_OK)
        return VF_ERR_INVALID_ARG; /* --set ssf.KEY=VALUE, checked before (render_registry.h) */
    vf_render_ssf_desc d = {
        .width = opt->width,
        .height = opt->height,
        .format = opt->format,
        .particles = particles_of(sph),
        .options = o,
        .name = "sph",
        .path = opt->path,
    };
    memcpy(d.box_min, v.box_min, sizeof d.box_min);
    memcpy(d.box_max, v.box_max, sizeof d.box_max);
    render_sph *s;
    VF_NEW_OR_RETURN(s);
    vf_result res = vf_render_ssf_create(gpu, &d, &s->ssf);
    if (res != VF_OK) {
        snprintf(err, cap, "the screen-space fluid renderer: %s", vf_result_message(res));
        free(s);
        return res;
    }
    s->sph = sph;
    s->solver = solver;
    if (mesh) {
        vf_mesh_desc md = {.spacing = v.spacing, .particles = vf_sph_capacity(sph)};
        for (int a = 0; a < 3; a++) {
            md.lo[a] = v.box_min[a];
            md.hi[a] = v.box_max[a];
        }
        vf_mesh_buffers mb;
        if ((res = vf_mesh_create(gpu, &md, &s->mesh, err, cap)) != VF_OK) {
            rs_destroy(&s->base);
            return res;
        }
        vf_mesh_get_buffers(s->mesh, &mb);
        vf_ssf_surface surf = {.vertices = mb.vertices, .indices = mb.indices, .draw_args = mb.counts,
                               .draw_offset = VF_MESH_DRAW_OFFSET};
        if ((res = vf_render_ssf_set_surface(s->ssf, &surf)) != VF_OK) {
            snprintf(err, cap, "the surface mesh renderer: %s", vf_result_message(res));
            rs_destroy(&s->base);
            return res;
        }
    }
    s->base.vt = &rs_vtable;
    s->base.gpu = gpu;
    s->base.format = s->ssf->format;
    s->base.width = s->ssf->width;
    s->base.height = s->ssf->height;
    s->base.path = s->ssf->path;
    *out = &s->base;
    return VF_OK;
}
