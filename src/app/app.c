#include "app.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One line on stderr: prefix, the formatted message, newline; whatever the
 * message echoes (arguments, file names, keys, values) is escaped
 * (vf_text_escape), so no byte of input reaches the terminal raw. */
static void message(const char *prefix, const char *fmt, va_list ap)
{
    char raw[8192], shown[16384];
    vsnprintf(raw, sizeof raw, fmt, ap);
    vf_text_escape(raw, shown, sizeof shown, sizeof raw, false);
    fputs(prefix, stderr);
    fputs(shown, stderr);
    fputc('\n', stderr);
}

void vf_app_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("error: ", fmt, ap);
    va_end(ap);
}

const char *vf_app_shown(const char *s, char *buf, size_t cap)
{
    vf_text_escape(s, buf, cap, cap, false);
    return buf;
}

void vf_app_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("", fmt, ap);
    va_end(ap);
}

void vf_app_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("warning: ", fmt, ap);
    va_end(ap);
}

int vf_app_exit_code(vf_result r)
{
    switch (r) {
    case VF_OK: return VF_EXIT_OK;
    case VF_ERR_INVALID_ARG:
    case VF_ERR_DEVICE_NOT_FOUND:
    case VF_ERR_TOO_LARGE:
    case VF_ERR_PARSE:
    case VF_ERR_IO:
    case VF_ERR_NO_LOADER:
    case VF_ERR_NO_DEVICE:
    case VF_ERR_NO_VALIDATION:
    case VF_ERR_NO_DISPLAY: return VF_EXIT_USAGE;
    case VF_ERR_INTERRUPTED: return VF_EXIT_INTERRUPTED;
    default: return VF_EXIT_RUNTIME;
    }
}

bool vf_app_is_help(const char *arg)
{
    return arg && (!strcmp(arg, "-h") || !strcmp(arg, "--help"));
}

bool vf_app_parse_int(const char *s, long long min, long long max, long long *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || !end || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool vf_app_parse_double(const char *s, double *out)
{
    if (!s || !*s)
        return false;
    char *end = NULL;
    errno = 0;
    double v = strtod(s, &end);
    if (errno == ERANGE || !end || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool vf_app_parse_size(const char *s, unsigned max, unsigned *w, unsigned *h)
{
    if (!s)
        return false;
    const char *x = strchr(s, 'x');
    if (!x || x == s)
        return false;
    char buf[32];
    if (!vf_text_prefix(s, (size_t)(x - s), buf, sizeof buf))
        return false;
    long long a, b;
    if (!vf_app_parse_int(buf, 1, max, &a) || !vf_app_parse_int(x + 1, 1, max, &b))
        return false;
    *w = (unsigned)a;
    *h = (unsigned)b;
    return true;
}

const char *vf_app_option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        vf_app_error("%s needs a value", argv[*i]);
        return NULL;
    }
    /* an option's value never looks like another option (negative numbers do
     * not start with two dashes): "--render --size 64x64" is a missing value */
    if (!strncmp(argv[*i + 1], "--", 2)) {
        vf_app_error("%s needs a value: got the option %s instead", argv[*i], argv[*i + 1]);
        return NULL;
    }
    *i += 1;
    return argv[*i];
}

int vf_app_unknown_option(const char *cmd, const char *opt)
{
    /* every option of every command: a near one is a likely typo */
    static const char *const options[] = {
        "--check-every", "--count",  "--device", "--every",   "--export", "--export-every", "--export-compress", "--force",
        "--frames",      "--json",   "--out",    "--quiet",   "--render", "--render-path", "--repeat", "--results",
        "--scene",       "--screenshot", "--screenshot-dir", "--set", "--size", "--sizes",  "--solver",
        "--steps",       "--substeps-per-submit", "--time", "--video", "--vsync", "--wall",  "--warmup",
        "--help",        "--markdown", "--threshold", "--diff", "--tolerance", "--replay", "--serve", "--join",
        "--token",       "--record",
    };
    const char *near = vf_suggest(opt, options, sizeof options / sizeof options[0]);
    if (near && !strcmp(near, opt)) /* another command's option: suggesting it back would not help */
        vf_app_error("'vkfluid %s' has no option %s (other commands do): see vkfluid %s --help", cmd, opt, cmd);
    else if (near)
        vf_app_error("unknown option '%s' for 'vkfluid %s': did you mean %s? see vkfluid %s --help", opt, cmd, near, cmd);
    else
        vf_app_error("unknown option '%s' for 'vkfluid %s': see vkfluid %s --help", opt, cmd, cmd);
    return VF_EXIT_USAGE;
}

double vf_app_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void vf_progress_begin(vf_progress *p, const char *label, uint64_t total, bool quiet)
{
    *p = (vf_progress){.label = label, .total = total ? total : 1, .quiet = quiet, .tty = isatty(2) != 0};
    p->t0 = p->last = vf_app_now();
}

void vf_progress_update(vf_progress *p, uint64_t done, const char *extra)
{
    double now = vf_app_now();
    bool last = done >= p->total;
    if (p->quiet || now - p->t0 < 1.0)
        return;
    if (!last && now - p->last < (p->tty ? 0.25 : 5.0))
        return;
    p->last = now;
    double rate = (double)done / (now - p->t0);
    uint64_t todo = p->total - (done < p->total ? done : p->total);
    double left = rate > 0 ? (double)todo / rate : (double)todo * p->unit_s - (now - p->t0);
    if (left < 0)
        left = 0;
    char bar[21];
    int fill = (int)(20.0 * (double)done / (double)p->total);
    for (int i = 0; i < 20; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[20] = 0;
    fprintf(stderr, "%s%s [%s] %llu/%llu, %.1f/s, %.0f s left%s%s%s", p->tty ? "\r" : "", p->label, bar,
            (unsigned long long)done, (unsigned long long)p->total, rate, left, extra ? ", " : "", extra ? extra : "",
            p->tty ? "   " : "\n");
    p->drawn = true;
}

void vf_progress_end(vf_progress *p)
{
    if (p->drawn && p->tty)
        fputc('\n', stderr);
    p->drawn = false;
}

/* The one signal flag, written only by the handler (async-signal-safe) and
 * read by the commands between frames and in every wait: 0 until
 * vf_app_catch_interrupts (a signal then ends the program at once, with a
 * line), -1 once a command checks it, then the signal caught. */
static volatile sig_atomic_t interrupt_signal;

static void on_interrupt(int sig)
{
    if (interrupt_signal == 0) {
        static const char int_msg[] = "interrupted (SIGINT)\n",
                          term_msg[] = "interrupted (SIGTERM)\n";
        if (sig == SIGTERM)
            (void)!write(2, term_msg, sizeof term_msg - 1);
        else
            (void)!write(2, int_msg, sizeof int_msg - 1);
        _exit(VF_EXIT_INTERRUPTED);
    }
    if (interrupt_signal < 0) {
        interrupt_signal = sig;
        return;
    }
    /* a second signal, of either kind: the default action at once */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = flags;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void vf_app_install_interrupts(void)
{
    interrupt_signal = 0;
    install(0);
}

void vf_app_catch_interrupts(void)
{
    if (interrupt_signal > 0)
        return; /* already caught: keep it */
    interrupt_signal = -1;
    install(SA_RESETHAND); /* a second signal ends the program at once */
}

int vf_app_interrupted(void)
{
    int s = (int)interrupt_signal;
    return s > 0 ? s : 0;
}

const char *vf_app_signal_name(int sig)
{
    return sig == SIGTERM ? "SIGTERM" : "SIGINT";
}
