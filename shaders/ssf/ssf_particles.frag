#version 450
// Particle debug view: every particle as a lit sphere coloured by speed
// (|attributes.xyz|), density (attributes.w) or pressure (positions.w) through
// a blue-cyan-green-yellow-red ramp over [color_range.x, color_range.y].
// Writes the true sphere depth so spheres intersect each other and the scene.
#include "shared_ssf.h"
#include "ssf_common.glsl"

layout(std430, binding = VF_SSF_BIND_POSITIONS) readonly buffer positions_buf
{
    vec4 positions[];
};
layout(std430, binding = VF_SSF_BIND_ATTRIBUTES) readonly buffer attributes_buf
{
    vec4 attributes[];
};

layout(location = 0) in vec3 v_view;
layout(location = 1) flat in vec3 v_center;
layout(location = 2) flat in uint v_index;
layout(location = 0) out vec4 out_color;

vec3 ramp(float x)
{
    const vec3 stops[5] = vec3[5](vec3(0.05, 0.15, 0.75), vec3(0.0, 0.65, 0.85), vec3(0.1, 0.75, 0.2),
                                  vec3(0.95, 0.85, 0.1), vec3(0.85, 0.1, 0.05));
    x = clamp(x, 0.0, 1.0) * 4.0;
    int i = min(int(x), 3);
    return mix(stops[i], stops[i + 1], x - float(i));
}

void main()
{
    float r = fr.shade.x;
    vec3 d = normalize(ssf_view_ray(gl_FragCoord.xy, fr.viewport.xy));
    float b = dot(d, v_center);
    vec3 perp = v_center - d * b;
    float disc = r * r - dot(perp, perp);
    if (disc < 0.0)
        discard;
    vec3 hit = d * (b - sqrt(disc));
    vec3 n = (hit - v_center) / r;

    float value;
    if (fr.color_by == VF_SSF_COLOR_PRESSURE || fr.has_attributes == 0u)
        value = positions[v_index].w;
    else if (fr.color_by == VF_SSF_COLOR_DENSITY)
        value = attributes[v_index].w;
    else
        value = length(attributes[v_index].xyz);
    float span = fr.color_range.y - fr.color_range.x;
    vec3 albedo = ramp(span != 0.0 ? (value - fr.color_range.x) / span : 0.5);

    vec3 l = normalize(mat3(fr.view) * fr.light.xyz);
    float diff = max(dot(n, l), 0.0) * fr.light.w;
    vec3 h = normalize(l - d);
    float spec = pow(max(dot(n, h), 0.0), 40.0) * 0.35 * fr.light.w;
    vec3 c = albedo * (0.30 + 0.75 * diff) + vec3(spec);
    out_color = vec4(ssf_output(c), 1.0);
    gl_FragDepth = ssf_ndc_depth(hit.z);
}
