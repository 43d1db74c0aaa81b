/* shared_grid.h: the grid solver's header shared by C and GLSL (includes shared.h).
 *
 * Staggered MAC grid of nx x ny cells of size h (see src/sim/grid/solver_grid.h for the
 * layout). Every grid kernel takes the same push-constant block vf_grid_push;
 * the meaning of the pass parameters a, b, c, d is listed per pass below. */
#ifndef VF_SHARED_GRID_H
#define VF_SHARED_GRID_H

#include "shared.h"

/* 2D kernels run VF_WG_2D_X x VF_WG_2D_Y tiles (shared.h). */
#define VF_GRID_WG_X VF_WG_2D_X
#define VF_GRID_WG_Y VF_WG_2D_Y
/* The norm reduction: each workgroup reduces a tile of
 * (VF_GRID_WG_X * VF_GRID_NORM_PER) x (VF_GRID_WG_Y * VF_GRID_NORM_PER) cells. */
#define VF_GRID_NORM_PER 4
#define VF_GRID_NORM_FINAL_WG 256
/* The coarsest multigrid level is solved by one workgroup in shared memory.
 * Levels halve while a side is above VF_GRID_COARSE_TARGET (and both sides
 * are even and >= 8): one SOR dispatch is cheaper than several tiny levels. */
#define VF_GRID_COARSE_WG 256
#define VF_GRID_COARSE_MAX 64 /* cells per side of the coarsest level, at most */
#define VF_GRID_COARSE_TARGET 16

/* Specialization constant of the pressure-operator kernels (smooth,
 * residual, coarse, Jacobi): 1 when the domain has no solid cell, so every
 * interior face weighs 1 and a side face what its side's type gives; the
 * face-weight arrays are then not read. */
#define VF_GRID_SPEC_OPEN 0

/* Specialization constant of the advection kernels: 1 when they read the
 * fields they sample (u, v and the scalars) and the mask through uniform
 * texel buffers, R32_SFLOAT (R32_UINT) views of the same buffers bound as the
 * *_T slots: on CPU
 * devices a texel fetch is one gather per value, where a storage-buffer
 * element is loaded one invocation at a time. The host sets 0 where the
 * device cannot address a field as texels (maxTexelBufferElements); the
 * storage buffers are then read, and the views are still bound. */
#define VF_GRID_SPEC_TEXEL 1
/* Specialization constant of the advection kernels: the side types packed as
 * in vf_grid_push.sides (which they do not read), so that the code of the
 * side types the domain does not have is compiled out: on CPU devices both
 * sides of a branch run, and the periodic wrap divides one lane at a time. */
#define VF_GRID_SPEC_SIDES 2

/* The multigrid tail (grid_mg_tail.comp): the levels from the tail level down
 * to the coarsest, V-cycled by ONE workgroup in shared memory (restriction,
 * smoothing, the coarse SOR solve and the prolongation separated by
 * workgroup barriers), so those levels cost one dispatch per V-cycle. The
 * host picks the tail level from the device's maxComputeSharedMemorySize and
 * sets these specialization constants:
 *   VF_GRID_SPEC_TAIL_FLOATS  floats of the shared array (the tail level's x,
 *                             and x and b of every coarser level); the
 *                             default is the Vulkan minimum, 16 KiB
 *   VF_GRID_SPEC_TAIL_WG      invocations of the workgroup (<= the device's
 *                             maxComputeWorkGroupInvocations and size[0])
 * At most VF_GRID_TAIL_MAX_LEVELS levels (one face-weight binding pair each). */
#define VF_GRID_SPEC_TAIL_FLOATS 1
#define VF_GRID_SPEC_TAIL_WG 2
#define VF_GRID_TAIL_DEFAULT_FLOATS 4096
#define VF_GRID_TAIL_DEFAULT_WG 128
#define VF_GRID_TAIL_MAX_WG 256
#define VF_GRID_TAIL_MAX_LEVELS 4

/* grid_jacobi.comp and grid_mg_smooth_tile.comp: several Jacobi iterations
 * or red-black half-sweeps per dispatch (grid_sweep_tile.glsl). Each invocation
 * keeps VF_GRID_JT_CELLS x VF_GRID_JT_CELLS cells in registers; the
 * workgroup is square, its side the specialization constants
 * VF_GRID_SPEC_JT_WX / _WY (the host picks the largest side up to
 * VF_GRID_JT_MAX_WG that the device's invocation, workgroup-size and shared
 * memory limits allow; shared memory: 2 (side x VF_GRID_JT_CELLS)^2 floats).
 * The default fits the Vulkan minimum limits. */
#define VF_GRID_JT_CELLS 4
#define VF_GRID_JT_DEFAULT_WG 8
#define VF_GRID_JT_MAX_WG 16
#define VF_GRID_SPEC_JT_WX 1
#define VF_GRID_SPEC_JT_WY 2

/* grid_ssor.comp (Klein et al. 2003's pressure solve: a fixed number of
 * symmetric SOR iterations in lexicographic order, run by ONE workgroup
 * along the anti-diagonals): its workgroup size, a specialization constant
 * the host sets from the device's limits (at most VF_GRID_SSOR_MAX_WG). */
#define VF_GRID_SPEC_SSOR_WG 1
#define VF_GRID_SSOR_DEFAULT_WG 64
#define VF_GRID_SSOR_MAX_WG 256

/* grid_penalty.comp (Chen & Lobo's penalty pressure, sub-stepped): a
 * workgroup of VF_GRID_SPEC_PEN_WG^2 invocations owns a region of R x R
 * cells, R = VF_GRID_SPEC_PEN_WG x VF_GRID_SPEC_PEN_CELLS, kept in shared
 * memory (2 R^2 floats); each invocation VF_GRID_SPEC_PEN_CELLS^2 of them.
 * The defaults fit the Vulkan minimum limits. */
#define VF_GRID_SPEC_PEN_WG 1
#define VF_GRID_SPEC_PEN_CELLS 2
#define VF_GRID_PEN_DEFAULT_WG 8
#define VF_GRID_PEN_DEFAULT_CELLS 2
#define VF_GRID_PEN_MAX_CELLS 4
#define VF_GRID_PENALTY_FIRST 1u /* mode bit: this dispatch starts the sub-steps (the sum S starts at 0) */
#define VF_GRID_PENALTY_FULL_X 2u /* mode bit: the region is the whole domain along x (no halo) */
#define VF_GRID_PENALTY_FULL_Y 4u /* mode bit: the region is the whole domain along y */

/* Sides of the box (index into side_u / side_v, 4 bits each in `sides`). */
#define VF_GRID_SIDE_LEFT 0
#define VF_GRID_SIDE_RIGHT 1
#define VF_GRID_SIDE_BOTTOM 2
#define VF_GRID_SIDE_TOP 3
/* Boundary condition of a side. */
#define VF_GRID_BC_NOSLIP 0   /* wall; tangential velocity = the side's velocity (a moving lid) */
#define VF_GRID_BC_FREESLIP 1 /* wall; tangential velocity free (zero gradient) */
#define VF_GRID_BC_INFLOW 2   /* velocity set to the side's velocity (normal and tangential) */
#define VF_GRID_BC_OUTFLOW 3  /* pressure 0 at the side, velocity zero-gradient */
#define VF_GRID_BC_PERIODIC 4 /* wraps to the opposite side (both sides periodic) */

/* Cell types in the mask. */
#define VF_GRID_CELL_FLUID 0u
#define VF_GRID_CELL_SOLID 1u

/* Slots (vec4 each: mean, rms, count, max|x|) of the stats buffer. */
#define VF_GRID_STAT_RHS 0          /* divergence before the pressure solve (1/s) */
#define VF_GRID_STAT_RES_BEFORE 1   /* pressure residual before the solve, x dt (1/s) */
#define VF_GRID_STAT_RES_AFTER 2    /* pressure residual after the solve, x dt (1/s) */
#define VF_GRID_STAT_DIV_AFTER 3    /* divergence after the projection (1/s) */
#define VF_GRID_STAT_SPARE 4        /* unused */
#define VF_GRID_STAT_CYCLE0 8       /* residual after each V-cycle / Jacobi block (trace mode) */
#define VF_GRID_STAT_MAX_TRACE 56
#define VF_GRID_STAT_COUNT (VF_GRID_STAT_CYCLE0 + VF_GRID_STAT_MAX_TRACE)

/* Splat mode bits. */
#define VF_GRID_SPLAT_VELOCITY 1u
#define VF_GRID_SPLAT_DYE 2u
#define VF_GRID_SPLAT_BUOYANCY 4u
#define VF_GRID_SPLAT_STRIPES 8u /* dye stripes set in the first column (channel inflow) */

/* One push-constant block for every grid kernel (128 bytes).
 *   nx, ny, h      the level's cells and cell size; dt the substep
 *   sides          side types, 4 bits per side (VF_GRID_SIDE_*)
 *   side_u/side_v  the velocity of each side (lid, inflow)
 * Pass parameters:
 *   grid_obstacles  a = (cx, cy, radius, shape 0 none 1 disc 2 box), b = (vx, vy, -, -)
 *   grid_paint      a = (cx, cy, radius, solid 1 / fluid 0), b = (vx, vy, -, -)
 *   grid_splat      mode = VF_GRID_SPLAT_* bits; a = (cx, cy, radius, -), b = (fx, fy, buoyancy, -)
 *                   (fx, fy in m/s^2 at the centre), c = (r, g, b, -) dye per second at the
 *                   centre, count = number of stripes
 *   grid_confine    a.x = epsilon
 *   grid_advect_*   a.x = time step of the trace (negative: forward trace); count = channels
 *   grid_diffuse    color = red/black, count = 0: copy rhs to x, a.x = nu dt / h^2, a.y = SOR omega
 *   grid_divergence a.x = scale of the output (1/dt: rhs of the pressure solve)
 *   grid_mg_*       color = red/black, count = coarse iterations, a.x = SOR omega
 *   grid_norm       a.x = scale; grid_norm_final: count = partials, color = stat slot
 *   grid_mg_mean    color = stat slot whose .x is the mean x a.x (a.x = 1 / the norm's scale)
 *   grid_dye_mix    a.x = mixing fraction per step
 *   grid_warp       a.x = checker squares per side */
VF_STRUCT_BEGIN(vf_grid_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT h;
    VF_FLOAT dt;
    VF_UINT sides;
    VF_UINT mode;
    VF_UINT color;
    VF_UINT count;
    VF_VEC4(side_u);
    VF_VEC4(side_v);
    VF_VEC4(a);
    VF_VEC4(b);
    VF_VEC4(c);
    VF_VEC4(d);
VF_STRUCT_END(vf_grid_push)
VF_STATIC_ASSERT(sizeof(vf_grid_push) == 128, "vf_grid_push must match std430 and fit 128 bytes")

/* Binding numbers, per kernel (the host passes vf_binding arrays in this order). */
/* grid_obstacles.comp */
#define VF_GRID_OBS_MASK_STATIC 0
#define VF_GRID_OBS_SU_STATIC 1
#define VF_GRID_OBS_SV_STATIC 2
#define VF_GRID_OBS_MASK 3
#define VF_GRID_OBS_SU 4
#define VF_GRID_OBS_SV 5
#define VF_GRID_OBS_BINDINGS 6
/* grid_paint.comp */
#define VF_GRID_PAINT_MASK_STATIC 0
#define VF_GRID_PAINT_SU_STATIC 1
#define VF_GRID_PAINT_SV_STATIC 2
#define VF_GRID_PAINT_BINDINGS 3
/* grid_mg_weights.comp: level-0 face weights from the mask */
#define VF_GRID_W_MASK 0
#define VF_GRID_W_WX 1
#define VF_GRID_W_WY 2
#define VF_GRID_W_BINDINGS 3
/* grid_mg_coarsen.comp */
#define VF_GRID_CW_WX_F 0
#define VF_GRID_CW_WY_F 1
#define VF_GRID_CW_WX_C 2
#define VF_GRID_CW_WY_C 3
#define VF_GRID_CW_BINDINGS 4
/* grid_splat.comp */
#define VF_GRID_SPLAT_U_IN 0
#define VF_GRID_SPLAT_V_IN 1
#define VF_GRID_SPLAT_U_OUT 2
#define VF_GRID_SPLAT_V_OUT 3
#define VF_GRID_SPLAT_R_IN 4
#define VF_GRID_SPLAT_G_IN 5
#define VF_GRID_SPLAT_B_IN 6
#define VF_GRID_SPLAT_R_OUT 7
#define VF_GRID_SPLAT_G_OUT 8
#define VF_GRID_SPLAT_B_OUT 9
#define VF_GRID_SPLAT_WX 10
#define VF_GRID_SPLAT_WY 11
#define VF_GRID_SPLAT_MASK 12
#define VF_GRID_SPLAT_BINDINGS 13
/* grid_vorticity.comp */
#define VF_GRID_VORT_U 0
#define VF_GRID_VORT_V 1
#define VF_GRID_VORT_OMEGA 2
#define VF_GRID_VORT_BINDINGS 3
/* grid_confine.comp */
#define VF_GRID_CONF_U_IN 0
#define VF_GRID_CONF_V_IN 1
#define VF_GRID_CONF_OMEGA 2
#define VF_GRID_CONF_U_OUT 3
#define VF_GRID_CONF_V_OUT 4
#define VF_GRID_CONF_WX 5
#define VF_GRID_CONF_WY 6
#define VF_GRID_CONF_BINDINGS 7
/* grid_advect_vel.comp (semi-Lagrangian) and grid_maccormack_vel.comp:
 * U/V = the advecting velocity (= the field at time n), SRC = the field to
 * sample (the advect pass: = U/V; the MacCormack pass: the forward result). */
#define VF_GRID_AV_U 0
#define VF_GRID_AV_V 1
#define VF_GRID_AV_U_SRC 2
#define VF_GRID_AV_V_SRC 3
#define VF_GRID_AV_U_OUT 4
#define VF_GRID_AV_V_OUT 5
#define VF_GRID_AV_WX 6
#define VF_GRID_AV_WY 7
#define VF_GRID_AV_MASK 8
#define VF_GRID_AV_SU 9
#define VF_GRID_AV_SV 10
#define VF_GRID_AV_U_T 11     /* texel views (VF_GRID_SPEC_TEXEL) of U, V, U_SRC, V_SRC */
#define VF_GRID_AV_V_T 12
#define VF_GRID_AV_U_SRC_T 13
#define VF_GRID_AV_V_SRC_T 14
#define VF_GRID_AV_MASK_T 15  /* and of MASK (R32_UINT) */
#define VF_GRID_AV_BINDINGS 16
/* grid_advect_scalar.comp / grid_maccormack_scalar.comp: up to 3 channels.
 * SRC = the fields at time n; HAT = the forward result (MacCormack only). */
#define VF_GRID_AS_U 0
#define VF_GRID_AS_V 1
#define VF_GRID_AS_MASK 2
#define VF_GRID_AS_SRC0 3
#define VF_GRID_AS_SRC1 4
#define VF_GRID_AS_SRC2 5
#define VF_GRID_AS_HAT0 6
#define VF_GRID_AS_HAT1 7
#define VF_GRID_AS_HAT2 8
#define VF_GRID_AS_OUT0 9
#define VF_GRID_AS_OUT1 10
#define VF_GRID_AS_OUT2 11
#define VF_GRID_AS_U_T 12     /* texel views (VF_GRID_SPEC_TEXEL) of U, V, SRC0..2, HAT0..2 */
#define VF_GRID_AS_V_T 13
#define VF_GRID_AS_SRC0_T 14
#define VF_GRID_AS_SRC1_T 15
#define VF_GRID_AS_SRC2_T 16
#define VF_GRID_AS_HAT0_T 17
#define VF_GRID_AS_HAT1_T 18
#define VF_GRID_AS_HAT2_T 19
#define VF_GRID_AS_MASK_T 20  /* and of MASK (R32_UINT) */
#define VF_GRID_AS_BINDINGS 21
/* grid_diffuse.comp: both components per dispatch */
#define VF_GRID_DIF_RHS_U 0
#define VF_GRID_DIF_X_U 1
#define VF_GRID_DIF_W_U 2
#define VF_GRID_DIF_RHS_V 3
#define VF_GRID_DIF_X_V 4
#define VF_GRID_DIF_W_V 5
#define VF_GRID_DIF_BINDINGS 6
/* grid_boundary.comp */
#define VF_GRID_BND_U_IN 0
#define VF_GRID_BND_V_IN 1
#define VF_GRID_BND_U_OUT 2
#define VF_GRID_BND_V_OUT 3
#define VF_GRID_BND_WX 4
#define VF_GRID_BND_WY 5
#define VF_GRID_BND_MASK 6
#define VF_GRID_BND_SU 7
#define VF_GRID_BND_SV 8
#define VF_GRID_BND_BINDINGS 9
/* grid_divergence.comp */
#define VF_GRID_DIV_U 0
#define VF_GRID_DIV_V 1
#define VF_GRID_DIV_MASK 2
#define VF_GRID_DIV_OUT 3
#define VF_GRID_DIV_BINDINGS 4
/* grid_gradient.comp */
#define VF_GRID_GRAD_U_IN 0
#define VF_GRID_GRAD_V_IN 1
#define VF_GRID_GRAD_P 2
#define VF_GRID_GRAD_WX 3
#define VF_GRID_GRAD_WY 4
#define VF_GRID_GRAD_U_OUT 5
#define VF_GRID_GRAD_V_OUT 6
#define VF_GRID_GRAD_BINDINGS 7
/* grid_mg_smooth.comp, grid_mg_residual.comp, grid_mg_coarse.comp */
#define VF_GRID_MG_X 0
#define VF_GRID_MG_B 1
#define VF_GRID_MG_WX 2
#define VF_GRID_MG_WY 3
#define VF_GRID_MG_R 4 /* residual only */
#define VF_GRID_MG_BINDINGS 4
#define VF_GRID_MG_RES_BINDINGS 5
/* grid_jacobi.comp: count = iterations k in this dispatch; each workgroup
 * writes a tile of (R - 2k)^2 cells, R = VF_GRID_JT_CELLS x its side */
#define VF_GRID_JAC_X_IN 0
#define VF_GRID_JAC_B 1
#define VF_GRID_JAC_WX 2
#define VF_GRID_JAC_WY 3
#define VF_GRID_JAC_X_OUT 4
#define VF_GRID_JAC_BINDINGS 5
/* grid_mg_smooth_tile.comp: the slots above (count = red-black half-sweeps,
 * color = the first one's colour) and the coarse level's x and face weights,
 * read when mode has VF_GRID_TILE_PROLONG */
#define VF_GRID_JAC_X_C 5
#define VF_GRID_JAC_WX_C 6
#define VF_GRID_JAC_WY_C 7
#define VF_GRID_JAC_TILE_BINDINGS 8
#define VF_GRID_TILE_PROLONG 1u
/* grid_mg_restrict_res.comp: the fine residual computed in place and
 * restricted (residual + restriction in one pass); push = the fine level's */
#define VF_GRID_RR_X_F 0
#define VF_GRID_RR_B_F 1
#define VF_GRID_RR_WX_F 2
#define VF_GRID_RR_WY_F 3
#define VF_GRID_RR_B_C 4
#define VF_GRID_RR_X_C 5
#define VF_GRID_RR_BINDINGS 6
/* grid_mg_tail.comp (push constants: the tail level's nx, ny, h and sides;
 * color = levels in the tail, mode = pre sweeps | post sweeps << 16,
 * count = coarse SOR sweeps, a.x = SOR omega). WX0 + q / WY0 + q are the
 * face weights of the tail's level q (bound by their first element when the
 * open variant runs, or when q is past the tail's levels). */
#define VF_GRID_TAIL_X 0
#define VF_GRID_TAIL_B 1
#define VF_GRID_TAIL_WX0 2
#define VF_GRID_TAIL_WY0 (VF_GRID_TAIL_WX0 + VF_GRID_TAIL_MAX_LEVELS)
#define VF_GRID_TAIL_BINDINGS (VF_GRID_TAIL_WY0 + VF_GRID_TAIL_MAX_LEVELS)
/* grid_mg_mean.comp: b -= mean (closed boxes: makes the Neumann problem solvable) */
#define VF_GRID_MEAN_B 0
#define VF_GRID_MEAN_MASK 1
#define VF_GRID_MEAN_STATS 2
#define VF_GRID_MEAN_BINDINGS 3
/* grid_norm.comp / grid_norm_final.comp */
#define VF_GRID_NORM_FIELD 0
#define VF_GRID_NORM_MASK 1
#define VF_GRID_NORM_PARTIALS 2
#define VF_GRID_NORM_BINDINGS 3
#define VF_GRID_NORMF_PARTIALS 0
#define VF_GRID_NORMF_STATS 1
#define VF_GRID_NORMF_BINDINGS 2
/* grid_dye_mix.comp */
#define VF_GRID_MIX_MASK 0
#define VF_GRID_MIX_IN0 1
#define VF_GRID_MIX_IN1 2
#define VF_GRID_MIX_IN2 3
#define VF_GRID_MIX_OUT0 4
#define VF_GRID_MIX_OUT1 5
#define VF_GRID_MIX_OUT2 6
#define VF_GRID_MIX_BINDINGS 7
/* grid_donor_cell.comp: Klein et al.'s explicit convection, donor-cell
 * (upwind) blended with central differences by gamma = a.x (1: pure donor
 * cell); u_out = u_in - dt (u.grad) u on the open faces inside the box */
#define VF_GRID_DC_U_IN 0
#define VF_GRID_DC_V_IN 1
#define VF_GRID_DC_U_OUT 2
#define VF_GRID_DC_V_OUT 3
#define VF_GRID_DC_WX 4
#define VF_GRID_DC_WY 5
#define VF_GRID_DC_BINDINGS 6
/* grid_ssor.comp: count = iterations, a.x = omega; x in place */
#define VF_GRID_SSOR_X 0
#define VF_GRID_SSOR_B 1
#define VF_GRID_SSOR_WX 2
#define VF_GRID_SSOR_WY 3
#define VF_GRID_SSOR_BINDINGS 4
/* grid_penalty.comp: count = sub-steps k in this dispatch, mode =
 * VF_GRID_PENALTY_* bits, a.x = dtau / (eps h^2), a.y = dtau / eps, a.z =
 * 1 / K (K the substep's sub-steps). Per sub-step S <- S + p, then
 * p <- p + a.x h^2 A p - (a.y b + a.z p0) (p0 the substep's first
 * pressure); the workgroup writes its tile of p_out and s_out */
#define VF_GRID_PEN_P_IN 0
#define VF_GRID_PEN_S_IN 1
#define VF_GRID_PEN_B 2
#define VF_GRID_PEN_WX 3
#define VF_GRID_PEN_WY 4
#define VF_GRID_PEN_P_OUT 5
#define VF_GRID_PEN_S_OUT 6
#define VF_GRID_PEN_P0 7
#define VF_GRID_PEN_BINDINGS 8
/* grid_fft_scale.comp: the periodic pressure in Fourier space, mode by mode
 * p^ = b^ / (-(ex[kx] + ey[ky]) N), 0 for the mean (kx = ky = 0); EIG holds
 * ex (nx / 2 + 1 floats: 4 sin^2(pi kx / nx) / h^2) then ey (ny floats),
 * a.x = 1 / N (the inverse transform is unnormalised) */
#define VF_GRID_FFT_SPECTRUM 0
#define VF_GRID_FFT_EIG 1
#define VF_GRID_FFT_BINDINGS 2

/* grid_warp.comp: an RGBA8 image of a checkerboard seen through the advected (s, t) */
#define VF_GRID_WARP_S 0
#define VF_GRID_WARP_T 1
#define VF_GRID_WARP_MASK 2
#define VF_GRID_WARP_OUT 3
#define VF_GRID_WARP_BINDINGS 4

#endif
