/* app: the command-line layer. Only code under this header prints to the user
 * or decides exit codes; everything below returns vf_result.
 *
 * Exit codes: 0 success, 1 a check failed (compare thresholds, soak guard),
 * 2 bad input (usage, files, values), 3 a GPU or runtime failure (writing an
 * output file included: a full disk, in every command), 130 interrupted
 * (SIGINT or SIGTERM; run and capture end their frame and write their report
 * first). */
#ifndef VF_APP_H
#define VF_APP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vf_error.h"

enum { VF_EXIT_OK = 0, VF_EXIT_FAIL = 1, VF_EXIT_USAGE = 2, VF_EXIT_RUNTIME = 3, VF_EXIT_INTERRUPTED = 130 };

/** One sub-command: `vkfluid NAME ...`. argv[0] is the command name. */
typedef struct vf_command {
    const char *name;
    const char *summary; /* one line for `vkfluid --help` */
    int (*run)(int argc, char **argv);
} vf_command;

/** Prints "error: <formatted>" as one line to stderr (lowercase, no full stop). */
void vf_app_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** s escaped for a terminal (vf_text_escape, quotes kept) into buf; returns
 * buf. For user text (file names, arguments) in lines printed to stdout. */
const char *vf_app_shown(const char *s, char *buf, size_t cap);

/** Prints the formatted text as one line to stderr, escaped as errors are
 * (a progress or status line that echoes names or arguments). */
void vf_app_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Prints "warning: <formatted>" as one line to stderr. */
void vf_app_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** Maps a library result to an exit code (bad input 2, everything else 3). */
int vf_app_exit_code(vf_result r);

/** True when argv[i] is -h or --help. */
bool vf_app_is_help(const char *arg);

/** Parses a base-10 integer in [min, max] from s; false on any junk. */
bool vf_app_parse_int(const char *s, long long min, long long max, long long *out);

/** Parses a finite double from s; false on junk, NaN or infinity. */
bool vf_app_parse_double(const char *s, double *out);

/** Parses "WxH" with both in [1, max]; false otherwise. */
bool vf_app_parse_size(const char *s, unsigned max, unsigned *w, unsigned *h);

/** Takes the value of an option that needs one: returns argv[*i + 1] and
 * advances *i, or prints "error: OPTION needs a value" and returns NULL. */
const char *vf_app_option_value(int argc, char **argv, int *i);

/** Prints "error: unknown option 'X' for 'vkfluid CMD': see vkfluid CMD --help". */
int vf_app_unknown_option(const char *cmd, const char *opt);

/** Installs the SIGINT and SIGTERM handler first thing (main): until a
 * command calls vf_app_catch_interrupts, a signal ends the program at once
 * with one line and exit 130. */
void vf_app_install_interrupts(void);

/** From now on the handler only records the signal (read it with
 * vf_app_interrupted: the command ends its frame or wait and writes its
 * report); a second signal ends the program at once. */
void vf_app_catch_interrupts(void);

/** The signal caught since vf_app_catch_interrupts (SIGINT, SIGTERM), or 0. */
int vf_app_interrupted(void);

/** "SIGTERM" for SIGTERM, else "SIGINT". */
const char *vf_app_signal_name(int sig);

/** Monotonic wall-clock seconds. */
double vf_app_now(void);

/** A progress bar on stderr: redrawn in place on a terminal (at most 4 times
 * a second), one line every 5 seconds otherwise; silent for work that ends
 * within a second or when quiet. */
typedef struct vf_progress {
    const char *label;
    uint64_t total;
    double t0, last;
    double unit_s; /* estimated seconds per unit, for the time left before the first unit is done; 0: none */
    bool tty, quiet, drawn;
} vf_progress;

/** Starts a progress bar for total units of work. */
void vf_progress_begin(vf_progress *p, const char *label, uint64_t total, bool quiet);
/** Reports done units (and an optional short extra text, may be NULL). */
void vf_progress_update(vf_progress *p, uint64_t done, const char *extra);
/** Ends the bar (a final newline on a terminal). */
void vf_progress_end(vf_progress *p);

/* The commands (one cmd_*.c each). */
int vf_cmd_devices(int argc, char **argv);
int vf_cmd_selftest(int argc, char **argv);
int vf_cmd_run(int argc, char **argv);
int vf_cmd_capture(int argc, char **argv);
int vf_cmd_view(int argc, char **argv);
int vf_cmd_bench(int argc, char **argv);
int vf_cmd_compare(int argc, char **argv);
int vf_cmd_scenes(int argc, char **argv);

#endif
