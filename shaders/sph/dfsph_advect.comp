#version 450
// The end of a DFSPH substep: v = v*, x += dt v against the walls and
// obstacles (1e-3 h off them, restitution as sph_integrate), the pressure
// of both solves and the density for the renderers and exports, the largest speed
// (for the next step's CFL and the guards), and with VF_SPH_DRIFT_BIN the
// binning of the new position (as sph_bin). It reads the particles in the
// binning's order and writes them, their ids and warm start, into the
// buffers the binning read (shared_sph.h, VF_DFSPH_ADVECT_BIND_*).
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = VF_DFSPH_WG) in;
layout(std430, binding = VF_DFSPH_ADVECT_BIND_CTL) coherent buffer Ctl { vf_dfsph_ctl ctl; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_POS_IN) readonly buffer PosIn { vec4 pos_in[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_VSTAR) readonly buffer VStar { vec4 vstar[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_DENS) buffer Dens { vec2 dens[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_WARM_IN) readonly buffer WarmIn { vec2 warm_in[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_POS_OUT) writeonly buffer PosOut { vec4 pos_out[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_VEL_OUT) writeonly buffer VelOut { vec4 vel_out[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_WARM_OUT) writeonly buffer WarmOut { vec2 warm_out[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_ID_OUT) writeonly buffer IdOut { uint id_out[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_CELL) writeonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_SLOT) writeonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_DFSPH_ADVECT_BIND_COUNTS) buffer Counts { uint counts[]; };
VF_PUSH(vf_dfsph_push)

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 v = vstar[i].xyz, x = pos_in[i].xyz + ctl.dt * v;
    sph_collide_margin(x, v, sph_wall_margin());
    vec2 ra = dens[i], w = warm_in[i];
    // the pressure of the step's two solves: kappa_i / rho_i = p_i / rho_i^2
    // for the density solve's impulse dt sum m (...) grad W, and kappa_v
    // the divergence solve's sum m (...) grad W without the dt
    float p = (w.x + w.y / ctl.dt) * ra.x;
    pos_out[i] = vec4(x, p);
    vel_out[i] = vec4(v, ra.x);
    dens[i] = vec2(ra.x, p); // alpha is done with: the exports' pressure
    warm_out[i] = w;
    id_out[i] = id_in[i];
    uint speed_bits = floatBitsToUint(length(v));
    uint largest = subgroupMax(speed_bits); // one atomic a subgroup
    if (subgroupElect())
        atomicMax(ctl.speed_bits, largest);
    SPH_DRIFT_END((pc.flags & VF_SPH_DRIFT_BIN) != 0u, x, i, speed_bits)
}
