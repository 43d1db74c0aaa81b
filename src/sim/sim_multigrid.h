/* sim_multigrid: what the multigrid solvers of the grid families share. */
#ifndef VF_SIM_MULTIGRID_H
#define VF_SIM_MULTIGRID_H

#include <stdint.h>

#include <volk.h>

/** Where a hierarchy's one-workgroup V-cycle (the "tail") starts and how it
 * runs. tail: the first level it V-cycles (levels when none fits); floats:
 * its shared array (x of the tail level, x and b of every coarser level);
 * wg: its workgroup size. */
typedef struct vf_mg_tail_plan {
    uint32_t tail, floats, wg;
} vf_mg_tail_plan;

/** Plans the tail of a hierarchy of `levels` levels of cells[l] cells each
 * (cells may not be NULL when levels > 0): the finest level t with
 * t + 1 < levels, at most max_levels levels from t down, whose floats fit
 * the device's maxComputeSharedMemorySize; the workgroup size is max_wg
 * clamped to the device's maxComputeWorkGroupInvocations and
 * maxComputeWorkGroupSize[0]. Without a tail, floats is default_floats
 * clamped to the shared memory (what the pipeline is built with). */
vf_mg_tail_plan vf_mg_plan_tail(const VkPhysicalDeviceLimits *lim, uint32_t levels, const uint64_t *cells,
                                uint32_t max_levels, uint32_t max_wg, uint32_t default_floats);

#endif
