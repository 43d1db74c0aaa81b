#version 450
// Density by the poly6 kernel over the cells within h (VF_SPH_CELL_DIV cells of h / VF_SPH_CELL_DIV each way) (particles in cell
// order: the three cells of a row along x are one contiguous range, so each
// row's range is read once), with the mirror images of the neighbours near
// walls (sph_mirrors), and pressure from the equation of state.
#include "shared.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_DENSITY_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_DENSITY_BIND_POS) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_SPH_DENSITY_BIND_DENS) writeonly buffer Dens { vec2 dens[]; };

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 xi = pos[i].xyz;
    ivec3 c = sph_cell3(xi);
    ivec3 n = sph_grid();
    vec3 f = sph_rows_at(xi);
    float h2 = prm.h2, inv_h2 = prm.inv_h * prm.inv_h;
    sph_mirrors m = sph_mirrors_at(xi);
    bool mirrored = m.axes != 0u || m.obstacle;
    float sum = 0.0;
    for (int z = max(c.z - VF_SPH_CELL_DIV, 0); z <= min(c.z + VF_SPH_CELL_DIV, n.z - 1); z++) {
        for (int y = max(c.y - VF_SPH_CELL_DIV, 0); y <= min(c.y + VF_SPH_CELL_DIV, n.y - 1); y++) {
            int x0, x1;
            if (!sph_row_range(f, c, y, z, x0, x1))
                continue;
            uint row = prm.grid_x * (uint(y) + prm.grid_y * uint(z));
            uint b = start[row + uint(x0)], e = start[row + uint(x1) + 1u];
            for (uint j = b; j < e; j++) {
                vec3 xj = pos[j].xyz;
                vec3 d = xi - xj;
                float r2 = dot(d, d);
                if (r2 >= h2)
                    continue;
                float t = 1.0 - r2 * inv_h2;
                sum += t * t * t;
                if (!mirrored)
                    continue;
                for (uint mask = m.axes; mask != 0u; mask = (mask - 1u) & m.axes) {
                    d = xi - sph_mirror_axes(xj, mask, m.plane);
                    r2 = dot(d, d);
                    if (r2 < h2) {
                        t = 1.0 - r2 * inv_h2;
                        sum += t * t * t;
                    }
                }
                if (m.obstacle) {
                    d = xi - sph_mirror_plane(xj, m.n, m.c);
                    r2 = dot(d, d);
                    if (r2 < h2) {
                        t = 1.0 - r2 * inv_h2;
                        sum += t * t * t;
                    }
                }
            }
        }
    }
    float rho = prm.mass * prm.poly6 * sum;
    dens[i] = vec2(rho, sph_pressure(rho));
}
