/* render_volume: the 3D grid family's view, drawn the same way by `view`
 * and `capture`: a per-frame light-transmittance volume (compute), then one
 * ray per pixel through the domain (fragment): front-to-back ray marching of
 * the density with single scattering of one directional light, the hot
 * smoke's black-body glow (fire), the obstacles as lit solid shapes; or a slice plane coloured
 * by density, speed, pressure or vorticity magnitude. Orbit camera through
 * set_camera / get_camera like the other 3D views. */
#ifndef VF_RENDER_VOLUME_H
#define VF_RENDER_VOLUME_H

#include "camera.h"
#include "render.h"
#include "shared_volume.h"
#include "solver.h"
#include "solver_grid3d.h"

/** The views (the shader's VF_VOL_MODE_*). */
#define VF_RENDER_VOLUME_VIEW_LIST(X)                                                                                  \
    X(VF_VOL_MODE_VOLUME, "volume") X(VF_VOL_MODE_DENSITY, "density") X(VF_VOL_MODE_SPEED, "speed")                    \
    X(VF_VOL_MODE_PRESSURE, "pressure") X(VF_VOL_MODE_VORTICITY, "vorticity")
VF_CHOICES_CHECK(VF_RENDER_VOLUME_VIEW_LIST)
#define VF_RENDER_VOLUME_MODES VF_CHOICES(VF_RENDER_VOLUME_VIEW_LIST)

/** Creates the volume renderer for a 3D grid solver (borrowed; it must
 * outlive the renderer). opt->mode: one of VF_RENDER_VOLUME_MODES (NULL:
 * volume). err gets one line on failure. The caller owns *out. */
vf_result vf_render_volume_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                      char *err, size_t cap);

/** The camera a 3D grid scene opens with at aspect (width / height): the
 * region d->view_lo..view_hi seen from d->view_dir (vf_camera_fit_box,
 * 45 degrees, the region within 95 % of the frame); without them the whole
 * domain from the front, right and above (vf_camera_for_box). */
vf_camera vf_render_volume_default_camera(const vf_grid3d_desc *d, float aspect);

/** Moves the slice plane of the slice views: z = pos * depth, pos clamped to
 * [0, 1]. r must be a volume renderer (others are ignored). */
void vf_render_volume_set_slice(vf_renderer *r, float pos);

/** The slice position in [0, 1]; -1 when r is not a volume renderer. */
float vf_render_volume_slice(const vf_renderer *r);

/** Records only the light-transmittance pass (tests). */
void vf_render_volume_record_light(vf_renderer *r, VkCommandBuffer cmd);

/** The light-transmittance volume (one float per cell), the direction
 * towards the light (unit), the march step and the extinction it uses. */
vf_buffer *vf_render_volume_light(vf_renderer *r, float dir[3], float *step, float *extinction);

#endif
