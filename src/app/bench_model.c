#include "bench_model.h"
#include "fileio.h"

#include "text.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Reads a small text file whole (at most 64 KiB); NULL when it cannot. */
static char *read_small(const char *path, size_t *size)
{
    int why;
    FILE *f = vf_open_regular(path, &why); /* a FIFO or device is refused, never waited on */
    if (!f)
        return NULL;
    char *buf = malloc(65536 + 1);
    size_t n = buf ? fread(buf, 1, 65536 + 1, f) : 0;
    bool ok = buf && !ferror(f) && n <= 65536;
    fclose(f);
    if (!ok) {
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    *size = n;
    return buf;
}

static vf_result load_one(const char *path, vf_bench_model *m, char *err, size_t cap)
{
    size_t size = 0;
    char *text = read_small(path, &size);
    if (!text) {
        snprintf(err, cap, "%s: cannot read the device file (or it is over 64 KiB)", path);
        return VF_ERR_IO;
    }
    cJSON *root = cJSON_ParseWithLength(text, size);
    free(text);
    vf_result res = VF_ERR_INVALID_ARG;
    memset(m, 0, sizeof *m);
    snprintf(m->file, sizeof m->file, "%s", path);
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    const cJSON *bw = cJSON_GetObjectItemCaseSensitive(root, "bandwidth_gbps");
    const cJSON *bws = cJSON_GetObjectItemCaseSensitive(root, "bandwidth_source");
    const cJSON *lat = cJSON_GetObjectItemCaseSensitive(root, "dispatch_latency_us");
    const cJSON *lats = cJSON_GetObjectItemCaseSensitive(root, "latency_source");
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "device");
    const cJSON *nb = cJSON_GetObjectItemCaseSensitive(root, "neighbour_ns");
    const cJSON *nbs = cJSON_GetObjectItemCaseSensitive(root, "neighbour_source");
    const cJSON *nm = cJSON_GetObjectItemCaseSensitive(root, "neighbour_min_us");
    const cJSON *nms = cJSON_GetObjectItemCaseSensitive(root, "neighbour_min_source");
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(root, "neighbour_pass_scale");
    const cJSON *pss = cJSON_GetObjectItemCaseSensitive(root, "neighbour_pass_scale_source");
    const char *bad_scale = NULL; /* the first kernel whose scale is no number in (0, 100] or too many */
    if (cJSON_IsObject(ps)) {
        const cJSON *e;
        uint32_t k = 0;
        cJSON_ArrayForEach(e, ps)
        {
            if (!bad_scale && (!cJSON_IsNumber(e) || !(e->valuedouble > 0) || e->valuedouble > 100 ||
                               strlen(e->string) >= sizeof m->pass_scale[0].kernel || k >= VF_BENCH_MODEL_MAX_SCALES))
                bad_scale = e->string;
            k++;
        }
    }
    if (!cJSON_IsObject(root))
        snprintf(err, cap, "%s: not a JSON object: see bench/models/ for the format", path);
    else if (!cJSON_IsString(name))
        snprintf(err, cap, "%s: key name: must be a string (the device's name)", path);
    else if (!cJSON_IsNumber(bw) || !(bw->valuedouble >= 0) || bw->valuedouble > 1e6)
        snprintf(err, cap, "%s: key bandwidth_gbps: must be a number in 0..1e6 (GB/s; 0 = the measured copy bandwidth)",
                 path);
    else if (!cJSON_IsString(bws) || !bws->valuestring[0])
        snprintf(err, cap, "%s: key bandwidth_source: must say where the bandwidth comes from", path);
    else if (!cJSON_IsNumber(lat) || !(lat->valuedouble > 0) || lat->valuedouble > 1e6)
        snprintf(err, cap, "%s: key dispatch_latency_us: must be a number in (0, 1e6] (microseconds)", path);
    else if (!cJSON_IsString(lats) || !lats->valuestring[0])
        snprintf(err, cap, "%s: key latency_source: must say where the latency comes from", path);
    else if (nb && (!cJSON_IsNumber(nb) || !(nb->valuedouble >= 0) || nb->valuedouble > 1e6))
        snprintf(err, cap, "%s: key neighbour_ns: must be a number in 0..1e6 (nanoseconds per particle per neighbour "
                           "pass), or left out", path);
    else if (nb && (!cJSON_IsString(nbs) || !nbs->valuestring[0]))
        snprintf(err, cap, "%s: key neighbour_source: must say where neighbour_ns comes from", path);
    else if (nm && (!cJSON_IsNumber(nm) || !(nm->valuedouble >= 0) || nm->valuedouble > 1e6))
        snprintf(err, cap, "%s: key neighbour_min_us: must be a number in 0..1e6 (microseconds: the least time of a "
                           "neighbour pass), or left out", path);
    else if (nm && (!cJSON_IsString(nms) || !nms->valuestring[0]))
        snprintf(err, cap, "%s: key neighbour_min_source: must say where neighbour_min_us comes from", path);
    else if (ps && (!cJSON_IsObject(ps) || bad_scale))
        snprintf(err, cap,
                 "%s: key neighbour_pass_scale%s%s: must be an object of at most %d kernels (shader file names, as in "
                 "work.csv) to numbers in (0, 100], or left out",
                 path, bad_scale ? "." : "", bad_scale ? bad_scale : "", VF_BENCH_MODEL_MAX_SCALES);
    else if (ps && (!cJSON_IsString(pss) || !pss->valuestring[0]))
        snprintf(err, cap, "%s: key neighbour_pass_scale_source: must say where neighbour_pass_scale comes from", path);
    else if (dev && (!cJSON_IsString(dev) || !dev->valuestring[0] || strlen(dev->valuestring) >= sizeof m->device))
        snprintf(err, cap,
                 "%s: key device: must be a part of the Vulkan device name the file describes (1 to %zu characters), "
                 "or left out",
                 path, sizeof m->device - 1);
    else {
        if (dev)
            snprintf(m->device, sizeof m->device, "%s", dev->valuestring);
        snprintf(m->name, sizeof m->name, "%s", name->valuestring);
        snprintf(m->bandwidth_source, sizeof m->bandwidth_source, "%s", bws->valuestring);
        snprintf(m->latency_source, sizeof m->latency_source, "%s", lats->valuestring);
        m->bandwidth_gbps = bw->valuedouble;
        m->latency_us = lat->valuedouble;
        if (nb) {
            m->neighbour_ns = nb->valuedouble;
            snprintf(m->neighbour_source, sizeof m->neighbour_source, "%s", nbs->valuestring);
        }
        if (ps) {
            const cJSON *e;
            cJSON_ArrayForEach(e, ps)
            {
                snprintf(m->pass_scale[m->pass_scales].kernel, sizeof m->pass_scale[0].kernel, "%s", e->string);
                m->pass_scale[m->pass_scales++].scale = e->valuedouble;
            }
            snprintf(m->pass_scale_source, sizeof m->pass_scale_source, "%s", pss->valuestring);
        }
        if (nm) {
            m->neighbour_min_us = nm->valuedouble;
            snprintf(m->neighbour_min_source, sizeof m->neighbour_min_source, "%s", nms->valuestring);
        }
        res = VF_OK;
    }
    cJSON_Delete(root);
    return res;
}

vf_result vf_bench_models_load(const char *dir, vf_bench_model *models, uint32_t max, uint32_t *count, char *err,
                               size_t cap)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, cap, "%s: cannot open the folder of device files: give --model DIR", dir);
        return VF_ERR_IO;
    }
    char *names[VF_BENCH_MAX_MODELS];
    uint32_t n = 0;
    struct dirent *e;
    vf_result res = VF_OK;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json"))
            continue;
        if (n >= max || n >= VF_BENCH_MAX_MODELS) {
            snprintf(err, cap, "%s: more than %u device files: keep at most %u", dir, max, max);
            res = VF_ERR_INVALID_ARG;
            break;
        }
        if (!(names[n] = malloc(len + 1))) {
            res = VF_ERR_NO_MEMORY;
            break;
        }
        memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_name);
    for (uint32_t i = 0; i < n && res == VF_OK; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if ((res = load_one(path, &models[i], err, cap)) == VF_OK)
            (*count)++;
    }
    for (uint32_t i = 0; i < n; i++)
        free(names[i]);
    if (res == VF_OK && *count == 0) {
        snprintf(err, cap, "%s: no *.json device files", dir);
        res = VF_ERR_INVALID_ARG;
    }
    return res;
}

static double dispatch_ms(double bytes, double gbps, double latency_us)
{
    double bw_ms = gbps > 0 ? bytes / (gbps * 1e9) * 1e3 : 0.0;
    return fmax(bw_ms, latency_us * 1e-3);
}

/* The scale of neighbour_ns for kernel name (1 when the file gives none). */
static double pass_scale(const vf_bench_model *m, const char *name)
{
    for (uint32_t k = 0; k < m->pass_scales; k++)
        if (!strcmp(m->pass_scale[k].kernel, name))
            return m->pass_scale[k].scale;
    return 1.0;
}

double vf_bench_model_substep_ms(const vf_bench_model *m, const vf_bench_work *w, double peak_gbps)
{
    if (!w->counted)
        return 0.0;
    double gbps = m->bandwidth_gbps > 0 ? m->bandwidth_gbps : peak_gbps;
    double ms = 0.0, latency_ms = m->latency_us * 1e-3;
    for (uint32_t k = 0; k < w->kernel_count; k++) {
        const vf_bench_kernel *kc = &w->kernel[k];
        if (!(kc->dispatches > 0))
            continue;
        double run = kc->dispatches * vf_bench_work_run_share(w, kc);
        double one = dispatch_ms(kc->bytes / kc->dispatches, gbps, m->latency_us);
        if (kc->neighbours)
            one = fmax(one, fmax(w->elements * m->neighbour_ns * pass_scale(m, kc->name) * 1e-6,
                                 m->neighbour_min_us * 1e-3));
        ms += run * one + (kc->dispatches - run) * latency_ms;
    }
    return ms;
}

double vf_bench_model_render_ms(const vf_bench_model *m, const vf_bench_work *w, double peak_gbps)
{
    if (!w->render_counted)
        return 0.0;
    double gbps = m->bandwidth_gbps > 0 ? m->bandwidth_gbps : peak_gbps;
    if (w->render_kernel_count == 0) {
        double passes = w->render_dispatches + w->render_draws;
        /* each pass at least the latency; all of them at least the bytes of the
         * compute passes and the minimum (particles read, target written) */
        double bytes = fmax(w->render_bytes, w->render_min_bytes);
        return fmax(passes * m->latency_us * 1e-3, gbps > 0 ? bytes / (gbps * 1e9) * 1e3 : 0.0);
    }
    /* per pass as per kernel: each dispatch or draw max(bytes / bandwidth,
     * latency); the atomics on the accumulators as a 32-byte memory
     * transaction each (an L2 sector); rasterisation itself is not modelled */
    double ms = 0.0;
    for (uint32_t k = 0; k < w->render_kernel_count; k++) {
        const vf_bench_kernel *kc = &w->render_kernel[k];
        double calls = kc->dispatches + kc->draws;
        if (calls > 0)
            ms += calls * dispatch_ms(kc->bytes / calls, gbps, m->latency_us);
    }
    if (w->render_gpu_counted && gbps > 0)
        ms += w->render_atomics * VF_BENCH_MODEL_ATOMIC_BYTES / (gbps * 1e9) * 1e3;
    return ms;
}

/* The render of the dam break's first frame at the model's size on both
 * paths: the work counted on this device, the time predicted per device
 * file (the raster path's a lower bound: its rasteriser is not modelled). */
static void print_model_render(const vf_bench_report *r, const vf_bench_model *models, uint32_t count, FILE *f)
{
    static const char *const paths[2] = {"compute", "raster"};
    if (!r->model_render_counted[0] && !r->model_render_counted[1]) {
        if (r->model_render_why[0])
            fprintf(f, "  render of %u particles at %ux%u: not counted: %s\n", VF_BENCH_MODEL_PARTICLES, VF_BENCH_MODEL_WIDTH,
                    VF_BENCH_MODEL_HEIGHT, r->model_render_why);
        return;
    }
    fprintf(f, "  render of the dam break's first frame, %u particles at %ux%u (work counted on this device, times "
               "PREDICTED):\n", VF_BENCH_MODEL_PARTICLES, VF_BENCH_MODEL_WIDTH, VF_BENCH_MODEL_HEIGHT);
    for (int k = 0; k < 2; k++) {
        const vf_bench_work *w = &r->model_render[k];
        if (!r->model_render_counted[k])
            continue;
        fprintf(f, "    %-8s %.0f dispatches, %.0f draws, %.0f barriers, %.4g bytes", paths[k], w->render_dispatches,
                w->render_draws, w->render_barriers, w->render_bytes + w->render_draw_bytes);
        if (w->render_gpu_counted)
            fprintf(f, ", %.4g pixels tested, %.4g atomics", w->render_pixels_tested, w->render_atomics);
        fprintf(f, "\n");
    }
    fprintf(f, "    %-34s %18s %26s\n", "device file", "pred compute ms", "pred raster ms (lower bound)");
    for (uint32_t mi = 0; mi < count; mi++) {
        char c[32] = "-", ra[32] = "-";
        if (r->model_render_counted[0])
            snprintf(c, sizeof c, "%.3f", vf_bench_model_render_ms(&models[mi], &r->model_render[0], r->peak_copy_gbps));
        if (r->model_render_counted[1])
            snprintf(ra, sizeof ra, ">= %.3f", vf_bench_model_render_ms(&models[mi], &r->model_render[1], r->peak_copy_gbps));
        fprintf(f, "    %-34.34s %18s %26s\n", models[mi].name, c, ra);
    }
}

/* One prediction: a frame of work w (its render at the benched size when
 * rendered) and, with r1080 (may be NULL), the real-time factor at a 30 fps
 * display with that render. */
typedef struct prediction {
    double substep_ms, frame_ms, render_ms; /* render_ms < 0: not rendered */
    double rtf_sim, rtf_render, rtf30;      /* rtf_render, rtf30 < 0: unknown */
} prediction;

static prediction predict(const vf_bench_model *m, const vf_bench_work *w, const vf_bench_work *r1080, double peak)
{
    prediction p = {.render_ms = -1, .rtf_render = -1, .rtf30 = -1};
    p.substep_ms = vf_bench_model_substep_ms(m, w, peak);
    p.frame_ms = p.substep_ms * (w->frames > 0 ? w->substeps / w->frames : 0.0);
    p.rtf_sim = p.frame_ms > 0 ? w->frame_dt / (p.frame_ms * 1e-3) : 0.0;
    if (w->render_counted) {
        p.render_ms = vf_bench_model_render_ms(m, w, peak);
        p.rtf_render = p.frame_ms + p.render_ms > 0 ? w->frame_dt / ((p.frame_ms + p.render_ms) * 1e-3) : 0.0;
    }
    if (r1080 && r1080->render_counted)
        p.rtf30 = vf_bench_rtf30(p.rtf_sim, vf_bench_model_render_ms(m, r1080, peak) * 1e-3);
    return p;
}

static void print_prediction_row(const vf_bench_solver *s, const char *size, const prediction *p,
                                 const vf_bench_size *measured, FILE *f)
{
    char rfps[32] = "-", rr[32] = "-", r30[32] = "-";
    if (p->render_ms >= 0 && p->frame_ms + p->render_ms > 0) {
        snprintf(rfps, sizeof rfps, "%.1f", 1e3 / (p->frame_ms + p->render_ms));
        snprintf(rr, sizeof rr, "%.3g", p->rtf_render);
    }
    if (p->rtf30 >= 0)
        snprintf(r30, sizeof r30, "%.3g", p->rtf30);
    fprintf(f, "    %-7s %10s %16.4g %16.4g %16.1f %14s %9.3g %11s %14s", s->solver, size, p->substep_ms, p->frame_ms,
            p->frame_ms > 0 ? 1e3 / p->frame_ms : 0.0, rfps, p->rtf_sim, rr, r30);
    if (measured)
        fprintf(f, " %16.4g %10.2f", measured->sim_gpu_ms_median,
                p->frame_ms > 0 ? measured->sim_gpu_ms_median / p->frame_ms : 0.0);
    fprintf(f, "\n");
}

/* One model's rows for solver s: its benched sizes, then the recorded
 * frame at VF_BENCH_MODEL_PARTICLES, and the largest count that keeps the
 * predicted rtf30 >= 1. */
static void print_model_solver(const vf_bench_report *r, const vf_bench_model *m, const vf_bench_solver *s,
                               bool measured, FILE *f)
{
    double x[VF_BENCH_MAX_SIZES + 1], y[VF_BENCH_MAX_SIZES + 1];
    uint32_t n = 0;
    bool model_done = !s->model_counted;
    char size[32];
    for (uint32_t zi = 0; zi <= s->size_count; zi++) {
        const vf_bench_size *z = zi < s->size_count ? &s->sizes[zi] : NULL;
        if (!model_done && (!z || (z->fits && z->elements > VF_BENCH_MODEL_PARTICLES))) {
            /* the recorded frame, in its place among the sizes */
            prediction p = predict(m, &s->model_work, r->model_render_counted[0] ? &r->model_render[0] : NULL,
                                   r->peak_copy_gbps);
            snprintf(size, sizeof size, "%u*", VF_BENCH_MODEL_PARTICLES);
            print_prediction_row(s, size, &p, NULL, f);
            x[n] = VF_BENCH_MODEL_PARTICLES;
            y[n++] = p.rtf30;
            model_done = true;
        }
        if (!z || !z->fits || !z->work.counted)
            continue;
        if (z->elements == VF_BENCH_MODEL_PARTICLES)
            model_done = true; /* measured there: no recorded frame needed */
        prediction p = predict(m, &z->work, z->model_render_counted ? &z->model_render : NULL, r->peak_copy_gbps);
        snprintf(size, sizeof size, "%llu", (unsigned long long)z->size);
        print_prediction_row(s, size, &p, measured ? z : NULL, f);
        x[n] = (double)z->elements;
        y[n++] = p.rtf30;
    }
    vf_bench_limit l = vf_bench_largest(x, y, n);
    char text[160];
    vf_bench_limit_text(&l, text, sizeof text);
    fprintf(f, "    %-7s the largest %s with rtf30 >= 1 at %ux%u (PREDICTED): %s\n", s->solver,
            !strcmp(s->size_key, "particles") ? "particle count" : "element count", VF_BENCH_MODEL_WIDTH,
            VF_BENCH_MODEL_HEIGHT, text);
}

void vf_bench_print_model(const vf_bench_report *r, const vf_bench_model *models, uint32_t count, FILE *f)
{
    fprintf(f, "PREDICTIONS of the roofline model (not measurements): time per kernel dispatch = max(bytes / bandwidth, "
               "latency, neighbour pass: particles x neighbour_ns x the kernel's scale and neighbour_min_us), summed over the counted work; a recorded dispatch "
               "that ran with 0 workgroups (a substep or iteration the GPU skipped) at the latency\n");
    fprintf(f, "  rtf: predicted simulated s per wall s without rendering, with the benched render, and rtf30 at a "
               "30 fps display with a %ux%u render (compute path)\n", VF_BENCH_MODEL_WIDTH, VF_BENCH_MODEL_HEIGHT);
    for (uint32_t si = 0; si < r->solver_count; si++)
        if (r->solver[si].model_counted) {
            fprintf(f, "  %u*: a frame recorded (not run) at that size; where the GPU chose the substeps (dfsph), the "
                       "substeps that run scale from the largest benched size by the cube root of the particle ratio "
                       "and the iterations and neighbour passes per substep are those measured there (an assumption)\n",
                    VF_BENCH_MODEL_PARTICLES);
            break;
        }
    for (uint32_t mi = 0; mi < count; mi++) {
        const vf_bench_model *m = &models[mi];
        double gbps = m->bandwidth_gbps > 0 ? m->bandwidth_gbps : r->peak_copy_gbps;
        fprintf(f, "  %s: %.0f GB/s (%s); %.3g us per dependent dispatch (%s)\n", m->name, gbps, m->bandwidth_source,
                m->latency_us, m->latency_source);
        if (m->neighbour_source[0])
            fprintf(f, "    %.3g ns per particle per neighbour pass (%s)\n", m->neighbour_ns, m->neighbour_source);
        if (m->pass_scales) {
            fprintf(f, "    neighbour_ns times");
            for (uint32_t k = 0; k < m->pass_scales; k++)
                fprintf(f, "%s %.3g for %s", k ? "," : "", m->pass_scale[k].scale, m->pass_scale[k].kernel);
            fprintf(f, ", 1 for the other neighbour passes (%s)\n", m->pass_scale_source);
        }
        if (m->neighbour_min_source[0])
            fprintf(f, "    at least %.3g us per neighbour pass (%s)\n", m->neighbour_min_us, m->neighbour_min_source);
        if (!m->neighbour_source[0])
            fprintf(f, "    no neighbour_ns in its file: the neighbour term is 0 (neighbour passes by bytes and latency "
                       "alone)\n");
        fprintf(f, "    %-7s %10s %16s %16s %16s %14s %9s %11s %14s", "solver", "size", "pred ms/substep",
                "pred ms/frame", "pred fps (sim)", "pred fps+render", "pred rtf", "pred rtf+ren", "pred rtf30 1080p");
        bool measured = m->device[0] && vf_text_icontains(r->device.name, m->device);
        if (measured)
            fprintf(f, " %16s %10s", "measured ms/frm", "meas/pred");
        fprintf(f, "\n");
        for (uint32_t si = 0; si < r->solver_count; si++)
            print_model_solver(r, m, &r->solver[si], measured, f);
    }
    print_model_render(r, models, count, f);
    fprintf(f, "\n");
}
