#include "bench.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

/* The solvers of vf_bench_size.pressure_*, in their order. */
static const char *const pressure_names[VF_BENCH_PRESSURES] = {"multigrid", "jacobi", "ssor", "fft"};

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

/* The sizes of s that fit: their elements in x and the double at byte
 * offset `field` of their vf_bench_size in y; returns how many. */
static uint32_t fitting_sizes(const vf_bench_solver *s, size_t field, double *x, double *y)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->size_count && n < VF_BENCH_MAX_SIZES; i++)
        if (s->sizes[i].fits) {
            x[n] = (double)s->sizes[i].elements;
            memcpy(&y[n++], (const char *)&s->sizes[i] + field, sizeof *y);
        }
    return n;
}

void vf_bench_fit(vf_bench_solver *s)
{
    double x[VF_BENCH_MAX_SIZES], y[VF_BENCH_MAX_SIZES];
    uint32_t n = fitting_sizes(s, offsetof(vf_bench_size, sim_gpu_ms_median), x, y);
    s->exponent = vf_bench_fit_exponent(x, y, n);
}

/* ------------------------------------------------------------------ real time */

double vf_bench_rtf30(double rtf_sim, double render_s)
{
    if (!(rtf_sim > 0))
        return 0.0;
    const double display = 1.0 / 30.0;
    return display / (display / rtf_sim + fmax(render_s, 0.0));
}

void vf_bench_realtime(vf_bench_size *z)
{
    z->rtf_sim = z->sim_fps_median * z->frame_dt;
    z->rtf_render = z->rendered ? z->render_fps_median * z->frame_dt : 0.0;
    z->render_s = 0.0;
    z->rtf30 = 0.0;
    if (z->rendered && z->render_fps_median > 0 && z->sim_fps_median > 0) {
        z->render_s = fmax(0.0, 1.0 / z->render_fps_median - 1.0 / z->sim_fps_median);
        z->rtf30 = vf_bench_rtf30(z->rtf_sim, z->render_s);
    }
}

vf_bench_limit vf_bench_largest(const double *x, const double *y, uint32_t n)
{
    vf_bench_limit l = {.kind = VF_BENCH_LIMIT_UNKNOWN};
    double last_x = 0, last_r = 0, elements[VF_BENCH_MAX_SIZES + 1], rtf[VF_BENCH_MAX_SIZES + 1];
    bool any = false;
    if (n > VF_BENCH_MAX_SIZES + 1)
        n = VF_BENCH_MAX_SIZES + 1;
    for (uint32_t i = 0; i < n; i++) { /* in ascending order of elements */
        uint32_t k = i;
        for (; k > 0 && elements[k - 1] > x[i]; k--) {
            elements[k] = elements[k - 1];
            rtf[k] = rtf[k - 1];
        }
        elements[k] = x[i];
        rtf[k] = y[i];
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!(rtf[i] > 0) || !(elements[i] > 0))
            continue;
        if (rtf[i] < 1.0) {
            if (!any) {
                l.kind = VF_BENCH_LIMIT_NONE;
                l.elements = elements[i];
                return l;
            }
            /* log rtf linear in log elements between the two: where it is 1 */
            double t = log(last_r) / (log(last_r) - log(rtf[i]));
            l.kind = VF_BENCH_LIMIT_BETWEEN;
            l.lo = last_x;
            l.hi = elements[i];
            l.elements = exp(log(last_x) + t * (log(elements[i]) - log(last_x)));
            return l;
        }
        any = true;
        last_x = elements[i];
        last_r = rtf[i];
    }
    if (any) {
        l.kind = VF_BENCH_LIMIT_AT_LEAST;
        l.elements = last_x;
    }
    return l;
}

void vf_bench_fit_realtime(vf_bench_solver *s)
{
    double x[VF_BENCH_MAX_SIZES], y[VF_BENCH_MAX_SIZES];
    uint32_t n = fitting_sizes(s, offsetof(vf_bench_size, rtf30), x, y);
    s->rt30 = vf_bench_largest(x, y, n);
}

void vf_bench_limit_text(const vf_bench_limit *l, char *buf, size_t cap)
{
    switch (l->kind) {
    case VF_BENCH_LIMIT_BETWEEN:
        snprintf(buf, cap, "~%.0f (between %.0f and %.0f)", l->elements, l->lo, l->hi);
        break;
    case VF_BENCH_LIMIT_AT_LEAST:
        snprintf(buf, cap, "at least %.0f (the largest size; every size keeps up)", l->elements);
        break;
    case VF_BENCH_LIMIT_NONE:
        snprintf(buf, cap, "none (not even %.0f)", l->elements);
        break;
    default:
        snprintf(buf, cap, "unknown (no size with a factor)");
    }
}

static const char *limit_kind_name(vf_bench_limit_kind k)
{
    static const char *const names[] = {"unknown", "none", "at_least", "between"};
    return names[k];
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
        fprintf(f, ",\n     \"realtime30_largest\": ");
        if (r->render_width) {
            fprintf(f, "{\"render\": \"%ux%u\", \"kind\": \"%s\", \"elements\": ", r->render_width, r->render_height,
                    limit_kind_name(s->rt30.kind));
            vf_json_number(f, s->rt30.kind == VF_BENCH_LIMIT_UNKNOWN ? NAN : s->rt30.elements);
            if (s->rt30.kind == VF_BENCH_LIMIT_BETWEEN)
                fprintf(f, ", \"between\": [%.0f, %.0f]", s->rt30.lo, s->rt30.hi);
            fputs("}", f);
        } else {
            fputs("null", f);
        }
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
            jnum(f, "substeps_per_frame", z->substeps, true);
            jnum(f, "frame_dt", z->frame_dt, false);
            fprintf(f, ",\n       \"realtime\": {");
            jnum(f, "sim", z->rtf_sim, true);
            jnum(f, "render", z->rendered ? z->rtf_render : NAN, true);
            jnum(f, "render_s_per_frame", z->rendered ? z->render_s : NAN, true);
            jnum(f, "display30", z->rendered ? z->rtf30 : NAN, false);
            fprintf(f, "},\n       \"sim\": {");
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
                fprintf(f, "{");
                for (int m = 0, first = 1; m < VF_BENCH_PRESSURES; m++) {
                    if (!z->pressure_done[m])
                        continue;
                    fprintf(f, "%s\"%s\": {\"iterations\": %u, ", first ? "" : ", ", pressure_names[m],
                            z->pressure_iters[m]);
                    first = 0;
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
        fprintf(f, "]");
        if (s->model_counted) { /* --model: a frame recorded, not run */
            fprintf(f, ",\n     \"recorded_frame\": {\"elements\": %u, \"ran\": false, \"note\": ", VF_BENCH_MODEL_PARTICLES);
            vf_json_string(f, "recorded, not run: what runs taken from the largest benched size (substeps the GPU "
                              "chooses scaled by the cube root of the particle ratio)");
            fprintf(f, ",\n       ");
            vf_bench_work_json(&s->model_work, f);
            fprintf(f, "}");
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n  ]\n}\n");
}

/* ------------------------------------------------------------------ CSV */

void vf_bench_write_csv(const vf_bench_report *r, FILE *f)
{
    fprintf(f, "device,solver,scene,size,elements,substeps_per_frame,sim_gpu_ms,sim_fps,steps_per_second,render_fps,"
               "pass,kind,pass_ms,pass_gbps,render_path,frame_dt,rtf_sim,rtf_render,rtf30\n");
    for (uint32_t si = 0; si < r->solver_count; si++) {
        const vf_bench_solver *s = &r->solver[si];
        for (uint32_t zi = 0; zi < s->size_count; zi++) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits)
                continue;
            for (uint32_t pi = 0; pi < z->pass_count; pi++) {
                const vf_bench_pass *p = &z->pass[pi];
                fprintf(f, "\"%s\",%s,%s,%llu,%llu,%.4g,%.6g,%.6g,%.6g,%.6g,%s,%s,%.6g,%.6g,%s,%.9g,%.6g,%.6g,%.6g\n",
                        r->device.name, s->solver, s->scene, (unsigned long long)z->size,
                        (unsigned long long)z->elements, z->substeps, z->sim_gpu_ms_median, z->sim_fps_median,
                        z->steps_per_second, z->rendered ? z->render_fps_median : 0.0, p->name,
                        p->render ? "render" : "sim", p->ms_median, p->gbps, z->rendered ? z->render_path : "",
                        z->frame_dt, z->rtf_sim, z->rtf_render, z->rtf30);
            }
        }
    }
}

/* ------------------------------------------------------------------ SVG */

static double log_pos(double v, double lo, double hi, double a, double b)
{
    return a + (log10(v) - log10(lo)) / (log10(hi) - log10(lo)) * (b - a);
}

/* The value a line plots at one size: 0 sim fps, 1 render fps, 2 rtf sim,
 * 3 rtf with rendering, 4 rtf30; 0 where it has none. */
static double svg_value(const vf_bench_size *z, int mode)
{
    if (!z->fits || (mode % 2 == 1 && !z->rendered) || (mode == 4 && !z->rendered))
        return 0.0;
    const double v[5] = {z->sim_fps_median, z->render_fps_median, z->rtf_sim, z->rtf_render, z->rtf30};
    return v[mode];
}

/* A marker with its value at every measured point of one mode's line (the
 * line alone hides where the measurements are). */
static void svg_markers(FILE *f, const vf_bench_solver *s, int mode, const char *colour, double xlo, double xhi,
                        double ylo, double yhi, double px0, double px1, double py0, double py1)
{
    for (uint32_t zi = 0; zi < s->size_count; zi++) {
        const vf_bench_size *z = &s->sizes[zi];
        double v = svg_value(z, mode);
        if (!(v > 0))
            continue;
        double x = log_pos((double)z->elements, xlo, xhi, px0, px1), y = log_pos(v, ylo, yhi, py0, py1);
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>", x, y, colour);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%.3g</text>\n", x + 6, y - 6, colour, v);
    }
}

/* One polyline (with its markers and legend entry `row`) of mode's values. */
static void svg_line(FILE *f, const vf_bench_solver *s, int mode, const char *colour, const char *label, int row,
                     double xlo, double xhi, double ylo, double yhi, double px0, double px1, double py0, double py1)
{
    static const char *const modes[5] = {"sim", "render", "rtf-sim", "rtf-render", "rtf30"};
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" data-mode=\"%s\" points=\"", colour, modes[mode]);
    for (uint32_t zi = 0; zi < s->size_count; zi++) {
        double v = svg_value(&s->sizes[zi], mode);
        if (v > 0)
            fprintf(f, "%.1f,%.1f ", log_pos((double)s->sizes[zi].elements, xlo, xhi, px0, px1),
                    log_pos(v, ylo, yhi, py0, py1));
    }
    fprintf(f, "\"/>\n");
    svg_markers(f, s, mode, colour, xlo, xhi, ylo, yhi, px0, px1, py0, py1);
    fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"3\" fill=\"%s\"/>", px0 + 12, py1 + 14 + 18 * row, colour);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", px0 + 32, py1 + 19 + 18 * row, label);
}

/* Log axes: the frame, decade grid lines and labels. */
static void svg_axes(FILE *f, double xlo, double xhi, double ylo, double yhi, double px0, double px1, double py0,
                     double py1, const char *xlabel, const char *ylabel)
{
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
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n", (px0 + px1) / 2, py0 + 40, xlabel);
    fprintf(f, "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">%s</text>\n",
            (py0 + py1) / 2, (py0 + py1) / 2, ylabel);
}

/* The value range (whole decades) of the given modes over s's sizes,
 * including at least [lo, hi]. */
static void svg_range(const vf_bench_solver *s, int mode0, int mode1, double *lo, double *hi)
{
    for (uint32_t zi = 0; zi < s->size_count; zi++)
        for (int m = mode0; m <= mode1; m++) {
            double v = svg_value(&s->sizes[zi], m);
            if (v > 0) {
                *lo = fmin(*lo, v);
                *hi = fmax(*hi, v);
            }
        }
    *lo = pow(10, floor(log10(*lo)));
    *hi = pow(10, ceil(log10(*hi) - 1e-9)); /* an exact decade stays the top */
    if (!(*hi > *lo))
        *hi = *lo * 10;
}

/* The real-time factor against size, log-log: simulation only, with
 * rendering and at a 30 fps display, with the real-time line at 1; height RH. */
static void svg_rtf_panel(FILE *f, const vf_bench_report *r, const vf_bench_solver *s, double y0, double xlo, double xhi,
                          double W, double L, double R, double RH)
{
    double ylo = 1, yhi = 1, px0 = L, px1 = W - R, py0 = y0 + RH - 60, py1 = y0 + 50;
    svg_range(s, 2, 4, &ylo, &yhi);
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">%s: real-time factor (simulated s per wall s)</text>\n", L,
            y0 + 28, s->solver);
    svg_axes(f, xlo, xhi, ylo, yhi, px0, px1, py0, py1, !strcmp(s->size_key, "particles") ? "particles" : "grid cells",
             "real-time factor");
    double y = log_pos(1.0, ylo, yhi, py0, py1);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\" stroke-dasharray=\"6 4\"/>\n", px0,
            y, px1, y);
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c33\" text-anchor=\"end\">1 = real time</text>\n", px1 - 4, y - 4);
    static const char *const colours[3] = {"#1f77b4", "#ff7f0e", "#2ca02c"};
    char label[3][64] = {"simulation only", "with rendering", ""};
    snprintf(label[2], sizeof label[2], "at a 30 fps display (%ux%u)", r->render_width, r->render_height);
    for (int k = 0; k < 3; k++)
        if (k == 0 || r->render_width)
            svg_line(f, s, 2 + k, colours[k], label[k], k, xlo, xhi, ylo, yhi, px0, px1, py0, py1);
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
    const double W = 760, FH = 380, RH = 320, BH = 240, PH = FH + RH + BH, L = 80, R = 30, T = 50, B = 60;
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
        for (uint32_t zi = 0; zi < s->size_count; zi++)
            if (s->sizes[zi].fits) {
                xlo = fmin(xlo, (double)s->sizes[zi].elements);
                xhi = fmax(xhi, (double)s->sizes[zi].elements);
            }
        if (!(xhi > 0)) {
            xlo = 1;
            xhi = 10;
        }
        xlo = pow(10, floor(log10(xlo)));
        xhi = pow(10, ceil(log10(xhi) - 1e-9)); /* an exact decade stays the top */
        if (!(xhi > xlo))
            xhi = xlo * 10;
        svg_range(s, 0, 1, &ylo, &yhi);
        double px0 = L, px1 = W - R, py0 = y0 + FH - B, py1 = y0 + T;
        svg_rtf_panel(f, r, s, y0 + FH, xlo, xhi, W, L, R, RH);
        svg_pass_bars(f, s, y0 + FH + RH, W, L, R, BH);
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"15\">%s (%s): frames per second against %s, %s</text>\n", L,
                y0 + 28, s->solver, s->scene, !strcmp(s->size_key, "particles") ? "particles" : "cells", r->device.name);
        svg_axes(f, xlo, xhi, ylo, yhi, px0, px1, py0, py1, !strcmp(s->size_key, "particles") ? "particles" : "grid cells",
                 "frames per second");
        for (int g = 30; g <= 60; g += 30) {
            double y = log_pos(g, ylo, yhi, py0, py1);
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\" stroke-dasharray=\"6 4\"/>\n",
                    px0, y, px1, y);
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#c33\" text-anchor=\"end\">%d fps</text>\n", px1 - 4, y - 4, g);
        }
        static const char *const colours[2] = {"#1f77b4", "#ff7f0e"};
        static const char *const labels[2] = {"simulation only", "with rendering"};
        for (int mode = 0; mode < 2; mode++)
            if (mode == 0 || r->render_width)
                svg_line(f, s, mode, colours[mode], labels[mode], mode, xlo, xhi, ylo, yhi, px0, px1, py0, py1);
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

/* The real-time factor's meaning and the largest size that keeps up at a
 * 30 fps display. */
static void print_realtime(const vf_bench_report *r, const vf_bench_solver *s, FILE *f)
{
    char text[160];
    fprintf(f, "  real-time factor (simulated s per wall s; a frame simulates frame_dt): rtf sim = sim fps x frame_dt, "
               "rtf+render = render fps x frame_dt, rtf30 = at a 30 fps display, simulating 1/30 s and rendering once "
               "per displayed frame\n");
    if (!r->render_width) {
        fprintf(f, "  the largest %s with rtf30 >= 1: not measured (--render none)\n", s->size_key);
        return;
    }
    vf_bench_limit_text(&s->rt30, text, sizeof text);
    fprintf(f, "  the largest %s with rtf30 >= 1 at %ux%u: %s\n", !strcmp(s->size_key, "particles") ? "particle count" : "size",
            r->render_width, r->render_height, text);
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
        if (isfinite(s->exponent))
            fprintf(f, "%s (%s), swept %s; fitted GPU cost ~ elements^%.2f\n", s->solver, s->scene, s->size_key,
                    s->exponent);
        else
            fprintf(f, "%s (%s), swept %s; GPU cost not fitted (fewer than two distinct sizes ran)\n", s->solver,
                    s->scene, s->size_key);
        fprintf(f, "  %12s %12s %9s %11s %10s %12s %11s %9s %11s %9s\n", "size", "elements", "substeps", "sim GPU ms",
                "sim fps", "steps/s", "render fps", "rtf sim", "rtf+render", "rtf30");
        for (uint32_t zi = 0; zi < s->size_count; zi++) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits) {
                fprintf(f, "  %12llu  does not fit: %s\n", (unsigned long long)z->size, z->why);
                continue;
            }
            char rfps[40] = "-", rr[16] = "-", r30[16] = "-";
            if (z->rendered) {
                snprintf(rfps, sizeof rfps, "%.4g (%s)", z->render_fps_median, z->render_path);
                snprintf(rr, sizeof rr, "%.3g", z->rtf_render);
                snprintf(r30, sizeof r30, "%.3g", z->rtf30);
            }
            fprintf(f, "  %12llu %12llu %9.4g %11.4g %10.4g %12.4g %11s %9.3g %11s %9s\n", (unsigned long long)z->size,
                    (unsigned long long)z->elements, z->substeps, z->sim_gpu_ms_median, z->sim_fps_median,
                    z->steps_per_second, rfps, z->rtf_sim, rr, r30);
        }
        print_realtime(r, s, f);
        /* per pass at the largest size that fits */
        for (int zi = (int)s->size_count - 1; zi >= 0; zi--) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits)
                continue;
            if (z->has_pressure) {
                fprintf(f, "  pressure solve from zero at %llu:", (unsigned long long)z->size);
                for (int m = 0, first = 1; m < VF_BENCH_PRESSURES; m++)
                    if (z->pressure_done[m]) {
                        fprintf(f, "%s %s x%u %.3f ms, residual x %.2e (%.3g digits/ms)", first ? "" : ";",
                                pressure_names[m], z->pressure_iters[m], z->pressure_ms[m], z->pressure_reduction[m],
                                z->pressure_digits_per_ms[m]);
                        first = 0;
                    }
                fprintf(f, "\n");
            }
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

/* The neighbour passes run per simulated second of solver si at elements
 * (a benched size, or the --model recorded frame); 0: none there. */
static double neighbour_rate(const vf_bench_report *r, uint32_t si, double elements)
{
    const vf_bench_solver *s = &r->solver[si];
    const vf_bench_work *w = NULL;
    for (uint32_t zi = 0; zi < s->size_count; zi++)
        if (s->sizes[zi].fits && (double)s->sizes[zi].elements == elements)
            w = &s->sizes[zi].work;
    if (!w && s->model_counted && elements == VF_BENCH_MODEL_PARTICLES)
        w = &s->model_work;
    vf_bench_rates sec;
    if (!w)
        return 0.0;
    vf_bench_work_rates_of(w, true, &sec);
    return sec.neighbour_passes_run;
}

/* For each particle count with wcsph and another SPH method (the benched
 * sizes, then the --model recorded frame): how many times fewer neighbour
 * passes per simulated second the others run. */
static void print_neighbour_ratios(const vf_bench_report *r, FILE *f)
{
    int wc = -1;
    for (uint32_t si = 0; si < r->solver_count; si++)
        if (!strcmp(r->solver[si].solver, "wcsph"))
            wc = (int)si;
    if (wc < 0)
        return;
    const vf_bench_solver *w = &r->solver[wc];
    double counts[VF_BENCH_MAX_SIZES + 1];
    uint32_t n = 0;
    bool model_benched = false;
    for (uint32_t zi = 0; zi < w->size_count; zi++)
        if (w->sizes[zi].fits) {
            counts[n++] = (double)w->sizes[zi].elements;
            model_benched |= w->sizes[zi].elements == VF_BENCH_MODEL_PARTICLES;
        }
    if (w->model_counted && !model_benched)
        counts[n++] = VF_BENCH_MODEL_PARTICLES;
    for (uint32_t k = 0; k < n; k++) {
        double base = neighbour_rate(r, (uint32_t)wc, counts[k]);
        bool any = false;
        for (uint32_t si = 0; si < r->solver_count && base > 0; si++) {
            double o = si == (uint32_t)wc || strcmp(r->solver[si].size_key, "particles") ? 0.0
                                                                                         : neighbour_rate(r, si, counts[k]);
            if (!(o > 0))
                continue;
            if (!any)
                fprintf(f, "  neighbour passes run per simulated second at %.0f%s: wcsph %.4g", counts[k],
                        w->model_counted && !model_benched && k == n - 1 ? "* (recorded frame, estimated run)" : "",
                        base);
            fprintf(f, "; %s %.4g (%.3gx fewer)", r->solver[si].solver, o, base / o);
            any = true;
        }
        if (any)
            fprintf(f, "\n");
    }
}

void vf_bench_print_work(const vf_bench_report *r, FILE *f)
{
    char size[32];
    vf_bench_work_print_header(f);
    for (uint32_t si = 0; si < r->solver_count; si++)
        for (uint32_t zi = 0; zi < r->solver[si].size_count; zi++)
            if (r->solver[si].sizes[zi].fits)
                vf_bench_work_print_row(&r->solver[si].sizes[zi].work, r->solver[si].solver, r->solver[si].sizes[zi].size,
                                        f);
    fprintf(f, "\n");
    vf_bench_work_print_rates_header(f);
    bool recorded = false;
    for (uint32_t si = 0; si < r->solver_count; si++) {
        const vf_bench_solver *s = &r->solver[si];
        for (uint32_t zi = 0; zi < s->size_count; zi++)
            if (s->sizes[zi].fits) {
                snprintf(size, sizeof size, "%llu", (unsigned long long)s->sizes[zi].size);
                vf_bench_work_print_rates_row(&s->sizes[zi].work, s->solver, size, f);
            }
        if (s->model_counted) {
            snprintf(size, sizeof size, "%u*", VF_BENCH_MODEL_PARTICLES);
            vf_bench_work_print_rates_row(&s->model_work, s->solver, size, f);
            recorded = true;
        }
    }
    if (recorded)
        fprintf(f, "  %u*: a frame recorded, not run (--model): its run columns take the substeps the GPU chooses "
                   "(dfsph) scaled from the largest benched size by the cube root of the particle ratio, and the "
                   "iterations and neighbour passes per substep measured there (an estimate)\n",
                VF_BENCH_MODEL_PARTICLES);
    print_neighbour_ratios(r, f);
    fprintf(f, "\n");
}

/* ------------------------------------------------------------------ README table */

void vf_bench_write_table(const vf_bench_report *r, FILE *f)
{
    fprintf(f, "Measured on %s (%s), %u frames x %u repeats, render %s. Real-time factor (rtf): simulated seconds "
               "per wall second; rtf30: at a 30 fps display, rendering once per displayed frame.\n\n",
            r->device.name, r->date, r->frames, r->repeat, r->render_width ? "on" : "off");
    fprintf(f, "| solver | scene | size | substeps a frame | sim fps | fps with render | rtf | rtf with render | rtf30 |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
    for (uint32_t si = 0; si < r->solver_count; si++) {
        const vf_bench_solver *s = &r->solver[si];
        for (uint32_t zi = 0; zi < s->size_count; zi++) {
            const vf_bench_size *z = &s->sizes[zi];
            if (!z->fits)
                continue;
            if (z->rendered)
                fprintf(f, "| %s | %s | %llu | %.4g | %.4g | %.4g | %.3g | %.3g | %.3g |\n", s->solver, s->scene,
                        (unsigned long long)z->size, z->substeps, z->sim_fps_median, z->render_fps_median, z->rtf_sim,
                        z->rtf_render, z->rtf30);
            else
                fprintf(f, "| %s | %s | %llu | %.4g | %.4g | - | %.3g | - | - |\n", s->solver, s->scene,
                        (unsigned long long)z->size, z->substeps, z->sim_fps_median, z->rtf_sim);
        }
    }
    if (r->render_width) {
        fprintf(f, "\nThe largest count with rtf30 >= 1 at %ux%u (interpolated between the benched sizes):\n\n",
                r->render_width, r->render_height);
        for (uint32_t si = 0; si < r->solver_count; si++) {
            char text[160];
            vf_bench_limit_text(&r->solver[si].rt30, text, sizeof text);
            fprintf(f, "- %s: %s\n", r->solver[si].solver, text);
        }
    }
}

/* ------------------------------------------------------------------ files */

vf_result vf_bench_write_file(const vf_bench_report *r, vf_bench_file kind, const char *path)
{
    static void (*const writers[])(const vf_bench_report *, FILE *) = {
        [VF_BENCH_FILE_CSV] = vf_bench_write_csv,           [VF_BENCH_FILE_JSON] = vf_bench_write_json,
        [VF_BENCH_FILE_SVG] = vf_bench_write_svg,           [VF_BENCH_FILE_WORK_CSV] = vf_bench_write_work_csv,
        [VF_BENCH_FILE_TABLE] = vf_bench_write_table,
    };
    if ((unsigned)kind >= sizeof writers / sizeof writers[0])
        return VF_ERR_INVALID_ARG;
    vf_file file;
    vf_result res = vf_file_begin(&file, path);
    if (res != VF_OK)
        return res;
    writers[kind](r, file.f);
    return vf_file_commit(&file);
}

vf_result vf_bench_write(const vf_bench_report *r, const char *dir)
{
    static const char *const names[5] = {"bench.csv", "bench.json", "bench.svg", "work.csv", "table.md"};
    for (int i = 0; i < 5; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        vf_result res = vf_bench_write_file(r, (vf_bench_file)i, path);
        if (res != VF_OK)
            return res;
    }
    return VF_OK;
}
