/* libFuzzer target over the scene-file parser and parameter validation
 * (vf_scene_check_bytes: JSON scene files, or "set:" lines of --set
 * assignments), the session parsers (vf_session_check_bytes: record files
 * and streams of lockstep wire messages, docs/replay.md) and the PNG reader (inputs starting "png:", the rest decoded
 * as a PNG file). Besides ASan/UBSan findings it aborts when an error message
 * breaks the one-line rule, is empty or holds a byte a terminal would act on
 * (a control character: every byte from a file is made printable). No GPU. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_io.h"
#include "scene_file.h"
#include "session_events.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One line, not empty, no control character. */
static bool message_ok(const char *m)
{
    if (!m[0])
        return false;
    for (const unsigned char *p = (const unsigned char *)m; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= 4 && !memcmp(data, "png:", 4)) {
        vf_png_detail detail = {0};
        uint8_t *px = NULL;
        uint32_t w = 0, h = 0;
        vf_result r = vf_png_decode(data + 4, size - 4, &px, &w, &h, &detail);
        if (r != VF_OK && !message_ok(detail.what)) {
            fprintf(stderr, "fuzz_scene: bad png error message for result %d: [%s]\n", (int)r, detail.what);
            abort();
        }
        if (r == VF_OK && (!px || !w || !h)) {
            fprintf(stderr, "fuzz_scene: png decoded without pixels\n");
            abort();
        }
        free(px);
        return 0;
    }
    char err[2048];
    err[0] = 0;
    vf_result r = vf_scene_check_bytes(data, size, err, sizeof err);
    if (r != VF_OK && !message_ok(err)) {
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
