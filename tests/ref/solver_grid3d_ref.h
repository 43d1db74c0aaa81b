/* solver_grid3d_ref: CPU reference of every 3D grid kernel (shaders/grid3d_*),
 * written independently of the shaders from the same formulas, for the
 * GPU-vs-CPU tests and the physics tests. Arrays use the layout of
 * shaders/shared_grid3d.h: velocity = u, v, w face arrays one after another,
 * scalars = density then temperature, cells (k ny + j) nx + i. */
#ifndef VF_SOLVER_GRID3D_REF_H
#define VF_SOLVER_GRID3D_REF_H

#include <stddef.h>
#include <stdint.h>

#include "shared_grid3d.h"

/** One level of the grid: size, cell size, step, side types and inflow
 * speeds, and the solid mask (nx ny nz values, borrowed). */
typedef struct vf_g3ref {
    int nx, ny, nz;
    float h, dt;
    uint32_t sides[6];  /* VF_G3_BC_* */
    float inflow[6];    /* inflow speed along the inward normal */
    const uint32_t *mask;
} vf_g3ref;

/** Cells of the level. */
size_t vf_g3ref_cells(const vf_g3ref *g);
/** Values in a velocity array (u, v and w faces). */
size_t vf_g3ref_faces(const vf_g3ref *g);
/** Index of face (c, i, j, k) in a velocity array. */
size_t vf_g3ref_fidx(const vf_g3ref *g, int c, int i, int j, int k);

/** grid3d_source: density/temperature += dt rates inside the sphere (cx, cy, cz, r),
 * uniformly or with the smooth weight (profile: VF_G3_SOURCE_*). */
void vf_g3ref_source(const vf_g3ref *g, float *scal, const float sphere[4], float rate_density, float rate_temp,
                     uint32_t profile);
/** grid3d_source's cooling: in every fluid cell, T = ambient + (T - ambient)
 * exp(-cooling dt) (a rate of 0 changes nothing). */
void vf_g3ref_cool(const vf_g3ref *g, float *scal, float cooling, float ambient);
/** grid3d_buoyancy: v += dt (alpha (T - amb) - beta rho) on open faces, plus a
 * Gaussian push acc[3] at centre[0..2] with radius centre[3] (0: none). */
void vf_g3ref_buoyancy(const vf_g3ref *g, float *vel, const float *scal, float alpha, float beta, float ambient,
                       const float centre[4], const float acc[3]);
/** grid3d_vorticity: omega (x, y, z, |omega|) per cell (4 nc floats). */
void vf_g3ref_vorticity(const vf_g3ref *g, const float *vel, float *omega);
/** grid3d_confine: vel += dt eps h (N x omega) on open faces. */
void vf_g3ref_confine(const vf_g3ref *g, float *vel, const float *omega, float eps);
/** grid3d_advect_vel: out = semi-Lagrangian (maccormack 0, src = vel) or the
 * MacCormack correction of src (maccormack 1, src = the semi-Lagrangian
 * result); trace step tdt. */
void vf_g3ref_advect_vel(const vf_g3ref *g, const float *vel, const float *src, float *out, float tdt, int maccormack);
/** grid3d_advect_scalar: both channels; hat = the semi-Lagrangian result (MacCormack only). */
void vf_g3ref_advect_scalar(const vf_g3ref *g, const float *vel, const float *src, const float *hat, float *out,
                            float tdt, int maccormack);
/** grid3d_diffuse: one red-black half-sweep (color 0/1) of (I - a L) x = rhs. */
void vf_g3ref_diffuse(const vf_g3ref *g, const float *rhs, float *x, float a, int color);
/** grid3d_boundary, in place. */
void vf_g3ref_boundary(const vf_g3ref *g, float *vel);
/** grid3d_divergence: out = scale div(vel) at fluid cells, 0 at solids. */
void vf_g3ref_divergence(const vf_g3ref *g, const float *vel, float *out, float scale);
/** grid3d_gradient: vel -= dt grad p (open faces, outflow sides). */
void vf_g3ref_gradient(const vf_g3ref *g, float *vel, const float *p, float dt);
/** grid3d_mg_smooth: one red-black SOR half-sweep of A x = b (omega 1:
 * Gauss-Seidel); grid3d_mg_coarse is `sweeps` pairs of these. */
void vf_g3ref_smooth(const vf_g3ref *g, float *x, const float *b, int color, float omega);
/** grid3d_mg_residual: r = b - A x. */
void vf_g3ref_residual(const vf_g3ref *g, const float *x, const float *b, float *r);
/** grid3d_jacobi: one weighted Jacobi iteration. */
void vf_g3ref_jacobi(const vf_g3ref *g, const float *x, const float *b, float *xo, float omega);
/** grid3d_mg_restrict: coarse (the level g) b = mean of 8 fine residuals, x = 0. */
void vf_g3ref_restrict(const vf_g3ref *coarse, const float *rf, float *bc, float *xc);
/** grid3d_mg_prolong: fine (the level g) x += trilinear coarse x on fluid cells. */
void vf_g3ref_prolong(const vf_g3ref *fine, const float *xc, float *xf);
/** Mask of the next coarser level: a coarse cell is solid when all 8 children are. */
void vf_g3ref_coarsen_mask(int nx, int ny, int nz, const uint32_t *fine, uint32_t *coarse);
/** RMS of A x - b over the fluid cells (double accumulation). */
double vf_g3ref_residual_rms(const vf_g3ref *g, const float *x, const float *b);
/** The eigenvalue of the pressure operator A (every face weight 1, all six
 * sides periodic) for the Fourier mode (kx, ky, kz), in double precision:
 * -(4 / h^2) (sin^2(pi kx / nx) + sin^2(pi ky / ny) + sin^2(pi kz / nz)). */
double vf_g3ref_fft_eigenvalue(const vf_g3ref *g, int kx, int ky, int kz);
/** grid3d_fft_scale between the transforms, the whole FFT solve: p = A^-1 b
 * in the triply periodic box, the mean of p 0, by a direct separable DFT in
 * double precision (b's mean is dropped). */
void vf_g3ref_fft_pressure(const vf_g3ref *g, const float *b, float *p);

/** Trilinear sample of an array of dims d (at offset off in buf) at grid
 * coordinates gc (array index units), clamped, or on a periodic axis of g
 * wrapped into [0, n) (n g's cell count; the upper neighbour n is index 0;
 * g NULL: clamped on every axis); *lo and *hi get the least and largest of
 * the 8 values. */
float vf_g3ref_trilinear(const vf_g3ref *g, const float *buf, size_t off, const int d[3], const float gc[3], float *lo,
                         float *hi);

#endif
