#version 450
// Water shading: detail normals from animated Perlin turbulence, reflection
// of the procedural sky (without the sun disc), refraction of the pool floor (the refracted ray meets
// the bed one local depth down; the floor lit by the caustics pass), Schlick Fresnel blend, Beer-Lambert light
// attenuation with the path length in the water, sun specular highlight
// filtered against speckle (band-limited detail, Toksvig, specular AA).
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 dom;
layout(location = 3) in vec3 depth_wet_slope; // depth (m), wet fraction, |grad eta|

layout(location = 0) out vec4 color;

void main()
{
    float depth = depth_wet_slope.x, wet = depth_wet_slope.y, slope = depth_wet_slope.z;
    if (wet < 0.5 || depth < 1e-3)
        discard;
    float t = fr.eye.w;
    // detail normals: numerical gradient of the band-limited turbulence in
    // domain metres (octaves under the pixel footprint fade out)
    vec2 q = dom * 3.0;
    float e = 0.02;
    float fw = max(length(dFdx(q)), length(dFdy(q)));
    float lost, l1, l2;
    float t0 = turbulence_aa(q, t, fw, lost), tx = turbulence_aa(q + vec2(e, 0.0), t, fw, l1),
          ty = turbulence_aa(q + vec2(0.0, e), t, fw, l2);
    vec2 grad = vec2(tx - t0, ty - t0) / e;
    float amp = fr.misc.x * 0.04;
    vec3 n = normalize(normalize(normal) + amp * vec3(-grad.x, 0.0, -grad.y));
    vec3 v = normalize(fr.eye.xyz - world);
    if (dot(n, v) < 0.0)
        n = normalize(n + v * (0.01 - dot(n, v)));
    float cos_i = clamp(dot(n, v), 0.0, 1.0);
    float fresnel = 0.02 + 0.98 * pow(1.0 - cos_i, 5.0);
    vec3 r = reflect(-v, n);
    r.y = abs(r.y);
    vec3 refl = sky_base(r);
    // refraction: the ray bends into the water and hits the bed one local depth down
    vec3 tr = refract(-v, n, 1.0 / fr.water.w);
    float s = world_scale();
    float down = max(-tr.y, 0.08);
    float path_w = depth * s / down;        // world units
    vec3 hit = world + tr * path_w;
    vec2 hit_dom = hit.xz / s;
    float hit_bed = -depth + sample_eta(hit_dom);
    // the floor: sky light plus the sun's light, focused and spread by the
    // surface's waves (caustics)
    float sun_y = max(normalize(fr.sun.xyz).y, 0.0);
    vec3 floor_c = (terrain_style() ? terrain_color(hit_dom, 1.0) * 0.7 : floor_color(hit_dom, hit_bed, false)) *
                   (0.2 + 0.95 * sun_y * caustic_light(hit_dom));
    float path_m = depth / down + depth; // down to the floor and the light's way down
    vec3 att = exp(-fr.water.rgb * path_m);
    vec3 deep = vec3(0.02, 0.12, 0.16);
    vec3 refr = floor_c * att + deep * (1.0 - att);
    // filtered sun specular: Blinn-Phong exponent 600 as a Beckmann roughness
    // (alpha^2 = 2 / (s + 2)), widened by the slope variance of the detail
    // octaves filtered away (Toksvig) and by the normal's change across the
    // pixel (specular antialiasing, Kaplanyan et al. 2016), then scaled to
    // keep the lobe's energy: a sub-pixel glint becomes a soft sheen, not a
    // field of single white pixels
    vec3 h = normalize(normalize(fr.sun.xyz) + v);
    vec3 dndx = dFdx(n), dndy = dFdy(n);
    float kernel = min(0.5 * (dot(dndx, dndx) + dot(dndy, dndy)), 0.1);
    float s0 = 600.0;
    float a2 = min(2.0 / (s0 + 2.0) + amp * amp * lost * 0.5 + kernel, 1.0);
    float s1 = max(2.0 / a2 - 2.0, 1.0);
    float spec = pow(max(dot(n, h), 0.0), s1) * 3.0 * (s1 + 2.0) / (s0 + 2.0) * fr.sun.w;
    vec3 c = mix(refr, refl, fresnel);
    // dye floating on the surface (the flow's dye, e.g. the river's stripes):
    // a lit, diffuse tint over the water, under the highlight
    vec3 dye = sample_dye(dom);
    float amount = max(dye.r, max(dye.g, dye.b));
    if (amount > 0.0) {
        float lit = 0.35 + 0.65 * max(dot(n, normalize(fr.sun.xyz)), 0.0);
        c = mix(c, dye / amount * lit, fr.dye_opacity * clamp(amount, 0.0, 1.0));
    }
    // white water where the true surface is steep (a wake's crests, the
    // bow wave, breaking rings): a lit, diffuse foam tint
    float foam = smoothstep(0.06, 0.2, slope);
    c = mix(c, vec3(0.92, 0.95, 0.97) * (0.55 + 0.45 * max(normalize(fr.sun.xyz).y, 0.0)), 0.8 * foam);
    c += vec3(1.0, 0.95, 0.85) * spec;
    color = vec4(c, 1.0);
}
