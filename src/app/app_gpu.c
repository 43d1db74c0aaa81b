/* app_gpu: the app layer's way to open a GPU from a --device value, with the
 * one-line errors the CLI promises. */
#include <string.h>

#include "app.h"
#include "app_gpu.h"

static void list_devices(const vf_device_info *devs, uint32_t n, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < n && used < cap; i++) {
        int w = snprintf(buf + used, cap - used, "%s%u: %s (%s)", i ? ", " : "", i, devs[i].name,
                         vf_device_type_name(devs[i].type));
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

int vf_app_gpu_list(vf_device_info *devs, uint32_t *n)
{
    *n = 0;
    vf_result res = vf_gpu_enumerate(devs, VF_MAX_DEVICES, n);
    if (res != VF_OK) {
        vf_app_error("%s", vf_result_message(res));
        return vf_app_exit_code(res);
    }
    return 0;
}

int vf_app_gpu_open(const char *device_spec, bool present, const char *const *inst_ext, uint32_t inst_ext_count,
                    vf_gpu **out)
{
    *out = NULL;
    vf_device_info devs[VF_MAX_DEVICES];
    uint32_t n = 0;
    int rc = vf_app_gpu_list(devs, &n);
    if (rc)
        return rc;
    vf_gpu_desc desc = {.present = present, .instance_extensions = inst_ext, .instance_extension_count = inst_ext_count};
    char list[1024];
    if (device_spec) {
        uint32_t idx;
        if (vf_gpu_match_device(devs, n, device_spec, &idx) != VF_OK) {
            list_devices(devs, n, list, sizeof list);
            vf_app_error("--device %s matches no device: the devices are %s", device_spec, list);
            return VF_EXIT_USAGE;
        }
        if (!devs[idx].usable) {
            vf_app_error("--device %s: %s %s: choose another device (see vkfluid devices)", device_spec, devs[idx].name,
                         devs[idx].unusable_why);
            return VF_EXIT_USAGE;
        }
        desc.device_set = true;
        desc.device_index = (int)idx;
    } else {
        uint32_t idx;
        if (!vf_gpu_pick_default(devs, n, &idx)) {
            list_devices(devs, n, list, sizeof list);
            vf_app_error("no usable vulkan 1.3 device (with synchronization2 and dynamic rendering) "
                         "among %s: update the driver or install mesa-vulkan-drivers",
                         list);
            return VF_EXIT_USAGE;
        }
    }
    vf_result res = vf_gpu_create(&desc, out);
    if (res != VF_OK) {
        vf_app_error("cannot open the gpu: %s", vf_result_message(res));
        return vf_app_exit_code(res);
    }
    return VF_EXIT_OK;
}

int vf_app_gpu_close(vf_gpu **gpu)
{
    bool validation = *gpu && (*gpu)->validation;
    uint32_t msgs = vf_gpu_shutdown(gpu);
    if (validation && msgs) {
        vf_app_error("%u validation message%s (see above)", msgs, msgs == 1 ? "" : "s");
        return VF_EXIT_RUNTIME;
    }
    return VF_EXIT_OK;
}
