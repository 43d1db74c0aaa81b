#version 450
// ADI tridiagonal sweep along the rows (see height_adi_sweep.glsl).
#include "shared_height.h"
#include "height_common.glsl"
#define SWEEP_AXIS 0u
#include "height_adi_sweep.glsl"
