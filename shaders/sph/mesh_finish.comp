#version 450
// Finish, one invocation: the totals (the scans' last entries) and the
// indirect draw of the triangles that fit.
#include "shared_mesh.h"
#include "mesh_common.glsl"

layout(std430, binding = VF_MESH_BIND_TRIS) readonly buffer TrisBuf
{
    uint tris[];
};
layout(std430, binding = VF_MESH_BIND_EDGES) readonly buffer EdgesBuf
{
    uint edges[];
};
layout(std430, binding = VF_MESH_BIND_COUNTS) writeonly buffer CountsBuf
{
    uint counts[8]; // triangles, vertices, stored triangles, stored vertices; VkDrawIndirectCommand
};

void main()
{
    if (gl_GlobalInvocationID.x != 0u)
        return;
    uint nt = tris[mesh_cells()];
    uint nv = edges[3u * pc.nx * pc.ny * pc.nz];
    uint st = min(nt, pc.max_tris);
    counts[0] = nt;
    counts[1] = nv;
    counts[2] = st;
    counts[3] = min(nv, pc.max_verts);
    counts[4] = 3u * st;
    counts[5] = 1u;
    counts[6] = 0u;
    counts[7] = 0u;
}
