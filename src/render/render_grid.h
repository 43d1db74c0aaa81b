/* render_grid: 2D views of the grid solver's fields (dye, pressure, speed
 * with velocity arrows, Stam's warped image), read straight from the
 * solver's buffers. A vf_renderer. */
#ifndef VF_RENDER_GRID_H
#define VF_RENDER_GRID_H

#include "render.h"
#include "solver_grid.h"

/** The views, in the order M cycles through them (the shader's VF_VIEW_MODE_*). */
#define VF_RENDER_GRID_VIEW_LIST(X)                                                                                    \
    X(VF_VIEW_MODE_DYE, "dye") X(VF_VIEW_MODE_PRESSURE, "pressure") X(VF_VIEW_MODE_VELOCITY, "velocity")               \
    X(VF_VIEW_MODE_WARP, "warp")
VF_CHOICES_CHECK(VF_RENDER_GRID_VIEW_LIST)
#define VF_RENDER_GRID_MODES VF_CHOICES(VF_RENDER_GRID_VIEW_LIST)

/** Creates the renderer for a grid solver (opt: size, format, mode; NULL
 * fields mean defaults: dye at 1280x720 in VF_CAPTURE_FORMAT). err gets a
 * one-line reason on failure; may be NULL. */
vf_result vf_render_grid_create(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                char *err, size_t cap);

#endif
