#include "sph_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "gpu_scan.h"
#include "solver_sph.h"
#include "text.h"

/* The pass enum (MP_*), binding counts and table MP_passes, from sph_mesh_passes.def. */
#define VF_PASS_FILE "sph_mesh_passes.def"
#define VF_PASS_PREFIX MP
#define VF_PASS_TABLE_FN vf_mesh_pass_table
#include "sim_pass_table.h"

struct vf_mesh {
    vf_gpu *gpu;
    vf_mesh_desc desc;
    vf_mesh_push push;
    uint32_t table[256 * VF_MESH_CASE_STRIDE];
    uint64_t points, cells;
    vf_pipeline *pipe[MP_COUNT];
    vf_scan *scan;
    vf_buffer *density, *table_buf, *tris, *edges, *indices, *vertices, *counts;
};

/* Bytes rounded up to the 256-byte scan alignment. */
static uint64_t words_aligned(uint64_t words)
{
    return (words + 63) / 64 * 64;
}

static vf_result check_desc(const vf_mesh_desc *d, char *err, size_t cap)
{
    if (!d || !(d->spacing > 0.0) || !isfinite(d->spacing) || d->particles == 0) {
        vf_set_err(err, cap, "mesh: spacing must be > 0 and particles > 0");
        return VF_ERR_INVALID_ARG;
    }
    for (int a = 0; a < 3; a++)
        if (!isfinite(d->lo[a]) || !isfinite(d->hi[a]) || !(d->hi[a] > d->lo[a])) {
            vf_set_err(err, cap, "mesh: the tank's corners must be finite with hi > lo");
            return VF_ERR_INVALID_ARG;
        }
    if (d->cell < 0.0 || d->radius < 0.0 || !isfinite(d->cell) || !isfinite(d->radius) || d->iso < 0.0 || d->iso >= 1.0) {
        vf_set_err(err, cap, "mesh: cell and radius must be >= 0 and the iso level in [0, 1)");
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

static vf_result make_buffer(vf_gpu *gpu, uint64_t bytes, VkBufferUsageFlags extra, const char *name, vf_buffer **out)
{
    vf_buffer_desc bd = {
        .size = bytes ? bytes : 16,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                 extra,
        .name = name,
    };
    return vf_buffer_create(gpu, &bd, out);
}

void vf_mesh_destroy(vf_mesh **pm)
{
    if (!pm || !*pm)
        return;
    vf_mesh *m = *pm;
    for (int i = 0; i < MP_COUNT; i++)
        vf_pipeline_destroy(&m->pipe[i]);
    vf_scan_destroy(&m->scan);
    vf_buffer **bufs[] = {&m->density, &m->table_buf, &m->tris, &m->edges, &m->indices, &m->vertices, &m->counts};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        vf_buffer_destroy(bufs[i]);
    free(m);
    *pm = NULL;
}

vf_result vf_mesh_create(vf_gpu *gpu, const vf_mesh_desc *desc, vf_mesh **out, char *err, size_t cap)
{
    *out = NULL;
    vf_result res = check_desc(desc, err, cap);
    if (res != VF_OK)
        return res;
    vf_mesh *m;
    VF_NEW_OR_RETURN(m);
    m->gpu = gpu;
    m->desc = *desc;
    vf_mesh_desc *d = &m->desc;
    if (d->cell == 0.0)
        d->cell = d->spacing;
    if (d->radius == 0.0)
        d->radius = 2.0 * d->spacing;
    if (d->iso == 0.0)
        d->iso = 0.5;
    /* Points from lo - cell to past hi + cell: the outer layer reads empty. */
    uint64_t n[3];
    for (int a = 0; a < 3; a++) {
        double cells = ceil((d->hi[a] - d->lo[a]) / d->cell - 1e-9);
        if (cells > 1e6)
            cells = 1e6;
        n[a] = (uint64_t)cells + 3;
    }
    m->points = n[0] * n[1] * n[2];
    m->cells = (n[0] - 1) * (n[1] - 1) * (n[2] - 1);
    uint64_t range = gpu->info.max_storage_buffer_range;
    uint64_t max_tris = d->max_triangles;
    if (!max_tris) {
        max_tris = m->cells / 2 > (1u << 20) ? m->cells / 2 : (1u << 20);
        if (max_tris > 5 * m->cells)
            max_tris = 5 * m->cells;
    }
    if (max_tris > range / 12)
        max_tris = range / 12;
    uint64_t max_verts = max_tris;
    if (max_verts > range / 32)
        max_verts = range / 32;
    uint64_t edge_words = 3 * m->points + 1;
    uint64_t bytes = m->points * 4 + (m->cells + 1) * 4 + edge_words * 4 + max_tris * 12 + max_verts * 32;
    if (edge_words * 4 > range || edge_words >= UINT32_MAX || bytes > gpu->info.device_local_bytes / 2) {
        double fit = d->cell * cbrt((double)(edge_words * 4) / (double)(range < gpu->info.device_local_bytes / 8
                                                                            ? range
                                                                            : gpu->info.device_local_bytes / 8));
        if (err && cap)
            snprintf(err, cap, "mesh: a grid of %llu x %llu x %llu points is too large for this device: use a mesh cell (the particle spacing, key spacing) of at least %.4g m",
                     (unsigned long long)n[0], (unsigned long long)n[1], (unsigned long long)n[2], fit * 1.01);
        free(m);
        return VF_ERR_TOO_LARGE;
    }
    if ((res = vf_mesh_table_build(m->table)) != VF_OK) {
        vf_set_err(err, cap, "mesh: the marching-cubes table could not be built");
        free(m);
        return res;
    }
    vf_mesh_push *p = &m->push;
    for (int a = 0; a < 3; a++) {
        p->origin[a] = (float)(d->lo[a] - d->cell);
        p->lo[a] = (float)d->lo[a];
        p->hi[a] = (float)d->hi[a];
    }
    p->origin[3] = (float)d->cell;
    p->lo[3] = (float)d->radius;
    double norm = 315.0 / (64.0 * 3.14159265358979323846 * d->radius * d->radius * d->radius);
    p->hi[3] = (float)(d->spacing * d->spacing * d->spacing * norm * VF_MESH_FIXED);
    p->nx = (uint32_t)n[0];
    p->ny = (uint32_t)n[1];
    p->nz = (uint32_t)n[2];
    p->iso = (uint32_t)(d->iso * VF_MESH_FIXED);
    p->max_tris = (uint32_t)max_tris;
    p->max_verts = (uint32_t)max_verts;

    for (int i = 0; i < MP_COUNT; i++) {
        const char *variant = i == MP_CLEAR ? "mesh" : NULL; /* the mesh's own clear of sph_clear.comp */
        if ((res = vf_sim_pass_pipeline(gpu, &MP_passes[i], NULL, 0, variant, &m->pipe[i])) != VF_OK)
            goto fail;
    }
    vf_scan_desc sd = {.max_count = edge_words > m->cells + 1 ? edge_words : m->cells + 1};
    if ((res = vf_scan_create(gpu, &sd, &m->scan)) != VF_OK)
        goto fail;
    if ((res = make_buffer(gpu, m->points * 4, 0, "mesh density", &m->density)) != VF_OK ||
        (res = make_buffer(gpu, sizeof m->table, 0, "mesh case table", &m->table_buf)) != VF_OK ||
        (res = make_buffer(gpu, words_aligned(m->cells + 1) * 4, 0, "mesh cube triangles", &m->tris)) != VF_OK ||
        (res = make_buffer(gpu, words_aligned(edge_words) * 4, 0, "mesh edge vertices", &m->edges)) != VF_OK ||
        (res = make_buffer(gpu, max_tris * 12, 0, "mesh indices", &m->indices)) != VF_OK ||
        (res = make_buffer(gpu, max_verts * 32, 0, "mesh vertices", &m->vertices)) != VF_OK ||
        (res = make_buffer(gpu, 32, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, "mesh counts", &m->counts)) != VF_OK)
        goto fail;
    if ((res = vf_buffer_write(m->table_buf, 0, m->table, sizeof m->table)) != VF_OK ||
        (res = vf_buffer_fill(m->counts, 0, VK_WHOLE_SIZE, 0)) != VF_OK)
        goto fail;
    *out = m;
    return VF_OK;
fail:
    if (res == VF_ERR_TOO_LARGE || res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        vf_set_err(err, cap, "mesh: the grid and mesh buffers do not fit in device memory: use a larger mesh cell");
    vf_mesh_destroy(&m);
    return res;
}

vf_result vf_mesh_record(vf_mesh *m, VkCommandBuffer cmd, vf_profiler *prof, vf_buffer *positions, uint32_t count)
{
    if (!m || !positions || count > m->desc.particles || (uint64_t)count * 16 > positions->size)
        return VF_ERR_INVALID_ARG;
    vf_cmd_label_begin(m->gpu, cmd, "mesh");
    uint32_t sc = vf_sim_pass_begin(m->gpu, cmd, prof, &MP_passes[MP_SPLAT]);
    vf_mesh_push p = m->push;
    p.count = count;
    /* The previous build's readers (draws, transfers) are done first. */
    vf_cmd_barrier_on(m->gpu, cmd,
                   VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                       VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT |
                       VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vf_sph_clear_push cp = {.count = (uint32_t)m->points};
    vf_binding bc[VF_MAX_BINDINGS] = {[VF_SPH_CLEAR_BIND_DATA] = vf_bind_buffer(m->density)};
    vf_cmd_dispatch_1d(cmd, m->pipe[MP_CLEAR], bc, &cp, m->points);
    vf_cmd_barrier_compute_on(m->gpu, cmd);
    if (count > 0) {
        vf_binding bs[VF_MAX_BINDINGS] = {[VF_MESH_BIND_DENSITY] = vf_bind_buffer(m->density),
                                            [VF_MESH_BIND_POS] = {.buffer = positions, .range = (VkDeviceSize)count * 16}};
        vf_cmd_dispatch_1d(cmd, m->pipe[MP_SPLAT], bs, &p, count);
        vf_cmd_barrier_compute_on(m->gpu, cmd);
    }
    vf_sim_pass_end(m->gpu, cmd, prof, sc);

    sc = vf_sim_pass_begin(m->gpu, cmd, prof, &MP_passes[MP_CLASSIFY]);
    vf_binding b[VF_MAX_BINDINGS] = {
        [VF_MESH_BIND_DENSITY] = vf_bind_buffer(m->density), [VF_MESH_BIND_TABLE] = vf_bind_buffer(m->table_buf),
        [VF_MESH_BIND_TRIS] = vf_bind_buffer(m->tris),       [VF_MESH_BIND_EDGES] = vf_bind_buffer(m->edges),
        [VF_MESH_BIND_INDICES] = vf_bind_buffer(m->indices)};
    vf_cmd_dispatch_1d(cmd, m->pipe[MP_CLASSIFY], b, &p, m->points);
    vf_cmd_barrier_compute_on(m->gpu, cmd);
    vf_result res = vf_scan_record(m->scan, cmd, m->tris, 0, m->cells + 1);
    vf_cmd_barrier_compute_on(m->gpu, cmd); /* the scans share their scratch */
    if (res == VF_OK)
        res = vf_scan_record(m->scan, cmd, m->edges, 0, 3 * m->points + 1);
    vf_cmd_barrier_compute_on(m->gpu, cmd);
    vf_sim_pass_end(m->gpu, cmd, prof, sc);
    if (res != VF_OK) {
        vf_cmd_label_end(m->gpu, cmd);
        return res;
    }

    sc = vf_sim_pass_begin(m->gpu, cmd, prof, &MP_passes[MP_TRIANGLES]);
    vf_cmd_dispatch_1d(cmd, m->pipe[MP_TRIANGLES], b, &p, m->cells);
    b[VF_MESH_BIND_VERTICES] = vf_bind_buffer(m->vertices);
    vf_cmd_dispatch_1d(cmd, m->pipe[MP_VERTICES], b, &p, m->points);
    b[VF_MESH_BIND_COUNTS] = vf_bind_buffer(m->counts);
    vf_cmd_dispatch(cmd, m->pipe[MP_FINISH], b, &p, 1, 1, 1);
    vf_cmd_barrier_on(m->gpu, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                       VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT |
                       VK_ACCESS_2_TRANSFER_READ_BIT);
    vf_sim_pass_end(m->gpu, cmd, prof, sc);
    vf_cmd_label_end(m->gpu, cmd);
    return VF_OK;
}

void vf_mesh_get_buffers(const vf_mesh *m, vf_mesh_buffers *out)
{
    *out = (vf_mesh_buffers){
        .vertices = m->vertices,
        .indices = m->indices,
        .counts = m->counts,
        .density = m->density,
        .max_triangles = m->push.max_tris,
        .max_vertices = m->push.max_verts,
        .grid = {m->push.nx, m->push.ny, m->push.nz},
    };
}

const vf_mesh_push *vf_mesh_get_push(const vf_mesh *m)
{
    return &m->push;
}

const uint32_t *vf_mesh_get_table(const vf_mesh *m)
{
    return m->table;
}

vf_result vf_mesh_read(vf_mesh *m, vf_mesh_host *out)
{
    memset(out, 0, sizeof *out);
    uint32_t counts[4];
    vf_result res = vf_buffer_read(m->counts, 0, counts, sizeof counts);
    if (res != VF_OK)
        return res;
    out->triangles = counts[0];
    out->vertices = counts[1];
    out->stored_triangles = counts[2];
    out->stored_vertices = counts[3];
    if (out->stored_triangles > m->push.max_tris || out->stored_vertices > m->push.max_verts)
        return VF_ERR_NUMERIC;
    float(*vtx)[4] = malloc(((size_t)out->stored_vertices * 2 + 1) * sizeof *vtx);
    out->pos = malloc(((size_t)out->stored_vertices + 1) * sizeof *out->pos);
    out->normal = malloc(((size_t)out->stored_vertices + 1) * sizeof *out->normal);
    out->tri = malloc(((size_t)out->stored_triangles + 1) * sizeof *out->tri);
    if (!vtx || !out->pos || !out->normal || !out->tri) {
        res = VF_ERR_NO_MEMORY;
        goto done;
    }
    if (out->stored_vertices &&
        (res = vf_buffer_read(m->vertices, 0, vtx, (VkDeviceSize)out->stored_vertices * 32)) != VF_OK)
        goto done;
    if (out->stored_triangles &&
        (res = vf_buffer_read(m->indices, 0, out->tri, (VkDeviceSize)out->stored_triangles * 12)) != VF_OK)
        goto done;
    for (uint32_t i = 0; i < out->stored_vertices; i++) {
        memcpy(out->pos[i], vtx[2 * i], sizeof out->pos[i]);
        memcpy(out->normal[i], vtx[2 * i + 1], sizeof out->normal[i]);
    }
done:
    free(vtx);
    if (res != VF_OK)
        vf_mesh_host_free(out);
    return res;
}

static void put_le32(unsigned char *b, uint32_t v)
{
    b[0] = (unsigned char)v;
    b[1] = (unsigned char)(v >> 8);
    b[2] = (unsigned char)(v >> 16);
    b[3] = (unsigned char)(v >> 24);
}

static void put_float(unsigned char *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    put_le32(b, v);
}

vf_result vf_mesh_write_ply(const vf_mesh_host *h, const char *path)
{
    uint32_t faces = 0;
    for (uint32_t t = 0; t < h->stored_triangles; t++)
        if (h->tri[t][0] < h->stored_vertices && h->tri[t][1] < h->stored_vertices && h->tri[t][2] < h->stored_vertices)
            faces++;
    vf_file file;
    vf_result res = vf_file_begin(&file, path);
    if (res != VF_OK)
        return res;
    fprintf(file.f,
            "ply\nformat binary_little_endian 1.0\ncomment vkfluid fluid surface (marching cubes), metres\n"
            "element vertex %u\nproperty float x\nproperty float y\nproperty float z\n"
            "property float nx\nproperty float ny\nproperty float nz\n"
            "element face %u\nproperty list uchar int vertex_indices\nend_header\n",
            h->stored_vertices, faces);
    unsigned char buf[24];
    for (uint32_t i = 0; i < h->stored_vertices; i++) {
        for (int k = 0; k < 3; k++) {
            put_float(buf + 4 * k, h->pos[i][k]);
            put_float(buf + 12 + 4 * k, h->normal[i][k]);
        }
        fwrite(buf, 1, 24, file.f);
    }
    for (uint32_t t = 0; t < h->stored_triangles; t++) {
        if (!(h->tri[t][0] < h->stored_vertices && h->tri[t][1] < h->stored_vertices && h->tri[t][2] < h->stored_vertices))
            continue;
        buf[0] = 3;
        for (int k = 0; k < 3; k++)
            put_le32(buf + 1 + 4 * k, h->tri[t][k]);
        fwrite(buf, 1, 13, file.f);
    }
    if (ferror(file.f)) {
        vf_file_abort(&file);
        return VF_ERR_IO;
    }
    return vf_file_commit(&file);
}

vf_result vf_mesh_export_sph(vf_gpu *gpu, vf_solver *solver, vf_mesh **cache, const char *path, char *err, size_t cap)
{
    vf_sph *sph = vf_sph_from_solver(solver);
    if (!sph) {
        vf_set_err(err, cap, "only particle (sph) scenes have a surface mesh");
        return VF_ERR_UNSUPPORTED;
    }
    vf_sph_render_view v;
    vf_sph_get_render_view(sph, &v);
    vf_result res;
    if (!*cache) {
        vf_mesh_desc md = {.spacing = v.spacing, .particles = vf_sph_capacity(sph)};
        for (int a = 0; a < 3; a++) {
            md.lo[a] = v.box_min[a];
            md.hi[a] = v.box_max[a];
        }
        if ((res = vf_mesh_create(gpu, &md, cache, err, cap)) != VF_OK)
            return res;
    }
    VkCommandBuffer cmd;
    if ((res = vf_cmd_oneshot_begin(gpu, &cmd)) != VF_OK)
        return res;
    vf_cmd_barrier_compute_on(gpu, cmd);
    if ((res = vf_mesh_record(*cache, cmd, NULL, v.positions, v.count_max)) != VF_OK) {
        vf_cmd_oneshot_abandon(gpu, cmd);
        return res;
    }
    if ((res = vf_cmd_oneshot_submit(gpu, cmd)) != VF_OK)
        return res;
    vf_mesh_host h;
    if ((res = vf_mesh_read(*cache, &h)) != VF_OK)
        return res;
    if (h.stored_triangles < h.triangles && err && cap)
        snprintf(err, cap, "the mesh has %u triangles, the buffers hold %u: the file has the first ones", h.triangles,
                 h.stored_triangles);
    res = vf_mesh_write_ply(&h, path);
    vf_mesh_host_free(&h);
    return res;
}
