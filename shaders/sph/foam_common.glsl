// foam_common.glsl: what the foam_*.comp passes share (included after
// shared.h): the SPH blocks (sph_common.glsl), every foam binding, the
// radially symmetric weight of Ihmsen et al. 2012 and the random numbers.
// Mirrored on the CPU by tests/ref/sph_foam_ref.c.
#include "sph_common.glsl"

layout(local_size_x = VF_FOAM_WG) in;
VF_PUSH(vf_foam_push)

layout(std430, binding = VF_FOAM_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_FOAM_BIND_POS) readonly buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_FOAM_BIND_VEL) readonly buffer Vel { vec4 vel[]; };
layout(std430, binding = VF_FOAM_BIND_ID) readonly buffer Id { uint ids[]; };
layout(std430, binding = VF_FOAM_BIND_NORMAL) buffer Normal { vec4 normal[]; };
layout(std430, binding = VF_FOAM_BIND_POTENTIAL) buffer Potential { vec4 potential[]; };
layout(std430, binding = VF_FOAM_BIND_GEN) buffer Gen { uint gen[]; };
layout(std430, binding = VF_FOAM_BIND_STATE) buffer FoamState { uint fs[VF_FOAM_STATE_WORDS]; };
layout(std430, binding = VF_FOAM_BIND_DPOS) buffer DPos { vec4 dpos[]; };
layout(std430, binding = VF_FOAM_BIND_DVEL) buffer DVel { vec4 dvel[]; };
layout(std430, binding = VF_FOAM_BIND_KEEP) buffer Keep { uint keep[]; };
layout(std430, binding = VF_FOAM_BIND_DPOS_OUT) buffer DPosOut { vec4 dpos_out[]; };
layout(std430, binding = VF_FOAM_BIND_DVEL_OUT) buffer DVelOut { vec4 dvel_out[]; };

// The fluid's cell starts, for the neighbour rows of sph_common.glsl: the
// foam passes visit the rows of sph_row_candidates_of, which leave out only
// cells farther than h. The fluid's positions are those of its last binning
// (the frame's closing kick moves no particle), so the neighbours within h
// and the order of their sums are those of the whole rows. (With the
// symplectic Euler integrator the last step moved them after the binning,
// and a neighbour search over cells is approximate either way; the pairs it
// can miss lie at the edge of h, where the weights vanish.)
uint start_at(uint k) { return start[k]; }

uint foam_index()
{
    return vf_group_linear() * VF_FOAM_WG + gl_LocalInvocationID.x;
}

// W~(r) = 1 - r/h inside the smoothing radius.
float foam_weight(float r)
{
    return r < prm.h ? 1.0 - r * prm.inv_h : 0.0;
}

// phi(I) of the paper: 0 below lo, 1 above hi, linear between.
float foam_clamp(float v, float lo, float hi)
{
    return (min(v, hi) - min(v, lo)) / (hi - lo);
}

// A uniform number in [0, 1) from a particle id, the frame and a stream.
float foam_random(uint id, uint stream)
{
    uint h = vf_hash(id * 0x9e3779b9u ^ vf_hash(pc.frame * 16u + stream));
    return float(h >> 8) * (1.0 / 16777216.0);
}

vec3 foam_unit(vec3 v)
{
    float l = length(v);
    return l > 1e-12 ? v / l : vec3(0.0);
}
