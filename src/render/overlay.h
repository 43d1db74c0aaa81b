/* overlay: on-screen text (stb_easy_font from libstb-dev) drawn over a
 * colour target, for the viewer's fps, timings, scene and key help. */
#ifndef VF_OVERLAY_H
#define VF_OVERLAY_H

#include "gpu_buffer.h"

/** Zeroed: 2 frame slots, 8000 characters. format is the target's format. */
typedef struct vf_overlay_desc {
    VkFormat format;
    uint32_t slots;
    uint32_t max_chars;
} vf_overlay_desc;

typedef struct vf_overlay vf_overlay;

/** Creates the overlay pipeline and per-slot host-visible vertex buffers. */
vf_result vf_overlay_create(vf_gpu *gpu, const vf_overlay_desc *desc, vf_overlay **out);
/** Destroys it; accepts NULL. */
void vf_overlay_destroy(vf_overlay **ov);
/** Starts a new text block for a frame slot (whose previous use has finished). */
void vf_overlay_begin(vf_overlay *ov, uint32_t slot);
/** Adds text at pixel (x, y) (top left origin) with an RGBA colour; '\n'
 * starts a new line. Text beyond the capacity is dropped. Returns the height
 * in pixels of what was added. */
float vf_overlay_text(vf_overlay *ov, float x, float y, const char *text, const uint8_t rgba[4]);
/** Records the drawing of the current slot's text over target (in
 * COLOR_ATTACHMENT_OPTIMAL with finished colour writes; loads its content). */
void vf_overlay_record(vf_overlay *ov, VkCommandBuffer cmd, vf_image *target);

#endif
