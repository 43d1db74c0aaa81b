/* scenes_terrain: the terrain scene (see scenes_terrain.h). */
#include "scenes_terrain.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "png_io.h"
#include "text.h"

_Static_assert(offsetof(vf_terrain_scene_desc, solver) == 0, "vf_terrain_params address the scene desc");

/* The shapes a terrain scene takes: a heightmap, camera and render settings
 * (its sources and drains are keys). */
static vf_result check_shapes(const vf_terrain_scene_desc *sd, char *err, size_t cap)
{
    const vf_terrain_desc *d = &sd->solver;
    vf_shapes_caps caps = {.family = "terrain", .dims = 2, .hi = {d->nx * d->dx, d->ny * d->dx, 0}, .heightmap = true};
    return vf_shapes_check(&sd->shapes, &caps, err, cap);
}

/* The heightmap's samples in metres (w x h, row 0 at the far side). */
typedef struct samples {
    float *z;
    uint32_t w, h;
} samples;

/* The file's name for messages (its last part, made safe). */
static const char *file_name(const vf_scene_heightmap *hm, char out[48])
{
    const char *base = strrchr(hm->file, '/');
    vf_text_safe(base ? base + 1 : hm->file, out, 48, 40);
    return out;
}

static bool is_png(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && (!strcmp(path + n - 4, ".png") || !strcmp(path + n - 4, ".PNG"));
}

/* Raw little-endian float32 samples, width x height of them, finite. */
static vf_result load_raw(const vf_scene_heightmap *hm, samples *out, char *err, size_t cap)
{
    char name[48];
    if (!hm->width || !hm->height) {
        snprintf(err, cap, "heightmap.width: a raw heightmap (%s) needs its width and height in samples", file_name(hm, name));
        return VF_ERR_INVALID_ARG;
    }
    struct stat st;
    FILE *f = stat(hm->file, &st) == 0 && S_ISREG(st.st_mode) ? fopen(hm->file, "rb") : NULL;
    if (!f) {
        snprintf(err, cap, "heightmap.file: cannot read %s: check the path (relative to the scene file)", file_name(hm, name));
        return VF_ERR_IO;
    }
    size_t n = (size_t)hm->width * hm->height;
    out->z = malloc(n * 4);
    unsigned char *buf = malloc(n * 4 + 1);
    size_t got = out->z && buf ? fread(buf, 1, n * 4 + 1, f) : 0;
    fclose(f);
    vf_result res = VF_OK;
    if (!out->z || !buf) {
        snprintf(err, cap, "heightmap.width: no memory for %u x %u samples: use a smaller map", hm->width, hm->height);
        res = VF_ERR_NO_MEMORY;
    } else if (got != n * 4) {
        snprintf(err, cap, "heightmap.file: %s holds %zu bytes, not the %zu of %u x %u float32 samples: check width and height",
                 file_name(hm, name), got, n * 4, hm->width, hm->height);
        res = VF_ERR_INVALID_ARG;
    }
    for (size_t i = 0; i < n && res == VF_OK; i++) {
        uint32_t u = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
                     (uint32_t)buf[4 * i + 3] << 24;
        memcpy(&out->z[i], &u, 4);
        if (!isfinite(out->z[i]) || fabsf(out->z[i]) > 1e5f) {
            snprintf(err, cap, "heightmap.file: %s: sample %zu is %g: elevations must be finite metres within 1e5",
                     file_name(hm, name), i, out->z[i]);
            res = VF_ERR_INVALID_ARG;
        }
    }
    free(buf);
    out->w = hm->width;
    out->h = hm->height;
    if (res != VF_OK) {
        free(out->z);
        out->z = NULL;
    }
    return res;
}

/* A 16-bit PNG, grey 0 at low and 65535 at high. */
static vf_result load_png(const vf_scene_heightmap *hm, samples *out, char *err, size_t cap)
{
    uint16_t *px = NULL;
    vf_png_detail why = {0};
    char name[48];
    vf_result res = vf_png_read_gray16(hm->file, &px, &out->w, &out->h, &why);
    if (res != VF_OK) {
        snprintf(err, cap, "heightmap.file: %s: %s: %s", file_name(hm, name), why.what, why.fix ? why.fix : "give a png");
        return res;
    }
    size_t n = (size_t)out->w * out->h;
    if (out->w < 2 || out->h < 2 || !(out->z = malloc(n * 4))) {
        free(px);
        snprintf(err, cap, "heightmap.file: %s: %s", file_name(hm, name),
                 out->w < 2 || out->h < 2 ? "at least 2 x 2 pixels" : "no memory for its samples");
        return out->w < 2 || out->h < 2 ? VF_ERR_INVALID_ARG : VF_ERR_NO_MEMORY;
    }
    for (size_t i = 0; i < n; i++)
        out->z[i] = (float)(hm->low + (hm->high - hm->low) * px[i] / 65535.0);
    free(px);
    return VF_OK;
}

/* The grid a heightmap gives: nx from the key, dx = size_x / nx, ny = size_y / dx. */
static void map_grid(const vf_scene_heightmap *hm, vf_terrain_desc *d)
{
    d->dx = hm->size[0] / d->nx;
    double ny = floor(hm->size[1] / d->dx + 0.5);
    d->ny = ny < 2 ? 2 : ny > 8192 ? 8192 : (int)ny;
}

/* Bilinear samples at the cell centres into ground (nx * ny, row 0 at y = 0). */
static void resample(const samples *s, const vf_scene_heightmap *hm, const vf_terrain_desc *d, float *ground)
{
    for (int j = 0; j < d->ny; j++)
        for (int i = 0; i < d->nx; i++) {
            double u = (i + 0.5) * d->dx / hm->size[0] * s->w - 0.5;
            double v = (1.0 - (j + 0.5) * d->dx / hm->size[1]) * s->h - 0.5;
            u = fmin(fmax(u, 0.0), s->w - 1.0);
            v = fmin(fmax(v, 0.0), s->h - 1.0);
            uint32_t u0 = (uint32_t)u, v0 = (uint32_t)v, u1 = u0 + 1 < s->w ? u0 + 1 : u0, v1 = v0 + 1 < s->h ? v0 + 1 : v0;
            double tu = u - u0, tv = v - v0;
            double a = s->z[(size_t)v0 * s->w + u0] * (1 - tu) + s->z[(size_t)v0 * s->w + u1] * tu;
            double b = s->z[(size_t)v1 * s->w + u0] * (1 - tu) + s->z[(size_t)v1 * s->w + u1] * tu;
            ground[(size_t)j * d->nx + i] = (float)(a * (1 - tv) + b * tv);
        }
}

/* The solver desc of a scene: the keys, with the heightmap's grid and
 * ground when it has one (*ground then owned by the caller). check: also
 * check the shapes (false: validated before; the heightmap is read again,
 * and a file that changed since can still fail to load). */
static vf_result scene_to_desc(const vf_terrain_scene_desc *sd, vf_terrain_desc *d, float **ground, bool check,
                               const char **key, char *err, size_t cap)
{
    *d = sd->solver;
    d->heightmap = NULL;
    *ground = NULL;
    vf_result res = check ? check_shapes(sd, err, cap) : VF_OK;
    const vf_scene_heightmap *hm = &sd->shapes.heightmap;
    if (res != VF_OK || !hm->given)
        return res;
    map_grid(hm, d);
    samples s = {0};
    res = is_png(hm->file) ? load_png(hm, &s, err, cap) : load_raw(hm, &s, err, cap);
    if (res != VF_OK)
        return res;
    if (!(*ground = malloc((size_t)d->nx * d->ny * 4))) {
        free(s.z);
        vf_set_key_err(key, err, cap, "nx", "=%d: no memory for %d x %d cells: use fewer cells", d->nx, d->nx, d->ny);
        return VF_ERR_NO_MEMORY;
    }
    resample(&s, hm, d, *ground);
    free(s.z);
    d->heightmap = *ground;
    return VF_OK;
}

vf_result vf_terrain_scene_validate(const vf_terrain_scene_desc *desc, const char **key, char *err, size_t cap)
{
    vf_terrain_desc d;
    float *ground;
    vf_result res = scene_to_desc(desc, &d, &ground, true, key, err, cap);
    if (res == VF_OK)
        res = vf_terrain_validate(&d, key, err, cap);
    free(ground);
    return res;
}

vf_result vf_terrain_scene_create(vf_gpu *gpu, const vf_terrain_scene_desc *desc, vf_solver **out,
                                  const char **key, char *err, size_t cap)
{
    char dummy_err[8];
    err = vf_err_buffer(err, &cap, dummy_err, sizeof dummy_err);
    *out = NULL;
    vf_terrain_desc d;
    float *ground;
    vf_result res = scene_to_desc(desc, &d, &ground, false, key, err, cap); /* validated by vf_terrain_scene_validate */
    if (res == VF_OK)
        res = vf_solver_create(gpu, &vf_terrain_family, &d, out, key, err, cap); /* checks only the device */
    free(ground);
    return res;
}

static vf_result scene_validate(const vf_scene_info *scene, const void *desc, const char **key, char *err, size_t cap)
{
    (void)scene;
    return vf_terrain_scene_validate(desc, key, err, cap);
}

static vf_result scene_create(const vf_scene_info *scene, vf_gpu *gpu, const void *desc, vf_solver **out,
                              const char **key, char *err,
                              size_t cap)
{
    (void)scene;
    return vf_terrain_scene_create(gpu, desc, out, key, err, cap);
}

const vf_scene_info vf_terrain_scene_terrain = {
    .name = "terrain",
    .family = "terrain",
    .description = "water over a changing terrain: a bulldozer breaches a dam and the lake runs down the valley",
    .params = vf_terrain_params,
    .param_count = VF_TERRAIN_PARAM_COUNT,
    .desc_size = sizeof(vf_terrain_scene_desc),
    .shapes_offset = offsetof(vf_terrain_scene_desc, shapes),
    .validate = scene_validate,
    .create = scene_create,
};
