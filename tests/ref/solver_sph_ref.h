/* solver_sph_ref: the CPU reference of the SPH kernels (brute force, double
 * precision where it matters) that tests and the benchmark compare the GPU
 * passes against. Works on the same vf_sph_params block the shaders see. */
#ifndef VF_SOLVER_SPH_REF_H
#define VF_SOLVER_SPH_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "shared_sph.h"
#include "vf_error.h"

/** Kernels of Mueller et al. 2003 with support radius h (0 beyond h):
 * W_poly6(r), the spiky gradient at offset d (= x_i - x_j), the viscosity
 * kernel's Laplacian, and the poly6 gradient and Laplacian. */
double vf_sph_ref_poly6(double r, double h);
void vf_sph_ref_spiky_grad(const double d[3], double h, double out[3]);
double vf_sph_ref_visc_lap(double r, double h);
void vf_sph_ref_poly6_grad(const double d[3], double h, double out[3]);
double vf_sph_ref_poly6_lap(double r, double h);
/** The gradients the shaders take at offset d (0 beyond h and at d = 0):
 * dfsph's kernel (Wendland C2, dfsph_common.glsl), and the spiky one with
 * the lattice normalisation of prm->spiky (wcsph, pbf). */
void vf_sph_ref_dfsph_grad(const vf_sph_params *prm, const double d[3], double out[3]);
void vf_sph_ref_shader_spiky_grad(const vf_sph_params *prm, const double d[3], double out[3]);

/** Sums W(x_i - x_j) V and grad W(x_i - x_j) V (spiky) over a cubic lattice
 * of spacing s around a lattice point (V = s^3): the kernels' partition of
 * unity and zero-gradient checks. grad_sum gets three values (may be NULL). */
double vf_sph_ref_lattice_sum(double h, double s, double grad_sum[3]);

/** The mirror images the shaders use near walls: for a particle at x, the
 * images of a point p (p's reflections across every non-empty combination of
 * the tank walls within h of x, and across the tangent plane of the nearest
 * obstacle within h). Writes up to 8 image positions to img (and the images
 * of the vector v, reflected the same way without the offset, to vimg when
 * not NULL); returns the count. */
int vf_sph_ref_images(const vf_sph_params *prm, const double x[3], const double p[3], const double v[3], double img[8][3],
                      double vimg[8][3]);

/** Cell coordinates of a position exactly as the shaders compute them (fp32,
 * clamped, NaN to 0), and the cell index including the sink bin prm->cells. */
void vf_sph_ref_cell3(const vf_sph_params *prm, const float pos[3], int c[3]);
uint32_t vf_sph_ref_cell(const vf_sph_params *prm, const float pos[3]);

/** Counting sort of n particles into cells, ordered by id inside a cell:
 * start gets prm->cells + 1 exclusive cell starts (start[cells] = live
 * particles; sink particles dropped), order gets the input index of each
 * output slot (start[cells] entries). */
void vf_sph_ref_bin(const vf_sph_params *prm, uint32_t n, const float (*pos)[4], const uint32_t *id, uint32_t *start,
                    uint32_t *order);

/** Pressure from density by the equation of state of prm. */
double vf_sph_ref_pressure(const vf_sph_params *prm, double rho);

/** Brute-force O(N^2) density and pressure of every particle. */
void vf_sph_ref_density(const vf_sph_params *prm, uint32_t n, const float (*pos)[4], double *rho, double *press);

/** Brute-force O(N^2) accelerations (pressure, viscosity, surface tension,
 * gravity, damping and the interactive force of push; push may be NULL). */
void vf_sph_ref_forces(const vf_sph_params *prm, const vf_sph_forces_push *push, uint32_t n, const float (*pos)[4],
                       const float (*vel)[4], const double *rho, const double *press, double (*acc)[3]);

/** One integration pass (mode VF_SPH_INTEGRATE_*) in fp32, with the same
 * collisions as the shader; updates pos and vel in place. */
void vf_sph_ref_integrate(const vf_sph_params *prm, uint32_t mode, float dt, uint32_t n, float (*pos)[4], float (*vel)[4],
                          const float (*acc)[4]);

/** The prediction of a PBF substep (pbf_predict.comp) in fp32: external
 * forces (gravity, damping, the interactive force of push; push may be
 * NULL), x += dt v against the walls and obstacles, v the velocity of that
 * move. */
void vf_sph_ref_pbf_predict(const vf_sph_params *prm, const vf_pbf_push *push, float dt, uint32_t n, float (*pos)[4],
                            float (*vel)[4]);

/** One whole PBF substep of dt (shared_sph.h, VF_SPH_METHOD_PBF), brute
 * force in double precision: the prediction, iterations of the density
 * constraint over the pairs within h at the predicted positions that are
 * still within h, and their mirror images), the final velocity, XSPH and
 * the viscosity force (prm->viscosity, from the same velocities), the
 * vorticity and its confinement (the corrections over-relaxed by
 * prm->pbf_omega); pos and vel updated in place, rho_out and pressure_out
 * (may be NULL) get each particle's density at the last iteration and the
 * pressure of the substep's corrections (pbf_common.glsl's pbf_pressure:
 * rho0 omega V / (6 dt^2) times the sum over the iterations of sum_j
 * (lambda_i + lambda_j + s_corr) (x_i - x_j).grad W_ij). VF_ERR_NO_MEMORY
 * when it cannot allocate (n^2 bytes of pairs). */
vf_result vf_sph_ref_pbf_substep(const vf_sph_params *prm, const vf_pbf_push *push, uint32_t iterations, float dt,
                                 uint32_t n, float (*pos)[4], float (*vel)[4], double *rho_out, double *pressure_out);

/** One whole DFSPH substep of dt (shared_sph.h, VF_SPH_METHOD_DFSPH), brute
 * force in double precision as the GPU passes do it: density, alpha and the
 * divergence solve's warm start (half of warm[i][1]), the divergence solve
 * (at least one correction, at most prm->dfsph_max_iterations, ending at
 * prm->dfsph_eta_v), the external forces, XSPH, the viscosity force
 * (prm->viscosity) and the density solve's warm
 * start (half of warm[i][0]), the density solve (at least two corrections,
 * ending at prm->dfsph_eta), x += dt v against the walls. pos, vel and warm
 * (kappa, kappa_v summed over the step) updated in place; rho_out (may be
 * NULL) gets the densities; iterations the corrections of the two solves.
 * VF_ERR_NO_MEMORY when it cannot allocate. */
vf_result vf_sph_ref_dfsph_substep(const vf_sph_params *prm, const vf_dfsph_push *push, double dt, uint32_t n,
                                   float (*pos)[4], float (*vel)[4], float (*warm)[2], double *rho_out,
                                   uint32_t iterations[2]);

#endif
