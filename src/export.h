/* export: field files other programs read, written whole or not at all
 * (through fileio's temporary + rename). Generic: any solver can use them.
 *   CSV: a header line and rows of numbers (%.9g, enough for fp32 round trips).
 *   VTK XML ImageData (.vti): 2D or 3D point data, base64 binary Float32
 *   arrays, readable by ParaView and VTK. */
#ifndef VF_EXPORT_H
#define VF_EXPORT_H

#include <stdint.h>

#include "fileio.h"

/** A CSV file being written. */
typedef struct vf_export_csv {
    vf_file file;
    uint32_t columns;
    vf_result status; /* first error seen; the commit fails with it */
} vf_export_csv;

/** Starts a CSV file at path with the given header line (no newline, e.g.
 * "x,y,u,v"); the column count is taken from the header. */
vf_result vf_export_csv_begin(vf_export_csv *csv, const char *path, const char *header);

/** Appends one row of `columns` values. Errors are remembered and returned by
 * vf_export_csv_commit. */
void vf_export_csv_row(vf_export_csv *csv, const double *values);

/** Finishes the file (rename into place); on any earlier error removes the
 * temporary and returns it. */
vf_result vf_export_csv_commit(vf_export_csv *csv);

/** Abandons the file (removes the temporary). */
void vf_export_csv_abort(vf_export_csv *csv);

/** One point-data array of a .vti file: count * components floats, x fastest
 * then y then z. The data stays owned by the caller. */
typedef struct vf_export_array {
    const char *name;
    uint32_t components; /* 1 (scalar) or 3 (vector) */
    const float *data;
} vf_export_array;

/** Writes a VTK XML ImageData file of nx x ny x nz points (nz 1 for 2D) with
 * the given origin and spacing and arrays as point data (Float32, base64
 * binary, UInt64 headers). Returns VF_ERR_INVALID_ARG for empty sizes or
 * arrays, VF_ERR_IO when writing fails (nothing is left at path). */
vf_result vf_export_vti_write(const char *path, uint32_t nx, uint32_t ny, uint32_t nz, const double origin[3],
                              const double spacing[3], const vf_export_array *arrays, uint32_t count);

#endif
