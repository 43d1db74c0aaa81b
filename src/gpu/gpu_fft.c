#include "gpu_fft.h"

#include <stdio.h>
#include <stdlib.h>

#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "text.h"
#include "vkfft_glue.h"

#define MAX_KERNELS 16

struct vf_fft {
    vf_gpu *gpu;
    uint32_t dims, size[3];
    vf_buffer *spectrum, *scratch;
    VkCommandPool pool;
    VkFence fence;
    vf_vkfft *plan[2];                       /* forward, inverse */
    vf_vkfft_kernel kernel[2][MAX_KERNELS];  /* in recording order */
    uint32_t kernels[2];
    uint64_t real_bytes, spectrum_bytes;
    char name[48];
};

uint32_t vf_fft_largest_prime(uint32_t n)
{
    uint32_t largest = 1;
    for (uint32_t p = 2; n > 1 && (uint64_t)p * p <= n; p++)
        while (n % p == 0) {
            largest = p;
            n /= p;
        }
    return n > 1 ? (n > largest ? n : largest) : largest;
}

uint32_t vf_fft_nearest_size(uint32_t n, bool even)
{
    for (uint32_t d = 0; d < n + 64; d++) {
        uint32_t c[2] = {n - (d <= n ? d : n), n + d};
        for (int k = 0; k < 2; k++)
            if (c[k] >= 2 && (!even || c[k] % 2 == 0) && vf_fft_largest_prime(c[k]) <= VF_FFT_MAX_PRIME)
                return c[k];
    }
    return even ? 2 : 1;
}

static uint64_t planes(uint32_t dims, const uint32_t size[3])
{
    return (uint64_t)size[1] * (dims > 2 ? size[2] : 1);
}

uint64_t vf_fft_real_bytes(uint32_t dims, const uint32_t size[3])
{
    return 2 * ((uint64_t)size[0] / 2 + 1) * planes(dims, size) * sizeof(float);
}

uint64_t vf_fft_spectrum_bytes(uint32_t dims, const uint32_t size[3])
{
    return ((uint64_t)size[0] / 2 + 1) * planes(dims, size) * 2 * sizeof(float);
}

uint64_t vf_fft_memory_bytes(uint32_t dims, const uint32_t size[3])
{
    /* spectrum, scratch of the same size, twiddle tables (a few complex
     * values per element of each axis, per plan) */
    uint64_t lut = 0;
    for (uint32_t a = 0; a < dims; a++)
        lut += 2 * 8 * (uint64_t)size[a] * 2 * sizeof(float);
    return 2 * vf_fft_spectrum_bytes(dims, size) + lut + 64 * 1024;
}

/* Names VkFFT's objects: `<name> vkfft forward x 0 pipeline`, ... */
static void name_kernels(vf_fft *f, uint32_t dir)
{
    static const char *const axes = "xyz";
    for (uint32_t k = 0; k < f->kernels[dir]; k++) {
        const vf_vkfft_kernel *q = &f->kernel[dir][k];
        char base[96], n[128];
        snprintf(base, sizeof base, "%s vkfft %s %c %u", f->name, dir ? "inverse" : "forward", axes[q->axis % 3],
                 q->upload);
        const struct {
            VkObjectType type;
            uint64_t handle;
            const char *what;
        } obj[] = {
            {VK_OBJECT_TYPE_PIPELINE, (uint64_t)q->pipeline, "pipeline"},
            {VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)q->layout, "pipeline layout"},
            {VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, (uint64_t)q->set_layout, "set layout"},
            {VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)q->pool, "descriptor pool"},
            {VK_OBJECT_TYPE_DESCRIPTOR_SET, (uint64_t)q->set, "descriptor set"},
            {VK_OBJECT_TYPE_BUFFER, (uint64_t)q->lut, "twiddles"},
            {VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)q->lut_memory, "twiddles memory"},
        };
        for (size_t o = 0; o < sizeof obj / sizeof obj[0]; o++)
            if (obj[o].handle) {
                snprintf(n, sizeof n, "%s %s", base, obj[o].what);
                vf_gpu_name(f->gpu, obj[o].type, obj[o].handle, n);
            }
    }
}

static vf_result make_plan(vf_fft *f, const vf_fft_desc *d, uint32_t dir, char *err, size_t cap)
{
    vf_buffer *real = dir ? d->real_out : d->real_in;
    vf_vkfft_desc vd = {
        .physical = f->gpu->physical,
        .device = f->gpu->device,
        .queue = f->gpu->queue,
        .pool = f->pool,
        .fence = f->fence,
        .dims = f->dims,
        .size = {f->size[0], f->size[1], f->dims > 2 ? f->size[2] : 1},
        .inverse = (int)dir,
        .real = real->buffer,
        .complex = f->spectrum->buffer,
        .temp = f->scratch->buffer,
        .real_bytes = f->real_bytes,
        .complex_bytes = f->spectrum_bytes,
        .temp_bytes = f->spectrum_bytes,
    };
    int code = vf_vkfft_create(&vd, &f->plan[dir]);
    if (code) {
        vf_set_err(err, cap, "VkFFT could not make the %s transform of %u x %u x %u: %s (VkFFT error %d)",
                   dir ? "inverse" : "forward", vd.size[0] > 0 ? (unsigned)vd.size[0] : 0u, (unsigned)vd.size[1],
                   (unsigned)vd.size[2], vf_vkfft_error_text(code), code);
        return code == 4025 || code == 4001 ? VF_ERR_OUT_OF_DEVICE_MEMORY : VF_ERR_VULKAN;
    }
    if (vf_vkfft_bluestein(f->plan[dir])) {
        vf_set_err(err, cap, "VkFFT planned Bluestein's algorithm for %u x %u x %u", (unsigned)vd.size[0],
                   (unsigned)vd.size[1], (unsigned)vd.size[2]);
        return VF_ERR_INVALID_ARG;
    }
    f->kernels[dir] = vf_vkfft_kernels(f->plan[dir], f->kernel[dir], MAX_KERNELS);
    if (f->kernels[dir] > MAX_KERNELS) {
        vf_set_err(err, cap, "VkFFT planned %u kernels for one transform (at most %d)", f->kernels[dir], MAX_KERNELS);
        return VF_ERR_UNSUPPORTED;
    }
    name_kernels(f, dir);
    return VF_OK;
}

static vf_result make_objects(vf_fft *f)
{
    char n[96];
    vf_buffer_desc bd = {.size = f->spectrum_bytes, .name = n};
    snprintf(n, sizeof n, "%s spectrum", f->name);
    vf_result res = vf_buffer_create(f->gpu, &bd, &f->spectrum);
    snprintf(n, sizeof n, "%s fft scratch", f->name);
    if (res == VF_OK)
        res = vf_buffer_create(f->gpu, &bd, &f->scratch);
    if (res != VF_OK)
        return res;
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = f->gpu->queue_family};
    if ((res = VF_VK(vkCreateCommandPool(f->gpu->device, &pi, NULL, &f->pool))) != VF_OK)
        return res;
    snprintf(n, sizeof n, "%s vkfft set-up pool", f->name);
    vf_gpu_name(f->gpu, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)f->pool, n);
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((res = VF_VK(vkCreateFence(f->gpu->device, &fi, NULL, &f->fence))) != VF_OK)
        return res;
    snprintf(n, sizeof n, "%s vkfft set-up fence", f->name);
    vf_gpu_name(f->gpu, VK_OBJECT_TYPE_FENCE, (uint64_t)f->fence, n);
    return VF_OK;
}

void vf_fft_destroy(vf_fft **pf)
{
    if (!pf || !*pf)
        return;
    vf_fft *f = *pf;
    for (int dir = 0; dir < 2; dir++)
        vf_vkfft_destroy(f->plan[dir]);
    if (f->fence)
        vkDestroyFence(f->gpu->device, f->fence, NULL);
    if (f->pool)
        vkDestroyCommandPool(f->gpu->device, f->pool, NULL);
    vf_buffer_destroy(&f->spectrum);
    vf_buffer_destroy(&f->scratch);
    free(f);
    *pf = NULL;
}

vf_result vf_fft_create(vf_gpu *gpu, const vf_fft_desc *d, vf_fft **out, char *err, size_t cap)
{
    *out = NULL;
    if (!d || (d->dims != 2 && d->dims != 3) || !d->real_in || !d->real_out) {
        vf_set_err(err, cap, "fft: 2 or 3 dimensions and both real buffers");
        return VF_ERR_INVALID_ARG;
    }
    for (uint32_t a = 0; a < d->dims; a++)
        if (d->size[a] < 2 || vf_fft_largest_prime(d->size[a]) > VF_FFT_MAX_PRIME) {
            vf_set_err(err, cap, "fft: size %u has the prime factor %u (at most %d): use %u", d->size[a],
                       vf_fft_largest_prime(d->size[a]), VF_FFT_MAX_PRIME, vf_fft_nearest_size(d->size[a], false));
            return VF_ERR_INVALID_ARG;
        }
    uint64_t real_bytes = vf_fft_real_bytes(d->dims, d->size);
    if (d->real_in->size < real_bytes || d->real_out->size < real_bytes) {
        vf_set_err(err, cap, "fft: the real buffers need %llu bytes", (unsigned long long)real_bytes);
        return VF_ERR_INVALID_ARG;
    }
    vf_fft *f;
    VF_NEW_OR_RETURN(f);
    f->gpu = gpu;
    f->dims = d->dims;
    for (uint32_t a = 0; a < 3; a++)
        f->size[a] = a < d->dims ? d->size[a] : 1;
    f->real_bytes = real_bytes;
    f->spectrum_bytes = vf_fft_spectrum_bytes(d->dims, d->size);
    snprintf(f->name, sizeof f->name, "%s", d->name ? d->name : "fft");
    vf_result res = make_objects(f);
    for (uint32_t dir = 0; dir < 2 && res == VF_OK; dir++)
        res = make_plan(f, d, dir, err, cap);
    if (res != VF_OK) {
        vf_fft_destroy(&f);
        return res;
    }
    *out = f;
    return VF_OK;
}

vf_buffer *vf_fft_spectrum(vf_fft *f)
{
    return f->spectrum;
}

uint32_t vf_fft_dispatches(const vf_fft *f, bool inverse)
{
    return f->kernels[inverse ? 1 : 0];
}

vf_result vf_fft_record(vf_fft *f, VkCommandBuffer cmd, bool inverse)
{
    uint32_t dir = inverse ? 1 : 0;
    int code = vf_vkfft_record(f->plan[dir], cmd);
    if (code)
        return VF_ERR_VULKAN;
    /* the accounting: each kernel binds its input and output (the real
     * field on the x axis's real side, else the spectrum or the scratch of
     * the same size) and its twiddle table */
    for (uint32_t k = 0; k < f->kernels[dir]; k++) {
        const vf_vkfft_kernel *q = &f->kernel[dir][k];
        bool real_side = q->axis == 0 && (dir ? k + 1 == f->kernels[dir] : k == 0);
        uint64_t bytes = (real_side ? f->real_bytes : f->spectrum_bytes) + f->spectrum_bytes + q->lut_bytes;
        vf_count_dispatch(f->gpu, dir ? "vkfft inverse" : "vkfft forward", bytes, false, false);
    }
    vf_count_barriers(f->gpu, f->kernels[dir]);
    /* VkFFT's barriers make its writes visible to reads only; the next pass
     * may write what it wrote */
    vf_cmd_barrier_on(f->gpu, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                      VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT);
    return VF_OK;
}
