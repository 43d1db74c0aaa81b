#include "gpu_profiler.h"

#include "gpu_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Scopes a slot may grow to (vf_profiler_reset). */
#define VF_PROFILER_MAX_SCOPES (1u << 16)

/* One frame slot: its own query pool, so that it can grow while the other
 * slot's work is still in flight. */
typedef struct prof_slot {
    VkQueryPool pool;
    uint32_t cap;                    /* scopes the pool holds */
    uint32_t used;                   /* scopes recorded since the reset */
    uint32_t wanted;                 /* scopes asked for since the reset (used + refused) */
    char (*names)[VF_PASS_NAME_MAX]; /* cap names */
} prof_slot;

struct vf_profiler {
    vf_gpu *gpu;
    prof_slot *slot;
    uint32_t slots, current;
    uint64_t *ticks; /* scratch for results: 2 per scope of the largest slot */
    uint32_t ticks_cap;
    bool supported;
    bool serialize; /* CPU devices: order the timestamps after the work (see the header) */
};

/* Gives slot ps a pool and names for cap scopes; on failure it keeps its
 * old ones. The pool must not be in use. */
static vf_result slot_alloc(vf_profiler *p, prof_slot *ps, uint32_t cap)
{
    char(*names)[VF_PASS_NAME_MAX] = calloc(cap, sizeof *names);
    uint64_t *ticks = cap > p->ticks_cap ? calloc((size_t)cap * 2, sizeof *ticks) : NULL;
    if (!names || (cap > p->ticks_cap && !ticks)) {
        free(names);
        free(ticks);
        return VF_ERR_NO_MEMORY;
    }
    VkQueryPoolCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = cap * 2,
    };
    VkQueryPool pool;
    vf_result res = VF_VK(vkCreateQueryPool(p->gpu->device, &qci, NULL, &pool));
    if (res != VF_OK) {
        free(names);
        free(ticks);
        return res;
    }
    vf_gpu_name(p->gpu, VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)pool, "profiler timestamps");
    if (ps->pool)
        vkDestroyQueryPool(p->gpu->device, ps->pool, NULL);
    free(ps->names);
    ps->pool = pool;
    ps->names = names;
    ps->cap = cap;
    if (ticks) {
        free(p->ticks);
        p->ticks = ticks;
        p->ticks_cap = cap;
    }
    return VF_OK;
}

void vf_profiler_destroy(vf_profiler **pp)
{
    if (!pp || !*pp)
        return;
    vf_profiler *p = *pp;
    for (uint32_t s = 0; p->slot && s < p->slots; s++) {
        if (p->slot[s].pool)
            vkDestroyQueryPool(p->gpu->device, p->slot[s].pool, NULL);
        free(p->slot[s].names);
    }
    free(p->slot);
    free(p->ticks);
    free(p);
    *pp = NULL;
}

vf_result vf_profiler_create(vf_gpu *gpu, const vf_profiler_desc *desc, vf_profiler **out)
{
    *out = NULL;
    vf_profiler *p;
    VF_NEW_OR_RETURN(p);
    p->gpu = gpu;
    uint32_t cap = desc && desc->max_scopes ? desc->max_scopes : 256;
    if (cap > VF_PROFILER_MAX_SCOPES)
        cap = VF_PROFILER_MAX_SCOPES;
    p->slots = desc && desc->slots ? desc->slots : 2;
    p->supported = gpu->timestamp_valid_bits > 0 && gpu->props.limits.timestampComputeAndGraphics;
    p->serialize = gpu->info.type == VK_PHYSICAL_DEVICE_TYPE_CPU;
    p->slot = calloc(p->slots, sizeof *p->slot);
    vf_result res = p->slot ? VF_OK : VF_ERR_NO_MEMORY;
    for (uint32_t s = 0; s < p->slots && res == VF_OK; s++)
        res = slot_alloc(p, &p->slot[s], cap);
    if (res != VF_OK) {
        vf_profiler_destroy(&p);
        return res;
    }
    *out = p;
    return VF_OK;
}

bool vf_profiler_supported(const vf_profiler *p)
{
    return p && p->supported;
}

void vf_profiler_reset(vf_profiler *p, VkCommandBuffer cmd, uint32_t slot)
{
    p->current = slot % p->slots;
    prof_slot *ps = &p->slot[p->current];
    if (ps->wanted > ps->cap && ps->cap < VF_PROFILER_MAX_SCOPES) {
        uint32_t cap = ps->cap;
        while (cap < ps->wanted && cap < VF_PROFILER_MAX_SCOPES)
            cap *= 2;
        slot_alloc(p, ps, cap < VF_PROFILER_MAX_SCOPES ? cap : VF_PROFILER_MAX_SCOPES); /* on failure: as before */
    }
    ps->used = 0;
    ps->wanted = 0;
    vkCmdResetQueryPool(cmd, ps->pool, 0, ps->cap * 2);
}

uint32_t vf_profiler_dropped(const vf_profiler *p, uint32_t slot)
{
    const prof_slot *ps = &p->slot[slot % p->slots];
    return ps->wanted - ps->used;
}

/* An execution barrier: every earlier command finishes before the timestamp. */
static void serialize(VkCommandBuffer cmd)
{
    VkMemoryBarrier2 mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
        .srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
    };
    VkDependencyInfo di = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &mb};
    vkCmdPipelineBarrier2(cmd, &di);
}

uint32_t vf_profiler_begin(vf_profiler *p, VkCommandBuffer cmd, const char *name)
{
    prof_slot *ps = &p->slot[p->current];
    ps->wanted++;
    if (ps->used >= ps->cap)
        return UINT32_MAX;
    uint32_t scope = ps->used++;
    snprintf(ps->names[scope], VF_PASS_NAME_MAX, "%s", name ? name : "?");
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, ps->pool, scope * 2);
    return scope;
}

void vf_profiler_end(vf_profiler *p, VkCommandBuffer cmd, uint32_t scope)
{
    if (scope == UINT32_MAX)
        return;
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, p->slot[p->current].pool, scope * 2 + 1);
}

uint32_t vf_profiler_begin_compute(vf_profiler *p, VkCommandBuffer cmd, const char *name)
{
    if (!p)
        return UINT32_MAX;
    if (p->serialize)
        serialize(cmd);
    return vf_profiler_begin(p, cmd, name);
}

void vf_profiler_end_compute(vf_profiler *p, VkCommandBuffer cmd, uint32_t scope)
{
    if (!p)
        return;
    if (p->serialize && scope != UINT32_MAX)
        serialize(cmd);
    vf_profiler_end(p, cmd, scope);
}

vf_result vf_profiler_collect(vf_profiler *p, uint32_t slot, vf_pass_time *out, uint32_t max, uint32_t *count)
{
    *count = 0;
    const prof_slot *ps = &p->slot[slot % p->slots];
    uint32_t n = ps->used;
    if (n == 0)
        return VF_OK;
    vf_result res = VF_VK(vkGetQueryPoolResults(p->gpu->device, ps->pool, 0, n * 2, sizeof(uint64_t) * n * 2, p->ticks,
                                                sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    if (res != VF_OK)
        return res;
    uint64_t mask = p->gpu->timestamp_valid_bits >= 64 ? ~0ull : ((1ull << p->gpu->timestamp_valid_bits) - 1);
    for (uint32_t i = 0; i < n; i++) {
        const char *name = ps->names[i];
        double ms = 0.0;
        if (p->supported)
            ms = (double)((p->ticks[2 * i + 1] - p->ticks[2 * i]) & mask) * p->gpu->timestamp_period_ns * 1e-6;
        uint32_t k = 0;
        while (k < *count && strcmp(out[k].name, name))
            k++;
        if (k == *count) {
            if (*count >= max)
                continue;
            memset(&out[k], 0, sizeof out[k]);
            snprintf(out[k].name, sizeof out[k].name, "%s", name);
            (*count)++;
        }
        out[k].ms += ms;
        out[k].count++;
    }
    return VF_OK;
}

void vf_pass_stats_add(vf_pass_stats *st, const vf_pass_time *t, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = 0;
        while (k < st->pass_count && strcmp(st->pass[k].name, t[i].name))
            k++;
        if (k == st->pass_count) {
            if (k >= VF_PASS_STATS_MAX)
                continue;
            memset(&st->pass[k], 0, sizeof st->pass[k]);
            snprintf(st->pass[k].name, sizeof st->pass[k].name, "%s", t[i].name);
            st->pass_count++;
        }
        st->pass[k].ms += t[i].ms;
        st->pass[k].count += t[i].count;
    }
    st->frames++;
}

vf_result vf_profiler_collect_into(vf_profiler *prof, uint32_t slot, vf_pass_stats *st)
{
    vf_pass_time t[VF_PASS_STATS_MAX];
    uint32_t n = 0;
    vf_result res = vf_profiler_collect(prof, slot, t, VF_PASS_STATS_MAX, &n);
    if (res == VF_OK && n)
        vf_pass_stats_add(st, t, n);
    return res;
}

vf_result vf_profiler_collect_part(vf_profiler *prof, uint32_t slot, vf_pass_stats *st, bool ends_frame)
{
    vf_pass_time t[VF_PASS_STATS_MAX];
    uint32_t n = 0;
    vf_result res = vf_profiler_collect(prof, slot, t, VF_PASS_STATS_MAX, &n);
    if (res != VF_OK)
        return res;
    uint64_t frames = st->frames;
    if (n)
        vf_pass_stats_add(st, t, n);
    st->frames = frames + (ends_frame ? 1 : 0);
    return VF_OK;
}

void vf_profiler_slot_passes(const vf_profiler *p, uint32_t slot, char *buf, size_t cap)
{
    if (!cap)
        return;
    buf[0] = 0;
    if (!p)
        return;
    const prof_slot *ps = &p->slot[slot % p->slots];
    size_t len = 0;
    for (uint32_t i = 0; i < ps->used; i++) {
        const char *name = ps->names[i];
        bool seen = false;
        for (uint32_t j = 0; j < i && !seen; j++)
            seen = !strcmp(ps->names[j], name);
        if (seen)
            continue;
        int w = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", name);
        if (w < 0 || (size_t)w >= cap - len)
            return;
        len += (size_t)w;
    }
}

double vf_pass_stats_mean(const vf_pass_stats *st, uint32_t i)
{
    return st->frames && i < st->pass_count ? st->pass[i].ms / (double)st->frames : 0.0;
}

uint32_t vf_scope_begin(const vf_gpu *gpu, vf_profiler *prof, VkCommandBuffer cmd, const char *name, bool compute)
{
    vf_cmd_label_begin(gpu, cmd, name);
    if (!prof)
        return UINT32_MAX;
    return compute ? vf_profiler_begin_compute(prof, cmd, name) : vf_profiler_begin(prof, cmd, name);
}

void vf_scope_end(const vf_gpu *gpu, vf_profiler *prof, VkCommandBuffer cmd, uint32_t scope, bool compute)
{
    if (prof) {
        if (compute)
            vf_profiler_end_compute(prof, cmd, scope);
        else
            vf_profiler_end(prof, cmd, scope);
    }
    vf_cmd_label_end(gpu, cmd);
}
