#include "gpu_counters.h"

#include <stdio.h>
#include <string.h>

void vf_gpu_counters_reset(vf_gpu_counters *c)
{
    memset(c, 0, sizeof *c);
}

void vf_gpu_counters_attach(vf_gpu *gpu, vf_gpu_counters *c)
{
    gpu->counters = c;
}

/* The entry of kernel `name`, added when new; NULL when the table is full. */
static vf_kernel_count *kernel_entry(vf_gpu_counters *c, const char *name)
{
    if (!name)
        name = "(unnamed)";
    uint32_t k = 0;
    while (k < c->kernel_count && strncmp(c->kernel[k].name, name, sizeof c->kernel[k].name - 1))
        k++;
    if (k == c->kernel_count) {
        if (k >= VF_COUNTERS_MAX_KERNELS)
            return NULL;
        snprintf(c->kernel[k].name, sizeof c->kernel[k].name, "%s", name);
        c->kernel_count++;
    }
    return &c->kernel[k];
}

/* One dispatch (draw false) or draw pass of kernel `name` moving bytes. */
static void count_pass(const vf_gpu *gpu, const char *name, uint64_t bytes, bool draw, bool indirect,
                       bool neighbours)
{
    vf_gpu_counters *c = gpu ? gpu->counters : NULL;
    if (!c)
        return;
    if (draw) {
        c->draws++;
        c->draw_bytes += bytes;
    } else {
        c->dispatches++;
        c->neighbour_passes += neighbours;
        c->indirect_dispatches += indirect;
        c->bytes += bytes;
    }
    vf_kernel_count *k = kernel_entry(c, name);
    if (!k) {
        c->kernels_dropped++;
        return;
    }
    k->draws += draw;
    k->dispatches += !draw;
    k->bytes += bytes;
    if (!draw)
        k->neighbours = neighbours;
}

void vf_count_dispatch(const vf_gpu *gpu, const char *name, uint64_t bytes, bool indirect, bool neighbours)
{
    count_pass(gpu, name, bytes, false, indirect, neighbours);
}

void vf_count_draw_pass(const vf_gpu *gpu, const char *name, uint64_t bytes)
{
    count_pass(gpu, name, bytes, true, false, false);
}

void vf_count_draw(const vf_gpu *gpu)
{
    if (gpu && gpu->counters)
        gpu->counters->draws++;
}

void vf_count_barriers(const vf_gpu *gpu, uint32_t n)
{
    if (gpu && gpu->counters)
        gpu->counters->barriers += n;
}

void vf_count_submit(const vf_gpu *gpu)
{
    if (gpu && gpu->counters)
        gpu->counters->submits++;
}

const vf_kernel_count *vf_gpu_counters_kernel(const vf_gpu_counters *c, const char *name)
{
    for (uint32_t k = 0; k < c->kernel_count; k++)
        if (!strncmp(c->kernel[k].name, name, sizeof c->kernel[k].name - 1))
            return &c->kernel[k];
    return NULL;
}
