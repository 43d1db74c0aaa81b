/* render_caustics: caustics on the floor of height-field water.
 *
 * Each frame the sun's light is refracted through the height field's slopes
 * and scattered as photons onto a floor accumulator of one uint per cell
 * (the model and the fixed point: shared_height.h, vf_caustics_push). The
 * surface renderer binds the accumulator and brightens the floor it sees
 * through the water by the intensity, acc / VF_CAUSTICS_ONE (1 under flat
 * water). Everything stays on the GPU; vf_caustics_reference is the CPU
 * reference the tests compare with. */
#ifndef VF_RENDER_CAUSTICS_H
#define VF_RENDER_CAUSTICS_H
#include "gpu_buffer.h"
#include "gpu_context.h"
#include "shared_height.h"

typedef struct vf_caustics vf_caustics;

typedef struct vf_caustics_desc {
    uint32_t nx, ny; /* the height field's cells (required, > 0) */
    uint32_t sub;    /* photons per cell side; 0 = 4; at most VF_CAUSTICS_MAX_SUB */
} vf_caustics_desc;

/** Creates the pass and its accumulator (nx * ny uints). VF_ERR_INVALID_ARG
 * for a zero size or sub > VF_CAUSTICS_MAX_SUB. On success *out is owned by
 * the caller (vf_caustics_destroy). */
vf_result vf_caustics_create(vf_gpu *gpu, const vf_caustics_desc *desc, vf_caustics **out);

/** Destroys the pass; accepts NULL and a NULL *c. */
void vf_caustics_destroy(vf_caustics **c);

/** The push constants for a frame: the desc's size and sub, cell size dx (m),
 * the unit vector towards the sun in domain axes (x, y, z up) and the water's
 * refraction index. */
vf_caustics_push vf_caustics_params(const vf_caustics *c, float dx, const float light[3], float ior);

/** Records the pass: clears the accumulator and scatters the photons of
 * eta / bed / flags (the height solver's buffers, nx * ny each; not owned).
 * Barriers order it after the fragment shaders of the previous use of the
 * accumulator and before this frame's fragment shaders. The caller orders
 * the solver's writes of eta before it (vf_render_barrier_after_sim). */
void vf_caustics_record(vf_caustics *c, VkCommandBuffer cmd, const vf_caustics_push *p, vf_buffer *eta, vf_buffer *bed,
                        vf_buffer *flags);

/** The accumulator (owned by c): one uint per cell, VF_CAUSTICS_ONE = 1. */
vf_buffer *vf_caustics_buffer(const vf_caustics *c);

/** CPU reference of the pass: the same photons, in the same fixed point, into
 * acc (p->nx * p->ny uints, overwritten). eta, bed (floats) and flags (uints)
 * hold p->nx * p->ny cells each; none may be NULL. */
void vf_caustics_reference(const vf_caustics_push *p, const float *eta, const float *bed, const uint32_t *flags,
                           uint32_t *acc);
#endif
