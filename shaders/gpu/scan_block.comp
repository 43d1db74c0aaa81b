#version 450
// Exclusive prefix sum of one block of VF_SCAN_BLOCK uint32 in place; writes
// the block total to sums[] when asked. Workgroup-wide scan through shared
// memory (Hillis-Steele), so it is correct for any subgroup size.
#include "shared.h"

layout(local_size_x = VF_SCAN_WG) in;
layout(std430, binding = VF_SCAN_BIND_DATA) buffer Data { uint data[]; };
layout(std430, binding = VF_SCAN_BIND_SUMS) buffer Sums { uint sums[]; };
VF_PUSH(vf_scan_push)

shared uint s_sum[VF_SCAN_WG];

void main()
{
    uint block = vf_group_linear();
    uint lid = gl_LocalInvocationID.x;
    uint base = block * VF_SCAN_BLOCK + lid * VF_SCAN_PER_THREAD;
    uint v[VF_SCAN_PER_THREAD];
    uint sum = 0u;
    for (uint k = 0u; k < VF_SCAN_PER_THREAD; k++) {
        uint idx = base + k;
        uint x = idx < pc.count ? data[idx] : 0u;
        v[k] = sum;
        sum += x;
    }
    s_sum[lid] = sum;
    barrier();
    for (uint off = 1u; off < VF_SCAN_WG; off <<= 1u) {
        uint x = s_sum[lid];
        if (lid >= off)
            x += s_sum[lid - off];
        barrier();
        s_sum[lid] = x;
        barrier();
    }
    uint inclusive = s_sum[lid];
    uint exclusive = inclusive - sum;
    for (uint k = 0u; k < VF_SCAN_PER_THREAD; k++) {
        uint idx = base + k;
        if (idx < pc.count)
            data[idx] = v[k] + exclusive;
    }
    if (pc.write_sums != 0u && lid == VF_SCAN_WG - 1u)
        sums[pc.sums_offset + block] = inclusive;
}
