#version 450
// Water shading: detail normals from animated Perlin turbulence, reflection
// of the procedural sky, refraction of the pool floor (the refracted ray meets
// the bed one local depth down), Schlick Fresnel blend, Beer-Lambert light
// attenuation with the path length in the water, sun specular highlight.
#include "shared.h"
#include "surface_common.glsl"

layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 dom;
layout(location = 3) in float depth;
layout(location = 4) in float wet;
layout(location = 0) out vec4 color;

void main()
{
    if (wet < 0.5 || depth < 1e-3)
        discard;
    float t = fr.eye.w;
    // detail normals: numerical gradient of the turbulence in domain metres
    vec2 q = dom * 3.0;
    float e = 0.02;
    float t0 = turbulence(q, t), tx = turbulence(q + vec2(e, 0.0), t), ty = turbulence(q + vec2(0.0, e), t);
    vec2 grad = vec2(tx - t0, ty - t0) / e;
    vec3 n = normalize(normalize(normal) + fr.misc.x * 0.04 * vec3(-grad.x, 0.0, -grad.y));
    vec3 v = normalize(fr.eye.xyz - world);
    if (dot(n, v) < 0.0)
        n = normalize(n + v * (0.01 - dot(n, v)));
    float cos_i = clamp(dot(n, v), 0.0, 1.0);
    float fresnel = 0.02 + 0.98 * pow(1.0 - cos_i, 5.0);
    vec3 r = reflect(-v, n);
    r.y = abs(r.y);
    vec3 refl = sky_color(r);
    // refraction: the ray bends into the water and hits the bed one local depth down
    vec3 tr = refract(-v, n, 1.0 / fr.water.w);
    float s = world_scale();
    float down = max(-tr.y, 0.08);
    float path_w = depth * s / down;        // world units
    vec3 hit = world + tr * path_w;
    vec2 hit_dom = hit.xz / s;
    float hit_bed = -depth + sample_eta(hit_dom);
    vec3 floor_c = floor_color(hit_dom, hit_bed, false) * (0.45 + 0.65 * max(normalize(fr.sun.xyz).y, 0.0));
    // caustic-like shimmer on the floor from the same turbulence
    floor_c *= 0.85 + 0.3 * smoothstep(0.6, 1.2, turbulence(hit_dom * 2.0, 1.3 * t));
    float path_m = depth / down + depth; // down to the floor and the light's way down
    vec3 att = exp(-fr.water.rgb * path_m);
    vec3 deep = vec3(0.02, 0.12, 0.16);
    vec3 refr = floor_c * att + deep * (1.0 - att);
    vec3 h = normalize(normalize(fr.sun.xyz) + v);
    float spec = pow(max(dot(n, h), 0.0), 600.0) * 6.0 * fr.sun.w;
    vec3 c = mix(refr, refl, fresnel);
    // dye floating on the surface (the flow's dye, e.g. the river's stripes):
    // a lit, diffuse tint over the water, under the highlight
    vec3 dye = sample_dye(dom);
    float amount = max(dye.r, max(dye.g, dye.b));
    if (amount > 0.0) {
        float lit = 0.35 + 0.65 * max(dot(n, normalize(fr.sun.xyz)), 0.0);
        c = mix(c, dye / amount * lit, fr.dye_opacity * clamp(amount, 0.0, 1.0));
    }
    c += vec3(1.0, 0.95, 0.85) * spec;
    color = vec4(c, 1.0);
}
