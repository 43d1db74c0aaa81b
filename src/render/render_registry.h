/* render_registry: which renderer draws which solver family. The only place
 * that knows both sides, so a solver never knows its renderer. */
#ifndef VF_RENDER_REGISTRY_H
#define VF_RENDER_REGISTRY_H

#include "render.h"
#include "solver.h"

/** Creates the renderer for a solver's family. Returns VF_ERR_UNSUPPORTED
 * with a one-line reason in err when the family has no renderer or the mode
 * is unknown to it. */
vf_result vf_render_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                               char *err, size_t cap);

/** Lists the render modes of a family ("dye|pressure|velocity"), or NULL.
 * The first one is the family's default view. */
const char *vf_render_modes(const char *family);

/** The i-th family that has a renderer ("grid", "height", ...), NULL past
 * the last: with vf_render_modes, the list for help texts. */
const char *vf_render_family(size_t i);

/** The key table of a family's renderer (keys "ssf.*") and its size in
 * *count; NULL (and 0) when its renderer takes no keys. */
const vf_param_def *vf_render_params(const char *family, size_t *count);

/** The key that names the view in a family's renderer table ("ssf.view"),
 * set through the view (--render, render.mode) instead; NULL if none. */
const char *vf_render_view_key(const char *family);

/** Checks a renderer key assignment "ssf.radius=0.02" for a scene of
 * `family`: VF_OK when it is a key of the family's renderer with a valid
 * value; VF_ERR_UNSUPPORTED when the key has no renderer prefix (not a
 * renderer key: the scene's keys decide); VF_ERR_INVALID_ARG with a one-line
 * reason in err (the key and the allowed values, or which solvers' renderer
 * takes it) otherwise. */
vf_result vf_render_setting_check(const char *family, const char *assignment, char *err, size_t cap);

#endif
