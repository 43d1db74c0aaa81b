#version 450
// Adds the scanned block sums to every element of each block (second half of
// the multi-level exclusive scan).
#include "shared.h"

layout(local_size_x = VF_SCAN_WG) in;
layout(std430, binding = VF_SCAN_BIND_DATA) buffer Data { uint data[]; };
layout(std430, binding = VF_SCAN_BIND_SUMS) readonly buffer Sums { uint sums[]; };
VF_PUSH(vf_scan_push)

void main()
{
    uint block = vf_group_linear();
    uint add = sums[pc.sums_offset + block];
    uint base = block * VF_SCAN_BLOCK + gl_LocalInvocationID.x;
    for (uint k = 0u; k < VF_SCAN_PER_THREAD; k++) {
        uint idx = base + k * VF_SCAN_WG;
        if (idx < pc.count)
            data[idx] += add;
    }
}
