#version 450
// Triangles, one invocation per cube: 3 vertex indices per triangle of its
// case, each the scanned index of the crossed grid edge it lies on.
#include "shared_mesh.h"
#include "mesh_common.glsl"

layout(std430, binding = VF_MESH_BIND_TABLE) readonly buffer TableBuf
{
    uint table[];
};
layout(std430, binding = VF_MESH_BIND_TRIS) readonly buffer TrisBuf
{
    uint tris[];
};
layout(std430, binding = VF_MESH_BIND_EDGES) readonly buffer EdgesBuf
{
    uint edges[];
};
layout(std430, binding = VF_MESH_BIND_INDICES) writeonly buffer IndexBuf
{
    uint indices[];
};

void main()
{
    uint cell = vf_group_linear() * VF_MESH_WG + gl_LocalInvocationID.x;
    if (cell >= mesh_cells())
        return;
    ivec3 q = mesh_cell_of(cell);
    uint row = mesh_case(q) * VF_MESH_CASE_STRIDE;
    uint n = table[row];
    uint base = tris[cell];
    for (uint t = 0u; t < n; t++) {
        uint tri = base + t;
        if (tri >= pc.max_tris)
            break;
        for (uint j = 0u; j < 3u; j++) {
            uint e = table[row + 1u + 3u * t + j];
            uint a = e / 4u, m = e % 4u;
            ivec3 s = ivec3(0);
            s[(a + 1u) % 3u] = int(m & 1u);
            s[(a + 2u) % 3u] = int(m >> 1u);
            indices[3u * tri + j] = edges[3u * mesh_point_index(q + s) + a];
        }
    }
}
