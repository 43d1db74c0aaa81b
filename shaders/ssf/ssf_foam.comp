#version 450
// Foam pass of the compute path: each live diffuse particle's sprite
// (foam_sprite.glsl) over the pixels whose centres its screen square holds,
// where its depth-buffer value is not above the scene's (the raster layer's
// LESS_OR_EQUAL test): the optical depth -ln(1 - a) of its alpha a there
// (ssf_foam_alpha) added in fixed point (VF_SSF_FOAM_UNITS) to the pixel's
// foam word, which the composite turns into the layer's transmittance.
// Dispatched indirectly (ssf_scene.comp wrote the workgroups from the live
// count), at most VF_SSF_FOAM_GROUPS_MAX workgroups: a grid-stride loop.
#include "shared_ssf.h"
#include "shared_foam.h"
#include "ssf_common.glsl"

layout(local_size_x = VF_SSF_WG_SPLAT) in;
layout(std430, binding = VF_SSF_CS_FOAM_POS) readonly buffer FoamPos { vec4 fpos[]; };
layout(std430, binding = VF_SSF_CS_FOAM_VEL) readonly buffer FoamVel { vec4 fvel[]; };
layout(binding = VF_SSF_CS_FLUID_DEPTH) uniform sampler2D fluid_depth;
layout(binding = VF_SSF_CS_SCENE_DEPTH, r32f) uniform readonly image2D scene_depth;
layout(std430, binding = VF_SSF_CS_FOAM_ACC) buffer FoamAcc { uint foam_acc[]; };
layout(std430, binding = VF_SSF_CS_ARGS) buffer Args { uint args[]; };
VF_PUSH(vf_ssf_cs_push)
#include "foam_sprite.glsl"

void main()
{
    uint count = min(args[VF_SSF_ARGS_FOAM_COUNT], uint(fpos.length()));
    uint stride = gl_NumWorkGroups.x * uint(VF_SSF_WG_SPLAT);
    uint atomics = 0u;
    vec2 vp = fr.viewport.xy;
    for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
        vec3 c;
        float size, alpha;
        if (!foam_sprite(i, c, size, alpha) || any(isnan(c)) || any(isinf(c)))
            continue;
        float w = -c.z, ndc = ssf_ndc_depth(c.z);
        if (ndc > 1.0)
            continue;
        vec2 centre = (fr.proj_params.xy * c.xy / w + 1.0) * 0.5 * vp;
        vec2 half_px = abs(fr.proj_params.xy) * size / w * 0.5 * vp;
        // pixel centres k + 0.5 in [centre - half, centre + half)
        ivec2 lo = ivec2(clamp(ceil(centre - half_px - 0.5), vec2(0.0), vp));
        ivec2 hi = ivec2(clamp(ceil(centre + half_px - 0.5), vec2(0.0), vp)) - 1;
        for (int y = lo.y; y <= hi.y; y++)
            for (int x = lo.x; x <= hi.x; x++) {
                ivec2 q = ivec2(x, y);
                if (ndc > imageLoad(scene_depth, q).r)
                    continue;
                vec2 corner = (vec2(q) + 0.5 - centre) / half_px;
                float a = ssf_foam_alpha(corner, alpha, w, texelFetch(fluid_depth, q, 0).r);
                if (a <= 0.0)
                    continue;
                float tau = -log(1.0 - min(a, 0.999));
                atomicAdd(foam_acc[y * int(vp.x) + x], uint(tau * VF_SSF_FOAM_UNITS + 0.5));
                atomics++;
            }
    }
    if (pc.stats != 0u)
        atomicAdd(args[VF_SSF_ARGS_STATS + 3], atomics);
}
