/* gpu_limits: the device limits vkfluid depends on, checked explicitly.
 *
 * - VKFLUID_LIMITS=min-desktop (a test hook) clamps the limits vkfluid reads
 *   to the smallest that current desktop GPUs report (docs/drivers.md lists
 *   the numbers and where they come from); it never raises a limit.
 * - Every embedded compute shader's workgroup (from its SPIR-V: LocalSize and
 *   the sizes of its Workgroup variables) is checked against
 *   maxComputeWorkGroupSize, maxComputeWorkGroupInvocations and
 *   maxComputeSharedMemorySize when a device is examined, so a device that
 *   cannot run one is "not usable" with the limit named, before any work. */
#ifndef VF_GPU_LIMITS_H
#define VF_GPU_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_check.h"
#include "vf_error.h"

/** True when VKFLUID_LIMITS=min-desktop is set. */
bool vf_limits_min_desktop(void);

/** Clamps limits to the min-desktop values (lowers maxima, raises alignments). */
void vf_limits_clamp_min_desktop(VkPhysicalDeviceLimits *limits);

/** Checks every embedded compute shader against the workgroup limits. On
 * failure writes one phrase naming the limit, its value, the shader and its
 * need into why (e.g. "maxComputeSharedMemorySize is 16384 bytes, shader
 * grid_mg_coarse.comp needs 36864") and returns false. */
bool vf_limits_check_shaders(const VkPhysicalDeviceLimits *limits, char *why, size_t why_size);

/** Reads a compute shader's SPIR-V: its workgroup size and the bytes of its
 * Workgroup-storage variables. Returns false when the module is malformed or
 * declares no LocalSize. */
bool vf_limits_reflect(const uint32_t *code, size_t bytes, uint32_t size[3], uint64_t *shared_bytes);

#endif
