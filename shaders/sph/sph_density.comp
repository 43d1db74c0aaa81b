#version 450
// Density by the poly6 kernel over the cells within h (VF_SPH_CELL_DIV cells
// of h / VF_SPH_CELL_DIV each way; particles in cell order, so the cells of a
// row within h are one contiguous range, read once), then the mirror images
// of the neighbours near walls (sph_mirrors), and pressure from the equation
// of state; and the neighbour records of the particle (shared_sph.h).
//
// The images are summed in loops of their own (one per image set, over the
// rows around the particle's own image: sph_mirror), entered only by
// particles near a wall or an obstacle: a device that runs both sides of a
// branch for every SIMD lane (llvmpipe) then pays nothing for them inside the
// fluid.
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_DENSITY_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_DENSITY_BIND_POS) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_SPH_DENSITY_BIND_DENS) writeonly buffer Dens { vec2 dens[]; };
layout(binding = VF_SPH_DENSITY_BIND_START_T) uniform usamplerBuffer start_t;
layout(binding = VF_SPH_DENSITY_BIND_POS_T) uniform samplerBuffer pos_t;
layout(std430, binding = VF_SPH_DENSITY_BIND_VEL) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = VF_SPH_DENSITY_BIND_NB_X) writeonly buffer NbX { vec4 nb_x[]; };
layout(std430, binding = VF_SPH_DENSITY_BIND_NB_V) writeonly buffer NbV { vec4 nb_v[]; };
layout(binding = VF_SPH_DENSITY_BIND_VEL_T) uniform samplerBuffer vel_t;
layout(std430, binding = VF_SPH_DENSITY_BIND_NB_BITS) writeonly buffer NbBits { uint nb_bits[]; };

uint start_at(uint k) { return sph_texel ? texelFetch(start_t, int(k)).x : start[k]; }
vec3 pos_at(uint j) { return sph_texel ? texelFetch(pos_t, int(j)).xyz : pos[j].xyz; }

float h2, inv_h2;

// The poly6 term of a point at offset d (0 beyond h).
float poly6(vec3 d)
{
    float r2 = dot(d, d);
    float t = 1.0 - r2 * inv_h2;
    return r2 < h2 ? t * t * t : 0.0;
}

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 xi = pos_at(i);
    ivec3 c = sph_cell3(xi);
    vec3 f = sph_rows_at(xi);
    h2 = prm.h2;
    inv_h2 = prm.inv_h * prm.inv_h;
    float sum = 0.0;
    uvec4 m0 = uvec4(0u), m1 = uvec4(0u); // the neighbour bits
    uint at = 0u, acc = 0u; // its position, the word being filled
    ivec2 lo0, hi0;
    sph_row_bounds(c, f, lo0, hi0);
    sph_rows g = sph_rows_of();
    for (int r = 0; r < SPH_ROWS; r++) {
        uint b, e;
        sph_row_candidates_of(g, r, c, f, lo0, hi0, b, e);
        uint bits = 0u, bit = 1u; // bit: the candidate's (0 past the 32nd)
        for (uint j = b; j < e; j++) {
            vec3 d = xi - pos_at(j);
            float r2 = dot(d, d);
            float t = 1.0 - r2 * inv_h2;
            bool near = r2 < h2;
            sum += near ? t * t * t : 0.0;
            bits |= near ? bit : 0u;
            bit <<= 1u;
        }
        sph_mask_push(m0, m1, acc, at, bits, min(e - b, 32u));
    }
    sph_mask_flush(m0, m1, acc, at);
    sph_mirrors m = sph_mirrors_at(xi);
    uint set = m.axes, mask;
    bool obstacle = m.obstacle;
    while (sph_next_image_set(m, set, obstacle, mask)) {
        vec3 xm = sph_mirror(xi, mask, m, false);
        ivec3 cm = sph_cell3(xm);
        vec3 fm = sph_rows_at_image(xm);
        ivec2 lo, hi;
        sph_row_bounds(cm, fm, lo, hi);
        for (int z = lo.y; z <= hi.y; z++)
        for (int y = lo.x; y <= hi.x; y++) {
            uint b, e;
            sph_row_candidates_at(g, y, z, cm, fm, b, e);
            for (uint j = b; j < e; j++) {
                vec3 xj = pos_at(j), d = xi - xj;
                if (dot(d, d) < h2) // the images of the neighbours within h only
                    sum += poly6(xi - sph_mirror(xj, mask, m, false));
            }
        }
    }
    float rho = prm.mass * prm.poly6 * sum;
    float p = sph_pressure(rho), inv_rho = 1.0 / rho;
    dens[i] = vec2(rho, p);
    nb_x[i] = vec4(xi, p * inv_rho * inv_rho);
    nb_v[i] = vec4(sph_texel ? texelFetch(vel_t, int(i)).xyz : vel[i].xyz, inv_rho);
    for (uint k = 0u; k < VF_SPH_MASK_WORDS; k++)
        nb_bits[VF_SPH_MASK_WORDS * i + k] = k < 4u ? m0[k & 3u] : m1[k & 3u];
}
