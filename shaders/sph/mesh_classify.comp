#version 450
// Classify, one invocation per grid point: 1 per edge (3 per point, along
// +x, +y, +z) that the iso level crosses, and for the cube whose lowest
// corner the point is, its triangle count from the case table. Point 0 also
// zeroes the element past each array, so the scans' last entries are totals.
#include "shared_mesh.h"
#include "mesh_common.glsl"

layout(std430, binding = VF_MESH_BIND_TABLE) readonly buffer TableBuf
{
    uint table[];
};
layout(std430, binding = VF_MESH_BIND_TRIS) writeonly buffer TrisBuf
{
    uint tris[];
};
layout(std430, binding = VF_MESH_BIND_EDGES) writeonly buffer EdgesBuf
{
    uint edges[];
};

void main()
{
    uint i = vf_group_linear() * VF_MESH_WG + gl_LocalInvocationID.x;
    uint points = pc.nx * pc.ny * pc.nz;
    if (i == 0u) {
        tris[mesh_cells()] = 0u;
        edges[3u * points] = 0u;
    }
    if (i >= points)
        return;
    ivec3 q = mesh_point_of(i);
    ivec3 dims = mesh_dims();
    bool in0 = mesh_value(q) > pc.iso;
    for (int a = 0; a < 3; a++) {
        ivec3 e = ivec3(a == 0, a == 1, a == 2);
        uint f = 0u;
        if (q[a] + 1 < dims[a] && in0 != (mesh_value(q + e) > pc.iso))
            f = 1u;
        edges[3u * i + uint(a)] = f;
    }
    if (all(lessThan(q, dims - 1))) {
        uint cell = (uint(q.z) * (pc.ny - 1u) + uint(q.y)) * (pc.nx - 1u) + uint(q.x);
        tris[cell] = table[mesh_case(q) * VF_MESH_CASE_STRIDE];
    }
}
