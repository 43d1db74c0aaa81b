#version 450
// Large spheres of the compute path's splat: workgroup g splats the sphere
// of particle args[VF_SSF_ARGS_LIST + g] (listed by ssf_splat.comp), its
// invocations taking every VF_SSF_WG_BIG-th pixel of the sphere's box.
#include "shared_ssf.h"
#include "ssf_common.glsl"
#include "ssf_splat.glsl"

layout(local_size_x = VF_SSF_WG_BIG) in;

void main()
{
    uint i = args[VF_SSF_ARGS_LIST + gl_WorkGroupID.x];
    float r = fr.shade.x;
    vec3 c = (fr.view * vec4(positions[i].xyz, 1.0)).xyz;
    ivec4 box, tbox = ivec4(0, 0, -1, -1);
    ssf_sphere_box(c, r, fr.viewport.xy, box);
    if (pc.thick_fused == 0u)
        ssf_sphere_box(c, r, fr.thick_size.xy, tbox);
    ssf_splat_sphere(c, r, box, tbox, gl_LocalInvocationID.x, uint(VF_SSF_WG_BIG));
    ssf_splat_stats();
}
