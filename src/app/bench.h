/* bench: the benchmark's results, statistics and writers (CSV, JSON, SVG).
 * The sweep itself is driven by cmd_bench.c. */
#ifndef VF_BENCH_H
#define VF_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench_accounting.h"
#include "gpu_context.h"
#include "vf_error.h"

#define VF_BENCH_MAX_PASSES 48
#define VF_BENCH_MAX_SIZES 32
#define VF_BENCH_MAX_SOLVERS 8 /* sph, wcsph, pbf, dfsph, grid, height, grid3d, terrain */

typedef struct vf_bench_pass {
    char name[32];
    double ms_median, ms_min, ms_max; /* GPU ms per frame (summed over substeps) */
    double bytes;                     /* bytes the pass must move per frame; 0 unknown */
    double gbps;                      /* bytes / median time; 0 unknown */
    bool render;                      /* a render pass (else simulation) */
} vf_bench_pass;

/* The grid's pressure solvers the benchmark times from a zero start. */
#define VF_BENCH_PRESSURES 4

typedef struct vf_bench_size {
    uint64_t size;     /* the swept value: particles, or cells per side */
    uint64_t elements; /* particles, or cells */
    bool fits;
    char why[256];     /* when it does not fit: what it needs */
    double substeps;   /* per frame */
    double sim_gpu_ms_median, sim_gpu_ms_min, sim_gpu_ms_max; /* GPU ms per frame, simulation only */
    double sim_fps_median, sim_fps_spread;   /* wall-clock frames/s, simulation only; spread (max-min)/median over repeats */
    double steps_per_second;                 /* substeps/s, simulation only */
    bool rendered;
    double render_fps_median, render_fps_spread; /* frames/s with rendering */
    double render_gpu_ms_median;             /* GPU ms per frame of the render passes */
    char render_path[12];                    /* the path the renderer took: compute or raster */
    vf_bench_pass pass[VF_BENCH_MAX_PASSES];
    uint32_t pass_count;
    /* grid and grid3d: cold-start pressure solves on the scene's right-hand
     * side, [0] multigrid, [1] Jacobi, [2] SSOR (grid only), [3] FFT (on a
     * grid made with it) */
    bool has_pressure;             /* any of them measured */
    bool pressure_done[VF_BENCH_PRESSURES];
    uint32_t pressure_iters[VF_BENCH_PRESSURES];
    double pressure_ms[VF_BENCH_PRESSURES];        /* GPU ms of the solve */
    double pressure_reduction[VF_BENCH_PRESSURES]; /* residual after / before */
    double pressure_digits_per_ms[VF_BENCH_PRESSURES]; /* -log10(reduction) per GPU ms */
    vf_bench_work work; /* work accounting (bench_accounting.h) */
    /* the real-time factor: simulated seconds per wall second */
    double frame_dt;   /* simulated seconds per frame */
    double rtf_sim;    /* sim_fps x frame_dt */
    double rtf_render; /* render_fps x frame_dt; 0 when not rendered */
    double render_s;   /* wall seconds a render adds to a frame: 1 / render_fps - 1 / sim_fps, at least 0 */
    double rtf30;      /* at a 30 fps display (vf_bench_rtf30); 0 when not rendered */
    /* --model: one render of this state at VF_BENCH_MODEL_WIDTH x HEIGHT on
     * the compute path, counted (the model's real-time factor at 30 fps) */
    bool model_render_counted;
    vf_bench_work model_render;
} vf_bench_size;

/** The largest size that keeps a real-time factor >= 1 (vf_bench_largest). */
typedef enum vf_bench_limit_kind {
    VF_BENCH_LIMIT_UNKNOWN,  /* no size with a factor */
    VF_BENCH_LIMIT_NONE,     /* not even the smallest size */
    VF_BENCH_LIMIT_AT_LEAST, /* every size: at least the largest */
    VF_BENCH_LIMIT_BETWEEN,  /* interpolated between two sizes */
} vf_bench_limit_kind;

typedef struct vf_bench_limit {
    vf_bench_limit_kind kind;
    double elements; /* BETWEEN: the interpolated count; AT_LEAST: the largest size; NONE: the smallest */
    double lo, hi;   /* BETWEEN: the last size that holds and the first that does not */
} vf_bench_limit;

typedef struct vf_bench_solver {
    char solver[16];
    char scene[32];
    char size_key[32];
    vf_bench_size sizes[VF_BENCH_MAX_SIZES];
    uint32_t size_count;
    double exponent;      /* fitted: sim GPU ms ~ elements^k; NaN with < 2 sizes */
    vf_bench_limit rt30;  /* the largest elements with rtf30 >= 1 at the benched render size */
    /* --model, particle solvers: one frame at VF_BENCH_MODEL_PARTICLES,
     * recorded (not run) with the counters attached; what ran taken from
     * the largest benched size (vf_bench_work_extrapolate_run) */
    bool model_counted;
    vf_bench_work model_work;
    char model_why[256]; /* when not counted */
} vf_bench_solver;

typedef struct vf_bench_report {
    vf_device_info device;
    double peak_copy_gbps; /* measured device-local copy bandwidth (read + write): the larger of the two below */
    double copy_transfer_gbps, copy_shader_gbps; /* by vkCmdCopyBuffer, by a compute shader */
    uint32_t frames, warmup, repeat;
    uint32_t render_width, render_height; /* 0: simulation only */
    char render_path[12];                 /* --render-path: auto, compute or raster */
    char date[32];
    vf_bench_solver solver[VF_BENCH_MAX_SOLVERS];
    uint32_t solver_count;
    /* --model: the render work of the dam break's first frame with
     * VF_BENCH_MODEL_PARTICLES particles at VF_BENCH_MODEL_WIDTH x HEIGHT, counted on
     * this device on each path ([0] compute, [1] raster) */
    bool model_render_counted[2];
    vf_bench_work model_render[2];
    char model_render_why[256]; /* when not counted */
} vf_bench_report;

#define VF_BENCH_MODEL_PARTICLES 1048576u
#define VF_BENCH_MODEL_WIDTH 1920u
#define VF_BENCH_MODEL_HEIGHT 1080u

/** Median of n values (sorts a copy); 0 for n == 0. */
double vf_bench_median(const double *v, uint32_t n);

/** Least-squares slope of log(y) against log(x) over the points with both
 * positive; NaN with fewer than 2 such points. */
double vf_bench_fit_exponent(const double *x, const double *y, uint32_t n);

/** Fills s->exponent from its sizes that fit. */
void vf_bench_fit(vf_bench_solver *s);

/** The real-time factor at a 30 fps display: each displayed frame must
 * simulate 1/30 s (taking 1/30 s / rtf_sim) and render once (render_s):
 * (1/30) / ((1/30) / rtf_sim + render_s); 0 when rtf_sim is not positive. */
double vf_bench_rtf30(double rtf_sim, double render_s);

/** Fills z's real-time factors from its frame rates and frame_dt. */
void vf_bench_realtime(vf_bench_size *z);

/** The largest elements whose rtf is >= 1, from n sizes x with factors y
 * (at most VF_BENCH_MAX_SIZES + 1; y <= 0 or NaN: unknown, left out), taken
 * in ascending order of x: log-log interpolation between the last size
 * that holds and the first that does not. */
vf_bench_limit vf_bench_largest(const double *x, const double *y, uint32_t n);

/** Fills s->rt30 from its sizes' rtf30. */
void vf_bench_fit_realtime(vf_bench_solver *s);

/** One phrase for l: "~N (between A and B)", "at least N (every size)",
 * "none (not even N)", "unknown". */
void vf_bench_limit_text(const vf_bench_limit *l, char *buf, size_t cap);

/** Writes DIR/bench.csv, DIR/bench.json, DIR/bench.svg and DIR/work.csv
 * (the work accounting), each atomically. */
vf_result vf_bench_write(const vf_bench_report *r, const char *dir);

/** The files a report is written as (vf_bench_write_file). */
typedef enum vf_bench_file {
    VF_BENCH_FILE_CSV,      /* vf_bench_write_csv */
    VF_BENCH_FILE_JSON,     /* vf_bench_write_json */
    VF_BENCH_FILE_SVG,      /* vf_bench_write_svg */
    VF_BENCH_FILE_WORK_CSV, /* vf_bench_write_work_csv */
    VF_BENCH_FILE_TABLE,    /* vf_bench_write_table */
} vf_bench_file;

/** Writes r as one file of the given kind at path, atomically (whole or not
 * at all). */
vf_result vf_bench_write_file(const vf_bench_report *r, vf_bench_file kind, const char *path);

/** Writes the JSON document (schema "vkfluid-bench/1", see docs/benchmarks.md). */
void vf_bench_write_json(const vf_bench_report *r, FILE *f);
/** Writes the CSV: one row per size and pass. */
void vf_bench_write_csv(const vf_bench_report *r, FILE *f);
/** Writes the SVG plot: frames/s against size, log-log, one panel per
 * solver, one polyline per mode, 30 and 60 fps guides. */
void vf_bench_write_svg(const vf_bench_report *r, FILE *f);
/** Writes the work accounting CSV (bench_accounting.h): one row per size,
 * kernel and render. */
void vf_bench_write_work_csv(const vf_bench_report *r, FILE *f);
/** Prints the work accounting table of every size. */
void vf_bench_print_work(const vf_bench_report *r, FILE *f);

/** Writes r's sizes as a Markdown table (solver, size, substeps, frames per
 * second, real-time factors) and the largest real-time counts, for a README
 * or docs page. */
void vf_bench_write_table(const vf_bench_report *r, FILE *f);
/** Prints the readable table (device at the top). */
void vf_bench_print(const vf_bench_report *r, FILE *f);

#endif
