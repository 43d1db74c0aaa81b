#version 450
// The foam layer over the composited fluid: a soft white disc per diffuse
// particle (foam_sprite.glsl, ssf_foam_alpha), alpha-blended, tested against the scene's
// depth; particles under the fluid's surface (bubbles) fade with their depth
// below it.
#include "shared_ssf.h"
#include "shared_foam.h"
#include "ssf_common.glsl"

layout(binding = VF_FOAM_DRAW_BIND_FLUID_DEPTH) uniform sampler2D fluid_depth;
layout(location = 0) in vec2 v_corner;
layout(location = 1) flat in float v_depth;
layout(location = 2) flat in float v_alpha;
layout(location = 0) out vec4 out_color;

void main()
{
    if (dot(v_corner, v_corner) > 1.0)
        discard;
    float surface = texelFetch(fluid_depth, ivec2(gl_FragCoord.xy), 0).r;
    float a = ssf_foam_alpha(v_corner, v_alpha, v_depth, surface);
    out_color = vec4(ssf_output(ssf_foam_color()), a);
}
