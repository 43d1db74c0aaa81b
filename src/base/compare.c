#include "compare.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SSIM_K1 0.01
#define SSIM_K2 0.03
#define SSIM_L 255.0
#define SSIM_R (VF_SSIM_WINDOW / 2)

/* The five windowed quantities of SSIM: x, y, x^2, y^2, x*y. */
enum { Q_X, Q_Y, Q_XX, Q_YY, Q_XY, Q_COUNT };

static bool args_ok(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h)
{
    return a && b && w > 0 && h > 0;
}

static inline double luma(const uint8_t *p)
{
    return 0.2126 * p[0] + 0.7152 * p[1] + 0.0722 * p[2];
}

static inline double ssim_formula(double mx, double my, double sxx, double syy, double sxy)
{
    const double c1 = (SSIM_K1 * SSIM_L) * (SSIM_K1 * SSIM_L);
    const double c2 = (SSIM_K2 * SSIM_L) * (SSIM_K2 * SSIM_L);
    return ((2.0 * mx * my + c1) * (2.0 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2));
}

double vf_compare_psnr_from_mse(double mse)
{
    if (!(mse > 0.0))
        return INFINITY;
    return 10.0 * log10(255.0 * 255.0 / mse);
}

/* One window over the whole image with uniform weights (images under 11 px). */
static vf_result ssim_global(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, double *ssim)
{
    size_t n = (size_t)w * h;
    double mx = 0.0, my = 0.0;
    for (size_t i = 0; i < n; i++) {
        mx += luma(a + 4 * i);
        my += luma(b + 4 * i);
    }
    mx /= (double)n;
    my /= (double)n;
    double sxx = 0.0, syy = 0.0, sxy = 0.0;
    for (size_t i = 0; i < n; i++) {
        double dx = luma(a + 4 * i) - mx, dy = luma(b + 4 * i) - my;
        sxx += dx * dx;
        syy += dy * dy;
        sxy += dx * dy;
    }
    *ssim = ssim_formula(mx, my, sxx / (double)n, syy / (double)n, sxy / (double)n);
    return VF_OK;
}

/* Gaussian windows at every valid position, separably: each input row is
 * filtered horizontally into a ring of the last 11 rows, and every complete
 * ring gives one output row by filtering vertically. */
static vf_result ssim_gaussian(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, double *ssim)
{
    double g[VF_SSIM_WINDOW], gsum = 0.0;
    for (int k = 0; k < VF_SSIM_WINDOW; k++) {
        double t = (double)(k - SSIM_R);
        g[k] = exp(-(t * t) / (2.0 * VF_SSIM_SIGMA * VF_SSIM_SIGMA));
        gsum += g[k];
    }
    for (int k = 0; k < VF_SSIM_WINDOW; k++)
        g[k] /= gsum;

    size_t ow = (size_t)w - (VF_SSIM_WINDOW - 1), oh = (size_t)h - (VF_SSIM_WINDOW - 1);
    double *lx = malloc(sizeof(double) * 2 * w);
    double *ring = malloc(sizeof(double) * Q_COUNT * VF_SSIM_WINDOW * ow);
    if (!lx || !ring) {
        free(lx);
        free(ring);
        return VF_ERR_NO_MEMORY;
    }
    double *ly = lx + w;
    double total = 0.0;
    for (size_t y = 0; y < h; y++) {
        const uint8_t *ra = a + (size_t)4 * w * y, *rb = b + (size_t)4 * w * y;
        for (size_t x = 0; x < w; x++) {
            lx[x] = luma(ra + 4 * x);
            ly[x] = luma(rb + 4 * x);
        }
        double *slot = ring + (y % VF_SSIM_WINDOW) * Q_COUNT * ow;
        for (size_t ox = 0; ox < ow; ox++) {
            double s[Q_COUNT] = {0};
            for (int k = 0; k < VF_SSIM_WINDOW; k++) {
                double vx = lx[ox + (size_t)k], vy = ly[ox + (size_t)k], gk = g[k];
                s[Q_X] += gk * vx;
                s[Q_Y] += gk * vy;
                s[Q_XX] += gk * vx * vx;
                s[Q_YY] += gk * vy * vy;
                s[Q_XY] += gk * vx * vy;
            }
            for (int q = 0; q < Q_COUNT; q++)
                slot[(size_t)q * ow + ox] = s[q];
        }
        if (y < VF_SSIM_WINDOW - 1)
            continue;
        size_t oy = y - (VF_SSIM_WINDOW - 1);
        double row_total = 0.0;
        for (size_t ox = 0; ox < ow; ox++) {
            double s[Q_COUNT] = {0};
            for (int k = 0; k < VF_SSIM_WINDOW; k++) {
                const double *src = ring + ((oy + (size_t)k) % VF_SSIM_WINDOW) * Q_COUNT * ow;
                for (int q = 0; q < Q_COUNT; q++)
                    s[q] += g[k] * src[(size_t)q * ow + ox];
            }
            double mx = s[Q_X], my = s[Q_Y];
            row_total += ssim_formula(mx, my, s[Q_XX] - mx * mx, s[Q_YY] - my * my, s[Q_XY] - mx * my);
        }
        total += row_total;
    }
    free(lx);
    free(ring);
    *ssim = total / ((double)ow * (double)oh);
    return VF_OK;
}

vf_result vf_compare_ssim(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h, double *ssim)
{
    if (!args_ok(a, b, w, h) || !ssim)
        return VF_ERR_INVALID_ARG;
    if (w < VF_SSIM_WINDOW || h < VF_SSIM_WINDOW)
        return ssim_global(a, b, w, h, ssim);
    return ssim_gaussian(a, b, w, h, ssim);
}

vf_result vf_compare_images(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h,
                            uint32_t tolerance, vf_compare_stats *out)
{
    if (!args_ok(a, b, w, h) || !out || tolerance > 255)
        return VF_ERR_INVALID_ARG;
    size_t n = (size_t)w * h;
    uint64_t sum_abs = 0, sum_sq = 0, differ = 0;
    uint32_t max_abs = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t pixel_max = 0;
        for (int c = 0; c < 3; c++) {
            int d = (int)a[4 * i + (size_t)c] - (int)b[4 * i + (size_t)c];
            uint32_t ad = (uint32_t)(d < 0 ? -d : d);
            sum_abs += ad;
            sum_sq += (uint64_t)ad * ad;
            if (ad > pixel_max)
                pixel_max = ad;
        }
        if (pixel_max > max_abs)
            max_abs = pixel_max;
        if (pixel_max > tolerance)
            differ++;
    }
    double ssim = 0.0;
    vf_result r = vf_compare_ssim(a, b, w, h, &ssim);
    if (r != VF_OK)
        return r;
    double samples = 3.0 * (double)n;
    memset(out, 0, sizeof *out);
    out->width = w;
    out->height = h;
    out->mse = (double)sum_sq / samples;
    out->psnr = sum_sq == 0 ? INFINITY : vf_compare_psnr_from_mse(out->mse);
    out->ssim = ssim;
    out->mean_abs = (double)sum_abs / samples;
    out->max_abs = max_abs;
    out->tolerance = tolerance;
    out->differ_count = differ;
    out->differ_share = (double)differ / (double)n;
    return VF_OK;
}

/* matplotlib's "inferno" (CC0, van der Walt and Smith), 8-bit, sampled at
 * entries round(i * 255 / 16) of its 256-entry table, i = 0..16. */
static const uint8_t inferno17[17][3] = {
    {0, 0, 4},       {11, 7, 36},    {33, 12, 74},   {61, 9, 101},   {87, 16, 110},  {113, 25, 110},
    {138, 34, 106},  {163, 44, 97},  {188, 55, 84},  {208, 69, 69},  {227, 89, 51},  {241, 113, 31},
    {249, 140, 10},  {252, 170, 15}, {249, 201, 50}, {242, 232, 101}, {252, 255, 164},
};

void vf_compare_heat_color(uint32_t m, uint8_t rgb[3])
{
    if (m == 0) {
        rgb[0] = rgb[1] = rgb[2] = 0;
        return;
    }
    if (m > 255)
        m = 255;
    double p = log2(1.0 + (double)m) / 8.0 * 16.0; /* 0 < p <= 16 */
    int i = (int)p;
    if (i >= 16)
        i = 15;
    double f = p - (double)i;
    for (int c = 0; c < 3; c++) {
        double v = (1.0 - f) * inferno17[i][c] + f * inferno17[i + 1][c];
        rgb[c] = (uint8_t)lround(v);
    }
}

vf_result vf_compare_diff_image(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h,
                                uint8_t **diff_out)
{
    if (diff_out)
        *diff_out = NULL;
    if (!args_ok(a, b, w, h) || !diff_out)
        return VF_ERR_INVALID_ARG;
    size_t n = (size_t)w * h;
    uint8_t *out = malloc(4 * n);
    if (!out)
        return VF_ERR_NO_MEMORY;
    uint8_t lut[256][3];
    for (uint32_t m = 0; m < 256; m++)
        vf_compare_heat_color(m, lut[m]);
    for (size_t i = 0; i < n; i++) {
        int m = 0;
        for (int c = 0; c < 3; c++) {
            int d = abs((int)a[4 * i + (size_t)c] - (int)b[4 * i + (size_t)c]);
            if (d > m)
                m = d;
        }
        memcpy(out + 4 * i, lut[m], 3);
        out[4 * i + 3] = 255;
    }
    *diff_out = out;
    return VF_OK;
}
