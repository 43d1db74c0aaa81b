#version 450
// Sphere impostors: 6 vertices per particle (two triangles) and one instance
// per particle, pulled from the positions buffer. The quad faces the eye,
// sits at the sphere's centre and is sized to the sphere's tangent cone
// (r L / sqrt(L^2 - r^2) at distance L), so it covers the whole perspective
// silhouette; the fragment shaders intersect the pixel's ray with the sphere.
#include "shared_ssf.h"
#include "ssf_common.glsl"

layout(std430, binding = VF_SSF_BIND_POSITIONS) readonly buffer positions_buf
{
    vec4 positions[];
};

layout(location = 0) out vec3 v_view;              // view-space point on the quad
layout(location = 1) flat out vec3 v_center;       // view-space sphere centre
layout(location = 2) flat out uint v_index;        // particle index

void main()
{
    const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    uint i = uint(gl_InstanceIndex);
    float r = fr.shade.x;
    vec3 c = (fr.view * vec4(positions[i].xyz, 1.0)).xyz;
    float l = length(c);
    v_center = c;
    v_index = i;
    if (l <= r * 1.001 || c.z > 0.0) {
        // Eye inside the sphere or the sphere behind the eye: no quad.
        v_view = c;
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    vec3 w = -c / l;
    vec3 ref = abs(w.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 u = normalize(cross(ref, w));
    vec3 v = cross(w, u);
    float s = r * l / sqrt(l * l - r * r) * 1.02;
    vec2 k = corners[gl_VertexIndex];
    vec3 p = c + (u * k.x + v * k.y) * s;
    v_view = p;
    gl_Position = fr.proj * vec4(p, 1.0);
}
