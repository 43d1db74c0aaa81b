#version 450
// Scene pass of the compute path: the ray cast of ssf_scene.glsl per pixel
// into the linear colour (RGBA16F) and the depth-buffer value (R32F, the
// numbers the raster pass writes to its depth buffer). The checker's filter
// footprint is the raster pass's fwidth: the coarse derivative over the
// pixel's 2x2 quad (the floor's texture coordinate at the quad's first
// pixel and its right and lower neighbours), computed analytically.
// The pass also starts the frame's accumulators: each pixel's depth word to
// VF_SSF_DEPTH_NONE, its thickness and foam words to 0; invocation 0 writes
// the indirect dispatches (no large spheres yet; the foam's workgroups from
// its live count).
#include "shared_ssf.h"
#include "ssf_common.glsl"

vec2 floor_uv(vec2 frag)
{
    vec3 d = mat3(fr.inv_view) * ssf_view_ray(frag, fr.viewport.xy); // the length cancels
    return (fr.eye.xz + d.xz * ((fr.box_min.y - fr.eye.y) / d.y)) / fr.box_max.w;
}

vec2 coarse_fwidth(vec2 frag)
{
    vec2 q = floor(frag * 0.5) * 2.0 + 0.5;
    vec2 u0 = floor_uv(q);
    return abs(floor_uv(q + vec2(1.0, 0.0)) - u0) + abs(floor_uv(q + vec2(0.0, 1.0)) - u0);
}

#define SSF_FLOOR_FOOTPRINT(uv, frag) coarse_fwidth(frag)
#include "ssf_scene.glsl"

layout(local_size_x = VF_SSF_WG_X, local_size_y = VF_SSF_WG_Y) in;
layout(binding = VF_SSF_CS_SCENE_COLOR, rgba16f) uniform writeonly image2D scene_color;
layout(binding = VF_SSF_CS_SCENE_DEPTH, r32f) uniform writeonly image2D scene_depth;
layout(std430, binding = VF_SSF_CS_DEPTH_ACC) writeonly buffer DepthAcc { uint depth_acc[]; };
layout(std430, binding = VF_SSF_CS_THICK_ACC) writeonly buffer ThickAcc { uint thick_acc[]; };
layout(std430, binding = VF_SSF_CS_FOAM_ACC) writeonly buffer FoamAcc { uint foam_acc[]; };
layout(std430, binding = VF_SSF_CS_ARGS) writeonly buffer Args { uint args[]; };
layout(std430, binding = VF_SSF_CS_FOAM_STATE) readonly buffer FoamState { uint foam_state[]; };
VF_PUSH(vf_ssf_cs_push)

void main()
{
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(fr.viewport.xy), tsize = ivec2(fr.thick_size.xy);
    if (p == ivec2(0)) {
        uint foam = pc.count != 0u ? foam_state[pc.count] : 0u;
        uint groups = min((foam + uint(VF_SSF_WG_SPLAT) - 1u) / uint(VF_SSF_WG_SPLAT), uint(VF_SSF_FOAM_GROUPS_MAX));
        args[VF_SSF_ARGS_BIG + 0] = 0u;
        args[VF_SSF_ARGS_BIG + 1] = 1u;
        args[VF_SSF_ARGS_BIG + 2] = 1u;
        args[VF_SSF_ARGS_BIG_TAKEN] = 0u;
        args[VF_SSF_ARGS_FOAM + 0] = groups;
        args[VF_SSF_ARGS_FOAM + 1] = 1u;
        args[VF_SSF_ARGS_FOAM + 2] = 1u;
        args[VF_SSF_ARGS_FOAM_COUNT] = foam;
        for (int k = 0; k < 4 && pc.stats != 0u; k++) /* a counted frame's counts stay until the next one */
            args[VF_SSF_ARGS_STATS + k] = 0u;
    }
    if (p.x < tsize.x && p.y < tsize.y)
        thick_acc[p.y * tsize.x + p.x] = 0u;
    if (p.x >= size.x || p.y >= size.y)
        return;
    float depth;
    vec3 color = ssf_scene_cast(vec2(p) + 0.5, depth);
    imageStore(scene_color, p, vec4(color, 1.0));
    imageStore(scene_depth, p, vec4(depth));
    depth_acc[p.y * size.x + p.x] = VF_SSF_DEPTH_NONE;
    foam_acc[p.y * size.x + p.x] = 0u;
}
