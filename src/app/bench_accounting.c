#include "bench_accounting.h"

#include <math.h>
#include <string.h>

#include "fileio.h"

void vf_bench_work_from_counters(vf_bench_work *w, const vf_gpu_counters *c, double frames, double substeps,
                                 double state_bytes)
{
    double per = substeps > 0 ? 1.0 / substeps : 0.0;
    w->counted = substeps > 0;
    w->frames = frames;
    w->substeps = substeps;
    w->dispatches = (double)c->dispatches * per;
    w->barriers = (double)c->barriers * per;
    w->bytes = (double)c->bytes * per;
    w->submits_per_frame = frames > 0 ? (double)c->submits / frames : 0.0;
    w->min_bytes = 2.0 * state_bytes;
    w->kernel_count = 0;
    for (uint32_t k = 0; k < c->kernel_count && w->kernel_count < VF_BENCH_MAX_KERNELS; k++) {
        vf_bench_kernel *o = &w->kernel[w->kernel_count++];
        snprintf(o->name, sizeof o->name, "%s", c->kernel[k].name);
        o->dispatches = (double)c->kernel[k].dispatches * per;
        o->bytes = (double)c->kernel[k].bytes * per;
    }
}

void vf_bench_work_render_from_counters(vf_bench_work *w, const vf_gpu_counters *c, double frames, uint32_t width,
                                        uint32_t height, double min_bytes, const vf_render_gpu_counts *gpu)
{
    double per = frames > 0 ? 1.0 / frames : 0.0;
    w->render_counted = frames > 0;
    w->render_width = width;
    w->render_height = height;
    w->render_dispatches = (double)c->dispatches * per;
    w->render_draws = (double)c->draws * per;
    w->render_barriers = (double)c->barriers * per;
    w->render_bytes = (double)c->bytes * per;
    w->render_draw_bytes = (double)c->draw_bytes * per;
    w->render_min_bytes = min_bytes;
    w->render_kernel_count = 0;
    for (uint32_t k = 0; k < c->kernel_count && w->render_kernel_count < VF_BENCH_MAX_KERNELS; k++) {
        vf_bench_kernel *o = &w->render_kernel[w->render_kernel_count++];
        snprintf(o->name, sizeof o->name, "%s", c->kernel[k].name);
        o->dispatches = (double)c->kernel[k].dispatches * per;
        o->draws = (double)c->kernel[k].draws * per;
        o->bytes = (double)c->kernel[k].bytes * per;
    }
    w->render_gpu_counted = gpu != NULL;
    if (gpu) {
        w->render_pixels_tested = (double)gpu->pixels_tested;
        w->render_atomics = (double)(gpu->depth_atomics + gpu->thickness_atomics + gpu->foam_atomics);
    }
}

static double ratio(double a, double b)
{
    return b > 0 ? a / b : 0.0;
}

void vf_bench_work_json(const vf_bench_work *w, FILE *f)
{
    if (!w->counted) {
        fputs("\"work\": null", f);
        return;
    }
    fprintf(f,
            "\"work\": {\"counted_frames\": %.0f, \"counted_substeps\": %.0f, \"per_substep\": {\"dispatches\": %.6g, "
            "\"barriers\": %.6g, \"bytes\": %.6g, \"min_bytes\": %.6g, \"bytes_over_min\": %.4g}, "
            "\"submits_per_frame\": %.6g,\n         \"kernels\": [",
            w->frames, w->substeps, w->dispatches, w->barriers, w->bytes, w->min_bytes, ratio(w->bytes, w->min_bytes),
            w->submits_per_frame);
    for (uint32_t k = 0; k < w->kernel_count; k++) {
        fprintf(f, "%s{\"name\": ", k ? ", " : "");
        vf_json_string(f, w->kernel[k].name);
        fprintf(f, ", \"dispatches_per_substep\": %.6g, \"bytes_per_substep\": %.6g}", w->kernel[k].dispatches,
                w->kernel[k].bytes);
    }
    fputs("]", f);
    if (w->render_counted) {
        fprintf(f,
                ",\n         \"render_per_frame\": {\"width\": %u, \"height\": %u, \"dispatches\": %.6g, \"draws\": %.6g, "
                "\"barriers\": %.6g, \"compute_bytes\": %.6g, \"draw_bytes\": %.6g, \"min_bytes\": %.6g",
                w->render_width, w->render_height, w->render_dispatches, w->render_draws, w->render_barriers,
                w->render_bytes, w->render_draw_bytes, w->render_min_bytes);
        if (w->render_gpu_counted)
            fprintf(f, ", \"pixels_tested\": %.6g, \"atomics\": %.6g", w->render_pixels_tested, w->render_atomics);
        fputs(", \"passes\": [", f);
        for (uint32_t k = 0; k < w->render_kernel_count; k++) {
            fprintf(f, "%s{\"name\": ", k ? ", " : "");
            vf_json_string(f, w->render_kernel[k].name);
            fprintf(f, ", \"dispatches\": %.6g, \"draws\": %.6g, \"bytes\": %.6g}", w->render_kernel[k].dispatches,
                    w->render_kernel[k].draws, w->render_kernel[k].bytes);
        }
        fputs("]}", f);
    }
    fputs("}", f);
}

void vf_bench_work_csv_header(FILE *f)
{
    fputs("device,solver,size,scope,name,dispatches,draws,barriers,submits_per_frame,bytes,min_bytes,bytes_over_min\n", f);
}

void vf_bench_work_csv_rows(const vf_bench_work *w, const char *device, const char *solver, uint64_t size, FILE *f)
{
    if (!w->counted)
        return;
    fprintf(f, "\"%s\",%s,%llu,substep,all,%.6g,0,%.6g,%.6g,%.6g,%.6g,%.4g\n", device, solver, (unsigned long long)size,
            w->dispatches, w->barriers, w->submits_per_frame, w->bytes, w->min_bytes, ratio(w->bytes, w->min_bytes));
    for (uint32_t k = 0; k < w->kernel_count; k++)
        fprintf(f, "\"%s\",%s,%llu,substep,%s,%.6g,0,,,%.6g,,\n", device, solver, (unsigned long long)size,
                w->kernel[k].name, w->kernel[k].dispatches, w->kernel[k].bytes);
    if (!w->render_counted)
        return;
    fprintf(f, "\"%s\",%s,%llu,render_frame_%ux%u,all,%.6g,%.6g,%.6g,,%.6g,%.6g,\n", device, solver,
            (unsigned long long)size, w->render_width, w->render_height, w->render_dispatches, w->render_draws,
            w->render_barriers, w->render_bytes + w->render_draw_bytes, w->render_min_bytes);
    for (uint32_t k = 0; k < w->render_kernel_count; k++)
        fprintf(f, "\"%s\",%s,%llu,render_frame_%ux%u,%s,%.6g,%.6g,,,%.6g,,\n", device, solver, (unsigned long long)size,
                w->render_width, w->render_height, w->render_kernel[k].name, w->render_kernel[k].dispatches,
                w->render_kernel[k].draws, w->render_kernel[k].bytes);
}

void vf_bench_work_print_header(FILE *f)
{
    fprintf(f, "work per substep (counted from the recorded commands; bytes = bound buffer bytes, min = state read + written once):\n");
    fprintf(f, "  %-7s %10s %11s %10s %13s %13s %9s %15s\n", "solver", "size", "dispatches", "barriers", "bytes", "min bytes",
            "bytes/min", "submits/frame");
}

void vf_bench_work_print_row(const vf_bench_work *w, const char *solver, uint64_t size, FILE *f)
{
    if (!w->counted)
        return;
    fprintf(f, "  %-7s %10llu %11.1f %10.1f %13.4g %13.4g %9.2f %15.2f\n", solver, (unsigned long long)size,
            w->dispatches, w->barriers, w->bytes, w->min_bytes, ratio(w->bytes, w->min_bytes), w->submits_per_frame);
    if (w->render_counted)
        fprintf(f,
                "  %-7s %10llu render %ux%u per frame: %.0f dispatches, %.0f draws, %.0f barriers, %.4g compute bytes, "
                "%.4g draw bytes\n",
                solver, (unsigned long long)size, w->render_width, w->render_height, w->render_dispatches,
                w->render_draws, w->render_barriers, w->render_bytes, w->render_draw_bytes);
    if (w->render_counted && w->render_gpu_counted)
        fprintf(f, "  %-7s %10llu render on the device: %.4g pixels tested against spheres, %.4g atomics\n", solver,
                (unsigned long long)size, w->render_pixels_tested, w->render_atomics);
}
