#version 450
// Depth of the surface mesh: the linear view depth (-z_view, metres) into
// the R32F target the composite reads; the hardware depth keeps the nearest.
#include "shared_ssf.h"
#include "ssf_common.glsl"

layout(location = 0) in vec3 v_view;
layout(location = 1) in vec3 v_normal;
layout(location = 0) out float out_depth;

void main()
{
    out_depth = -v_view.z;
}
