#include "bench_accounting.h"

#include <math.h>
#include <string.h>

#include "fileio.h"

/* c's kernels into out (at most VF_BENCH_MAX_KERNELS), their counts times
 * per; returns how many. */
static uint32_t copy_kernels(vf_bench_kernel *out, const vf_gpu_counters *c, double per)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < c->kernel_count && n < VF_BENCH_MAX_KERNELS; k++) {
        vf_bench_kernel *o = &out[n++];
        snprintf(o->name, sizeof o->name, "%s", c->kernel[k].name);
        o->dispatches = (double)c->kernel[k].dispatches * per;
        o->draws = (double)c->kernel[k].draws * per;
        o->bytes = (double)c->kernel[k].bytes * per;
        o->neighbours = c->kernel[k].neighbours;
    }
    return n;
}

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
    w->neighbour_passes = (double)c->neighbour_passes * per;
    w->kernel_count = copy_kernels(w->kernel, c, per);
    /* until vf_bench_work_set_run says otherwise: what was recorded ran */
    w->run_reported = w->gpu_chosen = w->neighbour_counted = false;
    w->run_substeps = frames > 0 ? substeps / frames : 0.0;
    w->run_iterations = 0.0;
    w->run_neighbour_passes = w->neighbour_passes * w->run_substeps;
}

void vf_bench_work_set_run(vf_bench_work *w, double frame_dt, double elements, const vf_solver_work_stats *before,
                           const vf_solver_work_stats *after, double frames, double recorded)
{
    w->frame_dt = frame_dt;
    w->elements = elements;
    double per_frame = w->frames > 0 ? w->substeps / w->frames : 0.0; /* recorded */
    w->run_substeps = per_frame;
    w->run_iterations = 0.0;
    w->run_neighbour_passes = w->neighbour_passes * per_frame;
    w->run_reported = before && after && frames > 0;
    if (!w->run_reported)
        return;
    double run = (double)(after->substeps - before->substeps);
    w->gpu_chosen = run != recorded;
    if (w->gpu_chosen)
        w->run_substeps = run / frames;
    w->run_iterations = run > 0 ? (double)(after->iterations - before->iterations) / run : 0.0;
    w->neighbour_counted = before->neighbour_counted && after->neighbour_counted;
    if (w->neighbour_counted)
        w->run_neighbour_passes = (double)(after->neighbour_passes - before->neighbour_passes) / frames;
    else if (per_frame > 0)
        w->run_neighbour_passes *= w->run_substeps / per_frame;
}

void vf_bench_work_extrapolate_run(vf_bench_work *w, const vf_bench_work *measured, double elements)
{
    double per_frame = w->frames > 0 ? w->substeps / w->frames : 0.0;
    w->frame_dt = measured->frame_dt;
    w->elements = elements;
    w->run_reported = measured->run_reported;
    w->gpu_chosen = measured->gpu_chosen;
    w->neighbour_counted = measured->neighbour_counted;
    w->run_substeps = per_frame;
    if (w->gpu_chosen && measured->elements > 0)
        w->run_substeps = fmin(per_frame, measured->run_substeps * cbrt(elements / measured->elements));
    w->run_iterations = measured->run_iterations;
    if (w->neighbour_counted && measured->run_substeps > 0)
        w->run_neighbour_passes = measured->run_neighbour_passes / measured->run_substeps * w->run_substeps;
    else
        w->run_neighbour_passes = w->neighbour_passes * w->run_substeps;
}

double vf_bench_work_run_share(const vf_bench_work *w, const vf_bench_kernel *k)
{
    double per_frame = w->frames > 0 ? w->substeps / w->frames : 0.0, share = 1.0;
    if (k->neighbours && w->neighbour_counted)
        share = w->neighbour_passes > 0 && per_frame > 0 ? w->run_neighbour_passes / (w->neighbour_passes * per_frame) : 1.0;
    else if (w->gpu_chosen)
        share = per_frame > 0 ? w->run_substeps / per_frame : 1.0;
    return share < 0 ? 0.0 : share > 1 ? 1.0 : share;
}

void vf_bench_work_rates_of(const vf_bench_work *w, bool per_second, vf_bench_rates *out)
{
    memset(out, 0, sizeof *out);
    double per_frame = w->frames > 0 ? w->substeps / w->frames : 0.0;
    double scale = per_second ? (w->frame_dt > 0 ? 1.0 / w->frame_dt : 0.0) : 1.0;
    if (!w->counted)
        return;
    out->substeps = per_frame * scale;
    out->substeps_run = w->run_substeps * scale;
    out->iterations = w->run_iterations * w->run_substeps * scale;
    out->neighbour_passes = w->neighbour_passes * per_frame * scale;
    out->neighbour_passes_run = w->run_neighbour_passes * scale;
    out->dispatches = w->dispatches * per_frame * scale;
    out->bytes = w->bytes * per_frame * scale;
    /* the kernels' dispatches and bytes that ran; the frame's work outside
     * the kernels' list (none unless it overflowed) as recorded */
    double kd = 0, kb = 0, rd = 0, rb = 0;
    for (uint32_t k = 0; k < w->kernel_count; k++) {
        double share = vf_bench_work_run_share(w, &w->kernel[k]);
        kd += w->kernel[k].dispatches;
        kb += w->kernel[k].bytes;
        rd += w->kernel[k].dispatches * share;
        rb += w->kernel[k].bytes * share;
    }
    out->dispatches_run = (w->dispatches - kd + rd) * per_frame * scale;
    out->bytes_run = (w->bytes - kb + rb) * per_frame * scale;
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
    w->render_kernel_count = copy_kernels(w->render_kernel, c, per);
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

static void rates_members(const vf_bench_rates *r, bool iterations, FILE *f)
{
    fprintf(f, "\"substeps\": %.6g, \"substeps_run\": %.6g, \"iterations\": ", r->substeps, r->substeps_run);
    if (iterations)
        fprintf(f, "%.6g", r->iterations);
    else
        fputs("null", f);
    fprintf(f,
            ", \"neighbour_passes\": %.6g, \"neighbour_passes_run\": %.6g, \"dispatches\": %.6g, "
            "\"dispatches_run\": %.6g, \"bytes\": %.6g, \"bytes_run\": %.6g",
            r->neighbour_passes, r->neighbour_passes_run, r->dispatches, r->dispatches_run, r->bytes, r->bytes_run);
}

/* The work per frame and per simulated second (vf_bench_work_rates_of). */
static void rates_json(const vf_bench_work *w, FILE *f)
{
    vf_bench_rates fr, sec;
    vf_bench_work_rates_of(w, false, &fr);
    vf_bench_work_rates_of(w, true, &sec);
    fprintf(f,
            ",\n         \"frame_dt\": %.9g, \"neighbour_passes_per_substep\": %.6g, \"run_reported\": %s, "
            "\"gpu_chosen\": %s, \"neighbour_passes_counted\": %s, \"iterations_per_substep\": ",
            w->frame_dt, w->neighbour_passes, w->run_reported ? "true" : "false", w->gpu_chosen ? "true" : "false",
            w->neighbour_counted ? "true" : "false");
    if (w->run_reported)
        fprintf(f, "%.6g", w->run_iterations);
    else
        fputs("null", f);
    fputs(",\n         \"per_frame\": {", f);
    rates_members(&fr, w->run_reported, f);
    fputs("},\n         \"per_simulated_second\": ", f);
    if (w->frame_dt > 0) {
        fputs("{", f);
        rates_members(&sec, w->run_reported, f);
        fputs("}", f);
    } else {
        fputs("null", f);
    }
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
        fprintf(f, ", \"dispatches_per_substep\": %.6g, \"bytes_per_substep\": %.6g, \"neighbours\": %s}",
                w->kernel[k].dispatches, w->kernel[k].bytes, w->kernel[k].neighbours ? "true" : "false");
    }
    fputs("]", f);
    rates_json(w, f);
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
    fputs("device,solver,size,scope,name,dispatches,draws,barriers,submits_per_frame,bytes,min_bytes,bytes_over_min,"
          "frame_dt,substeps,substeps_run,iterations,neighbour_passes,neighbour_passes_run,dispatches_run,bytes_run\n",
          f);
}

void vf_bench_work_csv_rows(const vf_bench_work *w, const char *device, const char *solver, uint64_t size, FILE *f)
{
    if (!w->counted)
        return;
    fprintf(f, "\"%s\",%s,%llu,substep,all,%.6g,0,%.6g,%.6g,%.6g,%.6g,%.4g,,,,,%.6g,,,\n", device, solver,
            (unsigned long long)size, w->dispatches, w->barriers, w->submits_per_frame, w->bytes, w->min_bytes,
            ratio(w->bytes, w->min_bytes), w->neighbour_passes);
    for (uint32_t k = 0; k < w->kernel_count; k++)
        fprintf(f, "\"%s\",%s,%llu,substep,%s,%.6g,0,,,%.6g,,,,,,,%.6g,,,\n", device, solver, (unsigned long long)size,
                w->kernel[k].name, w->kernel[k].dispatches, w->kernel[k].bytes,
                w->kernel[k].neighbours ? w->kernel[k].dispatches : 0.0);
    /* the work per frame and per simulated second */
    for (int sec = 0; sec < 2 && (!sec || w->frame_dt > 0); sec++) {
        vf_bench_rates r;
        vf_bench_work_rates_of(w, sec, &r);
        char it[32] = "";
        if (w->run_reported)
            snprintf(it, sizeof it, "%.6g", r.iterations);
        fprintf(f, "\"%s\",%s,%llu,%s,all,%.6g,0,,,%.6g,,,%.9g,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%.6g\n", device, solver,
                (unsigned long long)size, sec ? "simulated_second" : "frame", r.dispatches, r.bytes, w->frame_dt,
                r.substeps, r.substeps_run, it, r.neighbour_passes, r.neighbour_passes_run, r.dispatches_run,
                r.bytes_run);
    }
    if (!w->render_counted)
        return;
    fprintf(f, "\"%s\",%s,%llu,render_frame_%ux%u,all,%.6g,%.6g,%.6g,,%.6g,%.6g,,,,,,,,,\n", device, solver,
            (unsigned long long)size, w->render_width, w->render_height, w->render_dispatches, w->render_draws,
            w->render_barriers, w->render_bytes + w->render_draw_bytes, w->render_min_bytes);
    for (uint32_t k = 0; k < w->render_kernel_count; k++)
        fprintf(f, "\"%s\",%s,%llu,render_frame_%ux%u,%s,%.6g,%.6g,,,%.6g,,,,,,,,,,\n", device, solver, (unsigned long long)size,
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

void vf_bench_work_print_rates_header(FILE *f)
{
    fprintf(f, "work per frame and per simulated second (recorded: in the command buffers; run: on the GPU, by the "
               "solver's own counts where it chooses; dispatches and bytes run: estimated):\n");
    fprintf(f, "  %-7s %9s %8s %15s %9s %17s %19s %19s | %24s %11s %19s %19s %19s\n", "solver", "size", "frame s",
            "substeps rec/run", "iter/sub", "nbr passes rec/run", "dispatches rec/run", "bytes rec/run",
            "per sim s: substeps run", "iterations", "nbr passes run", "dispatches run", "bytes run");
}

void vf_bench_work_print_rates_row(const vf_bench_work *w, const char *solver, const char *size, FILE *f)
{
    if (!w->counted)
        return;
    vf_bench_rates fr, sec;
    vf_bench_work_rates_of(w, false, &fr);
    vf_bench_work_rates_of(w, true, &sec);
    char sub[32], it[16] = "-", nb[32], di[32], by[32], sit[16] = "-";
    snprintf(sub, sizeof sub, "%.4g/%.4g", fr.substeps, fr.substeps_run);
    if (w->run_reported) {
        snprintf(it, sizeof it, "%.3g", w->run_iterations);
        snprintf(sit, sizeof sit, "%.4g", sec.iterations);
    }
    snprintf(nb, sizeof nb, "%.4g/%.4g", fr.neighbour_passes, fr.neighbour_passes_run);
    snprintf(di, sizeof di, "%.4g/%.4g", fr.dispatches, fr.dispatches_run);
    snprintf(by, sizeof by, "%.3g/%.3g", fr.bytes, fr.bytes_run);
    fprintf(f, "  %-7s %9s %8.4g %15s %9s %17s %19s %19s | %24.4g %11s %19.4g %19.4g %19.4g\n", solver, size,
            w->frame_dt, sub, it, nb, di, by, sec.substeps_run, sit, sec.neighbour_passes_run,
            sec.dispatches_run, sec.bytes_run);
}
