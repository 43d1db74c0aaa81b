// dfsph_common.glsl: what the divergence-free SPH passes share (shared_sph.h,
// VF_DFSPH_*): the bindings, the kernel gradient, the neighbour loop over
// the bits dfsph_density writes, the pair terms of the pressure solves, and
// the error sum whose last workgroup decides whether the solve goes on.
// Included after shared.h with SPH_STATE_ACCESS defined empty. Mirrored on
// the CPU by tests/ref/solver_sph_ref.c.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "sph_common.glsl"

layout(local_size_x = VF_DFSPH_WG) in;
layout(std430, binding = VF_DFSPH_BIND_CTL) coherent buffer Ctl
{
    vf_dfsph_ctl ctl;
    uvec4 div_args[VF_DFSPH_MAX_ITERATIONS + 1];
    uvec4 dens_args[VF_DFSPH_MAX_ITERATIONS + 1];
};
layout(std430, binding = VF_DFSPH_BIND_POS) buffer Pos { vec4 pos[]; };
layout(binding = VF_DFSPH_BIND_POS_T) uniform samplerBuffer pos_t;
layout(std430, binding = VF_DFSPH_BIND_VEL) buffer Vel { vec4 vel[]; };
layout(binding = VF_DFSPH_BIND_VEL_T) uniform samplerBuffer vel_t;
layout(std430, binding = VF_DFSPH_BIND_DENS) buffer Dens { vec2 dens[]; };
layout(binding = VF_DFSPH_BIND_DENS_T) uniform samplerBuffer dens_t;
layout(std430, binding = VF_DFSPH_BIND_WARM) buffer Warm { vec2 warm[]; };
layout(binding = VF_DFSPH_BIND_WARM_T) uniform samplerBuffer warm_t;
layout(std430, binding = VF_DFSPH_BIND_KAPPA) buffer Kappa { float kappa[]; };
layout(binding = VF_DFSPH_BIND_KAPPA_T) uniform samplerBuffer kappa_t;
layout(std430, binding = VF_DFSPH_BIND_VSTAR) buffer VStar { vec4 vstar[]; };
layout(binding = VF_DFSPH_BIND_VSTAR_T) uniform samplerBuffer vstar_t;
layout(std430, binding = VF_DFSPH_BIND_START) readonly buffer Start { uint start[]; };
layout(binding = VF_DFSPH_BIND_START_T) uniform usamplerBuffer start_t;
layout(std430, binding = VF_DFSPH_BIND_PARTIAL) coherent buffer Partial { float partial[]; };
layout(std430, binding = VF_DFSPH_BIND_CELL) writeonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_DFSPH_BIND_SLOT) writeonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_DFSPH_BIND_COUNTS) buffer Counts { uint counts[]; };
layout(std430, binding = VF_DFSPH_BIND_DISPATCH) readonly buffer Dispatch { uvec4 dispatch_args; };
layout(std430, binding = VF_DFSPH_BIND_BITS) buffer Bits { uint bits[]; };
layout(binding = VF_DFSPH_BIND_BITS_T) uniform usamplerBuffer bits_t;
VF_PUSH(vf_dfsph_push)

uint start_at(uint k) { return sph_texel ? texelFetch(start_t, int(k)).x : start[k]; }
vec3 x_at(uint j) { return sph_texel ? texelFetch(pos_t, int(j)).xyz : pos[j].xyz; }
vec3 v_at(uint j) { return sph_texel ? texelFetch(vel_t, int(j)).xyz : vel[j].xyz; }
vec2 dens_at(uint j) { return sph_texel ? texelFetch(dens_t, int(j)).xy : dens[j]; }
vec2 warm_at(uint j) { return sph_texel ? texelFetch(warm_t, int(j)).xy : warm[j]; }
float kappa_at(uint j) { return sph_texel ? texelFetch(kappa_t, int(j)).x : kappa[j]; }
vec3 vstar_at(uint j) { return sph_texel ? texelFetch(vstar_t, int(j)).xyz : vstar[j].xyz; }

// The share of the last step's pressures a step starts from (the warm
// start of both solves, shared_sph.h).
const float dfsph_warm = VF_DFSPH_WARM;

// dfsph's kernel, Wendland C2 (shared_sph.h: prm.dfsph_w, prm.dfsph_grad),
// for the density and for every gradient of the solves: the density's own
// gradient, so that the density a solve predicts is the one the step then
// gives (a poly6 density with a spiky gradient keeps a resting column in
// motion). Its shape (1 - q)^4 (1 + 4 q) at r^2 < h^2:
float dfsph_shape(float r2)
{
    float q = sqrt(r2) * prm.inv_h, t = 1.0 - q;
    return t * t * t * t * (1.0 + 4.0 * q);
}

// Its gradient at offset d (= x_i - x_j), 0 beyond h and at d = 0 (a pair
// closer than 1e-6 h: the particle itself).
vec3 dfsph_grad(vec3 d)
{
    float r2 = dot(d, d);
    if (!(r2 < prm.h2) || !(r2 > 1e-12 * prm.h2))
        return vec3(0.0);
    float omq = 1.0 - sqrt(r2) * prm.inv_h;
    return (-prm.dfsph_grad * omq * omq * omq) * d;
}

// The neighbour bits of particle i (dfsph_density wrote them).
void dfsph_bits(uint i, out uvec4 m0, out uvec4 m1)
{
    SPH_READ_BITS(i, bits_t, bits, m0, m1)
}

// The candidates of particle i at xi whose bit is set, and every one the
// bits do not cover (the visit checks the distance): VISIT for each, the
// candidate in `j`. The particles do not move between dfsph_density and
// dfsph_advect, so the bits hold for the whole substep.
#define DFSPH_FOR_NEIGHBOURS(pi_, px_, VISIT)                                                                          \
    {                                                                                                                  \
        uvec4 dm0_, dm1_;                                                                                              \
        dfsph_bits(pi_, dm0_, dm1_);                                                                                   \
        SPH_FOR_MARKED(px_, dm0_, dm1_, true, VISIT)                                                                   \
    }

// The first workgroup's particles of a substep that runs: this dispatch's
// particle i exists (the step's arguments are the particle dispatch).
bool dfsph_particle(out uint i)
{
    i = sph_index();
    return i < st.count;
}

shared float s_err[VF_DFSPH_WG];

// The error sum of a solve's first pass, called by every invocation of the
// workgroup (uniform control flow) with its particle's error (0 for none):
// each workgroup's sum goes to partial[group]; the last workgroup to finish
// sums them (one subgroup, in a fixed order), and decides whether the
// solve's next correction (and the error pass after it) runs: not when the
// average error is at most eta after at least min_corrections corrections,
// nor past the recorded iterations. It writes that pass's arguments,
// args_out (div_args or dens_args [iteration + 1], 0: no workgroup), and
// counts the iteration. divergence: which solve.
void dfsph_error_sum(float e, bool divergence)
{
    e = subgroupAdd(e);
    if (subgroupElect())
        s_err[gl_SubgroupID] = e;
    barrier();
    if (gl_SubgroupID != 0u)
        return;
    e = 0.0;
    for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize)
        e += s_err[k];
    e = subgroupAdd(e);
    uint group = vf_group_linear();
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumWorkGroups.z;
    bool last = false;
    if (subgroupElect()) {
        partial[group] = e;
        memoryBarrierBuffer(); // the partial is visible before the count says so
        last = atomicAdd(ctl.arrived, 1u) == groups - 1u;
    }
    if (!subgroupAny(last))
        return;
    memoryBarrierBuffer();
    float sum = 0.0;
    for (uint k = gl_SubgroupInvocationID; k < groups; k += gl_SubgroupSize)
        sum += partial[k];
    sum = subgroupAdd(sum);
    if (!subgroupElect())
        return;
    ctl.arrived = 0u;
    uint it = pc.mode; // this error pass's iteration: corrections applied so far
    float err = st.count > 0u ? sum / float(st.count) : 0.0;
    float eta = divergence ? prm.dfsph_eta_v : prm.dfsph_eta;
    uint min_corrections = divergence ? 1u : 2u;
    bool done = it >= min_corrections && err <= eta;
    bool more = !done && it < prm.dfsph_max_iterations; // this correction runs
    uvec4 args = more ? uvec4(ctl.step_x, ctl.step_y, ctl.step_z, 0u) : uvec4(0u);
    if (divergence) {
        div_args[it + 1u] = args;
        ctl.div_iterations += more ? 1u : 0u;
    } else {
        dens_args[it + 1u] = args;
        ctl.dens_iterations += more ? 1u : 0u;
    }
    if (!more || it + 1u >= prm.dfsph_max_iterations) {
        // the solve ends (no error pass follows): its last error, and
        // whether it ran out of iterations
        if (divergence) {
            ctl.div_error_max = max(ctl.div_error_max, err);
            ctl.div_capped += done ? 0u : 1u;
        } else {
            ctl.dens_error_max = max(ctl.dens_error_max, err);
            ctl.dens_capped += done ? 0u : 1u;
        }
    }
    ctl.error = err;
}
