#version 450
// The 3D grid's view: a ray per pixel through the domain box.
// mode VOLUME: front-to-back ray marching of the density with single
// scattering of one directional light (the transmittance to the light comes
// from the per-frame light volume), the hot smoke's black-body glow (fire:
// Kirchhoff's law, emission = absorption x the black body's radiance at the
// gas's temperature), obstacles as lit solid geometry (analytic shapes, shadowed by the
// smoke through the light volume). Slice modes: the plane z = slice.x * depth
// coloured by density, speed, pressure or vorticity magnitude (nearest cell),
// with the obstacles drawn in front of it.
#include "shared_volume.h"
VF_PUSH(vf_volume_push)
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(std430, binding = VF_VOL_SCAL) readonly buffer Scal { float scal[]; };
layout(std430, binding = VF_VOL_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_VOL_LIGHT) readonly buffer Light { float lightv[]; };
layout(std430, binding = VF_VOL_VEL) readonly buffer Vel { float vel[]; };
layout(std430, binding = VF_VOL_P) readonly buffer P { float pr[]; };
layout(std430, binding = VF_VOL_OBST) readonly buffer Obst { vec4 obst[]; };
#include "volume_common.glsl"
VF_VOL_SAMPLER(density_at, scal, 0)
VF_VOL_SAMPLER(temperature_at, scal, vcells())
VF_VOL_SAMPLER(light_at, lightv, 0)

vec3 background(vec3 d)
{
    return mix(vec3(0.05, 0.055, 0.07), vec3(0.22, 0.25, 0.3), clamp(0.5 + 0.5 * d.y, 0.0, 1.0));
}

bool box_hit(vec3 o, vec3 d, vec3 lo, vec3 hi, out float t0, out float t1, out vec3 n)
{
    vec3 inv = 1.0 / d;
    vec3 ta = (lo - o) * inv, tb = (hi - o) * inv;
    vec3 tmin = min(ta, tb), tmax = max(ta, tb);
    t0 = max(max(tmin.x, tmin.y), tmin.z);
    t1 = min(min(tmax.x, tmax.y), tmax.z);
    n = vec3(0.0);
    if (t0 == tmin.x)
        n = vec3(-sign(d.x), 0.0, 0.0);
    else if (t0 == tmin.y)
        n = vec3(0.0, -sign(d.y), 0.0);
    else
        n = vec3(0.0, 0.0, -sign(d.z));
    return t1 >= max(t0, 0.0);
}

// Nearest obstacle hit along the ray (t > 0); 1e30 when none; n its normal.
float obstacles_hit(vec3 o, vec3 d, out vec3 n)
{
    float best = 1e30;
    n = vec3(0.0, 1.0, 0.0);
    for (int k = 0; k < int(pc.slice.z); k++) {
        vec4 a = obst[2 * k], b = obst[2 * k + 1];
        int shape = int(a.x);
        vec3 c = a.yzw;
        float t = 1e30;
        vec3 nn = vec3(0.0);
        if (shape == 1) {
            float t0, t1;
            if (box_hit(o, d, c - b.xyz, c + b.xyz, t0, t1, nn) && t0 > 0.0)
                t = t0;
        } else if (shape == 2) {
            vec3 oc = o - c;
            float bb = dot(oc, d), cc = dot(oc, oc) - b.x * b.x, disc = bb * bb - cc;
            if (disc >= 0.0) {
                float tt = -bb - sqrt(disc);
                if (tt > 0.0) {
                    t = tt;
                    nn = normalize(oc + tt * d);
                }
            }
        } else if (shape == 3) {
            int ax = int(b.w);
            vec3 oc = o - c;
            vec3 e = vec3(0.0);
            e[ax] = 1.0;
            vec3 op = oc - dot(oc, e) * e, dp = d - dot(d, e) * e;
            float qa = dot(dp, dp), qb = dot(op, dp), qc = dot(op, op) - b.x * b.x;
            float disc = qb * qb - qa * qc;
            if (qa > 1e-12 && disc >= 0.0) {
                float tt = (-qb - sqrt(disc)) / qa;
                if (tt > 0.0 && abs(dot(oc + tt * d, e)) <= b.y) {
                    t = tt;
                    nn = normalize(op + tt * dp);
                }
            }
            if (abs(d[ax]) > 1e-12) { // the caps
                for (int s = -1; s <= 1; s += 2) {
                    float tt = (float(s) * b.y - oc[ax]) / d[ax];
                    vec3 q = oc + tt * d - (float(s) * b.y) * e;
                    if (tt > 0.0 && tt < t && dot(q, q) <= b.x * b.x) {
                        t = tt;
                        nn = float(s) * e;
                    }
                }
            }
        }
        if (t < best) {
            best = t;
            n = nn;
        }
    }
    return best;
}

// The light at a solid's surface: the transmittance 1.5 cells out along the
// normal, in the fluid cells next to the solid (the cells inside it hold 0,
// and sampling between them and the surface drew the staircase of the
// voxelised shape as rings).
vec3 shade_solid(vec3 x, vec3 n)
{
    float lit = max(dot(n, pc.light.xyz), 0.0);
    vec3 inside = clamp(x + (1.5 * vh()) * n, vec3(0.0), pc.box.xyz);
    return vec3(0.55, 0.52, 0.48) * (0.25 + 0.75 * lit * light_at(inside));
}

#define VF_BB_VEC3(k, r, g, b) vec3(r, g, b),
const vec3 blackbody_table[VF_BLACKBODY_COUNT + 1] = vec3[](VF_BLACKBODY_LIST(VF_BB_VEC3) vec3(0.0));

// The radiance of a black body at K = 300 + kelvin x theta (theta: the
// temperature above ambient): its colour at luminance 1 (shared_volume.h)
// times (K / 1500 K)^4 less that of the 300 K surroundings (the
// Stefan-Boltzmann law: radiated power ~ K^4).
vec3 blackbody(float theta)
{
    float k = 300.0 + pc.box.w * theta;
    float f = clamp((k - float(VF_BLACKBODY_K0)) / float(VF_BLACKBODY_DK), 0.0, float(VF_BLACKBODY_COUNT - 1));
    int i = min(int(f), VF_BLACKBODY_COUNT - 2);
    vec3 c = mix(blackbody_table[i], blackbody_table[i + 1], f - float(i));
    float q = k / 1500.0, q0 = 300.0 / 1500.0;
    q *= q;
    q0 *= q0;
    return c * max(q * q - q0 * q0, 0.0);
}

vec3 ramp(float t) // blue -> white -> red, t in [-1, 1]
{
    t = clamp(t, -1.0, 1.0);
    return t < 0.0 ? mix(vec3(1.0), vec3(0.1, 0.3, 0.9), -t) : mix(vec3(1.0), vec3(0.9, 0.2, 0.1), t);
}

vec3 heat(float t) // black -> blue -> cyan -> yellow -> white, t in [0, 1]
{
    t = clamp(t, 0.0, 1.0);
    vec3 a = vec3(0.0), b = vec3(0.1, 0.2, 0.8), c = vec3(0.1, 0.8, 0.9), d = vec3(1.0, 0.9, 0.2);
    return t < 0.33 ? mix(a, b, t / 0.33) : (t < 0.66 ? mix(b, c, (t - 0.33) / 0.33) : mix(c, d, (t - 0.66) / 0.34));
}

int fidx(int c, ivec3 p)
{
    int nx = int(pc.nx), ny = int(pc.ny), nz = int(pc.nz);
    int o1 = (nx + 1) * ny * nz, o2 = o1 + nx * (ny + 1) * nz;
    if (c == 0)
        return (p.z * ny + p.y) * (nx + 1) + p.x;
    if (c == 1)
        return o1 + (p.z * (ny + 1) + p.y) * nx + p.x;
    return o2 + (p.z * ny + p.y) * nx + p.x;
}

vec3 ucell(ivec3 p)
{
    p = clamp(p, ivec3(0), vdims() - 1);
    vec3 r;
    for (int c = 0; c < 3; c++) {
        ivec3 q = p;
        q[c] += 1;
        r[c] = 0.5 * (vel[fidx(c, p)] + vel[fidx(c, q)]);
    }
    return r;
}

float slice_value(vec3 x)
{
    ivec3 p = clamp(ivec3(floor(x / vh())), ivec3(0), vdims() - 1);
    if (pc.mode == VF_VOL_MODE_DENSITY)
        return density_at(x);
    if (pc.mode == VF_VOL_MODE_SPEED)
        return length(ucell(p));
    if (pc.mode == VF_VOL_MODE_PRESSURE)
        return pr[vidx(p)];
    float h2 = 2.0 * vh();
    vec3 dx = (ucell(p + ivec3(1, 0, 0)) - ucell(p - ivec3(1, 0, 0))) / h2;
    vec3 dy = (ucell(p + ivec3(0, 1, 0)) - ucell(p - ivec3(0, 1, 0))) / h2;
    vec3 dz = (ucell(p + ivec3(0, 0, 1)) - ucell(p - ivec3(0, 0, 1))) / h2;
    return length(vec3(dy.z - dz.y, dz.x - dx.z, dx.y - dy.x));
}

void main()
{
    vec3 o = pc.eye.xyz;
    vec3 d = normalize(pc.fwd.xyz + (2.0 * uv.x - 1.0) * pc.right.xyz + (1.0 - 2.0 * uv.y) * pc.up.xyz);
    vec3 bg = background(d);
    vec3 no;
    float tobj = obstacles_hit(o, d, no);
    float t0, t1;
    vec3 nb;
    bool inbox = box_hit(o, d, vec3(0.0), pc.box.xyz, t0, t1, nb);
    vec3 behind = tobj < 1e29 ? shade_solid(o + tobj * d, no) : bg;
    if (inbox && tobj >= t1) {
        // the floor of the box (y = 0): a checker lit by the light, shadowed by smoke and obstacles
        vec3 xe = o + t1 * d;
        if (xe.y <= 1e-4 * pc.box.y) {
            vec2 q = floor(xe.xz / (0.1 * pc.box.x));
            float chk = mod(q.x + q.y, 2.0) == 0.0 ? 0.34 : 0.28;
            behind = vec3(chk) * (0.35 + 0.65 * max(pc.light.y, 0.0) * light_at(xe));
        }
    }
    if (!inbox) {
        color = vec4(behind, 1.0);
        return;
    }
    t0 = max(t0, 0.0);
    if (pc.mode != VF_VOL_MODE_VOLUME) {
        float zs = pc.slice.x * pc.box.z, ts = (zs - o.z) / d.z;
        vec3 x = o + ts * d;
        bool on = abs(d.z) > 1e-9 && ts > 0.0 && all(greaterThanEqual(x, vec3(-1e-6))) &&
                  all(lessThanEqual(x, pc.box.xyz + 1e-6)) && ts < tobj;
        vec3 c = behind;
        if (on) {
            x = clamp(x, vec3(0.0), pc.box.xyz);
            float v = slice_value(x) / pc.slice.y;
            c = vsolid_at(x) ? vec3(0.3) : (pc.mode == VF_VOL_MODE_PRESSURE ? ramp(v) : heat(v));
        }
        // the box's outline: darken near its edges on the back faces
        color = vec4(c, 1.0);
        return;
    }
    float tend = min(t1, tobj), step = pc.eye.w;
    float tr = 1.0;
    vec3 acc = vec3(0.0);
    vec3 lightc = vec3(1.0, 0.97, 0.9) * 1.3;
    int maxn = int(ceil((tend - t0) / step)) + 1;
    for (int k = 0; k < maxn && tr > 0.004; k++) {
        float t = t0 + (float(k) + 0.5) * step;
        if (t > tend)
            break;
        vec3 x = o + t * d;
        float rho = max(density_at(x), 0.0);
        float temp = max(temperature_at(x) - pc.up.w, 0.0);
        float ext = pc.fwd.w * rho, albedo = pc.slice.w;
        vec3 emit = pc.right.w > 0.0 ? (pc.right.w * (1.0 - albedo) * ext) * blackbody(temp) : vec3(0.0);
        vec3 scat = albedo * ext * light_at(x) * lightc + (0.1875 * albedo) * ext * vec3(0.6, 0.65, 0.75);
        float a = exp(-ext * step);
        // integrate over the step with the source constant: (1 - a) / ext
        float w = ext > 1e-6 ? (1.0 - a) / ext : step;
        acc += tr * (scat + emit) * w;
        tr *= a;
    }
    color = vec4(acc + tr * behind, 1.0);
}
