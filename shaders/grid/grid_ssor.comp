#version 450
// Klein et al. (2003)'s pressure solve: pc.count iterations of symmetric SOR
// (relaxation pc.a.x) on A x = b, the operator of grid_mg_op.glsl, in place.
// An iteration is a forward sweep over the cells in lexicographic order (x
// fastest) and a backward sweep in the reverse order, exactly as a
// sequential program does them: a cell's update reads the neighbours before
// it in the sweep's order as already updated and those after it as not yet.
// Cells on one anti-diagonal (i + j = d) are never neighbours, and every
// neighbour before a cell in lexicographic order lies on a smaller diagonal
// (a periodic image too: the left image of column 0 is column nx - 1, later
// in the row and on a larger diagonal), so ONE workgroup sweeps the
// diagonals in order, the cells of each in parallel, with a barrier between
// diagonals; the result equals the sequential sweeps'. Cells with no open
// face (solid) keep x = 0.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#define XVAL(k) x[k]
#define WX(k) wx[k]
#define WY(k) wy[k]
#include "grid_common.glsl"

layout(local_size_x = VF_GRID_SSOR_DEFAULT_WG) in;
layout(local_size_x_id = VF_GRID_SPEC_SSOR_WG) in;
layout(std430, binding = VF_GRID_SSOR_X) coherent buffer X { float x[]; };
layout(std430, binding = VF_GRID_SSOR_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_GRID_SSOR_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_SSOR_WY) readonly buffer Wy { float wy[]; };
#include "grid_mg_op.glsl"

void relax(int i, int j, float omega, float h2)
{
    vec2 n = mg_neighbours(i, j);
    int k = cidx(i, j);
    float gs = n.y > 0.0 ? (n.x - h2 * b[k]) / n.y : 0.0;
    x[k] = n.y > 0.0 ? x[k] + omega * (gs - x[k]) : 0.0;
}

// The cells of diagonal d, spread over the workgroup; then a barrier.
void sweep_diagonal(int d, float omega, float h2)
{
    int nx = NX(), ny = NY();
    int i0 = max(0, d - (ny - 1)), i1 = min(d, nx - 1);
    for (int i = i0 + int(gl_LocalInvocationID.x); i <= i1; i += int(gl_WorkGroupSize.x))
        relax(i, d - i, omega, h2);
    memoryBarrierBuffer();
    barrier();
}

void main()
{
    int last = NX() + NY() - 2;
    float omega = pc.a.x, h2 = pc.h * pc.h;
    for (uint it = 0u; it < pc.count; it++) {
        for (int d = 0; d <= last; d++)
            sweep_diagonal(d, omega, h2);
        for (int d = last; d >= 0; d--)
            sweep_diagonal(d, omega, h2);
    }
}
