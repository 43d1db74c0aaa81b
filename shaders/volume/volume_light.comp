#version 450
// The light-transmittance volume, once per frame: for every cell centre,
// exp(-extinction * optical depth) towards a directional light, marching in
// steps of light.w through the trilinear density; 0 when the march meets a
// solid cell (obstacles cast shadows). The view march then reads it instead
// of marching to the light per sample.
#include "shared_volume.h"
VF_PUSH(vf_volume_push)
layout(local_size_x = VF_VOL_WG_X, local_size_y = VF_VOL_WG_Y, local_size_z = VF_VOL_WG_Z) in;
layout(std430, binding = VF_VOL_SCAL) readonly buffer Scal { float scal[]; };
layout(std430, binding = VF_VOL_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_VOL_LIGHT) writeonly buffer Light { float light[]; };
#include "volume_common.glsl"
VF_VOL_SAMPLER(density_at, scal, 0)

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (any(greaterThanEqual(p, vdims())))
        return;
    vec3 x = (vec3(p) + 0.5) * vh();
    float step = pc.light.w, tau = 0.0, t = 1.0;
    int maxn = int(ceil(length(pc.box.xyz) / step)) + 1;
    for (int k = 0; k < maxn; k++) {
        x += pc.light.xyz * step;
        if (any(lessThan(x, vec3(0.0))) || any(greaterThan(x, pc.box.xyz)))
            break;
        if (vsolid_at(x)) {
            t = 0.0;
            break;
        }
        tau += density_at(x) * step;
    }
    light[vidx(p)] = t * exp(-pc.fwd.w * tau);
}
