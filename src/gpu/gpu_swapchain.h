/* gpu_swapchain: a swapchain for a surface, its images wrapped as vf_image,
 * recreation on resize / out-of-date, and a zero-extent (minimised) state. */
#ifndef VF_GPU_SWAPCHAIN_H
#define VF_GPU_SWAPCHAIN_H

#include "gpu_buffer.h"

#define VF_MAX_SWAPCHAIN_IMAGES 8

typedef struct vf_swapchain {
    vf_gpu *gpu;
    VkSurfaceKHR surface; /* not owned */
    VkSwapchainKHR swapchain;
    VkFormat format;
    VkExtent2D extent;    /* 0x0 while minimised: no swapchain then */
    bool vsync;
    uint32_t image_count;
    vf_image images[VF_MAX_SWAPCHAIN_IMAGES];          /* wrappers: image + view, no memory */
    VkSemaphore render_done[VF_MAX_SWAPCHAIN_IMAGES];  /* signalled by the frame that renders image i */
} vf_swapchain;

/** Creates (or, when sc->swapchain exists, recreates) the swapchain for the
 * framebuffer size width x height. A zero size leaves sc without a
 * swapchain (extent 0x0): the caller pauses rendering until it changes. */
vf_result vf_swapchain_build(vf_swapchain *sc, vf_gpu *gpu, VkSurfaceKHR surface, uint32_t width, uint32_t height, bool vsync);

/** Destroys the swapchain objects (not the surface); waits for the device. */
void vf_swapchain_release(vf_swapchain *sc);

/** Acquires the next image, signalling `acquired`. Returns VF_OK, or
 * VF_ERR_UNSUPPORTED when the swapchain is out of date and must be rebuilt
 * (nothing was signalled). */
vf_result vf_swapchain_acquire(vf_swapchain *sc, VkSemaphore acquired, uint32_t *index);

/** Presents image index, waiting on render_done[index]. Sets *rebuild when
 * the swapchain is out of date or suboptimal. */
vf_result vf_swapchain_present(vf_swapchain *sc, uint32_t index, bool *rebuild);

#endif
