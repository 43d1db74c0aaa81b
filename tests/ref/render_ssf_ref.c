/* render_ssf_ref: CPU references of the screen-space fluid renderer's compute
 * kernels (ssf_smooth.comp, ssf_blur.comp, ssf_pack.comp, the compute path's
 * splat and resolve: ssf_splat.glsl, ssf_resolve.comp), written to follow
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

/* ---------------------------------------------------------------- splat */

typedef struct v3 {
    float x, y, z;
} v3;

static float dot3(v3 a, v3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* ssf_view_ray: the view-space direction (z = -1) through framebuffer
 * position (fx, fy) of an image of size (w, h). */
static v3 view_ray(const vf_ssf_frame *f, float fx, float fy, float w, float h)
{
    float nx = fx / w * 2.0f - 1.0f, ny = fy / h * 2.0f - 1.0f;
    return (v3){nx / f->proj_params[0], ny / f->proj_params[1], -1.0f};
}

static float ndc_depth(const vf_ssf_frame *f, float z_view)
{
    return (f->proj[10] * z_view + f->proj[14]) / -z_view;
}

/* ssf_sphere_pixel: false on a miss; else the depth, its depth-buffer value
 * and the chord behind the near plane. */
static int sphere_pixel(const vf_ssf_frame *f, v3 c, float r, float fx, float fy, float w, float h, float *depth, float *ndc,
                        float *chord)
{
    v3 d = view_ray(f, fx, fy, w, h);
    float l = sqrtf(dot3(d, d));
    d = (v3){d.x / l, d.y / l, d.z / l};
    float b = dot3(d, c);
    v3 perp = {c.x - d.x * b, c.y - d.y * b, c.z - d.z * b};
    float disc = r * r - dot3(perp, perp);
    if (disc < 0.0f)
        return 0;
    float hh = sqrtf(disc), n = f->proj_params[2];
    float hit_z = d.z * (b - hh);
    if (-hit_z >= n) {
        *depth = -hit_z;
        *ndc = ndc_depth(f, hit_z);
        *chord = 2.0f * hh;
        return 1;
    }
    float t_near = n / -d.z;
    if (b + hh <= t_near)
        return 0;
    *depth = n;
    *ndc = 0.0f;
    *chord = b + hh - t_near;
    return 1;
}

void vf_ssf_splat_ref(const vf_ssf_frame *f, const float *positions, uint32_t count, const float *scene, float *depth,
                      float *thick)
{
    uint32_t w = (uint32_t)f->viewport[0], h = (uint32_t)f->viewport[1];
    uint32_t tw = (uint32_t)f->thick_size[0], th = (uint32_t)f->thick_size[1];
    uint32_t *dacc = malloc((size_t)w * h * sizeof *dacc), *tacc = calloc((size_t)tw * th, sizeof *tacc);
    if (!dacc || !tacc) {
        free(dacc);
        free(tacc);
        return;
    }
    for (size_t i = 0; i < (size_t)w * h; i++)
        dacc[i] = VF_SSF_DEPTH_NONE;
    float r = f->shade[0];
    for (uint32_t i = 0; i < count; i++) {
        const float *p = positions + 4 * (size_t)i;
        v3 c = {f->view[0] * p[0] + f->view[4] * p[1] + f->view[8] * p[2] + f->view[12],
                f->view[1] * p[0] + f->view[5] * p[1] + f->view[9] * p[2] + f->view[13],
                f->view[2] * p[0] + f->view[6] * p[1] + f->view[10] * p[2] + f->view[14]};
        if (!isfinite(c.x) || !isfinite(c.y) || !isfinite(c.z) || dot3(c, c) <= r * r || -c.z + r <= f->proj_params[2])
            continue;
        /* every pixel: the GPU's screen box only leaves out pixels that miss */
        for (uint32_t y = 0; y < h; y++)
            for (uint32_t x = 0; x < w; x++) {
                float dd, ndc, chord;
                if (!sphere_pixel(f, c, r, (float)x + 0.5f, (float)y + 0.5f, (float)w, (float)h, &dd, &ndc, &chord))
                    continue;
                float sc = scene[(size_t)y * w + x];
                uint32_t bits;
                memcpy(&bits, &dd, 4);
                if (ndc < sc && bits < dacc[(size_t)y * w + x])
                    dacc[(size_t)y * w + x] = bits;
                if (tw == w && th == h && ndc <= sc)
                    tacc[(size_t)y * w + x] += (uint32_t)(chord * (float)VF_SSF_THICK_UNITS + 0.5f);
            }
        if (tw == w && th == h)
            continue;
        for (uint32_t y = 0; y < th; y++)
            for (uint32_t x = 0; x < tw; x++) {
                float dd, ndc, chord;
                if (!sphere_pixel(f, c, r, (float)x + 0.5f, (float)y + 0.5f, (float)tw, (float)th, &dd, &ndc, &chord))
                    continue;
                uint32_t sx = (uint32_t)(((float)x + 0.5f) * f->thick_size[2] * (float)w);
                uint32_t sy = (uint32_t)(((float)y + 0.5f) * f->thick_size[3] * (float)h);
                sx = sx < w ? sx : w - 1;
                sy = sy < h ? sy : h - 1;
                if (ndc <= scene[(size_t)sy * w + sx])
                    tacc[(size_t)y * tw + x] += (uint32_t)(chord * (float)VF_SSF_THICK_UNITS + 0.5f);
            }
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        float d = 0.0f;
        if (dacc[i] != VF_SSF_DEPTH_NONE)
            memcpy(&d, &dacc[i], 4);
        depth[i] = d;
    }
    for (size_t i = 0; i < (size_t)tw * th; i++)
        thick[i] = (float)tacc[i] * (float)(1.0 / VF_SSF_THICK_UNITS);
    free(dacc);
    free(tacc);
}
