#include "cmd_report.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "scene_shapes.h"

static void shape_list(FILE *f, const char *key, const vf_shape *list, uint32_t n, bool *first)
{
    static const char *const kinds[] = {"box", "sphere", "cylinder", "mask"};
    if (!n)
        return;
    fprintf(f, "%s\n    \"%s\": [", *first ? "" : ",", key);
    *first = false;
    for (uint32_t i = 0; i < n; i++) {
        const vf_shape *s = &list[i];
        fprintf(f, "%s{\"shape\": \"%s\"", i ? ", " : "", kinds[s->kind]);
        if (s->kind == VF_SHAPE_MASK) {
            fprintf(f, ", \"file\": ");
            vf_json_string(f, s->file);
        } else {
            fprintf(f, ", \"center\": [%.9g, %.9g, %.9g]", s->center[0], s->center[1], s->center[2]);
        }
        if (s->kind == VF_SHAPE_BOX)
            fprintf(f, ", \"size\": [%.9g, %.9g, %.9g]", s->size[0], s->size[1], s->size[2]);
        if (s->kind == VF_SHAPE_SPHERE || s->kind == VF_SHAPE_CYLINDER)
            fprintf(f, ", \"radius\": %.9g", s->radius);
        if (s->kind == VF_SHAPE_CYLINDER)
            fprintf(f, ", \"height\": %.9g", s->height);
        if (!strcmp(key, "emitters"))
            fprintf(f, ", \"velocity\": [%.9g, %.9g, %.9g]", s->velocity[0], s->velocity[1], s->velocity[2]);
        if (!strcmp(key, "fluid") && !isnan(s->level))
            fprintf(f, ", \"level\": %.9g", s->level);
        fprintf(f, "}");
    }
    fprintf(f, "]");
}

/* The scene file's shape lists, camera and view, as given (after path resolution). */
static void report_shapes(FILE *f, const vf_scene_shapes *sh)
{
    static const char *const sides[] = {"left", "right", "bottom", "top"};
    bool first = true;
    fprintf(f, ",\n  \"shapes\": {");
    shape_list(f, "obstacles", sh->obstacles, sh->obstacle_count, &first);
    shape_list(f, "fluid", sh->fluid, sh->fluid_count, &first);
    shape_list(f, "emitters", sh->emitters, sh->emitter_count, &first);
    shape_list(f, "sinks", sh->sinks, sh->sink_count, &first);
    for (int io = 0; io < 2; io++) {
        uint32_t mask = io ? sh->outflow_sides : sh->inflow_sides;
        if (!mask)
            continue;
        fprintf(f, "%s\n    \"%s\": [", first ? "" : ",", io ? "outflows" : "inflows");
        first = false;
        bool any = false;
        for (int k = 0; k < 4; k++)
            if (mask & (1u << k)) {
                fprintf(f, "%s{\"side\": \"%s\"", any ? ", " : "", sides[k]);
                if (!io)
                    fprintf(f, ", \"speed\": %.9g", sh->inflow_speed[k]);
                fprintf(f, "}");
                any = true;
            }
        fprintf(f, "]");
    }
    if (sh->has_camera) {
        fprintf(f, "%s\n    \"camera\": {\"eye\": [%.9g, %.9g, %.9g], \"target\": [%.9g, %.9g, %.9g], \"fov\": %.9g}",
                first ? "" : ",", sh->eye[0], sh->eye[1], sh->eye[2], sh->target[0], sh->target[1], sh->target[2],
                sh->fov_deg);
        first = false;
    }
    if (sh->render_mode[0]) {
        fprintf(f, "%s\n    \"render\": {\"mode\": ", first ? "" : ",");
        vf_json_string(f, sh->render_mode);
        fprintf(f, "}");
        first = false;
    }
    if (sh->heightmap.given) {
        const vf_scene_heightmap *hm = &sh->heightmap;
        fprintf(f, "%s\n    \"heightmap\": {\"file\": ", first ? "" : ",");
        vf_json_string(f, hm->file);
        fprintf(f, ", \"size\": [%.9g, %.9g], \"low\": %.9g, \"high\": %.9g, \"width\": %u, \"height\": %u}", hm->size[0],
                hm->size[1], hm->low, hm->high, hm->width, hm->height);
    }
    fprintf(f, "\n  }");
}

void vf_report_scene(FILE *f, const vf_cmd_scene *sc)
{
    fprintf(f, "  \"scene\": ");
    vf_json_string(f, sc->info->name);
    if (sc->file) {
        fprintf(f, ",\n  \"scene_file\": ");
        vf_json_string(f, sc->file);
    }
    fprintf(f, ",\n  \"family\": ");
    vf_json_string(f, sc->info->family);
    fprintf(f, ",\n  \"parameters\": {\n");
    vf_params_write_json(sc->info->params, sc->info->param_count, sc->desc, f, "    ");
    fprintf(f, "  }");
    const vf_scene_shapes *sh = vf_scene_shapes_of(sc->info, sc->desc);
    if (sh && (sh->obstacle_count || sh->fluid_count || sh->emitter_count || sh->sink_count || sh->inflow_sides ||
               sh->outflow_sides || sh->has_camera || sh->render_mode[0] || sh->heightmap.given))
        report_shapes(f, sh);
}

vf_result vf_report_begin(vf_file *file, const char *dir, const char *name, const vf_cmd_scene *sc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    vf_result res = vf_file_begin(file, path);
    if (res != VF_OK)
        return res;
    fprintf(file->f, "{\n");
    vf_report_scene(file->f, sc);
    return VF_OK;
}

void vf_report_device(FILE *f, const vf_gpu *gpu)
{
    fprintf(f, "  \"device\": {\"name\": ");
    vf_json_string(f, gpu->info.name);
    fprintf(f, ", \"type\": ");
    vf_json_string(f, vf_device_type_name(gpu->info.type));
    fprintf(f, ", \"driver\": ");
    vf_json_string(f, gpu->info.driver_name);
    fprintf(f, ", \"driver_info\": ");
    vf_json_string(f, gpu->info.driver_info);
    fprintf(f, "}");
}

void vf_report_passes(FILE *f, const char *key, const vf_pass_stats *st)
{
    fprintf(f, "  \"%s\": {", key);
    for (uint32_t i = 0; i < st->pass_count; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        vf_json_string(f, st->pass[i].name);
        fprintf(f, ": ");
        vf_json_number(f, vf_pass_stats_mean(st, i));
    }
    fprintf(f, "\n  }");
}

/* The path of the first null value under item ("grid.final_divergence_l2",
 * "frame_wall_ms[3]") into buf; false when there is none. */
static bool first_null(const cJSON *item, const char *prefix, char *buf, size_t cap)
{
    int i = 0;
    for (const cJSON *c = item->child; c; c = c->next, i++) {
        char path[512];
        if (cJSON_IsArray(item))
            snprintf(path, sizeof path, "%s[%d]", prefix, i);
        else
            snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", c->string ? c->string : "?");
        if (cJSON_IsNull(c)) {
            snprintf(buf, cap, "%s", path);
            return true;
        }
        if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && first_null(c, path, buf, cap))
            return true;
    }
    return false;
}

vf_result vf_report_commit(vf_file *file, char *field, size_t cap)
{
    field[0] = 0;
    if (fflush(file->f) != 0)
        return vf_file_commit(file); /* reports the write error */
    FILE *in = fopen(file->tmp, "rb");
    char *text = NULL;
    long n = -1;
    if (in && fseek(in, 0, SEEK_END) == 0 && (n = ftell(in)) >= 0 && fseek(in, 0, SEEK_SET) == 0 &&
        (text = malloc((size_t)n + 1)) != NULL && fread(text, 1, (size_t)n, in) == (size_t)n)
        text[n] = 0;
    else {
        free(text);
        text = NULL;
    }
    if (in)
        fclose(in);
    if (!text) {
        vf_file_abort(file);
        return VF_ERR_IO;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        /* not JSON (a writer printed inf or nan): nothing is written */
        snprintf(field, cap, "the value at byte %ld", end ? (long)(end - text) : 0L);
        free(text);
        vf_file_abort(file);
        return VF_ERR_NUMERIC;
    }
    bool bad = first_null(root, "", field, cap);
    cJSON_Delete(root);
    free(text);
    vf_result res = vf_file_commit(file);
    return res != VF_OK ? res : bad ? VF_ERR_NUMERIC : VF_OK;
}
