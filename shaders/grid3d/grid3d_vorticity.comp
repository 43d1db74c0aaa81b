#version 450
// Vorticity at cell centres from the cell-centred velocity (mean of the two
// faces) by central differences (one-sided at the box sides):
// omega = (x, y, z, |omega|).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_VORT_VEL) readonly buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_VORT_OMEGA) writeonly buffer Om { vec4 omega[]; };
#include "grid3d_common.glsl"
VF_G3_LOCAL

vec3 ucell(ivec3 p)
{
    vec3 r;
    for (int c = 0; c < 3; c++) {
        ivec3 q = p;
        q[c] += 1;
        r[c] = 0.5 * (vel[fidx(c, p)] + vel[fidx(c, q)]);
    }
    return r;
}

// d(component comp)/d(axis a) at cell p.
float dcell(ivec3 p, int comp, int a)
{
    ivec3 lo = p, hi = p;
    lo[a] = wraps(a) ? p[a] - 1 : max(p[a] - 1, 0); /* fidx wraps a periodic axis */
    hi[a] = wraps(a) ? p[a] + 1 : min(p[a] + 1, N()[a] - 1);
    return (ucell(hi)[comp] - ucell(lo)[comp]) / (float(hi[a] - lo[a]) * pc.h);
}

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    if (!in_cells(p))
        return;
    vec3 w = vec3(dcell(p, 2, 1) - dcell(p, 1, 2), dcell(p, 0, 2) - dcell(p, 2, 0), dcell(p, 1, 0) - dcell(p, 0, 1));
    omega[cidx(p)] = vec4(w, length(w));
}
