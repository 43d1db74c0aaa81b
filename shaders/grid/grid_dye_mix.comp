#version 450
// Colour blending where dyes meet (after Chen & Lobo's colour elements, which
// take the mean colour of what shares their grid cell): each fluid cell moves
// a fraction a.x of the way to the mean colour of itself and its fluid
// neighbours. Ping-pong; solid cells get 0.
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_MIX_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_MIX_IN0) readonly buffer I0 { float i0[]; };
layout(std430, binding = VF_GRID_MIX_IN1) readonly buffer I1 { float i1[]; };
layout(std430, binding = VF_GRID_MIX_IN2) readonly buffer I2 { float i2[]; };
layout(std430, binding = VF_GRID_MIX_OUT0) writeonly buffer O0 { float o0[]; };
layout(std430, binding = VF_GRID_MIX_OUT1) writeonly buffer O1 { float o1[]; };
layout(std430, binding = VF_GRID_MIX_OUT2) writeonly buffer O2 { float o2[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    int nx = NX(), ny = NY();
    if (i >= nx || j >= ny)
        return;
    int k = cidx(i, j);
    if (mask[k] != VF_GRID_CELL_FLUID) {
        o0[k] = 0.0;
        o1[k] = 0.0;
        o2[k] = 0.0;
        return;
    }
    vec3 c = vec3(i0[k], i1[k], i2[k]);
    vec3 s = c;
    float n = 1.0;
    ivec2 d[4] = ivec2[4](ivec2(-1, 0), ivec2(1, 0), ivec2(0, -1), ivec2(0, 1));
    for (int q = 0; q < 4; q++) {
        int a = i + d[q].x, b = j + d[q].y;
        if (per_x())
            a = wrapi(a, nx);
        if (per_y())
            b = wrapi(b, ny);
        if (a < 0 || a >= nx || b < 0 || b >= ny)
            continue;
        int kk = cidx(a, b);
        if (mask[kk] != VF_GRID_CELL_FLUID)
            continue;
        s += vec3(i0[kk], i1[kk], i2[kk]);
        n += 1.0;
    }
    c += pc.a.x * (s / n - c);
    o0[k] = c.r;
    o1[k] = c.g;
    o2[k] = c.b;
}
