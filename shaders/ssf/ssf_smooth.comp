#version 450
// Depth smoothing, one 1D pass (horizontal or vertical) of either
//  - the bilateral filter: spatial Gaussian (sigma = r/3) times a Gaussian on
//    the depth difference to the centre (range_sigma); empty pixels (0) get
//    no weight; or
//  - the narrow-range filter (Truong & Yuksel 2018): samples taken in
//    symmetric pairs outward from the centre inside a depth window
//    [lo, hi] = z0 -/+ nr_threshold that widens with every accepted pair;
//    a pair with a sample nearer than lo (another surface in front) is
//    skipped, samples farther than hi or empty are clamped to z0 + nr_clamp.
// The half-width r = min(max_radius_px, world_radius * focal_px / z0) pixels
// shrinks with distance. Empty pixels stay empty. Mirrors vf_ssf_smooth_ref().
#include "shared_ssf.h"

layout(local_size_x = VF_SSF_WG_X, local_size_y = VF_SSF_WG_Y) in;
layout(binding = VF_SSF_BIND_SRC, r32f) uniform readonly image2D src;
layout(binding = VF_SSF_BIND_DST, r32f) uniform writeonly image2D dst;
VF_PUSH(vf_ssf_smooth_push)

const float FAR = 3.0e38;

float fetch(ivec2 q, bool empty_is_far)
{
    if (q.x < 0 || q.y < 0 || q.x >= int(pc.width) || q.y >= int(pc.height))
        return -1.0; // outside the image
    float z = imageLoad(src, q).r;
    return z > 0.0 ? z : (empty_is_far ? FAR : 0.0);
}

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(pc.width) || p.y >= int(pc.height))
        return;
    float z0 = imageLoad(src, p).r;
    if (z0 <= 0.0) {
        imageStore(dst, p, vec4(0.0));
        return;
    }
    float r = min(min(pc.max_radius_px, float(VF_SSF_MAX_RADIUS_PX)), pc.world_radius * pc.focal_px / z0);
    int n = int(ceil(r));
    float inv2s2 = r > 0.0 ? 4.5 / (r * r) : 0.0; // 1 / (2 (r/3)^2)
    ivec2 dir = ivec2(pc.dir_x, pc.dir_y);
    float sum = z0, wsum = 1.0;
    if (pc.mode == VF_SSF_FILTER_BILATERAL) {
        float inv2z = 0.5 / (pc.range_sigma * pc.range_sigma);
        for (int i = 1; i <= n; i++) {
            float ws = exp(-float(i * i) * inv2s2);
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                float z = fetch(p + dir * (i * sgn), false);
                if (z <= 0.0)
                    continue;
                float dz = z - z0;
                float w = ws * exp(-dz * dz * inv2z);
                sum += w * z;
                wsum += w;
            }
        }
    } else {
        float lo = z0 - pc.nr_threshold, hi = z0 + pc.nr_threshold;
        for (int i = 1; i <= n; i++) {
            float za = fetch(p - dir * i, true), zb = fetch(p + dir * i, true);
            if (za < 0.0 || zb < 0.0 || za < lo || zb < lo)
                continue;
            if (za > hi)
                za = z0 + pc.nr_clamp;
            if (zb > hi)
                zb = z0 + pc.nr_clamp;
            float w = exp(-float(i * i) * inv2s2);
            sum += w * (za + zb);
            wsum += 2.0 * w;
            lo = min(lo, min(za, zb) - pc.nr_threshold);
            hi = max(hi, max(za, zb) + pc.nr_threshold);
        }
    }
    imageStore(dst, p, vec4(sum / wsum));
}
