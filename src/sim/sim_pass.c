/* sim_pass: pipelines and recording of a family's table of passes (see sim_pass.h). */
#include "sim_pass.h"

#include <stdio.h>

vf_result vf_sim_pass_pipeline(vf_gpu *gpu, const vf_sim_pass *pass, const uint32_t *spec, uint32_t spec_count,
                               const char *variant, vf_pipeline **out)
{
    vf_compute_desc d = pass->desc;
    char name[64];
    if (spec_count > VF_MAX_SPEC_CONSTANTS)
        return VF_ERR_INVALID_ARG;
    for (uint32_t i = 0; i < spec_count; i++)
        d.spec[i] = spec[i];
    d.spec_count = spec_count;
    if (variant) {
        snprintf(name, sizeof name, "%s %s", d.shader, variant);
        d.name = name;
    }
    return vf_pipeline_compute_create(gpu, &d, out);
}

void vf_sim_pass_record(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                        vf_pipeline *pipe, const vf_binding *b, const void *push, uint32_t gx, uint32_t gy,
                        uint32_t gz)
{
    if (!prof) { /* inside a step's scope, or nothing timed: no scope of its own */
        vf_sim_pass_dispatch(gpu, cmd, pipe, b, push, gx, gy, gz);
        return;
    }
    uint32_t scope = vf_scope_begin(gpu, prof, cmd, pass->name, true);
    vf_cmd_dispatch(cmd, pipe, b, push, gx, gy, gz);
    vf_scope_end(gpu, prof, cmd, scope, true);
    vf_cmd_barrier_compute_on(gpu, cmd);
}

uint32_t vf_sim_pass_begin(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass)
{
    return vf_scope_begin(gpu, prof, cmd, pass->name, true);
}

void vf_sim_pass_end(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, uint32_t scope)
{
    vf_scope_end(gpu, prof, cmd, scope, true);
}

void vf_sim_pass_dispatch(vf_gpu *gpu, VkCommandBuffer cmd, vf_pipeline *pipe, const vf_binding *b, const void *push,
                          uint32_t gx, uint32_t gy, uint32_t gz)
{
    vf_cmd_dispatch(cmd, pipe, b, push, gx, gy, gz);
    vf_cmd_barrier_compute_on(gpu, cmd);
}

void vf_sim_pass_record_1d(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                           vf_pipeline *pipe, const vf_binding *b, const void *push, uint64_t threads)
{
    uint32_t scope = vf_scope_begin(gpu, prof, cmd, pass->name, true);
    vf_cmd_dispatch_1d(cmd, pipe, b, push, threads);
    vf_scope_end(gpu, prof, cmd, scope, true);
    vf_cmd_barrier_compute_on(gpu, cmd);
}
