/* export_vti: a small generic writer of VTK XML ImageData (.vti) files:
 * point data arrays of float32 on a regular nx x ny x nz lattice, stored as
 * appended raw binary (little-endian, UInt64 block headers), written whole or
 * not at all (fileio.h). ParaView and VTK read it directly. */
#ifndef VF_EXPORT_VTI_H
#define VF_EXPORT_VTI_H

#include <stdint.h>

#include "vf_error.h"

/** One point-data array: components floats per point, x fastest. */
typedef struct vf_vti_field {
    const char *name;     /* array name (letters, digits, '_') */
    uint32_t components;  /* 1 (scalar) or 3 (vector) */
    const float *data;    /* nx*ny*nz*components floats, owned by the caller */
} vf_vti_field;

typedef struct vf_vti_desc {
    uint32_t nx, ny, nz;  /* points per axis (nz = 1 for 2D fields) */
    double origin[3];     /* position of point (0, 0, 0) */
    double spacing[3];    /* distance between points per axis */
    const vf_vti_field *fields;
    uint32_t field_count;
} vf_vti_desc;

/** Writes desc to path atomically. VF_ERR_INVALID_ARG for empty sizes, a
 * NULL array or a bad component count; VF_ERR_IO when writing fails (nothing
 * is left at path then). */
vf_result vf_vti_write(const char *path, const vf_vti_desc *desc);

#endif
