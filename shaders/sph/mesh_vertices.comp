#version 450
// Vertices, one invocation per grid point: for each crossed edge from it,
// the iso point by linear interpolation (clamped into the tank) and the
// normal, minus the interpolated density gradient (central differences).
#include "shared_mesh.h"
#include "mesh_common.glsl"

layout(std430, binding = VF_MESH_BIND_EDGES) readonly buffer EdgesBuf
{
    uint edges[];
};
layout(std430, binding = VF_MESH_BIND_VERTICES) writeonly buffer VertexBuf
{
    vec4 vertices[]; // position, normal
};

vec3 gradient_at(ivec3 q)
{
    return vec3(float(mesh_value(q + ivec3(1, 0, 0))) - float(mesh_value(q - ivec3(1, 0, 0))),
                float(mesh_value(q + ivec3(0, 1, 0))) - float(mesh_value(q - ivec3(0, 1, 0))),
                float(mesh_value(q + ivec3(0, 0, 1))) - float(mesh_value(q - ivec3(0, 0, 1))));
}

void main()
{
    uint i = vf_group_linear() * VF_MESH_WG + gl_LocalInvocationID.x;
    if (i >= pc.nx * pc.ny * pc.nz)
        return;
    ivec3 q = mesh_point_of(i);
    ivec3 dims = mesh_dims();
    uint v0 = mesh_value(q);
    for (int a = 0; a < 3; a++) {
        ivec3 e = ivec3(a == 0, a == 1, a == 2);
        if (q[a] + 1 >= dims[a])
            continue;
        uint v1 = mesh_value(q + e);
        if ((v0 > pc.iso) == (v1 > pc.iso))
            continue;
        uint vi = edges[3u * i + uint(a)];
        if (vi >= pc.max_verts)
            continue;
        float t = (float(pc.iso) - float(v0)) / (float(v1) - float(v0));
        vec3 g0 = gradient_at(q), g1 = gradient_at(q + e);
        vec3 p, n;
        for (int k = 0; k < 3; k++) {
            p[k] = min(max(pc.origin[k] + pc.origin.w * (float(q[k]) + t * float(e[k])), pc.lo[k]), pc.hi[k]);
            n[k] = g0[k] + t * (g1[k] - g0[k]);
        }
        float len2 = dot(n, n);
        n = len2 > 0.0 ? n * (-1.0 / sqrt(len2)) : vec3(0.0, 1.0, 0.0);
        vertices[2u * vi] = vec4(p, 1.0);
        vertices[2u * vi + 1u] = vec4(n, 0.0);
    }
}
