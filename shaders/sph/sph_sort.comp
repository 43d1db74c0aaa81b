#version 450
// First half of the deterministic reorder: every particle writes its
// persistent id to its (racy) atomic slot, so each cell's ids lie together
// in keys[start[c], start[c + 1]).
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_SORT_BIND_ID) readonly buffer Id { uint id[]; };
layout(std430, binding = VF_SPH_SORT_BIND_CELL) readonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_SPH_SORT_BIND_SLOT) readonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_SPH_SORT_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_SORT_BIND_KEYS) writeonly buffer Keys { uint keys[]; };
layout(binding = VF_SPH_SORT_BIND_ID_T) uniform usamplerBuffer id_t;
layout(binding = VF_SPH_SORT_BIND_CELL_T) uniform usamplerBuffer cell_t;
layout(binding = VF_SPH_SORT_BIND_SLOT_T) uniform usamplerBuffer slot_t;
layout(binding = VF_SPH_SORT_BIND_START_T) uniform usamplerBuffer start_t;

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    uint c = sph_texel ? texelFetch(cell_t, int(i)).x : cell[i];
    if (c >= prm.cells)
        return;
    uint at = sph_texel ? texelFetch(start_t, int(c)).x + texelFetch(slot_t, int(i)).x : start[c] + slot[i];
    keys[at] = sph_texel ? texelFetch(id_t, int(i)).x : id[i];
}
