#version 450
// The compute path's march pass (surface_march.glsl) exchanging the 2 x 2
// pixel quads' shading normals by subgroup quad operations.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
#define VF_SURFACE_QUAD 1
#include "shared_height.h"
#include "surface_common.glsl"
#include "surface_march.glsl"
