#version 450
// The reorder: every particle's destination is its cell's start plus the
// rank of its persistent id among the ids of that cell (so the order inside a
// cell is by id, independent of atomic races), and the particle data itself
// (position, velocity, id) moves there. Sink particles are dropped (their
// slots at the end are set to the hidden position).
#include "shared.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_SCATTER_BIND_CELL) readonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_KEYS) readonly buffer Keys { uint keys[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_POS_IN) buffer PosIn { vec4 pos_in[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_VEL_IN) readonly buffer VelIn { vec4 vel_in[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_POS_OUT) writeonly buffer PosOut { vec4 pos_out[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_VEL_OUT) writeonly buffer VelOut { vec4 vel_out[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_ID_OUT) writeonly buffer IdOut { uint id_out[]; };

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    uint c = cell[i];
    vec4 p = pos_in[i];
    // With a sink, the slots between the new (compacted) count and the old one
    // are hidden in both buffers, so unused slots never show stale particles.
    if (prm.sink_enabled != 0u && i >= start[prm.cells]) {
        pos_in[i] = vec4(VF_SPH_HIDDEN);
        pos_out[i] = vec4(VF_SPH_HIDDEN);
    }
    if (c >= prm.cells)
        return;
    uint b = start[c], e = start[c + 1u];
    uint me = id_in[i];
    uint rank = 0u;
    for (uint k = b; k < e; k++)
        rank += keys[k] < me ? 1u : 0u;
    uint d = b + rank;
    pos_out[d] = p;
    vel_out[d] = vel_in[i];
    id_out[d] = me;
}
