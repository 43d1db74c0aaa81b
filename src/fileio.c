#include "fileio.h"

#include <dirent.h>
#include <errno.h>
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
    return file->f ? VF_OK : VF_ERR_IO;
}

vf_result vf_file_commit(vf_file *file)
{
    if (!file->f)
        return VF_ERR_IO;
    bool ok = fflush(file->f) == 0 && !ferror(file->f);
    ok = ok && fsync(fileno(file->f)) == 0;
    ok = fclose(file->f) == 0 && ok;
    file->f = NULL;
    ok = ok && rename(file->tmp, file->path) == 0;
    if (!ok) {
        remove(file->tmp);
        return VF_ERR_IO;
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

vf_result vf_output_dir_prepare(const char *dir, bool force, char *err, size_t cap)
{
    struct stat st;
    if (!dir || !*dir) {
        snprintf(err, cap, "empty output folder name");
        return VF_ERR_IO;
    }
    if (stat(dir, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(err, cap, "%s: exists and is not a folder: choose another --out/--export path", dir);
            return VF_ERR_IO;
        }
        DIR *d = opendir(dir);
        if (!d) {
            snprintf(err, cap, "%s: cannot open the folder: %s", dir, strerror(errno));
            return VF_ERR_IO;
        }
        bool empty = true;
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                empty = false;
        closedir(d);
        if (!empty && !force) {
            snprintf(err, cap, "%s: the folder is not empty: choose a new folder or add --force to write into it", dir);
            return VF_ERR_IO;
        }
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
