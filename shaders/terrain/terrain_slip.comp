#version 450
// Soil slippage (a talus model, as in thermal erosion): between two side
// neighbours whose ground differs by more than talus = dx tan(repose), the
// higher cell sends rate * (|db| - talus) / 2 of soil to the lower one.
// Each cell adds up its four faces' exchanges (the same amount, of opposite
// sign, as its neighbour computes for the shared face), so the soil is
// conserved to rounding; rate <= 1/4 keeps a cell from overshooting its
// neighbours. Reads bed, writes bed_out.
#include "shared_terrain.h"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_TERRAIN_SLIP_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_TERRAIN_SLIP_BIND_BED_OUT) writeonly buffer BedOut { float bed_out[]; };
VF_PUSH(vf_terrain_slip_push)

// Soil the cell at b receives from a neighbour at bn (negative: it sends).
float slip(float b, float bn)
{
    float d = bn - b;
    float excess = abs(d) - pc.talus;
    return excess > 0.0 ? sign(d) * (pc.rate * 0.5 * excess) : 0.0;
}

void main()
{
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    if (i >= pc.nx || j >= pc.ny)
        return;
    uint c = j * pc.nx + i;
    float b = bed[c], s = 0.0;
    if (i > 0u)
        s += slip(b, bed[c - 1u]);
    if (i + 1u < pc.nx)
        s += slip(b, bed[c + 1u]);
    if (j > 0u)
        s += slip(b, bed[c - pc.nx]);
    if (j + 1u < pc.ny)
        s += slip(b, bed[c + pc.nx]);
    bed_out[c] = b + s;
}
