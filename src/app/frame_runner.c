/* frame_runner: the frame ring, profiler slots, waits and gpu-failure
 * report of the headless commands (frame_runner.h). */
#include "frame_runner.h"

#include <stdio.h>
#include <stdlib.h>

#include "app.h"
#include "gpu_cmd.h"
#include "fileio.h"

const char *vf_failure_dir(const char *scene, const char *export_dir, char *buf, size_t cap)
{
    if (export_dir)
        return export_dir;
    char why[512];
    for (int k = 1; k <= 99; k++) {
        if (k == 1)
            snprintf(buf, cap, "out/%s-failure", scene);
        else
            snprintf(buf, cap, "out/%s-failure-%d", scene, k);
        if (vf_output_dir_prepare(buf, false, why, sizeof why) == VF_OK)
            return buf;
    }
    return NULL;
}

void vf_frame_runner_destroy(vf_frame_runner **r)
{
    if (!r || !*r)
        return;
    vf_frames_destroy(&(*r)->timed);
    vf_frames_destroy(&(*r)->frames); /* first: waits for the submits that use the profiler's queries */
    vf_profiler_destroy(&(*r)->prof);
    free(*r);
    *r = NULL;
}

vf_result vf_frame_runner_create(vf_gpu *gpu, const vf_frame_runner_desc *desc, vf_frame_runner **out)
{
    *out = NULL;
    vf_frame_runner *r;
    VF_NEW_OR_RETURN(r);
    r->gpu = gpu;
    if (desc)
        r->desc = *desc;
    vf_frames_desc fd = {.count = VF_FRAME_RUNNER_SLOTS, .name = r->desc.name};
    vf_profiler_desc pd = {.slots = VF_FRAME_RUNNER_SLOTS,
                           .max_scopes = r->desc.max_scopes ? r->desc.max_scopes : 1024};
    vf_result res;
    if ((res = vf_frames_create(gpu, &fd, &r->frames)) != VF_OK || (res = vf_profiler_create(gpu, &pd, &r->prof)) != VF_OK) {
        vf_frame_runner_destroy(&r);
        return res;
    }
    *out = r;
    return VF_OK;
}

/* "frame N[, submit P of the frame][ (passes a, b)]" of a failure. */
static void failure_where(const vf_frame_runner *r, uint64_t frame, uint32_t part, int slot, char *where, size_t cap)
{
    char passes[400] = "";
    if (slot >= 0 && r->prof)
        vf_profiler_slot_passes(r->prof, (uint32_t)slot, passes, sizeof passes);
    int n = snprintf(where, cap, "frame %llu", (unsigned long long)frame);
    bool split = r->desc.solver && *r->desc.solver && (*r->desc.solver)->part_substeps > 0;
    if (split && part > 0 && n > 0 && (size_t)n < cap)
        n += snprintf(where + n, cap - (size_t)n, ", submit %u of the frame", part);
    if (passes[0] && n > 0 && (size_t)n < cap)
        snprintf(where + n, cap - (size_t)n, " (passes %s)", passes);
}

/* The last good state of a failed solver, from host copies (the gpu may be
 * gone), written where vf_failure_dir says; what happened, for the line. */
static void save_last_good(vf_frame_runner *r, vf_result res, char *saved, size_t cap)
{
    vf_solver *s = r->desc.solver ? *r->desc.solver : NULL;
    saved[0] = 0;
    if (!s || !s->vt->export_last_good || res == VF_ERR_INVALID_ARG)
        return;
    uint32_t *index = r->desc.export_index ? r->desc.export_index : &r->own_index;
    uint64_t good_frame = 0;
    double good_time = 0;
    char buf[300];
    const char *dir = vf_failure_dir(r->desc.scene, r->desc.export_dir, buf, sizeof buf);
    vf_result w = VF_ERR_IO;
    if (dir) {
        w = vf_solver_export_last_good(s, dir, *index, &good_frame, &good_time);
        if (w == VF_OK)
            (*index)++;
    }
    if (w == VF_OK)
        snprintf(saved, cap, "; last good state (frame %llu, t = %.6g s) written to %s", (unsigned long long)good_frame,
                 good_time, dir);
    else if (w == VF_ERR_UNSUPPORTED)
        snprintf(saved, cap, "; no good state was kept (%s)",
                 r->desc.keep_hint ? r->desc.keep_hint : "--check-every N keeps one");
    else
        snprintf(saved, cap, "; writing the last good state to %s failed: %s", dir ? dir : "out/", vf_result_message(w));
}

int vf_frame_runner_fail(vf_frame_runner *r, vf_result res, const char *what, uint64_t frame, uint32_t part, int slot)
{
    char where[600], saved[600];
    if (r->desc.progress)
        vf_progress_end(r->desc.progress);
    failure_where(r, frame, part, slot, where, sizeof where);
    save_last_good(r, res, saved, sizeof saved);
    bool split = r->desc.solver && *r->desc.solver && (*r->desc.solver)->part_substeps > 0;
    const char *size_hint = r->desc.size_hint ? r->desc.size_hint : "a smaller size (--set)";
    const char *detail = r->desc.scene_detail ? r->desc.scene_detail : "";
    const char *split_hint = !r->desc.split_option ? ""
                             : split               ? ", fewer substeps per submit (--substeps-per-submit 1)"
                                                   : ", splitting frames (--substeps-per-submit 8)";
    if (res == VF_ERR_DEVICE_LOST)
        vf_app_error("scene %s%s: the gpu device was lost at %s while %s: try %s%s, another gpu (--device) or a newer "
                     "driver%s",
                     r->desc.scene, detail, where, what, size_hint, split_hint, saved);
    else if (res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        vf_app_error("scene %s%s: out of device memory at %s while %s: try %s, closing other gpu programs, another gpu "
                     "(--device) or a newer driver%s",
                     r->desc.scene, detail, where, what, size_hint, saved);
    else
        vf_app_error("scene %s%s: %s while %s: %s%s", r->desc.scene, detail, where, what, vf_result_message(res), saved);
    return VF_EXIT_RUNTIME;
}

int vf_frame_runner_begin(vf_frame_runner *r, VkCommandBuffer *cmd, uint32_t *slot)
{
    uint32_t s = (r->frames->current + 1) % r->frames->count; /* the slot it waits for, named on a failure */
    vf_result res;
    int rc;
    if ((res = vf_frames_begin(r->frames, cmd, &s)) != VF_OK)
        return vf_frame_runner_fail(r, res, "waiting for the gpu", r->slots[s].frame, r->slots[s].part, (int)s);
    if ((rc = vf_frame_runner_collect(r, s)) != 0)
        return rc;
    vf_profiler_reset(r->prof, *cmd, s);
    vf_cmd_barrier_frame_start(*cmd);
    *slot = s;
    return 0;
}

/* The submit of both vf_frame_runner_submit functions. */
static int submit(vf_frame_runner *r, uint32_t slot, uint64_t frame, uint32_t part, bool ends_frame, VkSemaphore wait,
                  VkPipelineStageFlags2 wait_stage, VkSemaphore signal)
{
    vf_result res = vf_frames_submit(r->frames, wait, wait_stage, signal);
    if (res != VF_OK)
        return vf_frame_runner_fail(r, res, "submitting", frame, part, (int)slot);
    r->slots[slot] = (vf_frame_slot){.used = true, .ends_frame = ends_frame, .frame = frame, .part = part};
    return 0;
}

int vf_frame_runner_submit(vf_frame_runner *r, uint32_t slot, uint64_t frame, uint32_t part, bool ends_frame)
{
    return submit(r, slot, frame, part, ends_frame, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
}

int vf_frame_runner_submit_sync(vf_frame_runner *r, uint32_t slot, uint64_t frame, VkSemaphore wait,
                                VkPipelineStageFlags2 wait_stage, VkSemaphore signal)
{
    return submit(r, slot, frame, 1, true, wait, wait_stage, signal);
}

int vf_frame_runner_timed(vf_frame_runner *r, uint64_t frame, uint32_t part, vf_frame_record_fn record, void *user,
                          double *secs)
{
    vf_frames_desc fd = {.count = 1, .name = "timed frames"};
    VkCommandBuffer cmd;
    const char *what = "setting up a timed submit";
    vf_result res = r->timed ? VF_OK : vf_frames_create(r->gpu, &fd, &r->timed);
    if (res == VF_OK && (res = vf_frames_begin(r->timed, &cmd, NULL)) == VF_OK) {
        vf_cmd_barrier_frame_start(cmd);
        what = "recording";
        res = record(user, cmd);
    }
    double t0 = vf_app_now();
    if (res == VF_OK) {
        what = "submitting";
        res = vf_frames_submit(r->timed, VK_NULL_HANDLE, 0, VK_NULL_HANDLE);
    }
    if (res == VF_OK) {
        what = "waiting for the gpu";
        res = vf_frames_wait(r->timed, 0);
    }
    if (res != VF_OK)
        return vf_frame_runner_fail(r, res, what, frame, part, -1);
    *secs = vf_app_now() - t0;
    return 0;
}

int vf_frame_runner_wait(vf_frame_runner *r, uint32_t slot)
{
    vf_result res = vf_frames_wait(r->frames, slot);
    if (res != VF_OK)
        return vf_frame_runner_fail(r, res, "waiting for the gpu", r->slots[slot].frame, r->slots[slot].part, (int)slot);
    return 0;
}

int vf_frame_runner_wait_all(vf_frame_runner *r)
{
    int rc = 0;
    for (uint32_t k = 0; k < r->frames->count && !rc; k++)
        rc = vf_frame_runner_wait(r, k);
    return rc;
}

int vf_frame_runner_collect(vf_frame_runner *r, uint32_t slot)
{
    vf_frame_slot *s = &r->slots[slot];
    if (!s->used)
        return 0;
    vf_result res = r->desc.collect ? r->desc.collect(r->desc.collect_user, r->prof, slot, s)
                                    : vf_profiler_collect_part(r->prof, slot, &r->st, s->ends_frame);
    if (res != VF_OK)
        return vf_frame_runner_fail(r, res, "reading timestamps", s->frame, s->part, (int)slot);
    s->used = false;
    return 0;
}

int vf_frame_runner_finish(vf_frame_runner *r)
{
    int rc = 0;
    for (uint32_t k = 0; k < r->frames->count && !rc; k++)
        if ((rc = vf_frame_runner_wait(r, k)) == 0)
            rc = vf_frame_runner_collect(r, k);
    return rc;
}
