#version 450
// Second pass of the cell starts: each workgroup adds up the block sums
// before its block (its offset), scans its block of counts (each thread
// adds up its run, the runs' sums are scanned Hillis-Steele through shared
// memory, correct for any subgroup size, and each thread reads its run again
// to write the starts), writes offset + prefix to the starts and sets the
// counts back to zero, so the next binning needs no clearing pass.
#include "shared_sph.h"
#include "sph_texel.glsl"

layout(local_size_x = VF_SPH_SCAN_WG) in;
layout(std430, binding = VF_SPH_SCAN_BIND_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = VF_SPH_SCAN_BIND_SUMS) readonly buffer Sums { uint sums[]; };
layout(std430, binding = VF_SPH_SCAN_BIND_START) writeonly buffer Start { uint start[]; };
layout(binding = VF_SPH_SCAN_BIND_COUNTS_T) uniform usamplerBuffer counts_t;
layout(binding = VF_SPH_SCAN_BIND_SUMS_T) uniform usamplerBuffer sums_t;
VF_PUSH(vf_sph_scan_push)

shared uint s_sum[VF_SPH_SCAN_WG];

uint count_at(uint k) { return sph_texel ? texelFetch(counts_t, int(k)).x : counts[k]; }

void main()
{
    uint block = vf_group_linear();
    uint lid = gl_LocalInvocationID.x;
    if (block > (pc.count - 1u) / VF_SPH_SCAN_BLOCK)
        return; // a workgroup past the end of a dispatch split over y (whole workgroup)

    // the offset: sums of blocks [0, block)
    uint before = 0u;
    for (uint b = lid; b < block; b += VF_SPH_SCAN_WG)
        before += sph_texel ? texelFetch(sums_t, int(b)).x : sums[b];
    s_sum[lid] = before;
    barrier();
    for (uint s = VF_SPH_SCAN_WG / 2u; s > 0u; s >>= 1u) {
        if (lid < s)
            s_sum[lid] += s_sum[lid + s];
        barrier();
    }
    uint offset = s_sum[0];
    barrier();

    uint base = block * VF_SPH_SCAN_BLOCK + lid * VF_SPH_SCAN_PER_THREAD;
    uint sum = 0u;
    for (uint k = 0u; k < VF_SPH_SCAN_PER_THREAD; k++) {
        uint idx = base + k;
        sum += idx < pc.count ? count_at(idx) : 0u;
    }
    s_sum[lid] = sum;
    barrier();
    for (uint off = 1u; off < VF_SPH_SCAN_WG; off <<= 1u) {
        uint x = s_sum[lid];
        if (lid >= off)
            x += s_sum[lid - off];
        barrier();
        s_sum[lid] = x;
        barrier();
    }
    uint run = offset + s_sum[lid] - sum; // the thread's first start
    for (uint k = 0u; k < VF_SPH_SCAN_PER_THREAD; k++) {
        uint idx = base + k;
        if (idx < pc.count) {
            uint x = count_at(idx);
            start[idx] = run;
            counts[idx] = 0u;
            run += x;
        }
    }
}
