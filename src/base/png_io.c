#include "png_io.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stb_image.h>
#include <stb_image_write.h>

/* Largest PNG file read into memory (stb takes an int length). */
#define VF_PNG_MAX_FILE_BYTES ((size_t)INT_MAX)

static const uint8_t png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

static void set_detail(vf_png_detail *detail, const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_detail(vf_png_detail *detail, const char *fix, const char *fmt, ...)
{
    if (!detail)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail->what, sizeof detail->what, fmt, ap);
    va_end(ap);
    detail->fix = fix;
}

/* strerror text in lowercase for the first letter ("No such file" -> "no such file"). */
static void set_errno_detail(vf_png_detail *detail, const char *fix, const char *prefix, int err)
{
    char msg[128];
    snprintf(msg, sizeof msg, "%s", strerror(err));
    if (msg[0] >= 'A' && msg[0] <= 'Z')
        msg[0] = (char)(msg[0] - 'A' + 'a');
    if (prefix)
        set_detail(detail, fix, "%s: %s", prefix, msg);
    else
        set_detail(detail, fix, "%s", msg);
}

static bool size_ok(uint32_t w, uint32_t h)
{
    return w <= VF_PNG_MAX_SIDE && h <= VF_PNG_MAX_SIDE && (uint64_t)w * h <= VF_PNG_MAX_PIXELS;
}

/* ------------------------------------------------------------------ write */

typedef struct png_buffer {
    uint8_t *data;
    size_t len;
    bool failed;
} png_buffer;

/* stb_image_write hands over the whole encoded file at once; keep a copy. */
static void png_collect(void *context, void *data, int size)
{
    png_buffer *buf = context;
    if (buf->failed || size <= 0)
        return;
    uint8_t *grown = realloc(buf->data, buf->len + (size_t)size);
    if (!grown) {
        buf->failed = true;
        return;
    }
    memcpy(grown + buf->len, data, (size_t)size);
    buf->data = grown;
    buf->len += (size_t)size;
}

static bool write_all(int fd, const uint8_t *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

/* Syncs the directory holding path so that the rename itself is durable; best effort. */
static void sync_parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = NULL;
    if (!slash)
        dir = strdup(".");
    else if (slash == path)
        dir = strdup("/");
    else
        dir = strndup(path, (size_t)(slash - path));
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

vf_result vf_png_write_ex(const char *path, const uint8_t *pixels, uint32_t w, uint32_t h,
                          uint32_t channels, vf_png_detail *detail)
{
    static const char *const fix_dir = "check that the folder exists and is writable";
    if (!path || !*path || !pixels || w == 0 || h == 0 || (channels != 3 && channels != 4)) {
        set_detail(detail, "this is a bug in the caller", "invalid arguments to the png writer");
        return VF_ERR_INVALID_ARG;
    }
    if (!size_ok(w, h)) {
        set_detail(detail, "write a smaller image", "image of %ux%u exceeds the png size limit (%u per side, %llu pixels)",
                   w, h, VF_PNG_MAX_SIDE, (unsigned long long)VF_PNG_MAX_PIXELS);
        return VF_ERR_TOO_LARGE;
    }

    /* Encode first, so that nothing touches the disk when encoding fails. The
     * settings are pinned so the bytes depend on the pixels only. */
    stbi_write_png_compression_level = 8;
    stbi_write_force_png_filter = -1;
    stbi_flip_vertically_on_write(0);
    png_buffer buf = {0};
    int ok = stbi_write_png_to_func(png_collect, &buf, (int)w, (int)h, (int)channels, pixels,
                                    (int)(w * channels));
    if (!ok || buf.failed || buf.len == 0) {
        free(buf.data);
        set_detail(detail, "free some memory or write a smaller image", "out of memory while encoding the png");
        return VF_ERR_NO_MEMORY;
    }

    size_t tmp_cap = strlen(path) + 32;
    char *tmp = malloc(tmp_cap);
    if (!tmp) {
        free(buf.data);
        set_detail(detail, "free some memory", "out of memory");
        return VF_ERR_NO_MEMORY;
    }
    snprintf(tmp, tmp_cap, "%s.tmp.%ld", path, (long)getpid());

    vf_result res = VF_OK;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) {
        set_errno_detail(detail, fix_dir, "cannot create the file", errno);
        res = VF_ERR_IO;
    } else {
        bool written = write_all(fd, buf.data, buf.len);
        int err = written ? 0 : errno;
        if (written && fsync(fd) != 0) {
            written = false;
            err = errno;
        }
        if (close(fd) != 0 && written) {
            written = false;
            err = errno;
        }
        if (!written) {
            set_errno_detail(detail, fix_dir, "cannot write the file", err);
            res = err == ENOSPC ? VF_ERR_NO_SPACE : VF_ERR_IO;
        } else if (rename(tmp, path) != 0) {
            set_errno_detail(detail, "give a file path whose folder exists and is writable", "cannot rename the temporary file into place", errno);
            res = VF_ERR_IO;
        }
        if (res != VF_OK)
            (void)unlink(tmp);
        else
            sync_parent_dir(path);
    }
    free(tmp);
    free(buf.data);
    return res;
}

vf_result vf_png_write(const char *path, const uint8_t *rgba8, uint32_t w, uint32_t h)
{
    return vf_png_write_ex(path, rgba8, w, h, 4, NULL);
}

/* ------------------------------------------------------------------ read */

/* A chunk type for a message: its four bytes, each non-printable one as
 * \xNN, so that bytes from the file never reach a terminal raw. */
static void chunk_type_text(const uint8_t *t, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < 4 && n + 5 < cap; i++) {
        if (t[i] >= 0x20 && t[i] < 0x7f && t[i] != '\'')
            buf[n++] = (char)t[i];
        else
            n += (size_t)snprintf(buf + n, cap - n, "\\x%02x", t[i]);
        buf[n] = 0;
    }
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walks the chunks after the signature: each one whole, IHDR first, an IDAT,
 * an IEND at the end. Fills detail with the reason and returns false on the
 * first problem. */
static bool chunks_ok(const uint8_t *data, size_t len, vf_png_detail *detail)
{
    size_t pos = sizeof png_signature;
    bool ihdr = false, idat = false;
    for (uint32_t index = 0;; index++) {
        if (pos == len) {
            set_detail(detail, "write the file again", "corrupt png (the file ends before its IEND chunk: it was cut short)");
            return false;
        }
        if (len - pos < 12) {
            set_detail(detail, "write the file again", "corrupt png (a chunk header at byte %zu is cut short)", pos);
            return false;
        }
        uint32_t n = be32(data + pos);
        const uint8_t *type = data + pos + 4;
        char tname[24];
        chunk_type_text(type, tname, sizeof tname);
        bool letters = true;
        for (int i = 0; i < 4; i++)
            letters = letters && ((type[i] >= 'A' && type[i] <= 'Z') || (type[i] >= 'a' && type[i] <= 'z'));
        if (!letters) {
            set_detail(detail, "write the file again", "corrupt png (chunk %u at byte %zu has the invalid type '%s')", index,
                       pos, tname);
            return false;
        }
        if (n > 0x7fffffffu || n > len - pos - 12) {
            set_detail(detail, "write the file again", "corrupt png (chunk '%s' at byte %zu claims %u bytes, past the end of the file)",
                       tname, pos, n);
            return false;
        }
        if (index == 0 && memcmp(type, "IHDR", 4) != 0) {
            set_detail(detail, "write the file again", "corrupt png (the first chunk is '%s', not IHDR)", tname);
            return false;
        }
        ihdr = ihdr || !memcmp(type, "IHDR", 4);
        idat = idat || !memcmp(type, "IDAT", 4);
        pos += 12 + (size_t)n;
        if (!memcmp(type, "IEND", 4)) {
            if (!idat) {
                set_detail(detail, "write the file again", "corrupt png (no IDAT chunk: the file holds no pixels)");
                return false;
            }
            return ihdr;
        }
    }
}

/* stb's reason for a message: printable (its unknown-chunk reason holds the
 * chunk's raw bytes), never empty. */
static void stb_reason(char *buf, size_t cap, const char *fallback)
{
    const char *why = stbi_failure_reason();
    if (!why || !*why)
        why = fallback;
    size_t n = 0;
    for (; why[n] && n + 1 < cap; n++)
        buf[n] = ((unsigned char)why[n] < 0x20 || (unsigned char)why[n] >= 0x7f) ? '?' : why[n];
    buf[n] = 0;
}

/* Reads a whole regular file; fills detail and returns a result on failure. */
static vf_result read_file(const char *path, uint8_t **data_out, size_t *len_out, vf_png_detail *detail)
{
    *data_out = NULL;
    *len_out = 0;
    /* O_NONBLOCK so that opening a FIFO does not hang; fstat rejects it next. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        int err = errno;
        if (err == ENOENT)
            set_detail(detail, "check the path", "no such file");
        else if (err == EACCES)
            set_detail(detail, "check the file permissions", "permission denied");
        else
            set_errno_detail(detail, "check the path", "cannot open", err);
        return VF_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        set_errno_detail(detail, "check the path", "cannot stat", errno);
        close(fd);
        return VF_ERR_IO;
    }
    if (S_ISDIR(st.st_mode)) {
        set_detail(detail, "give a png file", "is a directory");
        close(fd);
        return VF_ERR_IO;
    }
    if (!S_ISREG(st.st_mode)) {
        set_detail(detail, "give a png file", "not a regular file");
        close(fd);
        return VF_ERR_IO;
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > VF_PNG_MAX_FILE_BYTES) {
        set_detail(detail, "give a smaller png file", "file of %lld bytes is too large to read", (long long)st.st_size);
        close(fd);
        return VF_ERR_TOO_LARGE;
    }
    size_t cap = (size_t)st.st_size;
    uint8_t *data = malloc(cap ? cap : 1);
    if (!data) {
        set_detail(detail, "free some memory", "out of memory reading %zu bytes", cap);
        close(fd);
        return VF_ERR_NO_MEMORY;
    }
    size_t len = 0;
    while (len < cap) {
        ssize_t n = read(fd, data + len, cap - len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            set_errno_detail(detail, "check the file", "cannot read", errno);
            free(data);
            close(fd);
            return VF_ERR_IO;
        }
        if (n == 0)
            break; /* shrank while reading: parse what is there */
        len += (size_t)n;
    }
    close(fd);
    *data_out = data;
    *len_out = len;
    return VF_OK;
}

vf_result vf_png_read_header(const char *path, uint32_t *w, uint32_t *h, vf_png_detail *detail)
{
    *w = *h = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not hang the open */
    struct stat st;
    if (fd < 0) {
        set_errno_detail(detail, "check the path", "cannot open", errno);
        return VF_ERR_IO;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        set_detail(detail, "give a png file", S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
        close(fd);
        return VF_ERR_IO;
    }
    uint8_t head[24];
    size_t len = 0;
    while (len < sizeof head) {
        ssize_t n = read(fd, head + len, sizeof head - len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    if (len < sizeof png_signature || memcmp(head, png_signature, sizeof png_signature) != 0) {
        set_detail(detail, "give a png file", "not a png file (no png signature)");
        return VF_ERR_PARSE;
    }
    if (len < sizeof head || be32(head + 8) != 13 || memcmp(head + 12, "IHDR", 4) != 0) {
        set_detail(detail, "write the file again", "corrupt png (no IHDR chunk first)");
        return VF_ERR_PARSE;
    }
    *w = be32(head + 16);
    *h = be32(head + 20);
    if (*w == 0 || *h == 0) {
        set_detail(detail, "write the file again", "corrupt png (a size of %ux%u)", *w, *h);
        return VF_ERR_PARSE;
    }
    return VF_OK;
}


/* Decodes PNG bytes into RGBA8, or (gray16) one 16-bit grey channel per pixel. */
static vf_result decode(const uint8_t *data, size_t len, bool gray16, void **out, uint32_t *w, uint32_t *h,
                        vf_png_detail *detail)
{
    *out = NULL;
    if (len > VF_PNG_MAX_FILE_BYTES) {
        set_detail(detail, "give a smaller png file", "file of %zu bytes is too large to read", len);
        return VF_ERR_TOO_LARGE;
    }
    if (len < sizeof png_signature || memcmp(data, png_signature, sizeof png_signature) != 0) {
        set_detail(detail, "give a png file", "not a png file (no png signature)");
        return VF_ERR_PARSE;
    }
    if (!chunks_ok(data, len, detail)) {
        return VF_ERR_PARSE;
    }
    int iw = 0, ih = 0, comp = 0;
    char why[96];
    if (!stbi_info_from_memory(data, (int)len, &iw, &ih, &comp) || iw <= 0 || ih <= 0) {
        stb_reason(why, sizeof why, "unreadable header");
        set_detail(detail, "write the file again", "corrupt png (%s)", why);
        return VF_ERR_PARSE;
    }
    if (!size_ok((uint32_t)iw, (uint32_t)ih)) {
        set_detail(detail, "give a smaller png", "image of %dx%d exceeds the size limit (%u per side, %llu pixels)",
                   iw, ih, VF_PNG_MAX_SIDE, (unsigned long long)VF_PNG_MAX_PIXELS);
        return VF_ERR_TOO_LARGE;
    }
    int lw = 0, lh = 0;
    void *pixels = gray16 ? (void *)stbi_load_16_from_memory(data, (int)len, &lw, &lh, &comp, 1)
                          : (void *)stbi_load_from_memory(data, (int)len, &lw, &lh, &comp, 4);
    if (!pixels) {
        stb_reason(why, sizeof why, "cannot decode the pixels");
        if (!strcmp(why, "outofmem")) {
            set_detail(detail, "free some memory", "out of memory decoding a %dx%d png", iw, ih);
            return VF_ERR_NO_MEMORY;
        }
        set_detail(detail, "write the file again", "corrupt png (%s)", why);
        return VF_ERR_PARSE;
    }
    if (lw != iw || lh != ih) { /* cannot happen with stb; be strict anyway */
        stbi_image_free(pixels);
        set_detail(detail, "write the file again", "corrupt png (inconsistent size)");
        return VF_ERR_PARSE;
    }
    /* stb allocates with malloc (STBI_MALLOC default), so free() releases it. */
    *out = pixels;
    *w = (uint32_t)iw;
    *h = (uint32_t)ih;
    return VF_OK;
}

vf_result vf_png_decode(const uint8_t *data, size_t len, uint8_t **rgba8_out, uint32_t *w, uint32_t *h,
                        vf_png_detail *detail)
{
    void *px = NULL;
    vf_result res = decode(data, len, false, &px, w, h, detail);
    *rgba8_out = px;
    return res;
}

/* Reads the png file at path and decodes it as decode does into *out_ptr
 * (a uint8_t ** or uint16_t **, set to NULL unless it returns VF_OK). */
static vf_result read_decode(const char *path, bool gray16, void *out_ptr, uint32_t *w, uint32_t *h,
                             vf_png_detail *detail)
{
    void *px = NULL;
    vf_result res = VF_ERR_INVALID_ARG;
    if (!path || !*path || !out_ptr || !w || !h) {
        set_detail(detail, "this is a bug in the caller", "invalid arguments to the png reader");
    } else {
        uint8_t *data = NULL;
        size_t len = 0;
        if ((res = read_file(path, &data, &len, detail)) == VF_OK)
            res = decode(data, len, gray16, &px, w, h, detail);
        free(data);
    }
    if (out_ptr)
        memcpy(out_ptr, &px, sizeof px);
    return res;
}

vf_result vf_png_read_ex(const char *path, uint8_t **rgba8_out, uint32_t *w, uint32_t *h, vf_png_detail *detail)
{
    return read_decode(path, false, rgba8_out, w, h, detail);
}

vf_result vf_png_read_gray16(const char *path, uint16_t **out, uint32_t *w, uint32_t *h, vf_png_detail *detail)
{
    return read_decode(path, true, out, w, h, detail);
}

vf_result vf_png_read(const char *path, uint8_t **rgba8_out, uint32_t *w, uint32_t *h)
{
    return vf_png_read_ex(path, rgba8_out, w, h, NULL);
}
