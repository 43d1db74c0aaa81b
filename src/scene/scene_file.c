#include "scene_file.h"
#include "fileio.h"
#include "scene_shapes.h"
#include "text.h"
#include "scenes.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static vf_result fail(vf_result r, char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static vf_result fail(vf_result r, char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return r;
}

/* Copies untrusted text for a message: at most 40 bytes (cut at a character
 * boundary), control characters and quotes as '?', so a message stays one line. */
/* Line and column (1-based) of byte offset pos. */
static void line_col(const char *data, size_t pos, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < pos; i++) {
        if (data[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

/* Offset of the first byte that is not valid UTF-8 (or a NUL), or size. */
static size_t utf8_check(const unsigned char *s, size_t size)
{
    size_t i = 0;
    while (i < size) {
        unsigned char c = s[i];
        if (c == 0)
            return i;
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t cp, min;
        if ((c & 0xe0) == 0xc0) {
            len = 2, cp = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            len = 3, cp = c & 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            len = 4, cp = c & 0x07, min = 0x10000;
        } else {
            return i;
        }
        if (size - i < len)
            return i;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return i;
        i += len;
    }
    return size;
}

/* Deepest nesting of [ and { outside strings; stops counting past limit+1. */
static int max_depth(const char *s, size_t size, int limit, size_t *where)
{
    int depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < size; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) {
                deepest = depth;
                if (deepest > limit) {
                    *where = i;
                    return deepest;
                }
            }
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return deepest;
}

/* What JSON refuses and cJSON lets through: a number with a leading zero
 * (01, -007) and a \u0000 escape inside a string (which would silently cut
 * the string). Returns the offset of the first one (*why says which), or
 * size when there is none. */
static size_t json_strict_check(const char *s, size_t size, const char **why)
{
    bool in_string = false;
    for (size_t i = 0; i < size; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\' && i + 1 < size) {
                if (s[i + 1] == 'u' && i + 5 < size && !strncmp(s + i + 2, "0000", 4)) {
                    *why = "\\u0000 (a NUL character) in a string: NUL is not allowed in scene files";
                    return i;
                }
                i++;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if ((c == '-' || (c >= '0' && c <= '9')) &&
                   (i == 0 || !strchr("0123456789.eE+-", s[i - 1]))) {
            size_t p = i + (c == '-');
            if (p + 1 < size && s[p] == '0' && s[p + 1] >= '0' && s[p + 1] <= '9') {
                *why = "a number with a leading zero: JSON writes numbers without one (7, not 07)";
                return i;
            }
        }
    }
    return size;
}

/* Distinct families of the registry, comma-separated. */
static void family_list(char *buf, size_t cap)
{
    buf[0] = 0;
    for (size_t i = 0; vf_scenes[i]; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen = seen || !strcmp(vf_scenes[j]->family, vf_scenes[i]->family);
        if (!seen && strlen(buf) + strlen(vf_scenes[i]->family) + 3 < cap) {
            if (buf[0])
                strcat(buf, ", ");
            strcat(buf, vf_scenes[i]->family);
        }
    }
}

static bool is_family(const char *name)
{
    for (size_t i = 0; vf_scenes[i]; i++)
        if (!strcmp(vf_scenes[i]->family, name))
            return true;
    return false;
}

static void scene_list(const char *family, char *buf, size_t cap)
{
    buf[0] = 0;
    for (size_t i = 0; vf_scenes[i]; i++) {
        if (strcmp(vf_scenes[i]->family, family) || strlen(buf) + strlen(vf_scenes[i]->name) + 3 >= cap)
            continue;
        if (buf[0])
            strcat(buf, ", ");
        strcat(buf, vf_scenes[i]->name);
    }
}

static const char *type_name(const cJSON *v)
{
    static const struct {
        cJSON_bool (*is)(const cJSON *const);
        const char *name;
    } kinds[] = {{cJSON_IsNumber, "a number"}, {cJSON_IsBool, "a boolean"}, {cJSON_IsString, "a string"},
                 {cJSON_IsArray, "an array"},  {cJSON_IsObject, "an object"}, {cJSON_IsNull, "null"}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (kinds[k].is(v))
            return kinds[k].name;
    return "an invalid value";
}

/* Sets one family key from a JSON value. */
static vf_result set_key(const char *label, const vf_scene_info *info, void *desc, const cJSON *item, char *err, size_t cap)
{
    char key[48], why[400];
    vf_text_safe(item->string, key, sizeof key, 40);
    const vf_param_def *d = vf_params_find(info->params, info->param_count, item->string);
    if (!d) {
        char known[1200];
        known[0] = 0;
        for (size_t i = 0; i < info->param_count && strlen(known) + strlen(info->params[i].key) + 3 < sizeof known; i++) {
            if (i)
                strcat(known, ", ");
            strcat(known, info->params[i].key);
        }
        char near[64] = "", dym[96] = "";
        if (vf_suggest_in_list(item->string, known, ", ", near, sizeof near))
            snprintf(dym, sizeof dym, " did you mean %s?", near);
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s.%s: unknown key:%s the %s keys are %s", label, info->family, key,
                    dym, info->family, known);
    }
    vf_result r;
    if (cJSON_IsNumber(item)) {
        r = vf_params_set_number(d, desc, item->valuedouble, why, sizeof why);
    } else if (cJSON_IsBool(item)) {
        r = vf_params_set_bool(d, desc, cJSON_IsTrue(item), why, sizeof why);
    } else if (cJSON_IsString(item)) {
        char v[48];
        vf_text_safe(item->valuestring, v, sizeof v, 40);
        r = vf_params_set_choice(d, desc, item->valuestring, why, sizeof why);
        if (r != VF_OK) {
            char allowed[160];
            vf_params_allowed(d, allowed, sizeof allowed);
            if (d->type == VF_PARAM_ENUM)
                return fail(r, err, cap, "%s: %s.%s: \"%s\" is not allowed: must be %s", label, info->family, d->key, v,
                            allowed);
            return fail(r, err, cap, "%s: %s.%s: a string (\"%s\") is not allowed: must be %s", label, info->family, d->key,
                        v, allowed);
        }
    } else {
        char allowed[160];
        vf_params_allowed(d, allowed, sizeof allowed);
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s.%s: %s is not allowed: must be %s", label, info->family, d->key,
                    type_name(item), allowed);
    }
    if (r != VF_OK)
        return fail(r, err, cap, "%s: %s.%s: %s", label, info->family, d->key, why);
    return VF_OK;
}

/* The text of a scene file before it is parsed: its size, not empty, UTF-8
 * without NUL bytes, nested at most VF_SCENE_FILE_MAX_DEPTH levels, strict
 * JSON (json_strict_check). */
static vf_result check_text(const char *label, const char *data, size_t size, char *err, size_t cap)
{
    if (size > VF_SCENE_FILE_MAX_BYTES)
        return fail(VF_ERR_PARSE, err, cap, "%s: too large (%zu bytes): scene files are at most %u bytes", label, size,
                    VF_SCENE_FILE_MAX_BYTES);
    size_t first = 0;
    while (first < size && (data[first] == ' ' || data[first] == '\t' || data[first] == '\n' || data[first] == '\r'))
        first++;
    if (first == size)
        return fail(VF_ERR_PARSE, err, cap,
                    "%s: empty file: expected a JSON object such as {\"solver\": \"grid\", \"scene\": \"smoke\"}", label);
    size_t bad = utf8_check((const unsigned char *)data, size);
    if (bad < size) {
        size_t line, col;
        line_col(data, bad, &line, &col);
        return fail(VF_ERR_PARSE, err, cap, "%s: line %zu, column %zu: byte 0x%02x is %s: scene files are UTF-8 JSON",
                    label, line, col, (unsigned char)data[bad], data[bad] ? "not valid UTF-8" : "a NUL byte");
    }
    size_t deep_at = 0;
    int depth = max_depth(data, size, VF_SCENE_FILE_MAX_DEPTH, &deep_at);
    if (depth > VF_SCENE_FILE_MAX_DEPTH) {
        size_t line, col;
        line_col(data, deep_at, &line, &col);
        return fail(VF_ERR_PARSE, err, cap, "%s: line %zu, column %zu: nested too deeply: at most %d levels of arrays and objects",
                    label, line, col, VF_SCENE_FILE_MAX_DEPTH);
    }
    const char *strict_why = NULL;
    size_t strict_at = json_strict_check(data, size, &strict_why);
    if (strict_at < size) {
        size_t line, col;
        line_col(data, strict_at, &line, &col);
        return fail(VF_ERR_PARSE, err, cap, "%s: line %zu, column %zu: %s", label, line, col, strict_why);
    }
    return VF_OK;
}

/* The JSON tree of checked text (*root, the caller deletes it), or where it
 * is invalid. */
static vf_result parse_json(const char *label, const char *data, size_t size, cJSON **root, char *err, size_t cap)
{
    /* cJSON wants the terminating NUL inside the length to reject trailing garbage. */
    char *text = malloc(size + 1);
    if (!text)
        return fail(VF_ERR_NO_MEMORY, err, cap, "%s: out of memory", label);
    memcpy(text, data, size);
    text[size] = 0;
    const char *end = NULL;
    *root = cJSON_ParseWithLengthOpts(text, size + 1, &end, 1);
    if (!*root) {
        size_t pos = end && end >= text && end <= text + size ? (size_t)(end - text) : size;
        size_t line, col;
        line_col(text, pos, &line, &col);
        free(text);
        if (pos >= size)
            return fail(VF_ERR_PARSE, err, cap, "%s: line %zu, column %zu: the JSON ends too early: close every string, array and object",
                        label, line, col);
        return fail(VF_ERR_PARSE, err, cap,
                    "%s: line %zu, column %zu: invalid JSON: expected a value, comma, colon or closing bracket here (no comments, NaN or Infinity)",
                    label, line, col);
    }
    free(text);
    return VF_OK;
}

/* The top-level keys of a scene file. */
typedef struct top_keys {
    const cJSON *solver, *scene, *description, *keys; /* keys: the family's object */
    bool any_shapes;                                  /* shape lists, camera or render settings */
} top_keys;

/* Sorts the top-level keys of root (an object) into t: each known key once,
 * an unknown one named with the nearest known one. */
static vf_result read_top_keys(const char *label, const cJSON *root, const char *families, top_keys *t, char *err,
                               size_t cap)
{
    for (const cJSON *it = root->child; it; it = it->next) {
        char k[48];
        vf_text_safe(it->string, k, sizeof k, 40);
        const cJSON **slot = NULL;
        if (vf_shapes_is_key(it->string)) {
            for (const cJSON *prev = root->child; prev != it; prev = prev->next)
                if (!strcmp(prev->string, it->string))
                    return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: given twice: give each key once", label, k);
            t->any_shapes = true;
            continue;
        }
        if (!strcmp(it->string, "solver"))
            slot = &t->solver;
        else if (!strcmp(it->string, "scene"))
            slot = &t->scene;
        else if (!strcmp(it->string, "description"))
            slot = &t->description;
        else if (is_family(it->string))
            slot = &t->keys;
        if (!slot) {
            char all[512], near[64] = "", dym[96] = "";
            snprintf(all, sizeof all, "solver, scene, description, %s, %s", families, vf_shapes_key_list());
            if (vf_suggest_in_list(it->string, all, ", |", near, sizeof near))
                snprintf(dym, sizeof dym, " did you mean %s?", near);
            return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: unknown key:%s the top-level keys are solver, scene, description, the solver's name (%s) and %s",
                 label, k, dym, families, vf_shapes_key_list());
        }
        if (*slot)
            return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: given twice: give each key once", label, k);
        *slot = it;
    }
    return VF_OK;
}

/* The error of a string item `key` that must be one of list: missing
 * ("missing: " then `missing` and the list), not a string, or not one of
 * them ("is not " then `not_one`, with a did-you-mean). */
static vf_result bad_choice(const char *label, const char *key, const cJSON *item, const char *missing,
                            const char *not_one, const char *list, char *err, size_t cap)
{
    if (!item)
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: missing: %s%s", label, key, missing, list);
    if (!cJSON_IsString(item))
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: %s is not allowed: must be one of %s", label, key,
                    type_name(item), list);
    char v[48] = "", near[64] = "", dym[96] = "";
    vf_text_safe(item->valuestring, v, sizeof v, 40);
    if (vf_suggest_in_list(item->valuestring, list, ", |", near, sizeof near))
        snprintf(dym, sizeof dym, " did you mean %s?", near);
    return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: \"%s\" is not %s:%s must be one of %s", label, key, v, not_one,
                dym, list);
}

/* "solver": a solver family of this build. */
static vf_result check_solver(const char *label, const cJSON *solver, const char *families, char *err, size_t cap)
{
    if (solver && cJSON_IsString(solver) && is_family(solver->valuestring))
        return VF_OK;
    return bad_choice(label, "solver", solver, "must be one of ", "a solver of this build", families, err, cap);
}

/* "scene": a built-in preset of the solver's family (*info). */
static vf_result find_scene(const char *label, const cJSON *solver, const cJSON *scene, const vf_scene_info **info,
                            char *err, size_t cap)
{
    char scenes[512];
    scene_list(solver->valuestring, scenes, sizeof scenes);
    *info = scene && cJSON_IsString(scene) ? vf_scene_find(scene->valuestring) : NULL;
    if (*info && !strcmp((*info)->family, solver->valuestring))
        return VF_OK;
    char missing[160], not_one[64];
    snprintf(missing, sizeof missing, "must name the %s preset to start from: one of ", solver->valuestring);
    snprintf(not_one, sizeof not_one, "a %s scene", solver->valuestring);
    return bad_choice(label, "scene", scene, missing, not_one, scenes, err, cap);
}

/* The family's key object is the scene's own solver's and an object; the
 * description one line of printable text that fits. */
static vf_result check_keys_description(const char *label, const top_keys *t, const vf_scene_info *info,
                                        size_t description_cap, char *err, size_t cap)
{
    const cJSON *keys = t->keys, *description = t->description;
    if (keys && strcmp(keys->string, info->family))
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: keys of another solver: this scene's solver is %s: put its keys in \"%s\": {...}", label,
             keys->string, info->family, info->family);
    if (keys && !cJSON_IsObject(keys))
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: %s is not allowed: must be an object of keys, e.g. \"%s\": {\"%s\": ...}", label,
             keys->string, type_name(keys), info->family, info->params[0].key);
    bool printable = description && cJSON_IsString(description);
    for (const char *c = printable ? description->valuestring : ""; *c; c++)
        printable = printable && (unsigned char)*c >= 0x20 && *c != 0x7f;
    if (description && cJSON_IsString(description) && !printable)
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: description: holds a control character (\\n, \\t, ...): must be one line of text",
                 label);
    if (description && (!cJSON_IsString(description) || strlen(description->valuestring) >= description_cap))
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: description: %s: must be a string of at most %zu bytes", label,
             cJSON_IsString(description) ? "too long" : type_name(description), description_cap - 1);
    return VF_OK;
}

/* The base: a built-in file starts from the preset's code defaults (for the
 * fields that are not keys, e.g. which SPH layout; the file sets every key,
 * test_scenes checks that), a user file from the built-in preset it names,
 * as loaded from its own file. */
static vf_result load_base(const char *label, const vf_scene_info *info, bool builtin, vf_scene_loaded *out, char *err,
                           size_t cap)
{
    if (!builtin)
        return vf_scene_load_builtin(info, out, err, cap);
    out->info = info;
    out->desc = calloc(1, info->desc_size);
    if (!out->desc)
        return fail(VF_ERR_NO_MEMORY, err, cap, "%s: out of memory", label);
    vf_scene_defaults(info, out->desc);
    snprintf(out->description, sizeof out->description, "%s", info->description);
    return VF_OK;
}

/* The family's keys onto out->desc, each once. */
static vf_result apply_keys(const char *label, const vf_scene_info *info, const cJSON *keys, vf_scene_loaded *out,
                            char *err, size_t cap)
{
    vf_result r;
    for (const cJSON *it = keys ? keys->child : NULL; it; it = it->next) {
        for (const cJSON *prev = keys->child; prev != it; prev = prev->next) {
            if (!strcmp(prev->string, it->string)) {
                char k[48];
                vf_text_safe(it->string, k, sizeof k, 40);
                return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s.%s: given twice: give each key once", label, info->family, k);
            }
        }
        if ((r = set_key(label, info, out->desc, it, err, cap)) != VF_OK)
            return r;
    }
    return VF_OK;
}

/* The shape lists, camera and render settings of root onto out->desc
 * (relative mask paths against the scene file's folder). */
static vf_result apply_shapes(const char *label, const vf_scene_info *info, const cJSON *root, vf_scene_loaded *out,
                              char *err, size_t cap)
{
    vf_scene_shapes *sh = vf_scene_shapes_of(info, out->desc);
    char base[VF_SHAPES_PATH_MAX] = "";
    const char *slash = strrchr(label, '/');
    if (slash && (size_t)(slash - label) < sizeof base)
        snprintf(base, sizeof base, "%.*s", (int)(slash - label), label);
    for (const cJSON *it = root->child; it; it = it->next) {
        if (!vf_shapes_is_key(it->string))
            continue;
        if (!sh)
            return fail(VF_ERR_INVALID_ARG, err, cap, "%s: %s: the %s scene takes no shape lists, camera or render settings",
                        label, it->string, info->name);
        char why[1024];
        vf_result r;
        if ((r = vf_shapes_parse(sh, it->string, it, base, why, sizeof why)) != VF_OK)
            return fail(r, err, cap, "%s: %s", label, why);
    }
    return VF_OK;
}

/* The checks of a parsed file and its scene from root on: the top-level
 * keys, the solver and scene, then the base, the keys and the shapes. */
static vf_result load_tree(const char *label, const cJSON *root, bool builtin, vf_scene_loaded *out, char *err,
                           size_t cap)
{
    char families[128];
    family_list(families, sizeof families);
    if (!cJSON_IsObject(root))
        return fail(VF_ERR_INVALID_ARG, err, cap, "%s: the top level is %s: must be an object {\"solver\": ..., \"scene\": ..., \"<solver>\": {...}}",
             label, type_name(root));
    /* Top-level keys: solver, scene, description and the family's object. */
    top_keys t = {0};
    const vf_scene_info *info = NULL;
    vf_result r;
    if ((r = read_top_keys(label, root, families, &t, err, cap)) != VF_OK ||
        (r = check_solver(label, t.solver, families, err, cap)) != VF_OK ||
        (r = find_scene(label, t.solver, t.scene, &info, err, cap)) != VF_OK ||
        (r = check_keys_description(label, &t, info, sizeof out->description, err, cap)) != VF_OK ||
        (r = load_base(label, info, builtin, out, err, cap)) != VF_OK)
        return r;
    if (t.description)
        snprintf(out->description, sizeof out->description, "%s", t.description->valuestring);
    if ((r = apply_keys(label, info, t.keys, out, err, cap)) != VF_OK ||
        (t.any_shapes && (r = apply_shapes(label, info, root, out, err, cap)) != VF_OK)) {
        vf_scene_loaded_free(out);
        return r;
    }
    return VF_OK;
}

static vf_result parse_impl(const char *label, const char *data, size_t size, bool builtin, vf_scene_loaded *out, char *err,
                            size_t cap)
{
    memset(out, 0, sizeof *out);
    cJSON *root = NULL;
    vf_result r;
    if ((r = check_text(label, data, size, err, cap)) != VF_OK || (r = parse_json(label, data, size, &root, err, cap)) != VF_OK)
        return r;
    r = load_tree(label, root, builtin, out, err, cap);
    cJSON_Delete(root);
    return r;
}

vf_result vf_scene_parse(const char *label, const char *data, size_t size, vf_scene_loaded *out, char *err, size_t cap)
{
    return parse_impl(label, data, size, false, out, err, cap);
}

vf_result vf_scene_load_file(const char *file, vf_scene_loaded *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    /* The path as shown in messages: control characters as '?'. */
    char path[512];
    size_t n = 0;
    for (; file[n] && n + 1 < sizeof path; n++)
        path[n] = (unsigned char)file[n] < 0x20 ? '?' : file[n];
    path[n] = 0;
    struct stat st;
    if (stat(file, &st) != 0)
        return fail(VF_ERR_IO, err, cap, "%s: %s: give the path of a scene file (.json) or a built-in scene name", path,
                    strerror(errno));
    if (S_ISDIR(st.st_mode))
        return fail(VF_ERR_IO, err, cap, "%s: is a directory: give the path of a scene file (.json)", path);
    if (!S_ISREG(st.st_mode))
        return fail(VF_ERR_IO, err, cap, "%s: not a regular file: give the path of a scene file (.json)", path);
    if ((unsigned long long)st.st_size > VF_SCENE_FILE_MAX_BYTES)
        return fail(VF_ERR_IO, err, cap, "%s: too large (%lld bytes): scene files are at most %u bytes", path,
                    (long long)st.st_size, VF_SCENE_FILE_MAX_BYTES);
    int why = 0;
    FILE *f = vf_open_regular(file, &why); /* never waits on a FIFO swapped in after the stat */
    if (!f)
        return fail(VF_ERR_IO, err, cap, "%s: %s: check the path and its permissions", path,
                    why == EINVAL ? "not a regular file" : strerror(why));
    char *buf = malloc(VF_SCENE_FILE_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        return fail(VF_ERR_NO_MEMORY, err, cap, "%s: out of memory", path);
    }
    n = fread(buf, 1, VF_SCENE_FILE_MAX_BYTES + 1, f);
    bool read_error = ferror(f);
    fclose(f);
    vf_result r;
    if (read_error)
        r = fail(VF_ERR_IO, err, cap, "%s: read error: check the file", path);
    else
        r = parse_impl(path, buf, n, false, out, err, cap);
    free(buf);
    return r;
}

const vf_embedded_file *vf_scene_file_find(const char *scene_name)
{
    char want[128];
    snprintf(want, sizeof want, "%s.json", scene_name ? scene_name : "");
    for (size_t i = 0; vf_scene_files[i].name; i++)
        if (!strcmp(vf_scene_files[i].name, want))
            return &vf_scene_files[i];
    return NULL;
}

vf_result vf_scene_load_builtin(const vf_scene_info *info, vf_scene_loaded *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    const vf_embedded_file *file = vf_scene_file_find(info->name);
    if (file) {
        char label[160];
        snprintf(label, sizeof label, "scenes/%s (built in)", file->name);
        vf_result r = parse_impl(label, file->data, file->size, true, out, err, cap);
        if (r == VF_OK && out->info != info) {
            vf_scene_loaded_free(out);
            return fail(VF_ERR_INVALID_ARG, err, cap, "%s: scene: names another preset: must be \"%s\"", label, info->name);
        }
        return r;
    }
    out->info = info;
    out->desc = calloc(1, info->desc_size);
    if (!out->desc)
        return fail(VF_ERR_NO_MEMORY, err, cap, "%s: out of memory", info->name);
    vf_scene_defaults(info, out->desc);
    snprintf(out->description, sizeof out->description, "%s", info->description);
    return VF_OK;
}

void vf_scene_loaded_free(vf_scene_loaded *out)
{
    if (!out)
        return;
    free(out->desc);
    memset(out, 0, sizeof *out);
}

vf_result vf_scene_set(const vf_scene_info *info, void *desc, const char *assignment, char *err, size_t cap)
{
    if (assignment) {
        /* a shape list, camera or render field: LIST[i].FIELD=..., camera.fov=... */
        char head[24];
        size_t hl = strcspn(assignment, "[.=");
        if (hl < sizeof head && assignment[hl] && assignment[hl] != '=') {
            memcpy(head, assignment, hl);
            head[hl] = 0;
            if (vf_shapes_is_key(head)) {
                vf_scene_shapes *sh = vf_scene_shapes_of(info, desc);
                if (!sh)
                    return fail(VF_ERR_INVALID_ARG, err, cap, "%s: the %s scene takes no shape lists", head, info->name);
                return vf_shapes_set(sh, assignment, err, cap);
            }
        }
    }
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    const char *dot = assignment ? strchr(assignment, '.') : NULL;
    if (eq && dot && dot < eq) {
        size_t fl = (size_t)(dot - assignment);
        if (fl != strlen(info->family) || strncmp(assignment, info->family, fl)) {
            char raw[48], k[48];
            snprintf(raw, sizeof raw, "%.*s", (int)(fl < 40 ? fl : 40), assignment);
            vf_text_safe(raw, k, sizeof k, 40);
            if (!is_family(raw)) {
                char key[96], kk[96];
                snprintf(key, sizeof key, "%.*s", (int)(eq - assignment < 90 ? eq - assignment : 90), assignment);
                vf_text_safe(key, kk, sizeof kk, 40);
                return fail(VF_ERR_INVALID_ARG, err, cap,
                            "%s: unknown key: the keys are %s.KEY, KEY or a shape field LIST[i].FIELD (%s)", kk,
                            info->family, vf_shapes_key_list());
            }
            return fail(VF_ERR_INVALID_ARG, err, cap, "%s: not this scene's solver: the keys are %s.KEY or KEY", k,
                        info->family);
        }
        assignment = dot + 1;
    }
    return vf_params_set(info->params, info->param_count, desc, assignment, err, cap);
}

/* Shortest %g text that reads back to v. */
static void format_double(double v, char *buf, size_t cap) { vf_format_double(v, buf, cap); }

void vf_scene_write_json(const vf_scene_info *info, const void *desc, const char *description, FILE *f)
{
    fprintf(f, "{\n  \"solver\": \"%s\",\n  \"scene\": \"%s\",\n  \"description\": ", info->family, info->name);
    cJSON *s = cJSON_CreateString(description ? description : info->description);
    char *text = s ? cJSON_PrintUnformatted(s) : NULL;
    fprintf(f, "%s,\n  \"%s\": {\n", text ? text : "\"\"", info->family);
    free(text);
    cJSON_Delete(s);
    for (size_t i = 0; i < info->param_count; i++) {
        const vf_param_def *d = &info->params[i];
        char v[64];
        if (d->type == VF_PARAM_DOUBLE)
            format_double(*(const double *)((const char *)desc + d->offset), v, sizeof v);
        else
            vf_params_format(d, desc, v, sizeof v);
        bool quote = d->type == VF_PARAM_ENUM;
        fprintf(f, "    \"%s\": %s%s%s%s\n", d->key, quote ? "\"" : "", v, quote ? "\"" : "", i + 1 < info->param_count ? "," : "");
    }
    const vf_scene_shapes *sh = vf_scene_shapes_of(info, (void *)desc);
    if (sh && sh->render_mode[0])
        fprintf(f, "  },\n  \"render\": {\"mode\": \"%s\"}\n}\n", sh->render_mode); /* printable (parser) */
    else
        fprintf(f, "  }\n}\n");
}

void vf_scene_format_error(const vf_scene_info *info, const char *label, const char *key, const char *why, char *err,
                           size_t cap)
{
    /* the key comes from the check that wrote why (vf_set_key_err), never from its text */
    if (key && vf_params_find(info->params, info->param_count, key))
        snprintf(err, cap, "%s: %s.%s", label, info->family, why);
    else
        snprintf(err, cap, "%s: %s", label, why[0] ? why : "invalid parameters");
}

vf_result vf_scene_validate(const vf_scene_info *info, const void *desc, const char *label, char *err, size_t cap)
{
    if (!info->validate)
        return VF_OK;
    char why[1024] = "";
    const char *key = NULL;
    vf_result r = info->validate(info, desc, &key, why, sizeof why);
    if (r != VF_OK)
        vf_scene_format_error(info, label, key, why, err, cap);
    return r;
}

vf_result vf_scene_check_bytes(const uint8_t *data, size_t size, char *err, size_t cap)
{
    vf_result r;
    if (size >= 4 && !memcmp(data, "set:", 4)) {
        /* Parameter assignments, one per line, on the first built-in scene. */
        vf_scene_loaded sc;
        if ((r = vf_scene_load_builtin(vf_scenes[0], &sc, err, cap)) != VF_OK)
            return r;
        char line[256];
        size_t i = 4;
        while (r == VF_OK && i < size) {
            size_t n = 0;
            while (i < size && data[i] != '\n') {
                if (n + 1 < sizeof line)
                    line[n++] = (char)data[i];
                i++;
            }
            i++;
            line[n] = 0;
            if (n && strlen(line) == n)
                r = vf_scene_set(sc.info, sc.desc, line, err, cap);
        }
        if (r == VF_OK)
            r = vf_scene_validate(sc.info, sc.desc, "set", err, cap);
        vf_scene_loaded_free(&sc);
        return r;
    }
    vf_scene_loaded sc;
    if ((r = vf_scene_parse("fuzz.json", (const char *)data, size, &sc, err, cap)) != VF_OK)
        return r;
    r = vf_scene_validate(sc.info, sc.desc, "fuzz.json", err, cap);
    vf_scene_loaded_free(&sc);
    return r;
}
