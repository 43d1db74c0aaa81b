#version 450
// The surface mesh, pulled: 3 vertices per triangle from the index buffer,
// position and normal from the vertex buffer; indices past the stored
// vertices (an overflowed build) collapse their triangle off screen.
#include "shared_ssf.h"
#include "shared_mesh.h"
#include "ssf_common.glsl"

layout(std430, binding = VF_MESH_DRAW_BIND_VERTICES) readonly buffer VertexBuf
{
    vec4 vertices[];
};
layout(std430, binding = VF_MESH_DRAW_BIND_INDICES) readonly buffer IndexBuf
{
    uint indices[];
};

layout(location = 0) out vec3 v_view;   // view-space position
layout(location = 1) out vec3 v_normal; // view-space normal

void main()
{
    uint i = indices[gl_VertexIndex];
    if (i >= uint(vertices.length()) / 2u) {
        v_view = vec3(0.0);
        v_normal = vec3(0.0, 0.0, 1.0);
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    vec4 p = fr.view * vec4(vertices[2u * i].xyz, 1.0);
    v_view = p.xyz;
    v_normal = (fr.view * vec4(vertices[2u * i + 1u].xyz, 0.0)).xyz;
    gl_Position = fr.proj * p;
}
