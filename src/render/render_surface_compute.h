/* render_surface_compute: the height-field surface renderer's compute path
 * (render_surface.c's 3D view without the rasteriser). Private to the
 * render layer.
 *
 * Per frame, each pass one compute dispatch in a profiler scope:
 *   surface_corners   every vertex of the raster path's bed and water
 *                     meshes once (surface_corners.comp), and the lowest
 *                     and highest vertex height
 *   surface_march     one ray per pixel through the same triangles and the
 *                     floating objects' boxes, shaded by the raster path's
 *                     functions (surface_march.comp), written as bytes into
 *                     the target's storage view (an sRGB target's UNORM
 *                     alias) or into an image then copied into the target */
#ifndef VF_RENDER_SURFACE_COMPUTE_H
#define VF_RENDER_SURFACE_COMPUTE_H

#include "gpu_pipeline.h"
#include "render.h"
#include "shared_height.h"

/** The raster path's bindings (VF_SURFACE_BIND_FRAME .. _CAUSTICS). */
#define VF_SURFACE_RASTER_BINDINGS 10

typedef struct vf_surface_cs vf_surface_cs;

/** Creates the compute path's pipelines and its buffers for a mesh of at
 * most (mesh_max + 1)^2 vertices, up to `objects` floating objects (more are
 * not drawn) and a w x h target; quad: the march exchanges the water's
 * normals by subgroup quad operations (the device must have them in compute
 * shaders: vf_device_info.subgroup_quad). */
vf_result vf_surface_cs_create(vf_gpu *gpu, uint32_t mesh_max, uint32_t objects, bool quad, uint32_t w, uint32_t h,
                               vf_surface_cs **out);

/** Recreates the output image (the copy source for targets without a storage
 * view) for a w x h target. */
vf_result vf_surface_cs_resize(vf_surface_cs *cs, uint32_t w, uint32_t h);

/** Whether the path can write target: through its storage view (RGBA), or
 * by a copy (transfer-destination usage). */
bool vf_surface_cs_target_ok(const vf_image *target);

/** Records the frame f (already in the frame uniform buffer, bound with the
 * solver's buffers in b) into target (COLOR_ATTACHMENT_OPTIMAL, of f's size):
 * the corner and march passes and, for a target without a storage view or
 * of a BGRA format, the copy. Leaves target COLOR_ATTACHMENT_OPTIMAL, written
 * before the colour-output stage (the renderer's record() contract). */
void vf_surface_cs_record(vf_surface_cs *cs, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof,
                          const vf_surface_frame *f, const vf_binding b[VF_SURFACE_RASTER_BINDINGS]);

/** Tests: every later frame also writes each pixel's ray and hit into hits
 * (VF_SURFACE_BIND_HITS; 32 bytes a pixel of the target, owned by the
 * caller, alive while frames use it); NULL stops. */
void vf_surface_cs_debug_hits(vf_surface_cs *cs, vf_buffer *hits);

/** Frees the path; accepts NULL and *cs == NULL. The GPU must be idle. */
void vf_surface_cs_destroy(vf_surface_cs **cs);

#endif
