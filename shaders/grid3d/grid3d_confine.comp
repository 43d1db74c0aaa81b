#version 450
// Vorticity confinement (Fedkiw, Stam & Jensen 2001): f = eps h (N x omega),
// N = grad|omega| / |grad|omega||, evaluated at the two cells of each open
// face and averaged; vel += dt f (in place).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_CONF_VEL) buffer Vel { float vel[]; };
layout(std430, binding = VF_G3_CONF_OMEGA) readonly buffer Om { vec4 omega[]; };
layout(std430, binding = VF_G3_CONF_MASK) readonly buffer Mask { uint mask[]; };
#define G3_HAS_MASK
#include "grid3d_common.glsl"
VF_G3_LOCAL

vec3 force(ivec3 p)
{
    vec3 g;
    for (int a = 0; a < 3; a++) {
        ivec3 lo = p, hi = p;
        lo[a] = wraps(a) ? p[a] - 1 : max(p[a] - 1, 0); /* cidx wraps a periodic axis */
        hi[a] = wraps(a) ? p[a] + 1 : min(p[a] + 1, N()[a] - 1);
        g[a] = (omega[cidx(hi)].w - omega[cidx(lo)].w) / (float(hi[a] - lo[a]) * pc.h);
    }
    float len = length(g);
    if (len < 1e-20)
        return vec3(0.0);
    return pc.a.x * pc.h * cross(g / len, omega[cidx(p)].xyz);
}

void main()
{
    ivec3 p = ivec3(gl_GlobalInvocationID);
    for (int c = 0; c < 3; c++) {
        if (!in_faces(c, p) || face_kind(c, p) != 0)
            continue;
        ivec3 q = p;
        q[c] -= 1;
        vel[fidx(c, p)] += pc.dt * 0.5 * (force(q)[c] + force(p)[c]);
    }
}
