#include "gpu_scan.h"

#include <stdlib.h>

#include "gpu_cmd.h"
#include "shared.h"

#define VF_SCAN_LEVELS 8
#define VF_SCAN_ALIGN_WORDS 64u /* 256-byte binding offsets */

struct vf_scan {
    vf_gpu *gpu;
    vf_pipeline *block, *add;
    vf_buffer *sums; /* block sums of every level, each level 256-byte aligned */
    uint64_t max_count;
    uint64_t chunk;  /* elements per dispatch: a multiple of VF_SCAN_BLOCK */
};

static uint64_t blocks_of(uint64_t n)
{
    return (n + VF_SCAN_BLOCK - 1) / VF_SCAN_BLOCK;
}

static uint64_t align_words(uint64_t n)
{
    return (n + VF_SCAN_ALIGN_WORDS - 1) / VF_SCAN_ALIGN_WORDS * VF_SCAN_ALIGN_WORDS;
}

/* Words of scratch needed below a level of n elements. */
static uint64_t scratch_words(uint64_t n)
{
    uint64_t total = 0;
    while (n > VF_SCAN_BLOCK) {
        n = blocks_of(n);
        total += align_words(n);
    }
    return total;
}

void vf_scan_destroy(vf_scan **ps)
{
    if (!ps || !*ps)
        return;
    vf_scan *s = *ps;
    vf_pipeline_destroy(&s->block);
    vf_pipeline_destroy(&s->add);
    vf_buffer_destroy(&s->sums);
    free(s);
    *ps = NULL;
}

vf_result vf_scan_create(vf_gpu *gpu, const vf_scan_desc *desc, vf_scan **out)
{
    *out = NULL;
    if (!desc || desc->max_count == 0 || desc->max_count > UINT32_MAX)
        return VF_ERR_INVALID_ARG;
    vf_scan *s;
    VF_NEW_OR_RETURN(s);
    s->gpu = gpu;
    s->max_count = desc->max_count;
    uint64_t range_words = gpu->info.max_storage_buffer_range / 4;
    uint64_t groups = gpu->props.limits.maxComputeWorkGroupCount[0];
    uint64_t chunk_blocks = range_words / VF_SCAN_BLOCK;
    if (chunk_blocks > groups)
        chunk_blocks = groups;
    s->chunk = chunk_blocks * VF_SCAN_BLOCK;
    vf_compute_desc cd = {
        .shader = "scan_block.comp",
        .push_size = sizeof(vf_scan_push),
        .local_size_x = VF_SCAN_WG,
        .name = "scan block",
    };
    vf_result res = vf_pipeline_compute_create(gpu, &cd, &s->block);
    if (res != VF_OK)
        goto fail;
    cd.shader = "scan_add.comp";
    cd.name = "scan add";
    if ((res = vf_pipeline_compute_create(gpu, &cd, &s->add)) != VF_OK)
        goto fail;
    uint64_t words = scratch_words(desc->max_count);
    vf_buffer_desc bd = {.size = (words ? words : VF_SCAN_ALIGN_WORDS) * 4, .name = "scan block sums"};
    if (bd.size > gpu->info.max_storage_buffer_range) {
        res = VF_ERR_TOO_LARGE;
        goto fail;
    }
    if ((res = vf_buffer_create(gpu, &bd, &s->sums)) != VF_OK)
        goto fail;
    *out = s;
    return VF_OK;
fail:
    vf_scan_destroy(&s);
    return res;
}

/* Scans n words of buf at byte offset off; the block sums of this level go to
 * the scratch buffer at word sums_at. */
static void record_level(vf_scan *s, VkCommandBuffer cmd, vf_buffer *buf, VkDeviceSize off, uint64_t n, uint64_t sums_at)
{
    uint64_t blocks = blocks_of(n);
    bool multi = blocks > 1;
    for (uint64_t start = 0; start < n; start += s->chunk) {
        uint64_t len = n - start < s->chunk ? n - start : s->chunk;
        vf_binding b[2] = {
            {.buffer = buf, .offset = off + start * 4, .range = len * 4},
            {.buffer = s->sums},
        };
        vf_scan_push pc = {.count = (uint32_t)len, .sums_offset = (uint32_t)(sums_at + start / VF_SCAN_BLOCK), .write_sums = multi};
        vf_cmd_dispatch(cmd, s->block, b, &pc, (uint32_t)blocks_of(len), 1, 1);
    }
    if (!multi)
        return;
    vf_cmd_barrier_compute_on(s->gpu, cmd);
    uint64_t next_at = sums_at + align_words(blocks);
    record_level(s, cmd, s->sums, sums_at * 4, blocks, next_at);
    vf_cmd_barrier_compute_on(s->gpu, cmd);
    for (uint64_t start = 0; start < n; start += s->chunk) {
        uint64_t len = n - start < s->chunk ? n - start : s->chunk;
        vf_binding b[2] = {
            {.buffer = buf, .offset = off + start * 4, .range = len * 4},
            {.buffer = s->sums},
        };
        vf_scan_push pc = {.count = (uint32_t)len, .sums_offset = (uint32_t)(sums_at + start / VF_SCAN_BLOCK)};
        vf_cmd_dispatch(cmd, s->add, b, &pc, (uint32_t)blocks_of(len), 1, 1);
    }
}

vf_result vf_scan_record(vf_scan *s, VkCommandBuffer cmd, vf_buffer *buf, VkDeviceSize offset, uint64_t count)
{
    if (!s || !buf || count == 0 || count > s->max_count || offset % 256 || offset > buf->size ||
        count * 4 > buf->size - offset)
        return VF_ERR_INVALID_ARG;
    vf_cmd_label_begin(s->gpu, cmd, "scan");
    record_level(s, cmd, buf, offset, count, 0);
    vf_cmd_label_end(s->gpu, cmd);
    return VF_OK;
}

vf_result vf_scan_run(vf_scan *s, uint32_t *data, uint64_t count)
{
    if (!s || !data || count == 0 || count > s->max_count)
        return VF_ERR_INVALID_ARG;
    vf_buffer *buf = NULL;
    VkCommandBuffer cmd;
    vf_buffer_desc bd = {.size = count * 4, .name = "scan data"};
    vf_result res = vf_buffer_create(s->gpu, &bd, &buf);
    if (res != VF_OK)
        return res;
    if ((res = vf_buffer_write(buf, 0, data, count * 4)) != VF_OK)
        goto fail_buffer;
    if ((res = vf_cmd_oneshot_begin(s->gpu, &cmd)) != VF_OK)
        goto fail_buffer;
    if ((res = vf_scan_record(s, cmd, buf, 0, count)) != VF_OK) {
        vf_cmd_oneshot_abandon(s->gpu, cmd);
        goto fail_buffer;
    }
    if ((res = vf_cmd_oneshot_submit(s->gpu, cmd)) != VF_OK)
        goto fail_buffer;
    res = vf_buffer_read(buf, 0, data, count * 4);
fail_buffer:
    vf_buffer_destroy(&buf);
    return res;
}

void vf_scan_cpu(const uint32_t *in, uint32_t *out, uint64_t count)
{
    uint32_t sum = 0;
    for (uint64_t i = 0; i < count; i++) {
        uint32_t x = in[i];
        out[i] = sum;
        sum += x;
    }
}
