#version 450
// Thickness pass: adds the length of the pixel ray's chord through each
// sphere (metres), additively blended, no test between spheres; spheres whose
// front surface lies behind the scene (floor, tank edges) are skipped by
// comparing with the scene's depth buffer (sampled, so the target may be
// half resolution).
#include "shared_ssf.h"
#include "ssf_common.glsl"

layout(binding = VF_SSF_BIND_SCENE_DEPTH) uniform sampler2D scene_depth;
layout(location = 0) in vec3 v_view;
layout(location = 1) flat in vec3 v_center;
layout(location = 2) flat in uint v_index;
layout(location = 0) out float out_thickness;

void main()
{
    float r = fr.shade.x;
    vec3 d = normalize(ssf_view_ray(gl_FragCoord.xy, fr.thick_size.xy));
    float b = dot(d, v_center);
    vec3 perp = v_center - d * b;
    float disc = r * r - dot(perp, perp);
    if (disc < 0.0)
        discard;
    float h = sqrt(disc);
    vec3 front = d * (b - h);
    vec2 uv = gl_FragCoord.xy * fr.thick_size.zw;
    float scene = textureLod(scene_depth, uv, 0.0).r;
    if (ssf_ndc_depth(front.z) > scene)
        discard;
    out_thickness = 2.0 * h;
}
