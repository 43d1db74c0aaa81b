#include "render_volume_ref.h"

#include "solver_grid3d_ref.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

static float ref_density(uint32_t nx, uint32_t ny, uint32_t nz, float h, const float *rho, const float x[3])
{
    int d[3] = {(int)nx, (int)ny, (int)nz};
    float gc[3] = {x[0] / h - 0.5f, x[1] / h - 0.5f, x[2] / h - 0.5f}, lo, hi;
    return vf_g3ref_trilinear(NULL, rho, 0, d, gc, &lo, &hi);
}

void vf_render_volume_light_ref(uint32_t nx, uint32_t ny, uint32_t nz, float h, const float *density,
                                const uint32_t *mask, const float dir[3], float step, float extinction, float *out)
{
    float ext[3] = {h * nx, h * ny, h * nz};
    int maxn = (int)ceilf(sqrtf(ext[0] * ext[0] + ext[1] * ext[1] + ext[2] * ext[2]) / step) + 1;
    for (uint32_t k = 0; k < nz; k++)
        for (uint32_t j = 0; j < ny; j++)
            for (uint32_t i = 0; i < nx; i++) {
                float x[3] = {((float)i + 0.5f) * h, ((float)j + 0.5f) * h, ((float)k + 0.5f) * h}, tau = 0, t = 1;
                for (int s = 0; s < maxn; s++) {
                    bool outside = false;
                    for (int a = 0; a < 3; a++) {
                        x[a] += dir[a] * step;
                        outside |= x[a] < 0 || x[a] > ext[a];
                    }
                    if (outside)
                        break;
                    int c[3];
                    for (int a = 0; a < 3; a++) {
                        int q = (int)floorf(x[a] / h);
                        int n = a == 0 ? (int)nx : a == 1 ? (int)ny : (int)nz;
                        c[a] = q < 0 ? 0 : q > n - 1 ? n - 1 : q;
                    }
                    if (mask[((size_t)c[2] * ny + c[1]) * nx + c[0]] != 0) {
                        t = 0;
                        break;
                    }
                    tau += ref_density(nx, ny, nz, h, density, x) * step;
                }
                out[((size_t)k * ny + j) * nx + i] = t * expf(-extinction * tau);
            }
}

/* One lobe of the CIE 1931 fit of Wyman, Sloan and Shirley 2013: a Gaussian
 * of width s1 below mu and s2 above. */
static double lobe(double nm, double mu, double s1, double s2)
{
    double t = (nm - mu) / (nm < mu ? s1 : s2);
    return exp(-0.5 * t * t);
}

void vf_blackbody_xyz_ref(double kelvin, double xyz[3])
{
    const double h = 6.62607015e-34, c = 2.99792458e8, kb = 1.380649e-23;
    xyz[0] = xyz[1] = xyz[2] = 0;
    for (int nm = 360; nm <= 830; nm++) {
        double l = nm * 1e-9;
        double b = 2 * h * c * c / pow(l, 5) / (exp(h * c / (l * kb * kelvin)) - 1); /* Planck */
        xyz[0] += b * (1.056 * lobe(nm, 599.8, 37.9, 31.0) + 0.362 * lobe(nm, 442.0, 16.0, 26.7) -
                       0.065 * lobe(nm, 501.1, 20.4, 26.2));
        xyz[1] += b * (0.821 * lobe(nm, 568.8, 46.9, 40.5) + 0.286 * lobe(nm, 530.9, 16.3, 31.1));
        xyz[2] += b * (1.217 * lobe(nm, 437.0, 11.8, 36.0) + 0.681 * lobe(nm, 459.0, 26.0, 13.8));
    }
}

void vf_blackbody_rgb_ref(double kelvin, double rgb[3])
{
    double xyz[3];
    vf_blackbody_xyz_ref(kelvin, xyz);
    double x = xyz[0] / xyz[1], z = xyz[2] / xyz[1]; /* Y = 1 */
    rgb[0] = 3.2406 * x - 1.5372 - 0.4986 * z;
    rgb[1] = -0.9689 * x + 1.8758 + 0.0415 * z;
    rgb[2] = 0.0557 * x - 0.2040 + 1.0570 * z;
    for (int k = 0; k < 3; k++)
        rgb[k] = rgb[k] > 0 ? rgb[k] : 0;
    double lum = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    for (int k = 0; k < 3; k++)
        rgb[k] /= lum;
}
