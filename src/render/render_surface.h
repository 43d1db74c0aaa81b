/* render_surface: the height-field water renderer (vf_renderer "surface"),
 * for the height family and the terrain family (water over a terrain: the
 * ground drawn in natural colours, shaded by slope, standing on a block).
 *
 * Views:
 *   surface   3D: procedural sky; the pool (bed / terrain mesh with rim walls
 *             and obstacle columns); the water surface as a mesh over the
 *             height field by vertex pulling with per-vertex normals,
 *             animated Perlin-turbulence detail normals (Klein et al. 2003
 *             section 6), reflection of the sky, refraction of the floor,
 *             Schlick Fresnel, Beer-Lambert attenuation with depth, sun
 *             specular, caustics on the floor (the sun's light refracted
 *             through the surface's slopes, render_caustics.h); floating objects (leaves, ducks, the boat) as boxes.
 *   height    2D top-down: eta, yellow above rest, white at rest, blue below
 *             (Chen & Lobo's figures).
 *   pressure  2D top-down: the flow's pressure height p/(rho g), same colours.
 * Reads the solver's buffers directly (vf_height_get_state at record time);
 * everything it draws is recorded into the caller's command buffer. */
#ifndef VF_RENDER_SURFACE_H
#define VF_RENDER_SURFACE_H

#include "render.h"
#include "solver.h"

typedef struct vf_render_surface_desc {
    vf_solver *solver;    /* a height- or terrain-family solver (required; must outlive the renderer) */
    VkFormat format;      /* colour target format; 0 = VF_CAPTURE_FORMAT */
    uint32_t width, height; /* 0 = 1280 x 720 */
    uint32_t view;        /* VF_SURFACE_VIEW_3D / _HEIGHT / _PRESSURE */
    uint32_t mesh_max;    /* most quads per side of the water mesh; 0 or above VF_SURFACE_MESH_MAX: that (256) */
    float color_scale;    /* 2D views: |value| (m) shown at full colour; 0 = the solver's display scale */
    float detail;         /* strength of the detail normals; 0 = 1, negative = none */
    int caustics;         /* 3D view: caustics on the floor (render_caustics.h); 0 = on, negative = off */
} vf_render_surface_desc;

/** Creates the renderer. VF_ERR_INVALID_ARG when desc->solver is not a
 * height or terrain solver. On success *out is owned by the caller
 * (vf_renderer_destroy). */
vf_result vf_render_surface_create(vf_gpu *gpu, const vf_render_surface_desc *desc, vf_renderer **out);

/** The views (the shader's VF_SURFACE_VIEW_*). */
#define VF_RENDER_SURFACE_VIEW_LIST(X)                                                                                 \
    X(VF_SURFACE_VIEW_3D, "surface") X(VF_SURFACE_VIEW_HEIGHT, "height") X(VF_SURFACE_VIEW_PRESSURE, "pressure")
#define VF_RENDER_SURFACE_MODES VF_CHOICES(VF_RENDER_SURFACE_VIEW_LIST)

/** Registry entry: one of VF_RENDER_SURFACE_MODES (NULL mode = surface). */
vf_result vf_render_surface_create_for(vf_gpu *gpu, vf_solver *solver, const vf_render_options *opt, vf_renderer **out,
                                       char *err, size_t cap);

/** The camera the renderer starts with for a solver: looking at the domain
 * (normalised so its longer side is 1) from the far y side and above, as
 * near as keeps the water's rim inside the frame at aspect (width / height;
 * 0 = 16:9). */
void vf_render_surface_default_camera(const vf_solver *solver, float aspect, vf_camera *cam);

#endif
