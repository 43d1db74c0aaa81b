/* render_ssf_ref: CPU references of the screen-space fluid compute kernels. */
#ifndef VF_RENDER_SSF_REF_H
#define VF_RENDER_SSF_REF_H

#include "render_ssf.h"


/** One 1D pass of ssf_smooth.comp on a w x h R32F image (row-major, 0 = no
 * fluid) with the push constants p (dir, size, filter parameters). */
void vf_ssf_smooth_pass_ref(const vf_ssf_smooth_push *p, const float *src, float *dst);
/** The whole depth smoothing: iterations x (x pass, then y pass) starting
 * from src; dst gets the result (src is kept; tmp holds w*h floats of scratch). */
void vf_ssf_smooth_ref(const vf_ssf_smooth_push *p, uint32_t iterations, const float *src, float *dst, float *tmp);
/** One 1D pass of ssf_blur.comp. */
void vf_ssf_blur_pass_ref(const vf_ssf_blur_push *p, const float *src, float *dst);
/** ssf_pack.comp: out (4 floats per particle) from x, y, z and w (may be NULL). */
void vf_ssf_pack_ref(const float *x, const float *y, const float *z, const float *w, float w_const, float *out,
                     uint32_t count);

/** The compute path's splat (ssf_splat.glsl, both its shaders) and resolve
 * (ssf_resolve.comp) of `count` particles (positions: 4 floats each, xyz
 * world metres) with the frame constants f (vf_render_ssf_frame: camera,
 * radius in shade[0], viewport and thickness sizes) over the scene's
 * depth-buffer values scene (viewport size, row-major): depth gets the
 * nearest front depth per pixel (0: none; viewport size), thick the summed
 * chords in metres (thickness size), both as the GPU's resolve writes them
 * (the thickness in VF_SSF_THICK_UNITS fixed point, summed per sphere).
 * Spheres at the near plane keep their part behind it; non-finite centres
 * and spheres holding the eye leave nothing. */
void vf_ssf_splat_ref(const vf_ssf_frame *f, const float *positions, uint32_t count, const float *scene, float *depth,
                      float *thick);

#endif
