/* export_vti: a small generic writer of VTK XML ImageData (.vti) files:
 * point data arrays of float32 on a regular nx x ny x nz lattice, stored as
 * appended raw binary (little-endian, UInt64 headers), uncompressed or
 * zlib-compressed in VTK's block format (vtkZLibDataCompressor), written
 * whole or not at all (fileio.h). ParaView and VTK read both directly. */
#ifndef VF_EXPORT_VTI_H
#define VF_EXPORT_VTI_H

#include <stdbool.h>
#include <stdint.h>

#include "params.h"
#include "vf_error.h"

/** How the arrays are stored, by the name of `--export-compress`. A zeroed
 * value is raw ("none"): [UInt64 byte count][floats] per array. "zlib":
 * VTK's compressed blocks: [nblocks][block size][last block size or 0]
 * [compressed size per block] (UInt64), then the zlib streams of the blocks. */
#define VF_VTI_COMPRESSION_LIST(X) X(VF_VTI_RAW, "none") X(VF_VTI_ZLIB, "zlib")
typedef enum vf_vti_compression { VF_VTI_COMPRESSION_LIST(VF_CHOICE_ENUM) } vf_vti_compression;

/** Uncompressed bytes per block of a zlib export (VTK's default size). */
#define VF_VTI_BLOCK_BYTES 32768u

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
    vf_vti_compression compression; /* 0: raw */
} vf_vti_desc;

/** Writes desc to path atomically. VF_ERR_INVALID_ARG for empty sizes, a
 * NULL array, a bad component count or an unknown compression;
 * VF_ERR_NO_MEMORY when the compression buffers cannot be allocated;
 * VF_ERR_IO when writing fails (nothing is left at path then). */
vf_result vf_vti_write(const char *path, const vf_vti_desc *desc);

/** Parses an export compression name (VF_VTI_COMPRESSION_LIST) into *out; false
 * for anything else (the caller names the option and the allowed values). */
bool vf_vti_compression_parse(const char *name, vf_vti_compression *out);

#endif
