/* app_gpu: opening and closing the GPU for a command (app layer: prints). */
#ifndef VF_APP_GPU_H
#define VF_APP_GPU_H

#include <stdio.h>

#include "gpu_context.h"

/** Lists the Vulkan devices into devs (VF_MAX_DEVICES entries), their
 * count in *n. Prints a one-line error and returns its exit code on failure;
 * 0 on success. */
int vf_app_gpu_list(vf_device_info *devs, uint32_t *n);

/** Opens the GPU named by device_spec (NULL: the default choice). Prints a
 * one-line error and returns a non-zero exit code on failure (2 for a bad
 * --device or a missing loader/driver, 3 otherwise); 0 and *out on success.
 * inst_ext may be NULL. */
int vf_app_gpu_open(const char *device_spec, bool present, const char *const *inst_ext, uint32_t inst_ext_count,
                    vf_gpu **out);

/** Destroys the GPU. When validation was on and reported messages, prints
 * their count and returns 3; else 0. Accepts NULL. */
int vf_app_gpu_close(vf_gpu **gpu);

#endif
