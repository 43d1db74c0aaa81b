// ssf_common.glsl: what the screen-space fluid passes share: the frame block,
// view rays, depth conversions and the procedural environment (sky, checker
// floor, tank edges). Included after shared.h.

layout(std140, binding = VF_SSF_BIND_FRAME) uniform vf_ssf_frame_block
{
    vf_ssf_frame fr;
};

// View-space direction (z = -1) of the ray through a framebuffer position
// (gl_FragCoord.xy style: pixel centres at .5) of a target of size `size`.
vec3 ssf_view_ray(vec2 frag, vec2 size)
{
    vec2 ndc = frag / size * 2.0 - 1.0;
    return vec3(ndc.x / fr.proj_params.x, ndc.y / fr.proj_params.y, -1.0);
}

// Depth-buffer value (0 near .. 1 far) of a view-space z (negative in front).
float ssf_ndc_depth(float z_view)
{
    return (fr.proj[2][2] * z_view + fr.proj[3][2]) / -z_view;
}

vec3 ssf_srgb_encode(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    vec3 lo = c * 12.92;
    vec3 hi = 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055;
    return mix(hi, lo, lessThanEqual(c, vec3(0.0031308)));
}

vec3 ssf_output(vec3 linear_rgb)
{
    return fr.encode_srgb != 0u ? ssf_srgb_encode(linear_rgb) : linear_rgb;
}

const vec3 SSF_SUN_COLOR = vec3(1.0, 0.95, 0.85);
const vec3 SSF_HORIZON = vec3(0.72, 0.80, 0.88);
const vec3 SSF_ZENITH = vec3(0.16, 0.34, 0.70);

vec3 ssf_sky(vec3 d)
{
    float h = clamp(d.y, 0.0, 1.0);
    vec3 c = mix(SSF_HORIZON, SSF_ZENITH, sqrt(h));
    if (d.y < 0.0)
        c = SSF_HORIZON * mix(1.0, 0.75, clamp(-d.y * 4.0, 0.0, 1.0));
    float s = max(dot(d, fr.light.xyz), 0.0);
    c += SSF_SUN_COLOR * (pow(s, 1200.0) * 40.0 + pow(s, 12.0) * 0.25) * fr.light.w;
    return c;
}

// Box-filtered checker (p in tile units, w the filter footprint in tiles):
// 0 or 1 far from the lines, blending to 0.5 as the footprint grows.
float ssf_checker(vec2 p, vec2 w)
{
    w = max(w, vec2(1e-4));
    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) - abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;
    return 0.5 - 0.5 * i.x * i.y;
}

// Shaded floor colour at world point p seen from distance t (metres) with a
// checker filter footprint w (tiles).
vec3 ssf_floor_color(vec3 p, float t, vec2 w)
{
    float tile = fr.box_max.w;
    bool inside = p.x >= fr.box_min.x && p.x <= fr.box_max.x && p.z >= fr.box_min.z && p.z <= fr.box_max.z;
    float k = ssf_checker(p.xz / tile, w);
    vec3 a = inside ? vec3(0.80, 0.82, 0.84) : vec3(0.55, 0.55, 0.52);
    vec3 b = inside ? vec3(0.62, 0.66, 0.70) : vec3(0.30, 0.30, 0.29);
    vec3 albedo = mix(a, b, k);
    float sun = max(fr.light.y, 0.0) * fr.light.w;
    vec3 c = albedo * (0.35 * SSF_HORIZON + 0.75 * sun * SSF_SUN_COLOR);
    float fog = 1.0 - exp(-t * 0.04);
    return mix(c, SSF_HORIZON, fog);
}

// The environment seen along a world ray (reflections): the floor plane or
// the sky. blur (tiles) widens the checker filter: reflections off a curved
// surface spread each pixel's rays over a large patch of floor.
vec3 ssf_environment(vec3 o, vec3 d, float blur)
{
    if (d.y < -1e-4) {
        float t = (fr.box_min.y - o.y) / d.y;
        if (t > 0.0) {
            vec3 p = o + d * t;
            return ssf_floor_color(p, t, vec2(blur + t * 0.05 / fr.box_max.w));
        }
    }
    return ssf_sky(d);
}

// Closest approach of the ray o + t d (|d| = 1) to the segment a..b: returns
// the ray parameter in t and the distance in dist; s is the segment parameter.
void ssf_ray_segment(vec3 o, vec3 d, vec3 a, vec3 b, out float t, out float dist, out float s)
{
    vec3 u = b - a, w0 = o - a;
    float bb = dot(d, u), cc = dot(u, u), dd = dot(d, w0), ee = dot(u, w0);
    float den = cc - bb * bb;
    t = den > 1e-9 * cc ? (bb * ee - cc * dd) / den : -dd;
    s = clamp((ee + t * bb) / cc, 0.0, 1.0);
    t = s * bb - dd;
    dist = length(o + d * t - (a + s * u));
}

// The foam sprites' colour (every sprite the same).
vec3 ssf_foam_color()
{
    vec3 sky = ssf_sky(normalize(vec3(0.3, 1.0, 0.2)));
    return mix(vec3(0.92, 0.95, 0.97), sky, 0.15) * (0.85 + 0.15 * fr.light.w);
}

// A foam sprite's alpha at a pixel: a soft disc (corner: -1..1 across the
// quad) of the sprite's alpha, faded with its view depth below the fluid's
// surface (bubbles; surface 0: no fluid there).
float ssf_foam_alpha(vec2 corner, float alpha, float depth, float surface)
{
    float r2 = dot(corner, corner);
    if (r2 > 1.0)
        return 0.0;
    float a = alpha * (1.0 - r2 * r2);
    if (surface > 0.0 && depth > surface)
        a *= exp(-(depth - surface) / 0.03);
    return a;
}
