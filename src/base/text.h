/* text: "did you mean" for a mistyped word among known ones, the shortest
 * decimal text of a double that reads back exactly, and user text made safe
 * for a one-line message, and the one-line error messages of create calls. */
#ifndef VF_TEXT_H
#define VF_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/** The candidate closest to word by edit distance (insertions, deletions,
 * substitutions, adjacent swaps; case-insensitive), when it is near enough
 * to be a typo: at most 1 edit for words up to 4 characters, 2 up to 8, else
 * 3; or when word is a prefix of exactly one candidate. NULL otherwise. cands
 * holds n strings (NULL entries skipped); the result points into it. */
const char *vf_suggest(const char *word, const char *const *cands, size_t n);

/** vf_suggest over a list in one string separated by any of seps (e.g.
 * "dye|pressure" with "|", or "a, b, c" with ", "): writes the closest item
 * to out (cap bytes) and returns out, or returns NULL (out untouched). */
const char *vf_suggest_in_list(const char *word, const char *list, const char *seps, char *out, size_t cap);

/** Writes the shortest "%.Ng" text of v (N = 1..17) that strtod reads back
 * as exactly v (0.025, not 0.025000000000000001) into buf. */
void vf_format_double(double v, char *buf, size_t cap);

/** Copies at most max bytes of s into buf (cap bytes) for a terminal, as
 * PNG chunk names are shown: control bytes and DEL become \xNN (with
 * quotes, ' too), invalid UTF-8 bytes \xNN, and C1 controls,
 * bidirectional and zero-width characters and line separators \uNNNN; a
 * cut never splits a character or an escape and is marked with "..."; s
 * may be NULL (empty text). */
void vf_text_escape(const char *s, char *buf, size_t cap, size_t max, bool quotes);

/** vf_text_escape with quotes escaped: a value to quote in a message. */
void vf_text_safe(const char *s, char *buf, size_t cap, size_t max);

/** Copies the first n bytes of s into buf (cap bytes) as a string; false,
 * buf untouched, when they do not fit. */
bool vf_text_prefix(const char *s, size_t n, char *buf, size_t cap);

/** True when needle (non-empty) occurs in hay, ignoring ASCII case. */
bool vf_text_icontains(const char *hay, const char *needle);

/** Writes a byte count for a message: "1.5 GiB" from 1 GiB up, else "12 MiB". */
void vf_format_bytes(unsigned long long bytes, char *buf, size_t cap);

/** The error buffer of a function that takes (err, cap) where err may be
 * NULL: err, or dummy (dummy_cap bytes) when err is NULL or *cap is 0 (then
 * *cap becomes dummy_cap); emptied. */
char *vf_err_buffer(char *err, size_t *cap, char *dummy, size_t dummy_cap);

/** Formats a one-line error message into err (cap bytes) with printf's
 * rules; does nothing when err is NULL or cap is 0. */
void vf_set_err(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** Formats a one-line error that names key first: key, then fmt's text
 * (what follows the key: "=%g: ..." or ": ..."), into err (cap bytes), and
 * hands the key back apart from the text: *key_out = key when key_out is not
 * NULL, so that no caller reads the key out of the line (the scene layer
 * writes it as family.key). key must outlive the caller's use (a literal or
 * a parameter table's key). err may be NULL. */
void vf_set_key_err(const char **key_out, char *err, size_t cap, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
