// pbf_common.glsl: what the position-based fluid passes share (shared_sph.h,
// VF_PBF_*): the bindings of the particle's own state, the kernels of the
// density constraint, the loop over a particle's pairs of the substep
// (those within h at the binned positions: the bits pbf_lambda's first
// iteration writes for the rows of the binned position), the mirror images
// of the pairs near walls and obstacles (a second walk over the pairs), and
// the finish of a substep (the final or the next substep's predicted state,
// the binning, the largest speed) into the other pair of particle buffers.
// Included after shared.h with SPH_STATE_ACCESS defined empty (the speed
// atomics). Mirrored on the CPU by tests/ref/solver_sph_ref.c.
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_PBF_BIND_POS) buffer Pos { vec4 pos[]; };
layout(binding = VF_PBF_BIND_POS_T) uniform samplerBuffer pos_t;
layout(std430, binding = VF_PBF_BIND_VEL) buffer Vel { vec4 vel[]; };
layout(std430, binding = VF_PBF_BIND_DENS) buffer Dens { vec2 dens[]; };
layout(std430, binding = VF_PBF_BIND_CELL) writeonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_PBF_BIND_SLOT) writeonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_PBF_BIND_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = VF_PBF_BIND_START) readonly buffer Start { uint start[]; };
layout(binding = VF_PBF_BIND_START_T) uniform usamplerBuffer start_t;
layout(std430, binding = VF_PBF_BIND_BITS) buffer Bits { uint bits[]; };
layout(binding = VF_PBF_BIND_BITS_T) uniform usamplerBuffer bits_t;
layout(std430, binding = VF_PBF_BIND_OUT_POS) writeonly buffer OutPos { vec4 out_pos[]; };
layout(std430, binding = VF_PBF_BIND_OUT_VEL) buffer OutVel { vec4 out_vel[]; };
VF_PUSH(vf_pbf_push)

uint start_at(uint k) { return sph_texel ? texelFetch(start_t, int(k)).x : start[k]; }
// The binned position x0 of particle i (its rows).
vec3 x0_at(uint i) { return sph_texel ? texelFetch(pos_t, int(i)).xyz : pos[i].xyz; }

// The poly6 shape (1 - r^2/h^2)^3 and the spiky gradient at offset d
// (= x_i - x_j, 0 < |d| < h): -spiky (1 - r/h)^2 d / r.
float pbf_w(float r2)
{
    float t = 1.0 - r2 * prm.inv_h * prm.inv_h;
    return t * t * t;
}
vec3 pbf_grad(vec3 d, float r2)
{
    float r = sqrt(r2);
    float omq = 1.0 - r * prm.inv_h;
    return (-prm.spiky * omq * omq / r) * d;
}

// The prediction of a substep: v += dt a, x += dt v, x kept out of the walls
// and obstacles, and where they moved it v the velocity of the move that
// was made (a wall stops the particle: the velocity follows the positions,
// as every correction of the substep does; elsewhere v stays as it is, not
// the rounding of x's move over dt).
void pbf_predict(inout vec3 x, inout vec3 v, float dt)
{
    v += dt * sph_external(x, v, pc.interact, pc.strength);
    vec3 x1 = x + dt * v, xc = x1, vc = v;
    sph_collide_margin(xc, vc, sph_wall_margin());
    if (any(notEqual(xc, x1)))
        v = (xc - x) / dt;
    x = xc;
}

// The end of a substep for particle i: the final position and velocity (and
// with VF_PBF_PREDICT the next substep's prediction and, with
// VF_SPH_DRIFT_BIN, its binning), pressure and density for the renderers, and
// the largest final speed (VF_SPH_DRIFT_ODD as in sph_forces_drift).
void pbf_finish(uint i, vec3 x, vec3 v, float rho, float p)
{
    uint speed_bits = floatBitsToUint(length(v)); // NaN sorts above +inf as uint
    if ((pc.flags & VF_PBF_PREDICT) != 0u)
        pbf_predict(x, v, pc.dt);
    out_pos[i] = vec4(x, p);
    out_vel[i] = vec4(v, rho);
    dens[i] = vec2(rho, p); // the exports' pressure
    SPH_DRIFT_END((pc.flags & (VF_PBF_PREDICT | VF_SPH_DRIFT_BIN)) == (VF_PBF_PREDICT | VF_SPH_DRIFT_BIN), x, i, speed_bits)
}

// The pressure that the substep's corrections stand for, from the sum over
// its iterations of the virial sum_j a_ij (x_i - x_j).grad W_ij, a_ij =
// lambda_i + lambda_j + s_corr: a correction omega V sum_j a_ij grad W_ij
// moves a particle as the symmetric pressure force of pair pressures p_i +
// p_j = -rho0 omega a_ij / dt^2 does in one step, and the mechanical
// (virial) pressure of pair forces is p_i = -(V / 6) sum_j (p_i + p_j)
// (x_i - x_j).grad W_ij. Where the lambdas are uniform and s_corr is 0 it is
// -rho0 omega (sum of lambda) / dt^2 (sum_j V (x_i - x_j).grad W_ij = -3);
// it counts the artificial pressure, which holds part of a column's weight
// (a sixth of it at the defaults), where the lambdas alone do not.
float pbf_pressure(float virial_sum)
{
    return prm.rho0 * prm.pbf_omega * prm.volume * virial_sum / (6.0 * pc.dt * pc.dt);
}

// The neighbour bits of particle i (pbf_lambda's first iteration).
void pbf_bits(uint i, out uvec4 m0, out uvec4 m1)
{
    SPH_READ_BITS(i, bits_t, bits, m0, m1)
}

// Whether candidate j was within h of a particle binned at x0: a pair of
// the substep.
bool pbf_pair_of(vec3 x0, uint j)
{
    vec3 d = x0 - x0_at(j);
    return dot(d, d) < prm.h2;
}

// The pairs of a particle binned at px0_ with neighbour bits m0_, m1_:
// PBF_VISIT for each (the candidate in `j`): the candidates whose bit is
// set (SPH_FOR_MARKED), and those the bits do not cover where their binned
// positions lie within h (pbf_pair_of), so the pairs are exactly those of
// the first iteration whatever the particles did since.
#define PBF_FOR_PAIRS(px0_, m0_, m1_, PBF_VISIT) SPH_FOR_MARKED(px0_, m0_, m1_, pbf_pair_of(px0_, j), PBF_VISIT)

// The mirror images of a pair (sph_common.glsl's SPH_FOR_IMAGE_SETS).
#define PBF_FOR_IMAGE_SETS SPH_FOR_IMAGE_SETS

// The pairs' mirror images are summed in a second walk over the pairs (the
// neighbour bits m0_, m1_ of a particle binned at px0_: PBF_FOR_PAIRS),
// entered only by particles near a wall or an obstacle (mirrors pm_): a
// device that runs both sides of a branch for every SIMD lane (llvmpipe)
// then pays nothing for them inside the fluid, as sph_density's image
// loops. PBF_VISIT_IMAGES is called for each pair (the candidate in `j`).
#define PBF_FOR_PAIR_IMAGES(pm_, px0_, m0_, m1_, PBF_VISIT_IMAGES)                                                    \
    if (sph_has_images(pm_)) {                                                                                         \
        PBF_FOR_PAIRS(px0_, m0_, m1_, PBF_VISIT_IMAGES)                                                                \
    }

// The pairs of particle pi_ (binned at px0_, mirrors pm_), PBF_VISIT for
// each (PBF_FOR_PAIRS), then their images (PBF_FOR_PAIR_IMAGES,
// PBF_VISIT_IMAGES), from its bits read once.
#define PBF_FOR_NEIGHBOURS_AND_IMAGES(pi_, px0_, pm_, PBF_VISIT, PBF_VISIT_IMAGES)                                    \
    {                                                                                                                  \
        uvec4 pn0_, pn1_;                                                                                              \
        pbf_bits(pi_, pn0_, pn1_);                                                                                     \
        PBF_FOR_PAIRS(px0_, pn0_, pn1_, PBF_VISIT)                                                                     \
        PBF_FOR_PAIR_IMAGES(pm_, px0_, pn0_, pn1_, PBF_VISIT_IMAGES)                                                   \
    }
