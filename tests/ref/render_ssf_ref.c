/* render_ssf_ref: CPU references of the screen-space fluid renderer's compute
 * kernels (ssf_smooth.comp, ssf_blur.comp, ssf_pack.comp), written to follow
 * the shaders operation by operation in single precision, so tests can
 * compare GPU and CPU results to a tight tolerance. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render_ssf_ref.h"

#define FAR_DEPTH 3.0e38f

static float fetch(const vf_ssf_smooth_push *p, const float *src, int x, int y, int empty_is_far)
{
    if (x < 0 || y < 0 || x >= (int)p->width || y >= (int)p->height)
        return -1.0f;
    float z = src[(size_t)y * p->width + (size_t)x];
    return z > 0.0f ? z : (empty_is_far ? FAR_DEPTH : 0.0f);
}

static float smooth_pixel(const vf_ssf_smooth_push *p, const float *src, int x, int y)
{
    float z0 = src[(size_t)y * p->width + (size_t)x];
    if (z0 <= 0.0f)
        return 0.0f;
    float r = fminf(fminf(p->max_radius_px, (float)VF_SSF_MAX_RADIUS_PX), p->world_radius * p->focal_px / z0);
    int n = (int)ceilf(r);
    float inv2s2 = r > 0.0f ? 4.5f / (r * r) : 0.0f;
    float sum = z0, wsum = 1.0f;
    if (p->mode == VF_SSF_FILTER_BILATERAL) {
        float inv2z = 0.5f / (p->range_sigma * p->range_sigma);
        for (int i = 1; i <= n; i++) {
            float ws = expf(-(float)(i * i) * inv2s2);
            for (int sgn = -1; sgn <= 1; sgn += 2) {
                float z = fetch(p, src, x + p->dir_x * i * sgn, y + p->dir_y * i * sgn, 0);
                if (z <= 0.0f)
                    continue;
                float dz = z - z0;
                float w = ws * expf(-dz * dz * inv2z);
                sum += w * z;
                wsum += w;
            }
        }
    } else {
        float lo = z0 - p->nr_threshold, hi = z0 + p->nr_threshold;
        for (int i = 1; i <= n; i++) {
            float za = fetch(p, src, x - p->dir_x * i, y - p->dir_y * i, 1);
            float zb = fetch(p, src, x + p->dir_x * i, y + p->dir_y * i, 1);
            if (za < 0.0f || zb < 0.0f || za < lo || zb < lo)
                continue;
            if (za > hi)
                za = z0 + p->nr_clamp;
            if (zb > hi)
                zb = z0 + p->nr_clamp;
            float w = expf(-(float)(i * i) * inv2s2);
            sum += w * (za + zb);
            wsum += 2.0f * w;
            lo = fminf(lo, fminf(za, zb) - p->nr_threshold);
            hi = fmaxf(hi, fmaxf(za, zb) + p->nr_threshold);
        }
    }
    return sum / wsum;
}

void vf_ssf_smooth_pass_ref(const vf_ssf_smooth_push *p, const float *src, float *dst)
{
    for (int y = 0; y < (int)p->height; y++)
        for (int x = 0; x < (int)p->width; x++)
            dst[(size_t)y * p->width + (size_t)x] = smooth_pixel(p, src, x, y);
}

void vf_ssf_smooth_ref(const vf_ssf_smooth_push *p, uint32_t iterations, const float *src, float *dst, float *tmp)
{
    size_t n = (size_t)p->width * p->height;
    memcpy(dst, src, n * sizeof *dst);
    vf_ssf_smooth_push q = *p;
    for (uint32_t it = 0; it < iterations; it++) {
        q.dir_x = 1;
        q.dir_y = 0;
        vf_ssf_smooth_pass_ref(&q, dst, tmp);
        q.dir_x = 0;
        q.dir_y = 1;
        vf_ssf_smooth_pass_ref(&q, tmp, dst);
    }
}

void vf_ssf_blur_pass_ref(const vf_ssf_blur_push *p, const float *src, float *dst)
{
    int w = (int)p->width, h = (int)p->height;
    float inv2s2 = 0.5f / (p->sigma_px * p->sigma_px);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float sum = src[(size_t)y * w + x], wsum = 1.0f;
            if (sum <= 0.0f)
                sum = wsum = 0.0f;
            for (int i = 1; i <= p->radius_px; i++) {
                float wt = expf(-(float)(i * i) * inv2s2);
                for (int sgn = -1; sgn <= 1; sgn += 2) {
                    int qx = x + p->dir_x * i * sgn, qy = y + p->dir_y * i * sgn;
                    if (qx < 0 || qy < 0 || qx >= w || qy >= h)
                        continue;
                    float t = src[(size_t)qy * w + qx];
                    if (t <= 0.0f)
                        continue;
                    sum += wt * t;
                    wsum += wt;
                }
            }
            dst[(size_t)y * w + x] = wsum > 0.0f ? sum / wsum : 0.0f;
        }
}

void vf_ssf_pack_ref(const float *x, const float *y, const float *z, const float *w, float w_const, float *out,
                     uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        out[4 * i + 0] = x[i];
        out[4 * i + 1] = y[i];
        out[4 * i + 2] = z[i];
        out[4 * i + 3] = w ? w[i] : w_const;
    }
}
