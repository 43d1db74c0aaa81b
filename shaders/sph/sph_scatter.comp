#version 450
// The reorder: every particle's destination is its cell's start plus the
// rank of its persistent id among the ids of that cell (so the order inside a
// cell is by id, independent of atomic races), and the particle data itself
// (position, velocity, id; for DFSPH the warm start) moves there. Sink particles are dropped (their
// slots at the end are set to the hidden position).
#include "shared_sph.h"
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
layout(binding = VF_SPH_SCATTER_BIND_CELL_T) uniform usamplerBuffer cell_t;
layout(binding = VF_SPH_SCATTER_BIND_START_T) uniform usamplerBuffer start_t;
layout(binding = VF_SPH_SCATTER_BIND_KEYS_T) uniform usamplerBuffer keys_t;
layout(binding = VF_SPH_SCATTER_BIND_POS_IN_T) uniform samplerBuffer pos_in_t;
layout(binding = VF_SPH_SCATTER_BIND_VEL_IN_T) uniform samplerBuffer vel_in_t;
layout(binding = VF_SPH_SCATTER_BIND_ID_IN_T) uniform usamplerBuffer id_in_t;
layout(std430, binding = VF_SPH_SCATTER_BIND_WARM_IN) readonly buffer WarmIn { vec2 warm_in[]; };
layout(std430, binding = VF_SPH_SCATTER_BIND_WARM_OUT) writeonly buffer WarmOut { vec2 warm_out[]; };
// DFSPH: the pressure solves' warm start moves with its particle
layout(constant_id = VF_SPH_SPEC_WARM) const bool warm = false;

// Reads through the texel views where the device allows (sph_texel).
uint start_at(uint k) { return sph_texel ? texelFetch(start_t, int(k)).x : start[k]; }
uint key_at(uint k) { return sph_texel ? texelFetch(keys_t, int(k)).x : keys[k]; }

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    uint c = sph_texel ? texelFetch(cell_t, int(i)).x : cell[i];
    vec4 p = sph_texel ? texelFetch(pos_in_t, int(i)) : pos_in[i];
    // With a sink, the slots between the new (compacted) count and the old one
    // are hidden in both buffers, so unused slots never show stale particles.
    if (prm.sink_enabled != 0u && i >= start_at(prm.cells)) {
        pos_in[i] = vec4(VF_SPH_HIDDEN);
        pos_out[i] = vec4(VF_SPH_HIDDEN);
    }
    if (c >= prm.cells)
        return;
    uint b = start_at(c), e = start_at(c + 1u);
    uint me = sph_texel ? texelFetch(id_in_t, int(i)).x : id_in[i];
    uint rank = 0u;
    for (uint k = b; k < e; k++)
        rank += key_at(k) < me ? 1u : 0u;
    uint d = b + rank;
    pos_out[d] = p;
    vel_out[d] = sph_texel ? texelFetch(vel_in_t, int(i)) : vel_in[i];
    id_out[d] = me;
    if (warm)
        warm_out[d] = warm_in[i];
}
