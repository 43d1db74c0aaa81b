#version 450
// Level-0 face weights of the pressure operator from the mask and the sides:
// 1 open face, 0 closed (wall, inflow, solid: the velocity there is fixed),
// 2 an outflow side (pressure 0 half a cell outside). With periodic sides
// face nx (ny) repeats face 0.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_W_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_W_WX) writeonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_W_WY) writeonly buffer Wy { float wy[]; };

bool solid(int i, int j)
{
    return mask[cidx(i, j)] != VF_GRID_CELL_FLUID;
}

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    if (i <= nx && j < ny) {
        float w;
        int a = i > 0 ? i - 1 : (per_x() ? nx - 1 : -1);
        int b = i < nx ? i : (per_x() ? 0 : -1);
        if ((a >= 0 && solid(a, j)) || (b >= 0 && solid(b, j)))
            w = 0.0;
        else if (i == 0)
            w = side_weight(VF_GRID_SIDE_LEFT);
        else if (i == nx)
            w = side_weight(VF_GRID_SIDE_RIGHT);
        else
            w = 1.0;
        wx[uidx(i, j)] = w;
    }
    if (i < nx && j <= ny) {
        float w;
        int a = j > 0 ? j - 1 : (per_y() ? ny - 1 : -1);
        int b = j < ny ? j : (per_y() ? 0 : -1);
        if ((a >= 0 && solid(i, a)) || (b >= 0 && solid(i, b)))
            w = 0.0;
        else if (j == 0)
            w = side_weight(VF_GRID_SIDE_BOTTOM);
        else if (j == ny)
            w = side_weight(VF_GRID_SIDE_TOP);
        else
            w = 1.0;
        wy[vidx(i, j)] = w;
    }
}
