#version 450
// Diffuse particles as camera-facing quads (6 vertices per particle, one
// instance each, pulled from the foam buffers): the sprite of
// foam_sprite.glsl, its corner, depth and alpha passed on.
#include "shared_ssf.h"
#include "shared_foam.h"
#include "ssf_common.glsl"

layout(std430, binding = VF_FOAM_DRAW_BIND_POS) readonly buffer FoamPos
{
    vec4 fpos[];
};
layout(std430, binding = VF_FOAM_DRAW_BIND_VEL) readonly buffer FoamVel
{
    vec4 fvel[];
};
#include "foam_sprite.glsl"

layout(location = 0) out vec2 v_corner;     // -1..1 across the quad
layout(location = 1) flat out float v_depth;  // view depth of the particle (m)
layout(location = 2) flat out float v_alpha;

void main()
{
    const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    vec3 c;
    float size, alpha;
    bool drawn = foam_sprite(uint(gl_InstanceIndex), c, size, alpha);
    v_alpha = alpha;
    v_corner = corners[gl_VertexIndex];
    v_depth = -c.z;
    if (!drawn) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    gl_Position = fr.proj * vec4(c + vec3(v_corner * size, 0.0), 1.0);
}
