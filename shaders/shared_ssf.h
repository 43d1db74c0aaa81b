/* shared_ssf.h: the screen-space fluid renderer's part of shared.h (binding
 * numbers, workgroup sizes, the per-frame uniform block and push constants).
 * Included at the end of shared.h; never include it on its own. */
#ifndef VF_SHARED_SSF_H
#define VF_SHARED_SSF_H

#ifdef VF_GLSL
#define VF_MAT4(n) mat4 n
#else
#define VF_MAT4(n) _Alignas(16) float n[16] /* column-major */
#endif

/* Compute kernels of the renderer work on 8x8 pixel tiles; the pack kernel is 1D. */
#define VF_SSF_WG_X 8
#define VF_SSF_WG_Y 8
#define VF_SSF_WG_PACK 256

/* Largest filter half-width (pixels) any smoothing kernel loops over; the
 * filter_max_px key is clamped to it. */
#define VF_SSF_MAX_RADIUS_PX 48

/* Bindings of the graphics passes (set 0). Every pass binds the frame block at 0. */
#define VF_SSF_BIND_FRAME 0
#define VF_SSF_BIND_POSITIONS 1   /* sphere passes: vec4 per particle (xyz metres, w scalar) */
#define VF_SSF_BIND_ATTRIBUTES 2  /* particles view: vec4 per particle (xyz velocity, w density) */
#define VF_SSF_BIND_SCENE_DEPTH 2 /* thickness pass: the scene's depth buffer (sampled) */
/* Composite: */
#define VF_SSF_BIND_FLUID_DEPTH 1 /* smoothed linear view depth, R32F (0 = no fluid) */
#define VF_SSF_BIND_THICKNESS 2   /* blurred thickness, R32F (maybe half resolution) */
#define VF_SSF_BIND_SCENE_COLOR 3 /* the scene's colour (linear RGBA16F) */
/* Background copy: */
#define VF_SSF_BIND_BACKGROUND 1  /* the scene's colour (linear RGBA16F) */

/* Compute bindings: */
#define VF_SSF_BIND_SRC 0 /* input image: storage R32F (smooth), sampled (blur) */
#define VF_SSF_BIND_DST 1 /* output image (storage R32F) */

/* Colouring of the particles view (vf_ssf_frame.color_by). */
#define VF_SSF_COLOR_SPEED 0    /* |attributes.xyz| */
#define VF_SSF_COLOR_DENSITY 1  /* attributes.w */
#define VF_SSF_COLOR_PRESSURE 2 /* positions.w */

/* What the composite shows (vf_ssf_frame.debug_view): the shaded fluid, or
 * one of its inputs over the scene. */
#define VF_SSF_DEBUG_NONE 0
#define VF_SSF_DEBUG_NORMALS 1   /* view-space normal * 0.5 + 0.5 */
#define VF_SSF_DEBUG_THICKNESS 2 /* blurred thickness, white = 0.5 m */
#define VF_SSF_DEBUG_DEPTH 3     /* smoothed depth: white at half, black at twice the tank's distance */

/* Depth smoothing filters (vf_ssf_smooth_push.mode). */
#define VF_SSF_FILTER_BILATERAL 0
#define VF_SSF_FILTER_NARROW_RANGE 1

/* Everything the passes of one frame share, in a uniform buffer (std140:
 * only mat4, vec4 and groups of four scalars, so C and GLSL agree). View
 * space is right-handed, camera looking down -z; "view depth" is -z_view. */
VF_STRUCT_BEGIN(vf_ssf_frame)
    VF_MAT4(view);        /* world -> view */
    VF_MAT4(proj);        /* view -> clip (Vulkan: y down, depth 0..1) */
    VF_MAT4(inv_view);    /* view -> world */
    VF_VEC4(eye);         /* world position of the eye; w: focal length in pixels */
    VF_VEC4(proj_params); /* proj[0][0], proj[1][1], znear, zfar */
    VF_VEC4(viewport);    /* width, height, 1/width, 1/height (pixels) */
    VF_VEC4(thick_size);  /* thickness target: width, height, 1/width, 1/height */
    VF_VEC4(light);       /* world direction towards the sun (unit); w: sun intensity */
    VF_VEC4(box_min);     /* tank corner (m); w: edge beam radius (m) */
    VF_VEC4(box_max);     /* tank corner (m); w: floor checker tile (m) */
    VF_VEC4(absorb);      /* Beer-Lambert coefficients per channel (1/m); w: refraction shift (m per m) */
    VF_VEC4(fluid_color); /* rgb: the key colour (linear); w: Fresnel F0 */
    VF_VEC4(shade);       /* particle radius (m), specular exponent, specular intensity, scatter */
    VF_VEC4(color_range); /* particles view: value at the cold end, value at the hot end, 0, 0 */
    VF_UINT count;        /* particles */
    VF_UINT color_by;     /* VF_SSF_COLOR_* */
    VF_UINT encode_srgb;  /* 1: the target is UNORM, the shader encodes sRGB itself */
    VF_UINT has_attributes;
    VF_UINT debug_view;   /* VF_SSF_DEBUG_*: what the composite shows */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_ssf_frame)
VF_STATIC_ASSERT(sizeof(vf_ssf_frame) == 400, "vf_ssf_frame must match std140")

/* One 1D pass of the depth smoothing (ssf_smooth.comp). The screen-space
 * half-width is r = min(max_radius_px, world_radius * focal_px / z_centre);
 * the spatial Gaussian has sigma = r / 3 over offsets -ceil(r)..ceil(r). */
VF_STRUCT_BEGIN(vf_ssf_smooth_push)
    VF_INT dir_x;         /* 1, 0: horizontal; 0, 1: vertical */
    VF_INT dir_y;
    VF_UINT width;
    VF_UINT height;
    VF_FLOAT focal_px;    /* pixels per metre at 1 m view depth */
    VF_FLOAT world_radius;/* filter half-width in metres (at the surface) */
    VF_FLOAT max_radius_px;
    VF_FLOAT range_sigma; /* bilateral: sigma of the Gaussian on depth difference (m) */
    VF_UINT mode;         /* VF_SSF_FILTER_* */
    VF_FLOAT nr_threshold;/* narrow-range: half-width of the accepted depth window (m) */
    VF_FLOAT nr_clamp;    /* narrow-range: farther samples are clamped to z_centre + this (m) */
    VF_UINT pad0;
VF_STRUCT_END(vf_ssf_smooth_push)
VF_STATIC_ASSERT(sizeof(vf_ssf_smooth_push) == 48, "vf_ssf_smooth_push must match std430")

/* One 1D pass of the thickness Gaussian (ssf_blur.comp). */
VF_STRUCT_BEGIN(vf_ssf_blur_push)
    VF_INT dir_x;
    VF_INT dir_y;
    VF_UINT width;
    VF_UINT height;
    VF_FLOAT sigma_px;
    VF_INT radius_px;     /* offsets -radius..radius */
    VF_UINT pad0;
    VF_UINT pad1;
VF_STRUCT_END(vf_ssf_blur_push)
VF_STATIC_ASSERT(sizeof(vf_ssf_blur_push) == 32, "vf_ssf_blur_push must match std430")

/* Interleaves separate x, y, z (and optional w) float arrays into vec4
 * positions (ssf_pack.comp): for solvers that keep structure-of-arrays. */
#define VF_SSF_PACK_BIND_X 0
#define VF_SSF_PACK_BIND_Y 1
#define VF_SSF_PACK_BIND_Z 2
#define VF_SSF_PACK_BIND_W 3
#define VF_SSF_PACK_BIND_OUT 4
VF_STRUCT_BEGIN(vf_ssf_pack_push)
    VF_UINT count;
    VF_UINT has_w;        /* 0: w = w_const */
    VF_FLOAT w_const;
    VF_UINT pad0;
VF_STRUCT_END(vf_ssf_pack_push)
VF_STATIC_ASSERT(sizeof(vf_ssf_pack_push) == 16, "vf_ssf_pack_push must match std430")

#endif
