#include "params.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void *field(void *desc, const vf_param_def *d)
{
    return (char *)desc + d->offset;
}

static const void *cfield(const void *desc, const vf_param_def *d)
{
    return (const char *)desc + d->offset;
}

void vf_params_defaults(const vf_param_def *table, size_t count, void *desc)
{
    for (size_t i = 0; i < count; i++) {
        const vf_param_def *d = &table[i];
        switch (d->type) {
        case VF_PARAM_DOUBLE: *(double *)field(desc, d) = d->def; break;
        case VF_PARAM_INT:
        case VF_PARAM_ENUM: *(int *)field(desc, d) = (int)d->def; break;
        case VF_PARAM_BOOL: *(bool *)field(desc, d) = d->def != 0.0; break;
        }
    }
}

const vf_param_def *vf_params_find(const vf_param_def *table, size_t count, const char *key)
{
    for (size_t i = 0; i < count; i++)
        if (!strcmp(table[i].key, key))
            return &table[i];
    return NULL;
}

/* Finds choice `value` in "a|b|c"; returns its index or -1. */
int vf_choice_index(const char *choices, const char *value)
{
    int idx = 0;
    size_t vl = strlen(value);
    for (const char *p = choices; p && *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == vl && !strncmp(p, value, len))
            return idx;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

static void choice_name(const char *choices, int index, char *buf, size_t cap)
{
    const char *p = choices;
    for (int i = 0; p && i < index; i++) {
        p = strchr(p, '|');
        if (p)
            p++;
    }
    if (!p) {
        snprintf(buf, cap, "?");
        return;
    }
    const char *bar = strchr(p, '|');
    int len = bar ? (int)(bar - p) : (int)strlen(p);
    snprintf(buf, cap, "%.*s", len, p);
}

static void range_text(const vf_param_def *d, char *buf, size_t cap)
{
    if (d->type == VF_PARAM_ENUM)
        snprintf(buf, cap, "one of %s", d->choices);
    else if (d->type == VF_PARAM_BOOL)
        snprintf(buf, cap, "true or false");
    else if (d->type == VF_PARAM_INT)
        snprintf(buf, cap, "an integer in %s%.0f, %.0f]", d->min_exclusive ? "(" : "[", d->min, d->max);
    else
        snprintf(buf, cap, "a number in %s%g, %g]", d->min_exclusive ? "(" : "[", d->min, d->max);
}

void vf_params_allowed(const vf_param_def *def, char *buf, size_t cap)
{
    range_text(def, buf, cap);
}

vf_result vf_params_set_number(const vf_param_def *d, void *desc, double v, char *err, size_t cap)
{
    char allowed[160];
    range_text(d, allowed, sizeof allowed);
    if (d->type != VF_PARAM_DOUBLE && d->type != VF_PARAM_INT) {
        snprintf(err, cap, "a number is not allowed: must be %s", allowed);
        return VF_ERR_INVALID_ARG;
    }
    if (!isfinite(v)) {
        snprintf(err, cap, "%g is not a finite number: must be %s", v, allowed);
        return VF_ERR_INVALID_ARG;
    }
    char shown[32];
    snprintf(shown, sizeof shown, "%.6g", v); /* messages show at most 6 significant digits */
    if (d->type == VF_PARAM_INT && v != floor(v)) {
        snprintf(err, cap, "%s%s is not an integer: must be %s", strpbrk(shown, ".e") ? "" : "about ", shown, allowed);
        return VF_ERR_INVALID_ARG;
    }
    if (v < d->min || v > d->max || (d->min_exclusive && v <= d->min)) {
        snprintf(err, cap, "%s is out of range: must be %s", shown, allowed);
        return VF_ERR_INVALID_ARG;
    }
    if (d->type == VF_PARAM_INT)
        *(int *)field(desc, d) = (int)v;
    else
        *(double *)field(desc, d) = v;
    return VF_OK;
}

vf_result vf_params_set_bool(const vf_param_def *d, void *desc, bool v, char *err, size_t cap)
{
    char allowed[160];
    range_text(d, allowed, sizeof allowed);
    if (d->type != VF_PARAM_BOOL) {
        snprintf(err, cap, "%s (a boolean) is not allowed: must be %s", v ? "true" : "false", allowed);
        return VF_ERR_INVALID_ARG;
    }
    *(bool *)field(desc, d) = v;
    return VF_OK;
}

vf_result vf_params_set_choice(const vf_param_def *d, void *desc, const char *choice, char *err, size_t cap)
{
    char allowed[160];
    range_text(d, allowed, sizeof allowed);
    int idx = d->type == VF_PARAM_ENUM ? vf_choice_index(d->choices, choice) : -1;
    if (idx < 0) {
        if (d->type != VF_PARAM_ENUM)
            snprintf(err, cap, "a string is not allowed: must be %s", allowed);
        else
            snprintf(err, cap, "unknown value: must be %s", allowed);
        return VF_ERR_INVALID_ARG;
    }
    *(int *)field(desc, d) = idx;
    return VF_OK;
}

bool vf_params_json_number(const char *s)
{
    const char *p = s;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return false;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return false;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return *p == 0;
}

vf_result vf_params_set_value(const vf_param_def *d, void *desc, const char *value, char *err, size_t cap)
{
    char allowed[160], shown[72];
    range_text(d, allowed, sizeof allowed);
    vf_text_safe(value, shown, sizeof shown, 60);
    if (!value || !*value) {
        snprintf(err, cap, "%s: empty value: must be %s", d->key, allowed);
        return VF_ERR_INVALID_ARG;
    }
    switch (d->type) {
    case VF_PARAM_ENUM: {
        int idx = vf_choice_index(d->choices, value);
        if (idx < 0) {
            snprintf(err, cap, "%s=%s: unknown value: must be %s", d->key, shown, allowed);
            return VF_ERR_INVALID_ARG;
        }
        *(int *)field(desc, d) = idx;
        return VF_OK;
    }
    case VF_PARAM_BOOL: {
        bool v;
        if (!strcasecmp(value, "true") || !strcasecmp(value, "on") || !strcmp(value, "1") || !strcasecmp(value, "yes"))
            v = true;
        else if (!strcasecmp(value, "false") || !strcasecmp(value, "off") || !strcmp(value, "0") || !strcasecmp(value, "no"))
            v = false;
        else {
            snprintf(err, cap, "%s=%s: not a boolean: must be %s", d->key, shown, allowed);
            return VF_ERR_INVALID_ARG;
        }
        *(bool *)field(desc, d) = v;
        return VF_OK;
    }
    case VF_PARAM_INT:
    case VF_PARAM_DOUBLE: {
        char *end = NULL;
        errno = 0;
        double v = strtod(value, &end);
        if (!end || *end || end == value || !vf_params_json_number(value)) {
            snprintf(err, cap, "%s=%s: not a number as JSON writes one (digits, no leading zero, no hex or spaces): "
                     "must be %s", d->key, shown, allowed);
            return VF_ERR_INVALID_ARG;
        }
        if (!isfinite(v) || errno == ERANGE) {
            snprintf(err, cap, "%s=%s: not a finite number: must be %s", d->key, shown, allowed);
            return VF_ERR_INVALID_ARG;
        }
        if (d->type == VF_PARAM_INT && v != floor(v)) {
            snprintf(err, cap, "%s=%s: not an integer: must be %s", d->key, shown, allowed);
            return VF_ERR_INVALID_ARG;
        }
        if (v < d->min || v > d->max || (d->min_exclusive && v <= d->min)) {
            snprintf(err, cap, "%s=%s: out of range: must be %s", d->key, shown, allowed);
            return VF_ERR_INVALID_ARG;
        }
        if (d->type == VF_PARAM_INT)
            *(int *)field(desc, d) = (int)v;
        else
            *(double *)field(desc, d) = v;
        return VF_OK;
    }
    }
    return VF_ERR_INVALID_ARG;
}

vf_result vf_params_set(const vf_param_def *table, size_t count, void *desc, const char *assignment, char *err, size_t cap)
{
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    if (!eq || eq == assignment) {
        char shown[72];
        vf_text_safe(assignment, shown, sizeof shown, 60);
        snprintf(err, cap, "--set %s: expected key=value", shown);
        return VF_ERR_INVALID_ARG;
    }
    char key[96];
    size_t kl = (size_t)(eq - assignment);
    if (kl >= sizeof key) {
        snprintf(err, cap, "--set: key too long");
        return VF_ERR_INVALID_ARG;
    }
    memcpy(key, assignment, kl);
    key[kl] = 0;
    const vf_param_def *d = vf_params_find(table, count, key);
    if (!d) {
        char shown[72];
        vf_text_safe(key, shown, sizeof shown, 60);
        char known[1024];
        size_t used = 0;
        known[0] = 0;
        for (size_t i = 0; i < count && used + 1 < sizeof known; i++) {
            int w = snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "", table[i].key);
            if (w < 0)
                break;
            used += (size_t)w;
        }
        const char *names[256] = {0};
        size_t n = 0;
        for (size_t i = 0; i < count && n < 256; i++)
            names[n++] = table[i].key;
        const char *near = vf_suggest(key, names, n);
        if (near)
            snprintf(err, cap, "unknown key '%s': did you mean %s? known keys are %s", shown, near, known);
        else
            snprintf(err, cap, "unknown key '%s': known keys are %s", shown, count ? known : "(none)");
        return VF_ERR_INVALID_ARG;
    }
    return vf_params_set_value(d, desc, eq + 1, err, cap);
}

void vf_params_format(const vf_param_def *d, const void *desc, char *buf, size_t cap)
{
    switch (d->type) {
    case VF_PARAM_DOUBLE: vf_format_double(*(const double *)cfield(desc, d), buf, cap); break;
    case VF_PARAM_INT: snprintf(buf, cap, "%d", *(const int *)cfield(desc, d)); break;
    case VF_PARAM_BOOL: snprintf(buf, cap, "%s", *(const bool *)cfield(desc, d) ? "true" : "false"); break;
    case VF_PARAM_ENUM: choice_name(d->choices, *(const int *)cfield(desc, d), buf, cap); break;
    }
}

void vf_params_write_json(const vf_param_def *table, size_t count, const void *desc, FILE *f, const char *indent)
{
    for (size_t i = 0; i < count; i++) {
        char v[64];
        vf_params_format(&table[i], desc, v, sizeof v);
        bool quote = table[i].type == VF_PARAM_ENUM;
        fprintf(f, "%s\"%s\": %s%s%s%s\n", indent, table[i].key, quote ? "\"" : "", v, quote ? "\"" : "",
                i + 1 < count ? "," : "");
    }
}

void vf_params_print_help(const vf_param_def *table, size_t count, const void *desc, FILE *f)
{
    for (size_t i = 0; i < count; i++) {
        const vf_param_def *d = &table[i];
        char def[64], allowed[160];
        if (desc && d->type == VF_PARAM_DOUBLE)
            snprintf(def, sizeof def, "%g", *(const double *)cfield(desc, d));
        else if (desc)
            vf_params_format(d, desc, def, sizeof def);
        else if (d->type == VF_PARAM_DOUBLE)
            snprintf(def, sizeof def, "%g", d->def);
        else if (d->type == VF_PARAM_INT)
            snprintf(def, sizeof def, "%d", (int)d->def);
        else if (d->type == VF_PARAM_BOOL)
            snprintf(def, sizeof def, "%s", d->def != 0.0 ? "true" : "false");
        else
            choice_name(d->choices, (int)d->def, def, sizeof def);
        range_text(d, allowed, sizeof allowed);
        bool unit = d->unit && *d->unit && strcmp(d->unit, "1"); /* "1": dimensionless */
        fprintf(f, "  %-18s %s (default %s%s%s; %s)\n", d->key, d->help ? d->help : "", def, unit ? " " : "",
                unit ? d->unit : "", allowed);
    }
}
