#include "bench_model.h"

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
    FILE *f = fopen(path, "rb");
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

double vf_bench_model_substep_ms(const vf_bench_model *m, const vf_bench_work *w, double peak_gbps)
{
    if (!w->counted)
        return 0.0;
    double gbps = m->bandwidth_gbps > 0 ? m->bandwidth_gbps : peak_gbps;
    double ms = 0.0;
    for (uint32_t k = 0; k < w->kernel_count; k++) {
        const vf_bench_kernel *kc = &w->kernel[k];
        if (kc->dispatches > 0)
            ms += kc->dispatches * dispatch_ms(kc->bytes / kc->dispatches, gbps, m->latency_us);
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

void vf_bench_print_model(const vf_bench_report *r, const vf_bench_model *models, uint32_t count, FILE *f)
{
    fprintf(f, "PREDICTIONS of the roofline model (not measurements): time per kernel dispatch = max(bytes / bandwidth, "
               "latency), summed over the counted work\n");
    for (uint32_t mi = 0; mi < count; mi++) {
        const vf_bench_model *m = &models[mi];
        double gbps = m->bandwidth_gbps > 0 ? m->bandwidth_gbps : r->peak_copy_gbps;
        fprintf(f, "  %s: %.0f GB/s (%s); %.3g us per dependent dispatch (%s)\n", m->name, gbps, m->bandwidth_source,
                m->latency_us, m->latency_source);
        fprintf(f, "    %-7s %10s %16s %16s %16s %14s", "solver", "size", "pred ms/substep", "pred ms/frame",
                "pred fps (sim)", "pred fps+render");
        bool measured = m->device[0] && vf_text_icontains(r->device.name, m->device);
        if (measured)
            fprintf(f, " %16s %10s", "measured ms/frm", "meas/pred");
        fprintf(f, "\n");
        for (uint32_t si = 0; si < r->solver_count; si++) {
            const vf_bench_solver *s = &r->solver[si];
            for (uint32_t zi = 0; zi < s->size_count; zi++) {
                const vf_bench_size *z = &s->sizes[zi];
                if (!z->fits || !z->work.counted)
                    continue;
                double sub = vf_bench_model_substep_ms(m, &z->work, r->peak_copy_gbps);
                double frame = sub * z->substeps, ren = vf_bench_model_render_ms(m, &z->work, r->peak_copy_gbps);
                char rfps[32] = "-";
                if (z->work.render_counted && frame + ren > 0)
                    snprintf(rfps, sizeof rfps, "%.1f", 1e3 / (frame + ren));
                fprintf(f, "    %-7s %10llu %16.4g %16.4g %16.1f %14s", s->solver, (unsigned long long)z->size, sub, frame,
                        frame > 0 ? 1e3 / frame : 0.0, rfps);
                if (measured)
                    fprintf(f, " %16.4g %10.2f", z->sim_gpu_ms_median, frame > 0 ? z->sim_gpu_ms_median / frame : 0.0);
                fprintf(f, "\n");
            }
        }
    }
    print_model_render(r, models, count, f);
    fprintf(f, "\n");
}
