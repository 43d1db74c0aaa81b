#define _XOPEN_SOURCE 700 /* realpath */
#include "app_paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef VKFLUID_DATA_SUBDIR
#define VKFLUID_DATA_SUBDIR "share/vkfluid"
#endif
#ifndef VKFLUID_SOURCE_DIR
#define VKFLUID_SOURCE_DIR "."
#endif

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The running executable's folder (no trailing slash); false when unknown. */
static bool exe_dir(char *out, size_t cap)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return false;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return false;
    *slash = 0;
    return (size_t)snprintf(out, cap, "%s", self) < cap;
}

/* out, made canonical when it is a folder; false otherwise. */
static bool found(char *out, size_t cap)
{
    char real[PATH_MAX];
    if (!is_dir(out))
        return false;
    if (realpath(out, real) && strlen(real) < cap)
        memcpy(out, real, strlen(real) + 1);
    return true;
}

bool vf_app_data_dir(const char *installed, const char *source, char *out, size_t cap)
{
    char exe[PATH_MAX];
    if (exe_dir(exe, sizeof exe)) {
        const char *data = VKFLUID_DATA_SUBDIR;
        int w = data[0] == '/' ? snprintf(out, cap, "%s/%s", data, installed)
                               : snprintf(out, cap, "%s/../%s/%s", exe, data, installed);
        if (w > 0 && (size_t)w < cap && found(out, cap))
            return true;
        w = snprintf(out, cap, "%s/../%s", exe, source);
        if (w > 0 && (size_t)w < cap && found(out, cap))
            return true;
    }
    int w = snprintf(out, cap, "%s/%s", VKFLUID_SOURCE_DIR, source);
    return w > 0 && (size_t)w < cap && found(out, cap);
}
