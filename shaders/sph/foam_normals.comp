#version 450
// Surface normals of the fluid particles (unnormalised): the W~-weighted sum
// of the directions away from the neighbours, which nearly cancels inside
// the fluid and points out of it at the surface; w gets the sum of the
// weights. Invocation 0 clears the class counts.
#include "shared.h"
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
    ivec3 c = sph_cell3(xi), n = sph_grid();
    int x0 = max(c.x - VF_SPH_CELL_DIV, 0), x1 = min(c.x + VF_SPH_CELL_DIV, n.x - 1);
    vec3 sum = vec3(0.0);
    float wsum = 0.0;
    for (int z = max(c.z - VF_SPH_CELL_DIV, 0); z <= min(c.z + VF_SPH_CELL_DIV, n.z - 1); z++)
        for (int y = max(c.y - VF_SPH_CELL_DIV, 0); y <= min(c.y + VF_SPH_CELL_DIV, n.y - 1); y++) {
            uint row = prm.grid_x * (uint(y) + prm.grid_y * uint(z));
            for (uint j = start[row + uint(x0)]; j < start[row + uint(x1) + 1u]; j++) {
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
