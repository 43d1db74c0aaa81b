/* gpu_spirv: reflection of SPIR-V modules (see gpu_spirv.h). */
#include "gpu_spirv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_shaders.h"

_Static_assert(VF_MAX_BINDINGS <= 32, "a slot mask is 32 bits");

/* SPIR-V opcodes, decorations and enums used here */
enum {
    OP_EXECUTION_MODE = 16,
    OP_TYPE_BOOL = 20,
    OP_TYPE_INT = 21,
    OP_TYPE_FLOAT = 22,
    OP_TYPE_VECTOR = 23,
    OP_TYPE_MATRIX = 24,
    OP_TYPE_IMAGE = 25,
    OP_TYPE_SAMPLER = 26,
    OP_TYPE_SAMPLED_IMAGE = 27,
    OP_TYPE_ARRAY = 28,
    OP_TYPE_RUNTIME_ARRAY = 29,
    OP_TYPE_STRUCT = 30,
    OP_TYPE_POINTER = 32,
    OP_CONSTANT = 43,
    OP_SPEC_CONSTANT_TRUE = 48,
    OP_SPEC_CONSTANT_FALSE = 49,
    OP_SPEC_CONSTANT = 50,
    OP_SPEC_CONSTANT_COMPOSITE = 51,
    OP_VARIABLE = 59,
    OP_DECORATE = 71,
    OP_MEMBER_DECORATE = 72,
    OP_EXECUTION_MODE_ID = 331,
    MODE_LOCAL_SIZE = 17,
    MODE_LOCAL_SIZE_ID = 38,
    DEC_SPEC_ID = 1,
    DEC_BLOCK = 2,
    DEC_BUFFER_BLOCK = 3,
    DEC_ARRAY_STRIDE = 6,
    DEC_BUILT_IN = 11,
    DEC_BINDING = 33,
    DEC_DESCRIPTOR_SET = 34,
    DEC_OFFSET = 35,
    BUILT_IN_WORKGROUP_SIZE = 25,
    SC_UNIFORM_CONSTANT = 0,
    SC_UNIFORM = 2,
    SC_WORKGROUP = 4,
    SC_PUSH_CONSTANT = 9,
    SC_STORAGE_BUFFER = 12,
    DIM_BUFFER = 5,
};

/* Per-id facts gathered in one walk; 0 in the "+1" fields means "none". */
typedef struct spirv_id {
    uint32_t op;          /* the opcode that defined a type */
    uint32_t a, b;        /* image: Dim, Sampled; pointer: storage class, pointee; array: element, length id */
    uint32_t set1, binding1, spec1; /* DescriptorSet + 1, Binding + 1, SpecId + 1 */
    uint32_t stride;      /* ArrayStride */
    bool block, buffer_block, workgroup_size;
    uint64_t packed;      /* bytes, a 3-vector as 4 and struct members summed (Workgroup storage) */
    uint64_t laid;        /* bytes by the explicit layout: Offset and ArrayStride decorations */
    uint64_t value;       /* a constant's (default) value */
} spirv_id;

typedef struct member_offset {
    uint32_t st, member, offset;
} member_offset;

typedef struct spirv_walk {
    spirv_id *ids;
    uint32_t bound;
    member_offset *offsets;
    size_t offset_count;
    vf_spirv_info *info;
    uint32_t size_ids[3];
    bool have_size_ids;
    char *why;
    size_t why_size;
} spirv_walk;

#define FAIL(...)                                                                                                      \
    do {                                                                                                               \
        if (wk->why)                                                                                                   \
            snprintf(wk->why, wk->why_size, __VA_ARGS__);                                                              \
        return false;                                                                                                  \
    } while (0)

static void struct_size(spirv_walk *wk, const uint32_t *w, uint32_t wc)
{
    spirv_id *t = &wk->ids[w[1]];
    uint64_t packed = 0, laid = 0;
    bool any_offset = false;
    for (uint32_t k = 2; k < wc; k++) {
        const spirv_id *m = w[k] < wk->bound ? &wk->ids[w[k]] : &wk->ids[0];
        packed += m->packed;
        for (size_t o = 0; o < wk->offset_count; o++)
            if (wk->offsets[o].st == w[1] && wk->offsets[o].member == k - 2) {
                any_offset = true;
                if (wk->offsets[o].offset + m->laid > laid)
                    laid = wk->offsets[o].offset + m->laid;
            }
    }
    t->packed = packed;
    t->laid = any_offset ? laid : packed;
}

/* A variable of set 0 (or the push-constant block): its binding and type. */
static bool resource(spirv_walk *wk, uint32_t ptr, uint32_t var, uint32_t sc)
{
    const spirv_id *v = &wk->ids[var];
    uint32_t pointee = wk->ids[ptr].b;
    const spirv_id *t = &wk->ids[pointee];
    if (sc == SC_PUSH_CONSTANT) {
        wk->info->push_size = (uint32_t)t->laid;
        return true;
    }
    if (sc != SC_UNIFORM_CONSTANT && sc != SC_UNIFORM && sc != SC_STORAGE_BUFFER)
        return true;
    if (!v->binding1)
        return true; /* e.g. a non-opaque global: not a descriptor */
    uint32_t set = v->set1 ? v->set1 - 1 : 0, slot = v->binding1 - 1;
    if (set != 0)
        FAIL("binding %u is in descriptor set %u (only set 0 is supported)", slot, set);
    if (slot >= VF_MAX_BINDINGS)
        FAIL("binding %u is beyond the %d slots a pipeline may use", slot, VF_MAX_BINDINGS);
    vf_binding_type type;
    if (t->op == OP_TYPE_ARRAY || t->op == OP_TYPE_RUNTIME_ARRAY)
        FAIL("binding %u is an array of descriptors (not supported)", slot);
    if (sc == SC_STORAGE_BUFFER || (sc == SC_UNIFORM && t->buffer_block))
        type = VF_BIND_STORAGE_BUFFER;
    else if (sc == SC_UNIFORM && t->block)
        type = VF_BIND_UNIFORM_BUFFER;
    else if (t->op == OP_TYPE_SAMPLED_IMAGE)
        type = VF_BIND_SAMPLED_IMAGE;
    else if (t->op == OP_TYPE_IMAGE && t->a == DIM_BUFFER && t->b == 1)
        type = VF_BIND_TEXEL_BUFFER;
    else if (t->op == OP_TYPE_IMAGE && t->a != DIM_BUFFER && t->b == 2)
        type = VF_BIND_STORAGE_IMAGE;
    else
        FAIL("binding %u has a descriptor type vkfluid does not support", slot);
    if (wk->info->slot_mask & (1u << slot))
        FAIL("binding %u is declared twice", slot);
    wk->info->slot_mask |= 1u << slot;
    wk->info->types[slot] = type;
    return true;
}

/* Annotations: SpecId, Block, strides, BuiltIn, Binding, DescriptorSet, member Offsets. */
static void decorate(spirv_walk *wk, const uint32_t *w, uint32_t wc, uint32_t op)
{
    if (op == OP_MEMBER_DECORATE) {
        if (wc >= 5 && w[3] == DEC_OFFSET && w[1] < wk->bound)
            wk->offsets[wk->offset_count++] = (member_offset){w[1], w[2], w[4]};
        return;
    }
    if (wc < 3 || w[1] >= wk->bound)
        return;
    spirv_id *d = &wk->ids[w[1]];
    uint32_t lit = wc >= 4 ? w[3] : 0;
    switch (w[2]) {
    case DEC_SPEC_ID: d->spec1 = lit + 1; break;
    case DEC_BLOCK: d->block = true; break;
    case DEC_BUFFER_BLOCK: d->buffer_block = true; break;
    case DEC_ARRAY_STRIDE: d->stride = lit; break;
    case DEC_BUILT_IN: d->workgroup_size = lit == BUILT_IN_WORKGROUP_SIZE; break;
    case DEC_BINDING: d->binding1 = lit + 1; break;
    case DEC_DESCRIPTOR_SET: d->set1 = lit + 1; break;
    default: break;
    }
}

/* Types: the two sizes of each (packed for Workgroup, laid out for push constants). */
static void type(spirv_walk *wk, const uint32_t *w, uint32_t wc, uint32_t op)
{
    spirv_id *t = &wk->ids[w[1]];
    t->op = op;
#define ID(k) (w[k] < wk->bound ? &wk->ids[w[k]] : &wk->ids[0])
    switch (op) {
    case OP_TYPE_BOOL: t->packed = t->laid = 4; break;
    case OP_TYPE_INT:
    case OP_TYPE_FLOAT:
        if (wc >= 3)
            t->packed = t->laid = w[2] / 8;
        break;
    case OP_TYPE_VECTOR:
        if (wc >= 4) { /* a 3-vector counts as 4 in Workgroup (how drivers lay them out) */
            t->packed = ID(2)->packed * (w[3] == 3 ? 4 : w[3]);
            t->laid = ID(2)->laid * w[3];
        }
        break;
    case OP_TYPE_MATRIX:
        if (wc >= 4) {
            t->packed = ID(2)->packed * w[3];
            t->laid = ID(2)->packed * w[3]; /* std140/std430 columns of a 3-vector take 4 */
        }
        break;
    case OP_TYPE_IMAGE:
        if (wc >= 8)
            t->a = w[3], t->b = w[7];
        break;
    case OP_TYPE_ARRAY:
        if (wc >= 4) {
            t->a = w[2];
            t->packed = ID(2)->packed * ID(3)->value;
            t->laid = (t->stride ? t->stride : ID(2)->laid) * ID(3)->value;
        }
        break;
    case OP_TYPE_STRUCT: struct_size(wk, w, wc); break;
    case OP_TYPE_POINTER:
        if (wc >= 4)
            t->a = w[2], t->b = w[3] < wk->bound ? w[3] : 0;
        break;
    default: break;
    }
#undef ID
}

/* Constants: values (array lengths, workgroup sizes) and the declared SpecIds. */
static void constant(spirv_walk *wk, const uint32_t *w, uint32_t wc, uint32_t op)
{
    if (wc < 3 || w[2] >= wk->bound)
        return;
    spirv_id *c = &wk->ids[w[2]];
    if ((op == OP_CONSTANT || op == OP_SPEC_CONSTANT) && wc >= 4)
        c->value = w[3]; /* a spec constant's default: what the shader needs unless the host sets it */
    if (op == OP_SPEC_CONSTANT_TRUE)
        c->value = 1;
    if (op != OP_CONSTANT && op != OP_SPEC_CONSTANT_COMPOSITE && c->spec1 && c->spec1 - 1 < 32)
        wk->info->spec_mask |= 1u << (c->spec1 - 1);
    if (op == OP_SPEC_CONSTANT_COMPOSITE && c->workgroup_size && wc >= 4 && w[3] < wk->bound &&
        wk->ids[w[3]].spec1)
        wk->info->local_x_spec_id = wk->ids[w[3]].spec1 - 1;
}

static bool walk(spirv_walk *wk, const uint32_t *code, size_t n)
{
    vf_spirv_info *info = wk->info;
    for (size_t i = 5; i < n;) {
        uint32_t wc = code[i] >> 16, op = code[i] & 0xffffu;
        if (wc == 0 || i + wc > n)
            FAIL("malformed SPIR-V (an instruction runs past the end)");
        const uint32_t *w = &code[i];
        i += wc;
        if (op == OP_DECORATE || op == OP_MEMBER_DECORATE) {
            decorate(wk, w, wc, op);
        } else if (op >= OP_TYPE_BOOL && op <= OP_TYPE_POINTER) {
            if (wc >= 2 && w[1] < wk->bound)
                type(wk, w, wc, op);
        } else if (op == OP_CONSTANT || (op >= OP_SPEC_CONSTANT_TRUE && op <= OP_SPEC_CONSTANT_COMPOSITE)) {
            constant(wk, w, wc, op);
        } else if (op == OP_EXECUTION_MODE && wc >= 6 && w[2] == MODE_LOCAL_SIZE) {
            info->local_size[0] = w[3], info->local_size[1] = w[4], info->local_size[2] = w[5];
            info->have_local_size = true;
        } else if (op == OP_EXECUTION_MODE_ID && wc >= 6 && w[2] == MODE_LOCAL_SIZE_ID) {
            for (int k = 0; k < 3; k++)
                wk->size_ids[k] = w[3 + k] < wk->bound ? w[3 + k] : 0;
            wk->have_size_ids = true;
        } else if (op == OP_VARIABLE && wc >= 4 && w[1] < wk->bound && w[2] < wk->bound) {
            uint32_t sc = w[3];
            if (sc == SC_WORKGROUP && wk->ids[w[1]].b)
                info->shared_bytes += wk->ids[wk->ids[w[1]].b].packed;
            else if (!resource(wk, w[1], w[2], sc))
                return false;
        }
    }
    if (!info->have_local_size && wk->have_size_ids) {
        for (int k = 0; k < 3; k++)
            info->local_size[k] = (uint32_t)wk->ids[wk->size_ids[k]].value;
        if (wk->ids[wk->size_ids[0]].spec1)
            info->local_x_spec_id = wk->ids[wk->size_ids[0]].spec1 - 1;
        info->have_local_size = true;
    }
    return true;
}

bool vf_spirv_reflect(const uint32_t *code, size_t bytes, vf_spirv_info *info, char *why, size_t why_size)
{
    memset(info, 0, sizeof *info);
    info->local_x_spec_id = UINT32_MAX;
    spirv_walk wk0 = {.info = info, .why = why, .why_size = why_size}, *wk = &wk0;
    size_t n = bytes / 4;
    if (!code || n < 5 || code[0] != 0x07230203u)
        FAIL("not a SPIR-V module");
    uint32_t bound = code[3];
    if (bound == 0 || bound > (1u << 22))
        FAIL("malformed SPIR-V (id bound %u)", bound);
    wk->bound = bound;
    wk->ids = calloc(bound, sizeof *wk->ids);
    wk->offsets = calloc(n / 5 + 1, sizeof *wk->offsets); /* an Offset decoration takes 5 words */
    bool ok = false;
    if (!wk->ids || !wk->offsets) {
        if (why)
            snprintf(why, why_size, "out of memory reading SPIR-V");
    } else {
        ok = walk(wk, code, n);
    }
    free(wk->ids);
    free(wk->offsets);
    return ok;
}

bool vf_spirv_reflect_shader(const char *name, vf_spirv_info *info, char *why, size_t why_size)
{
    const vf_shader_blob *b = vf_shader_find(name);
    if (!b) {
        memset(info, 0, sizeof *info);
        if (why)
            snprintf(why, why_size, "no embedded shader %s", name ? name : "(null)");
        return false;
    }
    return vf_spirv_reflect(b->code, b->size, info, why, why_size);
}
