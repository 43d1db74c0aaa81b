#version 450
// The water surface: a mesh over the height field by vertex pulling. Vertex
// (m, k) sits on the corner point between four cells; its height averages the
// wet cells there (dry and solid cells are left out), its normal comes from
// central differences of eta one cell away (per-vertex normals).
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) out vec3 world;
layout(location = 1) out vec3 normal;
layout(location = 2) out vec2 dom;
// depth: water depth (m); wet: fraction of wet cells around the vertex;
// slope: |grad eta| (true, not exaggerated). They travel as one vec3: a sixth
// output location corrupted lavapipe's heap with 128-bit vectors (Mesa 22.3).
layout(location = 3) out vec3 depth_wet_slope;
float depth, wet, slope;

void main()
{
    // an instance per row of quads; the index names the vertex (shared_height.h)
    int stride = int(VF_SURFACE_MESH_STRIDE);
    ivec2 m = ivec2(gl_VertexIndex % stride, gl_InstanceIndex + gl_VertexIndex / stride);
    float lx = float(fr.nx) * dom_dx(), ly = float(fr.ny) * dom_dx();
    vec2 p = vec2(float(m.x) / float(fr.mesh_x - 1u) * lx, float(m.y) / float(fr.mesh_y - 1u) * ly);
    vec2 c = p / dom_dx();
    ivec2 i1 = ivec2(floor(c + 0.5)), i0 = i1 - 1;
    float se = 0.0, sb = 0.0, sd = 0.0, n = 0.0, allb = 0.0;
    for (int k = 0; k < 4; k++) {
        uint ci = cell_index(k % 2 == 0 ? i0.x : i1.x, k < 2 ? i0.y : i1.y);
        allb += bed[ci];
        if (cell_wet(ci)) {
            se += eta[ci];
            sb += bed[ci];
            sd += eta[ci] - bed[ci];
            n += 1.0;
        }
    }
    float h = n > 0.0 ? se / n : 0.25 * allb;
    depth = n > 0.0 ? sd / n : 0.0;
    wet = n / 4.0;
    float e = dom_dx();
    float gx = (sample_eta(p + vec2(e, 0.0)) - sample_eta(p - vec2(e, 0.0))) / (2.0 * e);
    float gy = (sample_eta(p + vec2(0.0, e)) - sample_eta(p - vec2(0.0, e))) / (2.0 * e);
    // slopes drawn VF_SURFACE_SLOPE_GAIN times steeper: centimetre waves (a
    // wake, rain rings, a pointer's drop) would otherwise hide under the
    // detail normals; the true slope goes to the fragment shader for foam
    normal = normalize(vec3(-VF_SURFACE_SLOPE_GAIN * gx, 1.0, -VF_SURFACE_SLOPE_GAIN * gy));
    slope = length(vec2(gx, gy));
    dom = p;
    world = to_world(p, h);
    gl_Position = view_proj() * vec4(world, 1.0);
    depth_wet_slope = vec3(depth, wet, slope);
}
