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

#define VF_BENCH_MAX_KERNELS 48

/** One kernel's share of a substep (or of a rendered frame). */
typedef struct vf_bench_kernel {
    char name[40];
    double dispatches; /* per substep (render: per frame) */
    double draws;      /* render: draws per frame */
    double bytes;      /* bound bytes per substep (render: per frame; draws with their attachments) */
} vf_bench_kernel;

/** The work of one solver size, from frames recorded without the profiler. */
typedef struct vf_bench_work {
    bool counted;
    double frames, substeps;                /* counted frames and the substeps they ran */
    double dispatches, barriers, bytes;     /* per substep */
    double submits_per_frame;
    double min_bytes;                       /* per substep: the solver's state read once and written once */
    vf_bench_kernel kernel[VF_BENCH_MAX_KERNELS];
    uint32_t kernel_count;
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

#endif
