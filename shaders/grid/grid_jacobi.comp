#version 450
// k = count Jacobi iterations of the pressure equation in one dispatch, each
// x_out = (sum w x_in - h^2 b) / sum w (the operator of grid_mg_op.glsl; 0
// where sum w = 0), computed over tiles as grid_sweep_tile.glsl describes.
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

#define VF_TILE_RED_BLACK 0
#define VF_TILE_PROLONG 0
#include "grid_sweep_tile.glsl"
