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
    int error; /* errno of the failure (ENOSPC: VF_ERR_NO_SPACE), 0 when none */
} vf_file;

/** Opens the temporary file for path. On failure returns VF_ERR_IO (or
 * VF_ERR_NO_SPACE on a full disk) and leaves nothing on disk. */
vf_result vf_file_begin(vf_file *file, const char *path);
/** Flushes, fsyncs, closes and renames the temporary onto the path. On any
 * failure removes the temporary and returns VF_ERR_NO_SPACE for a full disk,
 * VF_ERR_IO otherwise (file->error holds the errno). */
vf_result vf_file_commit(vf_file *file);
/** Closes and removes the temporary (error paths). Safe to call twice. */
void vf_file_abort(vf_file *file);

/** Checks an output folder without changing anything (before any gpu
 * work): VF_ERR_INVALID_ARG when the path is not a folder or the folder
 * holds anything and force is false; VF_ERR_IO when it cannot be created
 * (its nearest existing ancestor is not a writable folder) or is not
 * writable. err gets a one-line reason. */
vf_result vf_output_dir_check(const char *dir, bool force, char *err, size_t cap);

/** Prepares an output folder for a new run: creates it (and its parents) when
 * missing; when it exists and holds anything, refuses with
 * VF_ERR_INVALID_ARG unless force is true; VF_ERR_IO when it cannot be
 * created or written. With force, removes the files vkfluid writes there
 * (vf_output_is_own_file) and leaves every other file alone. err gets a
 * one-line reason. */
vf_result vf_output_dir_prepare(const char *dir, bool force, char *err, size_t cap);

/** Opens path for reading only when it is a regular file, without ever
 * waiting (a FIFO or a device is refused before it could block). NULL with
 * *why an errno (EISDIR for a folder, EINVAL for anything else that is not
 * a regular file). */
FILE *vf_open_regular(const char *path, int *why);

/** True when name (a file name, no folder) is one that vkfluid writes into an
 * output folder: frames (frame_NNNNN.png), field exports (grid_NNNN.csv,
 * particles_NNNN.vtp, ...), its JSON, CSV and SVG reports (summary.json,
 * capture.json, bench.*) and the temporaries of any of them (NAME.tmp.PID). */
bool vf_output_is_own_file(const char *name);

/** Maps an errno of a failed write to a result: VF_ERR_NO_SPACE for ENOSPC
 * and EDQUOT, VF_ERR_IO otherwise. */
vf_result vf_io_result(int err);

/** Writes s as a JSON string literal (quoted, escaped). NULL writes null. */
void vf_json_string(FILE *f, const char *s);

/** Writes a double as JSON: non-finite values become null. */
void vf_json_number(FILE *f, double v);

#endif
