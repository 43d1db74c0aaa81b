/* shared_ssf.h: the screen-space fluid renderer's header shared by C and GLSL (binding
 * numbers, workgroup sizes, the per-frame uniform block and push constants).
 * Includes the common shared.h. */
#ifndef VF_SHARED_SSF_H
#define VF_SHARED_SSF_H

#include "shared.h"

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

/* ---------------------------------------------------------------- compute path
 * The render without the rasteriser (render_ssf_compute.c): the scene ray
 * cast per pixel, each sphere splatted by one invocation (atomic minimum on
 * the bits of its positive linear depth, atomic add of its chord in fixed
 * point), a resolve into the float images the filters read, the foam sprites
 * accumulated as optical depth, and the composite writing the output. */
#define VF_SSF_WG_SPLAT 64        /* particles per workgroup of ssf_splat.comp and ssf_foam.comp */
#define VF_SSF_WG_BIG 64          /* invocations sharing one large sphere (ssf_splat_big.comp) */
#define VF_SSF_SPLAT_BIG_PX 256   /* a sphere whose pixel box holds more pixels goes to ssf_splat_big */
#define VF_SSF_BIG_MAX 65535      /* large spheres listed per frame (more: splatted by their own invocation) */
#define VF_SSF_FOAM_GROUPS_MAX 65535 /* foam splat workgroups at most (a grid-stride loop covers the rest) */
#define VF_SSF_DEPTH_NONE 0xFFFFFFFFu /* depth accumulator: no sphere in front of the scene */
/* Thickness accumulator: units per metre (2^20: 1 um steps, 4096 m of summed
 * chords per pixel before it wraps; a pixel of a 1 m tank full of water sums
 * about 1 m). */
#define VF_SSF_THICK_UNITS 1048576.0
/* Foam accumulator: optical depth -ln(1 - alpha) summed per pixel, units per 1. */
#define VF_SSF_FOAM_UNITS 65536.0

/* Words of the compute path's argument buffer (uint). */
#define VF_SSF_ARGS_BIG 0        /* VkDispatchIndirectCommand of ssf_splat_big: x = large spheres listed */
#define VF_SSF_ARGS_BIG_TAKEN 3  /* large spheres that asked for a list slot */
#define VF_SSF_ARGS_FOAM 4       /* VkDispatchIndirectCommand of ssf_foam (byte offset 16) */
#define VF_SSF_ARGS_FOAM_COUNT 7 /* live foam particles this frame */
#define VF_SSF_ARGS_STATS 8      /* when counting: [8] pixels tested, [9] depth atomics, [10] thickness atomics, [11] foam atomics */
#define VF_SSF_ARGS_LIST 16      /* then the large spheres' particle indices (VF_SSF_BIG_MAX) */
#define VF_SSF_ARGS_WORDS (VF_SSF_ARGS_LIST + VF_SSF_BIG_MAX)

/* Bindings of the compute path's passes (each pass binds the frame block at 0). */
#define VF_SSF_CS_SCENE_COLOR 1  /* ssf_scene.comp: RGBA16F linear colour (storage) */
#define VF_SSF_CS_SCENE_DEPTH 2  /* R32F: the scene's depth-buffer value (0 near .. 1 far) */
#define VF_SSF_CS_DEPTH_ACC 3    /* uint per pixel: bits of the nearest sphere's linear depth */
#define VF_SSF_CS_THICK_ACC 4    /* uint per thickness pixel: summed chords, VF_SSF_THICK_UNITS */
#define VF_SSF_CS_FOAM_ACC 5     /* uint per pixel: foam optical depth, VF_SSF_FOAM_UNITS */
#define VF_SSF_CS_ARGS 6         /* uint[VF_SSF_ARGS_WORDS] */
#define VF_SSF_CS_FOAM_STATE 7   /* ssf_scene.comp: the foam's state words (its live count) */
#define VF_SSF_CS_POSITIONS 8    /* splat: vec4 particle positions */
#define VF_SSF_CS_DEPTH_OUT 9    /* resolve: R32F linear depth (0 = none) */
#define VF_SSF_CS_THICK_OUT 10   /* resolve: R32F thickness (m) */
#define VF_SSF_CS_FLUID_DEPTH 11 /* composite, foam: the smoothed depth (sampled) */
#define VF_SSF_CS_THICKNESS 12   /* composite: the blurred thickness (sampled) */
#define VF_SSF_CS_SCENE_SAMPLED 13 /* composite: the scene's colour (sampled, linear filter) */
#define VF_SSF_CS_OUTPUT 14      /* composite: RGBA8 UNORM storage, sRGB-encoded bytes */
#define VF_SSF_CS_FOAM_POS 15    /* foam: vec4 diffuse positions (w lifetime left) */
#define VF_SSF_CS_FOAM_VEL 16    /* foam: vec4 diffuse velocities (w class) */

/* Push constants of every compute-path pass. */
VF_STRUCT_BEGIN(vf_ssf_cs_push)
    VF_UINT count;        /* splat: particles; scene: the foam count's word in the foam state (0: no foam) */
    VF_UINT thick_fused;  /* 1: the thickness has the output's resolution (one loop per sphere) */
    VF_UINT stats;        /* 1: count tested pixels and atomics into the argument buffer */
    VF_UINT has_foam;     /* composite: apply the foam accumulator */
    VF_UINT bgra;         /* composite: write B, G, R, A (the target's byte order is BGRA) */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_ssf_cs_push)
VF_STATIC_ASSERT(sizeof(vf_ssf_cs_push) == 32, "vf_ssf_cs_push must match std430")

#endif
