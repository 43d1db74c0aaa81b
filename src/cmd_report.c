#include "cmd_report.h"

#include "fileio.h"

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
