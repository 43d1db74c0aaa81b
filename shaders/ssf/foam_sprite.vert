#version 450
// Diffuse particles as camera-facing quads (6 vertices per particle, one
// instance each, pulled from the foam buffers): size by class, the class
// and remaining lifetime passed on for the colour and fade. A sprite smaller
// than VF_FOAM_MIN_RADIUS_PX on the screen is drawn at that radius with its
// alpha scaled by the area ratio: the same light, spread over the pixels it
// falls in, instead of a full-strength pixel wherever its tiny quad happens
// to cover a pixel centre (sparkle that comes and goes as it moves).
#include "shared.h"
#include "ssf_common.glsl"

layout(std430, binding = VF_FOAM_DRAW_BIND_POS) readonly buffer FoamPos
{
    vec4 fpos[];
};
layout(std430, binding = VF_FOAM_DRAW_BIND_VEL) readonly buffer FoamVel
{
    vec4 fvel[];
};

layout(location = 0) out vec2 v_corner;     // -1..1 across the quad
layout(location = 1) flat out float v_depth;  // view depth of the particle (m)
layout(location = 2) flat out float v_alpha;

void main()
{
    const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    uint i = uint(gl_InstanceIndex);
    vec4 p = fpos[i];
    uint cls = uint(fvel[i].w);
    vec3 c = (fr.view * vec4(p.xyz, 1.0)).xyz;
    float size = fr.shade.x * (cls == VF_FOAM_SPRAY ? 0.35 : cls == VF_FOAM_FOAM ? 0.55 : 0.3);
    float alpha = cls == VF_FOAM_SPRAY ? 0.75 : cls == VF_FOAM_FOAM ? 0.85 : 0.45;
    v_alpha = alpha * clamp(p.w / 0.5, 0.0, 1.0); // fade out over the last half second
    v_corner = corners[gl_VertexIndex];
    v_depth = -c.z;
    const float VF_FOAM_MIN_RADIUS_PX = 1.0;
    float radius_px = size * fr.eye.w / max(-c.z, 1e-6);
    if (radius_px < VF_FOAM_MIN_RADIUS_PX) {
        float grow = VF_FOAM_MIN_RADIUS_PX / max(radius_px, 1e-6);
        size *= grow;
        v_alpha /= grow * grow;
    }
    if (c.z > -fr.proj_params.z) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    gl_Position = fr.proj * vec4(c + vec3(v_corner * size, 0.0), 1.0);
}
