/* render: the one interface through which commands (capture, view, bench)
 * draw any solver's state.
 *
 * A renderer is created for one solver and one colour-target format; each
 * frame, record() draws into a colour image (an offscreen vf_image for capture
 * and tests, a swapchain image wrapped in a vf_image for the viewer) of the
 * renderer's current size. Renderers read the solver's GPU buffers directly
 * (no CPU copy) and wrap every pass in profiler scopes. */
#ifndef VF_RENDER_H
#define VF_RENDER_H

#include "gpu_buffer.h"
#include "gpu_profiler.h"
#include "params.h"

/** A perspective camera (right-handed, y up). */
typedef struct vf_camera {
    float eye[3];
    float target[3];
    float up[3];
    float fov_y;       /* radians */
    float znear, zfar; /* metres */
} vf_camera;

typedef struct vf_renderer vf_renderer;

/** How a renderer draws: its rasteriser passes, or compute passes only
 * (render_ssf.h: the screen-space fluid; render_surface.h: the height
 * field's 3D view); auto picks per device by vf_render_path_auto() and
 * vf_render_path_auto_surface(). */
#define VF_RENDER_PATH_LIST(X)                                                                                         \
    X(VF_RENDER_PATH_AUTO, "auto") X(VF_RENDER_PATH_COMPUTE, "compute") X(VF_RENDER_PATH_RASTER, "raster")
typedef enum vf_render_path { VF_RENDER_PATH_LIST(VF_CHOICE_ENUM) } vf_render_path;
#define VF_RENDER_PATHS VF_CHOICES(VF_RENDER_PATH_LIST)

/** The path "auto" picks on a device, with the reason in why (one line; why
 * may be NULL): the rule of docs/surface-and-foam.md (Render paths). */
vf_render_path vf_render_path_auto(const vf_device_info *dev, char *why, size_t cap);

/** The path "auto" picks for the height field's 3D surface view
 * (render_surface.h) on a device, with the reason in why (one line; why may
 * be NULL): the rule of docs/architecture.md (Render paths). */
vf_render_path vf_render_path_auto_surface(const vf_device_info *dev, char *why, size_t cap);

/** "auto", "compute" or "raster". */
const char *vf_render_path_name(vf_render_path path);

/** What a renderer's compute passes counted on the device in a frame
 * (vf_renderer_vtable.gpu_counts): pixels whose rays were tested against a
 * particle's sphere, and the atomic operations on the accumulators. */
typedef struct vf_render_gpu_counts {
    uint64_t pixels_tested;
    uint64_t depth_atomics, thickness_atomics, foam_atomics;
} vf_render_gpu_counts;

typedef struct vf_renderer_vtable {
    const char *name; /* "grid", "surface", "ssf", "particles" */
    /** Frees everything; the GPU must be idle. */
    void (*destroy)(vf_renderer *r);
    /** Recreates the size-dependent targets for a new output size. */
    vf_result (*resize)(vf_renderer *r, uint32_t width, uint32_t height);
    /** Records the drawing of the current state into target (of the format
     * the renderer was created for and the current size). The caller has
     * prepared the target with vf_render_prepare_target (layout
     * COLOR_ATTACHMENT_OPTIMAL, contents undefined: the renderer overwrites
     * every pixel); on return it is still COLOR_ATTACHMENT_OPTIMAL with
     * target->layout matching, and the colour writes done at
     * VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT. The caller records the
     * barrier that makes the solver's compute writes visible to the
     * renderer's vertex/fragment/compute reads before calling (see
     * vf_render_barrier_after_sim). */
    vf_result (*record)(vf_renderer *r, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof);
    /** Optional: sets the camera (3D renderers). May be NULL. */
    void (*set_camera)(vf_renderer *r, const vf_camera *cam);
    /** Optional: the camera the renderer draws with now (its own framing of
     * the scene until set_camera is called). May be NULL. */
    void (*get_camera)(vf_renderer *r, vf_camera *cam);
    /** Optional: maps a pick ray (world space, from the camera through the
     * pointer) to the 2D solver's unit square (x right, y up), where a 3D view
     * of a 2D solver draws its domain; false when the view is 2D (the caller
     * then maps the pointer's window position) or the ray misses the domain's
     * plane. May be NULL. */
    bool (*pick)(vf_renderer *r, const float origin[3], const float dir[3], float pos[2]);
    /** Optional: the device's counts of the last frame recorded while work
     * counters were attached to the context (gpu_counters.h: frames recorded
     * so count on the device too), read back once that frame has completed
     * (the caller waits for it). False when there are none. May be NULL. */
    bool (*gpu_counts)(vf_renderer *r, vf_render_gpu_counts *out);
} vf_renderer_vtable;

struct vf_renderer {
    const vf_renderer_vtable *vt;
    vf_gpu *gpu;
    VkFormat format;
    uint32_t width, height;
    vf_render_path path; /* the path its frames take: compute or raster (never auto) */
};

/** Destroys a renderer through its vtable; accepts NULL and *r == NULL. */
void vf_renderer_destroy(vf_renderer **r);

/** Compute-shader writes of the simulation -> reads by every render stage
 * (vertex pulling, fragment and compute). */
void vf_render_barrier_after_sim(VkCommandBuffer cmd);

/** Records the transition of a colour target (offscreen or a just-acquired
 * swapchain image) from whatever it held to COLOR_ATTACHMENT_OPTIMAL with
 * undefined contents, ordered after earlier colour writes, transfers
 * (readback) and the swapchain acquire's colour-output stage. */
void vf_render_prepare_target(VkCommandBuffer cmd, vf_image *target);

/** A colour attachment of the whole of img in COLOR_ATTACHMENT_OPTIMAL,
 * stored, with the given load op (a CLEAR clears to zero; set clearValue for
 * another colour). */
VkRenderingAttachmentInfo vf_render_color_attachment(const vf_image *img, VkAttachmentLoadOp load);

/** A depth attachment of img in the given layout with the given load and
 * store ops (a CLEAR clears to depth 1). */
VkRenderingAttachmentInfo vf_render_depth_attachment(const vf_image *img, VkImageLayout layout, VkAttachmentLoadOp load,
                                                     VkAttachmentStoreOp store);

/** Begins dynamic rendering of a w x h area into one colour attachment and an
 * optional depth attachment (depth may be NULL), and sets the viewport and
 * scissor to that area. The caller ends it with vkCmdEndRendering. */
void vf_render_begin(VkCommandBuffer cmd, uint32_t w, uint32_t h, const VkRenderingAttachmentInfo *color,
                     const VkRenderingAttachmentInfo *depth);

/** Begins dynamic rendering into the whole of one colour target (in
 * COLOR_ATTACHMENT_OPTIMAL) with the given load op, and sets the viewport
 * and scissor to it. The caller ends it with vkCmdEndRendering. */
void vf_render_begin_color(VkCommandBuffer cmd, const vf_image *target, VkAttachmentLoadOp load);

/** The RGBA8 sRGB format capture uses for offscreen targets. */
#define VF_CAPTURE_FORMAT VK_FORMAT_R8G8B8A8_SRGB

/** Zeroed: the family's default view at 1280x720 into VF_CAPTURE_FORMAT. */
typedef struct vf_render_options {
    uint32_t width, height;
    VkFormat format;
    const char *mode; /* a family's view: "dye", "pressure", "ssf", "particles", ...; NULL = default */
    /* renderer keys, "ssf.radius=0.02" (checked by vf_render_setting_check);
     * keys of another family's renderer are skipped. May be NULL. */
    const char *const *settings;
    uint32_t setting_count;
    /* compute or raster where the renderer has both (the screen-space
     * fluid's view); auto (0): vf_render_path_auto() for the device */
    vf_render_path path;
} vf_render_options;

/** The most renderer keys one command takes (--set ssf.KEY=VALUE). */
#define VF_RENDER_MAX_SETTINGS 32

/** Applies opt's settings that belong to table (keys with its prefix) to a
 * renderer's options struct. For renderers' create functions. */
vf_result vf_render_settings_apply(const vf_render_options *opt, const vf_param_def *table, size_t count, void *options,
                                   char *err, size_t cap);

/** A renderer's base fields for create: vt and gpu, and opt's format and size
 * (VF_CAPTURE_FORMAT and 1280x720 where opt or its fields are zero); the
 * raster path. */
vf_renderer vf_renderer_base(const vf_renderer_vtable *vt, vf_gpu *gpu, const vf_render_options *opt);

/** The resize of a renderer without size-dependent targets: records the new
 * size; VF_ERR_INVALID_ARG for a zero width or height. */
vf_result vf_renderer_set_size(vf_renderer *r, uint32_t width, uint32_t height);

/** The index of mode among a renderer's views (a choice list's "a|b|c",
 * params.h); 0 (the default view) when mode is NULL, -1 when it names none
 * of them. */
int vf_render_mode_index(const char *views, const char *mode);

#endif
