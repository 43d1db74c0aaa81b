#version 450
// Caustics on the floor: one thread per photon; see shared_height.h
// (vf_caustics_push) for the model. The CPU reference is
// vf_caustics_reference (render_caustics.c): same steps, same fixed point.
#include "shared_height.h"

layout(local_size_x = VF_CAUSTICS_WG) in;
layout(std430, binding = VF_CAUSTICS_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_CAUSTICS_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_CAUSTICS_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_CAUSTICS_BIND_ACC) buffer Acc { uint acc[]; };
VF_PUSH(vf_caustics_push)

// Bilinear eta at a domain point (m), cell-centred, clamped to the domain.
float sample_eta(vec2 p)
{
    float fx = clamp(p.x / pc.dx - 0.5, 0.0, float(pc.nx - 1u));
    float fy = clamp(p.y / pc.dx - 0.5, 0.0, float(pc.ny - 1u));
    uint x0 = min(uint(fx), pc.nx - 1u), y0 = min(uint(fy), pc.ny - 1u);
    uint x1 = min(x0 + 1u, pc.nx - 1u), y1 = min(y0 + 1u, pc.ny - 1u);
    float tx = fx - float(x0), ty = fy - float(y0);
    float a = eta[y0 * pc.nx + x0] + tx * (eta[y0 * pc.nx + x1] - eta[y0 * pc.nx + x0]);
    float c = eta[y1 * pc.nx + x0] + tx * (eta[y1 * pc.nx + x1] - eta[y1 * pc.nx + x0]);
    return a + ty * (c - a);
}

// GLSL's refract, written out (the reference has the same steps)
vec3 bend(vec3 i, vec3 n, float e)
{
    float c = dot(n, i);
    float k = 1.0 - e * e * (1.0 - c * c);
    return k < 0.0 ? vec3(0.0) : e * i - (e * c + sqrt(k)) * n;
}

void main()
{
    uint id = vf_group_linear() * VF_CAUSTICS_WG + gl_LocalInvocationID.x;
    uint w = pc.nx * pc.sub, h = pc.ny * pc.sub;
    if (id >= w * h)
        return;
    uint px = id % w, py = id / w;
    uint ci = (py / pc.sub) * pc.nx + px / pc.sub;
    float depth = eta[ci] - bed[ci];
    if ((flags[ci] & VF_HEIGHT_SOLID) != 0u || depth <= VF_CAUSTICS_MIN_DEPTH)
        return;
    vec2 p = (vec2(float(px), float(py)) + 0.5) / float(pc.sub) * pc.dx;
    float gx = (sample_eta(p + vec2(pc.dx, 0.0)) - sample_eta(p - vec2(pc.dx, 0.0))) / (2.0 * pc.dx);
    float gy = (sample_eta(p + vec2(0.0, pc.dx)) - sample_eta(p - vec2(0.0, pc.dx))) / (2.0 * pc.dx);
    vec3 n = normalize(vec3(-gx, -gy, 1.0));
    vec3 d = -vec3(pc.light_x, pc.light_y, pc.light_z);
    float e = 1.0 / pc.ior;
    vec3 t = bend(d, n, e), t0 = bend(d, vec3(0.0, 0.0, 1.0), e);
    vec2 q = p + depth * (t.xy / max(-t.z, 0.05) - t0.xy / max(-t0.z, 0.05));
    // mirrored back into the domain at its edges (no light is lost)
    vec2 l = vec2(float(pc.nx), float(pc.ny)) * pc.dx;
    q = clamp(l - abs(l - abs(q)), vec2(0.0), l);
    vec2 f = q / pc.dx - 0.5, f0 = floor(f), fr = f - f0;
    ivec2 i0 = ivec2(f0);
    float unit = float(VF_CAUSTICS_ONE) / float(pc.sub * pc.sub);
    for (int k = 0; k < 4; k++) {
        int ix = clamp(i0.x + (k & 1), 0, int(pc.nx) - 1), iy = clamp(i0.y + (k >> 1), 0, int(pc.ny) - 1);
        float wgt = ((k & 1) != 0 ? fr.x : 1.0 - fr.x) * ((k & 2) != 0 ? fr.y : 1.0 - fr.y);
        atomicAdd(acc[uint(iy) * pc.nx + uint(ix)], uint(wgt * unit + 0.5));
    }
}
