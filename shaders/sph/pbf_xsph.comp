#version 450
// After a PBF substep's solve, on the velocities the next prediction starts
// from: XSPH viscosity (Macklin & Mueller 2013, eq. 17),
// v_i += c dt sum_j (m / rho_j) (v_j - v_i) W_ij (c per second, so the
// smoothing does not depend on the substeps), the viscosity force of
// sph_forces (mu, the viscosity-kernel Laplacian; sph_common.glsl's
// sph_visc_gain), v_i += dt (mu m / rho_i) sum_j (v_j - v_i) lap W_ij / rho_j,
// both from the same v_i, and, with vorticity
// confinement on (VF_PBF_POST), the vorticity
// omega_i = sum_j (m / rho_j) (v_i - v_j) x grad W_ij for pbf_confine; over
// the pairs within h and their mirror images (velocities reflected:
// free-slip walls). Without confinement it ends the substep (pbf_finish).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "pbf_common.glsl"

layout(std430, binding = VF_PBF_XSPH_BIND_X) readonly buffer X { vec4 xs[]; };
layout(binding = VF_PBF_XSPH_BIND_X_T) uniform samplerBuffer xs_t;
layout(std430, binding = VF_PBF_XSPH_BIND_NB_V) readonly buffer NbV { vec4 nb_v[]; };
layout(binding = VF_PBF_XSPH_BIND_NB_V_T) uniform samplerBuffer nb_v_t;
layout(std430, binding = VF_PBF_XSPH_BIND_OMEGA) writeonly buffer Omega { vec4 omega[]; };
layout(std430, binding = VF_PBF_XSPH_BIND_WREC) writeonly buffer WRec { vec4 wrec[]; };

vec4 x_at(uint j) { return sph_texel ? texelFetch(xs_t, int(j)) : xs[j]; }
vec4 v_at(uint j) { return sph_texel ? texelFetch(nb_v_t, int(j)) : nb_v[j]; }

struct sums {
    vec3 xi, vi;
    vec3 dv, w; // the XSPH sum, the vorticity
    vec3 visc;  // sum_j (1 - r/h) (v_j - v_i) / rho_j (the viscosity)
    float diag; // sum_j (1 - r/h) / rho_j over the others (its diagonal)
    float h2, r_min2, mw, mass;
};

// A pair or an image at x with velocity v and density rho.
void term(inout sums s, vec3 x, vec3 v, float rho)
{
    vec3 d = s.xi - x;
    float r2 = dot(d, d);
    if (!(r2 < s.h2))
        return;
    float vol = s.mass / rho;
    s.dv += (vol * s.mw * pbf_w(r2)) * (v - s.vi);
    if (r2 > s.r_min2) {
        s.w += vol * cross(s.vi - v, pbf_grad(d, r2));
        float omq = (1.0 - sqrt(r2) * prm.inv_h) / rho;
        s.visc += omq * (v - s.vi);
        s.diag += omq;
    }
}

void visit(inout sums s, uint j)
{
    vec3 xj = x_at(j).xyz;
    vec3 d = s.xi - xj;
    if (dot(d, d) < s.h2) {
        vec4 v = v_at(j);
        term(s, xj, v.xyz, v.w);
    }
}

// The images of pair j (the second walk; those of the pairs within h).
void visit_images(inout sums s, sph_mirrors m, uint j)
{
    vec3 xj = x_at(j).xyz;
    vec3 d = s.xi - xj;
    if (dot(d, d) < s.h2) {
        vec4 v = v_at(j);
        PBF_FOR_IMAGE_SETS(m, term(s, sph_mirror(xj, mask, m, false), sph_mirror(v.xyz, mask, m, true), v.w);)
    }
}

void main()
{
    uint i = sph_index();
    if (i >= st.count)
        return;
    vec3 x0 = x0_at(i);
    vec4 xr = x_at(i), vr = v_at(i);
    sums s;
    s.xi = xr.xyz;
    s.vi = vr.xyz;
    s.dv = vec3(0.0);
    s.w = vec3(0.0);
    s.visc = vec3(0.0);
    s.diag = 0.0;
    s.h2 = prm.h2;
    s.r_min2 = 1e-12 * prm.h2;
    s.mw = prm.poly6;
    s.mass = prm.mass;
    sph_mirrors m = sph_mirrors_at(s.xi);
    PBF_FOR_NEIGHBOURS_AND_IMAGES(i, x0, m, visit(s, j);, visit_images(s, m, j);)
    vec3 v = s.vi + min(prm.xsph * pc.dt, 1.0) * s.dv + sph_visc_gain(pc.dt, vr.w, s.diag) * s.visc;
    if ((pc.flags & VF_PBF_POST) != 0u) {
        out_vel[i] = vec4(v, vr.w);
        omega[i] = vec4(s.w, 0.0);
        wrec[i] = vec4(s.xi, length(s.w));
    } else {
        pbf_finish(i, s.xi, v, vr.w, xr.w);
    }
}
