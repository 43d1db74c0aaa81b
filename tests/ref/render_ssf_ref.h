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

#endif
