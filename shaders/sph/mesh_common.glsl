// mesh_common.glsl: what the mesh compute passes share: the push constants,
// the density grid and its reads (the outermost layer of points reads as
// empty, so the surface is closed). Included after shared.h.

layout(local_size_x = VF_MESH_WG) in;
VF_PUSH(vf_mesh_push)

layout(std430, binding = VF_MESH_BIND_DENSITY) buffer DensityBuf
{
    uint density[];
};

ivec3 mesh_dims()
{
    return ivec3(pc.nx, pc.ny, pc.nz);
}

uint mesh_point_index(ivec3 q)
{
    return (uint(q.z) * pc.ny + uint(q.y)) * pc.nx + uint(q.x);
}

uint mesh_value(ivec3 q)
{
    if (any(lessThanEqual(q, ivec3(0))) || any(greaterThanEqual(q, mesh_dims() - 1)))
        return 0u;
    return density[mesh_point_index(q)];
}

ivec3 mesh_point_of(uint i)
{
    return ivec3(i % pc.nx, (i / pc.nx) % pc.ny, i / (pc.nx * pc.ny));
}

ivec3 mesh_cell_of(uint i)
{
    uint cx = pc.nx - 1u, cy = pc.ny - 1u;
    return ivec3(i % cx, (i / cx) % cy, i / (cx * cy));
}

uint mesh_cells()
{
    return (pc.nx - 1u) * (pc.ny - 1u) * (pc.nz - 1u);
}

uint mesh_case(ivec3 q)
{
    uint c = 0u;
    for (int b = 0; b < 8; b++)
        if (mesh_value(q + ivec3(b & 1, (b >> 1) & 1, (b >> 2) & 1)) > pc.iso)
            c |= 1u << b;
    return c;
}
