// surface_common.glsl: what the surface renderer's shaders share: the frame
// uniform, the solver buffers (read-only), sampling of the height field in
// domain metres, the world mapping, the procedural sky and pool floor, and
// gradient noise for the animated detail normals (Perlin turbulence).
//
// World space: x = domain x, z = domain y, y up; all scaled by
// 1 / max(Lx, Ly) so the domain spans [0, 1] on its longer side; y = 0 is the
// rest level.

layout(std140, binding = VF_SURFACE_BIND_FRAME) uniform Frame { vf_surface_frame fr; };
layout(std430, binding = VF_SURFACE_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_SURFACE_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_SURFACE_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_SURFACE_BIND_OBJECTS) readonly buffer Objects { vf_height_object objects[]; };
layout(std430, binding = VF_SURFACE_BIND_PRES) readonly buffer Pres { float pres[]; };
layout(std430, binding = VF_SURFACE_BIND_DYE_R) readonly buffer DyeR { float dye_r[]; };
layout(std430, binding = VF_SURFACE_BIND_DYE_G) readonly buffer DyeG { float dye_g[]; };
layout(std430, binding = VF_SURFACE_BIND_DYE_B) readonly buffer DyeB { float dye_b[]; };
layout(std430, binding = VF_SURFACE_BIND_CAUSTICS) readonly buffer Caustics { uint caustics[]; };

// How much steeper the water's shading draws the height field's slopes.
#define VF_SURFACE_SLOPE_GAIN 4.0

float dom_dx() { return fr.grid.x; }
float world_scale() { return 1.0 / (max(float(fr.nx), float(fr.ny)) * fr.grid.x); }

uint cell_index(int i, int j)
{
    i = clamp(i, 0, int(fr.nx) - 1);
    j = clamp(j, 0, int(fr.ny) - 1);
    return uint(j) * fr.nx + uint(i);
}

bool cell_solid(uint c) { return (flags[c] & VF_HEIGHT_SOLID) != 0u; }
bool cell_wet(uint c) { return !cell_solid(c) && eta[c] - bed[c] > 1e-4; }

// Bilinear sample of eta at a domain point (m), cell-centred, clamped.
float sample_eta(vec2 p)
{
    vec2 f = clamp(p / dom_dx() - 0.5, vec2(0.0), vec2(float(fr.nx - 1u), float(fr.ny - 1u)));
    ivec2 i0 = ivec2(f);
    vec2 t = f - vec2(i0);
    float a = mix(eta[cell_index(i0.x, i0.y)], eta[cell_index(i0.x + 1, i0.y)], t.x);
    float b = mix(eta[cell_index(i0.x, i0.y + 1)], eta[cell_index(i0.x + 1, i0.y + 1)], t.x);
    return mix(a, b, t.y);
}

vec3 to_world(vec2 p, float z)
{
    float s = world_scale();
    return vec3(p.x * s, z * s, p.y * s);
}

mat4 view_proj() { return mat4(fr.view_proj[0], fr.view_proj[1], fr.view_proj[2], fr.view_proj[3]); }

// Procedural sky without the sun disc: horizon haze to a deep zenith, the
// sun's wide glow, a few soft clouds. Reflections on the water use this (the
// disc's reflection is the water's filtered specular highlight instead).
vec3 sky_base(vec3 d)
{
    d = normalize(d);
    float up = clamp(d.y, -0.2, 1.0);
    vec3 zenith = vec3(0.16, 0.34, 0.72), horizon = vec3(0.72, 0.82, 0.92), ground = vec3(0.32, 0.30, 0.27);
    vec3 c = up >= 0.0 ? mix(horizon, zenith, pow(up, 0.55)) : mix(horizon, ground, min(-up * 5.0, 1.0));
    float sd = max(dot(d, normalize(fr.sun.xyz)), 0.0);
    c += vec3(1.0, 0.9, 0.7) * pow(sd, 12.0) * 0.25 * fr.sun.w;
    // a few soft clouds
    if (d.y > 0.0) {
        vec2 q = d.xz / (d.y + 0.15) * 1.6;
        float cl = smoothstep(0.55, 0.9, 0.5 + 0.5 * sin(q.x * 2.1 + sin(q.y * 1.3)) * sin(q.y * 1.7 + 0.5 * sin(q.x * 2.9)));
        c = mix(c, vec3(0.95), cl * 0.5 * smoothstep(0.0, 0.3, d.y));
    }
    return c;
}

// Procedural sky: sky_base with the sun disc.
vec3 sky_color(vec3 d)
{
    float sd = max(dot(normalize(d), normalize(fr.sun.xyz)), 0.0);
    return sky_base(d) + vec3(1.0, 0.9, 0.7) * pow(sd, 900.0) * 8.0 * fr.sun.w;
}

// Pool floor / terrain colour at a domain point (m) and bed height (m, relative to rest).
vec3 floor_color(vec2 p, float b, bool solid)
{
    if (solid)
        return vec3(0.55, 0.53, 0.50);
    if (b > 0.0) // above the water: sand to grass
        return mix(vec3(0.76, 0.70, 0.52), vec3(0.35, 0.55, 0.25), clamp(b * 4.0, 0.0, 1.0));
    vec2 g = fract(p / 0.5);
    float line = min(min(g.x, 1.0 - g.x), min(g.y, 1.0 - g.y));
    float tile = smoothstep(0.0, 0.04, line);
    vec2 id = floor(p / 0.5);
    float chk = mod(id.x + id.y, 2.0);
    vec3 base = mix(vec3(0.80, 0.88, 0.92), vec3(0.70, 0.82, 0.90), chk);
    // a dark stripe every 4 m (lane marks)
    float lane = smoothstep(0.08, 0.04, abs(fract(p.y / 4.0 + 0.125) - 0.5) * 4.0);
    base = mix(base, vec3(0.15, 0.22, 0.45), lane * 0.8);
    return mix(vec3(0.45, 0.52, 0.58), base, tile);
}

// The sun's light on the floor at domain point p (m), relative to flat water:
// bilinear over the caustics accumulator's cells (render_caustics.h); 1
// without caustics.
float caustic_light(vec2 p)
{
    if (fr.misc.z == 0.0)
        return 1.0;
    vec2 f = clamp(p / dom_dx() - 0.5, vec2(0.0), vec2(float(fr.nx - 1u), float(fr.ny - 1u)));
    ivec2 i0 = ivec2(f);
    vec2 t = f - vec2(i0);
    float a = mix(float(caustics[cell_index(i0.x, i0.y)]), float(caustics[cell_index(i0.x + 1, i0.y)]), t.x);
    float b = mix(float(caustics[cell_index(i0.x, i0.y + 1)]), float(caustics[cell_index(i0.x + 1, i0.y + 1)]), t.x);
    return mix(a, b, t.y) / float(VF_CAUSTICS_ONE);
}

// 2D gradient noise (Perlin) in [-1, 1].
vec2 noise_grad(vec2 i)
{
    uint h = uint(int(i.x) * 73856093 ^ int(i.y) * 19349663);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    float a = float(h & 0xffffu) * (6.2831853 / 65536.0);
    return vec2(cos(a), sin(a));
}

float perlin(vec2 p)
{
    vec2 i = floor(p), f = p - i;
    vec2 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    float a = dot(noise_grad(i), f), b = dot(noise_grad(i + vec2(1, 0)), f - vec2(1, 0));
    float c = dot(noise_grad(i + vec2(0, 1)), f - vec2(0, 1)), d = dot(noise_grad(i + vec2(1, 1)), f - vec2(1, 1));
    return 1.4 * mix(mix(a, b, u.x), mix(c, d, u.x), u.y);
}

// Animated turbulence (Klein et al. section 6): octaves of Perlin noise, each
// drifting with its own time offset so no single pattern is recognisable.
// Band-limited for a pixel footprint fw (in p units): octaves finer than about
// two pixels fade out (the procedural counterpart of a normal map's mip
// chain), and lost gets the slope variance they would have added, for the
// caller's specular roughness (Toksvig / LEAN: filtered detail becomes
// roughness instead of aliasing). fw = 0 keeps every octave.
float turbulence_aa(vec2 p, float t, float fw, out float lost)
{
    float s = 0.0, amp = 1.0, freq = 1.0;
    lost = 0.0;
    for (int o = 0; o < 4; o++) {
        float w = 1.0 - smoothstep(0.2, 0.45, fw * freq);
        vec2 drift = vec2(cos(1.7 * float(o) + 0.3), sin(1.7 * float(o) + 0.3)) * (0.35 + 0.15 * float(o)) * t;
        if (w > 0.0)
            s += w * amp * abs(perlin(p * freq + drift + vec2(17.0 * float(o))));
        lost += (1.0 - w * w) * amp * amp * freq * freq;
        amp *= 0.5;
        freq *= 2.03;
    }
    return s;
}

float turbulence(vec2 p, float t)
{
    float lost;
    return turbulence_aa(p, t, 0.0, lost);
}

// The flow's dye at domain point p (metres), bilinear over the flow's cells
// (cell-centred, flow_nx x flow_ny over the same domain); 0 without dye.
vec3 sample_dye(vec2 p)
{
    if (fr.flow_nx == 0u || fr.flow_ny == 0u)
        return vec3(0.0);
    vec2 size = vec2(float(fr.nx), float(fr.ny)) * fr.grid.x;
    vec2 nf = vec2(float(fr.flow_nx), float(fr.flow_ny));
    vec2 f = clamp(p / size * nf - 0.5, vec2(0.0), nf - 1.0);
    uvec2 a = uvec2(f), b = min(a + 1u, uvec2(fr.flow_nx, fr.flow_ny) - 1u);
    vec2 t = f - vec2(a);
    uint i00 = a.y * fr.flow_nx + a.x, i10 = a.y * fr.flow_nx + b.x;
    uint i01 = b.y * fr.flow_nx + a.x, i11 = b.y * fr.flow_nx + b.x;
    vec3 c00 = vec3(dye_r[i00], dye_g[i00], dye_b[i00]), c10 = vec3(dye_r[i10], dye_g[i10], dye_b[i10]);
    vec3 c01 = vec3(dye_r[i01], dye_g[i01], dye_b[i01]), c11 = vec3(dye_r[i11], dye_g[i11], dye_b[i11]);
    return max(mix(mix(c00, c10, t.x), mix(c01, c11, t.x), t.y), vec3(0.0));
}

// A terrain's ground (frame misc.w = 1): grass on gentle slopes, bare earth
// and rock on steep ones; up is the ground normal's vertical part (1 flat,
// 0 a cliff), p the domain point (m).
bool terrain_style() { return fr.misc.w > 0.5; }
vec3 terrain_color(vec2 p, float up)
{
    float n = 0.5 + 0.5 * perlin(p * 0.35);
    vec3 grass = mix(vec3(0.28, 0.42, 0.16), vec3(0.40, 0.50, 0.22), n);
    vec3 earth = vec3(0.50, 0.40, 0.28), rock = vec3(0.48, 0.46, 0.43);
    return mix(grass, mix(earth, rock, smoothstep(0.75, 0.55, up)), smoothstep(0.93, 0.80, up));
}

// ---- shading shared by the raster path's fragment shaders and the compute
// path's march (surface_march.comp), so both draw the same picture.

// The bed, walls and terrain at a surface point: n its face normal (towards
// the eye), dom the domain point (m), bedh the bed height (m), solid > 0.5 a
// wall or obstacle.
vec3 surface_bed_shade(vec3 n, vec2 dom, float bedh, float solid)
{
    vec3 base = terrain_style() ? (solid > 0.5 ? vec3(0.42, 0.34, 0.25) : terrain_color(dom, abs(n.y)))
                                : floor_color(dom, bedh, solid > 0.5);
    float lambert = max(dot(n, normalize(fr.sun.xyz)), 0.0);
    return base * (0.35 + 0.75 * lambert);
}

// A floating object's face with normal n (towards the eye).
vec3 surface_object_shade(vec3 n, vec3 albedo)
{
    float lambert = max(dot(n, normalize(fr.sun.xyz)), 0.0);
    return albedo * (0.4 + 0.7 * lambert);
}

// The water's shading normal at world point world: the interpolated vertex
// normal with the detail normals of the band-limited turbulence in domain
// metres (dom), fw the pixel footprint of q = 3 dom; lost gets the filtered
// octaves' slope variance.
vec3 surface_water_normal(vec3 world, vec3 normal, vec2 dom, float fw, out float lost)
{
    float t = fr.eye.w;
    vec2 q = dom * 3.0;
    float e = 0.02;
    float l1, l2;
    float t0 = turbulence_aa(q, t, fw, lost), tx = turbulence_aa(q + vec2(e, 0.0), t, fw, l1),
          ty = turbulence_aa(q + vec2(0.0, e), t, fw, l2);
    vec2 grad = vec2(tx - t0, ty - t0) / e;
    float amp = fr.misc.x * 0.04;
    vec3 n = normalize(normalize(normal) + amp * vec3(-grad.x, 0.0, -grad.y));
    vec3 v = normalize(fr.eye.xyz - world);
    if (dot(n, v) < 0.0)
        n = normalize(n + v * (0.01 - dot(n, v)));
    return n;
}

// The water's colour at world point world with shading normal n
// (surface_water_normal), depth (m) and true slope |grad eta| there; kernel
// is half the squared change of n across the pixel (specular antialiasing).
vec3 surface_water_shade(vec3 world, vec3 n, vec2 dom, float depth, float slope, float lost, float kernel)
{
    float amp = fr.misc.x * 0.04;
    vec3 v = normalize(fr.eye.xyz - world);
    float cos_i = clamp(dot(n, v), 0.0, 1.0);
    float fresnel = 0.02 + 0.98 * pow(1.0 - cos_i, 5.0);
    vec3 r = reflect(-v, n);
    r.y = abs(r.y);
    vec3 refl = sky_base(r);
    // refraction: the ray bends into the water and hits the bed one local depth down
    vec3 tr = refract(-v, n, 1.0 / fr.water.w);
    float s = world_scale();
    float down = max(-tr.y, 0.08);
    float path_w = depth * s / down; // world units
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
    return c + vec3(1.0, 0.95, 0.85) * spec;
}

// Floating object k's box part (0 or 1): its size (length along the
// heading, width, height) and centre offset (forward, side, up) in metres,
// and its colour. Leaf: one thin box (part 1 empty); duck: body and head;
// boat: hull and cabin; bulldozer (terrain): body and blade.
void surface_object_box(vf_height_object o, uint k, uint part, out vec3 ext, out vec3 off, out vec3 albedo)
{
    float sz = o.size;
    if (o.kind == VF_HEIGHT_OBJ_LEAF) {
        ext = part == 0u ? vec3(sz, 0.6 * sz, 0.04 * sz) : vec3(0.0);
        off = vec3(0.0, 0.0, 0.02 * sz);
        albedo = (k & 1u) != 0u ? vec3(0.85, 0.42, 0.08) : vec3(0.72, 0.62, 0.10); // autumn leaves
    } else if (o.kind == VF_HEIGHT_OBJ_DUCK) {
        ext = part == 0u ? vec3(sz, 0.6 * sz, 0.45 * sz) : vec3(0.32 * sz, 0.3 * sz, 0.32 * sz);
        off = part == 0u ? vec3(0.0, 0.0, 0.12 * sz) : vec3(0.38 * sz, 0.0, 0.5 * sz);
        albedo = part == 0u ? vec3(1.0, 0.82, 0.08) : vec3(1.0, 0.75, 0.05);
    } else if (o.kind == VF_HEIGHT_OBJ_DOZER) { // the terrain's bulldozer: body and blade
        ext = part == 0u ? vec3(sz, 0.6 * sz, 0.45 * sz) : vec3(0.1 * sz, 0.9 * sz, 0.3 * sz);
        off = part == 0u ? vec3(0.0, 0.0, 0.22 * sz) : vec3(0.55 * sz, 0.0, 0.15 * sz);
        albedo = part == 0u ? vec3(0.95, 0.68, 0.08) : vec3(0.3, 0.3, 0.32);
    } else {
        ext = part == 0u ? vec3(sz, 0.38 * sz, 0.22 * sz) : vec3(0.32 * sz, 0.26 * sz, 0.2 * sz);
        off = part == 0u ? vec3(0.0, 0.0, 0.04 * sz) : vec3(-0.12 * sz, 0.0, 0.25 * sz);
        albedo = part == 0u ? vec3(0.92, 0.92, 0.95) : vec3(0.80, 0.16, 0.10);
    }
}

// Floating object o's frame in domain metres (x, up, y): up the surface
// normal under it, fwd its heading projected onto the surface, side their
// cross product; centre its position.
void surface_object_frame(vf_height_object o, out vec3 centre, out vec3 fwd, out vec3 side, out vec3 up)
{
    vec2 pos = vec2(o.x, o.y);
    float e = dom_dx();
    float gx = (sample_eta(pos + vec2(e, 0.0)) - sample_eta(pos - vec2(e, 0.0))) / (2.0 * e);
    float gy = (sample_eta(pos + vec2(0.0, e)) - sample_eta(pos - vec2(0.0, e))) / (2.0 * e);
    up = normalize(vec3(-gx, 1.0, -gy)); // world axes (x, up, z = domain y)
    fwd = vec3(cos(o.heading), 0.0, sin(o.heading));
    fwd = normalize(fwd - up * dot(fwd, up));
    side = cross(up, fwd);
    centre = vec3(pos.x, o.z, pos.y);
}
