/* solver_grid_ref: a plain C reference of every grid kernel (same layout and
 * rules as the shaders, see solver_grid.h), written independently of the
 * GLSL for the GPU-versus-CPU tests and the benchmark. Slow and simple: one
 * function per kernel, arrays in, arrays out, fp32 arithmetic. */
#ifndef VF_SOLVER_GRID_REF_H
#define VF_SOLVER_GRID_REF_H

#include <stdbool.h>
#include <stdint.h>

/** The domain of a level: cells, cell size, substep and the sides. */
typedef struct vf_grid_ref {
    uint32_t nx, ny;
    float h, dt;
    uint32_t sides[4];
    float side_u[4], side_v[4];
} vf_grid_ref;

/** Returns the domain of multigrid level l of r (nx, ny halved l times). */
vf_grid_ref vf_grid_ref_level(const vf_grid_ref *r, uint32_t l);

/* Each function mirrors the shader of the same name (grid_<name>.comp). */

/** grid_obstacles: mask/su/sv from the static ones plus a moving shape
 * (shape 0 none, 1 disc, 2 box) at (cx, cy) with radius and velocity. */
void vf_grid_ref_obstacles(const vf_grid_ref *r, const uint32_t *mask_static, const float *su_static,
                           const float *sv_static, uint32_t shape, float cx, float cy, float radius, float vx, float vy,
                           uint32_t *mask, float *su, float *sv);

/** grid_mg_weights: level-0 face weights from the mask. */
void vf_grid_ref_weights(const vf_grid_ref *r, const uint32_t *mask, float *wx, float *wy);

/** grid_mg_coarsen: coarse weights (r = the coarse level). */
void vf_grid_ref_coarsen(const vf_grid_ref *coarse, const float *wxf, const float *wyf, float *wxc, float *wyc);

/** The splat parameters (see shared_grid.h, grid_splat). */
typedef struct vf_grid_ref_splat {
    uint32_t mode; /* VF_GRID_SPLAT_* */
    float cx, cy, radius, fx, fy, buoyancy, r, g, b;
    uint32_t stripes;
} vf_grid_ref_splat;

/** grid_splat: in -> out for u, v and the three dye channels. */
void vf_grid_ref_splat_apply(const vf_grid_ref *r, const vf_grid_ref_splat *s, const float *u, const float *v,
                             const float *const dye[3], const float *wx, const float *wy, const uint32_t *mask,
                             float *u_out, float *v_out, float *const dye_out[3]);

/** grid_vorticity: cell-centred vorticity. */
void vf_grid_ref_vorticity(const vf_grid_ref *r, const float *u, const float *v, float *omega);

/** grid_confine: u, v += dt * confinement force (eps) on open faces. */
void vf_grid_ref_confine(const vf_grid_ref *r, float eps, const float *u, const float *v, const float *omega,
                         const float *wx, const float *wy, float *u_out, float *v_out);

/** grid_advect_vel (+ grid_maccormack_vel when maccormack): self-advection
 * over dt. hat_u/hat_v: scratch of the u/v sizes (maccormack only). */
void vf_grid_ref_advect_velocity(const vf_grid_ref *r, bool maccormack, const float *u, const float *v,
                                 const float *wx, const float *wy, const uint32_t *mask, const float *su,
                                 const float *sv, float *hat_u, float *hat_v, float *u_out, float *v_out);

/** grid_advect_scalar (+ grid_maccormack_scalar): count cell fields through
 * the velocity (u, v). hat: count scratch fields (maccormack only). */
void vf_grid_ref_advect_scalars(const vf_grid_ref *r, bool maccormack, const float *u, const float *v,
                                const uint32_t *mask, uint32_t count, const float *const *src, float *const *hat,
                                float *const *out);

/** grid_diffuse: x = rhs, then `sweeps` red-black SOR sweeps (omega) of
 * (I - alpha L) x = rhs on the u (component 0) or v (1) faces. */
void vf_grid_ref_diffuse(const vf_grid_ref *r, uint32_t component, float alpha, float omega, uint32_t sweeps,
                         const float *rhs, const float *w, float *x);

/** grid_boundary: fixed, outflow and periodic faces. */
void vf_grid_ref_boundary(const vf_grid_ref *r, const float *u, const float *v, const float *wx, const float *wy,
                          const uint32_t *mask, const float *su, const float *sv, float *u_out, float *v_out);

/** grid_divergence: scale * div(u) per fluid cell. */
void vf_grid_ref_divergence(const vf_grid_ref *r, const float *u, const float *v, const uint32_t *mask, float scale,
                            float *out);

/** grid_gradient: u -= dt w grad p on open faces. */
void vf_grid_ref_gradient(const vf_grid_ref *r, const float *u, const float *v, const float *p, const float *wx,
                          const float *wy, float *u_out, float *v_out);

/** grid_mg_residual: r = b - A x on a level. */
void vf_grid_ref_residual(const vf_grid_ref *r, const float *x, const float *b, const float *wx, const float *wy,
                          float *res);

/** grid_mg_smooth: one red-black colour. */
void vf_grid_ref_smooth(const vf_grid_ref *r, uint32_t color, float *x, const float *b, const float *wx, const float *wy);

/** grid_jacobi: one iteration. */
void vf_grid_ref_jacobi(const vf_grid_ref *r, const float *x, const float *b, const float *wx, const float *wy,
                        float *x_out);

/** A multigrid hierarchy for the reference V-cycle. */
typedef struct vf_grid_ref_mg {
    vf_grid_ref level[16];
    float *x[16], *b[16], *res[16], *wx[16], *wy[16];
    uint32_t levels, pre, post, coarse_iters;
    float coarse_omega;
} vf_grid_ref_mg;

/** Allocates levels 1.. of a hierarchy over r (level-0 arrays are the
 * caller's: set x[0], b[0], res[0], wx[0], wy[0] after) and computes nothing.
 * Returns false when out of memory. */
bool vf_grid_ref_mg_init(vf_grid_ref_mg *mg, const vf_grid_ref *r, uint32_t levels, uint32_t pre, uint32_t post,
                         uint32_t coarse_iters, float coarse_omega);
/** Frees what vf_grid_ref_mg_init allocated. */
void vf_grid_ref_mg_free(vf_grid_ref_mg *mg);
/** Builds the coarse weights from level 0's (grid_mg_coarsen). */
void vf_grid_ref_mg_weights(vf_grid_ref_mg *mg);
/** One V-cycle on level 0 (grid_mg_smooth/residual/restrict/prolong/coarse). */
void vf_grid_ref_vcycle(vf_grid_ref_mg *mg);

/** grid_dye_mix. */
void vf_grid_ref_dye_mix(const vf_grid_ref *r, float m, const uint32_t *mask, const float *const in[3],
                         float *const out[3]);

/** grid_donor_cell: one explicit step (r->dt) of the convective terms,
 * donor-cell blended with central differences by gamma, on the open faces
 * inside the box; the other faces copied. */
void vf_grid_ref_donor_cell(const vf_grid_ref *r, float gamma, const float *u, const float *v, const float *wx,
                            const float *wy, float *u_out, float *v_out);

/** grid_ssor: `iters` symmetric SOR iterations (a lexicographic forward
 * sweep, x fastest, then the backward one) of A x = b, in place. */
void vf_grid_ref_ssor(const vf_grid_ref *r, uint32_t iters, float omega, float *x, const float *b, const float *wx,
                      const float *wy);

/** grid_penalty: `substeps` (K) penalty sub-steps from p (p_0, the previous
 * pressure; replaced by p_K): p_{m+1} = p_m + alpha (h^2 A p_m) -
 * (coef_b b + p_0 / K); sum = p_0 + ... + p_{K-1}. */
void vf_grid_ref_penalty(const vf_grid_ref *r, uint32_t substeps, float alpha, float coef_b, float *p, const float *b,
                         const float *wx, const float *wy, float *sum);

/** The periodic pressure grid_fft_scale and the transforms give: A p = b on
 * a doubly periodic box solved exactly by a plain discrete Fourier
 * transform in double precision, the mean of p 0. */
void vf_grid_ref_fft_pressure(const vf_grid_ref *r, const float *b, float *p);

/** RMS over the fluid cells of scale * field (grid_norm + grid_norm_final). */
double vf_grid_ref_rms(const vf_grid_ref *r, const float *field, const uint32_t *mask, float scale);

#endif
