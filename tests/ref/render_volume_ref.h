/* render_volume_ref: the CPU reference of the volume renderer's light pass. */
#ifndef VF_RENDER_VOLUME_REF_H
#define VF_RENDER_VOLUME_REF_H

#include <stdint.h>

/** CPU reference of the light pass: for every cell centre of an nx x ny x nz
 * grid of cell size h, exp(-extinction * optical depth) of the trilinear
 * density towards dir in steps of `step`, 0 when the march meets a solid
 * cell (mask != 0). out: nx ny nz floats. */
void vf_render_volume_light_ref(uint32_t nx, uint32_t ny, uint32_t nz, float h, const float *density,
                                const uint32_t *mask, const float dir[3], float step, float extinction, float *out);

#endif
