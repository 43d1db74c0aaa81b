#include "render.h"

#include "gpu_cmd.h"

void vf_renderer_destroy(vf_renderer **r)
{
    if (!r || !*r)
        return;
    (*r)->vt->destroy(*r);
    *r = NULL;
}

void vf_render_barrier_after_sim(VkCommandBuffer cmd)
{
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_READ_BIT);
}
