// grid_advect.glsl: the bindings and field reads of the advection kernels
// (include it, in place of grid_common.glsl, after VF_PUSH(vf_grid_push)).
// The velocity kernels define VF_GRID_ADVECT_VELOCITY first (the
// VF_GRID_AV_* slots), the scalar kernels get the VF_GRID_AS_* slots. The
// sampled fields are read through texel views when grid_texel
// (VF_GRID_SPEC_TEXEL in shared_grid.h), else from the storage buffers: the
// same floats either way. The side types are the specialization constant
// grid_sides (VF_GRID_SPEC_SIDES), so the code of the sides a domain does not
// have (the periodic wrap and its division) is compiled out.

layout(constant_id = VF_GRID_SPEC_TEXEL) const bool grid_texel = false;
layout(constant_id = VF_GRID_SPEC_SIDES) const uint grid_sides = 0u;
#define VF_GRID_SIDES grid_sides
#include "grid_common.glsl"

// A read of element k of a field: its texel view TEX or its buffer BUF.
#define VF_GRID_FIELD_LOAD(NAME, BUF, TEX)                                          \
    float NAME(int k)                                                               \
    {                                                                               \
        return grid_texel ? texelFetch(TEX, k).x : BUF[k];                          \
    }

#ifdef VF_GRID_ADVECT_VELOCITY
#define VF_GRID_ADV(name) VF_GRID_AV_##name
#else
#define VF_GRID_ADV(name) VF_GRID_AS_##name
#endif

// The advecting velocity (the field at time n).
layout(std430, binding = VF_GRID_ADV(U)) readonly buffer U { float u[]; };
layout(std430, binding = VF_GRID_ADV(V)) readonly buffer V { float v[]; };
layout(binding = VF_GRID_ADV(U_T)) uniform samplerBuffer u_t;
layout(binding = VF_GRID_ADV(V_T)) uniform samplerBuffer v_t;
layout(std430, binding = VF_GRID_ADV(MASK)) readonly buffer Mask { uint mask[]; };
layout(binding = VF_GRID_ADV(MASK_T)) uniform usamplerBuffer mask_t;

uint mask_at(int k)
{
    return grid_texel ? texelFetch(mask_t, k).x : mask[k];
}

VF_GRID_FIELD_LOAD(u_at, u, u_t)
VF_GRID_FIELD_LOAD(v_at, v, v_t)
VF_GRID_U_FETCH(fu, u_at)
VF_GRID_V_FETCH(fv, v_at)
VF_GRID_U_SAMPLE(sample_u, fu)
VF_GRID_V_SAMPLE(sample_v, fv)
VF_GRID_TRACE(sample_u, sample_v)

#ifdef VF_GRID_ADVECT_VELOCITY
// The field sampled (SRC), the result, and the fixed faces' values.
layout(std430, binding = VF_GRID_AV_U_SRC) readonly buffer USrc { float u_src[]; };
layout(std430, binding = VF_GRID_AV_V_SRC) readonly buffer VSrc { float v_src[]; };
layout(binding = VF_GRID_AV_U_SRC_T) uniform samplerBuffer u_src_t;
layout(binding = VF_GRID_AV_V_SRC_T) uniform samplerBuffer v_src_t;
layout(std430, binding = VF_GRID_AV_U_OUT) writeonly buffer UOut { float u_out[]; };
layout(std430, binding = VF_GRID_AV_V_OUT) writeonly buffer VOut { float v_out[]; };
layout(std430, binding = VF_GRID_AV_WX) readonly buffer Wx { float wx[]; };
layout(std430, binding = VF_GRID_AV_WY) readonly buffer Wy { float wy[]; };
layout(std430, binding = VF_GRID_AV_SU) readonly buffer Su { float su[]; };
layout(std430, binding = VF_GRID_AV_SV) readonly buffer Sv { float sv[]; };

VF_GRID_FIELD_LOAD(u_src_at, u_src, u_src_t)
VF_GRID_FIELD_LOAD(v_src_at, v_src, v_src_t)
#define MASKSOLID(k) (!VF_GRID_IS_FLUID(mask_at, k))
VF_GRID_U_FETCH(fus, u_src_at)
VF_GRID_V_FETCH(fvs, v_src_at)
VF_GRID_U_SAMPLE(sample_us, fus)
VF_GRID_V_SAMPLE(sample_vs, fvs)
VF_GRID_SOLID_VEL(solid_u, mask_at, su)
VF_GRID_SOLID_VEL(solid_v, mask_at, sv)
VF_GRID_FIXED_U(fixed_u, solid_u)
VF_GRID_FIXED_V(fixed_v, solid_v)
#else
// Up to 3 channels (pc.count): the fields at time n (SRC), the forward
// result (HAT, MacCormack only) and the result.
layout(std430, binding = VF_GRID_AS_SRC0) readonly buffer S0 { float s0[]; };
layout(std430, binding = VF_GRID_AS_SRC1) readonly buffer S1 { float s1[]; };
layout(std430, binding = VF_GRID_AS_SRC2) readonly buffer S2 { float s2[]; };
layout(std430, binding = VF_GRID_AS_HAT0) readonly buffer H0 { float h0[]; };
layout(std430, binding = VF_GRID_AS_HAT1) readonly buffer H1 { float h1[]; };
layout(std430, binding = VF_GRID_AS_HAT2) readonly buffer H2 { float h2[]; };
layout(binding = VF_GRID_AS_SRC0_T) uniform samplerBuffer s0_t;
layout(binding = VF_GRID_AS_SRC1_T) uniform samplerBuffer s1_t;
layout(binding = VF_GRID_AS_SRC2_T) uniform samplerBuffer s2_t;
layout(binding = VF_GRID_AS_HAT0_T) uniform samplerBuffer h0_t;
layout(binding = VF_GRID_AS_HAT1_T) uniform samplerBuffer h1_t;
layout(binding = VF_GRID_AS_HAT2_T) uniform samplerBuffer h2_t;
layout(std430, binding = VF_GRID_AS_OUT0) writeonly buffer O0 { float o0[]; };
layout(std430, binding = VF_GRID_AS_OUT1) writeonly buffer O1 { float o1[]; };
layout(std430, binding = VF_GRID_AS_OUT2) writeonly buffer O2 { float o2[]; };

// A channel's read AT and its sample SAMPLE (solid cells left out).
#define VF_GRID_CHANNEL(AT, SAMPLE, BUF, TEX) VF_GRID_FIELD_LOAD(AT, BUF, TEX) VF_GRID_C_SAMPLE(SAMPLE, AT, mask_at)
VF_GRID_CHANNEL(s0_at, sample0, s0, s0_t)
VF_GRID_CHANNEL(s1_at, sample1, s1, s1_t)
VF_GRID_CHANNEL(s2_at, sample2, s2, s2_t)
VF_GRID_CHANNEL(h0_at, sampleh0, h0, h0_t)
VF_GRID_CHANNEL(h1_at, sampleh1, h1, h1_t)
VF_GRID_CHANNEL(h2_at, sampleh2, h2, h2_t)
#endif
