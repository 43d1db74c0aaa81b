/* vkfluid view: starts the viewer executable (vkfluid-view, beside this one)
 * so that the headless commands never load GLFW. Checks the scene (name or
 * file, --set) and then for a display first. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "cmd_common.h"

int vf_cmd_view(int argc, char **argv)
{
    bool help = false; /* and --list-options: the viewer answers both, with or without a display */
    for (int i = 1; i < argc; i++)
        help = help || vf_app_is_help(argv[i]) || !strcmp(argv[i], "--list-options");
    if (!help) {
        /* Bad scenes and scene files are reported before the display check
         * (the viewer parses them again). */
        vf_cmd_scene sc;
        int rc = vf_cmd_scene_begin(&sc, argc, argv, "view");
        if (rc >= 0)
            return rc;
        rc = vf_cmd_scene_validate(&sc);
        vf_cmd_scene_end(&sc);
        if (rc)
            return rc;
    }
    const char *display = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    if (!help && !(display && *display) && !(wayland && *wayland)) {
        vf_app_error("no display found (DISPLAY and WAYLAND_DISPLAY are unset): use vkfluid capture SCENE --frames N "
                     "to render frames headless");
        return VF_EXIT_USAGE;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 32);
    if (n <= 0) {
        vf_app_error("cannot find the vkfluid executable's folder: run vkfluid-view directly");
        return VF_EXIT_RUNTIME;
    }
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        slash[1] = 0;
    strcat(self, "vkfluid-view");
    if (access(self, X_OK) != 0) {
        vf_app_error("the viewer is not built (%s is missing): install libglfw3-dev and rebuild", self);
        return VF_EXIT_USAGE;
    }
    char **args = calloc((size_t)argc + 1, sizeof *args);
    if (!args)
        return VF_EXIT_RUNTIME;
    args[0] = self;
    for (int i = 1; i < argc; i++)
        args[i] = argv[i];
    execv(self, args);
    vf_app_error("cannot start %s: %s", self, strerror(errno));
    free(args);
    return VF_EXIT_RUNTIME;
}
