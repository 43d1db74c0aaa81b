#include "render_volume_ref.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

static float ref_density(uint32_t nx, uint32_t ny, uint32_t nz, float h, const float *rho, const float x[3])
{
    int d[3] = {(int)nx, (int)ny, (int)nz}, i0[3];
    float f[3];
    for (int a = 0; a < 3; a++) {
        float g = x[a] / h - 0.5f;
        g = g < 0 ? 0 : g > (float)(d[a] - 1) ? (float)(d[a] - 1) : g;
        int i = (int)floorf(g);
        if (i > d[a] - 2)
            i = d[a] - 2;
        i0[a] = i;
        f[a] = g - (float)i;
    }
    float v[8];
    for (int n = 0; n < 8; n++) {
        int X = i0[0] + (n & 1), Y = i0[1] + ((n >> 1) & 1), Z = i0[2] + ((n >> 2) & 1);
        v[n] = rho[((size_t)Z * ny + Y) * nx + X];
    }
#define L(a, b, t) ((a) + (t) * ((b) - (a)))
    float x00 = L(v[0], v[1], f[0]), x10 = L(v[2], v[3], f[0]), x01 = L(v[4], v[5], f[0]), x11 = L(v[6], v[7], f[0]);
    return L(L(x00, x10, f[1]), L(x01, x11, f[1]), f[2]);
#undef L
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
