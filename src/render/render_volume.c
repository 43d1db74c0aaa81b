#include "render_volume.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "shared_volume.h"
#include "solver_grid3d.h"
#include "render_pipelines.h"

/* The default camera of a scene's view region (vf_grid3d_desc view_*): 45
 * degrees, the region's corners within 95 % of the frame. */
#define VF_VOLUME_FOV_Y 0.78539816f
#define VF_VOLUME_FILL 0.95f

typedef struct render_volume {
    vf_renderer base;
    vf_grid3d *grid;
    vf_pipeline *light_pipe, *march;
    vf_buffer *light, *obst;
    uint32_t mode, obstacle_count;
    float slice;
    float light_dir[3];
    vf_camera cam;
} render_volume;

static const vf_renderer_vtable vtable;

static render_volume *as_volume(vf_renderer *r)
{
    return r && r->vt == &vtable ? (render_volume *)r : NULL;
}

static void destroy(vf_renderer *r)
{
    render_volume *rv = (render_volume *)r;
    vf_pipeline_destroy(&rv->light_pipe);
    vf_pipeline_destroy(&rv->march);
    vf_buffer_destroy(&rv->light);
    vf_buffer_destroy(&rv->obst);
    free(rv);
}

vf_camera vf_render_volume_default_camera(const vf_grid3d_desc *d, float aspect)
{
    float h = (float)(d->width / d->nx), lo[3] = {0, 0, 0}, hi[3] = {h * d->nx, h * d->ny, h * d->nz};
    float dir[3] = {0.35f, 0.45f, 1.0f};
    bool region = false, own_dir = false;
    for (int a = 0; a < 3; a++) {
        region |= d->view_hi[a] > d->view_lo[a];
        own_dir |= d->view_dir[a] != 0;
    }
    if (region)
        for (int a = 0; a < 3; a++) {
            lo[a] = d->view_lo[a];
            hi[a] = d->view_hi[a];
        }
    if (own_dir)
        memcpy(dir, d->view_dir, sizeof dir);
    if (!region && !own_dir)
        return vf_camera_for_box(lo, hi, aspect);
    return vf_camera_fit_box(lo, hi, dir, VF_VOLUME_FOV_Y, aspect, VF_VOLUME_FILL);
}

static float extinction_of(const vf_grid3d_desc *d)
{
    return d->extinction > 0 ? d->extinction : 10.0f;
}

static vf_volume_push make_push(render_volume *rv, float aspect)
{
    const vf_grid3d_desc *d = vf_grid3d_get_desc(rv->grid);
    float h = (float)(d->width / d->nx);
    vf_volume_push pc = {.nx = d->nx, .ny = d->ny, .nz = d->nz, .mode = rv->mode};
    float ext[3] = {h * d->nx, h * d->ny, h * d->nz};
    float f[3], len = 0;
    for (int a = 0; a < 3; a++) {
        f[a] = rv->cam.target[a] - rv->cam.eye[a];
        len += f[a] * f[a];
    }
    len = sqrtf(len) > 0 ? sqrtf(len) : 1;
    for (int a = 0; a < 3; a++)
        f[a] /= len;
    const float *u = rv->cam.up;
    float rt[3] = {f[1] * u[2] - f[2] * u[1], f[2] * u[0] - f[0] * u[2], f[0] * u[1] - f[1] * u[0]};
    float rl = sqrtf(rt[0] * rt[0] + rt[1] * rt[1] + rt[2] * rt[2]);
    if (rl < 1e-12f) {
        rt[0] = 1;
        rt[1] = rt[2] = 0;
        rl = 1;
    }
    for (int a = 0; a < 3; a++)
        rt[a] /= rl;
    float up[3] = {rt[1] * f[2] - rt[2] * f[1], rt[2] * f[0] - rt[0] * f[2], rt[0] * f[1] - rt[1] * f[0]};
    float th = tanf(0.5f * rv->cam.fov_y);
    for (int a = 0; a < 3; a++) {
        pc.eye[a] = rv->cam.eye[a];
        pc.fwd[a] = f[a];
        pc.right[a] = rt[a] * th * aspect;
        pc.up[a] = up[a] * th;
        pc.light[a] = rv->light_dir[a];
        pc.box[a] = ext[a];
    }
    pc.eye[3] = 0.75f * h;
    pc.fwd[3] = extinction_of(d);
    pc.right[3] = d->emission;
    pc.up[3] = (float)d->ambient;
    pc.light[3] = h;
    pc.box[3] = d->kelvin > 0 ? d->kelvin : 700.0f;
    double vs = d->vel_scale > 0 ? d->vel_scale : 1.0;
    float range = rv->mode == VF_VOL_MODE_DENSITY    ? 2.0f
                  : rv->mode == VF_VOL_MODE_SPEED    ? (float)(1.5 * vs)
                  : rv->mode == VF_VOL_MODE_PRESSURE ? (float)(0.5 * vs * vs)
                                                     : (float)(10.0 * vs / ext[0]);
    pc.slice[0] = rv->slice;
    pc.slice[1] = range;
    pc.slice[2] = (float)rv->obstacle_count;
    pc.slice[3] = d->albedo > 0 ? d->albedo : 0.8f;
    return pc;
}

static void bindings(render_volume *rv, vf_binding *b)
{
    b[VF_VOL_SCAL] = vf_bind_buffer(vf_grid3d_buffer(rv->grid, VF_GRID3D_FIELD_SCALARS));
    b[VF_VOL_MASK] = vf_bind_buffer(vf_grid3d_buffer(rv->grid, VF_GRID3D_FIELD_MASK));
    b[VF_VOL_LIGHT] = vf_bind_buffer(rv->light);
    b[VF_VOL_VEL] = vf_bind_buffer(vf_grid3d_buffer(rv->grid, VF_GRID3D_FIELD_VEL));
    b[VF_VOL_P] = vf_bind_buffer(vf_grid3d_buffer(rv->grid, VF_GRID3D_FIELD_P));
    b[VF_VOL_OBST] = vf_bind_buffer(rv->obst);
}

void vf_render_volume_record_light(vf_renderer *r, VkCommandBuffer cmd)
{
    render_volume *rv = as_volume(r);
    if (!rv)
        return;
    const vf_grid3d_desc *d = vf_grid3d_get_desc(rv->grid);
    vf_volume_push pc = make_push(rv, 1.0f);
    vf_binding b[VF_VOL_MARCH_BINDINGS];
    bindings(rv, b);
    /* the previous frame's fragment reads of the light volume before this write */
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vf_cmd_dispatch(cmd, rv->light_pipe, b, &pc, (d->nx + VF_VOL_WG_X - 1) / VF_VOL_WG_X,
                    (d->ny + VF_VOL_WG_Y - 1) / VF_VOL_WG_Y, (d->nz + VF_VOL_WG_Z - 1) / VF_VOL_WG_Z);
}

static vf_result record(vf_renderer *r, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof)
{
    render_volume *rv = (render_volume *)r;
    uint32_t scope = vf_scope_begin(r->gpu, prof, cmd, "volume_light", true);
    vf_render_volume_record_light(r, cmd);
    vf_scope_end(r->gpu, prof, cmd, scope, true);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    vf_volume_push pc = make_push(rv, (float)target->width / (float)target->height);
    vf_binding b[VF_VOL_MARCH_BINDINGS];
    bindings(rv, b);
    scope = vf_scope_begin(r->gpu, prof, cmd, "volume_march", false);
    vf_render_begin_color(cmd, target, VK_ATTACHMENT_LOAD_OP_DONT_CARE);
    vf_cmd_bind(cmd, rv->march, b, &pc);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
    vf_scope_end(r->gpu, prof, cmd, scope, false);
    return VF_OK;
}

static void set_camera(vf_renderer *r, const vf_camera *cam)
{
    ((render_volume *)r)->cam = *cam;
}

static void get_camera(vf_renderer *r, vf_camera *cam)
{
    *cam = ((render_volume *)r)->cam;
}

static const vf_renderer_vtable vtable = {
    .name = "volume",
    .destroy = destroy,
    .resize = vf_renderer_set_size,
    .record = record,
    .set_camera = set_camera,
    .get_camera = get_camera,
};

void vf_render_volume_set_slice(vf_renderer *r, float pos)
{
    render_volume *rv = as_volume(r);
    if (rv)
        rv->slice = pos < 0 ? 0 : pos > 1 ? 1 : pos;
}

float vf_render_volume_slice(const vf_renderer *r)
{
    return r && r->vt == &vtable ? ((const render_volume *)r)->slice : -1.0f;
}

vf_buffer *vf_render_volume_light(vf_renderer *r, float dir[3], float *step, float *extinction)
{
    render_volume *rv = as_volume(r);
    if (!rv)
        return NULL;
    const vf_grid3d_desc *d = vf_grid3d_get_desc(rv->grid);
    if (dir)
        memcpy(dir, rv->light_dir, sizeof rv->light_dir);
    if (step)
        *step = (float)(d->width / d->nx);
    if (extinction)
        *extinction = extinction_of(d);
    return rv->light;
}

vf_result vf_render_volume_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                      char *err, size_t cap)
{
    *out = NULL;
    vf_grid3d *grid = vf_grid3d_from_solver(solver);
    int mode = vf_render_mode_index(VF_RENDER_VOLUME_MODES, opt ? opt->mode : NULL);
    if (!grid || mode < 0) {
        if (err)
            snprintf(err, cap, "the volume view needs a 3D grid solver and one of %s", VF_RENDER_VOLUME_MODES);
        return VF_ERR_INVALID_ARG;
    }
    render_volume *rv;
    VF_NEW_OR_RETURN(rv);
    rv->base = vf_renderer_base(&vtable, gpu, opt);
    rv->grid = grid;
    rv->mode = (uint32_t)mode;
    rv->slice = 0.5f;
    const vf_grid3d_desc *d = vf_grid3d_get_desc(grid);
    float ld[3] = {0.45f, 0.8f, 0.4f}, ll = sqrtf(ld[0] * ld[0] + ld[1] * ld[1] + ld[2] * ld[2]);
    for (int a = 0; a < 3; a++)
        rv->light_dir[a] = ld[a] / ll;
    rv->cam = vf_render_volume_default_camera(d, (float)rv->base.width / (float)rv->base.height);
    uint64_t cells = (uint64_t)d->nx * d->ny * d->nz;
    vf_buffer_desc lb = {.size = (cells * 4 + 255) / 256 * 256, .name = "volume light transmittance"};
    vf_buffer_desc ob = {.size = VF_VOL_MAX_OBSTACLES * 32, .memory = VF_MEMORY_UPLOAD,
                         .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, .name = "volume obstacles"};
    vf_result res = vf_buffer_create(gpu, &lb, &rv->light);
    if (res == VF_OK)
        res = vf_buffer_create(gpu, &ob, &rv->obst);
    if (res == VF_OK)
        res = vf_buffer_fill(rv->light, 0, VK_WHOLE_SIZE, 0);
    if (res == VF_OK) {
        float o[VF_VOL_MAX_OBSTACLES * 8] = {0};
        for (int k = 0; k < VF_GRID3D_MAX_OBSTACLES && k < VF_VOL_MAX_OBSTACLES; k++) {
            const vf_grid3d_obstacle *s = &d->obstacles[k];
            if (s->shape == VF_GRID3D_SHAPE_NONE)
                continue;
            float *q = o + 8 * rv->obstacle_count++;
            q[0] = (float)s->shape;
            memcpy(q + 1, s->centre, 3 * sizeof(float));
            memcpy(q + 4, s->size, 3 * sizeof(float));
            q[7] = (float)s->axis;
        }
        memcpy(rv->obst->mapped, o, sizeof o);
    }
    if (res == VF_OK)
        res = vf_render_pipeline_create(gpu, VF_RP_VOLUME_LIGHT, NULL, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED,
                                        &rv->light_pipe);
    if (res == VF_OK)
        res = vf_render_pipeline_create(gpu, VF_RP_VOLUME_MARCH, NULL, rv->base.format, VK_FORMAT_UNDEFINED, &rv->march);
    if (res != VF_OK) {
        if (err)
            snprintf(err, cap, "cannot create the volume view: %s", vf_result_message(res));
        destroy(&rv->base);
        return res;
    }
    *out = &rv->base;
    return VF_OK;
}

/* ------------------------------------------------------------------ CPU reference */
