#version 450
// Splat: every particle (and its mirror images across the walls within the
// radius) adds V W(r) (fixed point) to the grid points within the support
// radius; integer atomics, so the sum does not depend on order.
#include "shared_mesh.h"
#include "mesh_common.glsl"

layout(std430, binding = VF_MESH_BIND_POS) readonly buffer PosBuf
{
    vec4 pos[];
};

void splat(vec3 p)
{
    float cell = pc.origin.w, r = pc.lo.w, scale = pc.hi.w;
    float inv_r2 = 1.0 / (r * r);
    ivec3 dims = mesh_dims();
    ivec3 lo, hi;
    for (int a = 0; a < 3; a++) {
        float g = (p[a] - pc.origin[a]) / cell;
        float gr = r / cell;
        if (!(g > -gr - 1.0 && g < float(dims[a]) + gr))
            return;
        lo[a] = max(int(ceil(g - gr)), 0);
        hi[a] = min(int(floor(g + gr)), dims[a] - 1);
    }
    for (int z = lo.z; z <= hi.z; z++)
        for (int y = lo.y; y <= hi.y; y++)
            for (int x = lo.x; x <= hi.x; x++) {
                float dx = pc.origin.x + cell * float(x) - p.x;
                float dy = pc.origin.y + cell * float(y) - p.y;
                float dz = pc.origin.z + cell * float(z) - p.z;
                float q2 = (dx * dx + dy * dy + dz * dz) * inv_r2;
                if (q2 >= 1.0)
                    continue;
                float f = 1.0 - q2;
                atomicAdd(density[mesh_point_index(ivec3(x, y, z))], uint(scale * f * f * f + 0.5));
            }
}

void main()
{
    uint i = vf_group_linear() * VF_MESH_WG + gl_LocalInvocationID.x;
    if (i >= pc.count)
        return;
    vec3 p = pos[i].xyz;
    // Mirror images across the walls within the radius (and their corners),
    // so the field at a wall is the fluid's, not half of it.
    uint mask = 0u;
    vec3 mirror = p;
    for (int a = 0; a < 3; a++) {
        if (p[a] - pc.lo[a] < pc.lo.w) {
            mask |= 1u << a;
            mirror[a] = 2.0 * pc.lo[a] - p[a];
        } else if (pc.hi[a] - p[a] < pc.lo.w) {
            mask |= 1u << a;
            mirror[a] = 2.0 * pc.hi[a] - p[a];
        }
    }
    for (uint k = 0u; k < 8u; k++) {
        if ((k & ~mask) != 0u)
            continue;
        vec3 q = p;
        for (int a = 0; a < 3; a++)
            if ((k & (1u << a)) != 0u)
                q[a] = mirror[a];
        splat(q);
    }
}
