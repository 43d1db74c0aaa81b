#include "fileio.h"
#include "text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

vf_result vf_file_begin(vf_file *file, const char *path)
{
    memset(file, 0, sizeof *file);
    if (!path || !*path || strlen(path) >= sizeof file->path)
        return VF_ERR_IO;
    snprintf(file->path, sizeof file->path, "%s", path);
    snprintf(file->tmp, sizeof file->tmp, "%s.tmp.%ld", path, (long)getpid());
    file->f = fopen(file->tmp, "wb");
    if (!file->f) {
        file->error = errno;
        return vf_io_result(file->error);
    }
    return VF_OK;
}

vf_result vf_io_result(int err)
{
#ifdef EDQUOT
    if (err == EDQUOT)
        return VF_ERR_NO_SPACE;
#endif
    return err == ENOSPC ? VF_ERR_NO_SPACE : VF_ERR_IO;
}

vf_result vf_file_commit(vf_file *file)
{
    if (!file->f)
        return VF_ERR_IO;
    /* errno of the first failure: a write error sticks in ferror, and the
     * flush, fsync or close that follows reports it again (ENOSPC) */
    int err = 0, prior = errno;
    bool had_error = ferror(file->f) != 0;
    bool ok = fflush(file->f) == 0;
    if (!ok)
        err = errno;
    else if (had_error || ferror(file->f)) {
        ok = false;
        err = prior;
    }
    if (ok && fsync(fileno(file->f)) != 0) {
        ok = false;
        err = errno;
    }
    if (fclose(file->f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    file->f = NULL;
    if (ok && rename(file->tmp, file->path) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        remove(file->tmp);
        file->error = err ? err : EIO;
        return vf_io_result(file->error);
    }
    return VF_OK;
}

void vf_file_abort(vf_file *file)
{
    if (file->f) {
        fclose(file->f);
        file->f = NULL;
        remove(file->tmp);
    }
}

static int mkdir_p(const char *dir)
{
    char buf[4096];
    if (strlen(dir) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", dir);
    for (char *p = buf + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = '/';
        }
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* True when s[0..n) is one of the words in list (NULL-terminated). */
static bool word_in(const char *s, size_t n, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !strncmp(s, list[i], n))
            return true;
    return false;
}

bool vf_output_is_own_file(const char *name)
{
    static const char *const whole[] = {"summary.json", "capture.json", "bench.csv", "bench.json", "bench.svg", "work.csv", "lockstep.txt", NULL};
    static const char *const prefix[] = {"frame", "grid", "height", "particles", "shot", "mesh", "foam", "surface", "grid3d", "terrain", NULL};
    static const char *const ext[] = {"png", "csv", "vti", "vtp", "vtk", "json", "obj", "ply", NULL};
    if (!name || !*name)
        return false;
    size_t len = strlen(name);
    /* NAME.tmp.PID: the temporary of one of our files */
    const char *tmp = strstr(name, ".tmp.");
    if (tmp && tmp > name) {
        const char *d = tmp + 5;
        bool digits = *d != 0;
        for (; *d; d++)
            digits = digits && *d >= '0' && *d <= '9';
        if (digits) {
            char base[256];
            return vf_text_prefix(name, (size_t)(tmp - name), base, sizeof base) && vf_output_is_own_file(base);
        }
    }
    if (word_in(name, len, whole))
        return true;
    /* PREFIX_DIGITS[_WORD].EXT */
    const char *us = strchr(name, '_'), *dot = strrchr(name, '.');
    if (!us || !dot || dot < us || !word_in(name, (size_t)(us - name), prefix) || !word_in(dot + 1, strlen(dot + 1), ext))
        return false;
    const char *p = us + 1;
    if (!(*p >= '0' && *p <= '9'))
        return false;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == '_') {
        p++;
        if (p == dot)
            return false;
        for (; p < dot; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
                return false;
    }
    return p == dot;
}

/* Removes the files vkfluid wrote into dir (vf_output_is_own_file), nothing
 * else; false with err set when one cannot be removed. */
static bool remove_own_files(const char *dir, char *err, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, cap, "%s: cannot open the folder: %s", dir, strerror(errno));
        return false;
    }
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!vf_output_is_own_file(e->d_name))
            continue;
        char path[4600];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
            continue; /* only regular files: never a folder or what a link points to */
        if (unlink(path) != 0 && errno != ENOENT) {
            snprintf(err, cap, "%s: cannot remove the earlier run's %s: %s", dir, e->d_name, strerror(errno));
            ok = false;
            break;
        }
    }
    closedir(d);
    return ok;
}

/* The checks of an existing output folder: a folder, readable, empty
 * unless force. *empty says whether it is. */
static vf_result existing_dir(const char *dir, bool force, bool *empty, char *err, size_t cap)
{
    struct stat st;
    *empty = true;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, cap, "%s: exists and is not a folder: choose another --out/--export path", dir);
        return VF_ERR_INVALID_ARG;
    }
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, cap, "%s: cannot open the folder: %s", dir, strerror(errno));
        return VF_ERR_IO;
    }
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            *empty = false;
    closedir(d);
    if (!*empty && !force) {
        snprintf(err, cap, "%s: the folder is not empty: choose a new folder or add --force to write into it", dir);
        return VF_ERR_INVALID_ARG;
    }
    if (access(dir, W_OK) != 0) {
        snprintf(err, cap, "%s: the folder is not writable: choose another folder", dir);
        return VF_ERR_IO;
    }
    return VF_OK;
}

vf_result vf_output_dir_check(const char *dir, bool force, char *err, size_t cap)
{
    struct stat st;
    bool empty;
    if (!dir || !*dir) {
        snprintf(err, cap, "empty output folder name");
        return VF_ERR_INVALID_ARG;
    }
    if (strlen(dir) >= 4000) {
        snprintf(err, cap, "%.60s...: the path is too long", dir);
        return VF_ERR_INVALID_ARG;
    }
    if (stat(dir, &st) == 0)
        return existing_dir(dir, force, &empty, err, cap);
    /* a new folder: its nearest existing ancestor must be a writable folder */
    char up[4096];
    snprintf(up, sizeof up, "%s", dir);
    for (;;) {
        char *slash = strrchr(up, '/');
        while (slash && slash > up && slash[1] == 0) { /* trailing slashes */
            *slash = 0;
            slash = strrchr(up, '/');
        }
        if (!slash)
            snprintf(up, sizeof up, ".");
        else if (slash == up)
            up[1] = 0;
        else
            *slash = 0;
        if (stat(up, &st) == 0)
            break;
        if (!slash || slash == up)
            break;
    }
    if (stat(up, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, cap, "%s: cannot create the folder: %s is not a folder", dir, up);
        return VF_ERR_IO;
    }
    if (access(up, W_OK) != 0) {
        snprintf(err, cap, "%s: cannot create the folder: %s is not writable", dir, up);
        return VF_ERR_IO;
    }
    return VF_OK;
}

vf_result vf_output_dir_prepare(const char *dir, bool force, char *err, size_t cap)
{
    struct stat st;
    bool empty = true;
    if (!dir || !*dir) {
        snprintf(err, cap, "empty output folder name");
        return VF_ERR_INVALID_ARG;
    }
    if (stat(dir, &st) == 0) {
        vf_result r = existing_dir(dir, force, &empty, err, cap);
        if (r != VF_OK)
            return r;
        /* --force: what an earlier run wrote goes (a stale capture.json or
         * frames never mix with this run's); other files stay */
        if (!empty && !remove_own_files(dir, err, cap))
            return VF_ERR_IO;
    } else if (mkdir_p(dir) != 0) {
        snprintf(err, cap, "%s: cannot create the folder: %s", dir, strerror(errno));
        return VF_ERR_IO;
    }
    if (access(dir, W_OK) != 0) {
        snprintf(err, cap, "%s: the folder is not writable: choose another folder", dir);
        return VF_ERR_IO;
    }
    return VF_OK;
}

FILE *vf_open_regular(const char *path, int *why)
{
    *why = 0;
    /* O_NONBLOCK: opening a FIFO or a device must not wait for a writer */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st = {0};
    if (fd < 0) {
        *why = errno;
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        *why = errno;
        close(fd);
    }
    return f;
}

void vf_json_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void vf_json_number(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputs("null", f);
}
