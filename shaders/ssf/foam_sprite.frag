#version 450
// The foam layer over the composited fluid: a soft white disc per diffuse
// particle, alpha-blended, tested against the scene's depth; particles
// under the fluid's surface (bubbles) fade with their depth below it.
#include "shared.h"
#include "ssf_common.glsl"

layout(binding = VF_FOAM_DRAW_BIND_FLUID_DEPTH) uniform sampler2D fluid_depth;
layout(location = 0) in vec2 v_corner;
layout(location = 1) flat in float v_depth;
layout(location = 2) flat in float v_alpha;
layout(location = 0) out vec4 out_color;

void main()
{
    float r2 = dot(v_corner, v_corner);
    if (r2 > 1.0)
        discard;
    float a = v_alpha * (1.0 - r2 * r2);
    float surface = texelFetch(fluid_depth, ivec2(gl_FragCoord.xy), 0).r;
    if (surface > 0.0 && v_depth > surface)
        a *= exp(-(v_depth - surface) / 0.03);
    vec3 sky = ssf_sky(normalize(vec3(0.3, 1.0, 0.2)));
    vec3 c = mix(vec3(0.92, 0.95, 0.97), sky, 0.15) * (0.85 + 0.15 * fr.light.w);
    out_color = vec4(ssf_output(c), a);
}
