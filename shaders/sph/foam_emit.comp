#version 450
// New diffuse particles after the survivors, each fluid particle's at its
// scanned index: in a cylinder around the particle along its velocity
// (radius pc.rate.w, length |v| dt), moving with the particle plus the
// radial offset's direction, with a random lifetime; those past the
// capacity are dropped (counted by foam_finish).
#include "shared_sph.h"
#include "shared_foam.h"
#include "foam_common.glsl"

void main()
{
    uint i = foam_index();
    if (i >= st.count || i >= pc.fluid_cap)
        return;
    uint first = gen[i], n = gen[i + 1u] - first;
    if (n == 0u)
        return;
    uint base = keep[pc.diffuse_cap] + first;
    vec3 xi = pos[i].xyz, vi = vel[i].xyz;
    vec3 axis = foam_unit(vi);
    if (axis == vec3(0.0))
        axis = vec3(0.0, 1.0, 0.0);
    vec3 ref = abs(axis.y) < 0.9 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0);
    vec3 e1 = normalize(cross(axis, ref)), e2 = cross(axis, e1);
    for (uint k = 0u; k < n; k++) {
        uint slot = base + k;
        if (slot >= pc.diffuse_cap)
            return;
        uint stream = 1u + 4u * k;
        float r = pc.rate.w * sqrt(foam_random(ids[i], stream));
        float th = 6.2831853 * foam_random(ids[i], stream + 1u);
        float hl = foam_random(ids[i], stream + 2u) * length(vi) * pc.rate.z;
        float lf = pc.energy.z + foam_random(ids[i], stream + 3u) * (pc.energy.w - pc.energy.z);
        vec3 radial = r * cos(th) * e1 + r * sin(th) * e2;
        dpos_out[slot] = vec4(xi + radial + hl * axis, lf);
        dvel_out[slot] = vec4(vi + radial, float(VF_FOAM_SPRAY));
    }
}
