/* shared_sph.h: the SPH header shared by C and GLSL (binding numbers, workgroup
 * sizes, the parameter block, the GPU state block and push constants of the
 * shaders/sph/ passes). Includes the common shared.h. */
#ifndef VF_SHARED_SPH_H
#define VF_SHARED_SPH_H

#include "shared.h"

/* Workgroup size of every per-particle SPH pass (and of the cell clear). */
#define VF_SPH_WG 128
/* Cells of the neighbour grid per smoothing length h along each axis: the
 * density, force and emitter loops visit the cells within VF_SPH_CELL_DIV of
 * a particle's cell. With 2 (cells of h/2) a particle scans (5 h/2)^3 =
 * 15.6 h^3 of candidates instead of (3 h)^3 = 27 h^3, the same neighbours. */
#define VF_SPH_CELL_DIV 2

#define VF_SPH_MAX_SPHERES 4 /* static sphere obstacles */
#define VF_SPH_MAX_BOXES 4   /* static box obstacles */
#define VF_SPH_EMIT_MAX 4096 /* nozzle points per emitted layer */
#define VF_SPH_EMIT_LAYERS_MAX 16 /* nozzle layers one emit pass appends at most (a longer backlog is dropped) */
#define VF_SPH_EMIT_LAYERS_STATE 0xffffffffu /* vf_sph_emit_push.layers: take vf_sph_state.emit_layers (dfsph) */

/* Unused particle slots hold this position (all components), far outside any
 * camera's range, so a renderer may draw count_max particles. */
#define VF_SPH_HIDDEN 1.0e9
#define VF_SPH_HIDDEN_BITS 0x4E6E6B28u /* floatBitsToUint(1.0e9) */

/* Equation of state. */
#define VF_SPH_EOS_TAIT 0   /* p = B((rho/rho0)^7 - 1), B = rho0 c^2 / 7 */
#define VF_SPH_EOS_LINEAR 1 /* p = k (rho - rho0) */

/* sph_integrate.comp modes. */
#define VF_SPH_INTEGRATE_EULER 0 /* symplectic Euler: v += a dt, x += v dt */
#define VF_SPH_INTEGRATE_DRIFT 1 /* leapfrog, start of a step: v += a dt/2, x += v dt */
#define VF_SPH_INTEGRATE_KICK 2  /* leapfrog, end of a step: v += a dt/2 */

/* sph_args.comp modes. */
#define VF_SPH_ARGS_INIT 0    /* recompute the dispatch size from count */
#define VF_SPH_ARGS_EMIT 1    /* commit the particles the emit pass appended */
#define VF_SPH_ARGS_COMPACT 2 /* count = start[cells] after a scatter that dropped sink particles */

/* Bindings: 0 and 1 are the same in every pass below except sph_clear. */
#define VF_SPH_BIND_PARAMS 0 /* uniform vf_sph_params */
#define VF_SPH_BIND_STATE 1  /* storage vf_sph_state */

#define VF_SPH_CLEAR_BIND_DATA 0 /* sph_clear: uint words set to zero */

#define VF_SPH_BIN_BIND_POS 2   /* sph_bin: vec4 positions (read) */
#define VF_SPH_BIN_BIND_CELL 3  /* uint cell of each particle (write) */
#define VF_SPH_BIN_BIND_SLOT 4  /* uint atomic slot inside the cell (write) */
#define VF_SPH_BIN_BIND_START 5 /* uint per-cell counts (atomicAdd) */

#define VF_SPH_SORT_BIND_ID 2    /* sph_sort: uint persistent ids (read) */
#define VF_SPH_SORT_BIND_CELL 3  /* uint cells (read) */
#define VF_SPH_SORT_BIND_SLOT 4  /* uint slots (read) */
#define VF_SPH_SORT_BIND_START 5 /* uint cell starts (read) */
#define VF_SPH_SORT_BIND_KEYS 6  /* uint ids in atomic-slot order (write) */
#define VF_SPH_SORT_BIND_ID_T 7    /* texel views (R32_UINT) of the ids, cells, slots and starts */
#define VF_SPH_SORT_BIND_CELL_T 8  /* (read when VF_SPH_SPEC_TEXEL is true) */
#define VF_SPH_SORT_BIND_SLOT_T 9
#define VF_SPH_SORT_BIND_START_T 10

#define VF_SPH_SCATTER_BIND_CELL 2    /* sph_scatter: uint cells (read) */
#define VF_SPH_SCATTER_BIND_START 3   /* uint cell starts (read) */
#define VF_SPH_SCATTER_BIND_KEYS 4    /* uint ids per cell, atomic order (read) */
#define VF_SPH_SCATTER_BIND_POS_IN 5  /* vec4 (read) */
#define VF_SPH_SCATTER_BIND_VEL_IN 6  /* vec4 (read) */
#define VF_SPH_SCATTER_BIND_ID_IN 7   /* uint (read) */
#define VF_SPH_SCATTER_BIND_POS_OUT 8 /* vec4 in cell order (write) */
#define VF_SPH_SCATTER_BIND_VEL_OUT 9 /* vec4 (write) */
#define VF_SPH_SCATTER_BIND_ID_OUT 10 /* uint (write) */
#define VF_SPH_SCATTER_BIND_CELL_T 11   /* texel views of what it reads (read when */
#define VF_SPH_SCATTER_BIND_START_T 12  /* VF_SPH_SPEC_TEXEL is true): R32_UINT */
#define VF_SPH_SCATTER_BIND_KEYS_T 13
#define VF_SPH_SCATTER_BIND_POS_IN_T 14 /* RGBA32F */
#define VF_SPH_SCATTER_BIND_VEL_IN_T 15
#define VF_SPH_SCATTER_BIND_ID_IN_T 16  /* R32_UINT */

/* The cell starts: sph_bin (and sph_integrate with bin = 1) count into a
 * counts array that is zero between binnings; sph_scan_sums adds up blocks of
 * VF_SPH_SCAN_BLOCK counts, sph_scan writes the exclusive prefix sum of the
 * counts to the starts (each workgroup adds the sums of the blocks before its
 * own) and sets the counts back to zero for the next binning: two passes
 * instead of a clear and a three-pass scan. Small workgroups with long runs
 * per thread: a CPU driver pays for every shared-memory barrier of every
 * thread (256 x 16 took the scan 196-214 ms a frame at 65 536 particles on
 * lavapipe, 32 x 128 takes 124-130 ms); the scan reads each count twice
 * rather than keep a run in registers. */
#define VF_SPH_SCAN_WG 32
#define VF_SPH_SCAN_PER_THREAD 128
#define VF_SPH_SCAN_BLOCK (VF_SPH_SCAN_WG * VF_SPH_SCAN_PER_THREAD)
#define VF_SPH_SCAN_BIND_COUNTS 0 /* uint per-cell counts (read; sph_scan: set to zero) */
#define VF_SPH_SCAN_BIND_SUMS 1   /* uint block sums (sph_scan_sums: write; sph_scan: read) */
#define VF_SPH_SCAN_BIND_COUNTS_T 2 /* the counts as R32_UINT texels (read when VF_SPH_SPEC_TEXEL is true) */
#define VF_SPH_SCAN_BIND_START 3    /* sph_scan: uint exclusive cell starts (write) */
#define VF_SPH_SCAN_BIND_SUMS_T 4   /* sph_scan: the block sums as R32_UINT texels (as COUNTS_T) */

#define VF_SPH_ARGS_BIND_START 2    /* sph_args: uint cell starts (read, compact mode) */
#define VF_SPH_ARGS_BIND_DISPATCH 3 /* uvec4[2]: VkDispatchIndirectCommand of the per-particle passes,
                                       then VkDrawIndirectCommand (6 vertices x count instances) (write) */
#define VF_SPH_DRAW_ARGS_OFFSET 16 /* byte offset of the draw arguments in that buffer */

/* Density and forces read the neighbours' cell starts, positions and
 * records, and the integration each particle's own state, through uniform
 * texel buffers (views of the same buffers, bound as the *_T slots) when the
 * specialization constant VF_SPH_SPEC_TEXEL is true:
 * on CPU devices a texel fetch is one gather per value, where a storage-buffer
 * element is loaded one invocation at a time. The host sets it false where
 * the device cannot address the particle capacity as texels
 * (maxTexelBufferElements); the storage buffers are then read, and the views
 * are still bound. */
#define VF_SPH_SPEC_TEXEL 0
/* sph_forces: true when the surface tension is on (prm.tension > 0); false
 * leaves its terms out of the neighbour loop. */
#define VF_SPH_SPEC_TENSION 1

/* sph_density also writes each particle's neighbour records, everything the
 * force loop needs of it in two vec4: (x, p / rho^2) and (v, 1 / rho). A
 * neighbour then costs two reads instead of three, and its divisions are
 * done once per particle instead of once per pair. */
#define VF_SPH_DENSITY_BIND_START 2   /* sph_density: uint cell starts */
#define VF_SPH_DENSITY_BIND_POS 3     /* vec4 positions (cell order) */
#define VF_SPH_DENSITY_BIND_DENS 4    /* vec2 (density, pressure) (write) */
#define VF_SPH_DENSITY_BIND_START_T 5 /* the cell starts as R32_UINT texels */
#define VF_SPH_DENSITY_BIND_POS_T 6   /* the positions as RGBA32F texels */
#define VF_SPH_DENSITY_BIND_VEL 7     /* vec4 velocities */
#define VF_SPH_DENSITY_BIND_NB_X 8    /* vec4 (x, p / rho^2) (write) */
#define VF_SPH_DENSITY_BIND_NB_V 9    /* vec4 (v, 1 / rho) (write) */
#define VF_SPH_DENSITY_BIND_NB_BITS 10 /* uint[VF_SPH_MASK_WORDS] a particle: its neighbour bits (write; below) */
#define VF_SPH_DENSITY_BIND_VEL_T 11 /* the velocities as RGBA32F texels (read when VF_SPH_SPEC_TEXEL is true) */

/* sph_density also writes, for each particle, which of the candidates of
 * its neighbour loop (the rows of sph_row_candidates_of, in the loop's
 * order) lie within h: one bit per candidate, in VF_SPH_MASK_WORDS 32-bit
 * words, for the first min(n, 32) candidates of each row of n. sph_forces
 * then visits only the candidates whose bit is set, and every candidate
 * past the 32nd of a row or past the last word, so a set bit too many costs
 * time and never a pair. On a device that runs a loop as long as its longest
 * lane (llvmpipe), the force loop's iterations are about the neighbours'
 * (about 100 for 8 lanes of ~58 neighbours) instead of the candidates'
 * (about 210 for 8 lanes of ~148). */
#define VF_SPH_MASK_WORDS 6
#if VF_SPH_MASK_WORDS < 5 || VF_SPH_MASK_WORDS > 8
#error "VF_SPH_MASK_WORDS: 5 to 8 (sph_common.glsl keeps the bits in two uvec4)"
#endif
#if VF_SPH_MASK_WORDS % 2
#error "VF_SPH_MASK_WORDS: even (sph_forces reads the bits two words to a texel)"
#endif

#define VF_SPH_FORCES_BIND_START 2   /* sph_forces: uint cell starts */
#define VF_SPH_FORCES_BIND_NB_X 3    /* vec4 (x, p / rho^2) */
#define VF_SPH_FORCES_BIND_NB_V 4    /* vec4 (v, 1 / rho) */
#define VF_SPH_FORCES_BIND_ACC 5     /* vec4 accelerations (write) */
#define VF_SPH_FORCES_BIND_START_T 6 /* texel views: cell starts (R32_UINT) */
#define VF_SPH_FORCES_BIND_NB_X_T 7  /* and the two records (RGBA32F) */
#define VF_SPH_FORCES_BIND_NB_V_T 8
#define VF_SPH_FORCES_BIND_NB_BITS 9 /* sph_density's neighbour bits (read) */
#define VF_SPH_FORCES_BIND_NB_BITS_T 10 /* the bits as RG32_UINT texels, two words each (as the other _T) */
/* sph_forces_drift: the same pass, then the closing kick of this step and
 * the drift of the next (as sph_integrate's drift with bin = 1, or bin = 0
 * when the next substep emits), in one
 * pass: the particle's own (x, v) are in its records already. Writes no
 * accelerations (the ACC slot is bound and not accessed). */
#define VF_SPH_FORCES_BIND_POS 11    /* vec4 positions (write; w: pressure) */
#define VF_SPH_FORCES_BIND_VEL 12    /* vec4 velocities (write; w: density) */
#define VF_SPH_FORCES_BIND_DENS 13   /* vec2 (density, pressure) (read) */
#define VF_SPH_FORCES_BIND_DENS_T 14 /* its texel view (RG32F) */
#define VF_SPH_FORCES_BIND_CELL 15   /* as sph_bin's cell, slot and counts */
#define VF_SPH_FORCES_BIND_SLOT 16
#define VF_SPH_FORCES_BIND_COUNTS 17
/* sph_forces_drift's flags: BIN: also bin the new position (as sph_bin).
 * ODD: the largest speed goes to state.max_speed_bits_odd, else to
 * max_speed_bits; the host alternates it. An invocation whose speed is at
 * most the other word (complete: written by an earlier pass) leaves its
 * atomic out, so on a GPU only the few particles faster than everything
 * before them touch the shared word, and the largest of the two words is
 * still the largest speed seen. */
#define VF_SPH_DRIFT_BIN 1u
#define VF_SPH_DRIFT_ODD 2u

#define VF_SPH_INTEGRATE_BIND_POS 2 /* sph_integrate: vec4 positions (read/write) */
#define VF_SPH_INTEGRATE_BIND_VEL 3 /* vec4 velocities (read/write) */
#define VF_SPH_INTEGRATE_BIND_ACC 4 /* vec4 accelerations (read) */
#define VF_SPH_INTEGRATE_BIND_DENS 5 /* vec2 (density, pressure) (read): copied into pos.w and vel.w */
#define VF_SPH_INTEGRATE_BIND_CELL 6  /* with bin = 1: as sph_bin's cell, slot and counts (the */
#define VF_SPH_INTEGRATE_BIND_SLOT 7  /* new position binned in the same pass; counts cleared */
#define VF_SPH_INTEGRATE_BIND_START 8 /* before it); with bin = 0 not accessed */
#define VF_SPH_INTEGRATE_BIND_POS_T 9   /* texel views of the particle's own position, */
#define VF_SPH_INTEGRATE_BIND_VEL_T 10  /* velocity and acceleration (RGBA32F) and of */
#define VF_SPH_INTEGRATE_BIND_ACC_T 11  /* (density, pressure) (RG32F), read when */
#define VF_SPH_INTEGRATE_BIND_DENS_T 12 /* VF_SPH_SPEC_TEXEL is true (each read before its write) */

#define VF_SPH_EMIT_BIND_START 2   /* sph_emit: uint cell starts of the last binning */
#define VF_SPH_EMIT_BIND_POS 3     /* vec4 positions (read, append) */
#define VF_SPH_EMIT_BIND_VEL 4     /* vec4 (append) */
#define VF_SPH_EMIT_BIND_ID 5      /* uint (append) */
#define VF_SPH_EMIT_BIND_ACC 6     /* vec4 (append zeros) */
#define VF_SPH_EMIT_BIND_PATTERN 7 /* vec4 nozzle points (offsets from the origin) */

/* ---------------------------------------------------------------- PBF */
/* Position-based fluids (Macklin & Mueller 2013), VF_SPH_METHOD_PBF. A substep
 * predicts the positions (pbf_predict, or the last pass of the substep before,
 * with its flags), bins and reorders them as the weakly compressible solver
 * does, then iterates the density constraint: pbf_lambda (the first iteration
 * walks the rows of cells and writes the neighbour bits; the others visit the
 * marked candidates) and pbf_delta (the position correction), then XSPH and
 * the vorticity (pbf_xsph) and its confinement (pbf_confine) when they are on.
 * Every pass finds a particle's rows from its binned position x0. */
#define VF_SPH_METHOD_WCSPH 0
#define VF_SPH_METHOD_PBF 1
#define VF_SPH_METHOD_DFSPH 2

/* Slots every PBF pass binds (dense; pbf_predict binds those up to
 * VF_PBF_BIND_COUNTS); 0 and 1 are params and state. The binning's reorder
 * writes the substep's predicted positions x0 and velocities, which stay as
 * they are until the substep ends (every pass finds a particle's rows from
 * x0); the substep's last pass writes the final (or the next substep's
 * predicted) state into the other pair of buffers, which the reorder read
 * and which becomes the current one. */
#define VF_PBF_BIND_POS 2     /* vec4 x0 (read); pbf_predict: the positions it predicts (read, write) */
#define VF_PBF_BIND_POS_T 3   /* its texel view */
#define VF_PBF_BIND_VEL 4     /* vec4 the predicted velocities (read); pbf_predict: as POS */
#define VF_PBF_BIND_DENS 5    /* vec2 (density, pressure): pbf_lambda writes the density, the substep's end
                                 both */
#define VF_PBF_BIND_CELL 6    /* uint cell, slot and per-cell counts of the next substep's binning */
#define VF_PBF_BIND_SLOT 7    /* (VF_PBF_PREDICT with VF_SPH_DRIFT_BIN; else bound by their */
#define VF_PBF_BIND_COUNTS 8  /* first word and not accessed) */
#define VF_PBF_BIND_START 9   /* uint cell starts of the binning */
#define VF_PBF_BIND_START_T 10
#define VF_PBF_BIND_BITS 11   /* uint[VF_SPH_MASK_WORDS] neighbour bits (pbf_lambda's first iteration writes them) */
#define VF_PBF_BIND_BITS_T 12 /* as RG32_UINT texels */
#define VF_PBF_BIND_OUT_POS 13 /* vec4 the final or predicted x, pressure (write, own) */
#define VF_PBF_BIND_OUT_VEL 14 /* vec4 the final or predicted v, density (write, own; pbf_xsph with
                                  confinement: v after XSPH, which pbf_confine reads) */
/* pbf_lambda */
#define VF_PBF_LAMBDA_BIND_X 15   /* vec4 positions of this iteration (the first reads POS) */
#define VF_PBF_LAMBDA_BIND_X_T 16
#define VF_PBF_LAMBDA_BIND_REC 17 /* vec4 (x, lambda) of every particle (write) */
/* pbf_delta */
#define VF_PBF_DELTA_BIND_REC 15   /* vec4 (x, lambda) (read) */
#define VF_PBF_DELTA_BIND_REC_T 16
#define VF_PBF_DELTA_BIND_X 17     /* vec4 the corrected positions (write); the last iteration with a
                                      pass after it: (x, pressure) */
#define VF_PBF_DELTA_BIND_NB_V 18  /* vec4 (v, density) for the pass after it (write) */
#define VF_PBF_DELTA_BIND_DISP 19  /* vec4 the particle's displacement from x0 over the iterations so far
                                      and the sum of their virials (pbf_pressure) (own; read after the
                                      first, written before the last) */
/* pbf_xsph */
#define VF_PBF_XSPH_BIND_X 15      /* vec4 (x, pressure) after the solve (read) */
#define VF_PBF_XSPH_BIND_X_T 16
#define VF_PBF_XSPH_BIND_NB_V 17   /* vec4 (v, density) after the solve (read) */
#define VF_PBF_XSPH_BIND_NB_V_T 18
#define VF_PBF_XSPH_BIND_OMEGA 19  /* vec4 the vorticity (write, own, with confinement) */
#define VF_PBF_XSPH_BIND_WREC 20   /* vec4 (x, |omega|) for pbf_confine (write, with confinement) */
/* pbf_confine */
#define VF_PBF_CONFINE_BIND_WREC 15   /* vec4 (x, |omega|) (read) */
#define VF_PBF_CONFINE_BIND_WREC_T 16
#define VF_PBF_CONFINE_BIND_OMEGA 17  /* vec4 the particle's own vorticity (read) */
#define VF_PBF_CONFINE_BIND_X 18      /* vec4 (x, pressure) after the solve (read, own) */

/* vf_pbf_push flags */
#define VF_PBF_FIRST 4u    /* pbf_lambda: the first iteration (walk the rows, write the bits);
                              pbf_delta: the first iteration (no displacement or virial yet) */
#define VF_PBF_LAST 8u     /* pbf_delta: the last iteration (the final velocity) */
#define VF_PBF_POST 16u    /* pbf_delta, pbf_xsph: a pass follows that reads its records (no finish) */
#define VF_PBF_PREDICT 32u /* the finish predicts the next substep (external forces, x += v dt,
                              collisions; with VF_SPH_DRIFT_BIN also its binning) */

/* ---------------------------------------------------------------- DFSPH */
/* Divergence-free SPH (Bender & Koschier 2015, 2017), VF_SPH_METHOD_DFSPH.
 * The GPU chooses each substep (the CFL step of the largest speed, split
 * evenly over what is left of the frame) and ends each pressure solve at
 * its tolerance; the host records a frame of at most dfsph_substeps
 * substeps, each solve of at most dfsph_max_iterations iterations, and the
 * passes the GPU did not need dispatch no workgroup (indirect arguments in
 * the control block, vf_dfsph_ctl). A substep:
 *   dfsph_step     (one workgroup) the step, its dispatch arguments
 *   [emit]         with an emitter: the nozzle, then dfsph_step REFRESH
 *   binning        as the other methods, dispatched by the step's arguments
 *   dfsph_density  density, the factor alpha and the divergence solve's warm start
 *   dfsph_divergence, dfsph_div_update   the divergence solve's iterations
 *   dfsph_predict  external forces, XSPH and the density solve's warm start
 *   dfsph_pressure, dfsph_press_update   the density solve's iterations
 *   dfsph_advect   x += dt v (and with no emitter the next binning)
 * The last workgroup of dfsph_divergence and dfsph_pressure to finish sums
 * the error and writes the arguments of the iteration after it. */
#define VF_DFSPH_MAX_ITERATIONS 64 /* the largest dfsph_max_iterations */
#define VF_DFSPH_WG VF_SPH_WG
/* The share of the last step's pressures both solves start from (the warm
 * start). The solves only raise the pressures within a step, so a start
 * below 1 lets them come down (1 expands a resting column); SPlisHSPlasH
 * takes 0.5. 0.6: 16 % fewer iterations than 0.5 with the dam-break front
 * no further from Martin & Moyce's than wcsph's (docs/testing.md). */
#define VF_DFSPH_WARM 0.6

/* The control block (storage; also the indirect arguments). */
VF_STRUCT_BEGIN(vf_dfsph_ctl)
    VF_UINT step_x, step_y, step_z, step_w;   /* the per-particle passes of this substep: the particle
                                                  dispatch, or 0 when the frame's time is done */
    VF_UINT emit_x, emit_y, emit_z, emit_w;   /* the nozzle pass: 1 when a layer is due */
    VF_UINT scan_x, scan_y, scan_z, scan_w;   /* the scan of the cell counts (cells / scan block), or 0 */
    VF_FLOAT time;       /* simulated time done in this frame, s */
    VF_FLOAT dt;         /* the substep, s */
    VF_UINT speed_bits;  /* the largest speed of the last advect (floatBitsToUint) */
    VF_UINT arrived;     /* workgroups of the error pass that have finished (the last resets it) */
    VF_FLOAT emit_time;  /* simulated time since the last nozzle layer */
    VF_UINT substeps;    /* substeps run since creation */
    VF_UINT div_iterations, dens_iterations; /* iterations run since creation */
    VF_UINT capped;      /* substeps made longer than the CFL step (the frame's recorded substeps ran out) */
    VF_UINT iteration;   /* the current solve's iterations so far */
    VF_UINT div_capped, dens_capped; /* solves that stopped at dfsph_max_iterations above their tolerance */
    VF_FLOAT error;      /* the last error of the current solve */
    VF_FLOAT div_error_max, dens_error_max; /* the largest error a solve stopped at since creation */
    VF_FLOAT pad0;
    /* then the solves' iteration arguments: [k] dispatches iteration k's passes */
VF_STRUCT_END(vf_dfsph_ctl)
VF_STATIC_ASSERT(sizeof(vf_dfsph_ctl) == 16 * 3 + 4 * 16, "vf_dfsph_ctl must match std430")
/* The control buffer: vf_dfsph_ctl, then the divergence solve's iteration
 * arguments (uvec4 x (VF_DFSPH_MAX_ITERATIONS + 1)), then the density
 * solve's. */
#define VF_DFSPH_DIV_ARGS_OFFSET 112
#define VF_DFSPH_DENS_ARGS_OFFSET (VF_DFSPH_DIV_ARGS_OFFSET + 16 * (VF_DFSPH_MAX_ITERATIONS + 1))
#define VF_DFSPH_CTL_BYTES (VF_DFSPH_DENS_ARGS_OFFSET + 16 * (VF_DFSPH_MAX_ITERATIONS + 1))

/* dfsph_step modes */
#define VF_DFSPH_STEP_FRAME 0u   /* a frame begins: its time back to 0 */
#define VF_DFSPH_STEP_BEGIN 1u   /* a substep begins: its step and arguments */
#define VF_DFSPH_STEP_REFRESH 2u /* after an emission: the step's particle arguments again */

/* Slots every DFSPH particle pass binds (dense); 0 and 1 are params and state. */
#define VF_DFSPH_BIND_CTL 2     /* vf_dfsph_ctl and the iteration arguments */
#define VF_DFSPH_BIND_POS 3     /* vec4 positions (cell order) */
#define VF_DFSPH_BIND_POS_T 4
#define VF_DFSPH_BIND_VEL 5     /* vec4 velocities */
#define VF_DFSPH_BIND_VEL_T 6
#define VF_DFSPH_BIND_DENS 7    /* vec2 (density, alpha) */
#define VF_DFSPH_BIND_DENS_T 8
#define VF_DFSPH_BIND_WARM 9    /* vec2 (kappa, kappa_v): the pressures of the two solves, summed over the
                                   step (the next step's warm start; reordered with the particles) */
#define VF_DFSPH_BIND_WARM_T 10
#define VF_DFSPH_BIND_KAPPA 11  /* float this iteration's kappa (or kappa_v) */
#define VF_DFSPH_BIND_KAPPA_T 12
#define VF_DFSPH_BIND_VSTAR 13  /* vec4 the predicted velocities v* of the density solve */
#define VF_DFSPH_BIND_VSTAR_T 14
#define VF_DFSPH_BIND_START 15  /* uint cell starts */
#define VF_DFSPH_BIND_START_T 16
#define VF_DFSPH_BIND_PARTIAL 17 /* float per workgroup: the error sums */
#define VF_DFSPH_BIND_CELL 18   /* the next binning (dfsph_advect with VF_SPH_DRIFT_BIN) */
#define VF_DFSPH_BIND_SLOT 19
#define VF_DFSPH_BIND_COUNTS 20
#define VF_DFSPH_BIND_DISPATCH 21 /* uvec4 the particle dispatch arguments (sph_args) */
#define VF_DFSPH_BIND_BITS 22   /* uint[VF_SPH_MASK_WORDS] neighbour bits (dfsph_density writes them) */
#define VF_DFSPH_BIND_BITS_T 23

/* dfsph_advect's own slots: it reads the substep's particles in the order of
 * the binning and writes the end of the substep into the buffers the
 * binning read (the current ones stay the same whether or not the GPU ran
 * the substep); 0 and 1 are params and state. */
#define VF_DFSPH_ADVECT_BIND_CTL 2
#define VF_DFSPH_ADVECT_BIND_POS_IN 3   /* vec4 positions (the binning's order) */
#define VF_DFSPH_ADVECT_BIND_VSTAR 4    /* vec4 v* */
#define VF_DFSPH_ADVECT_BIND_DENS 5     /* vec2 (density, alpha) (read); (density, pressure) (write) */
#define VF_DFSPH_ADVECT_BIND_WARM_IN 6  /* vec2 the step's kappa, kappa_v */
#define VF_DFSPH_ADVECT_BIND_ID_IN 7    /* uint ids (the binning's order) */
#define VF_DFSPH_ADVECT_BIND_POS_OUT 8  /* vec4 the new positions, pressure */
#define VF_DFSPH_ADVECT_BIND_VEL_OUT 9  /* vec4 the new velocities, density */
#define VF_DFSPH_ADVECT_BIND_WARM_OUT 10
#define VF_DFSPH_ADVECT_BIND_ID_OUT 11
#define VF_DFSPH_ADVECT_BIND_CELL 12    /* with VF_SPH_DRIFT_BIN: the next binning (as sph_bin) */
#define VF_DFSPH_ADVECT_BIND_SLOT 13
#define VF_DFSPH_ADVECT_BIND_COUNTS 14

/* The reorder moves the warm start with the particles (sph_scatter with the
 * specialization constant VF_SPH_SPEC_WARM true). */
#define VF_SPH_SPEC_WARM 2
#define VF_SPH_SCATTER_BIND_WARM_IN 17  /* vec2 (read) */
#define VF_SPH_SCATTER_BIND_WARM_OUT 18 /* vec2 (write) */

/* The solver's constants, written once at creation (uniform, std140: only
 * 4-byte scalars and vec4s at 16-byte offsets). Lengths in metres, times in
 * seconds. The kernel factors are for the normalised forms with q = r/h:
 *   W_poly6 = poly6 (1 - q^2)^3,             poly6 = 315 / (64 pi h^3)
 *   grad W_spiky = -spiky (1 - q)^2 r/|r|,   spiky = 45 / (pi h^4) / K
 *     (K: the gradient's first moment on the initial cubic lattice, see solver_sph.c)
 *   lap W_visc = visc (1 - q),               visc = 45 / (pi h^5)
 *   grad W_poly6 = -poly6_grad (1 - q^2)^2 r/h,  poly6_grad = 945 / (32 pi h^4)
 *   lap W_poly6 = -poly6_lap (1 - q^2)(3 - 7 q^2), poly6_lap = 945 / (32 pi h^5)
 *   dfsph's W and grad W, Wendland C2: at dfsph_w and dfsph_grad below */
VF_STRUCT_BEGIN(vf_sph_params)
    VF_VEC4(lo);            /* domain (tank) min corner; particles live in [lo, hi] */
    VF_VEC4(hi);            /* domain max corner */
    VF_VEC4(gravity);       /* m/s^2 */
    VF_VEC4(sink_lo);       /* sink box (when sink_enabled) */
    VF_VEC4(sink_hi);
    VF_VEC4(emit_origin);   /* nozzle centre */
    VF_VEC4(emit_velocity); /* velocity of emitted particles */
    VF_VEC4(spheres[VF_SPH_MAX_SPHERES]); /* xyz centre, w radius */
    VF_VEC4(box_lo[VF_SPH_MAX_BOXES]);
    VF_VEC4(box_hi[VF_SPH_MAX_BOXES]);
    VF_UINT grid_x;         /* cells along x (x fastest in the cell index) */
    VF_UINT grid_y;
    VF_UINT grid_z;
    VF_UINT cells;          /* grid_x*grid_y*grid_z; also the index of the "removed" bin */
    VF_UINT sphere_count;
    VF_UINT box_count;
    VF_UINT capacity;       /* particles the buffers hold */
    VF_UINT eos;            /* VF_SPH_EOS_* */
    VF_UINT clamp_pressure; /* 1: negative pressures become 0 */
    VF_UINT sink_enabled;
    VF_UINT emit_count;     /* points in the nozzle pattern */
    VF_UINT max_groups_x;   /* maxComputeWorkGroupCount[0] */
    VF_FLOAT h;             /* smoothing radius = cell size */
    VF_FLOAT h2;
    VF_FLOAT inv_h;
    VF_FLOAT inv_cell;      /* 1 / cell size */
    VF_FLOAT mass;          /* particle mass, kg */
    VF_FLOAT rho0;          /* rest density, kg/m^3 */
    VF_FLOAT eos_b;         /* Tait B, Pa */
    VF_FLOAT eos_k;         /* linear k, m^2/s^2 */
    VF_FLOAT poly6;
    VF_FLOAT spiky;
    VF_FLOAT visc;
    VF_FLOAT poly6_grad;
    VF_FLOAT poly6_lap;
    VF_FLOAT viscosity;     /* mu, Pa s */
    VF_FLOAT tension;       /* sigma, N/m (0: off) */
    VF_FLOAT tension_threshold; /* |n| above which surface tension acts, 1/m */
    VF_FLOAT restitution;   /* normal velocity kept (reversed) at walls and obstacles, 0..1 */
    VF_FLOAT damping;       /* linear velocity damping, 1/s (settling) */
    VF_FLOAT emit_clearance2; /* a nozzle point emits only when no particle is closer than this (squared) */
    VF_FLOAT volume;        /* mass / rho0: a particle's rest volume, m^3 */
    /* position-based fluids (VF_SPH_METHOD_PBF; Macklin & Mueller 2013) */
    VF_FLOAT pbf_relax;     /* epsilon of lambda = -C / (sum_k |grad_k C|^2 + epsilon), 1/m^2 */
    VF_FLOAT pbf_scorr_k;   /* artificial pressure s_corr = -k (W(r) / W(dq))^n (0: off), m^2: the k of
                               the scene over a particle's sum |grad C|^2 at rest (a lambda) */
    VF_FLOAT pbf_scorr_inv_w; /* 1 / (1 - (dq/h)^2)^3: the poly6 shape at dq, inverted */
    VF_FLOAT pbf_scorr_n;   /* n */
    VF_FLOAT xsph;          /* XSPH, per second: v += min(xsph dt, 1) sum_j (m / rho_j) (v_j - v_i) W_ij
                               each substep (pbf, dfsph; 0: off) */
    VF_FLOAT vorticity;     /* vorticity confinement epsilon: a = epsilon (N x omega), m/s (0: off) */
    /* divergence-free SPH (VF_SPH_METHOD_DFSPH; Bender & Koschier 2015, 2017) */
    VF_FLOAT dfsph_cfl;     /* dt = dfsph_cfl spacing / (largest speed) */
    VF_FLOAT dfsph_dt_max;  /* the largest step, s */
    VF_FLOAT dfsph_eta;     /* the density solve's tolerance: average max(rho* - rho0, 0) / rho0 */
    VF_FLOAT dfsph_eta_v;   /* the divergence solve's: average max(D rho / Dt, 0) dt / rho0 */
    VF_FLOAT frame_dt;      /* simulated seconds per frame */
    VF_UINT noslip;         /* 1: the walls' and obstacles' images carry the velocity reversed (no-slip),
                               0: reflected (free-slip) */
    VF_UINT dfsph_max_iterations; /* iterations a solve may take (its recorded arguments) */
    VF_FLOAT emit_interval; /* simulated seconds between nozzle layers (dfsph: the GPU keeps the time) */
    VF_UINT scan_groups;    /* workgroups of the cell-count scan */
    VF_FLOAT spacing;       /* particle spacing, m */
    VF_FLOAT dfsph_w;       /* dfsph's density kernel, Wendland C2: W = dfsph_w (1 - q)^4 (1 + 4 q), dfsph_w =
                               21 / (2 pi h^3) / L (L: the kernel's sum on the initial cubic lattice) */
    VF_FLOAT dfsph_grad;    /* its gradient: grad W = -dfsph_grad (1 - q)^3 r, dfsph_grad = 210 / (pi h^5)
                               (the continuous kernel's) */
    VF_FLOAT pbf_omega;     /* pbf: the over-relaxation of the position corrections, x += omega V
                               sum (lambda_i + lambda_j + s_corr) grad W */
    VF_UINT pad1;           /* the block's size a multiple of 16 bytes */
VF_STRUCT_END(vf_sph_params)
VF_STATIC_ASSERT(sizeof(vf_sph_params) == 16 * (7 + VF_SPH_MAX_SPHERES + 2 * VF_SPH_MAX_BOXES) + 4 * 52,
                 "vf_sph_params must match std140")

/* GPU-side counters (storage). */
VF_STRUCT_BEGIN(vf_sph_state)
    VF_UINT count;          /* live particles, [0, count) */
    VF_UINT next_id;        /* persistent id of the next emitted particle */
    VF_UINT emitted;        /* particles added by the emitter so far */
    VF_UINT removed;        /* particles removed by the sink so far */
    VF_UINT max_speed_bits; /* floatBitsToUint of a largest speed (NaN sorts above +inf) */
    VF_UINT pending;        /* particles appended by the last emit pass, not yet counted */
    VF_UINT max_speed_bits_odd; /* the second word (VF_SPH_DRIFT_ODD): the larger of the two is the largest speed seen */
    VF_UINT emit_layers;    /* nozzle layers due at the next emit pass when the GPU keeps the time (dfsph_step) */
VF_STRUCT_END(vf_sph_state)
VF_STATIC_ASSERT(sizeof(vf_sph_state) == 32, "vf_sph_state must match std430")

/* sph_emit: the nozzle layers to append, 1 to VF_SPH_EMIT_LAYERS_MAX, or
 * VF_SPH_EMIT_LAYERS_STATE (then lead 0), and how far along the jet the
 * newest one starts (m: the nozzle speed times the time since it was due). */
VF_STRUCT_BEGIN(vf_sph_emit_push)
    VF_UINT layers;
    VF_FLOAT lead;
    VF_UINT pad0;
    VF_UINT pad1;
VF_STRUCT_END(vf_sph_emit_push)
VF_STATIC_ASSERT(sizeof(vf_sph_emit_push) == 16, "vf_sph_emit_push must match std430")

VF_STRUCT_BEGIN(vf_sph_clear_push)
    VF_UINT count; /* words to clear */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_sph_clear_push)
VF_STATIC_ASSERT(sizeof(vf_sph_clear_push) == 16, "vf_sph_clear_push must match std430")

VF_STRUCT_BEGIN(vf_sph_scan_push)
    VF_UINT count; /* counts to scan (cells + 1) */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_sph_scan_push)
VF_STATIC_ASSERT(sizeof(vf_sph_scan_push) == 16, "vf_sph_scan_push must match std430")

VF_STRUCT_BEGIN(vf_sph_args_push)
    VF_UINT mode; /* VF_SPH_ARGS_* */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_sph_args_push)
VF_STATIC_ASSERT(sizeof(vf_sph_args_push) == 16, "vf_sph_args_push must match std430")

/* The interactive force: acceleration strength (m/s^2, > 0 pushes away
 * from the point, < 0 pulls towards it) fading linearly to 0 at radius. */
VF_STRUCT_BEGIN(vf_sph_forces_push)
    VF_VEC4(interact); /* xyz point, w radius (0: off) */
    VF_FLOAT strength;
    VF_FLOAT dt;       /* sph_forces_drift: the step size (this step's and the next's), s */
    VF_UINT flags;     /* sph_forces_drift: VF_SPH_DRIFT_* */
    VF_UINT pad0;
VF_STRUCT_END(vf_sph_forces_push)
VF_STATIC_ASSERT(sizeof(vf_sph_forces_push) == 32, "vf_sph_forces_push must match std430")

VF_STRUCT_BEGIN(vf_sph_integrate_push)
    VF_FLOAT dt;   /* time step, s */
    VF_UINT mode;  /* VF_SPH_INTEGRATE_* */
    VF_UINT bin;   /* 1: also bin the new position (as sph_bin) */
    VF_UINT pad0;
VF_STRUCT_END(vf_sph_integrate_push)
VF_STATIC_ASSERT(sizeof(vf_sph_integrate_push) == 16, "vf_sph_integrate_push must match std430")

/* The PBF passes: the interactive force (as vf_sph_forces_push), the
 * substep, the flags (VF_PBF_*, VF_SPH_DRIFT_BIN, VF_SPH_DRIFT_ODD). */
VF_STRUCT_BEGIN(vf_pbf_push)
    VF_VEC4(interact); /* xyz point, w radius (0: off) */
    VF_FLOAT strength;
    VF_FLOAT dt;       /* the substep, s */
    VF_UINT flags;
    VF_UINT pad0;
VF_STRUCT_END(vf_pbf_push)
VF_STATIC_ASSERT(sizeof(vf_pbf_push) == 32, "vf_pbf_push must match std430")

/* The DFSPH passes: the interactive force, the mode (dfsph_step) or the
 * iteration (the solves: it picks the arguments the pass writes), the flags
 * (VF_SPH_DRIFT_BIN, VF_SPH_DRIFT_ODD), the recorded substeps left in the
 * frame (dfsph_step). */
VF_STRUCT_BEGIN(vf_dfsph_push)
    VF_VEC4(interact); /* xyz point, w radius (0: off) */
    VF_FLOAT strength;
    VF_UINT mode;      /* dfsph_step: VF_DFSPH_STEP_*; the solves: the iteration */
    VF_UINT flags;
    VF_UINT left;      /* dfsph_step: recorded substeps left in the frame, this one included */
VF_STRUCT_END(vf_dfsph_push)
VF_STATIC_ASSERT(sizeof(vf_dfsph_push) == 32, "vf_dfsph_push must match std430")

#endif
