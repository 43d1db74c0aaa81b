#version 450
// Self-test: one triangle that covers the viewport, no vertex buffers.
#include "shared.h"

void main()
{
    vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2));
    gl_Position = vec4(p * 2.0 - 1.0, 0.5, 1.0);
}
