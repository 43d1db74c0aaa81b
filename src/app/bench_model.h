/* bench_model: a roofline model of the benchmark's work on other devices.
 * A device file (JSON, bench/models/) gives a memory bandwidth, a
 * per-dependent-dispatch latency and (optionally) a cost per particle of a
 * neighbour pass, that cost's scale for named kernels, and a pass's least
 * time, each with its source. The model
 * predicts each kernel's time per dispatch as max(bytes / bandwidth,
 * latency, for a neighbour pass particles x neighbour_ns and
 * neighbour_min_us) from the work the benchmark counted
 * (bench_accounting.h), counting a recorded dispatch that ran with 0
 * workgroups (a GPU-chosen substep or iteration that did not run) at the
 * latency alone, and from those the time per substep, per frame, frames per
 * second and the real-time factors. */
#ifndef VF_BENCH_MODEL_H
#define VF_BENCH_MODEL_H

#include <stdio.h>

#include "bench.h"

#define VF_BENCH_MAX_MODELS 16
/* The most kernels a device file may give a neighbour-pass scale. */
#define VF_BENCH_MODEL_MAX_SCALES 24
/* The memory traffic the model counts per atomic operation on the render's
 * accumulators: one 32-byte L2 sector. */
#define VF_BENCH_MODEL_ATOMIC_BYTES 32.0

typedef struct vf_bench_model {
    char name[96];
    char file[1024];
    double bandwidth_gbps;   /* 0: the measured copy bandwidth of the benchmarked device */
    double latency_us;       /* per dependent dispatch (or draw) */
    double neighbour_ns;     /* per particle per neighbour pass; 0: not in the file (no neighbour term) */
    double neighbour_min_us; /* the least time of a neighbour pass (one particle's loop); 0: not in the file */
    char bandwidth_source[320], latency_source[320], neighbour_source[400], neighbour_min_source[400];
    /* neighbour_ns times scale for the neighbour passes of these kernels
     * (shader file names), 1 for the others */
    struct {
        char kernel[40];
        double scale;
    } pass_scale[VF_BENCH_MODEL_MAX_SCALES];
    uint32_t pass_scales;
    char pass_scale_source[512];
    char device[96];         /* a part of the Vulkan device name it describes ("" = none) */
} vf_bench_model;

/** Loads every *.json device file of dir (sorted by name) into models (at
 * most max). Returns VF_ERR_IO when dir cannot be read and VF_ERR_INVALID_ARG
 * for a malformed file, with a one-line reason (file, key, fix) in err. */
vf_result vf_bench_models_load(const char *dir, vf_bench_model *models, uint32_t max, uint32_t *count, char *err,
                               size_t cap);

/** Predicted milliseconds of one recorded substep of work w on model m
 * (bandwidth peak_gbps when the model's is 0): per kernel, its dispatches
 * that ran (vf_bench_work_run_share) at max(bytes / bandwidth, latency,
 * neighbour pass: w->elements x neighbour_ns x the kernel's scale,
 * neighbour_min_us) each and
 * the rest at the latency. 0 when w was not counted. */
double vf_bench_model_substep_ms(const vf_bench_model *m, const vf_bench_work *w, double peak_gbps);

/** Predicted milliseconds of one rendered frame's render work (0 without):
 * per counted render pass max(bytes / bandwidth, latency) per dispatch or
 * draw, plus the device-counted atomics at VF_BENCH_MODEL_ATOMIC_BYTES each;
 * for draws a lower bound (the rasteriser's work is not modelled). */
double vf_bench_model_render_ms(const vf_bench_model *m, const vf_bench_work *w, double peak_gbps);

/** Prints the predictions of every model for every size of r (labelled as
 * predictions): time per substep and frame, frames per second and the
 * real-time factors without and with rendering and at a 30 fps display at
 * VF_BENCH_MODEL_WIDTH x HEIGHT, the largest particle count (or size) that
 * keeps that >= 1, the particle solvers also at VF_BENCH_MODEL_PARTICLES
 * (their recorded frame), the render of VF_BENCH_MODEL_PARTICLES particles at
 * VF_BENCH_MODEL_WIDTH x HEIGHT when r counted it, and for each model whose
 * device key is a part of the benchmarked device's name (case-insensitive),
 * the measured simulation milliseconds per frame beside the predicted. */
void vf_bench_print_model(const vf_bench_report *r, const vf_bench_model *models, uint32_t count, FILE *f);

#endif
