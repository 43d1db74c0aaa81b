#version 450
// The end of a DFSPH substep: v = v*, x += dt v against the walls and
// obstacles (1e-3 h off them, restitution as sph_integrate), pressure
// (kappa rho) and density for the renderers, the largest speed (for the
// next step's CFL and the guards), and with VF_SPH_DRIFT_BIN the binning of
// the new position (as sph_bin).
#define SPH_STATE_ACCESS
#include "shared.h"
#include "dfsph_common.glsl"

void main()
{
    uint i;
    if (!dfsph_particle(i))
        return;
    vec3 v = vstar_at(i), x = x_at(i) + ctl.dt * v;
    sph_collide_margin(x, v, sph_wall_margin());
    vec2 ra = dens_at(i);
    pos[i] = vec4(x, warm[i].x * ra.x);
    vel[i] = vec4(v, ra.x);
    uint speed_bits = floatBitsToUint(length(v));
    uint largest = subgroupMax(speed_bits); // one atomic a subgroup
    if (subgroupElect())
        atomicMax(ctl.speed_bits, largest);
    if ((pc.flags & VF_SPH_DRIFT_BIN) != 0u) {
        uint c = sph_bin_cell(x);
        cell[i] = c;
        slot[i] = atomicAdd(counts[c], 1u);
    }
    if ((pc.flags & VF_SPH_DRIFT_ODD) != 0u) {
        if (speed_bits > st.max_speed_bits)
            atomicMax(st.max_speed_bits_odd, speed_bits);
    } else if (speed_bits > st.max_speed_bits_odd) {
        atomicMax(st.max_speed_bits, speed_bits);
    }
}
