#version 450
// The accelerations of every particle (sph_forces.glsl).
#include "sph_forces.glsl"
