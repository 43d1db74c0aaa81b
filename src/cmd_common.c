#include "cmd_common.h"
#include "suggest.h"

#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "scene_file.h"
#include "render_registry.h"
#include "scene_shapes.h"

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
    int scene_arg = -1; /* argv index of the scene name or file */
    bool is_file = false;
    if (argc > 1 && argv[1][0] != '-') {
        scene_arg = 1;
        size_t len = strlen(argv[1]);
        is_file = strchr(argv[1], '/') || (len > 5 && !strcmp(argv[1] + len - 5, ".json"));
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--scene"))
            continue;
        if (i + 1 >= argc) {
            vf_app_error("--scene needs a file: vkfluid %s --scene FILE.json (see vkfluid scenes for the built-in ones)", cmd);
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        if (scene_arg >= 0) {
            vf_app_error("--scene %s: a scene was already given (%s): give one scene", argv[i + 1], argv[scene_arg]);
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        scene_arg = i + 1;
        is_file = true;
        sc->consumed[i] = true;
        i++;
    }
    if (scene_arg >= 0) {
        char err[1600];
        vf_scene_loaded loaded;
        vf_result res;
        if (is_file) {
            res = vf_scene_load_file(argv[scene_arg], &loaded, err, sizeof err);
            sc->file = argv[scene_arg];
        } else {
            const vf_scene_info *info = vf_scene_find(argv[scene_arg]);
            if (!info) {
                char names[1024];
                list_scenes(names, sizeof names);
                char near[64];
                if (vf_suggest_in_list(argv[scene_arg], names, ", ", near, sizeof near))
                    vf_app_error("unknown scene '%s' for 'vkfluid %s': did you mean %s? the scenes are %s, or give a "
                                 "scene file (FILE.json)",
                                 argv[scene_arg], cmd, near, names);
                else
                    vf_app_error("unknown scene '%s' for 'vkfluid %s': the scenes are %s, or give a scene file (FILE.json)",
                                 argv[scene_arg], cmd, names[0] ? names : "(none built in)");
                vf_cmd_scene_end(sc);
                return VF_EXIT_USAGE;
            }
            res = vf_scene_load_builtin(info, &loaded, err, sizeof err);
        }
        if (res != VF_OK) {
            vf_app_error("%s", err);
            vf_cmd_scene_end(sc);
            return res == VF_ERR_NO_MEMORY ? VF_EXIT_RUNTIME : VF_EXIT_USAGE;
        }
        sc->consumed[scene_arg] = true;
        sc->info = loaded.info;
        sc->desc = loaded.desc;
        snprintf(sc->description, sizeof sc->description, "%s", loaded.description);
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
        if (vf_scene_set(sc->info, sc->desc, argv[i + 1], err, sizeof err) != VF_OK) {
            if (sc->file)
                vf_app_error("%s: --set %s", sc->file, err);
            else
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
    char err[1600] = {0};
    const char *mode = vf_cmd_scene_render_mode(sc->info, sc->desc), *modes = vf_render_modes(sc->info->family);
    if (mode && modes) {
        size_t n = strlen(mode);
        bool found = false;
        for (const char *p = modes; p && *p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
            found = found || (!strncmp(p, mode, n) && (p[n] == '|' || p[n] == 0));
        if (!found) {
            vf_app_error("%s: render.mode: \"%s\" is not a view of the %s solver: use one of %s",
                         sc->file ? sc->file : sc->info->name, mode, sc->info->family, modes);
            return VF_EXIT_USAGE;
        }
    }
    if (sc->file) {
        if (vf_scene_validate(sc->info, sc->desc, sc->file, err, sizeof err) != VF_OK) {
            vf_app_error("%s", err);
            return VF_EXIT_USAGE;
        }
        return 0;
    }
    if (sc->info->validate(sc->desc, err, sizeof err) != VF_OK) {
        vf_app_error("scene %s: %s", sc->info->name, err[0] ? err : "invalid parameters");
        return VF_EXIT_USAGE;
    }
    return 0;
}

int vf_cmd_scene_create(const vf_cmd_scene *sc, vf_gpu *gpu, vf_solver **out)
{
    char why[1024] = "", err[1600], label[300];
    *out = NULL;
    vf_result res = sc->info->create(gpu, sc->desc, out, why, sizeof why);
    if (res == VF_OK)
        return 0;
    if (sc->file)
        snprintf(label, sizeof label, "%s", sc->file);
    else
        snprintf(label, sizeof label, "scene %s", sc->info->name);
    if (!why[0] && res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        snprintf(why, sizeof why, "cannot create the solver: out of device memory: try a smaller size (--set), "
                                  "closing other gpu programs or another gpu (--device)");
    else if (!why[0])
        snprintf(why, sizeof why, "cannot create the solver: %s", vf_result_message(res));
    vf_scene_format_error(sc->info, label, why, err, sizeof err);
    vf_app_error("%s", err);
    return res == VF_ERR_TOO_LARGE || res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
}

const char *vf_cmd_scene_render_mode(const vf_scene_info *info, void *desc)
{
    const vf_scene_shapes *sh = vf_scene_shapes_of(info, desc);
    return sh && sh->render_mode[0] ? sh->render_mode : NULL;
}

void vf_cmd_scene_apply_camera(const vf_scene_info *info, void *desc, vf_renderer *r)
{
    const vf_scene_shapes *sh = vf_scene_shapes_of(info, desc);
    if (!sh || !sh->has_camera || !r || !r->vt->set_camera || !r->vt->get_camera)
        return;
    vf_camera cam;
    r->vt->get_camera(r, &cam);
    for (int k = 0; k < 3; k++) {
        cam.eye[k] = (float)sh->eye[k];
        cam.target[k] = (float)sh->target[k];
        cam.up[k] = k == 1 ? 1.0f : 0.0f;
    }
    cam.fov_y = (float)(sh->fov_deg * 3.14159265358979323846 / 180.0);
    r->vt->set_camera(r, &cam);
}

void vf_cmd_scene_end(vf_cmd_scene *sc)
{
    free(sc->desc);
    free(sc->consumed);
    memset(sc, 0, sizeof *sc);
}

void vf_cmd_slow_frame_hint(const vf_scene_info *info, double frame_s, uint64_t frames_left)
{
    if (!info || !(frame_s > VF_SLOW_FRAME_S))
        return;
    const char *fam = info->family, *key = !strcmp(fam, "sph") ? "spacing (larger: fewer particles)"
                                           : !strcmp(fam, "grid") ? "n (fewer cells)"
                                           : !strcmp(fam, "height") ? "nx and ny (fewer cells)"
                                                                    : "its size keys";
    double left = frame_s * (double)frames_left;
    vf_app_warn("scene %s takes %.3g s a frame on this device: the %llu frames left take about %.3g %s; for faster "
                "frames lower %s with --set (see vkfluid scenes %s)",
                info->name, frame_s, (unsigned long long)frames_left, left >= 120 ? left / 60 : left,
                left >= 120 ? "min" : "s", key, info->name);
}
