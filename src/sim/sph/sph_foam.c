#include "sph_foam.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "gpu_scan.h"
#include "solver_sph.h"
#include "text.h"

/* The pass enum (FO_*), binding counts and table FO_passes, from sph_foam_passes.def. */
#define VF_PASS_FILE "sph_foam_passes.def"
#define VF_PASS_PREFIX FO
#define VF_PASS_TABLE_FN vf_foam_pass_table
#include "sim_pass_table.h"

struct vf_foam {
    vf_gpu *gpu;
    vf_sph *sph;
    vf_foam_desc desc;
    vf_foam_push push;
    uint32_t fluid_cap, cap;
    uint32_t frame;
    int cur;
    vf_pipeline *p[FO_COUNT];
    vf_scan *scan;
    vf_buffer *normal, *potential, *gen, *state, *keep, *latest;
    vf_buffer *dpos[2], *dvel[2];
};

/* The defaults of the desc's rates and ranges (sph_foam.h), taken where it has 0. */
#define FOAM_DEFAULT(field, value) {offsetof(vf_foam_desc, field), value}
static const struct {
    size_t offset;
    double value;
} foam_defaults[] = {
    FOAM_DEFAULT(trapped_air, 200), FOAM_DEFAULT(wave_crest, 200), FOAM_DEFAULT(ta_min, 2),
    FOAM_DEFAULT(ta_max, 10),       FOAM_DEFAULT(wc_min, 1),       FOAM_DEFAULT(wc_max, 6),
    FOAM_DEFAULT(ke_min, 0.5),      FOAM_DEFAULT(ke_max, 5),       FOAM_DEFAULT(life_min, 1),
    FOAM_DEFAULT(life_max, 3),      FOAM_DEFAULT(buoyancy, 2),     FOAM_DEFAULT(drag, 0.5),
    FOAM_DEFAULT(crest_threshold, 0.6),
};
#undef FOAM_DEFAULT

static void resolve(const vf_foam_desc *in, double spacing, vf_foam_desc *d)
{
    *d = in ? *in : (vf_foam_desc){0};
    if (!d->capacity)
        d->capacity = 65536;
    for (size_t k = 0; k < sizeof foam_defaults / sizeof foam_defaults[0]; k++) {
        double *v = (double *)((char *)d + foam_defaults[k].offset);
        if (*v == 0.0)
            *v = foam_defaults[k].value;
    }
    if (d->spawn_radius == 0.0)
        d->spawn_radius = 0.5 * spacing;
    if (!d->spray_max)
        d->spray_max = 6;
    if (!d->bubble_min)
        d->bubble_min = 20;
}

static vf_result make_buffer(vf_gpu *gpu, uint64_t bytes, VkBufferUsageFlags extra, vf_memory mem, const char *name,
                             vf_buffer **out)
{
    vf_buffer_desc bd = {
        .size = bytes ? bytes : 16,
        .usage = (mem == VF_MEMORY_READBACK ? 0 : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT | extra,
        .memory = mem,
        .name = name,
    };
    return vf_buffer_create(gpu, &bd, out);
}

void vf_foam_destroy(vf_foam **pf)
{
    if (!pf || !*pf)
        return;
    vf_foam *f = *pf;
    for (int i = 0; i < FO_COUNT; i++)
        vf_pipeline_destroy(&f->p[i]);
    vf_scan_destroy(&f->scan);
    vf_buffer_destroy(&f->normal);
    vf_buffer_destroy(&f->potential);
    vf_buffer_destroy(&f->gen);
    vf_buffer_destroy(&f->keep);
    vf_buffer_destroy(&f->state);
    vf_buffer_destroy(&f->latest);
    for (int k = 0; k < 2; k++) {
        vf_buffer_destroy(&f->dpos[k]);
        vf_buffer_destroy(&f->dvel[k]);
    }
    free(f);
    *pf = NULL;
}

vf_result vf_foam_create(vf_gpu *gpu, vf_sph *sph, const vf_foam_desc *desc, vf_foam **out, const char **key, char *err,
                         size_t cap)
{
    *out = NULL;
    if (!sph)
        return VF_ERR_INVALID_ARG;
    vf_foam *f;
    VF_NEW_OR_RETURN(f);
    f->gpu = gpu;
    f->sph = sph;
    vf_sph_render_view rv;
    vf_sph_get_render_view(sph, &rv);
    resolve(desc, rv.spacing, &f->desc);
    const vf_foam_desc *d = &f->desc;
    vf_result res = VF_ERR_INVALID_ARG;
    /* the ranges of the scene keys come validated (the sph scene's
     * validate); the neighbour counts are no scene keys */
    if (!(d->bubble_min >= d->spray_max)) {
        vf_set_err(err, cap, "foam: bubble_min %u is below spray_max %u: make it at least that", d->bubble_min,
                   d->spray_max);
        goto fail;
    }
    f->fluid_cap = vf_sph_capacity(sph);
    f->cap = d->capacity;
    uint64_t range = gpu->info.max_storage_buffer_range;
    if ((uint64_t)f->cap * 16 > range || (uint64_t)f->fluid_cap * 16 > range || (uint64_t)f->cap + 1 > UINT32_MAX ||
        (uint64_t)f->cap * 64 > gpu->info.device_local_bytes / 4) {
        if (err && cap)
            vf_set_key_err(key, err, cap, "foam_capacity", ": %u diffuse particles do not fit this device: use at most %llu", f->cap,
                     (unsigned long long)(range / 16 < gpu->info.device_local_bytes / 256 ? range / 16
                                                                                          : gpu->info.device_local_bytes / 256));
        res = VF_ERR_TOO_LARGE;
        goto fail;
    }
    for (int i = 0; i < FO_COUNT; i++)
        if ((res = vf_sim_pass_pipeline(gpu, &FO_passes[i], NULL, 0, NULL, &f->p[i])) != VF_OK)
            goto fail;
    vf_scan_desc sd = {.max_count = (uint64_t)(f->cap > f->fluid_cap ? f->cap : f->fluid_cap) + 1};
    if ((res = vf_scan_create(gpu, &sd, &f->scan)) != VF_OK)
        goto fail;
    uint64_t nf = f->fluid_cap ? f->fluid_cap : 1, nd = f->cap;
    if ((res = make_buffer(gpu, nf * 16, 0, VF_MEMORY_DEVICE, "foam normals", &f->normal)) ||
        (res = make_buffer(gpu, nf * 16, 0, VF_MEMORY_DEVICE, "foam potentials", &f->potential)) ||
        (res = make_buffer(gpu, (nf + 1) * 4, 0, VF_MEMORY_DEVICE, "foam generated", &f->gen)) ||
        (res = make_buffer(gpu, (nd + 1) * 4, 0, VF_MEMORY_DEVICE, "foam survivors", &f->keep)) ||
        (res = make_buffer(gpu, VF_FOAM_STATE_WORDS * 4, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, VF_MEMORY_DEVICE,
                           "foam state", &f->state)) ||
        (res = make_buffer(gpu, VF_FOAM_STATE_WORDS * 4, 0, VF_MEMORY_READBACK, "foam counts", &f->latest)) ||
        (res = make_buffer(gpu, nd * 16, 0, VF_MEMORY_DEVICE, "foam positions 0", &f->dpos[0])) ||
        (res = make_buffer(gpu, nd * 16, 0, VF_MEMORY_DEVICE, "foam positions 1", &f->dpos[1])) ||
        (res = make_buffer(gpu, nd * 16, 0, VF_MEMORY_DEVICE, "foam velocities 0", &f->dvel[0])) ||
        (res = make_buffer(gpu, nd * 16, 0, VF_MEMORY_DEVICE, "foam velocities 1", &f->dvel[1])))
        goto fail;
    uint32_t init[VF_FOAM_STATE_WORDS] = {0};
    init[VF_FOAM_DRAW_OFFSET / 4] = 6;
    if ((res = vf_buffer_write(f->state, 0, init, sizeof init)) != VF_OK ||
        (res = vf_buffer_fill(f->normal, 0, VK_WHOLE_SIZE, 0)) != VF_OK ||
        (res = vf_buffer_fill(f->potential, 0, VK_WHOLE_SIZE, 0)) != VF_OK)
        goto fail;
    memset(f->latest->mapped, 0, VF_FOAM_STATE_WORDS * 4);
    vf_buffer_flush(f->latest, 0, VK_WHOLE_SIZE); /* non-coherent memory */
    vf_foam_push *p = &f->push;
    p->rate[0] = (float)d->trapped_air;
    p->rate[1] = (float)d->wave_crest;
    p->rate[3] = (float)d->spawn_radius;
    p->limits[0] = (float)d->ta_min;
    p->limits[1] = (float)d->ta_max;
    p->limits[2] = (float)d->wc_min;
    p->limits[3] = (float)d->wc_max;
    p->energy[0] = (float)d->ke_min;
    p->energy[1] = (float)d->ke_max;
    p->energy[2] = (float)d->life_min;
    p->energy[3] = (float)d->life_max;
    p->motion[0] = (float)d->buoyancy;
    p->motion[1] = (float)d->drag;
    p->motion[2] = (float)d->crest_threshold;
    p->fluid_cap = f->fluid_cap;
    p->diffuse_cap = f->cap;
    p->spray_max = d->spray_max;
    p->bubble_min = d->bubble_min;
    *out = f;
    return VF_OK;
fail:
    if (res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        vf_set_key_err(key, err, cap, "foam_capacity", ": the diffuse particles do not fit in device memory: use fewer");
    vf_foam_destroy(&f);
    return res;
}

vf_result vf_foam_record(vf_foam *f, VkCommandBuffer cmd, vf_profiler *prof, double dt)
{
    if (!f || !(dt >= 0.0))
        return VF_ERR_INVALID_ARG;
    vf_sph_neighbor_view nv;
    vf_sph_get_neighbor_view(f->sph, &nv);
    f->push.rate[2] = (float)dt;
    f->push.frame = f->frame;
    int a = f->cur, b = 1 - a;
    vf_binding bind[VF_MAX_BINDINGS] = {
        [VF_SPH_BIND_PARAMS] = vf_bind_buffer(nv.params),
        [VF_SPH_BIND_STATE] = vf_bind_buffer(nv.state),
        [VF_FOAM_BIND_START] = vf_bind_buffer(nv.start),
        [VF_FOAM_BIND_POS] = vf_bind_buffer(nv.positions),
        [VF_FOAM_BIND_VEL] = vf_bind_buffer(nv.velocities),
        [VF_FOAM_BIND_ID] = vf_bind_buffer(nv.ids),
        [VF_FOAM_BIND_NORMAL] = vf_bind_buffer(f->normal),
        [VF_FOAM_BIND_POTENTIAL] = vf_bind_buffer(f->potential),
        [VF_FOAM_BIND_GEN] = vf_bind_buffer(f->gen),
        [VF_FOAM_BIND_STATE] = vf_bind_buffer(f->state),
        [VF_FOAM_BIND_DPOS] = vf_bind_buffer(f->dpos[a]),
        [VF_FOAM_BIND_DVEL] = vf_bind_buffer(f->dvel[a]),
        [VF_FOAM_BIND_KEEP] = vf_bind_buffer(f->keep),
        [VF_FOAM_BIND_DPOS_OUT] = vf_bind_buffer(f->dpos[b]),
        [VF_FOAM_BIND_DVEL_OUT] = vf_bind_buffer(f->dvel[b]),
    };
    const vf_foam_push *p = &f->push;
    uint32_t sc = vf_sim_pass_begin(f->gpu, cmd, prof, &FO_passes[FO_NORMALS]);
    /* The fluid's last writes, and the previous frame's readers of these
     * buffers (draws, copies), come first. */
    vf_cmd_barrier_on(f->gpu, cmd,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                       VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                       VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                       VK_ACCESS_2_UNIFORM_READ_BIT);
    vf_cmd_dispatch_1d(cmd, f->p[FO_NORMALS], bind, p, f->fluid_cap);
    vf_cmd_barrier_compute_on(f->gpu, cmd);
    vf_cmd_dispatch_1d(cmd, f->p[FO_POTENTIAL], bind, p, (uint64_t)f->fluid_cap + 1);
    vf_cmd_dispatch_1d(cmd, f->p[FO_UPDATE], bind, p, (uint64_t)f->cap + 1);
    vf_cmd_barrier_compute_on(f->gpu, cmd);
    vf_result res = vf_scan_record(f->scan, cmd, f->keep, 0, (uint64_t)f->cap + 1);
    vf_cmd_barrier_compute_on(f->gpu, cmd); /* the scans share their scratch */
    if (res == VF_OK)
        res = vf_scan_record(f->scan, cmd, f->gen, 0, (uint64_t)f->fluid_cap + 1);
    vf_cmd_barrier_compute_on(f->gpu, cmd);
    if (res != VF_OK) {
        vf_sim_pass_end(f->gpu, cmd, prof, sc);
        return res;
    }
    vf_cmd_dispatch_1d(cmd, f->p[FO_COMPACT], bind, p, f->cap);
    vf_cmd_dispatch_1d(cmd, f->p[FO_EMIT], bind, p, f->fluid_cap);
    vf_cmd_barrier_compute_on(f->gpu, cmd);
    vf_cmd_dispatch(cmd, f->p[FO_FINISH], bind, p, 1, 1, 1);
    vf_cmd_barrier_on(f->gpu, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT |
                       VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
    VkBufferCopy copy = {.size = VF_FOAM_STATE_WORDS * 4};
    vkCmdCopyBuffer(cmd, f->state->buffer, f->latest->buffer, 1, &copy);
    vf_sim_pass_end(f->gpu, cmd, prof, sc);
    f->cur = b;
    f->frame++;
    return VF_OK;
}

vf_result vf_foam_record_probe(vf_foam *f, VkCommandBuffer cmd)
{
    if (!f)
        return VF_ERR_INVALID_ARG;
    int cur = f->cur;
    uint32_t frame = f->frame;
    vf_result res = vf_foam_record(f, cmd, NULL, 0.0);
    f->cur = cur;
    f->frame = frame;
    return res;
}

void vf_foam_get_view(const vf_foam *f, vf_foam_view *out)
{
    *out = (vf_foam_view){.positions = f->dpos[f->cur], .velocities = f->dvel[f->cur], .draw_args = f->state,
                          .draw_offset = VF_FOAM_DRAW_OFFSET, .capacity = f->cap};
}

void vf_foam_counts_latest(const vf_foam *f, uint32_t out[4])
{
    vf_buffer_invalidate(f->latest, 0, VF_FOAM_STATE_WORDS * 4); /* non-coherent memory */
    const volatile uint32_t *w = f->latest->mapped;
    for (int k = 0; k < 4; k++)
        out[k] = w[k];
}

vf_result vf_foam_read(vf_foam *f, vf_foam_host *out)
{
    memset(out, 0, sizeof *out);
    vf_result res = vf_buffer_read(f->state, 0, out->state, sizeof out->state);
    if (res != VF_OK)
        return res;
    out->count = out->state[VF_FOAM_STATE_COUNT];
    if (out->count > f->cap)
        return VF_ERR_NUMERIC;
    out->pos = malloc(((size_t)out->count + 1) * sizeof *out->pos);
    out->vel = malloc(((size_t)out->count + 1) * sizeof *out->vel);
    if (!out->pos || !out->vel) {
        vf_foam_host_free(out);
        return VF_ERR_NO_MEMORY;
    }
    if (out->count && ((res = vf_buffer_read(f->dpos[f->cur], 0, out->pos, (VkDeviceSize)out->count * 16)) != VF_OK ||
                       (res = vf_buffer_read(f->dvel[f->cur], 0, out->vel, (VkDeviceSize)out->count * 16)) != VF_OK))
        vf_foam_host_free(out);
    return res;
}

void vf_foam_host_free(vf_foam_host *h)
{
    if (!h)
        return;
    free(h->pos);
    free(h->vel);
    h->pos = h->vel = NULL;
    h->count = 0;
}

vf_result vf_foam_read_potentials(vf_foam *f, uint32_t n, float (*pot)[4], float (*normal)[4])
{
    if (n > f->fluid_cap)
        return VF_ERR_INVALID_ARG;
    if (n == 0)
        return VF_OK;
    vf_result res = VF_OK;
    if (pot)
        res = vf_buffer_read(f->potential, 0, pot, (VkDeviceSize)n * 16);
    if (res == VF_OK && normal)
        res = vf_buffer_read(f->normal, 0, normal, (VkDeviceSize)n * 16);
    return res;
}

const vf_foam_push *vf_foam_get_push(const vf_foam *f)
{
    return &f->push;
}
