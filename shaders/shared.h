/* shared.h: the common part of the headers shared by C and GLSL.
 *
 * Each family has its own header (shaders/shared_<family>.h) that includes
 * this one; a family's C and GLSL include only their own (a pass cannot
 * compile against another family's bindings). Here: the macros of both
 * languages, the hash, the default workgroup sizes and the bindings of the
 * gpu layer's own kernels (scan, self-test, bench copy), the overlay and the
 * 2D field views. Binding numbers, workgroup sizes and push-constant structs live here so the
 * host and the shaders cannot disagree. GLSL sees it with VF_GLSL defined
 * (glslc -DVF_GLSL=1); C sees plain structs with _Static_assert on sizes.
 *
 * Structs are declared with VF_STRUCT_BEGIN/END; a shader declares its push
 * constants with VF_PUSH(struct_name) and reads them as pc.field.
 * Push-constant structs use only 4-byte scalars (uint, int, float) and
 * VF_VEC4 members placed at 16-byte offsets, so std430 and C agree. */
#ifndef VF_SHARED_H
#define VF_SHARED_H

#ifdef VF_GLSL
#define VF_STRUCT_BEGIN(name) struct name {
#define VF_STRUCT_END(name) };
/* In a shader: VF_PUSH(vf_scan_push) declares the push constants as `pc`. */
#define VF_PUSH(name) layout(push_constant) uniform name##_block { name pc; };
#define VF_STATIC_ASSERT(cond, msg)
#define VF_UINT uint
#define VF_INT int
#define VF_FLOAT float
#define VF_VEC4(n) vec4 n
#else
#include <stdint.h>
#define VF_STRUCT_BEGIN(name) typedef struct name {
#define VF_STRUCT_END(name) } name;
#define VF_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg);
#define VF_UINT uint32_t
#define VF_INT int32_t
#define VF_FLOAT float
#define VF_VEC4(n) _Alignas(16) float n[4]
#endif

/* A function both languages compile: plain in GLSL, static inline in C. */
#ifdef VF_GLSL
#define VF_FUNC
#else
#define VF_FUNC static inline
#endif

/* The integer hash (lowbias32) behind every deterministic random number
 * (rain, floating objects, foam): one definition for the shaders, the host
 * and the CPU references. */
VF_FUNC VF_UINT vf_hash(VF_UINT x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Default 1D workgroup size of element-wise kernels. Never assume a subgroup
 * size: lavapipe runs 8-wide, NVIDIA 32, AMD 32 or 64. */
#define VF_WG_1D 256
/* 2D kernels over grids: 16x16 tiles. */
#define VF_WG_2D_X 16
#define VF_WG_2D_Y 16

/* ---------------------------------------------------------------- scan */
/* Exclusive prefix sum over uint32: a workgroup of VF_SCAN_WG threads scans
 * VF_SCAN_BLOCK = VF_SCAN_WG * VF_SCAN_PER_THREAD elements. */
#define VF_SCAN_WG 256
#define VF_SCAN_PER_THREAD 4
#define VF_SCAN_BLOCK (VF_SCAN_WG * VF_SCAN_PER_THREAD)
#define VF_SCAN_BIND_DATA 0  /* in/out data (scanned in place) */
#define VF_SCAN_BIND_SUMS 1  /* block sums of this level / scanned sums for add */

VF_STRUCT_BEGIN(vf_scan_push)
    VF_UINT count;       /* elements in this dispatch's data range */
    VF_UINT sums_offset; /* first block-sum index used by this dispatch */
    VF_UINT write_sums;  /* 1: write block totals to sums[sums_offset + block] */
    VF_UINT pad0;
VF_STRUCT_END(vf_scan_push)
VF_STATIC_ASSERT(sizeof(vf_scan_push) == 16, "vf_scan_push must match std430")

/* ---------------------------------------------------------------- self-test */
#define VF_SELFTEST_BIND_OUT 0
VF_STRUCT_BEGIN(vf_selftest_push)
    VF_VEC4(color);
    VF_UINT width;
    VF_UINT height;
    VF_UINT pad0;
    VF_UINT pad1;
VF_STRUCT_END(vf_selftest_push)
VF_STATIC_ASSERT(sizeof(vf_selftest_push) == 32, "vf_selftest_push must match std430")

/* ---------------------------------------------------------------- bench copy */
/* bench: device-local bandwidth through the shader cores, one uvec4 per
 * invocation (vkCmdCopyBuffer may run on a slower copy engine). */
#define VF_BENCH_COPY_BIND_SRC 0
#define VF_BENCH_COPY_BIND_DST 1
VF_STRUCT_BEGIN(vf_bench_copy_push)
    VF_UINT count; /* uvec4 elements */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_bench_copy_push)
VF_STATIC_ASSERT(sizeof(vf_bench_copy_push) == 16, "vf_bench_copy_push must match std430")

/* ---------------------------------------------------------------- overlay text */
/* stb_easy_font quads: 4 vertices of {float x, y, z; uint8 rgba[4]} each. */
#define VF_OVERLAY_BIND_VERTS 0
VF_STRUCT_BEGIN(vf_overlay_push)
    VF_VEC4(screen); /* 2/width, 2/height, offset x, offset y (pixels) */
    VF_VEC4(shade);  /* rgb, a > 0: draw every glyph in this colour (shadow) */
VF_STRUCT_END(vf_overlay_push)
VF_STATIC_ASSERT(sizeof(vf_overlay_push) == 32, "vf_overlay_push must match std430")

/* ---------------------------------------------------------------- 2D field views */
/* render_grid: a full-screen pass colouring cell-centred fields, and arrows. */
#define VF_VIEW_MODE_DYE 0u
#define VF_VIEW_MODE_PRESSURE 1u
#define VF_VIEW_MODE_VELOCITY 2u
#define VF_VIEW_MODE_WARP 3u
#define VF_VIEW_BIND_R 0
#define VF_VIEW_BIND_G 1
#define VF_VIEW_BIND_B 2
#define VF_VIEW_BIND_P 3
#define VF_VIEW_BIND_U 4
#define VF_VIEW_BIND_V 5
#define VF_VIEW_BIND_MASK 6
#define VF_VIEW_BIND_S 7
#define VF_VIEW_BIND_T 8
#define VF_VIEW_BINDINGS 9
#define VF_VIEW_ARROW_VERTS 9 /* shaft (2 triangles) + head (1 triangle) */
VF_STRUCT_BEGIN(vf_view_grid_push)
    VF_VEC4(rect);   /* the domain's image: x0, y0, width, height in pixels */
    VF_VEC4(params); /* x: value range (pressure, speed), y: arrow spacing (px), z, w: target size (px) */
    VF_UINT nx;
    VF_UINT ny;
    VF_UINT mode;
    VF_UINT arrows_x; /* arrows per row (arrow pass) */
VF_STRUCT_END(vf_view_grid_push)
VF_STATIC_ASSERT(sizeof(vf_view_grid_push) == 48, "vf_view_grid_push must match std430")

#ifdef VF_GLSL
/* (compute shaders only) Linear workgroup index for 1D dispatches that vf_cmd_dispatch_1d may split
 * over x and y when the group count exceeds the device's x limit. */
#define vf_group_linear() (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x)
#endif

#endif
