#version 450
// Overlay text: stb_easy_font quads pulled from a storage buffer, two
// triangles per quad, in pixel coordinates (origin top left).
#include "shared.h"

struct vf_font_vertex { float x, y, z; uint rgba; };
layout(std430, binding = VF_OVERLAY_BIND_VERTS) readonly buffer Verts { vf_font_vertex verts[]; };
VF_PUSH(vf_overlay_push)
layout(location = 0) out vec4 v_color;

void main()
{
    const uint corner[6] = uint[6](0u, 1u, 2u, 0u, 2u, 3u);
    uint q = uint(gl_VertexIndex) / 6u;
    vf_font_vertex v = verts[q * 4u + corner[uint(gl_VertexIndex) % 6u]];
    vec2 p = vec2(v.x, v.y) + pc.screen.zw;
    gl_Position = vec4(p * pc.screen.xy - 1.0, 0.0, 1.0);
    vec4 c = unpackUnorm4x8(v.rgba);
    v_color = pc.shade.a > 0.0 ? vec4(pc.shade.rgb, c.a) : c; // the shadow keeps the panel's translucency
}
