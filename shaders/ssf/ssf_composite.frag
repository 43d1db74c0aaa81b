#version 450
// Composite: shades the smoothed fluid surface over the scene.
//  - view-space position from the smoothed depth; the normal from depth
//    differences, taking at each axis the one-sided difference with the
//    smaller depth change (keeps silhouettes and steps from bending normals);
//  - Schlick Fresnel between the reflected environment (sky and floor) and
//    the refracted background (the scene colour sampled at an offset along
//    the normal, growing with thickness), the latter attenuated per channel
//    by Beer-Lambert exp(-k * thickness) towards the deep-water colour;
//  - lone fluid pixels (fewer than 3 fluid neighbours) left out;
//  - a Blinn-Phong sun highlight;
//  - the fluid's depth to gl_FragDepth, tested against the scene's depth
//    buffer so floor and tank edges in front of the fluid stay in front.
#include "shared.h"
#include "ssf_common.glsl"

layout(binding = VF_SSF_BIND_FLUID_DEPTH) uniform sampler2D fluid_depth;
layout(binding = VF_SSF_BIND_THICKNESS) uniform sampler2D thickness;
layout(binding = VF_SSF_BIND_SCENE_COLOR) uniform sampler2D scene_color;
layout(location = 0) out vec4 out_color;

// View-space position of pixel q; w = 0 when q has no fluid or lies outside.
vec4 view_pos(ivec2 q)
{
    if (q.x < 0 || q.y < 0 || q.x >= int(fr.viewport.x) || q.y >= int(fr.viewport.y))
        return vec4(0.0);
    float d = texelFetch(fluid_depth, q, 0).r;
    if (d <= 0.0)
        return vec4(0.0);
    return vec4(ssf_view_ray(vec2(q) + 0.5, fr.viewport.xy) * d, 1.0);
}

// The derivative of the position along one axis: the one-sided difference
// with the smaller depth change; zero when neither neighbour has fluid.
vec3 one_sided(vec3 p, vec4 lo, vec4 hi)
{
    vec3 dh = hi.xyz - p, dl = p - lo.xyz;
    if (hi.w == 0.0 && lo.w == 0.0)
        return vec3(0.0);
    if (hi.w == 0.0)
        return dl;
    if (lo.w == 0.0)
        return dh;
    return abs(dh.z) < abs(dl.z) ? dh : dl;
}

float thickness_at(vec2 frag)
{
    vec2 tc = frag * fr.thick_size.xy * fr.viewport.zw - 0.5;
    ivec2 i0 = ivec2(floor(tc));
    vec2 f = tc - vec2(i0);
    ivec2 hi = ivec2(fr.thick_size.xy) - 1;
    float t00 = texelFetch(thickness, clamp(i0, ivec2(0), hi), 0).r;
    float t10 = texelFetch(thickness, clamp(i0 + ivec2(1, 0), ivec2(0), hi), 0).r;
    float t01 = texelFetch(thickness, clamp(i0 + ivec2(0, 1), ivec2(0), hi), 0).r;
    float t11 = texelFetch(thickness, clamp(i0 + ivec2(1, 1), ivec2(0), hi), 0).r;
    return mix(mix(t00, t10, f.x), mix(t01, t11, f.x), f.y);
}

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    float d = texelFetch(fluid_depth, p, 0).r;
    if (d <= 0.0)
        discard;
    // a fluid pixel with fewer than three fluid neighbours (of 8) is a lone
    // splat edge or a stray particle's sliver: its normal is undefined, it
    // would shade as a single dark or white pixel, so the scene shows instead
    int near = 0;
    for (int k = 0; k < 9; k++)
        if (k != 4)
            near += view_pos(p + ivec2(k % 3 - 1, k / 3 - 1)).w > 0.0 ? 1 : 0;
    if (near < 3)
        discard;
    vec3 ray = ssf_view_ray(gl_FragCoord.xy, fr.viewport.xy);
    vec3 pos = ray * d;

    vec3 ddx = one_sided(pos, view_pos(p - ivec2(1, 0)), view_pos(p + ivec2(1, 0)));
    vec3 ddy = one_sided(pos, view_pos(p - ivec2(0, 1)), view_pos(p + ivec2(0, 1)));
    vec3 n = cross(ddy, ddx);
    float nl = length(n);
    n = nl > 1e-12 ? n / nl : -normalize(ray);
    if (dot(n, pos) > 0.0)
        n = -n; // face the eye

    mat3 to_world = mat3(fr.inv_view);
    vec3 pw = fr.eye.xyz + to_world * pos;
    vec3 nw = normalize(to_world * n);
    vec3 v = -normalize(to_world * ray);
    float ndv = max(dot(nw, v), 0.0);
    float f0 = fr.fluid_color.w;
    float fresnel = f0 + (1.0 - f0) * pow(1.0 - ndv, 5.0);

    vec3 refl = ssf_environment(pw, reflect(-v, nw), 0.6);

    float t = thickness_at(gl_FragCoord.xy);
    float shift_px = fr.absorb.w * t * fr.eye.w / d;
    vec2 at = gl_FragCoord.xy + vec2(n.x, -n.y) * shift_px;
    // Where the shift varies, neighbouring pixels sample the background far
    // apart: a small 5-tap blur growing with the shift keeps it from aliasing.
    float br = min(0.3 * shift_px, 6.0);
    vec3 bg = 0.2 * (textureLod(scene_color, at * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(br, 0.5 * br)) * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(-0.5 * br, br)) * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(-br, -0.5 * br)) * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(0.5 * br, -br)) * fr.viewport.zw, 0.0).rgb);
    vec3 trans = exp(-fr.absorb.rgb * t);
    // light scattered back from inside: the colour of deep water (the fluid
    // colour after three absorption lengths), so a thick column reads dark
    // blue-green, not milky
    vec3 deep = fr.fluid_color.rgb * fr.fluid_color.rgb * fr.fluid_color.rgb;
    vec3 scatter = deep * fr.shade.w * (0.4 * SSF_HORIZON + 0.6 * max(fr.light.y, 0.0) * fr.light.w);
    vec3 refr = bg * trans + scatter * (1.0 - trans);

    vec3 h = normalize(fr.light.xyz + v);
    float spec = pow(max(dot(nw, h), 0.0), fr.shade.y) * fr.shade.z * fr.light.w;
    vec3 c = mix(refr, refl, fresnel) + SSF_SUN_COLOR * spec;

    if (fr.debug_view == VF_SSF_DEBUG_NORMALS)
        c = n * 0.5 + 0.5;
    else if (fr.debug_view == VF_SSF_DEBUG_THICKNESS)
        c = vec3(min(t / 0.5, 1.0));
    else if (fr.debug_view == VF_SSF_DEBUG_DEPTH)
        c = vec3(clamp(2.0 - d / length(fr.eye.xyz - 0.5 * (fr.box_min.xyz + fr.box_max.xyz)), 0.0, 1.0));
    out_color = vec4(ssf_output(c), 1.0);
    gl_FragDepth = clamp(ssf_ndc_depth(pos.z), 0.0, 1.0);
}
