/* ref_dft: the direct discrete Fourier transform the FFT pressure
 * references (2D and 3D grids) compare VkFFT's transforms with. */
#ifndef VF_REF_DFT_H
#define VF_REF_DFT_H

#include <stddef.h>

/** One line of a separable DFT of complex values (re, im), in place: the n
 * values at base, base + step, ... (sign -1 forward, +1 inverse,
 * unnormalized); tr and ti are scratch arrays of n doubles. */
void vf_ref_dft_line(double *re, double *im, int n, size_t base, size_t step, int sign, double *tr, double *ti);

#endif
