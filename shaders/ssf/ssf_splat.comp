#version 450
// Splat pass of the compute path: one invocation per particle splats its
// sphere (ssf_splat.glsl) over the pixels of its screen box; a sphere whose
// box holds more than VF_SSF_SPLAT_BIG_PX pixels is listed for
// ssf_splat_big.comp instead (while the list has room), so one invocation
// never walks a large part of the screen while its neighbours wait.
// Dispatched with vf_cmd_dispatch_1d (workgroups over x, then y).
#include "shared_ssf.h"
#include "ssf_common.glsl"
#include "ssf_splat.glsl"

layout(local_size_x = VF_SSF_WG_SPLAT) in;

void main()
{
    uint i = vf_group_linear() * uint(VF_SSF_WG_SPLAT) + gl_LocalInvocationID.x;
    if (i < pc.count) {
        float r = fr.shade.x;
        vec3 c = (fr.view * vec4(positions[i].xyz, 1.0)).xyz;
        ivec4 box, tbox = ivec4(0, 0, -1, -1);
        bool any_px = ssf_sphere_box(c, r, fr.viewport.xy, box);
        if (pc.thick_fused == 0u)
            any_px = ssf_sphere_box(c, r, fr.thick_size.xy, tbox) || any_px;
        bool big = false;
        if (any_px && box.x <= box.z && box.y <= box.w &&
            uint(box.z - box.x + 1) * uint(box.w - box.y + 1) > uint(VF_SSF_SPLAT_BIG_PX)) {
            uint slot = atomicAdd(args[VF_SSF_ARGS_BIG_TAKEN], 1u);
            if (slot < uint(VF_SSF_BIG_MAX)) {
                args[VF_SSF_ARGS_LIST + slot] = i;
                atomicAdd(args[VF_SSF_ARGS_BIG + 0], 1u);
                big = true;
            }
        }
        if (any_px && !big)
            ssf_splat_sphere(c, r, box, tbox, 0u, 1u);
    }
    ssf_splat_stats();
}
