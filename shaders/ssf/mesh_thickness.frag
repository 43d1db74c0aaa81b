#version 450
// Thickness through the closed surface mesh: every fragment adds its view
// depth, negated where the surface faces the eye (additive blending, no
// depth test), so each pixel sums the lengths of the ray's spans inside the
// fluid. Depths behind the scene (floor, tank edges) are clamped to the
// scene's, so spans hidden by it count only up to it.
#include "shared_ssf.h"
#include "shared_mesh.h"
#include "ssf_common.glsl"

layout(binding = VF_MESH_DRAW_BIND_SCENE_DEPTH) uniform sampler2D scene_depth;
layout(location = 0) in vec3 v_view;
layout(location = 1) in vec3 v_normal;
layout(location = 0) out float out_thickness;

void main()
{
    vec2 uv = gl_FragCoord.xy * fr.thick_size.zw;
    float scene = textureLod(scene_depth, uv, 0.0).r;
    float d = -v_view.z;
    if (scene < 1.0) // the scene's linear view depth from its depth-buffer value
        d = min(d, fr.proj[3][2] / (scene + fr.proj[2][2]));
    bool front = dot(v_normal, v_view) < 0.0;
    out_thickness = front ? -d : d;
}
