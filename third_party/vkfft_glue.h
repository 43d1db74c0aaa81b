/* vkfft_glue: the few calls vkfluid makes into VkFFT (Debian's
 * libvkfft-dev, a header-only library that generates its GLSL kernels at
 * run time and compiles them with glslang), as a C interface. The glue is
 * C++ (vkfft_glue.cpp), see there why. One plan is one direction of a 2D or
 * 3D real-to-complex transform between a real buffer (rows of size[0]
 * floats, unpadded) and a complex buffer (rows of size[0] / 2 + 1 complex
 * floats), recorded into the caller's command buffer. */
#ifndef VF_VKFFT_GLUE_H
#define VF_VKFFT_GLUE_H

#include <stdint.h>

#include <volk.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What a plan is built on and for. Every handle stays owned by the caller
 * and must outlive the plan. */
typedef struct vf_vkfft_desc {
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;          /* VkFFT submits once at creation (its twiddle tables) */
    VkCommandPool pool;     /* of the queue's family, for that submit */
    VkFence fence;          /* unsignalled, for that submit */
    uint32_t dims;          /* 2 or 3 */
    uint64_t size[3];       /* real elements along x, y, z (z 1 in 2D) */
    int inverse;            /* 0: real -> complex (forward), 1: complex -> real, unnormalised */
    VkBuffer real, complex, temp;
    uint64_t real_bytes, complex_bytes, temp_bytes;
    /* the device's limits (vkfluid's, which a test hook may clamp) */
    uint32_t max_shared_bytes, max_invocations, max_group_size[3], max_group_count[3];
} vf_vkfft_desc;

/** One compute kernel of a plan: its Vulkan objects (for debug names) and
 * the sizes of the buffers it binds (for the work accounting). */
typedef struct vf_vkfft_kernel {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkBuffer lut;          /* its twiddle table (VK_NULL_HANDLE: none) */
    VkDeviceMemory lut_memory;
    uint64_t lut_bytes;
    uint32_t axis, upload; /* the axis it transforms, and which pass of that axis */
} vf_vkfft_kernel;

typedef struct vf_vkfft vf_vkfft;

/** Creates a plan (compiles its kernels). Returns 0 or VkFFT's error code
 * (vf_vkfft_error_text names it); *out is NULL on failure. */
int vf_vkfft_create(const vf_vkfft_desc *desc, vf_vkfft **out);

/** Records the plan's dispatches, each followed by VkFFT's own compute
 * barrier, into cmd. Returns 0 or VkFFT's error code. */
int vf_vkfft_record(vf_vkfft *plan, VkCommandBuffer cmd);

/** Fills up to max kernels in the order they are recorded; returns how many
 * the plan has. */
uint32_t vf_vkfft_kernels(const vf_vkfft *plan, vf_vkfft_kernel *out, uint32_t max);

/** Whether the plan uses Bluestein's algorithm on some axis (a size with a
 * prime factor above 13). */
int vf_vkfft_bluestein(const vf_vkfft *plan);

/** Destroys a plan; accepts NULL. */
void vf_vkfft_destroy(vf_vkfft *plan);

/** VkFFT's text for one of its error codes (static storage). */
const char *vf_vkfft_error_text(int code);

#ifdef __cplusplus
}
#endif

#endif
