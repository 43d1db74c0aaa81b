/* render_ssf: screen-space fluid rendering of particles (Simon Green, GDC
 * 2010; the survey's section 10.2), and a plain particle view for debugging.
 *
 * Reads particle positions straight from a GPU storage buffer (vec4 per
 * particle: xyz in metres, w a free scalar) written by the simulation; the
 * caller records vf_render_barrier_after_sim() between the simulation's
 * compute writes and record(). Per frame (all passes in profiler scopes):
 *   ssf_scene           procedural sky, checker floor and tank edges, ray-cast
 *                       per pixel into an RGBA16F colour and a D32 depth buffer
 *   ssf_depth           sphere impostors (6 vertices x N instances, vertex
 *                       pulling): true sphere depth to R32F (linear view
 *                       depth) and to a depth buffer seeded from the scene's
 *   ssf_thickness       the same impostors, chord lengths added into R16F
 *                       (optionally half resolution), tested against the
 *                       scene's depth but not against each other
 *   ssf_smooth          separable bilateral (or narrow-range) depth filter,
 *                       radius ~ 1/depth capped, N iterations (compute)
 *   ssf_thickness_blur  separable Gaussian on the thickness over the fluid's
 *                       pixels only (compute)
 *   ssf_composite       the scene as backdrop, then the fluid: normals from
 *                       the smoothed depth, Schlick Fresnel between reflected
 *                       environment and refracted background, Beer-Lambert
 *                       absorption, specular, the fluid's depth tested
 *                       against the scene's depth
 * The particles view (mode VF_SSF_MODE_PARTICLES) runs ssf_scene and then
 * ssf_particles: lit spheres coloured by speed, density or pressure.
 *
 * Those are the raster path's passes. The compute path (desc.path,
 * render_ssf_compute.c) draws the same picture with compute dispatches
 * only: ssf_scene, ssf_splat (atomic depth minimum and fixed-point
 * thickness per sphere), ssf_resolve, ssf_smooth, ssf_thickness_blur,
 * ssf_foam and ssf_composite, which writes the target's storage view
 * (vf_image.storage) or copies into it (the target then needs transfer-
 * destination usage). The particles and mesh views take the raster path. */
#ifndef VF_RENDER_SSF_H
#define VF_RENDER_SSF_H

#include "camera.h"
#include "params.h"
#include "render.h"
#include "shared_ssf.h"

/* The choice keys of the renderer (params.h choice lists). The view: ssf,
 * the fluid surface; particles, the particles as coloured spheres. The
 * filter, colour and debug values are the shader's (shared_ssf.h). */
#define VF_SSF_VIEW_LIST(X) X(VF_SSF_MODE_SSF, "ssf") X(VF_SSF_MODE_PARTICLES, "particles")
#define VF_SSF_FILTER_LIST(X) X(VF_SSF_FILTER_BILATERAL, "bilateral") X(VF_SSF_FILTER_NARROW_RANGE, "narrow-range")
#define VF_SSF_COLOR_LIST(X)                                                                                           \
    X(VF_SSF_COLOR_SPEED, "speed") X(VF_SSF_COLOR_DENSITY, "density") X(VF_SSF_COLOR_PRESSURE, "pressure")
#define VF_SSF_DEBUG_LIST(X)                                                                                           \
    X(VF_SSF_DEBUG_NONE, "none") X(VF_SSF_DEBUG_NORMALS, "normals") X(VF_SSF_DEBUG_THICKNESS, "thickness")             \
    X(VF_SSF_DEBUG_DEPTH, "depth")
typedef enum vf_ssf_mode { VF_SSF_VIEW_LIST(VF_CHOICE_ENUM) } vf_ssf_mode;
VF_CHOICES_CHECK(VF_SSF_FILTER_LIST)
VF_CHOICES_CHECK(VF_SSF_COLOR_LIST)
VF_CHOICES_CHECK(VF_SSF_DEBUG_LIST)

/** Where the particles are: a storage buffer of vec4 positions (xyz metres,
 * w a free scalar: shown as "pressure" by the particles view), and optionally
 * a buffer of vec4 attributes (xyz velocity in m/s, w density) for the
 * particles view. Offsets are bytes and must be multiples of the device's
 * minStorageBufferOffsetAlignment. The renderer only reads the buffers and
 * does not own them. */
typedef struct vf_ssf_particles {
    vf_buffer *positions;
    VkDeviceSize offset;
    uint32_t count;
    vf_buffer *attributes; /* may be NULL */
    VkDeviceSize attributes_offset;
} vf_ssf_particles;

/** The keys of the renderer (settable with --set through vf_ssf_params).
 * A zero means the default given in brackets. */
typedef struct vf_ssf_options {
    int mode;                  /* vf_ssf_mode [ssf] */
    double radius;             /* particle (sphere) radius, m [0.01] */
    int filter;                /* VF_SSF_FILTER_* (shared_ssf.h) [bilateral] */
    int iterations;            /* smoothing iterations (x then y each) [3] */
    bool smooth_off;           /* true: no depth smoothing (debugging) */
    double filter_radius;      /* smoothing half-width at the surface, m [4 radius] */
    double filter_max_px;      /* cap of the half-width in pixels [20], at most VF_SSF_MAX_RADIUS_PX */
    double range_sigma;        /* bilateral: depth-difference sigma, m [2 radius] */
    double nr_threshold;       /* narrow-range: depth window half-width, m [4 radius] */
    double nr_clamp;           /* narrow-range: clamp of farther samples, m [1 radius] */
    bool thickness_half;       /* thickness at half resolution */
    double thickness_blur_px;  /* thickness Gaussian sigma in (thickness) pixels [4] */
    double fluid_r, fluid_g, fluid_b; /* fluid colour key: the transmittance through
                                         absorption_length of fluid [0.30, 0.62, 0.85] */
    double absorption_length;  /* m [0.2] */
    double refraction;         /* background shift per metre of thickness, m/m [0.1] */
    int color_by;              /* particles view: VF_SSF_COLOR_* [speed] */
    double color_min, color_max; /* particles view: ramp range; equal = by color_by: speed
                                    [0, 2] m/s, density [950, 1050] kg/m^3, pressure [0, 9810] Pa */
    int debug_view;            /* VF_SSF_DEBUG_* (shared_ssf.h): the composite shows an input [none] */
} vf_ssf_options;

/** Zeroed fields mean defaults. */
typedef struct vf_render_ssf_desc {
    uint32_t width, height;    /* [1280 x 720] */
    VkFormat format;           /* the colour targets' format [VF_CAPTURE_FORMAT]; *_SRGB
                                  formats get linear output, UNORM ones encoded sRGB */
    vf_ssf_particles particles;
    float box_min[3], box_max[3]; /* the tank (m); equal corners = [0,0,0]..[1,1,1] */
    vf_camera camera;          /* fov_y == 0: vf_camera_for_box() */
    vf_ssf_options options;
    const char *name;          /* debug-name prefix [ssf] */
    vf_render_path path;       /* compute or raster; auto: vf_render_path_auto() [auto] */
} vf_render_ssf_desc;

/** Internal images, for tests and tools (vf_render_ssf_image). */
typedef enum vf_ssf_image {
    VF_SSF_IMAGE_SCENE_COLOR = 0, /* RGBA16F linear */
    VF_SSF_IMAGE_SCENE_DEPTH,     /* D32: the scene's depth buffer (compute path: R32F, the same values) */
    VF_SSF_IMAGE_FLUID_ZBUF,      /* D32: the depth pass's depth buffer (scene + spheres); none (NULL) on the compute path */
    VF_SSF_IMAGE_DEPTH,           /* R32F: raw linear view depth of the spheres, 0 = none */
    VF_SSF_IMAGE_DEPTH_SMOOTH,    /* R32F: smoothed depth (the composite's input) */
    VF_SSF_IMAGE_THICKNESS,       /* R16F: raw thickness (m) (compute path: R32F) */
    VF_SSF_IMAGE_THICKNESS_BLUR,  /* R32F: blurred thickness (m) */
    VF_SSF_IMAGE_COUNT
} vf_ssf_image;

/** The parameter table of vf_ssf_options (keys "ssf.*"), and its size. */
extern const vf_param_def vf_ssf_params[];
extern const size_t vf_ssf_param_count;

/** Creates the renderer: pipelines and targets of desc->width x height. desc
 * may be NULL (defaults, no particles yet). On failure *out is NULL and the
 * result says why (VF_ERR_INVALID_ARG for a misaligned offset or a buffer too
 * small for the count; VF_ERR_TOO_LARGE for the compute path asked for at a
 * size whose accumulators exceed the device's storage buffer range). The
 * path taken is in (*out)->path. Free with vf_renderer_destroy(). */
vf_result vf_render_ssf_create(vf_gpu *gpu, const vf_render_ssf_desc *desc, vf_renderer **out);

/** Points the renderer at new particle buffers or a new count (takes effect
 * at the next record). p may not be NULL; its buffers are not owned. */
vf_result vf_render_ssf_set_particles(vf_renderer *r, const vf_ssf_particles *p);

/** A closed triangle mesh of the fluid's surface (sph_mesh.h), drawn by the
 * depth and thickness passes instead of the spheres: vertices hold vec4
 * position (w = 1) and vec4 normal per vertex, indices 3 uint32 per
 * triangle, draw_args a VkDrawIndirectCommand (3 vertices per triangle) at
 * draw_offset. The buffers are not owned; the caller makes their compute
 * writes visible to vertex shaders and indirect draws before recording. */
typedef struct vf_ssf_surface {
    vf_buffer *vertices;
    vf_buffer *indices;
    vf_buffer *draw_args;
    VkDeviceSize draw_offset;
} vf_ssf_surface;

/** Draws a surface mesh instead of the particles from the next record on
 * (surf NULL or with no vertices: the particles again). The first call
 * creates the mesh pipelines. */
vf_result vf_render_ssf_set_surface(vf_renderer *r, const vf_ssf_surface *surf);

/** Diffuse particles (sph_foam.h) drawn as a foam layer over the composited
 * fluid: positions (vec4 xyz, w lifetime left), velocities (vec4, w class)
 * and a VkDrawIndirectCommand (6 vertices x count) at draw_offset. Not
 * owned; the caller makes their compute writes visible before recording. */
typedef struct vf_ssf_foam {
    vf_buffer *positions, *velocities, *draw_args;
    VkDeviceSize draw_offset;
} vf_ssf_foam;

/** Draws the foam layer from the next record on (foam NULL or without
 * positions: none). The first call creates its pipeline. */
vf_result vf_render_ssf_set_foam(vf_renderer *r, const vf_ssf_foam *foam);

/** Replaces the options (zero = default, as in the desc); takes effect at
 * the next record. opt may be NULL (all defaults). A change of
 * thickness_half recreates the targets: the GPU must be done with them. */
void vf_render_ssf_set_options(vf_renderer *r, const vf_ssf_options *opt);

/** The options in effect, with defaults filled in. */
void vf_render_ssf_get_options(const vf_renderer *r, vf_ssf_options *out);

/** One of the renderer's internal images (owned by the renderer, recreated
 * by resize), e.g. for vf_image_read after a frame; NULL for a bad index. */
vf_image *vf_render_ssf_image(vf_renderer *r, vf_ssf_image which);

/** Records only the depth smoothing of the current raw depth image
 * (VF_SSF_IMAGE_DEPTH, last written by a transfer or by record()) into
 * VF_SSF_IMAGE_DEPTH_SMOOTH, with the current options and camera. For tests
 * and benchmarks of the filter. prof may be NULL. */
void vf_render_ssf_record_smooth(vf_renderer *r, VkCommandBuffer cmd, vf_profiler *prof);

/** Smoothing parameters as the GPU sees them for the current options,
 * camera and size (for vf_ssf_smooth_ref). *iterations gets the number of
 * x+y iterations (0 when smoothing is off). */
void vf_render_ssf_smooth_params(const vf_renderer *r, vf_ssf_smooth_push *params, uint32_t *iterations);

/** The frame constants of the next record as the GPU sees them (camera,
 * sizes, radius), for vf_ssf_splat_ref. */
void vf_render_ssf_frame(const vf_renderer *r, vf_ssf_frame *out);

/** Thickness blur parameters as the GPU sees them (the x pass; the y pass
 * has dir 0, 1), for vf_ssf_blur_pass_ref. */
void vf_render_ssf_blur_params(const vf_renderer *r, vf_ssf_blur_push *params);

/** Records the pack of structure-of-arrays positions into vec4 positions:
 * out[i] = (x[i], y[i], z[i], w ? w[i] : w_const) for i < count, reading
 * x, y, z, w from the start of their buffers (w may be NULL). A compute
 * write: record vf_render_barrier_after_sim() before rendering from out. */
vf_result vf_render_ssf_record_pack(vf_renderer *r, VkCommandBuffer cmd, vf_buffer *x, vf_buffer *y, vf_buffer *z,
                                    vf_buffer *w, float w_const, vf_buffer *out, uint32_t count);

#endif
