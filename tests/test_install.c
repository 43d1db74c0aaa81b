/* Installing: `cmake --install BUILD --prefix P` into a temporary prefix puts
 * the programs, every scene file, every device file of the model, the man
 * page and the bash completion under P; P/bin/vkfluid run from another
 * folder lists the scenes and finds the installed device files (bench
 * --model), the build tree's vkfluid finds the source tree's from another
 * folder too; the completion completes commands, options and scene names;
 * `cpack -G DEB` makes a package whose dependencies are runtime packages
 * (no -dev package), when dpkg-deb is there. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenes.h"
#include "testlib.h"

#ifndef VF_CMAKE_COMMAND
#define VF_CMAKE_COMMAND "cmake"
#endif
#ifndef VF_CPACK_COMMAND
#define VF_CPACK_COMMAND "cpack"
#endif

static char out[1 << 16];

/* Files in dir whose names end with suffix. */
static int count_files(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    size_t sl = strlen(suffix);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t l = strlen(e->d_name);
        n += l > sl && !strcmp(e->d_name + l - sl, suffix);
    }
    closedir(d);
    return n;
}

static bool exists(const char *path)
{
    return access(path, F_OK) == 0;
}

/* Completes the words of line (the last one, possibly empty) with the
 * installed completion; the candidates, space-separated, in out. */
static int complete(const char *prefix, const char *line)
{
    return vf_test_run_capture(out, sizeof out,
                               "bash -c 'source \"%s/share/bash-completion/completions/vkfluid\"; "
                               "COMP_WORDS=(\"%s/bin/vkfluid\" %s); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "
                               "_vkfluid; echo \"${COMPREPLY[*]}\"'",
                               prefix, prefix, line);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    char build[PATH_MAX], vkfluid[PATH_MAX], prefix[4200], path[4400], elsewhere[4200];
    if (!CHECK_MSG(realpath(vf_t.vkfluid, vkfluid) != NULL, "the vkfluid binary %s", vf_t.vkfluid))
        return vf_test_finish();
    snprintf(build, sizeof build, "%s", vkfluid);
    char *slash = strrchr(build, '/');
    if (slash)
        *slash = 0;
    snprintf(prefix, sizeof prefix, "%s", vf_test_path("prefix"));
    snprintf(elsewhere, sizeof elsewhere, "%s", vf_test_path("elsewhere"));
    vf_test_run("rm -rf '%s' && mkdir -p '%s'", prefix, elsewhere);

    vf_test_section("cmake --install into a temporary prefix");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' --install '%s' --prefix '%s' 2>&1", VF_CMAKE_COMMAND, build, prefix);
    if (!CHECK_MSG(rc == 0, "cmake --install: exit %d: %s", rc, out))
        return vf_test_finish();
    snprintf(path, sizeof path, "%s/bin/vkfluid", prefix);
    CHECK_MSG(access(path, X_OK) == 0, "%s is installed", path);
    char viewer[4200];
    snprintf(viewer, sizeof viewer, "%s/vkfluid-view", build);
    snprintf(path, sizeof path, "%s/bin/vkfluid-view", prefix);
    CHECK_MSG(!exists(viewer) || access(path, X_OK) == 0, "%s is installed (the viewer is built)", path);
    size_t scenes = 0;
    for (; vf_scenes[scenes]; scenes++) {
        snprintf(path, sizeof path, "%s/share/vkfluid/scenes/%s.json", prefix, vf_scenes[scenes]->name);
        CHECK_MSG(exists(path), "%s is installed", path);
    }
    char src_models[4200];
    snprintf(src_models, sizeof src_models, "%s/bench/models", vf_t.source);
    snprintf(path, sizeof path, "%s/share/vkfluid/models", prefix);
    int models = count_files(src_models, ".json"), installed = count_files(path, ".json");
    printf("  %zu scene files, %d of %d device files installed\n", scenes, installed, models);
    CHECK(models > 0 && installed == models);
    snprintf(path, sizeof path, "%s/share/man/man1/vkfluid.1", prefix);
    char *man = vf_test_read_file(path, NULL);
    CHECK_MSG(man && strstr(man, ".TH VKFLUID 1") && strstr(man, ".SS vkfluid capture") && strstr(man, "\\-\\-frames N"),
              "%s is the help rendered as a man page", path);
    free(man);
    snprintf(path, sizeof path, "%s/share/bash-completion/completions/vkfluid", prefix);
    CHECK_MSG(exists(path), "%s is installed", path);

    vf_test_section("the installed vkfluid from another folder: scenes, and bench --model finds the installed files");
    rc = vf_test_run_capture(out, sizeof out, "cd '%s' && '%s/bin/vkfluid' scenes", elsewhere, prefix);
    CHECK_MSG(rc == 0, "P/bin/vkfluid scenes: exit %d: %s", rc, out);
    for (size_t i = 0; vf_scenes[i]; i++)
        CHECK_STR_CONTAINS(out, vf_scenes[i]->name);
    const char *bench = "bench --model --solver height --sizes 32 --render none --frames 1 --warmup 0 --repeat 1 --quiet "
                        "--out bench-out --force";
    rc = vf_test_run_capture(out, sizeof out, "cd '%s' && '%s/bin/vkfluid' %s 2>&1", elsewhere, prefix, bench);
    snprintf(path, sizeof path, "device files of the model: %s/share/vkfluid/models", prefix);
    CHECK_MSG(rc == 0 && strstr(out, path) && strstr(out, "PREDICTIONS"), "installed bench --model: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "cd '%s' && '%s' %s 2>&1", elsewhere, vkfluid, bench);
    CHECK_MSG(rc == 0 && strstr(out, "device files of the model: ") && strstr(out, "/bench/models\n"),
              "the build tree's bench --model from another folder: exit %d: %s", rc, out);

    vf_test_section("bash completion: commands, options, scene names");
    rc = complete(prefix, "cap");
    CHECK_MSG(rc == 0 && !strcmp(out, "capture\n"), "'vkfluid cap' completes to capture: %s", out);
    rc = complete(prefix, "capture --fr");
    CHECK_MSG(rc == 0 && !strcmp(out, "--frames\n"), "'vkfluid capture --fr' completes to --frames: %s", out);
    rc = complete(prefix, "run dam");
    CHECK_MSG(rc == 0 && !strcmp(out, "dam-break\n"), "'vkfluid run dam' completes to dam-break: %s", out);
    rc = complete(prefix, "capture --scene fi");
    CHECK_MSG(rc == 0 && strstr(out, "fire3d"), "'vkfluid capture --scene fi' offers fire3d: %s", out);

    vf_test_section("cpack -G DEB: a package whose dependencies are runtime packages");
    if (vf_test_run("command -v dpkg-deb >/dev/null") != 0) {
        printf("  dpkg-deb is not installed: not checked\n");
        return vf_test_finish();
    }
    char pkg[4200];
    snprintf(pkg, sizeof pkg, "%s", vf_test_path("package"));
    vf_test_run("rm -rf '%s'", pkg);
    rc = vf_test_run_capture(out, sizeof out, "cd '%s' && '%s' -G DEB -B '%s' 2>&1", build, VF_CPACK_COMMAND, pkg);
    CHECK_MSG(rc == 0, "cpack -G DEB: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "dpkg-deb -f '%s'/vkfluid_*.deb Depends", pkg);
    printf("  Depends: %s", out);
    CHECK_MSG(rc == 0 && strstr(out, "libvulkan1") && strstr(out, "libcjson1") && strstr(out, "zlib1g") &&
                  !strstr(out, "-dev"),
              "the package depends on the runtime libraries, no -dev package: %s", out);
    rc = vf_test_run_capture(out, sizeof out, "dpkg-deb -c '%s'/vkfluid_*.deb", pkg);
    CHECK_MSG(rc == 0 && strstr(out, "./usr/bin/vkfluid\n") && strstr(out, "./usr/share/vkfluid/models/") &&
                  strstr(out, "./usr/share/man/man1/vkfluid.1"),
              "the package holds the install");
    return vf_test_finish();
}
