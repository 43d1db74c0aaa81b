/* params: typed, range-checked parameters described by tables.
 *
 * A solver describes its keys once (name, type, default, range, unit, help,
 * offset into its desc struct); the CLI's --set key=value, scene files and the
 * key tables of docs/scenes.md all go through the same table. */
#ifndef VF_PARAMS_H
#define VF_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "vf_error.h"

/* A choice list declared once: an X-macro with X(ENUM_NAME, "text") for each
 * choice, in the order of the enum's values 0, 1, 2, ... It gives both the
 * enum and the parameter's choices string:
 *
 *   #define VF_GRID_PRESSURE_LIST(X) X(VF_GRID_PRESSURE_MULTIGRID, "multigrid") X(VF_GRID_PRESSURE_JACOBI, "jacobi")
 *   typedef enum vf_grid_pressure { VF_GRID_PRESSURE_LIST(VF_CHOICE_ENUM) } vf_grid_pressure;
 *   {"pressure", VF_PARAM_ENUM, ..., VF_GRID_PRESSURE_MULTIGRID, ..., VF_CHOICES(VF_GRID_PRESSURE_LIST), ...}
 *
 * so a parameter stores the enum value itself. */
#define VF_CHOICE_ENUM(id, text) id,
#define VF_CHOICE_TEXT(id, text) "|" text
#define VF_CHOICE_COUNT(id, text) +1
/** "a|b|c" from a choice list (a constant expression). */
#define VF_CHOICES(list) (&(list(VF_CHOICE_TEXT))[1])
/* A list whose ids are constants defined elsewhere (a shader header's
 * #defines) instead of a new enum: VF_CHOICES_CHECK(list), at file scope,
 * asserts at compile time that each constant equals its place in the list. */
#define VF_CHOICE_PLACE(id, text) id##_PLACE_,
#define VF_CHOICE_AT_PLACE(id, text) _Static_assert((id) == id##_PLACE_, #id " is not its place in its choice list");
/** The text of each choice at its id, for a table: {list(VF_CHOICE_NAME)}. */
#define VF_CHOICE_NAME(id, text) [id] = text,
#define VF_CHOICES_CHECK(list)                                                                                         \
    enum { list(VF_CHOICE_PLACE) };                                                                                    \
    list(VF_CHOICE_AT_PLACE)

typedef enum vf_param_type {
    VF_PARAM_DOUBLE = 0, /* stored as double */
    VF_PARAM_INT,        /* stored as int64_t-free `int` (32-bit) */
    VF_PARAM_BOOL,       /* stored as bool; accepts true/false/on/off/1/0 */
    VF_PARAM_ENUM,       /* stored as int: index into choices ("a|b|c") */
} vf_param_type;

typedef struct vf_param_def {
    const char *key;     /* e.g. "re" or "sph.viscosity" */
    vf_param_type type;
    size_t offset;       /* offsetof(desc struct, field) */
    double def;          /* default (enum: index) */
    double min, max;     /* inclusive range for numbers */
    bool min_exclusive;  /* min is excluded (e.g. re > 0) */
    const char *choices; /* VF_PARAM_ENUM: "multigrid|jacobi" */
    const char *unit;    /* "m", "s", "1", ... */
    const char *help;    /* one line */
} vf_param_def;

/** The place of value in choices ("a|b|c"; may be NULL), or -1 when it is
 * not one of them. */
int vf_choice_index(const char *choices, const char *value);

/** Sets every parameter of the table in desc to its default. */
void vf_params_defaults(const vf_param_def *table, size_t count, void *desc);

/** Finds a key in a table; NULL when absent. */
const vf_param_def *vf_params_find(const vf_param_def *table, size_t count, const char *key);

/** True when s is a whole number as JSON writes one: an optional minus, no
 * plus sign, leading zero, hex, spaces, lone dot, inf or nan. s not NULL. */
bool vf_params_json_number(const char *s);

/** Parses value for def and stores it in desc. On failure returns
 * VF_ERR_INVALID_ARG and writes a one-line reason (what is allowed) to err. */
vf_result vf_params_set_value(const vf_param_def *def, void *desc, const char *value, char *err, size_t cap);

/** Writes what def accepts ("a number in (0, 1e+06]", "one of a|b", ...). */
void vf_params_allowed(const vf_param_def *def, char *buf, size_t cap);

/** Typed setters for already-parsed values (scene files): on failure return
 * VF_ERR_INVALID_ARG with a one-line reason in err that starts with the value
 * ("-5 is out of range: must be a number in (0, 1e+06]"), without the key. */
vf_result vf_params_set_number(const vf_param_def *def, void *desc, double v, char *err, size_t cap);
vf_result vf_params_set_bool(const vf_param_def *def, void *desc, bool v, char *err, size_t cap);
vf_result vf_params_set_choice(const vf_param_def *def, void *desc, const char *choice, char *err, size_t cap);

/** Applies "key=value": unknown keys, bad values and out-of-range values are
 * VF_ERR_INVALID_ARG with a one-line reason naming the key and what is
 * allowed (listing the known keys for an unknown one). */
vf_result vf_params_set(const vf_param_def *table, size_t count, void *desc, const char *assignment, char *err, size_t cap);

/** Writes the current values as JSON object members ("key": value, ...),
 * without braces, each on its own line prefixed by indent. */
void vf_params_write_json(const vf_param_def *table, size_t count, const void *desc, FILE *f, const char *indent);

/** Prints a help table of the keys: key, help, default, unit, range. The
 * default shown is the value in desc (a scene's preset) when desc is not
 * NULL, else the table's default. */
void vf_params_print_help(const vf_param_def *table, size_t count, const void *desc, FILE *f);

/** Formats the current value of one parameter into buf. */
void vf_params_format(const vf_param_def *def, const void *desc, char *buf, size_t cap);

#endif
