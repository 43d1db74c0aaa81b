/* fileio: outputs written whole or not at all, output folders that are never
 * silently mixed with an earlier run, and JSON string escaping. */
#ifndef VF_FILEIO_H
#define VF_FILEIO_H

#include <stdbool.h>
#include <stdio.h>

#include "vf_error.h"

/** A file being written: data goes to "<path>.tmp.<pid>", which
 * vf_file_commit renames onto path and vf_file_abort removes. */
typedef struct vf_file {
    FILE *f;
    char path[4096];
    char tmp[4200];
} vf_file;

/** Opens the temporary file for path. On failure returns VF_ERR_IO and
 * leaves nothing on disk. */
vf_result vf_file_begin(vf_file *file, const char *path);
/** Flushes, fsyncs, closes and renames the temporary onto the path. On any
 * failure removes the temporary and returns VF_ERR_IO. */
vf_result vf_file_commit(vf_file *file);
/** Closes and removes the temporary (error paths). Safe to call twice. */
void vf_file_abort(vf_file *file);

/** Prepares an output folder for a new run: creates it (and its parents) when
 * missing; when it exists and holds anything, refuses with VF_ERR_IO unless
 * force is true. err gets a one-line reason. */
vf_result vf_output_dir_prepare(const char *dir, bool force, char *err, size_t cap);

/** Writes s as a JSON string literal (quoted, escaped). NULL writes null. */
void vf_json_string(FILE *f, const char *s);

/** Writes a double as JSON: non-finite values become null. */
void vf_json_number(FILE *f, double v);

#endif
