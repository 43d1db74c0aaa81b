/* shared_foam.h: the diffuse-particle header shared by C and GLSL (spray, foam and
 * bubbles after Ihmsen et al. 2012: shaders/sph/foam_*.comp, src/sim/sph/sph_foam.c).
 * Includes the common shared.h. */
#ifndef VF_SHARED_FOAM_H
#define VF_SHARED_FOAM_H

#include "shared.h"

#define VF_FOAM_WG 64 /* workgroup size of every foam pass */

/* Classes (the w of a diffuse particle's velocity). */
#define VF_FOAM_SPRAY 0   /* few fluid neighbours: ballistic */
#define VF_FOAM_FOAM 1    /* on the surface: carried by the fluid, ages */
#define VF_FOAM_BUBBLE 2  /* many neighbours: buoyancy and drag */

/* Bindings (the same for every foam pass; 0 and 1 are the SPH parameter
 * block and state of sph_common.glsl). */
#define VF_FOAM_BIND_START 2      /* uint SPH cell starts (read) */
#define VF_FOAM_BIND_POS 3        /* vec4 fluid positions, cell order (read) */
#define VF_FOAM_BIND_VEL 4        /* vec4 fluid velocities (read) */
#define VF_FOAM_BIND_ID 5         /* uint fluid persistent ids (read) */
#define VF_FOAM_BIND_NORMAL 6     /* vec4 per fluid particle: unnormalised surface normal */
#define VF_FOAM_BIND_POTENTIAL 7  /* vec4 per fluid particle: trapped air, wave crest, kinetic energy, generated */
#define VF_FOAM_BIND_GEN 8        /* uint per fluid particle + 1: diffuse particles to generate, then scanned */
#define VF_FOAM_BIND_STATE 9      /* uint[16]: vf_foam_state words, draw arguments at VF_FOAM_DRAW_OFFSET */
#define VF_FOAM_BIND_DPOS 10      /* vec4 diffuse xyz, w lifetime left (s) (current) */
#define VF_FOAM_BIND_DVEL 11      /* vec4 diffuse velocity, w class (current) */
#define VF_FOAM_BIND_KEEP 12      /* uint per diffuse particle + 1: survives, then scanned */
#define VF_FOAM_BIND_DPOS_OUT 13  /* vec4 diffuse (next) */
#define VF_FOAM_BIND_DVEL_OUT 14  /* vec4 diffuse (next) */

/* Words of the foam state buffer. */
#define VF_FOAM_STATE_COUNT 0     /* live diffuse particles, [0, count) */
#define VF_FOAM_STATE_SPRAY 1     /* of them, per class (after the last update) */
#define VF_FOAM_STATE_FOAM 2
#define VF_FOAM_STATE_BUBBLE 3
#define VF_FOAM_STATE_GENERATED 4 /* generated so far (wraps at 2^32) */
#define VF_FOAM_STATE_DROPPED 5   /* not stored because the buffers were full, so far */
#define VF_FOAM_STATE_WORDS 16
#define VF_FOAM_DRAW_OFFSET 32    /* VkDrawIndirectCommand: 6 vertices x count instances */

/* The foam layer's draw (render_ssf.c): the frame block at VF_SSF_BIND_FRAME, then these. */
#define VF_FOAM_DRAW_BIND_POS 1         /* vec4 diffuse positions (w lifetime left) */
#define VF_FOAM_DRAW_BIND_VEL 2         /* vec4 diffuse velocities (w class) */
#define VF_FOAM_DRAW_BIND_FLUID_DEPTH 3 /* the fluid's (smoothed) linear view depth, 0 = none */

/* Potentials are mapped to 0..1 by phi(I) = (min(I, max) - min(I, min)) / (max - min). */
VF_STRUCT_BEGIN(vf_foam_push)
    VF_VEC4(rate);    /* x: trapped-air rate k_ta, y: wave-crest rate k_wc (per second), z: dt (s), w: spawn radius (m) */
    VF_VEC4(limits);  /* trapped-air min, max; wave-crest min, max */
    VF_VEC4(energy);  /* kinetic energy per unit mass min, max (J/kg); lifetime min, max (s) */
    VF_VEC4(motion);  /* x: buoyancy k_b, y: drag k_d (0..1 per step), z: wave-crest |v.n| threshold, w: 0 */
    VF_UINT fluid_cap;   /* fluid particle slots (the gen array has one more) */
    VF_UINT diffuse_cap; /* diffuse particle slots */
    VF_UINT frame;       /* seeds the random numbers */
    VF_UINT spray_max;   /* fewer fluid neighbours than this: spray */
    VF_UINT bubble_min;  /* more than this: bubble */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_foam_push)
VF_STATIC_ASSERT(sizeof(vf_foam_push) == 96, "vf_foam_push must match std430")

#endif
