#version 450
// Depth pass: the true sphere surface under each pixel. Writes the linear
// view depth (-z_view, metres) to the R32F target and the matching value to
// the hardware depth buffer, so the nearest sphere wins.
#include "shared_ssf.h"
#include "ssf_common.glsl"

layout(location = 0) in vec3 v_view;
layout(location = 1) flat in vec3 v_center;
layout(location = 2) flat in uint v_index;
layout(location = 0) out float out_depth;

void main()
{
    float r = fr.shade.x;
    // The pixel's ray from gl_FragCoord, not from the interpolated v_view:
    // drivers interpolate with different precision (SwiftShader's quad point
    // put the depth up to 9 mm off at a 0.25 m sphere's rim).
    vec3 d = normalize(ssf_view_ray(gl_FragCoord.xy, fr.viewport.xy));
    float b = dot(d, v_center);
    vec3 perp = v_center - d * b;                  // stable: no b^2 - |c|^2 cancellation
    float disc = r * r - dot(perp, perp);
    if (disc < 0.0)
        discard;
    vec3 hit = d * (b - sqrt(disc));
    out_depth = -hit.z;
    gl_FragDepth = ssf_ndc_depth(hit.z);
}
