/* cmd_report: the JSON members that run's summary.json and capture's
 * capture.json share (scene and parameters, device, GPU time per pass). */
#ifndef VF_CMD_REPORT_H
#define VF_CMD_REPORT_H

#include <stdio.h>

#include "cmd_common.h"
#include "fileio.h"
#include "gpu_profiler.h"

/** Begins DIR/NAME (whole or not at all: vf_file_begin) and writes "{" and
 * the scene's members (vf_report_scene); the caller adds members and ends
 * the file with vf_file_commit or vf_file_abort. */
vf_result vf_report_begin(vf_file *file, const char *dir, const char *name, const vf_cmd_scene *sc);

/** Writes `"scene": ..., ["scene_file": path,] "family": ..., "parameters": {...}` (no braces, no
 * trailing comma), each line prefixed by two spaces. */
void vf_report_scene(FILE *f, const vf_cmd_scene *sc);

/** Writes `"device": {"name", "type", "driver", "driver_info"}`. */
void vf_report_device(FILE *f, const vf_gpu *gpu);

/** Writes `"KEY": {"pass": mean ms per frame, ...}`. */
void vf_report_passes(FILE *f, const char *key, const vf_pass_stats *st);

/** Ends a report begun with vf_report_begin: reads it back as JSON and
 * commits it. Every number must be finite (vf_json_number writes the others
 * as null): VF_ERR_NUMERIC with the first such field's path in field
 * ("final_divergence_l2") after committing the file, which stays valid
 * JSON; VF_ERR_NUMERIC with nothing written when the text is not JSON;
 * otherwise what vf_file_commit returns. */
vf_result vf_report_commit(vf_file *file, char *field, size_t cap);

#endif
