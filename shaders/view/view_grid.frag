#version 450
// 2D field view of the grid solver: dye, pressure (Chen & Lobo's colours:
// yellow above rest, white at rest, blue below), speed, or Stam's warped
// image through the advected texture coordinates. Solid cells are grey.
#include "shared.h"
#include "view_grid_common.glsl"

layout(location = 0) out vec4 color;

float get_r(int k) { return fr[k]; }
float get_g(int k) { return fg[k]; }
float get_b(int k) { return fb[k]; }
float get_p(int k) { return fp[k]; }
float get_s(int k) { return fs[k]; }
float get_t(int k) { return ft[k]; }
VF_BILINEAR(sample_r, get_r)
VF_BILINEAR(sample_g, get_g)
VF_BILINEAR(sample_b, get_b)
VF_BILINEAR(sample_p, get_p)
VF_BILINEAR(sample_s, get_s)
VF_BILINEAR(sample_t, get_t)

vec3 ramp(float t) // dark blue -> cyan -> yellow -> white, t in [0, 1]
{
    t = clamp(t, 0.0, 1.0);
    vec3 a = vec3(0.02, 0.02, 0.12), b = vec3(0.0, 0.55, 0.75), c = vec3(0.98, 0.85, 0.2), d = vec3(1.0);
    return t < 0.4 ? mix(a, b, t / 0.4) : (t < 0.8 ? mix(b, c, (t - 0.4) / 0.4) : mix(c, d, (t - 0.8) / 0.2));
}

void main()
{
    vec2 uv = (gl_FragCoord.xy - pc.rect.xy) / pc.rect.zw;
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) {
        color = vec4(0.012, 0.012, 0.016, 1.0);
        return;
    }
    vec2 x = vec2(uv.x, 1.0 - uv.y) * vec2(float(pc.nx), float(pc.ny)); // cell units, y up
    ivec2 cell = ivec2(floor(x));
    if (fmask[cell_index(cell.x, cell.y)] != 0u) {
        color = vec4(vec3(0.38), 1.0);
        return;
    }
    vec3 c;
    if (pc.mode == VF_VIEW_MODE_PRESSURE) {
        float t = clamp(sample_p(x) / pc.params.x, -1.0, 1.0);
        c = t >= 0.0 ? mix(vec3(1.0), vec3(1.0, 0.82, 0.05), t) : mix(vec3(1.0), vec3(0.1, 0.3, 1.0), -t);
    } else if (pc.mode == VF_VIEW_MODE_VELOCITY) {
        vec2 c0 = x - 0.5;
        ivec2 i0 = ivec2(floor(c0));
        vec2 f = c0 - vec2(i0);
        vec2 vel = mix(mix(cell_velocity(i0.x, i0.y), cell_velocity(i0.x + 1, i0.y), f.x),
                       mix(cell_velocity(i0.x, i0.y + 1), cell_velocity(i0.x + 1, i0.y + 1), f.x), f.y);
        c = ramp(length(vel) / pc.params.x);
    } else if (pc.mode == VF_VIEW_MODE_WARP) {
        vec2 st = vec2(sample_s(x), sample_t(x)); // the image coordinates carried by the flow
        vec2 q = fract(st * 8.0);
        float checker = (q.x < 0.5) == (q.y < 0.5) ? 1.0 : 0.0;
        c = mix(vec3(0.1, 0.25, 0.6), vec3(0.95, 0.75, 0.3), checker) * (0.75 + 0.25 * st.y);
    } else {
        vec3 dye = max(vec3(sample_r(x), sample_g(x), sample_b(x)), vec3(0.0));
        c = vec3(1.0) - exp(-1.6 * dye);
    }
    color = vec4(c, 1.0);
}
