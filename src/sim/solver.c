/* solver: the frame driver every solver family shares, and what else goes
 * through the vtable. */
#include "solver.h"

#include <string.h>

#include "text.h"

vf_result vf_solver_record_frame(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    if (s->vt->part_begin)
        s->vt->part_begin(s, cmd);
    if (!s->part_more) {
        /* the first (or only) part: the family's work before the substeps and their count */
        uint32_t n = 0;
        vf_result res = s->vt->frame_begin(s, cmd, prof, &n);
        if (res != VF_OK)
            return res;
        s->frame_substeps = n;
        s->part_done = 0;
    }
    uint32_t left = s->frame_substeps - s->part_done;
    uint32_t n = s->part_substeps && s->part_substeps < left ? s->part_substeps : left;
    for (uint32_t k = 0; k < n; k++) {
        vf_result res = s->vt->record_substep(s, cmd, prof, s->part_done + k);
        if (res != VF_OK)
            return res;
    }
    s->part_done += n;
    s->part_more = s->part_done < s->frame_substeps;
    if (!s->part_more && s->vt->frame_end)
        return s->vt->frame_end(s, cmd, prof);
    return VF_OK;
}

vf_result vf_solver_frame_done(vf_solver *s)
{
    s->frames++;
    s->steps += s->frame_substeps;
    return s->vt->frame_done ? s->vt->frame_done(s) : VF_OK;
}

vf_result vf_solver_check(vf_solver *s, char *msg, size_t cap)
{
    if (!s->vt->check)
        return VF_OK;
    vf_result res = s->vt->check(s, msg, cap);
    if (res == VF_OK) {
        s->have_good = true;
        s->good_frame = s->frames;
        s->good_time = s->time;
    }
    return res;
}

vf_result vf_solver_export_last_good(vf_solver *s, const char *dir, uint32_t index, uint64_t *frame, double *time)
{
    if (!s->vt->export_last_good || !s->have_good)
        return VF_ERR_UNSUPPORTED;
    *frame = s->good_frame;
    *time = s->good_time;
    return s->vt->export_last_good(s, dir, index);
}

void vf_solver_destroy(vf_solver **s)
{
    if (!s || !*s)
        return;
    (*s)->vt->destroy(*s);
    *s = NULL;
}

vf_result vf_solver_create(vf_gpu *gpu, const vf_solver_family *family, const void *desc, vf_solver **out,
                           const char **key, char *err, size_t cap)
{
    *out = NULL;
    if (err && cap)
        err[0] = 0;
    if (key)
        *key = NULL;
    return family->create(gpu, desc, out, key, err, cap);
}

vf_result vf_solver_check_fit(const vf_gpu *gpu, uint64_t need, uint64_t largest, const char *key, const char *what,
                              const char *fix, const char **key_out, char *err, size_t cap)
{
    uint64_t have = gpu->info.device_local_bytes, range = gpu->info.max_storage_buffer_range;
    if (largest <= range && !(have && need > have / 10 * 9))
        return VF_OK;
    char nb[32], hb[32], fb[32], rb[32];
    vf_format_bytes(need, nb, sizeof nb);
    vf_format_bytes(have, hb, sizeof hb);
    vf_format_bytes(largest, fb, sizeof fb);
    vf_format_bytes(range, rb, sizeof rb);
    vf_set_key_err(key_out, err, cap, key,
                   ": %s need %s of device memory in buffers of up to %s; %s has %s and binds at most %s "
                   "(maxStorageBufferRange): %s",
                   what, nb, fb, gpu->info.name, hb, rb, fix);
    return VF_ERR_TOO_LARGE;
}

vf_result vf_solver_alloc_failed(const vf_gpu *gpu, vf_result res, uint64_t need, const char *key, const char *what,
                                 const char *fix, const char **key_out, char *err, size_t cap)
{
    if (res != VF_ERR_TOO_LARGE && res != VF_ERR_OUT_OF_DEVICE_MEMORY)
        return res;
    char nb[32];
    vf_format_bytes(need, nb, sizeof nb);
    vf_set_key_err(key_out, err, cap, key, ": %s need %s of device memory: %s cannot allocate it: %s", what, nb,
                   gpu->info.name, fix);
    return VF_ERR_TOO_LARGE;
}
