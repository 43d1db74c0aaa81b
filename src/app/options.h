/* options: the command-line options of every command, declared once per
 * command as a table and parsed by one loop (values, ranges, one-line
 * errors, help, unknown options). App layer. */
#ifndef VF_OPTIONS_H
#define VF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum vf_opt_type {
    VF_OPT_FLAG,     /* bool *: set to true */
    VF_OPT_TEXT,     /* const char **: the value (points into argv) */
    VF_OPT_INT,      /* long long *: an integer in [min, max] */
    VF_OPT_U32,      /* uint32_t *: an integer in [min, max] (max at most UINT32_MAX) */
    VF_OPT_DOUBLE,   /* double *: a finite number in (min, max] */
    VF_OPT_CALL,     /* parse(value, ctx): the command's own check */
    VF_OPT_OPTIONAL, /* const char **: the next argument when it is not an option, else dflt */
    VF_OPT_INPUTS,   /* name NULL; vf_opt_inputs *: the arguments that are not options, in order */
} vf_opt_type;

/** Where a VF_OPT_INPUTS row puts the command's inputs: at most max of them
 * into items; "--" ends the options (what follows is an input even if it
 * starts with "-"); "-" alone is an input. The command checks count. */
typedef struct vf_opt_inputs {
    const char **items;
    int max, count;
} vf_opt_inputs;

typedef struct vf_opt {
    const char *name; /* "--steps" */
    vf_opt_type type;
    void *out;        /* where the value goes (see the types); the CALL's context */
    double min, max;  /* INT, U32: the inclusive range; DOUBLE: min exclusive, max inclusive */
    /* INT, U32: text after the range in the error (" (0: one submit per frame)"), may be NULL;
     * DOUBLE: what the value must be ("a positive number of simulated seconds");
     * INPUTS: what the inputs are ("two inputs A and B") */
    const char *must;
    /* CALL: checks and stores value; returns 0, or an exit code after printing
     * a one-line error naming the option */
    int (*parse)(const char *name, const char *value, void *ctx);
    const char *dflt; /* OPTIONAL: the value when none follows */
} vf_opt;

struct vf_cmd_scene;

/** What vf_opt_parse returns after --list-options printed the command's
 * options (the command returns it at once; main exits 0). Not an exit status. */
#define VF_OPT_LISTED 1000

/** Parses argv[1..argc-1] against table (n rows): every option there takes
 * its value (the next argument, never one that starts with "--"), checked
 * as its row says; -h and --help set *help. --list-options prints every
 * option the command takes, one a line (the table's, --help, and with sc
 * --scene and --set; shell completion and test_cli read it), and returns
 * VF_OPT_LISTED. Without a VF_OPT_INPUTS row,
 * every argument must be an option (or the scene's). The arguments the scene took
 * (sc: its name or file and the --set pairs, see vf_cmd_scene_begin) are
 * passed over; sc may be NULL for commands without a scene. Returns 0, or
 * an exit code after a one-line error (missing or bad value; an unknown
 * option, with the closest of the command's options). cmd names the
 * command in messages. */
int vf_opt_parse(const char *cmd, int argc, char **argv, const vf_opt *table, size_t n, bool *help,
                 const struct vf_cmd_scene *sc);

/** The rows of a table: vf_opt_parse(cmd, argc, argv, VF_OPT_TABLE(t), ...). */
#define VF_OPT_TABLE(t) (t), (sizeof(t) / sizeof((t)[0]))

#endif
