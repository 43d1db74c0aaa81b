#version 450
// Velocity arrows over the 2D field view: one instance per arrow on a lattice
// of spacing params.y pixels, 9 vertices each (shaft quad + head triangle),
// length proportional to the speed (params.x: the speed of a full-length arrow).
#include "shared.h"
#include "view_grid_common.glsl"

layout(location = 0) out float v_alpha;

void main()
{
    uint ax = uint(gl_InstanceIndex) % pc.arrows_x, ay = uint(gl_InstanceIndex) / pc.arrows_x;
    float spacing = pc.params.y;
    vec2 centre = pc.rect.xy + (vec2(ax, ay) + 0.5) * spacing; // pixels
    vec2 uv = (centre - pc.rect.xy) / pc.rect.zw;
    vec2 x = vec2(uv.x, 1.0 - uv.y) * vec2(float(pc.nx), float(pc.ny));
    ivec2 cell = ivec2(floor(x));
    vec2 vel = cell_velocity(cell.x, cell.y);
    bool solid = fmask[cell_index(cell.x, cell.y)] != 0u || uv.x > 1.0 || uv.y > 1.0;
    float speed = length(vel);
    vec2 dir = speed > 1e-12 ? vec2(vel.x, -vel.y) / speed : vec2(1.0, 0.0); // screen y down
    vec2 side = vec2(-dir.y, dir.x);
    // square-root scaling keeps slow regions readable next to fast ones
    float len = 0.95 * spacing * sqrt(clamp(3.0 * speed / pc.params.x, 0.0, 1.0)); // full length at half the expected speed
    const vec2 shape[9] = vec2[9](vec2(-0.5, -0.06), vec2(0.25, -0.06), vec2(0.25, 0.06), vec2(-0.5, -0.06),
                                  vec2(0.25, 0.06), vec2(-0.5, 0.06), vec2(0.25, -0.2), vec2(0.5, 0.0),
                                  vec2(0.25, 0.2));
    vec2 s = shape[gl_VertexIndex % 9];
    float width = max(1.2, spacing * (abs(s.y) > 0.1 ? 0.9 : 0.5) * min(1.0, len / spacing + 0.3));
    vec2 p = centre + dir * s.x * len + side * s.y * width;
    vec2 ndc = p / pc.params.zw * 2.0 - 1.0;
    gl_Position = solid || len < 0.5 ? vec4(2.0, 2.0, 2.0, 1.0) : vec4(ndc, 0.0, 1.0);
    v_alpha = 0.85;
}
