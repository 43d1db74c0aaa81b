#version 450
// The position correction of one PBF iteration (Macklin & Mueller 2013,
// eq. 12-14), over-relaxed by omega (prm.pbf_omega): dx_i = omega V sum_j
// (lambda_i + lambda_j + s_corr) grad W_ij over
// the pairs within h and their mirror images (pbf_common.glsl), with the
// artificial pressure s_corr = -k (W(r) / W(dq))^n, then the walls and
// obstacles (positions only). The correction adds to the particle's
// displacement from x0 over the substep's iterations, kept apart from the
// position (x = x0 + displacement), so the velocity the substep ends with
// does not take the rounding of x (an ulp of a position 0.1 m from the
// tank's corner over a 8 ms step is 1e-6 m/s). The last iteration
// (VF_PBF_LAST) also gives the final velocity, v = v_predicted +
// displacement / dt (the prediction already made v the velocity of its own
// move), and either hands
// (x, pressure) and (v, density) to the pass after it (VF_PBF_POST) or ends
// the substep (pbf_finish). The pressure is that of all the substep's
// corrections, the artificial pressure's with the lambdas' (pbf_pressure:
// the virial sum_j (lambda_i + lambda_j + s_corr) (x_i - x_j).grad W_ij,
// summed over the iterations beside the displacement).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "pbf_common.glsl"

layout(std430, binding = VF_PBF_DELTA_BIND_REC) readonly buffer Rec { vec4 rec[]; };
layout(binding = VF_PBF_DELTA_BIND_REC_T) uniform samplerBuffer rec_t;
layout(std430, binding = VF_PBF_DELTA_BIND_X) writeonly buffer X { vec4 xk[]; };
layout(std430, binding = VF_PBF_DELTA_BIND_NB_V) writeonly buffer NbV { vec4 nb_v[]; };
layout(std430, binding = VF_PBF_DELTA_BIND_DISP) buffer Disp { vec4 disp[]; };

vec4 rec_at(uint j) { return sph_texel ? texelFetch(rec_t, int(j)) : rec[j]; }

struct sums {
    vec3 dx;
    vec3 xi;
    float lambda_i, h2, r_min2;
    float vir; // sum_j (lambda_i + lambda_j + s_corr) (x_i - x_j).grad W_ij: the pressure's virial (pbf_pressure)
};

// A pair or an image at x with multiplier lambda_j.
void term(inout sums s, vec3 x, float lambda_j)
{
    vec3 d = s.xi - x;
    float r2 = dot(d, d);
    if (r2 < s.h2 && r2 > s.r_min2) {
        float scorr = 0.0;
        if (prm.pbf_scorr_k > 0.0)
            scorr = -prm.pbf_scorr_k * pow(pbf_w(r2) * prm.pbf_scorr_inv_w, prm.pbf_scorr_n);
        vec3 g = pbf_grad(d, r2);
        float a = s.lambda_i + lambda_j + scorr;
        s.dx += a * g;
        s.vir += a * dot(d, g);
    }
}

void visit(inout sums s, uint j)
{
    vec4 r = rec_at(j);
    term(s, r.xyz, r.w);
}

// The images of pair j (the second walk; those of the pairs within h).
void visit_images(inout sums s, sph_mirrors m, uint j)
{
    vec4 r = rec_at(j);
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
    vec4 own = rec_at(i);
    sums s;
    s.dx = vec3(0.0);
    s.vir = 0.0;
    s.xi = own.xyz;
    s.lambda_i = own.w;
    s.h2 = prm.h2;
    s.r_min2 = 1e-12 * prm.h2;
    sph_mirrors m = sph_mirrors_at(s.xi);
    PBF_FOR_NEIGHBOURS_AND_IMAGES(i, x0, m, visit(s, j);, visit_images(s, m, j);)
    // the displacement from x0 summed as it is (its own rounding, ~1e-7 of
    // it), the position x0 + displacement, the walls and obstacles; the
    // virial summed over the iterations beside it (disp's w)
    vec4 before = (pc.flags & VF_PBF_FIRST) != 0u ? vec4(0.0) : disp[i];
    vec3 moved = before.xyz + (prm.pbf_omega * prm.volume) * s.dx;
    float vir = before.w + s.vir;
    vec3 x = x0 + moved, xc = x, unused = vec3(0.0);
    sph_collide_margin(xc, unused, sph_wall_margin());
    if (any(notEqual(xc, x))) // a wall or an obstacle moved it: the displacement is the move made
        moved = xc - x0;
    x = xc;
    if ((pc.flags & VF_PBF_LAST) == 0u) {
        xk[i] = vec4(x, 0.0);
        disp[i] = vec4(moved, vir);
        return;
    }
    vec3 v = vel[i].xyz + moved / pc.dt;
    vec2 rl = dens[i];
    float p = pbf_pressure(vir);
    if ((pc.flags & VF_PBF_POST) != 0u) {
        xk[i] = vec4(x, p);
        nb_v[i] = vec4(v, rl.x);
    } else {
        pbf_finish(i, x, v, rl.x, p);
    }
}
