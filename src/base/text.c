#include "text.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VF_SUGGEST_MAX 64 /* longer words are not compared */

/* optimal string alignment distance, case-insensitive */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > VF_SUGGEST_MAX || lb > VF_SUGGEST_MAX)
        return (size_t)-1;
    static const size_t W = VF_SUGGEST_MAX + 1;
    size_t d[(VF_SUGGEST_MAX + 1) * (VF_SUGGEST_MAX + 1)];
    for (size_t i = 0; i <= la; i++)
        d[i * W] = i;
    for (size_t j = 0; j <= lb; j++)
        d[j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
            size_t best = d[(i - 1) * W + j - 1] + (ca != cb);
            if (d[(i - 1) * W + j] + 1 < best)
                best = d[(i - 1) * W + j] + 1;
            if (d[i * W + j - 1] + 1 < best)
                best = d[i * W + j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) && tolower((unsigned char)a[i - 2]) == cb &&
                d[(i - 2) * W + j - 2] + 1 < best)
                best = d[(i - 2) * W + j - 2] + 1;
            d[i * W + j] = best;
        }
    return d[la * W + lb];
}

const char *vf_suggest(const char *word, const char *const *cands, size_t n)
{
    if (!word || !word[0] || !cands)
        return NULL;
    size_t len = strlen(word), limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
    const char *best = NULL, *prefix = NULL;
    size_t best_d = (size_t)-1, prefixes = 0;
    for (size_t i = 0; i < n; i++) {
        if (!cands[i] || !cands[i][0])
            continue;
        if (!strncmp(cands[i], word, len)) {
            prefix = cands[i];
            prefixes++;
        }
        size_t d = distance(word, cands[i]);
        if (d < best_d) {
            best_d = d;
            best = cands[i];
        }
    }
    if (best && best_d <= limit)
        return best;
    return prefixes == 1 ? prefix : NULL;
}

const char *vf_suggest_in_list(const char *word, const char *list, const char *seps, char *out, size_t cap)
{
    if (!list || !seps)
        return NULL;
    char *copy = strdup(list);
    if (!copy)
        return NULL;
    const char *items[256];
    size_t n = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, seps, &save); t && n < 256; t = strtok_r(NULL, seps, &save))
        items[n++] = t;
    const char *s = vf_suggest(word, items, n);
    if (s)
        snprintf(out, cap, "%s", s);
    free(copy);
    return s ? out : NULL;
}

void vf_format_double(double v, char *buf, size_t cap)
{
    /* whole digits of |v| below 1e15: printed without an exponent (100, not 1e+02) */
    int whole = 1;
    for (double a = fabs(v); a >= 10.0 && a < 1e15 && whole < 17; a /= 10.0)
        whole++;
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, cap, "%.*g", prec > whole ? prec : whole, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, cap, "%.17g", v);
}

void vf_text_safe(const char *s, char *buf, size_t cap, size_t max)
{
    size_t n = 0, limit = cap - 1 < max ? cap - 1 : max;
    for (; s && s[n] && n < limit; n++)
        buf[n] = ((unsigned char)s[n] < 0x20 || s[n] == 0x7f || s[n] == '\'') ? '?' : s[n];
    if (s && s[n]) { /* cut: do not end inside a UTF-8 sequence */
        while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
            n--;
        if (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0xc0)
            n--;
    }
    buf[n] = 0;
    if (s && s[n] && n + 3 < cap)
        strcat(buf, "...");
}

void vf_set_err(char *err, size_t cap, const char *fmt, ...)
{
    if (!err || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
}

void vf_format_bytes(unsigned long long bytes, char *buf, size_t cap)
{
    if (bytes >= (1ull << 30))
        snprintf(buf, cap, "%.1f GiB", (double)bytes / (double)(1ull << 30));
    else
        snprintf(buf, cap, "%.0f MiB", (double)bytes / (double)(1ull << 20));
}

bool vf_text_icontains(const char *hay, const char *needle)
{
    size_t nl = strlen(needle);
    if (nl == 0)
        return false;
    for (const char *h = hay; *h; h++) {
        size_t k = 0;
        while (k < nl && h[k] && tolower((unsigned char)h[k]) == tolower((unsigned char)needle[k]))
            k++;
        if (k == nl)
            return true;
    }
    return false;
}
