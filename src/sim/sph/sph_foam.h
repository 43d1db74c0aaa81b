/* sph_foam: spray, foam and bubbles (Ihmsen, Akinci, Akinci and Teschner
 * 2012, "Unified spray, foam and bubbles for particle-based fluids") as
 * diffuse particles beside an SPH fluid, all on the GPU.
 *
 * Once per frame, after the fluid's substeps (dt = the frame's time):
 *   foam_normals    per fluid particle: the surface normal (unnormalised)
 *   foam_potential  per fluid particle: trapped-air, wave-crest and kinetic
 *                   energy potentials, and how many diffuse particles it
 *                   makes (see shaders/sph/foam_potential.comp)
 *   foam_update     per diffuse particle: class by fluid neighbour count
 *                   (spray, foam, bubbles), motion by class, lifetime
 *   scan x 2        survivors and generated particles (gpu_scan)
 *   foam_compact    survivors to the other buffers, order kept
 *   foam_emit       new particles after them
 *   foam_finish     count, per-class counts, indirect draw arguments
 * The results do not depend on thread timing (scans, integer atomics and
 * random numbers from particle ids and the frame number), so runs stay
 * bit-reproducible. */
#ifndef VF_SPH_FOAM_H
#define VF_SPH_FOAM_H

#include <stdint.h>

#include "gpu_buffer.h"
#include "gpu_profiler.h"
#include "shared_foam.h"

typedef struct vf_sph vf_sph;

/** The parameters (scene keys foam_*). Zero means the default in brackets;
 * the scene tables hold the same defaults. */
typedef struct vf_foam_desc {
    uint32_t capacity;          /* diffuse particles at most [65536] */
    double trapped_air;         /* k_ta: particles per second per fluid particle at full potential [200] */
    double wave_crest;          /* k_wc [200] */
    double ta_min, ta_max;      /* trapped-air potential range, m/s [2, 10] */
    double wc_min, wc_max;      /* wave-crest potential range [1, 6] */
    double ke_min, ke_max;      /* kinetic energy per unit mass range, J/kg [0.5, 5] */
    double life_min, life_max;  /* lifetime range, s [1, 3] */
    double buoyancy;            /* bubbles: k_b, times -gravity [2] */
    double drag;                /* bubbles: k_d, fraction of the velocity difference per frame, 0..1 [0.5] */
    double crest_threshold;     /* wave crests need v^ . n^ above this [0.6] */
    double spawn_radius;        /* m [spacing / 2] */
    uint32_t spray_max;         /* fewer fluid neighbours: spray [6] */
    uint32_t bubble_min;        /* more: bubbles [20] */
} vf_foam_desc;

typedef struct vf_foam vf_foam;

/** Creates the diffuse particles of sph (not owned; it must outlive the
 * foam): pipelines and buffers. VF_ERR_TOO_LARGE with a one-line reason in
 * err when the capacity does not fit the device; VF_ERR_INVALID_ARG when
 * bubble_min is below spray_max. The ranges (max over min) come validated
 * by the scene layer and are not checked here. desc may be NULL
 * (defaults). err may be NULL;
 * *key (key may be NULL) gets the key err names first (NULL: none). */
vf_result vf_foam_create(vf_gpu *gpu, vf_sph *sph, const vf_foam_desc *desc, vf_foam **out, const char **key, char *err,
                         size_t cap);
/** Destroys the foam; accepts NULL and *f == NULL. The GPU must be idle. */
void vf_foam_destroy(vf_foam **f);

/** Records one frame of the diffuse particles (dt = dt, normally the fluid's
 * frame time) after the fluid's last substep of the frame; no readback.
 * prof may be NULL. */
vf_result vf_foam_record(vf_foam *f, VkCommandBuffer cmd, vf_profiler *prof, double dt);

/** Records the passes of vf_foam_record with dt 0 (nothing is made and
 * nothing moves) and keeps the frame counter and the buffers' parity, so the
 * foam is as before: for timing a frame's foam before its first frame (with
 * diffuse particles alive it would move foam with the fluid). */
vf_result vf_foam_record_probe(vf_foam *f, VkCommandBuffer cmd);

/** What a renderer needs: positions (vec4 xyz, w lifetime left) and
 * velocities (vec4 xyz, w class) of [0, count) (count on the GPU), a
 * VkDrawIndirectCommand (6 vertices x count) at draw_offset of draw_args.
 * Valid until the next vf_foam_record. */
typedef struct vf_foam_view {
    vf_buffer *positions, *velocities, *draw_args;
    VkDeviceSize draw_offset;
    uint32_t capacity;
} vf_foam_view;
/** Fills out (the buffers are the foam's; they swap every frame). */
void vf_foam_get_view(const vf_foam *f, vf_foam_view *out);

/** Counts without waiting (a copy the GPU makes after each frame, so a
 * frame or two old): live, spray, foam, bubbles. */
void vf_foam_counts_latest(const vf_foam *f, uint32_t out[4]);

/** A host copy of the diffuse particles (waits for the GPU). */
typedef struct vf_foam_host {
    uint32_t state[VF_FOAM_STATE_WORDS]; /* VF_FOAM_STATE_* words */
    uint32_t count;
    float (*pos)[4];
    float (*vel)[4];
} vf_foam_host;
/** Reads the state and the live diffuse particles. Free with vf_foam_host_free. */
vf_result vf_foam_read(vf_foam *f, vf_foam_host *out);
/** Frees a host copy's arrays; safe on a zeroed one. */
void vf_foam_host_free(vf_foam_host *h);
/** Reads the last frame's potentials of the first n fluid particles (vec4:
 * trapped air, wave crest, kinetic energy, generated) and their surface
 * normals (vec4: sum, sum of weights); either may be NULL. Waits. */
vf_result vf_foam_read_potentials(vf_foam *f, uint32_t n, float (*pot)[4], float (*normal)[4]);
/** The push constants of the last recorded frame (for the CPU reference). */
const vf_foam_push *vf_foam_get_push(const vf_foam *f);

#endif
