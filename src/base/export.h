/* export: CSV field files other programs read, written whole or not at all
 * (through fileio's temporary + rename): a header line and rows of numbers
 * (%.9g, enough for fp32 round trips). Generic: any solver can use it. VTK
 * ImageData files are export_vti's. */
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

#endif
