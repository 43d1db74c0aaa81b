/* gpu_shaders: the SPIR-V of every shaders/ file, embedded at build time. */
#ifndef VF_GPU_SHADERS_H
#define VF_GPU_SHADERS_H

#include <stddef.h>
#include <stdint.h>

typedef struct vf_shader_blob {
    const char *name;     /* file name in shaders/, e.g. "scan_block.comp" */
    const uint32_t *code; /* SPIR-V words */
    size_t size;          /* bytes */
} vf_shader_blob;

/** The generated table, terminated by a row with name == NULL. */
extern const vf_shader_blob vf_shader_table[];

/** Finds a shader by file name; returns NULL when there is none. */
const vf_shader_blob *vf_shader_find(const char *name);

#endif
