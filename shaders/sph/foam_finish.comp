#version 450
// One invocation: the new count (survivors + generated, at most the
// capacity), the totals and the indirect draw of the diffuse particles.
#include "shared_sph.h"
#include "shared_foam.h"
#include "foam_common.glsl"

void main()
{
    if (gl_GlobalInvocationID.x != 0u)
        return;
    uint survivors = keep[pc.diffuse_cap];
    uint made = gen[pc.fluid_cap];
    uint stored = min(made, pc.diffuse_cap - survivors);
    uint count = survivors + stored;
    fs[VF_FOAM_STATE_COUNT] = count;
    fs[VF_FOAM_STATE_SPRAY] += stored;
    fs[VF_FOAM_STATE_GENERATED] += made;
    fs[VF_FOAM_STATE_DROPPED] += made - stored;
    fs[VF_FOAM_DRAW_OFFSET / 4 + 0] = 6u;
    fs[VF_FOAM_DRAW_OFFSET / 4 + 1] = count;
    fs[VF_FOAM_DRAW_OFFSET / 4 + 2] = 0u;
    fs[VF_FOAM_DRAW_OFFSET / 4 + 3] = 0u;
}
