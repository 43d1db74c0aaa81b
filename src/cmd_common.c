#include "cmd_common.h"

#include <stdlib.h>
#include <string.h>

#include "app.h"

static void list_scenes(char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = 0;
    for (size_t i = 0; vf_scenes[i] && used + 1 < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%s", i ? ", " : "", vf_scenes[i]->name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int vf_cmd_scene_begin(vf_cmd_scene *sc, int argc, char **argv, const char *cmd)
{
    memset(sc, 0, sizeof *sc);
    sc->argc = argc;
    sc->consumed = calloc((size_t)argc + 1, sizeof *sc->consumed);
    if (!sc->consumed) {
        vf_app_error("out of memory");
        return VF_EXIT_RUNTIME;
    }
    if (argc > 1 && argv[1][0] != '-') {
        sc->info = vf_scene_find(argv[1]);
        if (!sc->info) {
            char names[1024];
            list_scenes(names, sizeof names);
            vf_app_error("unknown scene '%s' for 'vkfluid %s': the scenes are %s", argv[1], cmd, names[0] ? names : "(none built in)");
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        sc->consumed[1] = true;
        sc->desc = calloc(1, sc->info->desc_size);
        if (!sc->desc) {
            vf_app_error("out of memory");
            vf_cmd_scene_end(sc);
            return VF_EXIT_RUNTIME;
        }
        sc->info->defaults(sc->desc);
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--set"))
            continue;
        if (i + 1 >= argc) {
            vf_app_error("--set needs KEY=VALUE");
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        if (!sc->info) {
            vf_app_error("--set %s: give the scene first: vkfluid %s SCENE --set KEY=VALUE", argv[i + 1], cmd);
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        char err[1200];
        if (vf_params_set(sc->info->params, sc->info->param_count, sc->desc, argv[i + 1], err, sizeof err) != VF_OK) {
            vf_app_error("scene %s: --set %s", sc->info->name, err);
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        sc->consumed[i] = sc->consumed[i + 1] = true;
        i++;
    }
    return -1;
}

bool vf_cmd_scene_consumed(const vf_cmd_scene *sc, int i)
{
    return sc->consumed && i >= 0 && i < sc->argc && sc->consumed[i];
}

int vf_cmd_scene_validate(vf_cmd_scene *sc)
{
    if (!sc->info || !sc->info->validate)
        return 0;
    char err[512] = {0};
    if (sc->info->validate(sc->desc, err, sizeof err) != VF_OK) {
        vf_app_error("scene %s: %s", sc->info->name, err[0] ? err : "invalid parameters");
        return VF_EXIT_USAGE;
    }
    return 0;
}

void vf_cmd_scene_end(vf_cmd_scene *sc)
{
    free(sc->desc);
    free(sc->consumed);
    memset(sc, 0, sizeof *sc);
}
