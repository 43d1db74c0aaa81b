/* render_grid: 2D views of the grid solver's fields (dye, pressure, speed
 * with velocity arrows, Stam's warped image), read straight from the
 * solver's buffers. A vf_renderer. */
#ifndef VF_RENDER_GRID_H
#define VF_RENDER_GRID_H

#include "render.h"
#include "solver_grid.h"

/** The views, in the order M cycles through them. */
#define VF_RENDER_GRID_MODES "dye|pressure|velocity|warp"

/** Creates the renderer for a grid solver (opt: size, format, mode; NULL
 * fields mean defaults: dye at 1280x720 in VF_CAPTURE_FORMAT). err gets a
 * one-line reason on failure; may be NULL. */
vf_result vf_render_grid_create(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                char *err, size_t cap);

#endif
