#version 450
// The prediction of a PBF substep where no pass of the substep before made
// it (a frame's first substep): external forces, x += v dt against the walls
// and obstacles (pbf_common.glsl), and with VF_SPH_DRIFT_BIN the binning of
// the predicted position (as sph_bin).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "pbf_common.glsl"

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec4 p = pos[i], v = vel[i];
    vec3 x = p.xyz, u = v.xyz;
    pbf_predict(x, u, pc.dt);
    pos[i] = vec4(x, p.w);
    vel[i] = vec4(u, v.w);
    if ((pc.flags & VF_SPH_DRIFT_BIN) != 0u) {
        uint c = sph_bin_cell(x);
        cell[i] = c;
        slot[i] = atomicAdd(counts[c], 1u);
    }
}
