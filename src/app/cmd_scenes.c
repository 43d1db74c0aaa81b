/* vkfluid scenes: lists the built-in scenes (text, JSON), prints the key
 * tables for docs/scenes.md (--markdown) and a scene's file (--export). */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "fileio.h"
#include "render_registry.h"
#include "render_sph.h"
#include "scene_file.h"
#include "scene_sph.h"
#include "scene_shapes.h"
#include "text.h"
#include "scenes.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: vkfluid scenes [NAME | --json | --markdown | --export NAME]\n"
               "\n"
               "Lists the built-in scenes with one-line descriptions. Each is the file\n"
               "scenes/NAME.json compiled in; run, capture, view and bench take a name or a\n"
               "scene file (FILE.json or --scene FILE) that starts from one of them.\n"
               "\n"
               "  --json           the scenes as JSON: name, solver, description and every key's value\n"
               "  --markdown       the key tables of every solver (meaning, unit, range, default,\n"
               "                   each preset's value) and of every renderer, as in docs/scenes.md\n"
               "  --export NAME    print scene NAME as a scene file, to start your own from\n"
               "  NAME             one scene: its views (--render MODE) and default view, its\n"
               "                   keys (--set) with values, and its renderer's settings\n");
}

/* The value of one key in desc, as a scene file writes it. */
static void value_text(const vf_param_def *d, const void *desc, char *buf, size_t cap)
{
    if (d->type == VF_PARAM_DOUBLE) {
        double v = *(const double *)((const char *)desc + d->offset);
        for (int prec = 6; prec <= 17; prec++) {
            snprintf(buf, cap, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                return;
        }
    } else {
        vf_params_format(d, desc, buf, cap);
    }
}

static int load(const vf_scene_info *info, vf_scene_loaded *out)
{
    char err[1600];
    if (vf_scene_load_builtin(info, out, err, sizeof err) != VF_OK) {
        vf_app_error("%s", err);
        return VF_EXIT_RUNTIME;
    }
    return 0;
}

/* The value a renderer key draws with in this scene when the table's is a
 * placeholder (0 = derived); false for the others. */
static bool drawn_value(const vf_scene_info *info, const void *desc, const vf_param_def *d, char *note, size_t cap,
                        double *v)
{
    if (strcmp(info->family, "sph") || strcmp(d->key, "ssf.radius"))
        return false;
    double s = vf_scene_sph_spacing(desc);
    *v = VF_RENDER_SPH_RADIUS_PER_SPACING * s;
    snprintf(note, cap, " (drawn: %g x the spacing %g m)", VF_RENDER_SPH_RADIUS_PER_SPACING, s);
    return true;
}

/* A key's help, with its values when it is a choice (the table's own list). */
static void print_key(const vf_param_def *d, const char *value, const char *note)
{
    char allowed[160] = "";
    if (d->type == VF_PARAM_ENUM)
        vf_params_allowed(d, allowed, sizeof allowed);
    printf("  %-22s %-12s %-7s %s%s%s%s%s\n", d->key, value, d->unit && d->unit[0] && strcmp(d->unit, "1") ? d->unit : "",
           d->help ? d->help : "", note ? note : "", allowed[0] ? " (" : "", allowed, allowed[0] ? ")" : "");
}

/* A renderer key's default as its table gives it (0 = derived). */
static void render_default_text(const vf_param_def *d, char *v, size_t cap)
{
    if (d->type == VF_PARAM_DOUBLE)
        vf_format_double(d->def, v, cap);
    else if (d->type == VF_PARAM_ENUM)
        snprintf(v, cap, "%.*s", (int)strcspn(d->choices, "|"), d->choices);
    else if (d->type == VF_PARAM_BOOL)
        snprintf(v, cap, "%s", d->def != 0 ? "true" : "false");
    else
        snprintf(v, cap, "%d", (int)d->def);
}

/* vkfluid scenes NAME: the views, the keys with values and the renderer's keys. */
static int print_one(const vf_scene_info *info)
{
    vf_scene_loaded sc;
    int rc = load(info, &sc);
    if (rc)
        return rc;
    printf("%s (%s solver): %s\n", info->name, info->family, sc.description[0] ? sc.description : info->description);
    const char *views = vf_render_modes(info->family);
    const vf_scene_shapes *sh = vf_scene_shapes_of(info, sc.desc);
    char first[32] = "";
    if (views)
        snprintf(first, sizeof first, "%.*s", (int)strcspn(views, "|"), views);
    const char *def_view = sh && sh->render_mode[0] ? sh->render_mode : first;
    printf("views (--render MODE; in the viewer, M cycles them): %s; default %s\n", views ? views : "none", def_view);
    printf("keys (--set KEY=VALUE):\n");
    for (size_t i = 0; i < info->param_count; i++) {
        const vf_param_def *d = &info->params[i];
        char v[64];
        value_text(d, sc.desc, v, sizeof v);
        print_key(d, v, NULL);
    }
    size_t rn = 0;
    const vf_param_def *rt = vf_render_params(info->family, &rn);
    const char *view_key = vf_render_view_key(info->family);
    if (rn) {
        printf("renderer keys (--set KEY=VALUE; the table's defaults, 0 = derived as described, and what is drawn):\n");
        for (size_t i = 0; i < rn; i++) {
            const vf_param_def *d = &rt[i];
            if (view_key && !strcmp(d->key, view_key)) {
                printf("  %-22s %-12s %-7s %s\n", d->key, def_view, "", "the view: same as --render MODE");
                continue;
            }
            char v[64], note[96] = "";
            double drawn;
            if (drawn_value(info, sc.desc, d, note, sizeof note, &drawn))
                vf_format_double(drawn, v, sizeof v);
            else
                render_default_text(d, v, sizeof v);
            print_key(d, v, note);
        }
    }
    vf_scene_loaded_free(&sc);
    return VF_EXIT_OK;
}

static int print_json(void)
{
    printf("[\n");
    for (size_t i = 0; vf_scenes[i]; i++) {
        vf_scene_loaded sc;
        int rc = load(vf_scenes[i], &sc);
        if (rc)
            return rc;
        printf("  {\"name\": ");
        vf_json_string(stdout, sc.info->name);
        printf(", \"solver\": ");
        vf_json_string(stdout, sc.info->family);
        printf(", \"description\": ");
        vf_json_string(stdout, sc.description);
        printf(",\n   \"keys\": {\n");
        vf_params_write_json(sc.info->params, sc.info->param_count, sc.desc, stdout, "     ");
        printf("   }}%s\n", vf_scenes[i + 1] ? "," : "");
        vf_scene_loaded_free(&sc);
    }
    printf("]\n");
    return 0;
}

/* Markdown table cell text: '|' would end the cell. */
static void cell(const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs(", ", stdout);
        else
            putchar(*s);
    }
}

/* The renderers' key tables (--set KEY=VALUE in any scene of the family),
 * after the scenes' own: one per family that has keys. */
static void print_markdown_render_keys(void)
{
    for (size_t i = 0; vf_render_family(i); i++) {
        const char *family = vf_render_family(i);
        size_t n = 0;
        const vf_param_def *t = vf_render_params(family, &n);
        const char *view = vf_render_view_key(family);
        if (!n)
            continue;
        printf("### %s renderer keys: every %s scene\n\n| key | meaning | unit | allowed | default |\n"
               "|---|---|---|---|---|\n", family, family);
        for (size_t k = 0; k < n; k++) {
            const vf_param_def *d = &t[k];
            char allowed[160], def[64];
            printf("| `%s` | ", d->key);
            if (view && !strcmp(d->key, view)) {
                printf("the view: same as `--render MODE` | - | ");
                cell(vf_render_modes(family));
                printf(" | the scene's |\n");
                continue;
            }
            vf_params_allowed(d, allowed, sizeof allowed);
            render_default_text(d, def, sizeof def);
            for (const char *c = d->help ? d->help : ""; *c; c++) /* a '|' of the text, escaped */
                fputs(*c == '|' ? "\\|" : (char[2]){*c, 0}, stdout);
            printf(" | %s | ", d->unit && *d->unit ? d->unit : "-");
            cell(allowed);
            printf(" | %s |\n", def);
        }
        printf("\n");
    }
}

static int print_markdown(void)
{
    /* One table per key table; scenes sharing a table share its columns. */
    for (size_t i = 0; vf_scenes[i]; i++) {
        bool done = false;
        for (size_t j = 0; j < i; j++)
            done = done || vf_scenes[j]->params == vf_scenes[i]->params;
        if (done)
            continue;
        const vf_scene_info *first = vf_scenes[i];
        size_t n = 0;
        const vf_scene_info *group[32];
        vf_scene_loaded loaded[32];
        for (size_t j = i; vf_scenes[j] && n < 32; j++) {
            if (vf_scenes[j]->params != first->params)
                continue;
            group[n] = vf_scenes[j];
            int rc = load(group[n], &loaded[n]);
            if (rc) {
                while (n--)
                    vf_scene_loaded_free(&loaded[n]);
                return rc;
            }
            n++;
        }
        printf("### %s keys: scene%s", first->family, n > 1 ? "s" : "");
        for (size_t k = 0; k < n; k++)
            printf("%s %s", k ? "," : "", group[k]->name);
        printf("\n\n| key | meaning | unit | allowed | default |");
        for (size_t k = 0; k < n; k++)
            printf(" %s |", group[k]->name);
        printf("\n|---|---|---|---|---|");
        for (size_t k = 0; k < n; k++)
            printf("---|");
        printf("\n");
        for (size_t p = 0; p < first->param_count; p++) {
            const vf_param_def *d = &first->params[p];
            char allowed[160], def[64], v[64];
            vf_params_allowed(d, allowed, sizeof allowed);
            void *tmp = calloc(1, first->desc_size);
            if (!tmp) {
                vf_app_error("out of memory");
                return VF_EXIT_RUNTIME;
            }
            vf_params_defaults(d, 1, tmp);
            value_text(d, tmp, def, sizeof def);
            free(tmp);
            printf("| `%s.%s` | ", first->family, d->key);
            cell(d->help ? d->help : "");
            printf(" | %s | ", d->unit && *d->unit ? d->unit : "-");
            cell(allowed);
            printf(" | %s |", def);
            for (size_t k = 0; k < n; k++) {
                value_text(d, loaded[k].desc, v, sizeof v);
                printf(" %s |", v);
            }
            printf("\n");
        }
        printf("\n");
        for (size_t k = 0; k < n; k++)
            vf_scene_loaded_free(&loaded[k]);
    }
    print_markdown_render_keys();
    return 0;
}

int vf_cmd_scenes(int argc, char **argv)
{
    if (argc > 1 && vf_app_is_help(argv[1])) {
        usage(stdout);
        return VF_EXIT_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "--list-options")) {
        printf("--json\n--markdown\n--export\n--help\n");
        return VF_EXIT_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "--json"))
        return print_json();
    if (argc == 2 && !strcmp(argv[1], "--markdown"))
        return print_markdown();
    if (argc == 3 && !strcmp(argv[1], "--export")) {
        const vf_scene_info *info = vf_scene_find(argv[2]);
        if (!info) {
            vf_app_error("--export %s: unknown scene: see vkfluid scenes", argv[2]);
            return VF_EXIT_USAGE;
        }
        vf_scene_loaded sc;
        int rc = load(info, &sc);
        if (rc)
            return rc;
        vf_scene_write_json(sc.info, sc.desc, sc.description, stdout);
        vf_scene_loaded_free(&sc);
        return VF_EXIT_OK;
    }
    if (argc == 2 && !strcmp(argv[1], "--export")) {
        vf_app_error("scenes --export needs a scene name: e.g. vkfluid scenes --export dam-break (names: vkfluid scenes)");
        return VF_EXIT_USAGE;
    }
    if (argc == 2 && argv[1][0] != '-') {
        const vf_scene_info *info = vf_scene_find(argv[1]);
        if (info)
            return print_one(info);
        const char *names[64];
        size_t n = 0;
        for (size_t i = 0; vf_scenes[i] && n < 64; i++)
            names[n++] = vf_scenes[i]->name;
        const char *near = vf_suggest(argv[1], names, n);
        if (near)
            vf_app_error("scenes %s: unknown scene: did you mean %s? see vkfluid scenes", argv[1], near);
        else
            vf_app_error("scenes %s: unknown scene: see vkfluid scenes for the names", argv[1]);
        return VF_EXIT_USAGE;
    }
    if (argc > 1) {
        vf_app_error("scenes %s: unknown option: use NAME, --json, --markdown or --export NAME", argv[1]);
        return VF_EXIT_USAGE;
    }
    for (size_t i = 0; vf_scenes[i]; i++) {
        vf_scene_loaded sc;
        int rc = load(vf_scenes[i], &sc);
        if (rc)
            return rc;
        printf("%-12s %-7s %s\n", sc.info->name, sc.info->family, sc.description);
        vf_scene_loaded_free(&sc);
    }
    return VF_EXIT_OK;
}
