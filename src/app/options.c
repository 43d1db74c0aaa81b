#include "options.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "cmd_common.h"
#include "text.h"

/* The unknown option: the closest of the command's own options (and the
 * scene options every scene command takes), else vf_app_unknown_option's
 * list of every command's options. */
static int unknown(const char *cmd, const char *opt, const vf_opt *table, size_t n)
{
    const char *cands[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 3 < sizeof cands / sizeof cands[0]; i++)
        if (table[i].name)
            cands[k++] = table[i].name;
    cands[k++] = "--help";
    cands[k++] = "--set";
    cands[k++] = "--scene";
    const char *near = vf_suggest(opt, cands, k);
    if (!near || !strcmp(near, opt)) /* nothing near, or a scene option this command does not take */
        return vf_app_unknown_option(cmd, opt);
    vf_app_error("unknown option '%s' for 'vkfluid %s': did you mean %s? see vkfluid %s --help", opt, cmd, near, cmd);
    return VF_EXIT_USAGE;
}

static int take(const vf_opt *o, const char *v)
{
    switch (o->type) {
    case VF_OPT_TEXT:
        *(const char **)o->out = v;
        return 0;
    case VF_OPT_INT:
    case VF_OPT_U32: {
        long long x;
        if (!vf_app_parse_int(v, (long long)o->min, (long long)o->max, &x)) {
            vf_app_error("%s %s: must be an integer in %lld..%lld%s", o->name, v, (long long)o->min, (long long)o->max,
                         o->must ? o->must : "");
            return VF_EXIT_USAGE;
        }
        if (o->type == VF_OPT_INT)
            *(long long *)o->out = x;
        else
            *(uint32_t *)o->out = (uint32_t)x;
        return 0;
    }
    case VF_OPT_DOUBLE: {
        double x;
        if (!vf_app_parse_double(v, &x) || !(x > o->min) || x > o->max) {
            vf_app_error("%s %s: must be %s", o->name, v, o->must);
            return VF_EXIT_USAGE;
        }
        *(double *)o->out = x;
        return 0;
    }
    case VF_OPT_CALL:
        return o->parse(o->name, v, o->out);
    default:
        return 0;
    }
}

/* --list-options: every option the command takes, one a line. */
static int list_options(const vf_opt *table, size_t n, const struct vf_cmd_scene *sc)
{
    for (size_t k = 0; k < n; k++)
        if (table[k].name)
            printf("%s\n", table[k].name);
    if (sc)
        printf("--scene\n--set\n");
    printf("--help\n");
    return VF_OPT_LISTED;
}

int vf_opt_parse(const char *cmd, int argc, char **argv, const vf_opt *table, size_t n, bool *help,
                 const struct vf_cmd_scene *sc)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--list-options") && !(sc && vf_cmd_scene_consumed(sc, i)))
            return list_options(table, n, sc);
    const vf_opt *inputs = NULL;
    for (size_t k = 0; k < n; k++)
        if (table[k].type == VF_OPT_INPUTS)
            inputs = &table[k];
    bool only_inputs = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (sc && vf_cmd_scene_consumed(sc, i))
            continue;
        if (inputs && !only_inputs && !strcmp(a, "--")) {
            only_inputs = true;
            continue;
        }
        if (inputs && (only_inputs || a[0] != '-' || a[1] == '\0')) {
            vf_opt_inputs *in = inputs->out;
            if (in->count == in->max) {
                vf_app_error("%s: unexpected input: vkfluid %s takes %s", a, cmd, inputs->must);
                return VF_EXIT_USAGE;
            }
            in->items[in->count++] = a;
            continue;
        }
        if (vf_app_is_help(a)) {
            *help = true;
            continue;
        }
        const vf_opt *o = NULL;
        for (size_t k = 0; k < n && !o; k++)
            if (table[k].name && !strcmp(a, table[k].name))
                o = &table[k];
        if (!o)
            return unknown(cmd, a, table, n);
        if (o->type == VF_OPT_FLAG) {
            *(bool *)o->out = true;
            continue;
        }
        if (o->type == VF_OPT_OPTIONAL) {
            *(const char **)o->out = i + 1 < argc && strncmp(argv[i + 1], "--", 2) ? argv[++i] : o->dflt;
            continue;
        }
        const char *v = vf_app_option_value(argc, argv, &i);
        if (!v)
            return VF_EXIT_USAGE;
        int rc = take(o, v);
        if (rc)
            return rc;
    }
    return 0;
}
