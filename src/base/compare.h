/* compare: image difference metrics over two RGBA8 images of the same size.
 *
 * Images are w x h, 4 bytes per pixel (R, G, B, A), rows top to bottom,
 * tightly packed. Alpha is ignored by every metric: the simulator's captures
 * are opaque, and a difference that only shows in alpha is not visible.
 *
 * Definitions (N = w * h pixels, d = |a - b| per channel in 0..255):
 *   mse       mean of d^2 over the 3N R, G, B samples
 *   psnr      10 * log10(255^2 / mse) in dB; +INFINITY when mse == 0
 *   mean      mean of d over the 3N R, G, B samples (0..255)
 *   max       largest d over all R, G, B samples (0..255)
 *   differ    share (0..1) of the N pixels whose largest channel difference
 *             max(dR, dG, dB) exceeds the tolerance (strictly greater);
 *             VF_COMPARE_DEFAULT_TOLERANCE is 2 levels
 *   ssim      mean SSIM of Wang, Bovik, Sheikh, Simoncelli (IEEE TIP 2004)
 *             on luma Y = 0.2126 R + 0.7152 G + 0.0722 B (Rec. 709, in
 *             0..255, no gamma decoding), with an 11x11 Gaussian window of
 *             sigma 1.5 normalised to sum 1, K1 = 0.01, K2 = 0.03, L = 255,
 *             C1 = (K1 L)^2, C2 = (K2 L)^2, and per window
 *               SSIM = (2 mx my + C1)(2 sxy + C2) / ((mx^2 + my^2 + C1)(sx^2 + sy^2 + C2))
 *             with Gaussian-weighted means, variances and covariance (the
 *             biased, weights-sum-to-1 form, as in the authors' ssim_index.m).
 *             Borders: "valid" windows only, i.e. the mean over the
 *             (w - 10) x (h - 10) window positions that lie wholly inside the
 *             image; no padding and no automatic downsampling. When w < 11 or
 *             h < 11 there is no valid position and a single global window is
 *             used instead: uniform weights over the whole image (plain means,
 *             population variances and covariance).
 *             Identical images give exactly 1. */
#ifndef VF_COMPARE_H
#define VF_COMPARE_H

#include <stdint.h>

#include "vf_error.h"

/** Default tolerance of the differ share: a pixel differs when its largest
 * channel difference is more than 2 levels (out of 255). */
#define VF_COMPARE_DEFAULT_TOLERANCE 2u

/** Side of the SSIM Gaussian window (pixels) and its sigma. */
#define VF_SSIM_WINDOW 11
#define VF_SSIM_SIGMA 1.5

/** The metrics of one image pair; see the definitions above. */
typedef struct vf_compare_stats {
    uint32_t width, height;
    double mse;            /* over R, G, B */
    double psnr;           /* dB; +INFINITY when identical in R, G, B */
    double ssim;           /* mean SSIM on luma, at most 1 */
    double mean_abs;       /* 0..255 */
    uint32_t max_abs;      /* 0..255 */
    uint32_t tolerance;    /* the tolerance used for differ, in levels */
    uint64_t differ_count; /* pixels whose largest channel difference > tolerance */
    double differ_share;   /* differ_count / (w * h), 0..1 */
} vf_compare_stats;

/** Computes every metric of the pair a, b (both w x h RGBA8) into *out.
 * tolerance (levels, 0..255) sets which pixels count in differ. Returns
 * VF_ERR_INVALID_ARG for NULL pointers, a zero size or a tolerance above 255,
 * VF_ERR_NO_MEMORY when the SSIM work buffers cannot be allocated. */
vf_result vf_compare_images(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h,
                            uint32_t tolerance, vf_compare_stats *out);

/** PSNR in dB of a mean squared error on 0..255 samples: 10 log10(255^2 / mse),
 * +INFINITY when mse <= 0. */
double vf_compare_psnr_from_mse(double mse);

/** Computes the mean SSIM of a and b (w x h RGBA8; see the definition above)
 * into *ssim. Returns VF_ERR_INVALID_ARG for NULL pointers or a zero size,
 * VF_ERR_NO_MEMORY when the work buffers cannot be allocated. */
vf_result vf_compare_ssim(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, double *ssim);

/** Makes a heat-map image of the difference: each pixel's largest channel
 * difference m = max(dR, dG, dB) becomes a colour of matplotlib's perceptual
 * "inferno" ramp at t = log2(1 + m) / 8 (so 1 level is already visible and
 * 255 reaches the top, pale yellow); m == 0 is pure black. Alpha is 255.
 * On success *diff_out owns a new w x h RGBA8 buffer (free() it). Returns
 * VF_ERR_INVALID_ARG for NULL pointers or a zero size, VF_ERR_NO_MEMORY. */
vf_result vf_compare_diff_image(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h,
                                uint8_t **diff_out);

/** The heat-map colour (RGB) of a largest channel difference m (0..255), as
 * used by vf_compare_diff_image; rgb must hold 3 bytes. */
void vf_compare_heat_color(uint32_t m, uint8_t rgb[3]);

#endif
