/* frame_runner: the host side of the commands' frames (run, capture,
 * bench and the viewer): the frame ring, the profiler's slots and what each slot's last
 * submit held, the waits, and the one-line report of a gpu failure (the
 * frame, the submit, its passes, what to try and where the last good state
 * went). App layer: prints. */
#ifndef VF_FRAME_RUNNER_H
#define VF_FRAME_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "app.h"
#include "gpu_cmd.h"
#include "gpu_profiler.h"
#include "solver.h"

/** Frames in flight of a runner. */
#define VF_FRAME_RUNNER_SLOTS 2

/** What a runner knows about one slot's last submit (for messages). */
typedef struct vf_frame_slot {
    bool used;       /* timestamps not yet collected */
    bool ends_frame; /* the submit held the last part of its frame */
    uint64_t frame;  /* 1-based frame number */
    uint32_t part;   /* 1-based submit of that frame */
} vf_frame_slot;

/** Reads the timestamps of a finished slot instead of the runner's pass
 * totals (vf_frame_runner.st): bench keeps each frame's pass times. what
 * is the slot's last submit; returns VF_OK or the error of the read. */
typedef vf_result (*vf_frame_collect_fn)(void *user, vf_profiler *prof, uint32_t slot, const vf_frame_slot *what);

/** Zeroed desc: no names and no failure folder; scene and solver should be set. */
typedef struct vf_frame_runner_desc {
    const char *name;          /* the frame ring's Vulkan name ("run frames") */
    const char *scene;         /* the scene's name, in every failure line and its folder (a buffer the caller
                                  may rewrite between frames) */
    const char *scene_detail;  /* after the name in the line (bench: " at n 64"); NULL: nothing */
    const char *export_dir;    /* where a failure's last good state goes; NULL: a new out/SCENE-failure */
    uint32_t *export_index;    /* the next export number (advanced by a saved state); NULL: the runner's own */
    vf_solver *const *solver;  /* the caller's solver variable (a session may replace the solver) */
    const char *size_hint;     /* what to try for a smaller size; NULL: "a smaller size (--set)" */
    bool split_option;         /* the command has --substeps-per-submit (named in device-lost hints) */
    vf_progress *progress;     /* ended before a failure line; may be NULL */
    const char *keep_hint;     /* how to keep a good state; NULL: "--check-every N keeps one" */
    uint32_t max_scopes;       /* the profiler's scopes per slot at first; 0: 1024 */
    vf_frame_collect_fn collect; /* NULL: each slot's times are summed into st */
    void *collect_user;        /* collect's user pointer */
} vf_frame_runner_desc;

typedef struct vf_frame_runner {
    vf_gpu *gpu;
    vf_frames *frames;
    vf_frames *timed; /* the one-slot ring of vf_frame_runner_timed, made at its first use */
    vf_profiler *prof;
    vf_pass_stats st; /* the passes' times, collected from the slots */
    vf_frame_slot slots[VF_FRAME_RUNNER_SLOTS];
    vf_frame_runner_desc desc;
    uint32_t own_index; /* the export number when desc.export_index is NULL */
} vf_frame_runner;

/** Where a failure's state goes: export_dir when not NULL, else a new or
 * empty out/SCENE-failure (out/SCENE-failure-2, -3, ... when that one holds
 * anything: a failure never mixes into another run's files), its path in
 * buf. NULL when no folder could be prepared. */
const char *vf_failure_dir(const char *scene, const char *export_dir, char *buf, size_t cap);

/** Creates the frame ring and the profiler on gpu. desc is copied (its
 * strings and pointers must outlive the runner). Returns the error without
 * printing (the caller names what it was setting up). */
vf_result vf_frame_runner_create(vf_gpu *gpu, const vf_frame_runner_desc *desc, vf_frame_runner **out);

/** Waits for the frames in flight and destroys the rings, then the
 * profiler; accepts NULL. */
void vf_frame_runner_destroy(vf_frame_runner **r);

/** Reports a gpu failure in one line: the frame (1-based) and, in split
 * frames, the submit part, the passes recorded into slot (-1: none), what
 * was being done, what to try, and where the solver's last good state went
 * (written from host copies: the gpu may be gone). Returns 3. */
int vf_frame_runner_fail(vf_frame_runner *r, vf_result res, const char *what, uint64_t frame, uint32_t part, int slot);

/** Begins the next slot's command buffer: waits for its previous submit,
 * collects its timestamps, resets its profiler queries and records the
 * frame-start barrier. Returns 0 with *cmd and *slot, or 3 after the
 * failure line. */
int vf_frame_runner_begin(vf_frame_runner *r, VkCommandBuffer *cmd, uint32_t *slot);

/** Submits the current slot (begun by vf_frame_runner_begin) and notes that
 * it holds part `part` of frame `frame` (1-based), the frame's last part
 * when ends_frame. Returns 0, or 3 after the failure line. */
int vf_frame_runner_submit(vf_frame_runner *r, uint32_t slot, uint64_t frame, uint32_t part, bool ends_frame);

/** vf_frame_runner_submit of a whole frame that waits on `wait` at
 * wait_stage and signals `signal` (a swapchain's acquire and present
 * semaphores; VK_NULL_HANDLE: none). Returns 0, or 3 after the failure
 * line. */
int vf_frame_runner_submit_sync(vf_frame_runner *r, uint32_t slot, uint64_t frame, VkSemaphore wait,
                                VkPipelineStageFlags2 wait_stage, VkSemaphore signal);

/** Records one timed submit into cmd (vf_frame_runner_timed); VF_OK or
 * the error. */
typedef vf_result (*vf_frame_record_fn)(void *user, VkCommandBuffer cmd);

/** One submit timed on the wall clock, apart from the frame ring (a
 * command may time one in the middle of recording a frame): a one-slot
 * ring of the runner's own records the frame-start barrier and
 * record(user, cmd) (no profiler scopes), submits it and waits for it; the
 * seconds from the submit to the end of the wait in *secs. frame and part
 * (1-based) name it in a failure line. Returns 0, or 3 after the failure
 * line (a record error included). */
int vf_frame_runner_timed(vf_frame_runner *r, uint64_t frame, uint32_t part, vf_frame_record_fn record, void *user,
                          double *secs);

/** Waits for one slot's last submit; 0, or 3 after the failure line. */
int vf_frame_runner_wait(vf_frame_runner *r, uint32_t slot);

/** Waits for every slot; 0, or 3 after the failure line. */
int vf_frame_runner_wait_all(vf_frame_runner *r);

/** Collects a finished slot's timestamps (after vf_frame_runner_wait); 0, or
 * 3 after the failure line. */
int vf_frame_runner_collect(vf_frame_runner *r, uint32_t slot);

/** The end of the frames: waits for every slot and collects what is left;
 * 0, or 3 after the failure line. */
int vf_frame_runner_finish(vf_frame_runner *r);

#endif
