#version 450
// Composite of the compute path: per pixel the shaded fluid (ssf_composite.glsl)
// where it has fluid whose depth-buffer value is not above the scene's (the
// raster pass's LESS_OR_EQUAL test), else the scene's colour; then the foam
// layer: the foam pass summed the optical depth tau of the sprites over the
// pixel, and since every sprite has the same colour C, drawing them one over
// another with alpha a_i leaves C (1 - T) + colour T, T = exp(-tau) = the
// product of (1 - a_i), in any order. The raster pass blends in the target's
// space (linear for sRGB formats, the encoded values for UNORM ones); so does
// this one. Writes sRGB-encoded bytes into an RGBA8 UNORM storage view: the
// output target's own (an sRGB target's UNORM alias) or an image that is
// then copied into the target, in B, G, R, A order for a BGRA target.
#include "shared_ssf.h"
#include "ssf_common.glsl"

#define SSF_CS_FLUID_DEPTH VF_SSF_CS_FLUID_DEPTH
#define SSF_CS_THICKNESS VF_SSF_CS_THICKNESS
#define SSF_CS_SCENE_COLOR VF_SSF_CS_SCENE_SAMPLED
#define SSF_COMPOSITE_BIND(name) SSF_CS_##name
#include "ssf_composite.glsl"

layout(local_size_x = VF_SSF_WG_X, local_size_y = VF_SSF_WG_Y) in;
layout(binding = VF_SSF_CS_SCENE_DEPTH, r32f) uniform readonly image2D scene_depth;
layout(std430, binding = VF_SSF_CS_FOAM_ACC) readonly buffer FoamAcc { uint foam_acc[]; };
layout(binding = VF_SSF_CS_OUTPUT, rgba8) uniform writeonly image2D out_img;
VF_PUSH(vf_ssf_cs_push)

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= int(fr.viewport.x) || p.y >= int(fr.viewport.y))
        return;
    vec3 c;
    float depth;
    if (!ssf_composite_shade(p, vec2(p) + 0.5, c, depth) || depth > imageLoad(scene_depth, p).r)
        c = texelFetch(scene_color, p, 0).rgb;
    vec3 enc = ssf_srgb_encode(c);
    if (pc.has_foam != 0u) {
        uint tau = foam_acc[p.y * int(fr.viewport.x) + p.x];
        if (tau != 0u) {
            float t = exp(-float(tau) * (1.0 / VF_SSF_FOAM_UNITS));
            vec3 f = ssf_foam_color();
            enc = fr.encode_srgb != 0u ? mix(ssf_srgb_encode(f), enc, t) : ssf_srgb_encode(mix(f, clamp(c, 0.0, 1.0), t));
        }
    }
    vec4 o = vec4(enc, 1.0);
    imageStore(out_img, p, pc.bgra != 0u ? o.bgra : o);
}
