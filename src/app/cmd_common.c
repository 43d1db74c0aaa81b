#include "cmd_common.h"
#include "text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "gpu_cmd.h"
#include "scene_file.h"
#include "render_registry.h"
#include "scene_shapes.h"
#include "scenes.h"

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
    if (argc > 1 && argv[1][0] != '-')
        scene_arg = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--scene"))
            continue;
        if (i + 1 >= argc) {
            vf_app_error("--scene needs a scene: vkfluid %s --scene FILE.json or a built-in name (vkfluid scenes)", cmd);
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        if (scene_arg >= 0) {
            vf_app_error("--scene %s: a scene was already given (%s): give one scene", argv[i + 1], argv[scene_arg]);
            vf_cmd_scene_end(sc);
            return VF_EXIT_USAGE;
        }
        scene_arg = i + 1;
        sc->consumed[i] = true;
        i++;
    }
    if (scene_arg >= 0) {
        /* a path or a .json name is a file, anything else a built-in scene (as bench --scene) */
        const char *a = argv[scene_arg];
        size_t len = strlen(a);
        bool is_file = strchr(a, '/') || (len > 5 && !strcmp(a + len - 5, ".json"));
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
        if (vf_cmd_scene_set(sc, argv[i + 1], err, sizeof err) != VF_OK) {
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

void vf_cmd_print_render_keys(FILE *f, const char *family)
{
    size_t n = 0;
    const vf_param_def *t = vf_render_params(family, &n);
    const char *view = vf_render_view_key(family);
    if (!n)
        return;
    int col = fprintf(f, "  %-8s", family);
    for (size_t k = 0; k < n; k++) {
        if (view && !strcmp(t[k].key, view))
            continue;
        /* a choice key with its values: KEY=a|b */
        bool choice = t[k].type == VF_PARAM_ENUM && t[k].choices;
        size_t w = strlen(t[k].key) + 1 + (choice ? strlen(t[k].choices) + 1 : 0);
        if (col + (int)w > 78) {
            fprintf(f, "\n%10s", "");
            col = 10;
        }
        col += fprintf(f, " %s%s%s", t[k].key, choice ? "=" : "", choice ? t[k].choices : "");
    }
    fputc('\n', f);
    if (view)
        fprintf(f, "           (%s=MODE: the view, as --render MODE)\n", view);
}

void vf_cmd_print_views(FILE *f)
{
    fprintf(f, "views (--render MODE; the first is the default, vkfluid scenes SCENE shows a\n"
               "scene's; in the viewer M cycles them):\n");
    for (size_t i = 0; vf_render_family(i); i++) {
        const char *fam = vf_render_family(i), *modes = vf_render_modes(fam);
        fprintf(f, "  %-8s ", fam);
        for (const char *p = modes; *p; p++) {
            if (*p == '|')
                fputs(", ", f);
            else
                fputc(*p, f);
        }
        fputc('\n', f);
    }
    /* the scenes whose file names another view than their family's first */
    bool any = false;
    for (size_t i = 0; vf_scenes[i]; i++) {
        vf_scene_loaded l;
        char err[256];
        if (vf_scene_load_builtin(vf_scenes[i], &l, err, sizeof err) != VF_OK)
            continue;
        const char *mode = vf_cmd_scene_render_mode(l.info, l.desc), *modes = vf_render_modes(l.info->family);
        if (mode && modes && strncmp(modes, mode, strcspn(modes, "|")))
            fprintf(f, "%s%s %s", any ? ", " : "  default views of their own: ", l.info->name, mode);
        any = any || (mode && modes && strncmp(modes, mode, strcspn(modes, "|")));
        vf_scene_loaded_free(&l);
    }
    if (any)
        fputc('\n', f);
    fprintf(f, "renderer keys (--set KEY=VALUE, a choice key with its values; vkfluid scenes SCENE\n"
               "lists them with defaults):\n");
    for (size_t i = 0; vf_render_family(i); i++)
        vf_cmd_print_render_keys(f, vf_render_family(i));
}

vf_result vf_cmd_scene_set(vf_cmd_scene *sc, const char *assignment, char *err, size_t cap)
{
    const char *eq = strchr(assignment, '='), *view = vf_render_view_key(sc->info->family);
    if (eq && view && (size_t)(eq - assignment) == strlen(view) && !strncmp(assignment, view, strlen(view))) {
        /* the view key is the view: as --render or render.mode (checked
         * against the family's views with the scene) */
        char mode[VF_CMD_SETTING_MAX + 16], want[VF_CMD_SETTING_MAX + 2], modes[256];
        const char *all = vf_render_modes(sc->info->family);
        snprintf(want, sizeof want, "|%.*s|", VF_CMD_SETTING_MAX - 1, eq + 1);
        snprintf(modes, sizeof modes, "|%s|", all ? all : "");
        if (!eq[1] || strchr(eq + 1, '|') || !strstr(modes, want)) {
            snprintf(err, cap, "%s: \"%.40s\" is not a view of the %s solver: use one of %s", view, eq + 1,
                     sc->info->family, all ? all : "(none)");
            return VF_ERR_INVALID_ARG;
        }
        snprintf(mode, sizeof mode, "render.mode=%.*s", VF_CMD_SETTING_MAX, eq + 1);
        return vf_scene_set(sc->info, sc->desc, mode, err, cap);
    }
    vf_result r = vf_render_setting_check(sc->info->family, assignment, err, cap);
    if (r == VF_ERR_UNSUPPORTED) /* not a renderer key */
        return vf_scene_set(sc->info, sc->desc, assignment, err, cap);
    if (r != VF_OK)
        return VF_ERR_INVALID_ARG;
    size_t len = strlen(assignment);
    uint32_t slot = sc->render_setting_count;
    for (uint32_t k = 0; k < sc->render_setting_count; k++) /* a later --set of the same key replaces it */
        if (!strncmp(sc->render_settings[k], assignment, (size_t)(eq - assignment) + 1))
            slot = k;
    if (len >= VF_CMD_SETTING_MAX || slot >= VF_RENDER_MAX_SETTINGS) {
        snprintf(err, cap, "%.*s: %s", (int)(eq - assignment < 64 ? eq - assignment : 64), assignment,
                 len >= VF_CMD_SETTING_MAX ? "the assignment is too long" : "too many renderer keys (at most 32)");
        return VF_ERR_INVALID_ARG;
    }
    memcpy(sc->render_settings[slot], assignment, len + 1);
    if (slot == sc->render_setting_count)
        sc->render_setting_count++;
    return VF_OK;
}

int vf_cmd_parse_render_path(const char *name, const char *value, void *ctx)
{
    int i = vf_choice_index(VF_RENDER_PATHS, value);
    if (i < 0) {
        vf_app_error("%s %s: must be one of %s", name, value, VF_RENDER_PATHS);
        return VF_EXIT_USAGE;
    }
    *(vf_render_path *)ctx = (vf_render_path)i;
    return 0;
}

void vf_cmd_scene_render_settings(vf_cmd_scene *sc, vf_render_options *opt)
{
    for (uint32_t k = 0; k < sc->render_setting_count; k++)
        sc->render_setting_ptr[k] = sc->render_settings[k];
    opt->settings = sc->render_setting_ptr;
    opt->setting_count = sc->render_setting_count;
}

bool vf_cmd_scene_consumed(const vf_cmd_scene *sc, int i)
{
    return sc->consumed && i >= 0 && i < sc->argc && sc->consumed[i];
}

bool vf_cmd_view_valid(const char *family, const char *mode)
{
    const char *modes = vf_render_modes(family);
    if (!mode || !mode[0] || !modes || strchr(mode, '|'))
        return false;
    size_t n = strlen(mode);
    for (const char *p = modes; p && *p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
        if (!strncmp(p, mode, n) && (p[n] == '|' || p[n] == 0))
            return true;
    return false;
}

vf_result vf_cmd_scene_check(const vf_scene_info *info, const void *desc, const char *file, char *err, size_t cap)
{
    char label[300];
    const char *mode = vf_cmd_scene_render_mode(info, (void *)desc), *modes = vf_render_modes(info->family);
    if (file)
        snprintf(label, sizeof label, "%s", file);
    else
        snprintf(label, sizeof label, "scene %s", info->name);
    if (mode && modes && !vf_cmd_view_valid(info->family, mode)) {
        snprintf(err, cap, "%s: render.mode: \"%.60s\" is not a view of the %s solver: use one of %s", label, mode,
                 info->family, modes);
        return VF_ERR_INVALID_ARG;
    }
    if (!info->validate)
        return VF_OK;
    if (file)
        return vf_scene_validate(info, desc, file, err, cap);
    char why[1400] = {0};
    if (info->validate(info, desc, NULL, why, sizeof why) != VF_OK) {
        snprintf(err, cap, "%s: %s", label, why[0] ? why : "invalid parameters");
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

int vf_cmd_scene_validate(vf_cmd_scene *sc)
{
    if (!sc->info)
        return 0;
    char err[1600] = {0};
    if (vf_cmd_scene_check(sc->info, sc->desc, sc->file, err, sizeof err) != VF_OK) {
        vf_app_error("%s", err);
        return VF_EXIT_USAGE;
    }
    return 0;
}

int vf_cmd_scene_create(const vf_cmd_scene *sc, vf_gpu *gpu, vf_solver **out)
{
    return vf_cmd_scene_create_in(sc, gpu, NULL, out);
}

int vf_cmd_scene_create_in(const vf_cmd_scene *sc, vf_gpu *gpu, const char *context, vf_solver **out)
{
    char why[1024] = "", err[1600], label[300];
    const char *key = NULL; /* the key why names first, from the check that wrote it */
    *out = NULL;
    vf_result res = sc->info->create(sc->info, gpu, sc->desc, out, &key, why, sizeof why);
    if (res == VF_OK)
        return 0;
    if (sc->file)
        snprintf(label, sizeof label, "%s", sc->file);
    else
        snprintf(label, sizeof label, "scene %s", sc->info->name);
    if (!why[0])
        key = NULL;
    if (!why[0] && res == VF_ERR_OUT_OF_DEVICE_MEMORY)
        snprintf(why, sizeof why, "cannot create the solver: out of device memory: try a smaller size (--set), "
                                  "closing other gpu programs or another gpu (--device)");
    else if (!why[0])
        snprintf(why, sizeof why, "cannot create the solver: %s", vf_result_message(res));
    vf_scene_format_error(sc->info, label, key, why, err, sizeof err);
    if (context)
        vf_app_error("%s: %s", context, err);
    else
        vf_app_error("%s", err);
    return res == VF_ERR_TOO_LARGE || res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
}

double vf_cmd_scene_frame_dt(const vf_scene_info *info, const void *desc)
{
    if (info->frame_dt)
        return info->frame_dt(info, desc);
    const vf_param_def *d = vf_params_find(info->params, info->param_count, "frame_dt");
    if (!d || d->type != VF_PARAM_DOUBLE)
        return 0;
    double v = *(const double *)((const char *)desc + d->offset);
    return v > 0 ? v : 0;
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

/* VKFLUID_SLOW_FRAME_S into *v; false when it is set but not a number >= 0. */
static bool slow_frame_env(double *v)
{
    const char *env = getenv("VKFLUID_SLOW_FRAME_S");
    *v = VF_SLOW_FRAME_S;
    return !env || (vf_app_parse_double(env, v) && *v >= 0);
}

double vf_cmd_slow_frame_s(void)
{
    double v;
    return slow_frame_env(&v) ? v : VF_SLOW_FRAME_S;
}

static bool env_seconds(const char *v)
{
    double x;
    return vf_app_parse_double(v, &x) && x >= 0;
}

static bool env_fault(const char *v)
{
    vf_result f;
    uint64_t n;
    return vf_gpu_parse_fault(v, &f, &n);
}

static bool env_limits(const char *v)
{
    return !strcmp(v, "min-desktop");
}

static bool env_descriptors(const char *v)
{
    return !strcmp(v, "sets");
}

/* The environment variables vkfluid reads whose values can be wrong: name,
 * what it takes (the warning's words), the check. */
#define VF_ENV_LIST(X)                                                                                                 \
    X("VKFLUID_SLOW_FRAME_S", "a number of seconds >= 0 (0: warn before every run); the default 2 is used",         \
      env_seconds)                                                                                                     \
    X("VKFLUID_FAULT", "device-lost@N or oom@N with N >= 1 (tests); no fault is injected", env_fault)                 \
    X("VKFLUID_LIMITS", "min-desktop (tests); the device's own limits are used", env_limits)                          \
    X("VKFLUID_DESCRIPTORS", "sets (tests); the device's descriptor path is used", env_descriptors)

typedef struct vf_env_var {
    const char *name, *takes;
    bool (*ok)(const char *value);
} vf_env_var;

#define VF_ENV_ROW(name, takes, ok) {name, takes, ok},
static const vf_env_var env_vars[] = {VF_ENV_LIST(VF_ENV_ROW)};

void vf_cmd_check_env(void)
{
    for (size_t i = 0; i < sizeof env_vars / sizeof env_vars[0]; i++) {
        const char *v = getenv(env_vars[i].name);
        if (v && !env_vars[i].ok(v)) {
            char shown[72];
            vf_text_safe(v, shown, sizeof shown, 60);
            vf_app_warn("%s=%s: not valid: it takes %s", env_vars[i].name, shown, env_vars[i].takes);
        }
    }
}

/* The most substeps timed one by one before a frame. */
#define VF_ESTIMATE_PARTS 8

/* What a timed submit records. */
typedef enum timed_kind {
    TIMED_PART,   /* one part of one substep */
    TIMED_PROBE,  /* the solver's probe of its frame end (see solver.h) */
    TIMED_RENDER, /* one render into an image */
} timed_kind;

/* One timed submit of the estimate: s, the solver of a part or probe; r,
 * img, the renderer and target of a render. */
typedef struct timed_job {
    timed_kind kind;
    vf_solver *s;
    vf_renderer *r;
    vf_image *img;
} timed_job;

/* vf_frame_record_fn of a timed_job. */
static vf_result record_timed(void *user, VkCommandBuffer cmd)
{
    const timed_job *j = user;
    if (j->kind == TIMED_PART)
        return vf_solver_record_frame(j->s, cmd, NULL);
    if (j->kind == TIMED_PROBE)
        return j->s->vt->probe_frame_end(j->s, cmd);
    vf_render_barrier_after_sim(cmd);
    vf_render_prepare_target(cmd, j->img);
    return j->r->vt->record(j->r, cmd, j->img, NULL);
}

/* One timed render of the current state into an image of the renderer's
 * own size and format (the target the command draws into may be a
 * swapchain image that is not ours before it is acquired), usable as the
 * capture target is: a compute renderer writes it directly or copies to it. */
static int timed_render(vf_frame_runner *run, uint64_t frame, vf_renderer *r, double *secs)
{
    timed_job job = {.kind = TIMED_RENDER, .r = r};
    vf_image_desc id = {.width = r->width, .height = r->height, .format = r->format,
                        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                 VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                        .storage_alias = true,
                        .name = "estimate render target"};
    vf_result res = vf_image_create(run->gpu, &id, &job.img);
    int rc = res == VF_OK ? vf_frame_runner_timed(run, frame, 0, record_timed, &job, secs)
                          : vf_frame_runner_fail(run, res, "making the estimate's render target", frame, 0, -1);
    vf_image_destroy(&job.img);
    return rc;
}

int vf_cmd_estimate_frame(vf_frame_runner *run, vf_solver *s, vf_renderer *renderer, double render_share,
                          vf_frame_estimate *out)
{
    memset(out, 0, sizeof *out);
    uint64_t frame = s->frames + 1;
    uint32_t keep = s->part_substeps;
    s->part_substeps = 1;
    s->part_more = false;
    /* the first substep (with the frame's own start-up work), then more
     * until they add up to half a second (at most VF_ESTIMATE_PARTS in all) */
    double first = 0, next = 0, t = 0;
    uint32_t parts = 0;
    timed_job job = {.kind = TIMED_PART, .s = s};
    int rc;
    while ((rc = vf_frame_runner_timed(run, frame, parts + 1, record_timed, &job, &t)) == 0) {
        if (parts++ == 0)
            first = t;
        else
            next += t;
        if (!s->part_more || parts >= VF_ESTIMATE_PARTS || (parts >= 2 && next >= 0.5))
            break;
    }
    s->part_substeps = keep;
    /* the frame's end work when the timed parts did not reach it (the
     * solver's state stays as it was), and one render */
    job.kind = TIMED_PROBE;
    if (rc == 0 && s->part_more && s->frames == 0 && s->vt->probe_frame_end)
        rc = vf_frame_runner_timed(run, frame, 0, record_timed, &job, &out->end_s);
    if (rc == 0 && renderer && render_share > 0 && (rc = timed_render(run, frame, renderer, &out->render_s)) == 0)
        out->render_share = render_share;
    if (rc != 0)
        return rc;
    out->substeps = s->frame_substeps;
    out->timed = parts;
    out->first_s = first;
    out->substep_s = parts > 1 ? next / (parts - 1) : first;
    out->measured = out->substeps > 0;
    out->frame_s = out->substeps ? first + (double)(out->substeps - 1) * out->substep_s : first;
    out->frame_s += out->end_s + out->render_share * out->render_s;
    if (!s->part_more) {
        out->frame_complete = true;
        vf_result res = vf_solver_frame_done(s);
        if (res != VF_OK)
            return vf_frame_runner_fail(run, res, "ending the frame", frame, parts, -1);
    }
    return 0;
}

void vf_cmd_duration_text(double secs, char *buf, size_t cap)
{
    if (secs < 120)
        snprintf(buf, cap, "%.2g s", secs);
    else if (secs < 7200)
        snprintf(buf, cap, "%.2g min", secs / 60);
    else
        snprintf(buf, cap, "%.2g h", secs / 3600);
}

/* How a frame's time scales with a size key: time ~ value^power. */
typedef struct size_key {
    const char *family, *key, *key2;
    double power; /* per key (key2 scales with key) */
    const char *why;
} size_key;

static const size_key size_keys[] = {
    /* particles ~ spacing^-3, substeps ~ 1/spacing (CFL) */
    {"sph", "particles", NULL, 4.0 / 3.0, "fewer particles"},
    {"sph", "spacing", NULL, -4.0, "fewer particles"},
    {"grid", "n", NULL, 2.0, "fewer cells"},
    {"grid3d", "n", NULL, 3.0, "fewer cells"},
    {"height", "nx", "ny", 1.0, "fewer cells"},
    {"terrain", "nx", "ny", 1.0, "fewer cells"},
};

static double param_value(const vf_param_def *d, const void *desc)
{
    char cur[64];
    vf_params_format(d, desc, cur, sizeof cur);
    return atof(cur);
}

/* Two significant digits, within the key's range: "0.021", "1600", "96". */
static void suggested_value(const vf_param_def *d, double want, char *buf, size_t cap)
{
    want = fmin(fmax(want, d->min), d->max);
    if (d->type == VF_PARAM_INT) {
        snprintf(buf, cap, "%lld", (long long)floor(want));
        return;
    }
    double mag = want > 0 ? pow(10.0, floor(log10(want)) - 1) : 1;
    double r = round(want / mag) * mag;
    if (r >= 100)
        snprintf(buf, cap, "%.0f", r);
    else
        snprintf(buf, cap, "%.2g", r);
}

/* The key to change and its value for frames of about target_s: "spacing=0.021" */
static bool suggest_size(const vf_scene_info *info, const void *desc, double frame_s, double target_s, const char *sep,
                         char *buf, size_t cap, const char **why, const char **key_out)
{
    for (size_t i = 0; i < sizeof size_keys / sizeof size_keys[0]; i++) {
        const size_key *k = &size_keys[i];
        if (strcmp(k->family, info->family))
            continue;
        const vf_param_def *d = vf_params_find(info->params, info->param_count, k->key);
        if (!d)
            continue;
        const vf_param_def *d2 = k->key2 ? vf_params_find(info->params, info->param_count, k->key2) : NULL;
        double v = param_value(d, desc), v2 = d2 ? param_value(d2, desc) : 0;
        if (!(v > 0) || (k->key2 && !(v2 > 0)))
            continue; /* e.g. particles = 0: spacing decides */
        double r = pow(target_s / frame_s, 1.0 / (k->power * (d2 ? 2 : 1)));
        char val[64], val2[64];
        suggested_value(d, v * r, val, sizeof val);
        if (d2) {
            suggested_value(d2, v2 * r, val2, sizeof val2);
            snprintf(buf, cap, "%s=%s%s%s=%s", k->key, val, sep, k->key2, val2);
        } else {
            snprintf(buf, cap, "%s=%s", k->key, val);
        }
        *why = k->why;
        *key_out = k->key;
        return true;
    }
    return false;
}

bool vf_cmd_estimate_text(const vf_scene_info *info, const void *desc, vf_solver *s, const vf_gpu *gpu,
                          const vf_frame_estimate *e, uint64_t frames, bool viewer, char *buf, size_t cap,
                          const char **key_out)
{
    if (key_out)
        *key_out = NULL;
    if (!info || !e || !e->measured || !(e->frame_s > vf_cmd_slow_frame_s()))
        return false;
    char per[32], all[96] = "", what[128] = "", measured[320], fix[400] = "", sug[160];
    vf_cmd_duration_text(e->frame_s, per, sizeof per);
    if (s && s->vt->describe)
        s->vt->describe(s, what, sizeof what);
    what[strcspn(what, ";")] = 0; /* its first part: the size */
    char sub1[32], sub[32];
    vf_cmd_duration_text(e->first_s, sub1, sizeof sub1);
    vf_cmd_duration_text(e->substep_s, sub, sizeof sub);
    if (e->substeps > 1 && e->timed > 2)
        snprintf(measured, sizeof measured, "%s%s%u substeps a frame, measured: %s the first, %s each of the next %u",
                 what, what[0] ? ", " : "", e->substeps, sub1, sub, e->timed - 1);
    else if (e->substeps > 1)
        snprintf(measured, sizeof measured, "%s%s%u substeps a frame, measured: %s the first, %s the next", what,
                 what[0] ? ", " : "", e->substeps, sub1, sub);
    else
        snprintf(measured, sizeof measured, "%s%s1 substep a frame, measured: %s", what, what[0] ? ", " : "", sub1);
    size_t used = strlen(measured);
    if (e->end_s > 0) {
        char t[32];
        vf_cmd_duration_text(e->end_s, t, sizeof t);
        used += (size_t)snprintf(measured + used, sizeof measured - used, "; after the substeps (foam) %s", t);
    }
    if (e->render_s > 0 && used < sizeof measured) {
        char t[32], every[48] = "";
        vf_cmd_duration_text(e->render_s, t, sizeof t);
        if (e->render_share < 1)
            snprintf(every, sizeof every, " (1 frame in %.0f)", 1.0 / e->render_share);
        snprintf(measured + used, sizeof measured - used, "; rendering %s%s", t, every);
    }
    if (frames > 1) {
        char t[32];
        vf_cmd_duration_text(e->frame_s * (double)frames, t, sizeof t);
        snprintf(all, sizeof all, ": %llu frames take ~%s", (unsigned long long)frames, t);
    }
    const char *why = NULL, *key = NULL;
    double target = fmax(0.5 * VF_SLOW_FRAME_S, 1e-3);
    if (e->frame_s > target && suggest_size(info, desc, e->frame_s, target, viewer ? " and " : " --set ", sug, sizeof sug, &why, &key)) {
        if (key_out)
            *key_out = key;
        if (viewer)
            snprintf(fix, sizeof fix, "for ~%.2g s frames (%s) set %s (selected above: Up/Down change it, R applies)",
                     target, why, sug);
        else
            snprintf(fix, sizeof fix, "; for ~%.2g s frames (%s) use --set %s (see vkfluid scenes %s)", target, why,
                     sug, info->name);
    } else if (!viewer && e->frame_s > target) {
        snprintf(fix, sizeof fix, "; lower its size keys with --set for faster frames (see vkfluid scenes %s)",
                 info->name);
    }
    if (viewer)
        snprintf(buf, cap, "estimate: ~%s a frame on %s (%s)\n%s", per, gpu ? gpu->info.name : "this device", what,
                 fix);
    else
        snprintf(buf, cap, "estimate: scene %s: ~%s a frame on %s (%s)%s%s", info->name, per,
                 gpu ? gpu->info.name : "this device", measured, all, fix);
    return true;
}

int vf_cmd_estimate_and_warn(const vf_scene_info *info, const void *desc, vf_frame_runner *run, vf_solver *s,
                             vf_renderer *renderer, double render_share, uint64_t frames, vf_frame_estimate *out)
{
    int rc = vf_cmd_estimate_frame(run, s, renderer, render_share, out);
    char line[1024];
    if (rc == 0 && vf_cmd_estimate_text(info, desc, s, run->gpu, out, frames, false, line, sizeof line, NULL))
        vf_app_warn("%s", line);
    return rc;
}
