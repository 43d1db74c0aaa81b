// pbf_common.glsl: what the position-based fluid passes share (shared_sph.h,
// VF_PBF_*): the bindings of the particle's own state, the kernels of the
// density constraint, the neighbour loop over the rows of a particle's
// binned position (the bits pbf_lambda's first iteration writes: the pairs
// of the substep, those within h at the binned positions), the mirror
// images of a pair near walls and obstacles, and the finish of a substep
// (the final or the next substep's predicted state, the binning, the largest
// speed) into the other pair of particle buffers. Included after shared.h with SPH_STATE_ACCESS defined empty (the
// speed atomics). Mirrored on the CPU by tests/ref/solver_sph_ref.c.
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_PBF_BIND_POS) buffer Pos { vec4 pos[]; };
layout(binding = VF_PBF_BIND_POS_T) uniform samplerBuffer pos_t;
layout(std430, binding = VF_PBF_BIND_VEL) buffer Vel { vec4 vel[]; };
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

// The external accelerations of the prediction: gravity, damping and the
// interactive force.
vec3 pbf_external(vec3 x, vec3 v)
{
    vec3 a = prm.gravity.xyz - prm.damping * v;
    float radius = pc.interact.w;
    if (radius > 0.0) {
        vec3 d = x - pc.interact.xyz;
        float len = length(d);
        if (len < radius && len > 1e-6 * radius)
            a += (pc.strength * (1.0 - len / radius) / len) * d;
    }
    return a;
}

// The prediction of a substep: v += dt a, x += dt v, x kept out of the walls
// and obstacles, and v the velocity of the move that was made (a wall stops
// the particle: the velocity follows the positions, as every correction of
// the substep does).
void pbf_predict(inout vec3 x, inout vec3 v, float dt)
{
    v += dt * pbf_external(x, v);
    vec3 x1 = x + dt * v, vc = v;
    sph_collide(x1, vc);
    v = (x1 - x) / dt;
    x = x1;
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
    if ((pc.flags & (VF_PBF_PREDICT | VF_SPH_DRIFT_BIN)) == (VF_PBF_PREDICT | VF_SPH_DRIFT_BIN)) {
        uint c = sph_bin_cell(x);
        cell[i] = c;
        slot[i] = atomicAdd(counts[c], 1u);
    }
    if ((pc.flags & VF_SPH_DRIFT_ODD) != 0u) {
        if (speed_bits > st.max_speed_bits)
            atomicMax(st.max_speed_bits_odd, speed_bits);
    } else if (speed_bits > st.max_speed_bits_odd) {
        atomicMax(st.max_speed_bits, speed_bits);
    }
}

// The pressure that the substep's corrections stand for: a correction
// V sum (lambda_i + lambda_j) grad W moves a particle as the symmetric
// pressure force of pressures -rho0 lambda / dt^2 does in one step.
float pbf_pressure(float lambda_sum) { return -prm.rho0 * lambda_sum / (pc.dt * pc.dt); }

// The neighbour bits of particle i (pbf_lambda's first iteration).
void pbf_bits(uint i, out uvec4 m0, out uvec4 m1)
{
    m0 = uvec4(0u);
    m1 = uvec4(0u);
    for (uint k = 0u; k < VF_SPH_MASK_WORDS; k += 2u) {
        uint word = VF_SPH_MASK_WORDS * i + k;
        uvec2 w = sph_texel ? texelFetch(bits_t, int(word / 2u)).xy : uvec2(bits[word], bits[word + 1u]);
        if (k < 4u) {
            m0[k] = w.x;
            m0[k + 1u] = w.y;
        } else {
            m1[k & 3u] = w.x;
            m1[(k + 1u) & 3u] = w.y;
        }
    }
}

// Whether candidate j was within h of a particle binned at x0: a pair of
// the substep.
bool pbf_pair_of(vec3 x0, uint j)
{
    vec3 d = x0 - x0_at(j);
    return dot(d, d) < prm.h2;
}

// The pairs of particle pi_ (binned at px0_): the candidates whose bit is
// set, a slab of rows of equal z at a time (as sph_forces), PBF_VISIT for
// each (the candidate in `j`). The candidates the bits do not cover (past
// the 32nd of a row, past the last word) are taken where their binned
// positions lie within h (pbf_pair_of), so the pairs are exactly those of
// the first iteration whatever the particles did since.
#define PBF_FOR_NEIGHBOURS(pi_, px0_, PBF_VISIT)                                                                      \
    {                                                                                                                  \
        ivec3 c_ = sph_cell3(px0_);                                                                                    \
        vec3 f_ = sph_rows_at(px0_);                                                                                   \
        ivec2 lo_, hi_;                                                                                                \
        sph_row_bounds(c_, f_, lo_, hi_);                                                                              \
        sph_rows g_ = sph_rows_of();                                                                                   \
        uvec4 m0_, m1_;                                                                                                \
        pbf_bits(pi_, m0_, m1_);                                                                                       \
        uint at_ = 0u;                                                                                                 \
        const uint limit_ = 32u * VF_SPH_MASK_WORDS;                                                                   \
        for (int zs_ = 0; zs_ < SPH_ROW_SPAN; zs_++) {                                                                 \
            uint rb_[SPH_ROW_SPAN], re_[SPH_ROW_SPAN], rw_[SPH_ROW_SPAN], rr_[SPH_ROW_SPAN], rs_[SPH_ROW_SPAN];        \
            for (int k_ = 0; k_ < SPH_ROW_SPAN; k_++) {                                                                \
                uint b_, e_;                                                                                           \
                sph_row_candidates_of(g_, zs_ * SPH_ROW_SPAN + k_, c_, f_, lo_, hi_, b_, e_);                          \
                uint len_ = min(e_ - b_, 32u);                                                                         \
                rw_[k_] = sph_mask_bits(m0_, m1_, at_, len_);                                                          \
                /* the bits that lie in the stored words */                                                           \
                rs_[k_] = at_ >= limit_ ? 0u : (limit_ - at_ >= 32u ? ~0u : (1u << (limit_ - at_)) - 1u);              \
                at_ += len_;                                                                                           \
                rb_[k_] = b_;                                                                                          \
                re_[k_] = e_;                                                                                          \
                rr_[k_] = b_ + 32u;                                                                                    \
            }                                                                                                          \
            for (;;) {                                                                                                 \
                bool found_ = false, sure_ = true;                                                                     \
                uint j = 0u;                                                                                           \
                for (int k_ = 0; k_ < SPH_ROW_SPAN; k_++) {                                                            \
                    bool bit_ = !found_ && rw_[k_] != 0u;                                                              \
                    int lsb_ = findLSB(rw_[k_]);                                                                       \
                    j = bit_ ? rb_[k_] + uint(lsb_) : j;                                                               \
                    sure_ = bit_ ? ((rs_[k_] >> uint(max(lsb_, 0))) & 1u) != 0u : sure_;                               \
                    rw_[k_] &= bit_ ? rw_[k_] - 1u : ~0u;                                                              \
                    found_ = found_ || bit_;                                                                           \
                }                                                                                                      \
                if (!found_)                                                                                           \
                    break;                                                                                             \
                if (sure_ || pbf_pair_of(px0_, j)) {                                                                   \
                    PBF_VISIT                                                                                          \
                }                                                                                                      \
            }                                                                                                          \
            for (;;) {                                                                                                 \
                bool found_ = false;                                                                                   \
                uint j = 0u;                                                                                           \
                for (int k_ = 0; k_ < SPH_ROW_SPAN; k_++) {                                                            \
                    bool rest_ = !found_ && rr_[k_] < re_[k_];                                                         \
                    j = rest_ ? rr_[k_] : j;                                                                           \
                    rr_[k_] += rest_ ? 1u : 0u;                                                                        \
                    found_ = found_ || rest_;                                                                          \
                }                                                                                                      \
                if (!found_)                                                                                           \
                    break;                                                                                             \
                if (pbf_pair_of(px0_, j)) {                                                                            \
                    PBF_VISIT                                                                                          \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }

// The mirror images of a pair near walls and obstacles: a particle within h
// of a wall or an obstacle (sph_mirrors of its current position) sees the
// images of each of its pairs that lies within h of it now, across every
// image set (sph_density's images; the walls and the obstacle are planes).
// The images of a pair are taken in the pair's own visit, so they are the
// images of exactly the pairs: PBF_FOR_IMAGE_SETS(m, PBF_VISIT_IMAGE) calls
// PBF_VISIT_IMAGE for each set (its mask in `mask`; sph_mirror(x, mask, m, ...)).
#define PBF_FOR_IMAGE_SETS(pm_, PBF_VISIT_IMAGE)                                                                      \
    {                                                                                                                  \
        uint set_ = pm_.axes, mask;                                                                                    \
        bool obstacle_ = pm_.obstacle;                                                                                 \
        while (sph_next_image_set(pm_, set_, obstacle_, mask)) {                                                      \
            PBF_VISIT_IMAGE                                                                                            \
        }                                                                                                              \
    }
