/* ref_dft: see ref_dft.h. */
#include "ref_dft.h"

#include <math.h>

void vf_ref_dft_line(double *re, double *im, int n, size_t base, size_t step, int sign, double *tr, double *ti)
{
    const double two_pi = 6.283185307179586476925;
    for (int k = 0; k < n; k++) {
        double sr = 0, si = 0;
        for (int x = 0; x < n; x++) {
            double ph = sign * two_pi * (double)((long)k * x % n) / n;
            double a = re[base + (size_t)x * step], b = im[base + (size_t)x * step];
            sr += a * cos(ph) - b * sin(ph);
            si += a * sin(ph) + b * cos(ph);
        }
        tr[k] = sr;
        ti[k] = si;
    }
    for (int k = 0; k < n; k++) {
        re[base + (size_t)k * step] = tr[k];
        im[base + (size_t)k * step] = ti[k];
    }
}
