#version 450
// The compute path's march pass (surface_march.glsl) for devices without
// subgroup quad operations in compute shaders: each water pixel evaluates its
// quad neighbours' shading normals itself.
#define VF_SURFACE_QUAD 0
#include "shared_height.h"
#include "surface_common.glsl"
#include "surface_march.glsl"
