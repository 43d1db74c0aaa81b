/* sim_pass_table: expands a family's pass table into its pass enum, binding
 * counts and table of vf_sim_pass (see sim_pass.h). Include it in the one
 * file that records the family's passes, after defining
 *   VF_PASS_FILE    the table, e.g. "height_passes.def"
 *   VF_PASS_PREFIX  the enum prefix, e.g. HP (HP_EXPLICIT, HP_COUNT,
 *                   HP_EXPLICIT_BINDINGS, and the table HP_passes[])
 * The columns after bindings (bytes, and any a family adds after it) are the
 * family's own to read; the expansions here skip them.
 * No include guard: each family expands its own table once. */
#include "sim_pass.h"

#define VF_PASS_CAT_(a, b) a##_##b
#define VF_PASS_CAT(a, b) VF_PASS_CAT_(a, b)
#define VF_PASS_ID(id) VF_PASS_CAT(VF_PASS_PREFIX, id)
#define VF_PASS_BINDINGS_ID(id) VF_PASS_CAT(VF_PASS_ID(id), BINDINGS)

/* A table may write NEIGHBOUR_PASS for PASS (the same columns): a pass that
 * loops over each particle's neighbours, counted as a neighbour pass by the
 * work accounting (vf_compute_desc.neighbours). */
#define NEIGHBOUR_PASS PASS

enum {
#define PASS(id, name_, shader_, push_, local_, bindings_, ...) VF_PASS_ID(id),
#include VF_PASS_FILE
#undef PASS
    VF_PASS_ID(COUNT)
};

#define BIND(slot, type) +1
enum {
#define PASS(id, name_, shader_, push_, local_, bindings_, ...) VF_PASS_BINDINGS_ID(id) = 0 bindings_,
#include VF_PASS_FILE
#undef PASS
};
#undef BIND

#define BIND(slot, type) [slot] = VF_BIND_##type,
#undef NEIGHBOUR_PASS
static const vf_sim_pass VF_PASS_CAT(VF_PASS_PREFIX, passes)[VF_PASS_ID(COUNT)] = {
#define PASS(id, name_, shader_, push_, local_, bindings_, ...)                                                       \
    [VF_PASS_ID(id)] = {name_,                                                                                         \
                        {.shader = shader_,                                                                            \
                         .binding_count = VF_PASS_BINDINGS_ID(id),                                                     \
                         .bindings = {bindings_},                                                                      \
                         .push_size = VF_PASS_PUSH_SIZE(push_),                                                        \
                         .local_size_x = local_}},
#define NEIGHBOUR_PASS(id, name_, shader_, push_, local_, bindings_, ...)                                             \
    [VF_PASS_ID(id)] = {name_,                                                                                         \
                        {.shader = shader_,                                                                            \
                         .binding_count = VF_PASS_BINDINGS_ID(id),                                                     \
                         .bindings = {bindings_},                                                                      \
                         .push_size = VF_PASS_PUSH_SIZE(push_),                                                        \
                         .local_size_x = local_,                                                                       \
                         .neighbours = true}},
#include VF_PASS_FILE
#undef PASS
#undef NEIGHBOUR_PASS
};
#undef BIND
