/* bench_model: a roofline model of the benchmark's work on other devices.
 * A device file (JSON, bench/models/) gives a memory bandwidth and a
 * per-dependent-dispatch latency, each with its source. The model predicts
 * each kernel's time per dispatch as max(bytes / bandwidth, latency) from
 * the work the benchmark counted (bench_accounting.h), and from those the
 * time per substep, per frame and frames per second. */
#ifndef VF_BENCH_MODEL_H
#define VF_BENCH_MODEL_H

#include <stdio.h>

#include "bench.h"

#define VF_BENCH_MAX_MODELS 16
/* The memory traffic the model counts per atomic operation on the render's
 * accumulators: one 32-byte L2 sector. */
#define VF_BENCH_MODEL_ATOMIC_BYTES 32.0

typedef struct vf_bench_model {
    char name[96];
    char file[1024];
    double bandwidth_gbps;   /* 0: the measured copy bandwidth of the benchmarked device */
    double latency_us;       /* per dependent dispatch (or draw) */
    char bandwidth_source[320], latency_source[320];
    char device[96];         /* a part of the Vulkan device name it describes ("" = none) */
} vf_bench_model;

/** Loads every *.json device file of dir (sorted by name) into models (at
 * most max). Returns VF_ERR_IO when dir cannot be read and VF_ERR_INVALID_ARG
 * for a malformed file, with a one-line reason (file, key, fix) in err. */
vf_result vf_bench_models_load(const char *dir, vf_bench_model *models, uint32_t max, uint32_t *count, char *err,
                               size_t cap);

/** Predicted milliseconds of one substep of work w on model m (bandwidth
 * peak_gbps when the model's is 0). 0 when w was not counted. */
double vf_bench_model_substep_ms(const vf_bench_model *m, const vf_bench_work *w, double peak_gbps);

/** Predicted milliseconds of one rendered frame's render work (0 without):
 * per counted render pass max(bytes / bandwidth, latency) per dispatch or
 * draw, plus the device-counted atomics at VF_BENCH_MODEL_ATOMIC_BYTES each;
 * for draws a lower bound (the rasteriser's work is not modelled). */
double vf_bench_model_render_ms(const vf_bench_model *m, const vf_bench_work *w, double peak_gbps);

/** Prints the predictions of every model for every size of r (labelled as
 * predictions), the render of VF_BENCH_MODEL_PARTICLES particles at
 * VF_BENCH_MODEL_WIDTH x HEIGHT when r counted it, and for each model whose device key is a part of the
 * benchmarked device's name (case-insensitive), the measured simulation
 * milliseconds per frame beside the predicted. */
void vf_bench_print_model(const vf_bench_report *r, const vf_bench_model *models, uint32_t count, FILE *f);

#endif
