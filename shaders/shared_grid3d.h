/* shared_grid3d.h: bindings, workgroup sizes and the push-constant block of
 * the 3D grid solver (src/sim/grid3d/solver_grid3d.h), shared by C and GLSL.
 *
 * Staggered (MAC) grid of nx x ny x nz cubic cells of size h, fp32:
 *   cell (i, j, k) at ((i+1/2) h, (j+1/2) h, (k+1/2) h), index (k ny + j) nx + i
 *   velocity: one buffer holding the three face components one after another,
 *   component c (0 u, 1 v, 2 w) on faces normal to axis c, dims
 *   (nx + [c==0]) x (ny + [c==1]) x (nz + [c==2]), starting at offset off(c)
 *   (off(0) = 0, off(1) = (nx+1) ny nz, off(2) = off(1) + nx (ny+1) nz).
 *   scalars: one buffer, density at [0, nc), temperature at [nc, 2 nc).
 * y is up (buoyancy acts along +y). */
#ifndef VF_SHARED_GRID3D_H
#define VF_SHARED_GRID3D_H

#include "shared.h"

/* 3D kernels run 8 x 4 x 4 tiles. */
#define VF_G3_WG_X 8
#define VF_G3_WG_Y 4
#define VF_G3_WG_Z 4

/* The coarsest multigrid level (at most VF_G3_COARSE_MAX cells per axis) is
 * solved by one workgroup of VF_G3_COARSE_WG threads in shared memory. */
#define VF_G3_COARSE_WG 64
#define VF_G3_COARSE_MAX 8
#define VF_G3_COARSE_CELLS (VF_G3_COARSE_MAX * VF_G3_COARSE_MAX * VF_G3_COARSE_MAX)

/* grid3d_mg_tail.comp: the levels from the tail level down V-cycled by one
 * workgroup in shared memory. Specialization constants:
 *   VF_G3_SPEC_TAIL_FLOATS  floats of the shared array (the tail level's x,
 *                           x and b of every coarser level; the host sizes it
 *                           to the device's maxComputeSharedMemorySize)
 *   VF_G3_SPEC_TAIL_WG      invocations of the workgroup (<= the device's
 *                           maxComputeWorkGroupInvocations and Size[0])
 * At most VF_G3_TAIL_MAX_LEVELS levels (one mask binding each). */
#define VF_G3_SPEC_TAIL_FLOATS 1
#define VF_G3_SPEC_TAIL_WG 2
#define VF_G3_TAIL_DEFAULT_FLOATS 4096
#define VF_G3_TAIL_DEFAULT_WG 128
#define VF_G3_TAIL_MAX_WG 256
#define VF_G3_TAIL_MAX_LEVELS 4

/* Sides of the box, 4 bits each in `sides`. */
#define VF_G3_SIDE_XMIN 0
#define VF_G3_SIDE_XMAX 1
#define VF_G3_SIDE_YMIN 2
#define VF_G3_SIDE_YMAX 3
#define VF_G3_SIDE_ZMIN 4
#define VF_G3_SIDE_ZMAX 5
/* Boundary condition of a side. */
#define VF_G3_BC_NOSLIP 0   /* wall: normal velocity 0, tangential velocity 0 */
#define VF_G3_BC_FREESLIP 1 /* wall: normal velocity 0, tangential velocity free (mirror) */
#define VF_G3_BC_INFLOW 2   /* normal velocity = the side's inflow speed, tangential 0 */
#define VF_G3_BC_OUTFLOW 3  /* pressure 0 on the side, normal velocity zero-gradient */
#define VF_G3_BC_PERIODIC 4 /* wraps to the opposite side (both sides of the axis): the faces on the
                             * two sides are one face, kept equal; cell -1 is cell n - 1 */
/* Specialization constant of every 3D grid kernel: 1 when some side is
 * periodic (the kernels of a box without periodic sides compile without the
 * wrapping) */
#define VF_G3_SPEC_PERIODIC 3

/* Cell types in the mask. */
/* Source profiles (grid3d_source, mode): UNIFORM adds the rates in every
 * cell whose centre lies inside the sphere; SMOOTH adds them weighted by
 * VF_G3_SMOOTH_PEAK (1 - d^2/r^2)^2, which injects the same amount per second
 * as the uniform sphere of radius r in the continuum (the integral of the
 * weight over the ball is its volume) with no jump at the edge. */
#define VF_G3_SOURCE_UNIFORM 0u
#define VF_G3_SOURCE_SMOOTH 1u
#define VF_G3_SMOOTH_PEAK 4.375 /* 35/8 = (4/3) / (4 * 8/105) */

#define VF_G3_CELL_FLUID 0u
#define VF_G3_CELL_SOLID 1u

/* One push-constant block for every 3D grid kernel (128 bytes).
 *   nx, ny, nz, h   the level's cells and cell size; dt the substep
 *   sides           side types, 4 bits per side (VF_G3_SIDE_*)
 *   inflow0/1       inflow speed along the inward normal of each side
 *                   (xmin, xmax, ymin, ymax | zmin, zmax, -, -)
 * Pass parameters:
 *   grid3d_source    a = (cx, cy, cz, radius), b = (density rate, temperature rate,
 *                    cooling factor exp(-cooling dt), ambient temperature),
 *                    mode = VF_G3_SOURCE_UNIFORM or VF_G3_SOURCE_SMOOTH; a factor below 1
 *                    first cools every fluid cell: T = amb + (T - amb) factor
 *   grid3d_buoyancy  a = (alpha, beta, ambient temperature, -): v += dt (alpha (T - amb) - beta rho);
 *                    b = (cx, cy, cz, radius), c = (fx, fy, fz, -): a Gaussian push (acceleration)
 *   grid3d_confine   a.x = epsilon
 *   grid3d_advect_*  a.x = time step of the trace
 *   grid3d_diffuse   color = red (0) / black (1), a.x = nu dt / h^2
 *   grid3d_divergence a.x = scale (1/dt)
 *   grid3d_mg_smooth color = red / black, a.x = SOR omega (1: Gauss-Seidel)
 *   grid3d_mg_coarse mode = red-black sweeps, a.x = SOR omega
 *   grid3d_jacobi    a.x = weight omega
 *   grid3d_gradient  a.x = dt
 *   grid3d_fft_scale a.x = 1 / (nx ny nz) (the inverse transform's normalisation) */
VF_STRUCT_BEGIN(vf_grid3d_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_UINT nz;
    VF_UINT sides;
    VF_FLOAT h;
    VF_FLOAT dt;
    VF_UINT color;
    VF_UINT mode;
    VF_VEC4(inflow0);
    VF_VEC4(inflow1);
    VF_VEC4(a);
    VF_VEC4(b);
    VF_VEC4(c);
    VF_VEC4(d);
VF_STRUCT_END(vf_grid3d_push)
VF_STATIC_ASSERT(sizeof(vf_grid3d_push) == 128, "vf_grid3d_push must match std430 and fit 128 bytes")

/* Binding slots, per kernel (the shader and the host's pass table,
 * src/sim/grid3d/grid3d_passes.def, name the same constant). */
/* grid3d_source.comp */
#define VF_G3_SRC_SCAL 0
#define VF_G3_SRC_MASK 1
/* grid3d_buoyancy.comp */
#define VF_G3_BUOY_VEL 0
#define VF_G3_BUOY_SCAL 1
#define VF_G3_BUOY_MASK 2
/* grid3d_vorticity.comp: omega (x, y, z, |omega|) per cell */
#define VF_G3_VORT_VEL 0
#define VF_G3_VORT_OMEGA 1
/* grid3d_confine.comp */
#define VF_G3_CONF_VEL 0
#define VF_G3_CONF_OMEGA 1
#define VF_G3_CONF_MASK 2
/* grid3d_advect_vel.comp (mode 0 semi-Lagrangian, mode 1 MacCormack): VEL = the advecting
 * velocity (time n), SRC = the field sampled (advect: = VEL; MacCormack: the
 * semi-Lagrangian result). */
#define VF_G3_AV_VEL 0
#define VF_G3_AV_SRC 1
#define VF_G3_AV_OUT 2
#define VF_G3_AV_MASK 3
/* grid3d_advect_scalar.comp (mode 0 semi-Lagrangian, mode 1 MacCormack; both channels) */
#define VF_G3_AS_VEL 0
#define VF_G3_AS_SRC 1
#define VF_G3_AS_HAT 2
#define VF_G3_AS_OUT 3
#define VF_G3_AS_MASK 4
/* grid3d_diffuse.comp: red-black Gauss-Seidel on (I - a L) x = rhs */
#define VF_G3_DIF_RHS 0
#define VF_G3_DIF_X 1
#define VF_G3_DIF_MASK 2
/* grid3d_boundary.comp */
#define VF_G3_BND_VEL 0
#define VF_G3_BND_MASK 1
/* grid3d_divergence.comp */
#define VF_G3_DIV_VEL 0
#define VF_G3_DIV_MASK 1
#define VF_G3_DIV_OUT 2
/* grid3d_gradient.comp */
#define VF_G3_GRAD_VEL 0
#define VF_G3_GRAD_P 1
#define VF_G3_GRAD_MASK 2
/* grid3d_mg_smooth.comp, grid3d_mg_coarse.comp, grid3d_mg_residual.comp */
#define VF_G3_MG_X 0
#define VF_G3_MG_B 1
#define VF_G3_MG_MASK 2
#define VF_G3_MG_R 3 /* residual only */
/* grid3d_mg_tail.comp (push constants: the tail level's nx, ny, nz, h and
 * sides; color = levels in the tail, mode = pre sweeps | post sweeps << 8 |
 * coarse SOR sweeps << 16, a.x = SOR omega). MASK0 + q is the mask of the
 * tail's level q (the tail level's own when q is past the tail's levels). */
#define VF_G3_TAIL_X 0
#define VF_G3_TAIL_B 1
#define VF_G3_TAIL_MASK0 2
#define VF_G3_TAIL_BINDINGS (VF_G3_TAIL_MASK0 + VF_G3_TAIL_MAX_LEVELS)
/* grid3d_jacobi.comp */
#define VF_G3_JAC_X_IN 0
#define VF_G3_JAC_B 1
#define VF_G3_JAC_MASK 2
#define VF_G3_JAC_X_OUT 3
/* grid3d_mg_restrict.comp: fine residual -> coarse rhs (mean of the 8
 * children), coarse x = 0; push carries the coarse level */
#define VF_G3_RST_R_F 0
#define VF_G3_RST_B_C 1
#define VF_G3_RST_X_C 2
/* grid3d_mg_prolong.comp: fine x += trilinear coarse x (fluid cells); push
 * carries the fine level */
#define VF_G3_PRO_X_C 0
#define VF_G3_PRO_MASK_F 1
#define VF_G3_PRO_X_F 2
/* grid3d_fft_scale.comp: the half spectrum of the right-hand side
 * ((nx / 2 + 1) x ny x nz complex values, x fastest) divided in place by the
 * pressure operator's eigenvalues; EIG holds 4 sin^2(pi k / n) / h^2 per
 * axis: nx / 2 + 1 values for x, then ny, then nz */
#define VF_G3_FFT_SPECTRUM 0
#define VF_G3_FFT_EIG 1

#endif
