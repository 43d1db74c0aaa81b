/* capture: an offscreen RGBA8 sRGB colour target, its readback recorded into
 * the frame's own command buffer, and PNG output. Used by `vkfluid capture`,
 * the viewer's screenshots and the tests, so every picture vkfluid saves goes
 * through the same code. */
#ifndef VF_CAPTURE_H
#define VF_CAPTURE_H

#include "gpu_buffer.h"

/** Zeroed: 1280x720. */
typedef struct vf_capture_desc {
    uint32_t width, height;
} vf_capture_desc;

typedef struct vf_capture vf_capture;

/** Creates the target image (VF_CAPTURE_FORMAT, colour attachment + transfer
 * source) and a host-visible readback buffer. VF_ERR_TOO_LARGE when the size
 * exceeds the device's image limit. */
vf_result vf_capture_create(vf_gpu *gpu, const vf_capture_desc *desc, vf_capture **out);
/** Destroys it; accepts NULL. */
void vf_capture_destroy(vf_capture **cap);
/** The colour target a renderer draws into (owned by the capture). */
vf_image *vf_capture_target(vf_capture *cap);
/** Records the copy of the target into the readback buffer (after the
 * renderer's colour writes). The pixels are valid once the submit completed. */
void vf_capture_record_readback(vf_capture *cap, VkCommandBuffer cmd);
/** Records the copy of another image of the same size (e.g. a swapchain
 * image the viewer just rendered) into the readback buffer. src must hold
 * colour-attachment writes in src->layout; it is left in
 * VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL (src->layout updated). BGRA sources
 * are swizzled to RGBA when the PNG is written. */
void vf_capture_record_copy(vf_capture *cap, VkCommandBuffer cmd, vf_image *src);
/** The read-back pixels: width*height RGBA8, sRGB-encoded, rows top to
 * bottom. Valid after the submit holding vf_capture_record_readback finished.
 * (After vf_capture_record_copy of a BGRA image the bytes are BGRA.) */
const uint8_t *vf_capture_pixels(const vf_capture *cap);
/** Writes the read-back pixels as a PNG, atomically (temporary then rename). */
vf_result vf_capture_write_png(const vf_capture *cap, const char *path);

#endif
