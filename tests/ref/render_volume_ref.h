/* render_volume_ref: the CPU reference of the volume renderer's light pass
 * and of its black-body colours. */
#ifndef VF_RENDER_VOLUME_REF_H
#define VF_RENDER_VOLUME_REF_H

#include <stdint.h>

/** CPU reference of the light pass: for every cell centre of an nx x ny x nz
 * grid of cell size h, exp(-extinction * optical depth) of the trilinear
 * density towards dir in steps of `step`, 0 when the march meets a solid
 * cell (mask != 0). out: nx ny nz floats. */
void vf_render_volume_light_ref(uint32_t nx, uint32_t ny, uint32_t nz, float h, const float *density,
                                const uint32_t *mask, const float dir[3], float step, float extinction, float *out);

/** CIE 1931 XYZ (unnormalised) of a black body at kelvin: Planck's law
 * integrated from 360 to 830 nm in 1 nm steps against the piecewise-Gaussian
 * fit of the colour matching functions (Wyman, Sloan and Shirley 2013). */
void vf_blackbody_xyz_ref(double kelvin, double xyz[3]);

/** The black body's colour as shared_volume.h tabulates it: linear sRGB (D65)
 * of vf_blackbody_xyz_ref, negative components clamped to 0, scaled to
 * luminance 1. */
void vf_blackbody_rgb_ref(double kelvin, double rgb[3]);

#endif
