#version 450
// Binning: the cell of every particle and its slot in that cell (an atomic
// counter, so the slot order is racy; sph_scatter makes the final order
// deterministic). Particles inside the sink go to the extra bin prm.cells,
// which the scatter drops.
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_BIN_BIND_POS) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_SPH_BIN_BIND_CELL) writeonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_SPH_BIN_BIND_SLOT) writeonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_SPH_BIN_BIND_START) buffer Counts { uint counts[]; };

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    uint c = sph_bin_cell(pos[i].xyz);
    cell[i] = c;
    slot[i] = atomicAdd(counts[c], 1u);
}
