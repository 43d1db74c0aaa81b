/* render_sph: the sph family's renderer: render_ssf (screen-space fluid or
 * the particles view) fed with the SPH solver's current particle buffers. */
#ifndef VF_RENDER_SPH_H
#define VF_RENDER_SPH_H

#include "render.h"
#include "solver.h"

/** The views: the screen-space fluid surface, the particles as spheres, the
 * marching-cubes surface mesh. */
#define VF_RENDER_SPH_VIEW_LIST(X) X(VF_SPH_VIEW_SSF, "ssf") X(VF_SPH_VIEW_PARTICLES, "particles") X(VF_SPH_VIEW_MESH, "mesh")
enum { VF_RENDER_SPH_VIEW_LIST(VF_CHOICE_ENUM) };
#define VF_RENDER_SPH_MODES VF_CHOICES(VF_RENDER_SPH_VIEW_LIST)

/** The sphere radius the renderer draws particles with unless ssf.radius is
 * set: this times the particle spacing (a sphere of the particle's volume
 * has 0.62 spacing). */
#define VF_RENDER_SPH_RADIUS_PER_SPACING 0.6

/** Creates the renderer for an sph solver: opt->mode one of
 * VF_RENDER_SPH_MODES (NULL: ssf). Each record() points the screen-space renderer at the buffers
 * the solver's last step wrote (they swap every step). VF_ERR_UNSUPPORTED
 * with a one-line reason in err for another mode or solver family. */
vf_result vf_render_sph_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                   char *err, size_t cap);

#endif
