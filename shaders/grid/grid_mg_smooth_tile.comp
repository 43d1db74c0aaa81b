#version 450
// k = count red-black Gauss-Seidel half-sweeps of the pressure equation on
// one multigrid level in one dispatch (the first of colour pc.color), from
// x_in to x_out, computed over tiles as grid_sweep_tile.glsl describes: the
// same values as k grid_mg_smooth.comp dispatches in place. With
// VF_GRID_TILE_PROLONG in pc.mode, the coarse correction is added to x_in
// first (grid_mg_prolong.glsl, in cells with an open face) (prolongation and post-smoothing in
// one pass); otherwise the coarse level's arrays are not read.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

layout(local_size_x = VF_GRID_JT_DEFAULT_WG, local_size_y = VF_GRID_JT_DEFAULT_WG) in;
layout(local_size_x_id = VF_GRID_SPEC_JT_WX, local_size_y_id = VF_GRID_SPEC_JT_WY) in;

layout(std430, binding = VF_GRID_JAC_X_IN) readonly buffer XIn { float x_in[]; };
layout(std430, binding = VF_GRID_JAC_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_JAC_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_JAC_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_JAC_X_OUT) writeonly buffer XOut { float x_out[]; };
layout(std430, binding = VF_GRID_JAC_X_C) readonly buffer XC { float xc[]; };
layout(std430, binding = VF_GRID_JAC_WX_C) readonly buffer WxC { float wxc[]; };
layout(std430, binding = VF_GRID_JAC_WY_C) readonly buffer WyC { float wyc[]; };

#define XC(k) xc[k]
#define WXC(k) wxc[k]
#define WYC(k) wyc[k]
#include "grid_mg_prolong.glsl"

#define VF_TILE_RED_BLACK 1
#define VF_TILE_PROLONG 1
#include "grid_sweep_tile.glsl"
