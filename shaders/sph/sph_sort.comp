#version 450
// First half of the deterministic reorder: every particle writes its
// persistent id to its (racy) atomic slot, so each cell's ids lie together
// in keys[start[c], start[c + 1]).
#include "shared.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_SORT_BIND_ID) readonly buffer Id { uint id[]; };
layout(std430, binding = VF_SPH_SORT_BIND_CELL) readonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_SPH_SORT_BIND_SLOT) readonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_SPH_SORT_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_SORT_BIND_KEYS) writeonly buffer Keys { uint keys[]; };

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    uint c = cell[i];
    if (c >= prm.cells)
        return;
    keys[start[c] + slot[i]] = id[i];
}
