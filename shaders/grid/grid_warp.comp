#version 450
// Stam's warped image: an RGBA8 checkerboard (a.x squares per side) looked up
// through the advected texture coordinates (s, t); solid cells are grey.
// Row 0 of the output is the top of the box (image order).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_WARP_S) readonly buffer S { float s[]; };
layout(std430, binding = VF_GRID_WARP_T) readonly buffer T { float t[]; };
layout(std430, binding = VF_GRID_WARP_MASK) readonly buffer Mask { uint mask[]; };
layout(std430, binding = VF_GRID_WARP_OUT) writeonly buffer Out { uint img[]; };

void main()
{
    int i = int(gl_GlobalInvocationID.x), j = int(gl_GlobalInvocationID.y);
    if (i >= NX() || j >= NY())
        return;
    int k = cidx(i, j);
    vec3 c;
    if (mask[k] != VF_GRID_CELL_FLUID) {
        c = vec3(0.5);
    } else {
        vec2 st = vec2(s[k], t[k]) * pc.a.x;
        bool odd = ((int(floor(st.x)) + int(floor(st.y))) & 1) != 0;
        vec2 f = fract(st);
        c = odd ? vec3(0.95, 0.75, 0.2) : vec3(0.1, 0.25, 0.6);
        c *= 0.75 + 0.25 * f.x;
    }
    img[(NY() - 1 - j) * NX() + i] = packUnorm4x8(vec4(c, 1.0));
}
