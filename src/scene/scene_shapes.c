/* scene_shapes: shape lists, camera and render settings of scene files. */
#include "scene_shapes.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_io.h"
#include "text.h"
#include "scene_info.h"
#include "solver.h"

static const char *const list_keys[] = {"obstacles", "fluid", "emitters", "sinks", "inflows", "outflows", "camera", "render",
                                        "heightmap"};
static const char *const side_names[] = {"left", "right", "bottom", "top"};
static const char *const kind_names[] = {VF_SHAPE_KIND_LIST(VF_CHOICE_NAME)};
#define KIND_CHOICES VF_CHOICES(VF_SHAPE_KIND_LIST)

/* The shape lists of a scene file, each with its array, count and limit. */
typedef struct shape_list {
    const char *name;
    size_t items, count; /* offsets in vf_scene_shapes */
    uint32_t max;
} shape_list;
#define LIST(name, items, count, max) {name, offsetof(vf_scene_shapes, items), offsetof(vf_scene_shapes, count), max}
static const shape_list shape_lists[] = {
    LIST("obstacles", obstacles, obstacle_count, VF_SHAPES_MAX_OBSTACLES),
    LIST("fluid", fluid, fluid_count, VF_SHAPES_MAX_FLUID),
    LIST("emitters", emitters, emitter_count, VF_SHAPES_MAX_EMITTERS),
    LIST("sinks", sinks, sink_count, VF_SHAPES_MAX_SINKS),
};
#undef LIST

/* The list named name in sh (its items and count), or NULL. */
static const shape_list *find_list(const char *name, vf_scene_shapes *sh, vf_shape **items, uint32_t **count)
{
    for (size_t i = 0; i < sizeof shape_lists / sizeof shape_lists[0]; i++)
        if (!strcmp(shape_lists[i].name, name)) {
            *items = (vf_shape *)((char *)sh + shape_lists[i].items);
            *count = (uint32_t *)((char *)sh + shape_lists[i].count);
            return &shape_lists[i];
        }
    return NULL;
}

bool vf_shapes_is_key(const char *key)
{
    for (size_t i = 0; i < sizeof list_keys / sizeof list_keys[0]; i++)
        if (!strcmp(key, list_keys[i]))
            return true;
    return false;
}

const char *vf_shapes_key_list(void)
{
    return "obstacles, fluid, emitters, sinks, inflows, outflows, camera, render, heightmap";
}

static vf_result fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return VF_ERR_INVALID_ARG;
}

/* A key or value for an error message (vf_text_safe). */
static const char *safe(const char *in, char out[48])
{
    vf_text_safe(in, out, 48, 40);
    return out;
}

/* " did you mean X?" when word is near one of the list's items (separated
 * by ", " or "|"), else "". */
static const char *did_you_mean(const char *word, const char *list, char out[96])
{
    char near[64];
    if (word && vf_suggest_in_list(word, list, ", |", near, sizeof near))
        snprintf(out, 96, " did you mean %s?", near);
    else
        out[0] = 0;
    return out;
}

/* True for a string of printable ASCII of 1 to max-1 bytes. */
static bool printable(const char *v, size_t max)
{
    size_t n = 0;
    for (; v[n]; n++)
        if ((unsigned char)v[n] < 0x20 || (unsigned char)v[n] >= 0x7f)
            return false;
    return n > 0 && n < max;
}

static const char *json_type(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsBool(v))
        return "a boolean";
    if (cJSON_IsNull(v))
        return "null";
    if (cJSON_IsArray(v))
        return "an array";
    return "an object";
}

/* A finite number within +-1e6 (domain units are metres or unit lengths). */
static vf_result number(const cJSON *v, const char *path, double lo, double hi, double *out, char *err, size_t cap)
{
    if (!cJSON_IsNumber(v))
        return fail(err, cap, "%s: %s is not allowed: must be a number in [%g, %g]", path, json_type(v), lo, hi);
    double x = v->valuedouble;
    if (!isfinite(x) || x < lo || x > hi)
        return fail(err, cap, "%s: %g is out of range: must be a number in [%g, %g]", path, x, lo, hi);
    *out = x;
    return VF_OK;
}

/* An array of 2 or 3 numbers (the third defaults to 0). */
static vf_result vec(const cJSON *v, const char *path, double lo, double hi, double out[3], char *err, size_t cap)
{
    int n = cJSON_IsArray(v) ? cJSON_GetArraySize(v) : -1;
    if (n < 2 || n > 3)
        return fail(err, cap, "%s: %s is not allowed: must be [x, y] or [x, y, z]", path,
                    n < 0 ? json_type(v) : "an array of that length");
    out[2] = 0;
    int i = 0;
    for (const cJSON *it = v->child; it; it = it->next, i++) {
        char p[160];
        snprintf(p, sizeof p, "%s[%d]", path, i);
        vf_result r = number(it, p, lo, hi, &out[i], err, cap);
        if (r != VF_OK)
            return r;
    }
    return VF_OK;
}

static void join_path(const char *base_dir, const char *file, char *out, size_t cap)
{
    if (file[0] == '/' || !base_dir || !base_dir[0])
        snprintf(out, cap, "%s", file);
    else
        snprintf(out, cap, "%s/%s", base_dir, file);
}

/* One shape object of list `list` at index i. */
static vf_result parse_shape(const cJSON *o, const char *list, int i, const char *base_dir, vf_shape *s, char *err,
                             size_t cap)
{
    char path[128], p[200];
    snprintf(path, sizeof path, "%s[%d]", list, i);
    if (!cJSON_IsObject(o))
        return fail(err, cap, "%s: %s is not allowed: must be an object {\"shape\": \"box\", \"center\": [...], ...}", path,
                    json_type(o));
    memset(s, 0, sizeof *s);
    s->level = NAN;
    const cJSON *shape = cJSON_GetObjectItemCaseSensitive(o, "shape");
    if (!cJSON_IsString(shape))
        return fail(err, cap, "%s.shape: %s: must be one of %s", path, shape ? "not a string" : "missing",
                    KIND_CHOICES);
    int kind = vf_choice_index(KIND_CHOICES, shape->valuestring);
    char dym[96];
    if (kind < 0)
        return fail(err, cap, "%s.shape: unknown shape:%s must be one of %s", path,
                    did_you_mean(shape->valuestring, KIND_CHOICES, dym), KIND_CHOICES);
    s->kind = (vf_shape_kind)kind;
    bool have_center = false, have_size = false, have_radius = false, have_file = false;
    for (const cJSON *it = o->child; it; it = it->next) {
        const char *k = it->string;
        char ks[48];
        safe(k, ks);
        for (const cJSON *prev = o->child; prev != it; prev = prev->next)
            if (!strcmp(prev->string, k))
                return fail(err, cap, "%s.%s: given twice: give each key once", path, ks);
        snprintf(p, sizeof p, "%s.%s", path, ks);
        vf_result r = VF_OK;
        if (!strcmp(k, "shape"))
            continue;
        else if (!strcmp(k, "center") && s->kind != VF_SHAPE_MASK)
            r = vec(it, p, -1e6, 1e6, s->center, err, cap), have_center = true;
        else if (!strcmp(k, "size") && s->kind == VF_SHAPE_BOX)
            r = vec(it, p, 0, 1e6, s->size, err, cap), have_size = true;
        else if (!strcmp(k, "radius") && (s->kind == VF_SHAPE_SPHERE || s->kind == VF_SHAPE_CYLINDER))
            r = number(it, p, 0, 1e6, &s->radius, err, cap), have_radius = true;
        else if (!strcmp(k, "height") && s->kind == VF_SHAPE_CYLINDER)
            r = number(it, p, 0, 1e6, &s->height, err, cap);
        else if (!strcmp(k, "velocity") && !strcmp(list, "emitters"))
            r = vec(it, p, -1e4, 1e4, s->velocity, err, cap);
        else if (!strcmp(k, "level") && !strcmp(list, "fluid"))
            r = number(it, p, -1e4, 1e4, &s->level, err, cap);
        else if (!strcmp(k, "file") && s->kind == VF_SHAPE_MASK) {
            if (!cJSON_IsString(it) || !printable(it->valuestring, 256))
                return fail(err, cap, "%s: must be a png file name (1 to 255 printable ASCII bytes)", p);
            join_path(base_dir, it->valuestring, s->file, sizeof s->file);
            have_file = true;
        } else {
            const char *keys = s->kind == VF_SHAPE_BOX      ? "shape, center, size"
                               : s->kind == VF_SHAPE_SPHERE ? "shape, center, radius"
                               : s->kind == VF_SHAPE_MASK   ? "shape, file"
                                                            : "shape, center, radius, height";
            char all[96];
            snprintf(all, sizeof all, "%s%s%s", keys, !strcmp(list, "emitters") ? ", velocity" : "",
                     !strcmp(list, "fluid") ? ", level" : "");
            return fail(err, cap, "%s: unknown key for a %s in %s:%s the keys are %s", p, kind_names[kind], list,
                        did_you_mean(k, all, dym), all);
        }
        if (r != VF_OK)
            return r;
    }
    if (s->kind == VF_SHAPE_MASK ? !have_file : !have_center)
        return fail(err, cap, "%s.%s: missing: a %s needs it", path, s->kind == VF_SHAPE_MASK ? "file" : "center",
                    kind_names[kind]);
    if (s->kind == VF_SHAPE_BOX && (!have_size || !(s->size[0] > 0) || !(s->size[1] > 0)))
        return fail(err, cap, "%s.size: %s: a box needs positive extents [sx, sy] or [sx, sy, sz]", path,
                    have_size ? "not positive" : "missing");
    if ((s->kind == VF_SHAPE_SPHERE || s->kind == VF_SHAPE_CYLINDER) && (!have_radius || !(s->radius > 0)))
        return fail(err, cap, "%s.radius: %s: must be a positive number", path, have_radius ? "not positive" : "missing");
    return VF_OK;
}

static vf_result parse_sides(vf_scene_shapes *sh, const char *key, const cJSON *v, char *err, size_t cap)
{
    if (!cJSON_IsArray(v))
        return fail(err, cap, "%s: %s is not allowed: must be an array like [{\"side\": \"left\"%s}]", key, json_type(v),
                    !strcmp(key, "inflows") ? ", \"speed\": 1" : "");
    bool in = !strcmp(key, "inflows");
    int i = 0;
    for (const cJSON *o = v->child; o; o = o->next, i++) {
        char path[64], p[128];
        snprintf(path, sizeof path, "%s[%d]", key, i);
        if (i >= 4)
            return fail(err, cap, "%s: too many: a domain has 4 sides", path);
        if (!cJSON_IsObject(o))
            return fail(err, cap, "%s: %s is not allowed: must be an object {\"side\": ...}", path, json_type(o));
        int side = -1;
        double speed = NAN;
        for (const cJSON *it = o->child; it; it = it->next) {
            char ks[48];
            snprintf(p, sizeof p, "%s.%s", path, safe(it->string, ks));
            if (!strcmp(it->string, "side")) {
                for (int k = 0; k < 4 && cJSON_IsString(it); k++)
                    if (!strcmp(it->valuestring, side_names[k]))
                        side = k;
                if (side < 0)
                    return fail(err, cap, "%s: must be one of left|right|bottom|top", p);
            } else if (in && !strcmp(it->string, "speed")) {
                vf_result r = number(it, p, 0, 1e4, &speed, err, cap);
                if (r != VF_OK)
                    return r;
            } else {
                char dym[96];
                return fail(err, cap, "%s: unknown key:%s the keys are side%s", p,
                            did_you_mean(it->string, in ? "side, speed" : "side", dym), in ? ", speed" : "");
            }
        }
        if (side < 0)
            return fail(err, cap, "%s.side: missing: must be one of left|right|bottom|top", path);
        uint32_t bit = 1u << side;
        if ((sh->inflow_sides | sh->outflow_sides) & bit)
            return fail(err, cap, "%s.side: the %s side is already an inflow or outflow: give each side once", path,
                        side_names[side]);
        if (in) {
            if (!(speed > 0))
                return fail(err, cap, "%s.speed: missing: an inflow needs a positive speed (domain units per second)", path);
            sh->inflow_sides |= bit;
            sh->inflow_speed[side] = speed;
        } else {
            sh->outflow_sides |= bit;
        }
    }
    return VF_OK;
}

/* The heightmap object: file, size, and low/high (PNG) or width/height (raw). */
static vf_result parse_heightmap(vf_scene_heightmap *hm, const cJSON *v, const char *base_dir, char *err, size_t cap)
{
    if (!cJSON_IsObject(v))
        return fail(err, cap, "heightmap: %s is not allowed: must be {\"file\": \"ground.png\", \"size\": [x, y], ...}",
                    json_type(v));
    memset(hm, 0, sizeof *hm);
    hm->high = 100;
    bool file = false, size = false;
    double wh[2] = {0, 0};
    for (const cJSON *it = v->child; it; it = it->next) {
        char p[64], ks[48];
        snprintf(p, sizeof p, "heightmap.%s", safe(it->string, ks));
        vf_result r = VF_OK;
        if (!strcmp(it->string, "file")) {
            if (!cJSON_IsString(it) || !printable(it->valuestring, VF_SHAPES_PATH_MAX - 64))
                return fail(err, cap, "%s: must be the path of a 16-bit png or a raw float32 file", p);
            join_path(base_dir, it->valuestring, hm->file, sizeof hm->file);
            file = true;
        } else if (!strcmp(it->string, "size")) {
            double sz[3] = {0, 0, 0};
            if (!cJSON_IsArray(it) || cJSON_GetArraySize(it) != 2)
                return fail(err, cap, "%s: must be [x, y], the metres the map spans", p);
            r = vec(it, p, 1e-3, 1e7, sz, err, cap);
            hm->size[0] = sz[0];
            hm->size[1] = sz[1];
            size = true;
        } else if (!strcmp(it->string, "low")) {
            r = number(it, p, -1e5, 1e5, &hm->low, err, cap);
        } else if (!strcmp(it->string, "high")) {
            r = number(it, p, -1e5, 1e5, &hm->high, err, cap);
        } else if (!strcmp(it->string, "width") || !strcmp(it->string, "height")) {
            r = number(it, p, 2, VF_PNG_MAX_SIDE, &wh[it->string[0] == 'h'], err, cap);
            if (r == VF_OK && wh[it->string[0] == 'h'] != floor(wh[it->string[0] == 'h']))
                return fail(err, cap, "%s: must be a whole number of samples", p);
        } else {
            return fail(err, cap, "%s: unknown key: the keys are file, size, low, high, width, height", p);
        }
        if (r != VF_OK)
            return r;
    }
    if (!file || !size)
        return fail(err, cap, "heightmap.%s: missing: give the file and its size in metres", file ? "size" : "file");
    if (!(hm->high > hm->low))
        return fail(err, cap, "heightmap.high: %g is not above low (%g): give the elevations of grey 0 and 65535",
                    hm->high, hm->low);
    if (wh[0] * wh[1] > (double)(1u << 26))
        return fail(err, cap, "heightmap.width: %g x %g samples: at most 2^26 (8192 x 8192)", wh[0], wh[1]);
    hm->width = (uint32_t)wh[0];
    hm->height = (uint32_t)wh[1];
    hm->given = true;
    return VF_OK;
}

vf_result vf_shapes_parse(vf_scene_shapes *sh, const char *key, const void *json, const char *base_dir, char *err,
                          size_t cap)
{
    const cJSON *v = json;
    if (!strcmp(key, "heightmap"))
        return parse_heightmap(&sh->heightmap, v, base_dir, err, cap);
    if (!strcmp(key, "inflows") || !strcmp(key, "outflows"))
        return parse_sides(sh, key, v, err, cap);
    if (!strcmp(key, "camera")) {
        if (!cJSON_IsObject(v))
            return fail(err, cap, "camera: %s is not allowed: must be {\"eye\": [x, y, z], \"target\": [x, y, z], \"fov\": degrees}",
                        json_type(v));
        bool eye = false, target = false;
        sh->fov_deg = 50;
        for (const cJSON *it = v->child; it; it = it->next) {
            char p[64];
            char ks[48], dym[96];
            snprintf(p, sizeof p, "camera.%s", safe(it->string, ks));
            vf_result r;
            if (!strcmp(it->string, "eye"))
                r = vec(it, p, -1e6, 1e6, sh->eye, err, cap), eye = true;
            else if (!strcmp(it->string, "target"))
                r = vec(it, p, -1e6, 1e6, sh->target, err, cap), target = true;
            else if (!strcmp(it->string, "fov"))
                r = number(it, p, 1, 170, &sh->fov_deg, err, cap);
            else
                return fail(err, cap, "%s: unknown key:%s the keys are eye, target, fov", p,
                            did_you_mean(it->string, "eye, target, fov", dym));
            if (r != VF_OK)
                return r;
        }
        if (!eye || !target)
            return fail(err, cap, "camera.%s: missing: give both eye and target", eye ? "target" : "eye");
        double d = 0;
        for (int k = 0; k < 3; k++)
            d += (sh->eye[k] - sh->target[k]) * (sh->eye[k] - sh->target[k]);
        if (!(d > 0))
            return fail(err, cap, "camera.target: equals camera.eye: the camera must look somewhere");
        sh->has_camera = true;
        return VF_OK;
    }
    if (!strcmp(key, "render")) {
        if (!cJSON_IsObject(v))
            return fail(err, cap, "render: %s is not allowed: must be {\"mode\": \"...\"}", json_type(v));
        for (const cJSON *it = v->child; it; it = it->next) {
            char ks[48], dym[96];
            if (strcmp(it->string, "mode"))
                return fail(err, cap, "render.%s: unknown key:%s the keys are mode", safe(it->string, ks),
                            did_you_mean(it->string, "mode", dym));
            if (!cJSON_IsString(it) || !printable(it->valuestring, sizeof sh->render_mode))
                return fail(err, cap, "render.mode: must be the name of a view (see --render in vkfluid capture --help)");
            snprintf(sh->render_mode, sizeof sh->render_mode, "%s", it->valuestring);
        }
        return VF_OK;
    }
    vf_shape *list;
    uint32_t *count;
    const shape_list *sl = find_list(key, sh, &list, &count);
    char dym[96];
    if (!sl)
        return fail(err, cap, "%s: unknown key:%s the shape keys are %s", key, did_you_mean(key, vf_shapes_key_list(), dym),
                    vf_shapes_key_list());
    const uint32_t max = sl->max;
    if (!cJSON_IsArray(v))
        return fail(err, cap, "%s: %s is not allowed: must be an array of shapes [{\"shape\": \"box\", ...}]", key,
                    json_type(v));
    int n = cJSON_GetArraySize(v);
    if (n > (int)max)
        return fail(err, cap, "%s: %d shapes: at most %u are allowed", key, n, max);
    int i = 0;
    for (const cJSON *o = v->child; o; o = o->next, i++) {
        vf_result r = parse_shape(o, key, i, base_dir, &list[i], err, cap);
        if (r != VF_OK)
            return r;
    }
    *count = (uint32_t)n;
    return VF_OK;
}

/* ------------------------------------------------------------------ geometry */

vf_result vf_shape_mask_load(const vf_shape *shape, vf_shape_mask *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    uint8_t *rgba = NULL;
    vf_png_detail det = {0};
    vf_result r = vf_png_read_ex(shape->file, &rgba, &out->w, &out->h, &det);
    if (r != VF_OK) {
        snprintf(err, cap, "%s: %s: %s", shape->file, det.what[0] ? det.what : vf_result_message(r),
                 det.fix ? det.fix : "give a png file");
        return r == VF_ERR_NO_MEMORY ? r : VF_ERR_INVALID_ARG;
    }
    size_t n = (size_t)out->w * out->h;
    out->lum = malloc(n ? n : 1);
    if (!out->lum) {
        free(rgba);
        return VF_ERR_NO_MEMORY;
    }
    for (size_t k = 0; k < n; k++) {
        const uint8_t *p = rgba + 4 * k;
        /* transparent pixels count as background (not inside) */
        unsigned l = (299u * p[0] + 587u * p[1] + 114u * p[2]) / 1000u;
        out->lum[k] = p[3] < 128 ? 255 : (uint8_t)l;
    }
    free(rgba);
    return VF_OK;
}

void vf_shape_mask_free(vf_shape_mask *m)
{
    free(m->lum);
    memset(m, 0, sizeof *m);
}

bool vf_shape_contains(const vf_shape *s, int dims, const double p[3], const vf_shape_mask *mask, const double lo[3],
                       const double hi[3])
{
    double d[3] = {p[0] - s->center[0], p[1] - s->center[1], dims == 3 ? p[2] - s->center[2] : 0.0};
    switch (s->kind) {
    case VF_SHAPE_BOX:
        return fabs(d[0]) < 0.5 * s->size[0] && fabs(d[1]) < 0.5 * s->size[1] &&
               (dims == 2 || fabs(d[2]) < 0.5 * s->size[2]);
    case VF_SHAPE_SPHERE:
        return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] < s->radius * s->radius;
    case VF_SHAPE_CYLINDER:
        if (dims == 2)
            return d[0] * d[0] + d[1] * d[1] < s->radius * s->radius;
        /* standing along y */
        return d[0] * d[0] + d[2] * d[2] < s->radius * s->radius && (s->height <= 0 || fabs(d[1]) < 0.5 * s->height);
    case VF_SHAPE_MASK: {
        if (!mask || !mask->lum || !mask->w || !mask->h)
            return false;
        double u = (p[0] - lo[0]) / (hi[0] - lo[0]), v = (hi[1] - p[1]) / (hi[1] - lo[1]);
        if (!(u >= 0 && u < 1 && v >= 0 && v < 1))
            return false;
        uint32_t x = (uint32_t)(u * mask->w), y = (uint32_t)(v * mask->h);
        if (x >= mask->w)
            x = mask->w - 1;
        if (y >= mask->h)
            y = mask->h - 1;
        return mask->lum[(size_t)y * mask->w + x] < 128;
    }
    }
    return false;
}

/* Axis-aligned bounds of a shape (masks: the whole domain). */
static void bounds(const vf_shape *s, int dims, const double lo[3], const double hi[3], double blo[3], double bhi[3])
{
    for (int k = 0; k < 3; k++) {
        double e = 0;
        switch (s->kind) {
        case VF_SHAPE_BOX: e = 0.5 * s->size[k]; break;
        case VF_SHAPE_SPHERE: e = s->radius; break;
        case VF_SHAPE_CYLINDER:
            e = (dims == 3 && k == 1) ? (s->height > 0 ? 0.5 * s->height : INFINITY) : s->radius;
            break;
        case VF_SHAPE_MASK: break;
        }
        if (s->kind == VF_SHAPE_MASK || isinf(e)) {
            blo[k] = lo[k];
            bhi[k] = hi[k];
        } else {
            blo[k] = s->center[k] - e;
            bhi[k] = s->center[k] + e;
        }
    }
}

/* Whether two shapes share interior points: sampled on a 48^dims lattice
 * over the intersection of their bounds (exact enough for the one-line
 * check; shapes that only touch do not overlap). */
static bool overlap(const vf_shape *a, const vf_shape_mask *ma, const vf_shape *b, const vf_shape_mask *mb, int dims,
                    const double lo[3], const double hi[3])
{
    double alo[3], ahi[3], blo[3], bhi[3], ilo[3], ihi[3];
    bounds(a, dims, lo, hi, alo, ahi);
    bounds(b, dims, lo, hi, blo, bhi);
    for (int k = 0; k < dims; k++) {
        ilo[k] = fmax(alo[k], blo[k]);
        ihi[k] = fmin(ahi[k], bhi[k]);
        if (!(ihi[k] > ilo[k]))
            return false;
    }
    const int n = 48;
    int nz = dims == 3 ? n : 1;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < n; y++)
            for (int x = 0; x < n; x++) {
                double p[3] = {ilo[0] + (x + 0.5) / n * (ihi[0] - ilo[0]), ilo[1] + (y + 0.5) / n * (ihi[1] - ilo[1]),
                               dims == 3 ? ilo[2] + (z + 0.5) / n * (ihi[2] - ilo[2]) : 0.0};
                if (vf_shape_contains(a, dims, p, ma, lo, hi) && vf_shape_contains(b, dims, p, mb, lo, hi))
                    return true;
            }
    return false;
}

typedef struct list_ref {
    const char *name;
    const vf_shape *items;
    uint32_t count;
} list_ref;

vf_result vf_shapes_check(const vf_scene_shapes *sh, const vf_shapes_caps *c, char *err, size_t cap)
{
    const int dims = c->dims;
    if (sh->obstacle_count > c->max_obstacles)
        return fail(err, cap, "obstacles: %u shapes: the %s solver takes at most %u here", sh->obstacle_count, c->family,
                    c->max_obstacles);
    if (sh->fluid_count > c->max_fluid)
        return fail(err, cap, "fluid: %u regions: the %s solver takes %s", sh->fluid_count, c->family,
                    c->max_fluid ? "fewer" : "no initial fluid regions");
    if (sh->emitter_count > c->max_emitters)
        return fail(err, cap, "emitters: the %s solver takes %s", c->family, c->max_emitters ? "at most one" : "no emitters");
    if (sh->sink_count > c->max_sinks)
        return fail(err, cap, "sinks: the %s solver takes %s", c->family, c->max_sinks ? "at most one" : "no sinks");
    if (sh->heightmap.given && !c->heightmap)
        return fail(err, cap, "heightmap: the %s solver takes no heightmap (the terrain scene does)", c->family);
    if ((sh->inflow_sides | sh->outflow_sides) && !c->sides)
        return fail(err, cap, "%s: the %s solver takes no inflow or outflow sides", sh->inflow_sides ? "inflows" : "outflows",
                    c->family);
    list_ref lists[] = {{"obstacles", sh->obstacles, sh->obstacle_count},
                        {"fluid", sh->fluid, sh->fluid_count},
                        {"emitters", sh->emitters, sh->emitter_count},
                        {"sinks", sh->sinks, sh->sink_count}};
    vf_shape_mask masks[VF_SHAPES_MAX_OBSTACLES] = {{0}};
    vf_result r = VF_OK;
    for (size_t l = 0; l < 4 && r == VF_OK; l++)
        for (uint32_t i = 0; i < lists[l].count && r == VF_OK; i++) {
            const vf_shape *s = &lists[l].items[i];
            char path[64];
            snprintf(path, sizeof path, "%s[%u]", lists[l].name, i);
            if (s->kind == VF_SHAPE_MASK) {
                if (l != 0 || !c->obstacle_mask) {
                    r = fail(err, cap, "%s.shape: mask: %s", path,
                             l != 0 ? "masks paint obstacles only" : "the solver takes no png masks: use box, sphere or cylinder");
                    break;
                }
                char why[600];
                if ((r = vf_shape_mask_load(s, &masks[i], why, sizeof why)) != VF_OK) {
                    r = fail(err, cap, "%s.file: %s", path, why);
                    break;
                }
                continue;
            }
            if (s->kind == VF_SHAPE_CYLINDER && l == 0 && !c->obstacle_cylinder) {
                r = fail(err, cap, "%s.shape: cylinder: the %s solver's obstacles are boxes and spheres", path, c->family);
                break;
            }
            if (s->kind == VF_SHAPE_BOX && dims == 3 && !(s->size[2] > 0)) {
                r = fail(err, cap, "%s.size: a 3D box needs three positive extents [sx, sy, sz]", path);
                break;
            }
            if (l == 2 && s->kind != VF_SHAPE_CYLINDER && s->kind != VF_SHAPE_SPHERE) {
                r = fail(err, cap, "%s.shape: an emitter is a nozzle: use cylinder (or sphere) with a radius and a velocity", path);
                break;
            }
            if (l == 2) {
                double v2 = s->velocity[0] * s->velocity[0] + s->velocity[1] * s->velocity[1] + s->velocity[2] * s->velocity[2];
                if (!(v2 > 0)) {
                    r = fail(err, cap, "%s.velocity: missing or zero: an emitter needs a jet velocity [vx, vy, vz]", path);
                    break;
                }
            }
            if (l == 1 && c->fluid_level && isnan(s->level)) {
                r = fail(err, cap, "%s.level: missing: a height fluid region needs the surface level there (m)", path);
                break;
            }
            double blo[3], bhi[3];
            bounds(s, dims, c->lo, c->hi, blo, bhi);
            for (int k = 0; k < dims; k++)
                if (blo[k] < c->lo[k] - 1e-9 || bhi[k] > c->hi[k] + 1e-9) {
                    r = fail(err, cap, "%s: reaches outside the domain along %c ([%g, %g] against [%g, %g]): move or shrink it",
                             path, "xyz"[k], blo[k], bhi[k], c->lo[k], c->hi[k]);
                    break;
                }
        }
    /* overlaps: fluid against obstacles and other fluid, emitters and sinks against obstacles */
    for (uint32_t i = 0; i < sh->fluid_count && r == VF_OK; i++) {
        for (uint32_t k = 0; k < sh->obstacle_count && r == VF_OK; k++)
            if (overlap(&sh->fluid[i], NULL, &sh->obstacles[k], &masks[k], dims, c->lo, c->hi))
                r = fail(err, cap, "fluid[%u]: overlaps obstacles[%u]: fluid cannot start inside a solid: move or shrink one of them",
                         i, k);
        for (uint32_t k = 0; k < i && r == VF_OK; k++)
            if (overlap(&sh->fluid[i], NULL, &sh->fluid[k], NULL, dims, c->lo, c->hi))
                r = fail(err, cap, "fluid[%u]: overlaps fluid[%u]: regions would double the fluid there: make them disjoint", i, k);
    }
    for (size_t l = 2; l < 4 && r == VF_OK; l++)
        for (uint32_t i = 0; i < lists[l].count && r == VF_OK; i++)
            for (uint32_t k = 0; k < sh->obstacle_count && r == VF_OK; k++)
                if (overlap(&lists[l].items[i], NULL, &sh->obstacles[k], &masks[k], dims, c->lo, c->hi))
                    r = fail(err, cap, "%s[%u]: overlaps obstacles[%u]: move it clear of the solid", lists[l].name, i, k);
    for (uint32_t k = 0; k < VF_SHAPES_MAX_OBSTACLES; k++)
        vf_shape_mask_free(&masks[k]);
    return r;
}

vf_scene_shapes *vf_scene_shapes_of(const struct vf_scene_info *info, void *desc)
{
    return info && desc && info->shapes_offset ? (vf_scene_shapes *)((char *)desc + info->shapes_offset) : NULL;
}

/* ------------------------------------------------------------------ --set */

/* A full, finite number. */
static bool parse_number(const char *v, double *out)
{
    char *end = NULL;
    double x = strtod(v, &end);
    if (!v[0] || !end || *end || !isfinite(x) || !vf_params_json_number(v))
        return false;
    *out = x;
    return true;
}

vf_result vf_shapes_set(vf_scene_shapes *sh, const char *assignment, char *err, size_t cap)
{
    const char *eq = strchr(assignment, '=');
    char key[96];
    size_t kl = eq ? (size_t)(eq - assignment) : 0;
    if (!eq || kl == 0 || kl >= sizeof key) {
        char as[48];
        return fail(err, cap, "--set %s: must be KEY=VALUE", safe(assignment, as));
    }
    memcpy(key, assignment, kl);
    key[kl] = 0;
    for (char *c = key; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    const char *value = eq + 1;
    double x = 0;
    if (!strcmp(key, "render.mode")) {
        if (!printable(value, sizeof sh->render_mode))
            return fail(err, cap, "render.mode: must be the name of a view");
        snprintf(sh->render_mode, sizeof sh->render_mode, "%s", value);
        return VF_OK;
    }
    if (!parse_number(value, &x)) {
        char vs[48];
        return fail(err, cap, "%s: \"%s\" is not a finite number", key, safe(value, vs));
    }
    /* camera.eye[k], camera.target[k], camera.fov */
    if (!strncmp(key, "camera.", 7)) {
        const char *f = key + 7;
        int k = -1;
        if (!strcmp(f, "fov")) {
            if (!(x >= 1 && x <= 170))
                return fail(err, cap, "camera.fov: %g is out of range: must be a number in [1, 170]", x);
            sh->fov_deg = x;
            return VF_OK;
        }
        if (!sh->has_camera)
            return fail(err, cap, "%s: the scene has no camera: give the whole camera in the scene file", key);
        if ((sscanf(f, "eye[%d]", &k) == 1 || sscanf(f, "target[%d]", &k) == 1) && k >= 0 && k < 3 &&
            strchr(f, ']') && !strchr(f, ']')[1]) {
            (f[0] == 'e' ? sh->eye : sh->target)[k] = x;
            return VF_OK;
        }
        return fail(err, cap, "%s: unknown key: the camera keys are eye[0..2], target[0..2], fov", key);
    }
    /* LIST[i].FIELD or LIST[i].FIELD[k] */
    char list[16], field[16];
    int i = -1, k = -1, used = 0;
    if (sscanf(key, "%15[a-z][%d].%15[a-z]%n", list, &i, field, &used) != 3)
        return fail(err, cap, "%s: unknown key: shape fields are set as LIST[i].FIELD, e.g. obstacles[0].radius=0.2", key);
    if (key[used] == '[') {
        int more = 0;
        if (sscanf(key + used, "[%d]%n", &k, &more) != 1 || key[used + more] || k < 0 || k > 2)
            return fail(err, cap, "%s: the component must be [0], [1] or [2]", key);
    } else if (key[used]) {
        return fail(err, cap, "%s: unknown key: shape fields are set as LIST[i].FIELD or LIST[i].FIELD[k]", key);
    }
    if (!strcmp(list, "inflows")) {
        if (strcmp(field, "speed") || k >= 0)
            return fail(err, cap, "%s: an inflow's only number is its speed", key);
        uint32_t n = 0;
        for (int side = 0; side < 4; side++)
            if (sh->inflow_sides & (1u << side)) {
                if ((int)n == i) {
                    if (!(x > 0 && x <= 1e4))
                        return fail(err, cap, "%s: %g is out of range: must be a number in (0, 10000]", key, x);
                    sh->inflow_speed[side] = x;
                    return VF_OK;
                }
                n++;
            }
        return fail(err, cap, "%s: the scene has %u inflows", key, n);
    }
    vf_shape *items;
    uint32_t *pcount;
    if (!find_list(list, sh, &items, &pcount))
        return fail(err, cap, "%s: unknown list: the shape lists are obstacles, fluid, emitters, sinks and inflows", key);
    const uint32_t count = *pcount;
    if (i < 0 || (uint32_t)i >= count)
        return fail(err, cap, "%s: the scene has %u %s: add the shape in the scene file first", key, count, list);
    vf_shape *sp = &items[i];
    double *vec3 = !strcmp(field, "center") ? sp->center : !strcmp(field, "size") ? sp->size
                   : !strcmp(field, "velocity") ? sp->velocity : NULL;
    double *scalar = !strcmp(field, "radius") ? &sp->radius : !strcmp(field, "height") ? &sp->height
                     : !strcmp(field, "level") ? &sp->level : NULL;
    if (vec3) {
        if (k < 0)
            return fail(err, cap, "%s: a vector: set one component, e.g. %s[%d].%s[0]=%g", key, list, i, field, x);
        if (fabs(x) > 1e6 || (vec3 == sp->size && x < 0))
            return fail(err, cap, "%s: %g is out of range", key, x);
        vec3[k] = x;
        return VF_OK;
    }
    if (scalar && k < 0) {
        if (fabs(x) > 1e6 || (scalar != &sp->level && x < 0))
            return fail(err, cap, "%s: %g is out of range", key, x);
        *scalar = x;
        return VF_OK;
    }
    return fail(err, cap, "%s: unknown field: the fields are center[k], size[k], radius, height, velocity[k], level", key);
}
