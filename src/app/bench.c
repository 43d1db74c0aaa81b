#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double vf_bench_median(const double *v, uint32_t n)
{
    if (n == 0)
        return 0.0;
    double *c = malloc(n * sizeof *c);
    if (!c)
        return v[0];
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    double m = n % 2 ? c[n / 2] : 0.5 * (c[n / 2 - 1] + c[n / 2]);
    free(c);
    return m;
}

double vf_bench_fit_exponent(const double *x, const double *y, uint32_t n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!(x[i] > 0) || !(y[i] > 0))
            continue;
        double lx = log(x[i]), ly = log(y[i]);
        sx += lx;
        sy += ly;
        sxx += lx * lx;
        sxy += lx * ly;
        k++;
    }
    if (k < 2)
        return NAN;
    double den = k * sxx - sx * sx;
    return fabs(den) < 1e-300 ? NAN : (k * sxy - sx * sy) / den;
}

void vf_bench_fit(vf_bench_solver *s)
{
    double x[VF_BENCH_MAX_SIZES], y[VF_BENCH_MAX_SIZES];
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->size_count; i++)
        if (s->sizes[i].fits) {
            x[n] = (double)s->sizes[i].elements;
            y[n] = s->sizes[i].sim_gpu_ms_median;
            n++;
        }
    s->exponent = vf_bench_fit_exponent(x, y, n);
}

/* ------------------------------------------------------------------ JSON */

static void jnum(FILE *f, const char *key, double v, bool comma)
{
    fprintf(f, "\"%s\": ", key);
    vf_json_number(f, v);
    if (comma)
        fputs(", ", f);
}

void vf_bench_write_json(const vf_bench_report *r, FILE *f)
{
    const vf_device_info *d = &r->device;
    fprintf(f, "{\n  \"schema\": \"vkfluid-bench/1\",\n  \"date\": ");
    vf_json_string(f, r->date);
    fprintf(f, ",\n  \"device\": {\"name\": ");
    vf_json_string(f, d->name);
    fprintf(f, ", \"type\": ");
    vf_json_string(f, vf_device_type_name(d->type));
    fprintf(f, ", \"driver\": ");
    vf_json_string(f, d->driver_name);
    fprintf(f, ", \"driver_info\": ");
    vf_json_string(f, d->driver_info);
    fprintf(f, ", \"vulkan\": \"%u.%u.%u\", \"memory_bytes\": %llu, ", VK_API_VERSION_MAJOR(d->api_version),
            VK_API_VERSION_MINOR(d->api_version), VK_API_VERSION_PATCH(d->api_version),
            (unsigned long long)d->device_local_bytes);
    jnum(f, "peak_copy_gbps", r->peak_copy_gbps, true);
    jnum(f, "copy_transfer_gbps", r->copy_transfer_gbps, true);
    jnum(f, "copy_shader_gbps", r->copy_shader_gbps, false);
    fprintf(f, "},\n  \"settings\": {\"frames\": %u, \"warmup\": %u, \"repeat\": %u, \"render\": ", r->frames, r->warmup,
            r->repeat);
    if (r->render_width)
        fprintf(f, "\"%ux%u\"", r->render_width, r->render_height);
    else
        fputs("null", f);
    fprintf(f, ", \"render_path\": ");
    vf_json_string(f, r->render_path[0] ? r->render_path : "auto");
    fprintf(f, "},\n  \"solvers\": [");
    for (uint32_t si = 0; si < r->solver_count; si++) {
        const vf_bench_solver *s = &r->solver[si];
        fprintf(f, "%s\n    {\"solver\": ", si ? "," : "");
        vf_json_string(f, s->solver);
        fprintf(f, ", \"scene\": ");
        vf_json_string(f, s->scene);
        fprintf(f, ", \"size_key\": ");
        vf_json_string(f, s->size_key);
        fprintf(f, ", ");
        jnum(f, "scaling_exponent", s->exponent, false);
        fprintf(f, ",\n     \"sizes\": [");
        for (uint32_t zi = 0; zi < s->size_count; zi++) {
            const vf_bench_size *z = &s->sizes[zi];
            fprintf(f, "%s\n      {\"size\": %llu, \"elements\": %llu, \"fits\": %s", zi ? "," : "",
                    (unsigned long long)z->size, (unsigned long long)z->elements, z->fits ? "true" : "false");
            if (!z->fits) {
                fprintf(f, ", \"why\": ");
                vf_json_string(f, z->why);
                fprintf(f, "}");
                continue;
            }
            fprintf(f, ", ");
            jnum(f, "substeps_per_frame", z->substeps, false);
            fprintf(f, ",\n       \"sim\": {");
            jnum(f, "gpu_ms_median", z->sim_gpu_ms_median, true);
            jnum(f, "gpu_ms_min", z->sim_gpu_ms_min, true);
            jnum(f, "gpu_ms_max", z->sim_gpu_ms_max, true);
            jnum(f, "fps_median", z->sim_fps_median, true);
            jnum(f, "fps_spread", z->sim_fps_spread, true);
            jnum(f, "steps_per_second", z->steps_per_second, false);
            fprintf(f, "},\n       \"render\": ");
            if (z->rendered) {
                fprintf(f, "{");
                jnum(f, "fps_median", z->render_fps_median, true);
                jnum(f, "fps_spread", z->render_fps_spread, true);
                jnum(f, "gpu_ms_median", z->render_gpu_ms_median, true);
                fprintf(f, "\"path\": ");
                vf_json_string(f, z->render_path);
                fprintf(f, "}");
            } else {
                fputs("null", f);
            }
            fprintf(f, ",\n       \"pressure\": ");
            if (z->has_pressure) {
                static const char *const names[2] = {"multigrid", "jacobi"};
                fprintf(f, "{");
                for (int m = 0; m < 2; m++) {
                    fprintf(f, "%s\"%s\": {\"iterations\": %u, ", m ? ", " : "", names[m], z->pressure_iters[m]);
                    jnum(f, "gpu_ms", z->pressure_ms[m], true);
                    jnum(f, "reduction", z->pressure_reduction[m], true);
                    jnum(f, "digits_per_ms", z->pressure_digits_per_ms[m], false);
                    fprintf(f, "}");
                }
                fprintf(f, "}");
            } else {
                fputs("null", f);
            }
            fprintf(f, ",\n       ");
            vf_bench_work_json(&z->work, f);
            fprintf(f, ",\n       \"passes\": [");
            for (uint32_t pi = 0; pi < z->pass_count; pi++) {
                const vf_bench_pass *p = &z->pass[pi];
                fprintf(f, "%s\n        {\"name\": ", pi ? "," : "");
                vf_json_string(f, p->name);
                fprintf(f, ", \"kind\": \"%s\", ", p->render ? "render" : "sim");
                jnum(f, "ms_median", p->ms_median, true);
                jnum(f, "ms_min", p->ms_min, true);
                jnum(f, "ms_max", p->ms_max, true);
                jnum(f, "bytes", p->bytes, true);
                jnum(f, "gbps", p->gbps, false);
                fprintf(f, "}");
            }
            fprintf(f, "]}");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n  ]\n}\n");
}

/* ------------------------------------------------------------------ CSV */

void vf_bench_write_csv(const vf_bench_report *r, FILE *f)
{
    fprintf(f, "device,solver,scene,size,elements,substeps_per_frame,sim_gpu_ms,sim_fps,steps_per_second,render_fps,"
               "pass,kind,pass_ms,pass_gbps,render_path\n");
    for (uint32_t si = 0; si < r->solver_count; si++) {
        const vf_bench_solver *s = &r->solver[si];
        for (uint32_t zi = 0; zi < s->size_count; zi++) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits)
                continue;
            for (uint32_t pi = 0; pi < z->pass_count; pi++) {
                const vf_bench_pass *p = &z->pass[pi];
                fprintf(f, "\"%s\",%s,%s,%llu,%llu,%.4g,%.6g,%.6g,%.6g,%.6g,%s,%s,%.6g,%.6g,%s\n", r->device.name,
                        s->solver, s->scene, (unsigned long long)z->size, (unsigned long long)z->elements, z->substeps,
                        z->sim_gpu_ms_median, z->sim_fps_median, z->steps_per_second,
                        z->rendered ? z->render_fps_median : 0.0, p->name, p->render ? "render" : "sim", p->ms_median,
                        p->gbps, z->rendered ? z->render_path : "");
            }
        }
    }
}

/* ------------------------------------------------------------------ SVG */

static double log_pos(double v, double lo, double hi, double a, double b)
{
    return a + (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) * (b - a);
}

/* A marker with its value at every measured point of one mode's line (the
 * line alone hides where the measurements are). */
static void svg_markers(FILE *f, const vf_bench_solver *s, int mode, const char *colour, double xlo, double xhi,
                        double ylo, double yhi, double px0, double px1, double py0, double py1)
{
    for (uint32_t zi = 0; zi < s->size_count; zi++) {
        const vf_bench_size *z = &s->sizes[zi];
        double fps = mode ? z->render_fps_median : z->sim_fps_median;
        if (!z->fits || (mode && !z->rendered) || !(fps > 0))
            continue;
        double x = log_pos((double)z->elements, xlo, xhi, px0, px1), y = log_pos(fps, ylo, yhi, py0, py1);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", x, y, colour);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%.3g</text>\n", x + 6, y - 6, colour, fps);
    }
}

/* Per-pass GPU time at each size as stacked horizontal bars (one colour per
 * pass, the same across sizes), below a solver's fps panel; height BH. */
static void svg_pass_bars(FILE *f, const vf_bench_solver *s, double y0, double W, double L, double R, double BH)
{
    static const char *const pal[10] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    double tmax = 0;
    uint32_t rows = 0;
    for (uint32_t zi = 0; zi < s->size_count; zi++) {
        const vf_bench_size *z = &s->sizes[zi];
        double t = 0;
        for (uint32_t pi = 0; z->fits && pi < z->pass_count; pi++)
            t += z->pass[pi].ms_median;
        tmax = fmax(tmax, t);
        rows += z->fits && z->pass_count > 0;
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">%s: GPU ms per frame by pass (stacked)</text>\n", L,
            y0 + 22, s->solver);
    if (!(tmax > 0) || !rows) {
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">no per-pass times on this device</text>\n", L, y0 + 48);
        return;
    }
    double top = y0 + 36, bar = fmin(22, (BH - 110) / rows), x0 = L + 40, x1 = W - R, row = 0;
    for (uint32_t zi = 0; zi < s->size_count; zi++) {
        const vf_bench_size *z = &s->sizes[zi];
        if (!z->fits || !z->pass_count)
            continue;
        double y = top + row * (bar + 6), x = x0;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%llu</text>\n", x0 - 6, y + bar * 0.7,
                (unsigned long long)z->size);
        for (uint32_t pi = 0; pi < z->pass_count; pi++) {
            double w = z->pass[pi].ms_median / tmax * (x1 - x0);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"><title>%s %.4g ms</title></rect>\n",
                    x, y, w, bar, pal[pi % 10], z->pass[pi].name, z->pass[pi].ms_median);
            x += w;
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">%.4g ms</text>\n", fmin(x + 4, x1 - 50), y + bar * 0.7,
                (x - x0) / (x1 - x0) * tmax);
        row++;
    }
    /* legend: the passes of the largest size */
    const vf_bench_size *last = NULL;
    for (uint32_t zi = 0; zi < s->size_count; zi++)
        if (s->sizes[zi].fits && s->sizes[zi].pass_count)
            last = &s->sizes[zi];
    double ly = top + row * (bar + 6) + 14, lx = x0;
    for (uint32_t pi = 0; last && pi < last->pass_count; pi++) {
        if (lx > x1 - 120) {
            lx = x0;
            ly += 16;
        }
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%.1f\" y=\"%.1f\" "
                   "font-size=\"10\">%s</text>\n",
                lx, ly - 9, pal[pi % 10], lx + 13, ly, last->pass[pi].name);
        lx += 20 + 6.5 * (double)strlen(last->pass[pi].name);
    }
}

void vf_bench_write_svg(const vf_bench_report *r, FILE *f)
{
    const double W = 760, FH = 380, BH = 240, PH = FH + BH, L = 80, R = 30, T = 50, B = 60;
    double H = PH * (r->solver_count ? r->solver_count : 1);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n",
            W, H, W, H);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    for (uint32_t si = 0; si < r->solver_count; si++) {
        const vf_bench_solver *s = &r->solver[si];
        double y0 = PH * si;
        double xlo = INFINITY, xhi = 0, ylo = 10, yhi = 100;
        for (uint32_t zi = 0; zi < s->size_count; zi++) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits)
                continue;
            xlo = fmin(xlo, (double)z->elements);
            xhi = fmax(xhi, (double)z->elements);
            double fps[2] = {z->sim_fps_median, z->rendered ? z->render_fps_median : 0};
            for (int k = 0; k < 2; k++)
                if (fps[k] > 0) {
                    ylo = fmin(ylo, fps[k]);
                    yhi = fmax(yhi, fps[k]);
                }
        }
        if (!(xhi > 0)) {
            xlo = 1;
            xhi = 10;
        }
        xlo = pow(10, floor(log10(xlo)));
        xhi = pow(10, ceil(log10(xhi) - 1e-9)); /* an exact decade stays the top */
        if (!(xhi > xlo))
            xhi = xlo * 10;
        ylo = pow(10, floor(log10(ylo)));
        yhi = pow(10, ceil(log10(yhi) - 1e-9));
        double px0 = L, px1 = W - R, py0 = y0 + FH - B, py1 = y0 + T;
        svg_pass_bars(f, s, y0 + FH, W, L, R, BH);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">%s (%s): frames per second against %s, %s</text>\n", L,
                y0 + 28, s->solver, s->scene, !strcmp(s->solver, "sph") ? "particles" : "cells", r->device.name);
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#444\"/>\n", px0, py1,
                px1 - px0, py0 - py1);
        for (double d = xlo; d <= xhi * 1.0001; d *= 10) {
            double x = log_pos(d, xlo, xhi, px0, px1);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x, py0, x, py1);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.0e</text>\n", x, py0 + 18, d);
        }
        for (double d = ylo; d <= yhi * 1.0001; d *= 10) {
            double y = log_pos(d, ylo, yhi, py0, py1);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", px0, y, px1, y);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", px0 - 6, y + 4, d);
        }
        for (int g = 30; g <= 60; g += 30) {
            double y = log_pos(g, ylo, yhi, py0, py1);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\" stroke-dasharray=\"6 4\"/>\n",
                    px0, y, px1, y);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c33\" text-anchor=\"end\">%d fps</text>\n", px1 - 4, y - 4, g);
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", (px0 + px1) / 2, py0 + 40,
                !strcmp(s->solver, "sph") ? "particles" : "grid cells");
        fprintf(f, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">frames per second</text>\n",
                (py0 + py1) / 2, (py0 + py1) / 2);
        static const char *const colours[2] = {"#1f77b4", "#ff7f0e"};
        static const char *const labels[2] = {"simulation only", "with rendering"};
        for (int mode = 0; mode < 2; mode++) {
            if (mode == 1 && !r->render_width)
                continue;
            fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" data-mode=\"%s\" points=\"", colours[mode],
                    mode ? "render" : "sim");
            for (uint32_t zi = 0; zi < s->size_count; zi++) {
                const vf_bench_size *z = &s->sizes[zi];
                double fps = mode ? z->render_fps_median : z->sim_fps_median;
                if (!z->fits || (mode && !z->rendered) || !(fps > 0))
                    continue;
                fprintf(f, "%.1f,%.1f ", log_pos((double)z->elements, xlo, xhi, px0, px1), log_pos(fps, ylo, yhi, py0, py1));
            }
            fprintf(f, "\"/>\n");
            svg_markers(f, s, mode, colours[mode], xlo, xhi, ylo, yhi, px0, px1, py0, py1);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"3\" fill=\"%s\"/>", px0 + 12, py1 + 14 + 18 * mode,
                    colours[mode]);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", px0 + 32, py1 + 19 + 18 * mode, labels[mode]);
        }
    }
    fprintf(f, "</svg>\n");
}

/* ------------------------------------------------------------------ table */

/* Warns when the simulation passes' GPU times cover less than half of the
 * frame's wall time: the device's timestamps (e.g. a CPU driver's) then miss
 * most of the work and the per-pass split is not to be trusted. */
static void print_pass_coverage(const vf_bench_size *z, FILE *f)
{
    double sum = 0;
    uint32_t sim_passes = 0; /* none: no per-pass times to doubt (frames left out, cmd_bench.c) */
    for (uint32_t pi = 0; pi < z->pass_count; pi++)
        if (!z->pass[pi].render) {
            sum += z->pass[pi].ms_median;
            sim_passes++;
        }
    double frame_ms = z->sim_fps_median > 0 ? 1000.0 / z->sim_fps_median : 0;
    if (sim_passes && frame_ms > 0 && sum < 0.5 * frame_ms)
        fprintf(f, "  warning: the simulation passes add up to %.4g ms of a %.4g ms frame (%.2g%%): this device's "
                   "timestamps miss most of the work; the per-pass split and bandwidths are unreliable here\n",
                sum, frame_ms, 100.0 * sum / frame_ms);
}

void vf_bench_print(const vf_bench_report *r, FILE *f)
{
    const vf_device_info *d = &r->device;
    fprintf(f, "device: %s (%s), driver %s (%s), vulkan %u.%u.%u\n", d->name, vf_device_type_name(d->type), d->driver_name,
            d->driver_info, VK_API_VERSION_MAJOR(d->api_version), VK_API_VERSION_MINOR(d->api_version),
            VK_API_VERSION_PATCH(d->api_version));
    fprintf(f, "measured copy bandwidth (device-local, read + write): %.1f GB/s (vkCmdCopyBuffer %.1f, compute shader %.1f)\n",
            r->peak_copy_gbps, r->copy_transfer_gbps, r->copy_shader_gbps);
    fprintf(f, "frames %u (after %u warm-up), repeats %u, render %s (path %s)\n\n", r->frames, r->warmup, r->repeat,
            r->render_width ? "on" : "off", r->render_path[0] ? r->render_path : "auto");
    for (uint32_t si = 0; si < r->solver_count; si++) {
        const vf_bench_solver *s = &r->solver[si];
        fprintf(f, "%s (%s), swept %s; fitted GPU cost ~ elements^%.2f\n", s->solver, s->scene, s->size_key, s->exponent);
        fprintf(f, "  %12s %12s %9s %11s %10s %12s %11s\n", "size", "elements", "substeps", "sim GPU ms", "sim fps",
                "steps/s", "render fps");
        for (uint32_t zi = 0; zi < s->size_count; zi++) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits) {
                fprintf(f, "  %12llu  does not fit: %s\n", (unsigned long long)z->size, z->why);
                continue;
            }
            char rfps[40] = "-";
            if (z->rendered)
                snprintf(rfps, sizeof rfps, "%.4g (%s)", z->render_fps_median, z->render_path);
            fprintf(f, "  %12llu %12llu %9.4g %11.4g %10.4g %12.4g %11s\n", (unsigned long long)z->size,
                    (unsigned long long)z->elements, z->substeps, z->sim_gpu_ms_median, z->sim_fps_median,
                    z->steps_per_second, rfps);
        }
        /* per pass at the largest size that fits */
        for (int zi = (int)s->size_count - 1; zi >= 0; zi--) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits)
                continue;
            if (z->has_pressure)
                fprintf(f, "  pressure solve from zero at %llu: multigrid %u V-cycles %.3f ms, residual x %.2e (%.2f digits/ms); "
                           "jacobi %u iterations %.3f ms, residual x %.2e (%.3f digits/ms)\n",
                        (unsigned long long)z->size, z->pressure_iters[0], z->pressure_ms[0], z->pressure_reduction[0],
                        z->pressure_digits_per_ms[0], z->pressure_iters[1], z->pressure_ms[1], z->pressure_reduction[1],
                        z->pressure_digits_per_ms[1]);
            fprintf(f, "  passes at %llu (GPU ms per frame, effective bandwidth against the measured copy peak):\n",
                    (unsigned long long)z->size);
            for (uint32_t pi = 0; pi < z->pass_count; pi++) {
                const vf_bench_pass *p = &z->pass[pi];
                double share = r->peak_copy_gbps > 0 ? 100.0 * p->gbps / r->peak_copy_gbps : 0.0;
                if (p->gbps > 0 && share > 100.0)
                    fprintf(f, "    %-22s %9.4g ms  %8.4g GB/s  over the peak: timestamp unreliable\n", p->name,
                            p->ms_median, p->gbps);
                else if (p->gbps > 0)
                    fprintf(f, "    %-22s %9.4g ms  %8.4g GB/s  %5.1f%%\n", p->name, p->ms_median, p->gbps, share);
                else
                    fprintf(f, "    %-22s %9.4g ms\n", p->name, p->ms_median);
            }
            print_pass_coverage(z, f);
            break;
        }
        fprintf(f, "\n");
    }
}

/* ------------------------------------------------------------------ work accounting */

void vf_bench_write_work_csv(const vf_bench_report *r, FILE *f)
{
    vf_bench_work_csv_header(f);
    for (uint32_t si = 0; si < r->solver_count; si++)
        for (uint32_t zi = 0; zi < r->solver[si].size_count; zi++)
            if (r->solver[si].sizes[zi].fits)
                vf_bench_work_csv_rows(&r->solver[si].sizes[zi].work, r->device.name, r->solver[si].solver,
                                       r->solver[si].sizes[zi].size, f);
}

void vf_bench_print_work(const vf_bench_report *r, FILE *f)
{
    vf_bench_work_print_header(f);
    for (uint32_t si = 0; si < r->solver_count; si++)
        for (uint32_t zi = 0; zi < r->solver[si].size_count; zi++)
            if (r->solver[si].sizes[zi].fits)
                vf_bench_work_print_row(&r->solver[si].sizes[zi].work, r->solver[si].solver, r->solver[si].sizes[zi].size,
                                        f);
    fprintf(f, "\n");
}

/* ------------------------------------------------------------------ files */

vf_result vf_bench_write(const vf_bench_report *r, const char *dir)
{
    static const char *const names[4] = {"bench.csv", "bench.json", "bench.svg", "work.csv"};
    for (int i = 0; i < 4; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        vf_file file;
        vf_result res = vf_file_begin(&file, path);
        if (res != VF_OK)
            return res;
        if (i == 0)
            vf_bench_write_csv(r, file.f);
        else if (i == 1)
            vf_bench_write_json(r, file.f);
        else if (i == 2)
            vf_bench_write_svg(r, file.f);
        else
            vf_bench_write_work_csv(r, file.f);
        if ((res = vf_file_commit(&file)) != VF_OK)
            return res;
    }
    return VF_OK;
}
