/* png_io: reading and atomically writing 8-bit PNG files (stb_image and
 * stb_image_write underneath).
 *
 * Writes never leave a half file: the image goes to "PATH.tmp.<pid>" in the
 * same directory, is flushed and fsync'd, then renamed over PATH. The bytes
 * written are a pure function of the pixels (fixed compression level and
 * filter choice), so writing the same image twice gives identical files.
 *
 * The stb writer settings are process-wide; these functions set them on every
 * call, so they are not safe to call concurrently with other stb writers. */
#ifndef VF_PNG_IO_H
#define VF_PNG_IO_H

#include <stddef.h>
#include <stdint.h>

#include "vf_error.h"

/** Largest width or height accepted by read and write. */
#define VF_PNG_MAX_SIDE 32768u
/** Largest pixel count accepted by read and write (256 Mpixel, 1 GiB RGBA8). */
#define VF_PNG_MAX_PIXELS (1ull << 28)

/** Why a PNG read or write failed, phrased for the user. */
typedef struct vf_png_detail {
    char what[256];  /* lowercase, no full stop, e.g. "not a png file (bad signature)" */
    const char *fix; /* static lowercase hint, e.g. "give a png file" */
} vf_png_detail;

/** Writes a w x h 8-bit RGBA image (rows top to bottom, tightly packed) to
 * path as a PNG, atomically (see above). Returns VF_ERR_INVALID_ARG for a NULL
 * or empty argument, VF_ERR_TOO_LARGE beyond VF_PNG_MAX_SIDE/VF_PNG_MAX_PIXELS,
 * VF_ERR_NO_MEMORY when encoding runs out of memory, VF_ERR_IO when the temp
 * file cannot be written, synced or renamed (the temp is removed, path is
 * untouched). The pixels stay owned by the caller. */
vf_result vf_png_write(const char *path, const uint8_t *rgba8, uint32_t w, uint32_t h);

/** vf_png_write for 3 (RGB) or 4 (RGBA) channels per pixel; on failure fills
 * *detail (may be NULL) with what went wrong and a fix. */
vf_result vf_png_write_ex(const char *path, const uint8_t *pixels, uint32_t w, uint32_t h,
                          uint32_t channels, vf_png_detail *detail);

/** Reads a PNG file into a newly allocated w x h RGBA8 buffer (any PNG colour
 * type and 16-bit depth are converted; 16-bit samples keep their high byte).
 * On success *rgba8_out owns the buffer (free() it). On failure *rgba8_out is
 * NULL and the result is VF_ERR_IO for a missing, unreadable or non-regular
 * file (a directory), VF_ERR_PARSE for a file without the PNG signature or a
 * corrupt PNG, VF_ERR_TOO_LARGE beyond the size limits, VF_ERR_NO_MEMORY, or
 * VF_ERR_INVALID_ARG for a NULL argument. None of the pointers may be NULL. */
vf_result vf_png_read(const char *path, uint8_t **rgba8_out, uint32_t *w, uint32_t *h);

/** Reads only a PNG file's signature and IHDR chunk: its width and height,
 * before any decoding (a file of either size above the limits is refused by
 * vf_png_read). The same results as vf_png_read for a file that cannot be
 * opened or is not a PNG; detail may be NULL. */
vf_result vf_png_read_header(const char *path, uint32_t *w, uint32_t *h, vf_png_detail *detail);

/** Reads a PNG as one 16-bit grey channel per pixel (rows top to bottom):
 * 16-bit files as they are, 8-bit ones scaled by 257, colour ones as their
 * luminance; *out is malloc'ed (free it). Errors as vf_png_read_ex. */
vf_result vf_png_read_gray16(const char *path, uint16_t **out, uint32_t *w, uint32_t *h, vf_png_detail *detail);

/** vf_png_read that, on failure, fills *detail (may be NULL) with what went
 * wrong and a fix. */
vf_result vf_png_read_ex(const char *path, uint8_t **rgba8_out, uint32_t *w, uint32_t *h,
                         vf_png_detail *detail);

/** Decodes a PNG held in memory (len bytes at data, owned by the caller) to
 * RGBA8 like vf_png_read_ex: *rgba8_out is malloc'ed (free it); on failure
 * detail (may be NULL) gets a printable one-line reason. */
vf_result vf_png_decode(const uint8_t *data, size_t len, uint8_t **rgba8_out, uint32_t *w, uint32_t *h,
                        vf_png_detail *detail);

#endif
