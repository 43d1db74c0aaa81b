/* render_surface: height-field water rendering (see render_surface.h). */
#include "render_surface.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "camera.h"
#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "gpu_pipeline.h"
#include "render_caustics.h"
#include "render_surface_compute.h"
#include "shared_height.h"
#include "solver_height.h"
#include "solver_terrain.h"
#include "render_pipelines.h"

#define DEPTH_FORMAT VK_FORMAT_D32_SFLOAT
#define BINDINGS 10

typedef struct vf_surface_renderer {
    vf_renderer base;
    vf_solver *solver;
    uint32_t view, mesh_max;
    float color_scale, detail;
    vf_camera cam;
    vf_buffer *ubo;
    vf_buffer *rows; /* the index buffer of one row of mesh quads (shared_height.h) */
    vf_image *depth;
    vf_pipeline *sky, *bed, *water, *objects, *top;
    vf_caustics *caustics; /* floor caustics (3D view; NULL when off) */
    vf_surface_cs *cs;     /* the compute path (3D view on that path; else NULL) */
} vf_surface_renderer;

/* ------------------------------------------------------------------ matrices (camera.h; column-major) */

/* General 4x4 inverse (Gauss-Jordan in double); false when singular. */
static bool invert(const float m[16], float out[16])
{
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[c * 4 + r];
            a[r][c + 4] = r == c;
        }
    for (int c = 0; c < 4; c++) {
        int p = c;
        for (int r = c + 1; r < 4; r++)
            if (fabs(a[r][c]) > fabs(a[p][c]))
                p = r;
        if (fabs(a[p][c]) < 1e-20)
            return false;
        for (int k = 0; k < 8; k++) {
            double t = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = t;
        }
        double inv = 1.0 / a[c][c];
        for (int k = 0; k < 8; k++)
            a[c][k] *= inv;
        for (int r = 0; r < 4; r++)
            if (r != c) {
                double f = a[r][c];
                for (int k = 0; k < 8; k++)
                    a[r][k] -= f * a[c][k];
            }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            out[c * 4 + r] = (float)a[r][c + 4];
    return true;
}

/* ------------------------------------------------------------------ the solver's buffers */

/* What the renderer draws of either family: a height solver's state, or a
 * terrain solver's in the same terms (eta and bed above the datum, the
 * datum as the rest level, no solid cells, no flow). *terrain (may be NULL)
 * says which, *lo and *hi (may be NULL) get the ground's range. */
static void surface_state(const vf_solver *solver, vf_height_state *st, bool *terrain, float *lo, float *hi)
{
    if (vf_terrain_is(solver)) {
        vf_terrain_state ts;
        vf_terrain_get_state(solver, &ts);
        *st = (vf_height_state){
            .eta = ts.eta,
            .bed = ts.bed,
            .flags = ts.zeros,
            .pres = ts.zeros,
            .objects = ts.objects,
            .nx = ts.nx,
            .ny = ts.ny,
            .object_count = ts.object_count,
            .dx = ts.dx,
            .g = ts.g,
            .max_depth = ts.max_depth,
            .display_scale = ts.max_depth,
            .time = ts.time,
            .coupling = VF_HEIGHT_COUPLE_NONE,
        };
        if (lo)
            *lo = ts.ground_lo;
        if (hi)
            *hi = ts.ground_hi;
    } else {
        vf_height_get_state(solver, st);
        if (lo)
            *lo = -st->max_depth;
        if (hi)
            *hi = 0.0f;
    }
    if (terrain)
        *terrain = vf_terrain_is(solver);
}

/* ------------------------------------------------------------------ renderer */

void vf_render_surface_default_camera(const vf_solver *solver, float aspect, vf_camera *cam)
{
    vf_height_state st;
    bool terrain;
    float glo, ghi;
    surface_state(solver, &st, &terrain, &glo, &ghi);
    float l = fmaxf((float)st.nx, (float)st.ny);
    float ax = (float)st.nx / l, az = (float)st.ny / l;
    /* the water's rim fills the frame (a terrain: the ground's box); long
     * channels steeply from above, so the channel's width is not
     * foreshortened to a strip */
    float s = 1.0f / (l * st.dx);
    float lo[3] = {0.0f, terrain ? glo * s : -0.02f, 0.0f}, hi[3] = {ax, terrain ? ghi * s : 0.02f, az};
    float elong = fmaxf(ax, az) / fmaxf(fminf(ax, az), 1e-6f);
    float dir[3] = {0.0f, elong > 2.0f ? 2.0f : 1.15f, 1.0f};
    *cam = vf_camera_fit_box(lo, hi, dir, 0.7f, aspect > 0 ? aspect : 16.0f / 9.0f, 0.94f);
    cam->znear = 0.005f;
    cam->zfar = 20.0f;
}

static void surface_destroy(vf_renderer *base)
{
    vf_surface_renderer *r = (vf_surface_renderer *)base;
    vf_buffer_destroy(&r->rows);
    vf_pipeline_destroy(&r->sky);
    vf_pipeline_destroy(&r->bed);
    vf_pipeline_destroy(&r->water);
    vf_pipeline_destroy(&r->objects);
    vf_pipeline_destroy(&r->top);
    vf_caustics_destroy(&r->caustics);
    vf_surface_cs_destroy(&r->cs);
    vf_image_destroy(&r->depth);
    vf_buffer_destroy(&r->ubo);
    free(r);
}

static vf_result surface_resize(vf_renderer *base, uint32_t width, uint32_t height)
{
    vf_surface_renderer *r = (vf_surface_renderer *)base;
    if (!width || !height)
        return VF_ERR_INVALID_ARG;
    vf_image *depth = NULL;
    if (r->cs) {
        vf_result res = vf_surface_cs_resize(r->cs, width, height);
        if (res != VF_OK)
            return res;
    } else if (r->view == VF_SURFACE_VIEW_3D) {
        vf_image_desc id = {.width = width, .height = height, .format = DEPTH_FORMAT,
                            .usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, .name = "surface depth"};
        vf_result res = vf_image_create(base->gpu, &id, &depth);
        if (res != VF_OK)
            return res;
    }
    vf_image_destroy(&r->depth);
    r->depth = depth;
    base->width = width;
    base->height = height;
    return VF_OK;
}

static void surface_set_camera(vf_renderer *base, const vf_camera *cam)
{
    ((vf_surface_renderer *)base)->cam = *cam;
}

static void surface_get_camera(vf_renderer *base, vf_camera *cam)
{
    *cam = ((vf_surface_renderer *)base)->cam;
}

static void fill_frame(vf_surface_renderer *r, const vf_height_state *st, bool terrain, float ground_lo, float ground_hi,
                       vf_surface_frame *f)
{
    memset(f, 0, sizeof *f);
    const vf_camera *c = &r->cam;
    vf_camera cam = *c;
    if (!(cam.fov_y > 0))
        cam.fov_y = 0.9f;
    if (!(cam.znear > 0))
        cam.znear = 0.005f;
    if (!(cam.zfar > cam.znear))
        cam.zfar = 20.0f;
    vf_mat4 view, proj, vpm;
    vf_camera_matrices(&cam, (float)r->base.width / (float)r->base.height, &view, &proj);
    vpm = vf_mat4_mul(&proj, &view);
    float inv[16];
    if (!invert(vpm.m, inv))
        memset(inv, 0, sizeof inv);
    memcpy(f->view_proj, vpm.m, sizeof vpm.m);
    memcpy(f->inv_view_proj, inv, sizeof inv);
    f->eye[0] = c->eye[0];
    f->eye[1] = c->eye[1];
    f->eye[2] = c->eye[2];
    f->eye[3] = (float)st->time;
    float sun[3] = {-0.35f, 0.55f, -0.76f}, sl = sqrtf(sun[0] * sun[0] + sun[1] * sun[1] + sun[2] * sun[2]);
    f->sun[0] = sun[0] / sl;
    f->sun[1] = sun[1] / sl;
    f->sun[2] = sun[2] / sl;
    f->sun[3] = 1.0f;
    f->grid[0] = st->dx;
    f->grid[1] = st->surface;
    f->grid[2] = r->color_scale > 0 ? r->color_scale : st->display_scale;
    f->grid[3] = st->max_depth;
    f->water[0] = 0.45f; /* absorption per metre: red goes first */
    f->water[1] = 0.075f;
    f->water[2] = 0.035f;
    f->water[3] = 1.333f;
    f->misc[0] = r->detail;
    f->misc[1] = fmaxf(0.12f * st->max_depth, 2.0f * st->dx);
    f->misc[2] = r->caustics ? 1.0f : 0.0f;
    if (terrain) {
        /* a terrain stands on a block whose sides follow its edges down to a
         * foot below its lowest ground; natural colours */
        f->misc[1] = ground_lo - fmaxf(0.15f * (ground_hi - ground_lo), 2.0f * st->dx);
        f->misc[3] = 1.0f;
    }
    f->nx = st->nx;
    f->ny = st->ny;
    uint32_t m = r->mesh_max;
    f->mesh_x = (st->nx < m ? st->nx : m) + 1;
    f->mesh_y = (st->ny < m ? st->ny : m) + 1;
    f->object_count = st->object_count;
    /* without a coupled flow the pressure is hydrostatic, rho g (eta - bed):
     * its change from rest in metres of water is the surface's rise, eta */
    f->view = r->view == VF_SURFACE_VIEW_PRESSURE && st->coupling == VF_HEIGHT_COUPLE_NONE ? VF_SURFACE_VIEW_HEIGHT
                                                                                          : r->view;
    f->width = r->base.width;
    f->height = r->base.height;
    bool dye = st->dye[0] && st->dye[1] && st->dye[2] && st->flow_nx && st->flow_ny;
    f->flow_nx = dye ? st->flow_nx : 0;
    f->flow_ny = dye ? st->flow_ny : 0;
    f->dye_opacity = dye ? 0.75f : 0.0f;
}

/* The 3D view draws the domain's metres (x, y) at world (x s, eta s, y s) with
 * s = 1 / (max(nx, ny) dx) (surface_common.glsl's to_world): the ray meets the
 * water at rest (eta = 0, world y = 0). */
static bool surface_pick(vf_renderer *base, const float origin[3], const float dir[3], float pos[2])
{
    vf_surface_renderer *r = (vf_surface_renderer *)base;
    if (r->view != VF_SURFACE_VIEW_3D || !(dir[1] < 0.0f) || (!(origin[1] > 0.0f) && !vf_terrain_is(r->solver)))
        return false;
    vf_height_state st;
    bool terrain;
    surface_state(r->solver, &st, &terrain, NULL, NULL);
    float l = fmaxf((float)st.nx, (float)st.ny);
    if (terrain) {
        /* world (x, y, z) = (domain x, elevation, domain y) / (l dx) */
        double k = (double)l * st.dx, o[3] = {origin[0] * k, origin[2] * k, origin[1] * k};
        double d[3] = {dir[0], dir[2], dir[1]}, hit[2];
        if (!vf_terrain_pick(r->solver, o, d, hit))
            return false;
        pos[0] = (float)(hit[0] / (st.nx * (double)st.dx));
        pos[1] = (float)(hit[1] / (st.ny * (double)st.dx));
        return true;
    }
    float t = -origin[1] / dir[1];
    pos[0] = (origin[0] + t * dir[0]) * l / (float)st.nx;
    pos[1] = (origin[2] + t * dir[2]) * l / (float)st.ny;
    return true;
}

/* The next simulation frame overwrites what the render read. */
static void release_state(const vf_gpu *gpu, VkCommandBuffer cmd)
{
    vf_cmd_barrier_on(gpu, cmd,
                      VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                          VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
}

/* One draw in its profiler scope, counted in the work counters (when
 * attached): rows = 0 draws count vertices; rows > 0 draws count indices of
 * the bound row index buffer, one instance per row of mesh quads. */
static void surface_draw(vf_surface_renderer *r, VkCommandBuffer cmd, vf_profiler *prof, const char *scope,
                         const vf_pipeline *p, const vf_binding *b, uint64_t attach, uint32_t count, uint32_t rows)
{
    uint32_t id = vf_scope_begin(r->base.gpu, prof, cmd, scope, false);
    vf_cmd_bind(cmd, p, b, NULL);
    if (rows)
        vkCmdDrawIndexed(cmd, count, rows, 0, 0, 0);
    else
        vkCmdDraw(cmd, count, 1, 0, 0);
    if (r->base.gpu->counters)
        vf_count_draw_pass(r->base.gpu, p->name, vf_pipeline_bound_bytes(p, b) + attach);
    vf_scope_end(r->base.gpu, prof, cmd, id, false);
}

static vf_result surface_record(vf_renderer *base, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof)
{
    vf_surface_renderer *r = (vf_surface_renderer *)base;
    if (target->width != base->width || target->height != base->height || (r->cs && !vf_surface_cs_target_ok(target)))
        return VF_ERR_INVALID_ARG;
    vf_height_state st;
    bool terrain;
    float glo, ghi;
    surface_state(r->solver, &st, &terrain, &glo, &ghi);
    vf_surface_frame f;
    fill_frame(r, &st, terrain, glo, ghi, &f);
    /* frame constants: ordered after the last frame's reads, before this frame's */
    const VkPipelineStageFlags2 readers = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                          VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    vf_cmd_barrier_on(base->gpu, cmd, readers, VK_ACCESS_2_UNIFORM_READ_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                      VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdUpdateBuffer(cmd, r->ubo->buffer, 0, sizeof f, &f);
    vf_cmd_barrier_on(base->gpu, cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, readers,
                      VK_ACCESS_2_UNIFORM_READ_BIT);
    bool three_d = r->view == VF_SURFACE_VIEW_3D;
    if (three_d && r->caustics) {
        /* the sun's light through this frame's surface onto the floor */
        uint32_t id = vf_scope_begin(base->gpu, prof, cmd, "surface_caustics", false);
        float light[3] = {f.sun[0], f.sun[2], f.sun[1]}; /* world (x, y up, z) to domain (x, y, z up) */
        vf_caustics_push cp = vf_caustics_params(r->caustics, st.dx, light, f.water[3]);
        vf_caustics_record(r->caustics, cmd, &cp, st.eta, st.bed, st.flags);
        vf_scope_end(base->gpu, prof, cmd, id, false);
    }
    if (three_d && !r->cs) {
        r->depth->layout = VK_IMAGE_LAYOUT_UNDEFINED;
        vf_image_transition(cmd, r->depth, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    }
    VkRenderingAttachmentInfo ca = vf_render_color_attachment(target, VK_ATTACHMENT_LOAD_OP_CLEAR);
    ca.clearValue = (VkClearValue){.color = {{0.0f, 0.0f, 0.0f, 1.0f}}};
    vf_binding b[BINDINGS] = {
        {.buffer = r->ubo}, vf_bind_buffer(st.eta), vf_bind_buffer(st.bed), vf_bind_buffer(st.flags),
        vf_bind_buffer(st.objects), vf_bind_buffer(st.pres),
        /* the flow's dye, or any buffer (flow_nx = 0 keeps the shaders off it) */
        vf_bind_buffer(st.dye[0] ? st.dye[0] : st.pres), vf_bind_buffer(st.dye[1] ? st.dye[1] : st.pres),
        vf_bind_buffer(st.dye[2] ? st.dye[2] : st.pres),
        /* the floor caustics, or any buffer (misc.z = 0 keeps the shaders off it) */
        vf_bind_buffer(r->caustics ? vf_caustics_buffer(r->caustics) : st.pres),
    };
    if (r->cs) {
        vf_surface_cs_record(r->cs, cmd, target, prof, &f, b);
        release_state(base->gpu, cmd);
        return VF_OK;
    }
    VkRenderingAttachmentInfo da = {0};
    if (three_d)
        da = vf_render_depth_attachment(r->depth, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR,
                                        VK_ATTACHMENT_STORE_OP_DONT_CARE);
    vf_render_begin(cmd, base->width, base->height, &ca, three_d ? &da : NULL);
    /* each draw touches its bound buffers and the attachments (colour, depth) once */
    uint64_t attach = (uint64_t)base->width * base->height * (three_d ? 8u : 4u);
    if (three_d) {
        /* front to back, so early depth tests skip what the water hides; the
         * sky last, at the far plane where nothing was drawn */
        if (st.object_count)
            surface_draw(r, cmd, prof, "surface_objects", r->objects, b, attach, st.object_count * 72, 0);
        vkCmdBindIndexBuffer(cmd, r->rows->buffer, 0, VK_INDEX_TYPE_UINT32);
        surface_draw(r, cmd, prof, "surface_water", r->water, b, attach, (f.mesh_x - 1) * 6, f.mesh_y - 1);
        surface_draw(r, cmd, prof, "surface_bed", r->bed, b, attach, (f.mesh_x + 5) * 6, f.mesh_y + 5);
        surface_draw(r, cmd, prof, "surface_sky", r->sky, b, attach, 3, 0);
    } else {
        surface_draw(r, cmd, prof, "surface_topdown", r->top, b, attach, 3, 0);
    }
    vkCmdEndRendering(cmd);
    release_state(base->gpu, cmd);
    target->layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    return VF_OK;
}

static const vf_renderer_vtable surface_vt = {
    .name = "surface",
    .destroy = surface_destroy,
    .resize = surface_resize,
    .record = surface_record,
    .set_camera = surface_set_camera,
    .get_camera = surface_get_camera,
    .pick = surface_pick,
};

/* Pipeline id of render_pipelines.def on the view's targets (a depth
 * target in 3D only). */
static vf_result make_graphics(vf_surface_renderer *r, vf_render_pipe id, vf_pipeline **out)
{
    VkFormat depth = r->view == VF_SURFACE_VIEW_3D ? DEPTH_FORMAT : VK_FORMAT_UNDEFINED;
    return vf_render_pipeline_create(r->base.gpu, id, NULL, r->base.format, depth, out);
}

/* The index buffer of one row of VF_SURFACE_MESH_MAX + 6 quads (the bed's
 * widest row): quad q is two triangles over the vertices q, q + 1 of its
 * row and q + stride, q + stride + 1 of the next, in the order the shaders'
 * corners had before (0,0) (1,0) (1,1) / (0,0) (1,1) (0,1). */
static vf_result make_rows(vf_surface_renderer *r)
{
    enum { QUADS = VF_SURFACE_MESH_MAX + 6 };
    static const uint32_t corner[6][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 0}, {1, 1}, {0, 1}};
    uint32_t idx[QUADS * 6];
    for (uint32_t q = 0; q < QUADS; q++)
        for (uint32_t k = 0; k < 6; k++)
            idx[q * 6 + k] = q + corner[k][0] + corner[k][1] * VF_SURFACE_MESH_STRIDE;
    vf_buffer_desc bd = {.size = sizeof idx,
                         .usage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         .name = "surface mesh row indices"};
    vf_result res = vf_buffer_create(r->base.gpu, &bd, &r->rows);
    return res == VF_OK ? vf_buffer_write(r->rows, 0, idx, sizeof idx) : res;
}

vf_result vf_render_surface_create(vf_gpu *gpu, const vf_render_surface_desc *desc, vf_renderer **out)
{
    *out = NULL;
    if (!desc || !(vf_height_is(desc->solver) || vf_terrain_is(desc->solver)) || desc->view > VF_SURFACE_VIEW_PRESSURE)
        return VF_ERR_INVALID_ARG;
    vf_surface_renderer *r;
    VF_NEW_OR_RETURN(r);
    r->base.vt = &surface_vt;
    r->base.gpu = gpu;
    r->base.format = desc->format ? desc->format : VF_CAPTURE_FORMAT;
    r->base.path = VF_RENDER_PATH_RASTER; /* until the compute path is made */
    r->solver = desc->solver;
    r->view = desc->view;
    r->mesh_max = desc->mesh_max && desc->mesh_max < VF_SURFACE_MESH_MAX ? desc->mesh_max : VF_SURFACE_MESH_MAX;
    r->color_scale = desc->color_scale;
    r->detail = desc->detail == 0 ? 1.0f : fmaxf(desc->detail, 0.0f);
    vf_render_surface_default_camera(desc->solver,
                                     desc->width && desc->height ? (float)desc->width / (float)desc->height : 0.0f,
                                     &r->cam);
    vf_buffer_desc bd = {.size = sizeof(vf_surface_frame),
                         .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         .name = "surface frame constants"};
    vf_result res = vf_buffer_create(gpu, &bd, &r->ubo);
    if (res == VF_OK)
        res = surface_resize(&r->base, desc->width ? desc->width : 1280, desc->height ? desc->height : 720);
    bool three_d = r->view == VF_SURFACE_VIEW_3D;
    vf_render_path want =
        desc->path == VF_RENDER_PATH_AUTO ? vf_render_path_auto_surface(&gpu->info, NULL, 0) : desc->path;
    if (res == VF_OK && three_d && want == VF_RENDER_PATH_COMPUTE) {
        vf_height_state st;
        surface_state(desc->solver, &st, NULL, NULL, NULL);
        res = vf_surface_cs_create(gpu, r->mesh_max, st.object_count, gpu->info.subgroup_quad && !desc->no_quad,
                                   r->base.width, r->base.height, &r->cs);
        if (res != VF_OK && desc->path == VF_RENDER_PATH_AUTO)
            res = VF_OK; /* auto: the rasteriser where the compute path cannot be made */
        if (r->cs) {
            r->base.path = VF_RENDER_PATH_COMPUTE;
            vf_image_destroy(&r->depth);
        }
    }
    if (res == VF_OK && three_d && !r->cs) {
        if ((res = make_graphics(r, VF_RP_SURFACE_SKY, &r->sky)) == VF_OK &&
            (res = make_graphics(r, VF_RP_SURFACE_BED, &r->bed)) == VF_OK &&
            (res = make_graphics(r, VF_RP_SURFACE_WATER, &r->water)) == VF_OK)
            res = make_graphics(r, VF_RP_SURFACE_OBJECTS, &r->objects);
        if (res == VF_OK)
            res = make_rows(r);
    }
    if (res == VF_OK && three_d) {
        /* caustics under the height family's water (a terrain's shallow
         * runs would only show its shores' slopes) */
        if (res == VF_OK && desc->caustics >= 0 && vf_height_is(desc->solver)) {
            vf_height_state st;
            vf_height_get_state(desc->solver, &st);
            vf_caustics_desc cd = {.nx = st.nx, .ny = st.ny};
            res = vf_caustics_create(gpu, &cd, &r->caustics);
        }
    } else if (res == VF_OK) {
        res = make_graphics(r, VF_RP_SURFACE_TOP, &r->top);
    }
    if (res != VF_OK) {
        surface_destroy(&r->base);
        return res;
    }
    *out = &r->base;
    return VF_OK;
}

VF_CHOICES_CHECK(VF_RENDER_SURFACE_VIEW_LIST)

vf_result vf_render_surface_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                       char *err, size_t cap)
{
    int view = vf_render_mode_index(VF_RENDER_SURFACE_MODES, opt->mode);
    if (view < 0) {
        snprintf(err, cap, "--render %s: not a view of the %s solver: use one of %s", opt->mode, solver->vt->family,
                 VF_RENDER_SURFACE_MODES);
        return VF_ERR_UNSUPPORTED;
    }
    vf_render_surface_desc d = {.solver = solver, .format = opt->format, .width = opt->width, .height = opt->height,
                                .view = (uint32_t)view, .path = opt->path};
    return vf_render_surface_create(gpu, &d, out);
}

bool vf_render_surface_debug_hits(vf_renderer *base, vf_buffer *hits)
{
    vf_surface_renderer *r = (vf_surface_renderer *)base;
    if (base->vt != &surface_vt || !r->cs)
        return false;
    vf_surface_cs_debug_hits(r->cs, hits);
    return true;
}

bool vf_render_surface_frame(vf_renderer *base, vf_surface_frame *f)
{
    vf_surface_renderer *r = (vf_surface_renderer *)base;
    if (base->vt != &surface_vt)
        return false;
    vf_height_state st;
    bool terrain;
    float glo, ghi;
    surface_state(r->solver, &st, &terrain, &glo, &ghi);
    fill_frame(r, &st, terrain, glo, ghi, f);
    return true;
}
