#version 450
// Surface normals of the fluid particles (unnormalised): the W~-weighted sum
// of the directions away from the neighbours, which nearly cancels inside
// the fluid and points out of it at the surface; w gets the sum of the
// weights. Invocation 0 clears the class counts.
#include "shared_sph.h"
#include "shared_foam.h"
#include "foam_common.glsl"

void main()
{
    uint i = foam_index();
    if (i == 0u) {
        fs[VF_FOAM_STATE_SPRAY] = 0u;
        fs[VF_FOAM_STATE_FOAM] = 0u;
        fs[VF_FOAM_STATE_BUBBLE] = 0u;
    }
    if (i >= st.count)
        return;
    vec3 xi = pos[i].xyz;
    ivec3 c = sph_cell3(xi);
    vec3 sum = vec3(0.0);
    float wsum = 0.0;
    vec3 f = sph_rows_at(xi);
    ivec2 lo, hi;
    sph_row_bounds(c, f, lo, hi);
    sph_rows grid_rows = sph_rows_of();
    for (int row = 0; row < SPH_ROWS; row++) {
        uint b, e;
        sph_row_candidates_of(grid_rows, row, c, f, lo, hi, b, e);
        for (uint j = b; j < e; j++) {
            vec3 d = xi - pos[j].xyz;
            float r = length(d);
            if (j != i && r < prm.h && r > 0.0) {
                float w = foam_weight(r);
                sum += d / r * w;
                wsum += w;
            }
        }
    }
    normal[i] = vec4(sum, wsum);
}
