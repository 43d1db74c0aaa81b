#version 450
// First pass of the cell starts: the sum of each block of VF_SPH_SCAN_BLOCK
// per-cell counts (workgroup reduction through shared memory).
#include "shared_sph.h"
#include "sph_texel.glsl"

layout(local_size_x = VF_SPH_SCAN_WG) in;
layout(std430, binding = VF_SPH_SCAN_BIND_COUNTS) readonly buffer Counts { uint counts[]; };
layout(std430, binding = VF_SPH_SCAN_BIND_SUMS) writeonly buffer Sums { uint sums[]; };
layout(binding = VF_SPH_SCAN_BIND_COUNTS_T) uniform usamplerBuffer counts_t;
VF_PUSH(vf_sph_scan_push)

shared uint s_sum[VF_SPH_SCAN_WG];

void main()
{
    uint block = vf_group_linear();
    uint lid = gl_LocalInvocationID.x;
    if (block > (pc.count - 1u) / VF_SPH_SCAN_BLOCK)
        return; // a workgroup past the end of a dispatch split over y (whole workgroup)
    uint base = block * VF_SPH_SCAN_BLOCK + lid * VF_SPH_SCAN_PER_THREAD;
    uint sum = 0u;
    for (uint k = 0u; k < VF_SPH_SCAN_PER_THREAD; k++) {
        uint idx = base + k;
        if (idx < pc.count)
            sum += sph_texel ? texelFetch(counts_t, int(idx)).x : counts[idx];
    }
    s_sum[lid] = sum;
    barrier();
    for (uint s = VF_SPH_SCAN_WG / 2u; s > 0u; s >>= 1u) {
        if (lid < s)
            s_sum[lid] += s_sum[lid + s];
        barrier();
    }
    if (lid == 0u)
        sums[block] = s_sum[0];
}
