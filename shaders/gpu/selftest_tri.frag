#version 450
// Self-test: flat colour from push constants, left half darker (checks
// gl_FragCoord and the viewport).
#include "shared.h"

layout(location = 0) out vec4 color;
VF_PUSH(vf_selftest_push)

void main()
{
    float k = gl_FragCoord.x < float(pc.width) * 0.5 ? 0.5 : 1.0;
    color = vec4(pc.color.rgb * k, pc.color.a);
}
