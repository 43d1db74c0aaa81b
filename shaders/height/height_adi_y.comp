#version 450
// ADI tridiagonal sweep along the columns (see height_adi_sweep.glsl).
#include "shared_height.h"
#include "height_common.glsl"
#define SWEEP_AXIS 1u
#define SWEEP_VOLUME // ends the step: the frame's last one sums the volume (height_volume)
#include "height_adi_sweep.glsl"
