/* vkfluid: command-line entry point. Dispatches `vkfluid <command> [options]`. */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "app_gpu.h"
#include "cmd_common.h"
#include "options.h"
#include "text.h"

static const vf_command commands[] = {
    {"devices", "list the Vulkan devices with type, driver, version, memory and subgroup size", vf_cmd_devices},
    {"scenes", "list the built-in scenes (scenes/*.json) and their keys (--json, --markdown)", vf_cmd_scenes},
    {"run", "simulate a scene headless, export fields (CSV, VTK) and a summary", vf_cmd_run},
    {"capture", "simulate headless and render frames offscreen to PNG (and MP4 with ffmpeg)", vf_cmd_capture},
    {"view", "open the realtime viewer (needs a display; see capture otherwise)", vf_cmd_view},
    {"selftest", "run the GPU self-test (prefix sum, compute and graphics pipelines, timestamps)", vf_cmd_selftest},
    {"bench", "benchmark sizes against frames per second, per pass, with plots (CSV, JSON, SVG)", vf_cmd_bench},
    {"compare", "compare two PNG images or capture folders (PSNR, SSIM, differences, heat map)", vf_cmd_compare},
};

static void print_usage(FILE *f)
{
    fprintf(f,
            "vkfluid %s: real-time GPU fluid simulation on Vulkan compute\n"
            "\n"
            "usage: vkfluid <command> [options]\n"
            "       vkfluid <command> --help\n"
            "       vkfluid <command> --list-options   (its options, one a line)\n"
            "       vkfluid --version\n"
            "\n"
            "commands:\n",
            VKFLUID_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f,
            "\n"
            "common options:\n"
            "  --device INDEX|NAME  use this device (see vkfluid devices); default: discrete,\n"
            "                       then integrated, then CPU (lavapipe)\n"
            "\n"
            "environment:\n"
            "  VKFLUID_VALIDATION=1 enable the Khronos validation layer with synchronization\n"
            "                       validation (any message is reported on stderr)\n"
            "  VKFLUID_SLOW_FRAME_S=S  warn before the first frame when a frame is estimated\n"
            "                       above S seconds (default 2; run, capture, bench, view)\n"
            "  (an invalid value gets a warning naming what the variable takes, and is ignored)\n");
}

int main(int argc, char **argv)
{
    vf_app_install_interrupts(); /* before anything that can block */
    if (argc < 2) {
        /* as git does: the usage on stdout (it was asked for, in a way), exit 1 */
        print_usage(stdout);
        return VF_EXIT_FAIL;
    }
    /* A global --device before the command is passed on to the command. */
    static char *args[512];
    if (!strcmp(argv[1], "--device")) {
        if (argc < 3) {
            vf_app_error("--device needs a value: an index or a name substring (see vkfluid devices)");
            return VF_EXIT_USAGE;
        }
        if (argc < 4) {
            vf_gpu *gpu = NULL;
            int rc = vf_app_gpu_open(argv[2], false, NULL, 0, &gpu);
            if (rc)
                return rc;
            vf_gpu_destroy(&gpu);
            vf_app_error("--device %s: no command given: see vkfluid --help", argv[2]);
            return VF_EXIT_USAGE;
        }
        if (argc > 500) {
            vf_app_error("too many arguments");
            return VF_EXIT_USAGE;
        }
        args[0] = argv[0];
        int n = 1;
        for (int i = 3; i < argc; i++)
            args[n++] = argv[i];
        args[n++] = argv[1];
        args[n++] = argv[2];
        args[n] = NULL;
        argc = n;
        argv = args;
    }
    const char *cmd = argv[1];
    if (vf_app_is_help(cmd) || !strcmp(cmd, "help")) {
        print_usage(stdout);
        return VF_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("vkfluid %s\n", VKFLUID_VERSION);
        return VF_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(cmd, commands[i].name)) {
            if (strcmp(cmd, "view")) /* the viewer checks them itself */
                vf_cmd_check_env();
            int rc = commands[i].run(argc - 1, argv + 1);
            return rc == VF_OPT_LISTED ? VF_EXIT_OK : rc;
        }
    const char *names[sizeof commands / sizeof commands[0]];
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        names[i] = commands[i].name;
    const char *near = vf_suggest(cmd, names, sizeof names / sizeof names[0]);
    if (cmd[0] == '-')
        vf_app_error("unknown option '%s': see vkfluid --help", cmd);
    else if (near)
        vf_app_error("unknown command '%s': did you mean 'vkfluid %s'? see vkfluid --help for the commands", cmd, near);
    else
        vf_app_error("unknown command '%s': see vkfluid --help for the commands", cmd);
    return VF_EXIT_USAGE;
}
