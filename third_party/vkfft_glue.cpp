/* Compiles Debian's VkFFT (libvkfft-dev 1.2.26, one header) for vkfluid's
 * Vulkan calls through volk, behind the C interface of vkfft_glue.h.
 *
 * Why C++: the header does not compile as C with GCC 12 or clang 14 (three
 * `VkCommandBuffer commandBuffer = {};`, an empty scalar initializer, which
 * only C23 allows), and as C++ it does not compile against Debian's glslang
 * 12 either: its two literal glslang_resource_t initialisers list the 93
 * limits of glslang 11, while glslang 12's struct has 9 more before the
 * nested `limits`, so the nested braces land on an int. Inside this file
 * the name glslang_resource_t, in the header's text only, stands for a
 * struct of the layout the initialisers list, whose address operator hands
 * glslang its own default limits (glslang_default_resource, the values the
 * header lists for the fields both versions have). Nothing of VkFFT is
 * copied here. */
#include "vkfft_glue.h"

#include <clocale>
#include <cstdlib>
#include <cstring>
#include <new>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>

namespace {
struct vkfft_listed_resource {
    int value[93];
    glslang_limits_t limits;
    const glslang_resource_t *operator&() const { return glslang_default_resource(); }
};
} // namespace

#define VKFFT_BACKEND 0
#define glslang_resource_t vkfft_listed_resource
#include <vkFFT.h>
#undef glslang_resource_t

struct vf_vkfft {
    VkFFTApplication app;
    VkFFTConfiguration config;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkFence fence;
    VkBuffer real, complex, temp;
    uint64_t real_bytes, complex_bytes, temp_bytes;
    int inverse;
};

extern "C" int vf_vkfft_create(const vf_vkfft_desc *d, vf_vkfft **out)
{
    *out = nullptr;
    vf_vkfft *p = new (std::nothrow) vf_vkfft();
    if (!p)
        return VKFFT_ERROR_MALLOC_FAILED;
    /* the configuration takes pointers: they point into the plan */
    p->physical = d->physical;
    p->device = d->device;
    p->queue = d->queue;
    p->pool = d->pool;
    p->fence = d->fence;
    p->real = d->real;
    p->complex = d->complex;
    p->temp = d->temp;
    p->real_bytes = d->real_bytes;
    p->complex_bytes = d->complex_bytes;
    p->temp_bytes = d->temp_bytes;
    p->inverse = d->inverse;
    VkFFTConfiguration &c = p->config;
    c.FFTdim = d->dims;
    uint64_t cx = d->size[0] / 2 + 1;
    for (int a = 0; a < 3; a++)
        c.size[a] = a < (int)d->dims ? d->size[a] : 1;
    c.physicalDevice = &p->physical;
    c.device = &p->device;
    c.queue = &p->queue;
    c.commandPool = &p->pool;
    c.fence = &p->fence;
    c.performR2C = 1;
    c.useLUT = 1; /* twiddles from a table computed in double precision: some devices' sin and cos are coarse */
    c.buffer = &p->complex;
    c.bufferSize = &p->complex_bytes;
    c.userTempBuffer = 1;
    c.tempBuffer = &p->temp;
    c.tempBufferSize = &p->temp_bytes;
    c.isInputFormatted = 1; /* the real data in its own, unpadded buffer */
    c.inputBuffer = &p->real;
    c.inputBufferSize = &p->real_bytes;
    c.bufferStride[0] = cx;
    c.bufferStride[1] = cx * c.size[1];
    c.bufferStride[2] = cx * c.size[1] * c.size[2];
    c.inputBufferStride[0] = c.size[0];
    c.inputBufferStride[1] = c.size[0] * c.size[1];
    c.inputBufferStride[2] = c.size[0] * c.size[1] * c.size[2];
    if (d->inverse) {
        c.makeInversePlanOnly = 1;
        c.inverseReturnToInputBuffer = 1;
    } else {
        c.makeForwardPlanOnly = 1;
    }
    /* VkFFT's shader generator keeps the pointer setlocale(LC_ALL, NULL)
     * returns, sets "C" and later restores that pointer; with a composite
     * locale (the viewer's: GLFW sets LC_CTYPE) the pointer is freed by
     * the first call, a use after free. So the plans are made with the
     * whole locale "C" (whose name is static) and the caller's comes back
     * from a copy. */
    const char *cur = setlocale(LC_ALL, NULL);
    char *saved = cur ? strdup(cur) : NULL;
    if (cur && !saved) {
        delete p;
        return VKFFT_ERROR_MALLOC_FAILED;
    }
    setlocale(LC_ALL, "C");
    VkFFTResult r = initializeVkFFT(&p->app, c);
    if (saved) {
        setlocale(LC_ALL, saved);
        free(saved);
    }
    if (r != VKFFT_SUCCESS) {
        delete p;
        return (int)r;
    }
    *out = p;
    return 0;
}

extern "C" int vf_vkfft_record(vf_vkfft *p, VkCommandBuffer cmd)
{
    VkFFTLaunchParams lp = {};
    lp.commandBuffer = &cmd;
    return (int)VkFFTAppend(&p->app, p->inverse ? 1 : -1, &lp);
}

static const VkFFTPlan *plan_of(const vf_vkfft *p)
{
    return p->inverse ? p->app.localFFTPlan_inverse : p->app.localFFTPlan;
}

static void put_kernel(const VkFFTAxis *a, uint32_t axis, uint32_t upload, vf_vkfft_kernel *out, uint32_t n,
                       uint32_t max)
{
    if (n >= max)
        return;
    out[n].pipeline = a->pipeline;
    out[n].layout = a->pipelineLayout;
    out[n].set_layout = a->descriptorSetLayout;
    out[n].pool = a->descriptorPool;
    out[n].set = a->descriptorSet;
    out[n].lut = a->referenceLUT ? VK_NULL_HANDLE : a->bufferLUT;
    out[n].lut_memory = a->referenceLUT ? VK_NULL_HANDLE : a->bufferLUTDeviceMemory;
    out[n].lut_bytes = a->referenceLUT ? 0 : a->bufferLUTSize;
    out[n].axis = axis;
    out[n].upload = upload;
}

extern "C" uint32_t vf_vkfft_kernels(const vf_vkfft *p, vf_vkfft_kernel *out, uint32_t max)
{
    const VkFFTPlan *plan = plan_of(p);
    uint32_t n = 0, dims = (uint32_t)p->config.FFTdim;
    if (!plan)
        return 0;
    /* the order of VkFFTAppend: forward x, (the separate R2C step), y, z;
     * inverse z, y, (R2C step), x; an axis's uploads last to first forward */
    for (uint32_t k = 0; k < dims; k++) {
        uint32_t axis = p->inverse ? dims - 1 - k : k;
        if (p->inverse && axis == 0 && plan->multiUploadR2C)
            put_kernel(&plan->R2Cdecomposition, 0, 99, out, n++, max);
        for (uint64_t u = 0; u < plan->numAxisUploads[axis]; u++) {
            uint64_t l = p->inverse ? u : plan->numAxisUploads[axis] - 1 - u;
            put_kernel(&plan->axes[axis][l], axis, (uint32_t)l, out, n++, max);
        }
        if (!p->inverse && axis == 0 && plan->multiUploadR2C)
            put_kernel(&plan->R2Cdecomposition, 0, 99, out, n++, max);
    }
    return n;
}

extern "C" int vf_vkfft_bluestein(const vf_vkfft *p)
{
    return p->app.useBluesteinFFT[0] || p->app.useBluesteinFFT[1] || p->app.useBluesteinFFT[2];
}

extern "C" void vf_vkfft_destroy(vf_vkfft *p)
{
    if (!p)
        return;
    deleteVkFFT(&p->app);
    delete p;
}

extern "C" const char *vf_vkfft_error_text(int code)
{
    switch (code) {
    case VKFFT_SUCCESS: return "success";
    case VKFFT_ERROR_MALLOC_FAILED: return "out of host memory";
    case VKFFT_ERROR_UNSUPPORTED_RADIX: return "unsupported radix";
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH: return "unsupported length";
    case VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_R2C: return "unsupported real-to-complex length";
    case VKFFT_ERROR_FAILED_TO_ALLOCATE: return "failed to allocate";
    case VKFFT_ERROR_FAILED_TO_ALLOCATE_MEMORY: return "out of device memory";
    case VKFFT_ERROR_FAILED_TO_FIND_MEMORY: return "no suitable memory type";
    case VKFFT_ERROR_FAILED_SHADER_PREPROCESS: return "glslang could not preprocess a kernel";
    case VKFFT_ERROR_FAILED_SHADER_PARSE: return "glslang could not parse a kernel";
    case VKFFT_ERROR_FAILED_SHADER_LINK: return "glslang could not link a kernel";
    case VKFFT_ERROR_FAILED_SPIRV_GENERATE: return "glslang could not generate SPIR-V";
    case VKFFT_ERROR_FAILED_TO_CREATE_SHADER_MODULE: return "could not create a shader module";
    case VKFFT_ERROR_FAILED_TO_CREATE_PIPELINE: return "could not create a pipeline";
    case VKFFT_ERROR_FAILED_TO_INITIALIZE: return "glslang could not initialise";
    case VKFFT_ERROR_FAILED_TO_SUBMIT_QUEUE: return "could not submit";
    case VKFFT_ERROR_FAILED_TO_WAIT_FOR_FENCES: return "could not wait for a fence";
    default: return "VkFFT error";
    }
}
