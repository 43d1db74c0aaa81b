/* bench_accounting: the benchmark's work accounting (dispatches, draws,
 * barriers, submits and bound bytes per substep and per frame, counted by
 * gpu_counters while frames are recorded) and its writers. */
#ifndef VF_BENCH_ACCOUNTING_H
#define VF_BENCH_ACCOUNTING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu_counters.h"
#include "render.h"
#include "solver.h"

#define VF_BENCH_MAX_KERNELS 48

/** One kernel's share of a substep (or of a rendered frame). */
typedef struct vf_bench_kernel {
    char name[40];
    double dispatches; /* per substep (render: per frame) */
    double draws;      /* render: draws per frame */
    double bytes;      /* bound bytes per substep (render: per frame; draws with their attachments) */
    bool neighbours;   /* a neighbour pass (it loops over each particle's neighbours) */
} vf_bench_kernel;

/** The work of one solver size, from frames recorded without the profiler. */
typedef struct vf_bench_work {
    bool counted;
    double frames, substeps;                /* counted frames and the substeps they ran */
    double dispatches, barriers, bytes;     /* per substep */
    double submits_per_frame;
    double min_bytes;                       /* per substep: the solver's state read once and written once */
    double neighbour_passes;                /* per substep: recorded dispatches of neighbour passes */
    vf_bench_kernel kernel[VF_BENCH_MAX_KERNELS];
    uint32_t kernel_count;
    /* what ran on the GPU (vf_bench_work_set_run), for the work per
     * simulated second */
    double frame_dt;         /* simulated seconds per frame */
    double elements;         /* particles, or cells (the model's neighbour term) */
    bool run_reported;       /* the solver reported what ran (vt->work_stats); else what was recorded ran */
    bool gpu_chosen;         /* the GPU ran fewer substeps than were recorded (indirect dispatches of 0 workgroups) */
    bool neighbour_counted;  /* the solver counted the neighbour passes that ran; else the recorded count */
    double run_substeps;     /* per frame */
    double run_iterations;   /* per substep run: pressure-solve iterations */
    double run_neighbour_passes; /* per frame */
    /* the render of one frame, when rendered */
    bool render_counted;
    uint32_t render_width, render_height;
    double render_dispatches, render_draws, render_barriers, render_bytes; /* per frame */
    double render_draw_bytes; /* the draws' bound bytes and attachments, per frame */
    double render_min_bytes; /* the particles (or fields) read once and the target written once */
    vf_bench_kernel render_kernel[VF_BENCH_MAX_KERNELS]; /* per render pass (pipeline) */
    uint32_t render_kernel_count;
    /* counted on the device (vf_render_gpu_counts) in the last counted frame */
    bool render_gpu_counted;
    double render_pixels_tested, render_atomics;
} vf_bench_work;

/** Fills w's substep part from counters gathered over `frames` frames that ran
 * `substeps` substeps in all; min_bytes is the solver's state size x 2. */
void vf_bench_work_from_counters(vf_bench_work *w, const vf_gpu_counters *c, double frames, double substeps,
                                 double state_bytes);

/** Sets what ran, for a solver that ran `frames` frames (with `recorded`
 * substeps recorded in all) between its reports before and after (both
 * NULL: the solver reports nothing, what was recorded ran); frame_dt is the
 * simulated time of a frame, elements the size's particles or cells. Call
 * after vf_bench_work_from_counters. */
void vf_bench_work_set_run(vf_bench_work *w, double frame_dt, double elements, const vf_solver_work_stats *before,
                           const vf_solver_work_stats *after, double frames, double recorded);

/** Sets the run of w, a frame recorded (not run) at `elements`, from
 * measured, a smaller size that ran: when the GPU chose the substeps there,
 * the substeps that run scale from measured's by (elements /
 * measured->elements)^(1/3) (the step shrinks with the particle spacing),
 * at most those recorded; iterations and neighbour passes per substep that
 * runs as there. An assumption of the model, not a measurement. */
void vf_bench_work_extrapolate_run(vf_bench_work *w, const vf_bench_work *measured, double elements);

/** The work of one frame (or of one simulated second): what the command
 * buffers hold and what ran on the GPU. The dispatches and bytes that ran
 * are estimated per kernel by vf_bench_work_run_share. */
typedef struct vf_bench_rates {
    double substeps, substeps_run;
    double iterations;                     /* run */
    double neighbour_passes, neighbour_passes_run;
    double dispatches, dispatches_run;
    double bytes, bytes_run;
} vf_bench_rates;

/** The share of kernel k's recorded dispatches that ran with work: for a
 * neighbour pass the neighbour passes that ran over those recorded, for the
 * others the substeps that ran over those recorded (1 when the GPU chose
 * nothing); the rest ran with 0 workgroups. */
double vf_bench_work_run_share(const vf_bench_work *w, const vf_bench_kernel *k);

/** Fills *out with w's work per frame; with per_second, per simulated
 * second (per frame / frame_dt; zeros without frame_dt). */
void vf_bench_work_rates_of(const vf_bench_work *w, bool per_second, vf_bench_rates *out);

/** Fills w's render part from counters gathered over `frames` rendered frames
 * (render work only) and the device's counts of the last (gpu may be NULL:
 * none). */
void vf_bench_work_render_from_counters(vf_bench_work *w, const vf_gpu_counters *c, double frames, uint32_t width,
                                        uint32_t height, double min_bytes, const vf_render_gpu_counts *gpu);

/** Writes the JSON member `"work": {...}` (no leading comma) for one size. */
void vf_bench_work_json(const vf_bench_work *w, FILE *f);

/** Writes a CSV row header for vf_bench_work_csv_row. */
void vf_bench_work_csv_header(FILE *f);
/** Writes the accounting CSV rows of one size: one "substep" row, one row per
 * kernel and, when rendered, one "render" row. */
void vf_bench_work_csv_rows(const vf_bench_work *w, const char *device, const char *solver, uint64_t size, FILE *f);

/** Prints the accounting table header for vf_bench_work_print_row. */
void vf_bench_work_print_header(FILE *f);
/** Prints one size's accounting line (and a render line when rendered). */
void vf_bench_work_print_row(const vf_bench_work *w, const char *solver, uint64_t size, FILE *f);

/** Prints the header of the work per frame and per simulated second. */
void vf_bench_work_print_rates_header(FILE *f);
/** Prints one size's work per frame and per simulated second. */
void vf_bench_work_print_rates_row(const vf_bench_work *w, const char *solver, const char *size, FILE *f);

#endif
