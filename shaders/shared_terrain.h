/* shared_terrain.h: the terrain-water family's part of the header shared by
 * C and GLSL (includes shared.h and, for the bulldozer, shared_height.h).
 *
 * Water over a terrain by the shallow-water equations in finite-volume form
 * on an nx x ny grid of square cells (row-major, cell (i, j) at j * nx + i):
 *   bed    ground elevation above the datum (m), float per cell; two buffers
 *          (the slippage pass writes the other one)
 *   depth  water depth in quanta of VF_TERRAIN_QUANTUM metres, uint per cell:
 *          water moves between cells in whole quanta, each face's amount
 *          computed once, so the total changes only by sources, rain and
 *          drains (exactly, in integers)
 *   mom    momentum (h u, h v) (m^2/s), vec2 per cell
 *   face_x the flux through each x face ((nx + 1) x ny: face i is the left
 *          side of cell i), face_y through each y face (nx x (ny + 1)), as
 *          vec4(F_h, F_n^-, F_n^+, F_t): mass flux (m^2/s), normal momentum
 *          flux as seen from the cell before the face (-) and after it (+)
 *          (they differ by the hydrostatic reconstruction's bed term), and the
 *          tangential momentum flux
 *   limit  per cell, the factor (<= 1) its outgoing water is scaled by so it
 *          never sends more than it holds
 *   eta    bed + depth (m above the datum), written for the renderers
 * Fluxes: HLL with the hydrostatic reconstruction of Audusse et al. (2004):
 * well-balanced (a lake at rest stays at rest), depth never negative, dry
 * fronts need nothing special. */
#ifndef VF_SHARED_TERRAIN_H
#define VF_SHARED_TERRAIN_H

#include "shared.h"
#include "shared_height.h" /* the bulldozer is a height-family object (vf_height_object) */

#ifndef VF_GLSL
#include <stdbool.h>
#endif

/* One depth quantum: 2^-20 m (about a micrometre); a uint holds 4096 m. */
#define VF_TERRAIN_QUANTUM (1.0 / 1048576.0)
/* Sources and drains: at most this many of each. */
#define VF_TERRAIN_MAX_SOURCES 4
#define VF_TERRAIN_MAX_DRAINS 4

/* ---- the edit pass (terrain_edit.comp): the bulldozer's blade and the
 * pointer's dig/raise brush change the bed in place, once per frame; its
 * first invocation also places the bulldozer (object 0) on the ground */
#define VF_TERRAIN_EDIT_BIND_BED 0
#define VF_TERRAIN_EDIT_BIND_OBJECTS 1
#define VF_TERRAIN_EDIT_BLADE 1u  /* flags: the blade cuts */
#define VF_TERRAIN_EDIT_BRUSH 2u  /* flags: the brush digs or raises */
#define VF_TERRAIN_EDIT_DOZER 4u  /* flags: place the bulldozer object */

VF_STRUCT_BEGIN(vf_terrain_edit_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT dx;
    VF_UINT flags;       /* VF_TERRAIN_EDIT_* */
    VF_FLOAT blade_x;    /* blade centre (m) */
    VF_FLOAT blade_y;
    VF_FLOAT blade_cos;  /* direction of travel */
    VF_FLOAT blade_sin;
    VF_FLOAT blade_half_len;   /* half the cut's length along the travel (m) */
    VF_FLOAT blade_half_width; /* half its width across (m) */
    VF_FLOAT blade_level;      /* the ground is cut down to this elevation (m above the datum) */
    VF_FLOAT brush_x;    /* brush centre (m) */
    VF_FLOAT brush_y;
    VF_FLOAT brush_radius;     /* m */
    VF_FLOAT brush_delta;      /* change at the centre this frame (m; negative digs) */
    VF_FLOAT dozer_size;       /* the bulldozer object's length (m) */
VF_STRUCT_END(vf_terrain_edit_push)
VF_STATIC_ASSERT(sizeof(vf_terrain_edit_push) == 64, "vf_terrain_edit_push must match std430")

/* ---- the slippage pass (terrain_slip.comp): where the ground between two
 * side neighbours is steeper than the angle of repose, soil moves from the
 * higher to the lower cell: rate * (|db| - dx tan(repose)) / 2 per face,
 * summed over the four faces (rate <= 1/4 so no cell overshoots) */
#define VF_TERRAIN_SLIP_BIND_BED 0     /* in */
#define VF_TERRAIN_SLIP_BIND_BED_OUT 1 /* out */

VF_STRUCT_BEGIN(vf_terrain_slip_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT talus;      /* the largest stable difference between neighbours: dx tan(repose) (m) */
    VF_FLOAT rate;       /* fraction of the excess moved this pass (0 .. 1/4) */
VF_STRUCT_END(vf_terrain_slip_push)
VF_STATIC_ASSERT(sizeof(vf_terrain_slip_push) == 16, "vf_terrain_slip_push must match std430")

/* ---- one substep: flux (terrain_flux.comp), limit (terrain_limit.comp),
 * update (terrain_update.comp); all three take the same push */
#define VF_TERRAIN_FLUX_BIND_BED 0
#define VF_TERRAIN_FLUX_BIND_DEPTH 1
#define VF_TERRAIN_FLUX_BIND_MOM 2
#define VF_TERRAIN_FLUX_BIND_FACE_X 3  /* write */
#define VF_TERRAIN_FLUX_BIND_FACE_Y 4  /* write */

#define VF_TERRAIN_LIMIT_BIND_DEPTH 0
#define VF_TERRAIN_LIMIT_BIND_FACE_X 1
#define VF_TERRAIN_LIMIT_BIND_FACE_Y 2
#define VF_TERRAIN_LIMIT_BIND_LIMIT 3  /* write */

#define VF_TERRAIN_UPDATE_BIND_BED 0
#define VF_TERRAIN_UPDATE_BIND_DEPTH 1 /* read-write (own cell) */
#define VF_TERRAIN_UPDATE_BIND_MOM 2   /* read-write (own cell) */
#define VF_TERRAIN_UPDATE_BIND_FACE_X 3
#define VF_TERRAIN_UPDATE_BIND_FACE_Y 4
#define VF_TERRAIN_UPDATE_BIND_LIMIT 5
#define VF_TERRAIN_UPDATE_BIND_ETA 6   /* write: bed + depth */
#define VF_TERRAIN_UPDATE_BIND_TOOLS 7 /* sources and drains (vf_terrain_tools, read) */
#define VF_TERRAIN_UPDATE_BIND_STATS 8 /* vf_terrain_stats (atomics) */

VF_STRUCT_BEGIN(vf_terrain_step_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT dx;         /* cell size (m) */
    VF_FLOAT dt;         /* substep (s) */
    VF_FLOAT g;          /* gravity (m/s^2) */
    VF_FLOAT quanta;     /* dt / (dx VF_TERRAIN_QUANTUM): a mass flux (m^2/s) to quanta of depth per substep */
    VF_FLOAT dry;        /* below this depth (m) a cell has no velocity */
    VF_FLOAT friction;   /* g n^2 (Manning's n in s/m^(1/3)); 0: none */
    VF_FLOAT speed_cap;  /* |u| + sqrt(g h) is held at or below this (m/s): the CFL number's ceiling */
    VF_UINT rain;        /* quanta every cell gains this substep */
    VF_UINT sources;     /* sources in use (the first of tools.sources) */
    VF_UINT drains;      /* drains in use */
    VF_UINT source_q[VF_TERRAIN_MAX_SOURCES]; /* quanta each cell of source k gains this substep */
    VF_UINT drain_q[VF_TERRAIN_MAX_DRAINS];   /* quanta each cell of drain k may lose this substep */
VF_STRUCT_END(vf_terrain_step_push)
VF_STATIC_ASSERT(sizeof(vf_terrain_step_push) == 80, "vf_terrain_step_push must match std430")

/* A source's or drain's cells: those whose (i - ci)^2 + (j - cj)^2 <= r2
 * (integers, so the host counts the same cells as the shader). */
VF_STRUCT_BEGIN(vf_terrain_disc)
    VF_INT ci;
    VF_INT cj;
    VF_INT r2;
    VF_UINT cells;       /* how many cells of the grid it covers (host bookkeeping) */
VF_STRUCT_END(vf_terrain_disc)

VF_STRUCT_BEGIN(vf_terrain_tools)
    vf_terrain_disc sources[VF_TERRAIN_MAX_SOURCES];
    vf_terrain_disc drains[VF_TERRAIN_MAX_DRAINS];
VF_STRUCT_END(vf_terrain_tools)
VF_STATIC_ASSERT(sizeof(vf_terrain_tools) == 128, "vf_terrain_tools must match std430")

/* Counters the update pass keeps (never reset; read back only when asked). */
VF_STRUCT_BEGIN(vf_terrain_stats)
    VF_UINT drained_lo;  /* quanta the drains removed: a 64-bit count in two words */
    VF_UINT drained_hi;
    VF_UINT cfl_bits;    /* the largest (|u| + sqrt(g h)) dt / dx seen, as float bits */
    VF_UINT capped;      /* cell-substeps whose speed was held at speed_cap */
VF_STRUCT_END(vf_terrain_stats)
VF_STATIC_ASSERT(sizeof(vf_terrain_stats) == 16, "vf_terrain_stats must match std430")

/* The integer disc test of a source or drain: one definition for the
 * shaders, the solver and the references. */
VF_FUNC bool vf_terrain_in_disc(VF_INT i, VF_INT j, VF_INT ci, VF_INT cj, VF_INT r2)
{
    VF_INT di = i - ci, dj = j - cj;
    return di * di + dj * dj <= r2;
}

#endif
