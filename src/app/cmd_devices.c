/* vkfluid devices: list every Vulkan device. */
#include <inttypes.h>
#include <string.h>

#include "app.h"
#include "app_gpu.h"
#include "fileio.h"
#include "gpu_context.h"
#include "options.h"
#include "render.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: vkfluid devices [--json]\n"
               "\n"
               "Lists every Vulkan device with its index (for --device), type, driver,\n"
               "Vulkan version, device-local memory and subgroup size. The device vkfluid\n"
               "picks by default (discrete, then integrated, then CPU) is marked with '*'.\n"
               "Also the render path --render-path auto takes on each device, and why.\n"
               "\n"
               "options:\n"
               "  --json   print the list as JSON\n");
}

int vf_cmd_devices(int argc, char **argv)
{
    bool json = false;
    bool help = false;
    const vf_opt opts[] = {{.name = "--json", .type = VF_OPT_FLAG, .out = &json}};
    int prc = vf_opt_parse("devices", argc, argv, VF_OPT_TABLE(opts), &help, NULL);
    if (prc)
        return prc;
    if (help) {
        usage(stdout);
        return VF_EXIT_OK;
    }
    vf_device_info devs[VF_MAX_DEVICES];
    uint32_t n = 0;
    int rc = vf_app_gpu_list(devs, &n);
    if (rc)
        return rc;
    uint32_t pick = UINT32_MAX;
    vf_gpu_pick_default(devs, n, &pick);
    if (json)
        printf("[\n");
    for (uint32_t i = 0; i < n; i++) {
        const vf_device_info *d = &devs[i];
        char api[32];
        snprintf(api, sizeof api, "%u.%u.%u", VK_API_VERSION_MAJOR(d->api_version), VK_API_VERSION_MINOR(d->api_version),
                 VK_API_VERSION_PATCH(d->api_version));
        double gib = (double)d->device_local_bytes / (1024.0 * 1024.0 * 1024.0);
        char why[256];
        vf_render_path path = vf_render_path_auto(d, why, sizeof why);
        char why_surface[256];
        vf_render_path surface = vf_render_path_auto_surface(d, why_surface, sizeof why_surface);
        if (json) {
            printf("  {\"index\": %u, \"name\": \"%s\", \"type\": \"%s\", \"driver\": \"%s\", \"driver_info\": \"%s\", "
                   "\"vulkan\": \"%s\", \"memory_bytes\": %" PRIu64 ", \"subgroup_size\": %u, \"subgroup_quad\": %s, "
                   "\"usable\": %s, \"default\": %s, "
                   "\"render_path\": {\"auto\": \"%s\", \"why\": ",
                   i, d->name, vf_device_type_name(d->type), d->driver_name, d->driver_info, api, d->device_local_bytes,
                   d->subgroup_size, d->subgroup_quad ? "true" : "false", d->usable ? "true" : "false", i == pick ? "true" : "false", vf_render_path_name(path));
            vf_json_string(stdout, why);
            printf(", \"surface\": {\"auto\": \"%s\", \"why\": ", vf_render_path_name(surface));
            vf_json_string(stdout, why_surface);
            printf("}}}%s\n", i + 1 < n ? "," : "");
        } else {
            printf("%c %u: %s\n", i == pick ? '*' : ' ', i, d->name);
            printf("     type %s, driver %s (%s), vulkan %s\n", vf_device_type_name(d->type), d->driver_name, d->driver_info, api);
            printf("     memory %.1f GiB, subgroup size %u%s, max storage buffer %.0f MiB, timestamps %s\n", gib,
                   d->subgroup_size, d->subgroup_quad ? " (quad operations)" : "", (double)d->max_storage_buffer_range / (1024.0 * 1024.0), d->timestamps ? "yes" : "no");
            printf("     descriptors: %s\n", d->push_descriptor ? "pushed (VK_KHR_push_descriptor)" : "descriptor sets (no VK_KHR_push_descriptor)");
            printf("     render path (auto): %s: %s\n", vf_render_path_name(path), why);
            printf("     surface render path (auto): %s: %s\n", vf_render_path_name(surface), why_surface);
            if (!d->usable)
                printf("     not usable: %s\n", d->unusable_why);
        }
    }
    if (json)
        printf("]\n");
    return VF_EXIT_OK;
}
