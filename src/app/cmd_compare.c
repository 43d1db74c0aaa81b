/* cmd_compare: `vkfluid compare A B`: compares two PNG images or two capture
 * folders frame by frame, prints the metrics (a table or JSON) and checks them
 * against thresholds. Exit 0 all frames pass, 1 a threshold failed, 2 bad
 * input, 3 runtime failure (out of memory). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "compare.h"
#include "options.h"
#include "png_io.h"

enum { M_PSNR, M_SSIM, M_MEAN, M_MAX, M_DIFFER, M_COUNT };

typedef struct metric_info {
    const char *name;
    bool minimum; /* true: the value must be at least the threshold; false: at most */
    double lo, hi; /* accepted threshold range */
    const char *example;
} metric_info;

static const metric_info metrics[M_COUNT] = {
    [M_PSNR] = {"psnr", true, 0.0, 1000.0, "psnr=40"},
    [M_SSIM] = {"ssim", true, -1.0, 1.0, "ssim=0.99"},
    [M_MEAN] = {"mean", false, 0.0, 255.0, "mean=0.5"},
    [M_MAX] = {"max", false, 0.0, 255.0, "max=8"},
    [M_DIFFER] = {"differ", false, 0.0, 1.0, "differ=0.001"},
};

typedef struct compare_options {
    const char *a, *b;
    const char *diff;
    bool json;
    uint32_t tolerance;
    bool threshold_set[M_COUNT];
    double threshold[M_COUNT];
} compare_options;

typedef struct frame_result {
    char *name; /* file name (folders) or the name of A (files) */
    vf_compare_stats stats;
    unsigned failed; /* bit per metric */
} frame_result;

typedef struct frame_list {
    char **names;
    size_t count, cap;
} frame_list;

static void print_usage(FILE *f)
{
    fprintf(f,
            "usage: vkfluid compare A B [options]\n"
            "\n"
            "Compares two PNG images, or two capture folders frame by frame (files named\n"
            "frame_*.png, matched by name; a frame present on one side only is an error),\n"
            "prints the differences and checks them against thresholds.\n"
            "\n"
            "options:\n"
            "  --diff OUT        write a heat map of the difference: black where identical,\n"
            "                    then purple, orange, pale yellow on a log scale of the\n"
            "                    largest channel difference; for two files OUT is a png\n"
            "                    file, for two folders a folder (created if missing) that\n"
            "                    gets one png per frame, named like the frame\n"
            "  --threshold METRIC=VALUE\n"
            "                    fail (exit 1) when any frame is worse; repeatable, the\n"
            "                    last value of a metric wins:\n"
            "                      psnr=DB       minimum PSNR in dB (identical passes)\n"
            "                      ssim=S        minimum SSIM (-1..1)\n"
            "                      mean=LEVELS   maximum mean difference (0..255)\n"
            "                      max=LEVELS    maximum difference (0..255)\n"
            "                      differ=SHARE  maximum share of differing pixels (0..1)\n"
            "  --tolerance LEVELS\n"
            "                    a pixel differs when one of its channels differs by more\n"
            "                    than LEVELS (0..255, default %u)\n"
            "  --json            print a JSON document on stdout instead of the table\n"
            "  -h, --help        show this help\n"
            "\n"
            "metrics (alpha is ignored; d = |A - B| per R, G, B sample, 0..255):\n"
            "  psnr    10 log10(255^2 / mean d^2) in dB; inf when identical\n"
            "  ssim    mean SSIM (Wang et al. 2004) on Rec.709 luma, 11x11 Gaussian window,\n"
            "          sigma 1.5, K1 0.01, K2 0.03, valid windows only; images under 11 px\n"
            "          on a side use one global window\n"
            "  mean    mean of d          max     largest d\n"
            "  differ  share of pixels whose largest channel d exceeds the tolerance\n"
            "overall: the worst frame for psnr, ssim, max and differ; the mean of the\n"
            "per-frame means for mean. Thresholds are checked on every frame.\n"
            "\n"
            "json: {\"a\", \"b\", \"mode\" (\"files\"|\"folders\"), \"tolerance\", \"thresholds\",\n"
            "  \"frames\": [{\"name\", \"width\", \"height\", \"psnr\", \"ssim\", \"mse\", \"mean\",\n"
            "  \"max\", \"differ\", \"differ_pixels\", \"identical\", \"pass\", \"failed\"}],\n"
            "  \"overall\": {\"frames\", \"failed_frames\", \"psnr\", \"ssim\", \"mean\", \"max\",\n"
            "  \"differ\", \"identical\", \"pass\"}, \"pass\"}; psnr is null when identical (inf).\n"
            "\n"
            "exit codes: 0 every frame passes, 1 a threshold failed, 2 bad input (missing\n"
            "or non-png file, different sizes, unmatched frames, bad option), 3 runtime error\n",
            VF_COMPARE_DEFAULT_TOLERANCE);
}

/* ------------------------------------------------------------------ parsing */

static int parse_threshold(const char *spec, compare_options *opt)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec) {
        vf_app_error("--threshold %s: expected METRIC=VALUE: e.g. --threshold psnr=40", spec);
        return VF_EXIT_USAGE;
    }
    size_t name_len = (size_t)(eq - spec);
    int m = -1;
    for (int i = 0; i < M_COUNT; i++)
        if (strlen(metrics[i].name) == name_len && !strncmp(spec, metrics[i].name, name_len))
            m = i;
    if (m < 0) {
        vf_app_error("--threshold %s: unknown metric '%.*s': use psnr, ssim, mean, max or differ", spec,
                     (int)name_len, spec);
        return VF_EXIT_USAGE;
    }
    double v = 0.0;
    if (!vf_app_parse_double(eq + 1, &v)) {
        vf_app_error("--threshold %s: '%s' is not a number: e.g. --threshold %s", spec, eq + 1, metrics[m].example);
        return VF_EXIT_USAGE;
    }
    if (v < metrics[m].lo || v > metrics[m].hi) {
        vf_app_error("--threshold %s: value out of range %g..%g: e.g. --threshold %s", spec, metrics[m].lo,
                     metrics[m].hi, metrics[m].example);
        return VF_EXIT_USAGE;
    }
    opt->threshold_set[m] = true;
    opt->threshold[m] = v;
    return VF_EXIT_OK;
}

static int parse_diff(const char *name, const char *value, void *ctx)
{
    if (!*value) {
        vf_app_error("%s: empty path: give a png file or a folder", name);
        return VF_EXIT_USAGE;
    }
    *(const char **)ctx = value;
    return VF_EXIT_OK;
}

static int parse_threshold_opt(const char *name, const char *value, void *ctx)
{
    (void)name;
    return parse_threshold(value, ctx);
}

/* Returns -1 to go on, else the exit code (help or bad usage). */
static int parse_args(int argc, char **argv, compare_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->tolerance = VF_COMPARE_DEFAULT_TOLERANCE;
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (vf_app_is_help(argv[i])) {
            print_usage(stdout);
            return VF_EXIT_OK;
        }
    const char *pos[2] = {NULL, NULL};
    vf_opt_inputs inputs = {pos, 2, 0};
    const vf_opt table[] = {
        {.name = "--json", .type = VF_OPT_FLAG, .out = &opt->json},
        {.name = "--diff", .type = VF_OPT_CALL, .out = &opt->diff, .parse = parse_diff},
        {.name = "--tolerance", .type = VF_OPT_U32, .out = &opt->tolerance, .max = 255,
         .must = " levels: e.g. --tolerance 2"},
        {.name = "--threshold", .type = VF_OPT_CALL, .out = opt, .parse = parse_threshold_opt},
        {.type = VF_OPT_INPUTS, .out = &inputs, .must = "two inputs A and B"},
    };
    bool help = false;
    int rc = vf_opt_parse("compare", argc, argv, VF_OPT_TABLE(table), &help, NULL);
    if (rc)
        return rc;
    if (inputs.count < 2) {
        vf_app_error("compare needs two inputs A and B: usage: vkfluid compare A B [options] (see --help)");
        return VF_EXIT_USAGE;
    }
    opt->a = pos[0];
    opt->b = pos[1];
    return -1;
}

/* ------------------------------------------------------------------ helpers */

static char *path_join(const char *dir, const char *name)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool slash = dl > 0 && dir[dl - 1] == '/';
    char *p = malloc(dl + nl + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, dl);
    size_t o = dl;
    if (!slash)
        p[o++] = '/';
    memcpy(p + o, name, nl + 1);
    return p;
}

static const char *base_name(const char *path)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    const char *p = path + len;
    while (p > path && p[-1] != '/')
        p--;
    return p;
}

static void lower_first(char *s)
{
    if (s[0] >= 'A' && s[0] <= 'Z')
        s[0] = (char)(s[0] - 'A' + 'a');
}

/* Prints "error: PATH: <strerror>: FIX" for a failed stat/open/mkdir. */
static void errno_error(const char *path, int err, const char *fix)
{
    char msg[128];
    snprintf(msg, sizeof msg, "%s", strerror(err));
    lower_first(msg);
    vf_app_error("%s: %s: %s", path, msg, fix);
}

/* frame_DIGITS.png, as capture names them: a listed name is printed, so a
 * name with other bytes (an escape sequence) is never taken */
static bool is_frame_name(const char *name)
{
    size_t len = strlen(name);
    if (len <= 10 || strncmp(name, "frame_", 6) || strcmp(name + len - 4, ".png"))
        return false;
    for (size_t i = 6; i < len - 4; i++)
        if (name[i] < '0' || name[i] > '9')
            return false;
    return true;
}

static int cmp_names(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void frame_list_free(frame_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->names[i]);
    free(list->names);
    memset(list, 0, sizeof *list);
}

/* Lists dir's frame_*.png names, sorted. Returns an exit code (0 ok). */
static int list_frames(const char *dir, frame_list *list)
{
    memset(list, 0, sizeof *list);
    DIR *d = opendir(dir);
    if (!d) {
        errno_error(dir, errno, "give a readable capture folder");
        return VF_EXIT_USAGE;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_frame_name(e->d_name))
            continue;
        if (list->count == list->cap) {
            size_t cap = list->cap ? list->cap * 2 : 64;
            char **grown = realloc(list->names, cap * sizeof *grown);
            if (!grown) {
                closedir(d);
                frame_list_free(list);
                vf_app_error("%s: out of memory listing the frames: free some memory", dir);
                return VF_EXIT_RUNTIME;
            }
            list->names = grown;
            list->cap = cap;
        }
        list->names[list->count] = strdup(e->d_name);
        if (!list->names[list->count]) {
            closedir(d);
            frame_list_free(list);
            vf_app_error("%s: out of memory listing the frames: free some memory", dir);
            return VF_EXIT_RUNTIME;
        }
        list->count++;
    }
    closedir(d);
    if (list->count > 1)
        qsort(list->names, list->count, sizeof *list->names, cmp_names);
    return VF_EXIT_OK;
}

/* Checks that both folders hold the same frame names. Returns an exit code. */
static int match_frames(const compare_options *opt, const frame_list *fa, const frame_list *fb)
{
    if (fa->count == 0 && fb->count == 0) {
        vf_app_error("%s: no frame_*.png files here nor in %s: give two capture folders", opt->a, opt->b);
        return VF_EXIT_USAGE;
    }
    size_t i = 0, j = 0, unmatched = 0;
    const char *first_name = NULL, *first_missing_in = NULL, *first_present_in = NULL;
    while (i < fa->count || j < fb->count) {
        int c = i == fa->count ? 1 : j == fb->count ? -1 : strcmp(fa->names[i], fb->names[j]);
        if (c == 0) {
            i++;
            j++;
            continue;
        }
        unmatched++;
        if (!first_name) {
            first_name = c < 0 ? fa->names[i] : fb->names[j];
            first_missing_in = c < 0 ? opt->b : opt->a;
            first_present_in = c < 0 ? opt->a : opt->b;
        }
        if (c < 0)
            i++;
        else
            j++;
    }
    if (unmatched == 0)
        return VF_EXIT_OK;
    char *missing = path_join(first_missing_in, first_name);
    vf_app_error("%s: missing frame, present in %s (%zu unmatched frame%s in all): compare folders captured "
                 "with the same frames",
                 missing ? missing : first_name, first_present_in, unmatched, unmatched == 1 ? "" : "s");
    free(missing);
    return VF_EXIT_USAGE;
}

static bool same_file(const struct stat *x, const struct stat *y)
{
    return x->st_dev == y->st_dev && x->st_ino == y->st_ino;
}

static unsigned check_thresholds(const compare_options *opt, const vf_compare_stats *s)
{
    double v[M_COUNT] = {
        [M_PSNR] = s->psnr, [M_SSIM] = s->ssim, [M_MEAN] = s->mean_abs,
        [M_MAX] = (double)s->max_abs, [M_DIFFER] = s->differ_share,
    };
    unsigned failed = 0;
    for (int m = 0; m < M_COUNT; m++) {
        if (!opt->threshold_set[m])
            continue;
        bool ok = metrics[m].minimum ? v[m] >= opt->threshold[m] : v[m] <= opt->threshold[m];
        if (!ok)
            failed |= 1u << m;
    }
    return failed;
}

/* Reads one PNG, printing the one-line error on failure. Returns an exit code. */
static int read_png(const char *path, uint8_t **px, uint32_t *w, uint32_t *h)
{
    vf_png_detail detail = {{0}, NULL};
    vf_result r = vf_png_read_ex(path, px, w, h, &detail);
    if (r == VF_OK)
        return VF_EXIT_OK;
    vf_app_error("%s: %s: %s", path, detail.what[0] ? detail.what : vf_result_message(r),
                 detail.fix ? detail.fix : "check the file");
    return vf_app_exit_code(r);
}

/* Reads one PNG's size from its header, printing the one-line error on
 * failure. Returns an exit code. */
static int read_png_header(const char *path, uint32_t *w, uint32_t *h)
{
    vf_png_detail detail = {{0}, NULL};
    vf_result r = vf_png_read_header(path, w, h, &detail);
    if (r == VF_OK)
        return VF_EXIT_OK;
    vf_app_error("%s: %s: %s", path, detail.what[0] ? detail.what : vf_result_message(r),
                 detail.fix ? detail.fix : "check the file");
    return vf_app_exit_code(r);
}

/* Compares one pair of files into *res; writes the diff to diff_path when not
 * NULL. Returns an exit code (0 ok). */
static int compare_pair(const compare_options *opt, const char *pa, const char *pb, const char *diff_path,
                        frame_result *res)
{
    uint8_t *a = NULL, *b = NULL;
    uint32_t aw = 0, ah = 0, bw = 0, bh = 0;
    /* the sizes from the headers first: nothing is decoded for images that differ in size */
    int rc = read_png_header(pa, &aw, &ah);
    if (rc == VF_EXIT_OK)
        rc = read_png_header(pb, &bw, &bh);
    if (rc == VF_EXIT_OK && (aw != bw || ah != bh)) {
        vf_app_error("%s: size %ux%u differs from %s (%ux%u): compare images of the same size", pb, bw, bh, pa, aw,
                     ah);
        rc = VF_EXIT_USAGE;
    }
    if (rc == VF_EXIT_OK)
        rc = read_png(pa, &a, &aw, &ah);
    if (rc == VF_EXIT_OK)
        rc = read_png(pb, &b, &bw, &bh);
    if (rc == VF_EXIT_OK && (aw != bw || ah != bh)) { /* a file that changed since its header was read */
        vf_app_error("%s: size %ux%u differs from %s (%ux%u): compare images of the same size", pb, bw, bh, pa, aw,
                     ah);
        rc = VF_EXIT_USAGE;
    }
    if (rc == VF_EXIT_OK) {
        vf_result r = vf_compare_images(a, b, aw, ah, opt->tolerance, &res->stats);
        if (r != VF_OK) {
            vf_app_error("%s: cannot compare: %s: free some memory or compare smaller images", pb,
                         vf_result_message(r));
            rc = vf_app_exit_code(r);
        }
    }
    if (rc == VF_EXIT_OK) {
        res->failed = check_thresholds(opt, &res->stats);
        if (diff_path) {
            uint8_t *diff = NULL;
            vf_result r = vf_compare_diff_image(a, b, aw, ah, &diff);
            vf_png_detail detail = {{0}, NULL};
            if (r == VF_OK)
                r = vf_png_write_ex(diff_path, diff, aw, ah, 4, &detail);
            free(diff);
            if (r != VF_OK) {
                vf_app_error("%s: %s: %s", diff_path, detail.what[0] ? detail.what : vf_result_message(r),
                             detail.fix ? detail.fix : "check the --diff path");
                rc = VF_EXIT_RUNTIME; /* an output that cannot be written: 3 in every command */
            }
        }
    }
    free(a);
    free(b);
    return rc;
}

/* ------------------------------------------------------------------ output */

typedef struct overall {
    size_t frames, failed_frames;
    double psnr, ssim, mean, differ;
    uint32_t max;
    bool identical;
} overall;

static overall summarize(const frame_result *res, size_t n)
{
    overall o = {.frames = n, .psnr = INFINITY, .ssim = INFINITY, .identical = true};
    double mean_sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        const vf_compare_stats *s = &res[i].stats;
        if (res[i].failed)
            o.failed_frames++;
        o.psnr = fmin(o.psnr, s->psnr);
        o.ssim = fmin(o.ssim, s->ssim);
        mean_sum += s->mean_abs;
        if (s->max_abs > o.max)
            o.max = s->max_abs;
        o.differ = fmax(o.differ, s->differ_share);
        if (s->mse != 0.0)
            o.identical = false;
    }
    o.mean = n ? mean_sum / (double)n : 0.0;
    return o;
}

static void format_psnr(char *buf, size_t cap, double psnr)
{
    if (isinf(psnr))
        snprintf(buf, cap, "inf");
    else
        snprintf(buf, cap, "%.3f", psnr);
}

static void format_failed(char *buf, size_t cap, unsigned failed)
{
    if (!failed) {
        snprintf(buf, cap, "pass");
        return;
    }
    size_t o = (size_t)snprintf(buf, cap, "FAIL ");
    bool first = true;
    for (int m = 0; m < M_COUNT && o < cap; m++)
        if (failed & (1u << m)) {
            o += (size_t)snprintf(buf + o, cap - o, "%s%s", first ? "" : ",", metrics[m].name);
            first = false;
        }
}

static void print_table(const compare_options *opt, bool folders, const frame_result *res, size_t n)
{
    overall o = summarize(res, n);
    int name_w = 7; /* "overall" */
    for (size_t i = 0; i < n; i++) {
        int len = (int)strlen(res[i].name);
        if (len > name_w)
            name_w = len;
    }
    char sa[4096], sb[4096];
    printf("compare %s %s: %zu %s, tolerance %u levels\n", vf_app_shown(opt->a, sa, sizeof sa),
           vf_app_shown(opt->b, sb, sizeof sb), n,
           folders ? (n == 1 ? "frame" : "frames") : "image pair", opt->tolerance);
    printf("%-*s  %11s  %10s  %8s  %8s  %3s  %8s  %s\n", name_w, "frame", "size", "psnr dB", "ssim", "mean", "max",
           "differ", "result");
    char psnr[32], size[32], verdict[64];
    bool judged = false; /* without a threshold nothing is judged: no "pass" */
    for (int m = 0; m < M_COUNT; m++)
        judged = judged || opt->threshold_set[m];
    for (size_t i = 0; i < n; i++) {
        const vf_compare_stats *s = &res[i].stats;
        format_psnr(psnr, sizeof psnr, s->psnr);
        snprintf(size, sizeof size, "%ux%u", s->width, s->height);
        format_failed(verdict, sizeof verdict, res[i].failed);
        if (!judged)
            snprintf(verdict, sizeof verdict, "-");
        printf("%-*s  %11s  %10s  %8.6f  %8.4f  %3u  %7.3f%%  %s\n", name_w, vf_app_shown(res[i].name, sa, sizeof sa),
               size, psnr, s->ssim,
               s->mean_abs, s->max_abs, 100.0 * s->differ_share, verdict);
    }
    if (n > 1) {
        format_psnr(psnr, sizeof psnr, o.psnr);
        printf("%-*s  %11s  %10s  %8.6f  %8.4f  %3u  %7.3f%%  %s\n", name_w, "overall", "", psnr, o.ssim, o.mean,
               o.max, 100.0 * o.differ, !judged ? "-" : o.failed_frames ? "FAIL" : "pass");
    }
    bool any = false;
    for (int m = 0; m < M_COUNT; m++)
        if (opt->threshold_set[m]) {
            printf("%s%s %s %g", any ? ", " : "thresholds: ", metrics[m].name, metrics[m].minimum ? ">=" : "<=",
                   opt->threshold[m]);
            any = true;
        }
    printf(any ? "\n" : "thresholds: none\n");
    if (!judged)
        printf("result: not judged (no --threshold given)%s\n", o.identical ? "; identical" : "");
    else if (o.failed_frames)
        printf("result: FAIL (%zu of %zu %s failed a threshold)\n", o.failed_frames, n, n == 1 ? "frame" : "frames");
    else
        printf("result: pass%s\n", o.identical ? " (identical)" : "");
}

/* Writes s as a JSON string; invalid UTF-8 bytes become U+FFFD. */
static void json_string(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
            p++;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
            case '\b': fputs("\\b", f); break;
            case '\f': fputs("\\f", f); break;
            case '\n': fputs("\\n", f); break;
            case '\r': fputs("\\r", f); break;
            case '\t': fputs("\\t", f); break;
            default: fprintf(f, "\\u%04x", c); break;
            }
            p++;
        } else if (c < 0x80) {
            fputc(c, f);
            p++;
        } else {
            /* Validate one UTF-8 sequence (no overlongs, no surrogates, <= U+10FFFF). */
            int len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
            bool ok = len > 0;
            for (int k = 1; ok && k < len; k++)
                ok = (p[k] & 0xc0) == 0x80;
            if (ok && len == 3)
                ok = !(c == 0xe0 && p[1] < 0xa0) && !(c == 0xed && p[1] >= 0xa0);
            if (ok && len == 4)
                ok = !(c == 0xf0 && p[1] < 0x90) && !(c == 0xf4 && p[1] >= 0x90);
            if (ok) {
                fwrite(p, 1, (size_t)len, f);
                p += len;
            } else {
                fputs("\\ufffd", f);
                p++;
            }
        }
    }
    fputc('"', f);
}

/* Writes a finite number, or null (infinite PSNR: identical). */
static void json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputs("null", f);
}

static void print_json(const compare_options *opt, bool folders, const frame_result *res, size_t n)
{
    overall o = summarize(res, n);
    FILE *f = stdout;
    fputs("{\n  \"a\": ", f);
    json_string(f, opt->a);
    fputs(",\n  \"b\": ", f);
    json_string(f, opt->b);
    fprintf(f, ",\n  \"mode\": \"%s\",\n  \"tolerance\": %u,\n  \"thresholds\": {", folders ? "folders" : "files",
            opt->tolerance);
    bool any = false;
    for (int m = 0; m < M_COUNT; m++)
        if (opt->threshold_set[m]) {
            fprintf(f, "%s\"%s\": ", any ? ", " : "", metrics[m].name);
            json_number(f, opt->threshold[m]);
            any = true;
        }
    fputs("},\n  \"frames\": [", f);
    for (size_t i = 0; i < n; i++) {
        const vf_compare_stats *s = &res[i].stats;
        fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
        json_string(f, res[i].name);
        fprintf(f, ", \"width\": %u, \"height\": %u, \"psnr\": ", s->width, s->height);
        json_number(f, s->psnr);
        fputs(", \"ssim\": ", f);
        json_number(f, s->ssim);
        fputs(", \"mse\": ", f);
        json_number(f, s->mse);
        fputs(", \"mean\": ", f);
        json_number(f, s->mean_abs);
        fprintf(f, ", \"max\": %u, \"differ\": ", s->max_abs);
        json_number(f, s->differ_share);
        fprintf(f, ", \"differ_pixels\": %llu, \"identical\": %s, \"pass\": %s, \"failed\": [",
                (unsigned long long)s->differ_count, s->mse == 0.0 ? "true" : "false",
                res[i].failed ? "false" : "true");
        bool first = true;
        for (int m = 0; m < M_COUNT; m++)
            if (res[i].failed & (1u << m)) {
                fprintf(f, "%s\"%s\"", first ? "" : ", ", metrics[m].name);
                first = false;
            }
        fputs("]}", f);
    }
    fprintf(f, "\n  ],\n  \"overall\": {\"frames\": %zu, \"failed_frames\": %zu, \"psnr\": ", o.frames,
            o.failed_frames);
    json_number(f, o.psnr);
    fputs(", \"ssim\": ", f);
    json_number(f, o.ssim);
    fputs(", \"mean\": ", f);
    json_number(f, o.mean);
    fprintf(f, ", \"max\": %u, \"differ\": ", o.max);
    json_number(f, o.differ);
    fprintf(f, ", \"identical\": %s, \"pass\": %s},\n  \"pass\": %s\n}\n", o.identical ? "true" : "false",
            o.failed_frames ? "false" : "true", o.failed_frames ? "false" : "true");
}

/* ------------------------------------------------------------------ command */

/* Checks that --diff OUT will not overwrite an input and, for folders, that
 * OUT is (or becomes) a folder. Returns an exit code. */
static int prepare_diff(const compare_options *opt, bool folders, const struct stat *sa, const struct stat *sb)
{
    struct stat so;
    if (stat(opt->diff, &so) != 0) {
        if (errno != ENOENT) {
            errno_error(opt->diff, errno, "give a writable --diff path");
            return VF_EXIT_USAGE;
        }
        if (folders && mkdir(opt->diff, 0777) != 0) {
            errno_error(opt->diff, errno, "give a --diff folder whose parent exists and is writable");
            return VF_EXIT_USAGE;
        }
        return VF_EXIT_OK;
    }
    if (same_file(&so, sa) || same_file(&so, sb)) {
        vf_app_error("%s: --diff would overwrite an input: give another --diff path", opt->diff);
        return VF_EXIT_USAGE;
    }
    if (folders && !S_ISDIR(so.st_mode)) {
        vf_app_error("%s: exists and is not a folder: give a folder for --diff when comparing folders", opt->diff);
        return VF_EXIT_USAGE;
    }
    if (!folders && S_ISDIR(so.st_mode)) {
        vf_app_error("%s: is a directory: give a png file name for --diff when comparing two files", opt->diff);
        return VF_EXIT_USAGE;
    }
    return VF_EXIT_OK;
}

int vf_cmd_compare(int argc, char **argv)
{
    compare_options opt;
    int rc = parse_args(argc, argv, &opt);
    if (rc >= 0)
        return rc;
    rc = VF_EXIT_OK;

    struct stat sa, sb;
    if (stat(opt.a, &sa) != 0) {
        errno_error(opt.a, errno, "check the path");
        return VF_EXIT_USAGE;
    }
    if (stat(opt.b, &sb) != 0) {
        errno_error(opt.b, errno, "check the path");
        return VF_EXIT_USAGE;
    }
    bool folders = S_ISDIR(sa.st_mode);
    if (S_ISDIR(sa.st_mode) != S_ISDIR(sb.st_mode)) {
        const char *dir = folders ? opt.a : opt.b, *file = folders ? opt.b : opt.a;
        vf_app_error("%s: is a folder but %s is not: give two png files or two capture folders", dir, file);
        return VF_EXIT_USAGE;
    }

    frame_list fa = {0}, fb = {0};
    frame_result *res = NULL;
    size_t n = 0;
    if (folders) {
        rc = list_frames(opt.a, &fa);
        if (rc == VF_EXIT_OK)
            rc = list_frames(opt.b, &fb);
        if (rc == VF_EXIT_OK)
            rc = match_frames(&opt, &fa, &fb);
        n = fa.count;
    } else {
        n = 1;
    }
    if (rc == VF_EXIT_OK && opt.diff)
        rc = prepare_diff(&opt, folders, &sa, &sb);
    if (rc == VF_EXIT_OK) {
        res = calloc(n, sizeof *res);
        if (!res) {
            vf_app_error("%s: out of memory for %zu frames: free some memory", opt.a, n);
            rc = VF_EXIT_RUNTIME;
        }
    }
    size_t done = 0;
    for (; rc == VF_EXIT_OK && done < n; done++) {
        frame_result *r = &res[done];
        char *pa = NULL, *pb = NULL, *pd = NULL;
        if (folders) {
            const char *name = fa.names[done];
            pa = path_join(opt.a, name);
            pb = path_join(opt.b, name);
            pd = opt.diff ? path_join(opt.diff, name) : NULL;
            r->name = strdup(name);
        } else {
            pa = strdup(opt.a);
            pb = strdup(opt.b);
            pd = opt.diff ? strdup(opt.diff) : NULL;
            r->name = strdup(base_name(opt.a));
        }
        if (!pa || !pb || (opt.diff && !pd) || !r->name) {
            vf_app_error("%s: out of memory: free some memory", opt.a);
            rc = VF_EXIT_RUNTIME;
        } else {
            rc = compare_pair(&opt, pa, pb, pd, r);
        }
        free(pa);
        free(pb);
        free(pd);
    }

    if (rc == VF_EXIT_OK) {
        if (opt.json)
            print_json(&opt, folders, res, n);
        else
            print_table(&opt, folders, res, n);
        if (fflush(stdout) != 0) {
            errno_error("stdout", errno, "check where the output goes");
            rc = VF_EXIT_RUNTIME;
        } else {
            rc = summarize(res, n).failed_frames ? VF_EXIT_FAIL : VF_EXIT_OK;
        }
    }
    for (size_t i = 0; res && i < n; i++)
        free(res[i].name);
    free(res);
    frame_list_free(&fa);
    frame_list_free(&fb);
    return rc;
}
