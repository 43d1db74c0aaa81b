#version 450
// One triangle over the whole target; uv in [0, 1] with v = 0 at the top.
#include "shared_volume.h"

layout(location = 0) out vec2 uv;

void main()
{
    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 1.0, 1.0);
}
