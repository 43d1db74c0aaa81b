/* sim_pass_bytes: expands the bytes column of a family's pass tables into
 *   static uint64_t VF_PASS_BYTES_FN(const VF_PASS_WORK *w, const char *pass)
 * which returns the bytes of the row named pass (0 when no row has that
 * name; the first row of a name wins). The column is an expression over w
 * alone: the function has no other input but the name it looks up. Include
 * it after defining
 *   VF_PASS_BYTES_FN  the function's name, e.g. height_row_bytes
 *   VF_PASS_WORK      the family's work struct, e.g. height_work
 *   VF_PASS_FILE      the table, e.g. "height_passes.def"
 *   VF_PASS_FILE_2 .. VF_PASS_FILE_4  (optional) more tables, read in turn
 * No include guard: each family expands its own once. */
#include <string.h>

static uint64_t VF_PASS_BYTES_FN(const VF_PASS_WORK *w, const char *pass)
{
#define PASS(id, name_, shader_, push_, local_, bytes_, ...)                                                           \
    if (!strcmp(pass, name_))                                                                                         \
        return (bytes_);
#define NEIGHBOUR_PASS PASS
#include VF_PASS_FILE
#ifdef VF_PASS_FILE_2
#include VF_PASS_FILE_2
#endif
#ifdef VF_PASS_FILE_3
#include VF_PASS_FILE_3
#endif
#ifdef VF_PASS_FILE_4
#include VF_PASS_FILE_4
#endif
#undef NEIGHBOUR_PASS
#undef PASS
    (void)w;
    return 0;
}
