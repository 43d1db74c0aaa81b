/* sph_foam_ref: the CPU reference of the foam passes. */
#ifndef VF_SPH_FOAM_REF_H
#define VF_SPH_FOAM_REF_H

#include "shared_sph.h"
#include "sph_foam.h"


/** foam_normals and foam_potential over n fluid particles (any order; all
 * pairs closer than h): normal (vec4) and pot (vec4) per particle. */
void vf_foam_ref_potentials(const vf_sph_params *prm, const vf_foam_push *p, uint32_t n, const float (*pos)[4],
                            const float (*vel)[4], const uint32_t *id, float (*normal)[4], float (*pot)[4]);
/** foam_potential alone, from given normals (normal[i].w = the sum of the
 * weights): pot (vec4) per particle. */
void vf_foam_ref_potentials_of(const vf_sph_params *prm, const vf_foam_push *p, uint32_t n, const float (*pos)[4],
                               const float (*vel)[4], const uint32_t *id, const float (*normal)[4], float (*pot)[4]);
/** The class foam_update gives a diffuse particle at x among n fluid particles. */
uint32_t vf_foam_ref_class(const vf_sph_params *prm, const vf_foam_push *p, uint32_t n, const float (*pos)[4],
                           const float x[3]);
/** The random number of foam_random (uniform in [0, 1)). */
float vf_foam_ref_random(uint32_t id, uint32_t frame, uint32_t stream);

#endif
