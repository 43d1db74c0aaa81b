#version 450
// The accelerations, then this step's closing kick and the next step's drift
// and binning, in one pass (sph_forces.glsl).
#define SPH_FORCES_DRIFT
#define SPH_STATE_ACCESS
#include "sph_forces.glsl"
