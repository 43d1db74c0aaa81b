#version 450
// Thickness blur, one 1D pass of a Gaussian (sigma_px, offsets
// -radius..radius) over the fluid's pixels only: empty pixels (thickness 0)
// do not contribute and the weights are renormalised over the fluid pixels
// taken, so the blur evens out the spheres' chords inside the fluid without
// thinning a column a few pixels wide by the empty pixels beside it. An
// empty pixel gets the mean of the fluid pixels in reach (0 when none): a
// pixel the depth pass covers but no chord reached, or the edge of a lower
// resolution thickness, reads its neighbours' thickness. Reads a sampled image (the raw R16F thickness, or the R32F
// intermediate), writes R32F. Mirrors vf_ssf_blur_pass_ref().
#include "shared_ssf.h"

layout(local_size_x = VF_SSF_WG_X, local_size_y = VF_SSF_WG_Y) in;
layout(binding = VF_SSF_BIND_SRC) uniform sampler2D src;
layout(binding = VF_SSF_BIND_DST, r32f) uniform writeonly image2D dst;
VF_PUSH(vf_ssf_blur_push)

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(pc.width) || p.y >= int(pc.height))
        return;
    ivec2 dir = ivec2(pc.dir_x, pc.dir_y);
    float inv2s2 = 0.5 / (pc.sigma_px * pc.sigma_px);
    float sum = texelFetch(src, p, 0).r, wsum = 1.0;
    if (sum <= 0.0)
        sum = wsum = 0.0;
    for (int i = 1; i <= pc.radius_px; i++) {
        float w = exp(-float(i * i) * inv2s2);
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            ivec2 q = p + dir * (i * sgn);
            if (q.x < 0 || q.y < 0 || q.x >= int(pc.width) || q.y >= int(pc.height))
                continue;
            float t = texelFetch(src, q, 0).r;
            if (t <= 0.0)
                continue;
            sum += w * t;
            wsum += w;
        }
    }
    imageStore(dst, p, vec4(wsum > 0.0 ? sum / wsum : 0.0));
}
