/* sim_multigrid: what the multigrid solvers of the grid families share. */
#include "sim_multigrid.h"

vf_mg_tail_plan vf_mg_plan_tail(const VkPhysicalDeviceLimits *lim, uint32_t levels, const uint64_t *cells,
                                uint32_t max_levels, uint32_t max_wg, uint32_t default_floats)
{
    uint64_t cap = lim->maxComputeSharedMemorySize / 4;
    uint32_t wg = max_wg;
    if (wg > lim->maxComputeWorkGroupInvocations)
        wg = lim->maxComputeWorkGroupInvocations;
    if (wg > lim->maxComputeWorkGroupSize[0])
        wg = lim->maxComputeWorkGroupSize[0];
    vf_mg_tail_plan p = {.tail = levels, .floats = default_floats, .wg = wg ? wg : 1};
    for (uint32_t t = 0; t + 1 < levels; t++) {
        uint64_t need = cells[t];
        for (uint32_t l = t + 1; l < levels; l++)
            need += 2 * cells[l];
        if (levels - t <= max_levels && need <= cap) {
            p.tail = t;
            p.floats = (uint32_t)need;
            return p;
        }
    }
    if (p.floats > cap)
        p.floats = (uint32_t)cap;
    return p;
}
