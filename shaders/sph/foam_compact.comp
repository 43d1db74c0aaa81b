#version 450
// Survivors move to the next buffers at their scanned index (order kept).
#include "shared_sph.h"
#include "shared_foam.h"
#include "foam_common.glsl"

void main()
{
    uint i = foam_index();
    if (i >= fs[VF_FOAM_STATE_COUNT] || i >= pc.diffuse_cap)
        return;
    uint k = keep[i];
    if (keep[i + 1u] != k) {
        dpos_out[k] = dpos[i];
        dvel_out[k] = dvel[i];
    }
}
