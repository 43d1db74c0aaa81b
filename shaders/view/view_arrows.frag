#version 450
// Velocity arrows: white, slightly transparent.
layout(location = 0) in float v_alpha;
layout(location = 0) out vec4 color;

void main()
{
    color = vec4(1.0, 1.0, 1.0, v_alpha);
}
