#version 450
// Vorticity confinement after a PBF substep's solve (Macklin & Mueller 2013,
// eq. 16; Fedkiw et al. 2001): eta = grad |omega| = sum_j V (|omega_j| -
// |omega_i|) grad W_ij over the pairs within h and their mirror images,
// N = eta / |eta|, v += dt epsilon (N x omega_i); then the end of the
// substep (pbf_finish).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "pbf_common.glsl"

layout(std430, binding = VF_PBF_CONFINE_BIND_WREC) readonly buffer WRec { vec4 wrec[]; };
layout(binding = VF_PBF_CONFINE_BIND_WREC_T) uniform samplerBuffer wrec_t;
layout(std430, binding = VF_PBF_CONFINE_BIND_OMEGA) readonly buffer Omega { vec4 omega[]; };
layout(std430, binding = VF_PBF_CONFINE_BIND_X) readonly buffer X { vec4 xs[]; };

vec4 w_at(uint j) { return sph_texel ? texelFetch(wrec_t, int(j)) : wrec[j]; }

struct sums {
    vec3 xi;
    float wi;
    vec3 eta;
    float h2, r_min2;
};

void term(inout sums s, vec3 x, float w)
{
    vec3 d = s.xi - x;
    float r2 = dot(d, d);
    if (r2 < s.h2 && r2 > s.r_min2)
        s.eta += (w - s.wi) * pbf_grad(d, r2);
}

void visit(inout sums s, uint j)
{
    vec4 r = w_at(j);
    term(s, r.xyz, r.w);
}

// The images of pair j (the second walk; those of the pairs within h).
void visit_images(inout sums s, sph_mirrors m, uint j)
{
    vec4 r = w_at(j);
    vec3 d = s.xi - r.xyz;
    if (dot(d, d) < s.h2)
        PBF_FOR_IMAGE_SETS(m, term(s, sph_mirror(r.xyz, mask, m, false), r.w);)
}

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 x0 = x0_at(i);
    vec4 own = w_at(i);
    sums s;
    s.xi = own.xyz;
    s.wi = own.w;
    s.eta = vec3(0.0);
    s.h2 = prm.h2;
    s.r_min2 = 1e-12 * prm.h2;
    sph_mirrors m = sph_mirrors_at(s.xi);
    PBF_FOR_NEIGHBOURS_AND_IMAGES(i, x0, m, visit(s, j);, visit_images(s, m, j);)
    vec3 eta = prm.volume * s.eta;
    float len = length(eta);
    vec4 v = out_vel[i]; // after XSPH
    vec3 u = v.xyz;
    if (len > 1e-20)
        u += (pc.dt * prm.vorticity / len) * cross(eta, omega[i].xyz);
    pbf_finish(i, s.xi, u, v.w, xs[i].w);
}
