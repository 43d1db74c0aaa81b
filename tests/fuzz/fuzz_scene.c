/* libFuzzer target over the scene-file parser and parameter validation
 * (vf_scene_check_bytes: JSON scene files, or "set:" lines of --set
 * assignments), and over the session parsers (vf_session_check_bytes: record
 * files and streams of lockstep wire messages, docs/replay.md). Besides ASan/UBSan findings it aborts when an error message
 * breaks the one-line rule or is empty. No GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_file.h"
#include "session_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[2048];
    err[0] = 0;
    vf_result r = vf_scene_check_bytes(data, size, err, sizeof err);
    if (r != VF_OK && (!err[0] || strchr(err, '\n') || strchr(err, '\r'))) {
        fprintf(stderr, "fuzz_scene: bad error message for result %d: [%s]\n", (int)r, err);
        abort();
    }
    err[0] = 0;
    r = vf_session_check_bytes(data, size, err, sizeof err);
    if (r != VF_OK && (!err[0] || strchr(err, '\n') || strchr(err, '\r'))) {
        fprintf(stderr, "fuzz_scene: bad session error message for result %d: [%s]\n", (int)r, err);
        abort();
    }
    return 0;
}
