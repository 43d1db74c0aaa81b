#include "gpu_shaders.h"

#include <string.h>

const vf_shader_blob *vf_shader_find(const char *name)
{
    if (!name)
        return NULL;
    for (const vf_shader_blob *b = vf_shader_table; b->name; b++)
        if (!strcmp(b->name, name))
            return b;
    return NULL;
}
