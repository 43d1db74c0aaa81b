#version 450
// Diffuse particles: the class from the number of fluid neighbours within h
// (spray < spray_max <= foam <= bubble_min < bubbles) and the motion by class:
// spray is ballistic, foam moves with the fluid's (W~-weighted) velocity and
// ages, bubbles feel buoyancy against gravity and drag towards the fluid's
// velocity. The walls stop them; a particle survives while its lifetime lasts.
#include "shared_sph.h"
#include "shared_foam.h"
#include "foam_common.glsl"

void main()
{
    uint i = foam_index();
    if (i > pc.diffuse_cap)
        return;
    if (i >= fs[VF_FOAM_STATE_COUNT]) {
        keep[i] = 0u;
        return;
    }
    vec3 x = dpos[i].xyz, v = dvel[i].xyz;
    float life = dpos[i].w, dt = pc.rate.z;
    ivec3 c = sph_cell3(x);
    uint count = 0u;
    vec3 vsum = vec3(0.0);
    float wsum = 0.0;
    vec3 f = sph_rows_at(x);
    ivec2 lo, hi;
    sph_row_bounds(c, f, lo, hi);
    sph_rows grid_rows = sph_rows_of();
    for (int row = 0; row < SPH_ROWS; row++) {
        uint b, e;
        sph_row_candidates_of(grid_rows, row, c, f, lo, hi, b, e);
        for (uint j = b; j < e; j++) {
            float r = length(x - pos[j].xyz);
            if (r < prm.h) {
                count++;
                float w = foam_weight(r);
                vsum += vel[j].xyz * w;
                wsum += w;
            }
        }
    }
    vec3 vf = wsum > 0.0 ? vsum / wsum : vec3(0.0);
    uint cls = count < pc.spray_max ? VF_FOAM_SPRAY : count > pc.bubble_min ? VF_FOAM_BUBBLE : VF_FOAM_FOAM;
    vec3 g = prm.gravity.xyz;
    if (cls == VF_FOAM_SPRAY) {
        v += g * dt;
        x += v * dt;
    } else if (cls == VF_FOAM_FOAM) {
        v = vf;
        x += v * dt;
        life -= dt;
    } else {
        v += -pc.motion.x * g * dt + pc.motion.y * (vf - v);
        x += v * dt;
    }
    for (int k = 0; k < 3; k++) {
        if (x[k] < prm.lo[k]) {
            x[k] = prm.lo[k];
            v[k] = max(v[k], 0.0);
        } else if (x[k] > prm.hi[k]) {
            x[k] = prm.hi[k];
            v[k] = min(v[k], 0.0);
        }
    }
    dpos[i] = vec4(x, life);
    dvel[i] = vec4(v, float(cls));
    bool alive = life > 0.0;
    keep[i] = alive ? 1u : 0u;
    if (alive)
        atomicAdd(fs[VF_FOAM_STATE_SPRAY + cls], 1u);
}
