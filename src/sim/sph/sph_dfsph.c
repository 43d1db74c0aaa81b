/* Divergence-free SPH (Bender & Koschier 2015, 2017) on the SPH solver's
 * particles, binning and boundaries, with the GPU in control: a frame
 * records at most dfsph_substeps substeps and each pressure solve at most
 * dfsph_max_iterations iterations; dfsph_step chooses each substep (the CFL
 * step of the last largest speed, split evenly over the frame's time left)
 * and the last workgroup of each solve's error pass whether the solve goes
 * on, by writing the indirect arguments of the passes after it (0
 * workgroups: the pass does nothing). No readback. */
#include <math.h>
#include <string.h>

#include "sph_private.h"

/* The pass enum (DF_*), binding counts and table DF_passes, from dfsph_passes.def. */
#define VF_PASS_FILE "dfsph_passes.def"
#define VF_PASS_PREFIX DF
#define VF_PASS_TABLE_FN vf_dfsph_pass_table
#include "sim_pass_table.h"

_Static_assert(DF_COUNT <= SPH_DFSPH_MAX_PIPES, "sph_private.h: SPH_DFSPH_MAX_PIPES holds every pass of dfsph_passes.def");
_Static_assert(sizeof(vf_dfsph_ctl) == VF_DFSPH_DIV_ARGS_OFFSET, "the iteration arguments follow the control block");

vf_result sph_dfsph_create(vf_sph *s, const uint32_t *spec, uint32_t spec_count)
{
    vf_result r = VF_OK;
    for (int i = 0; i < DF_COUNT && r == VF_OK; i++)
        r = vf_sim_pass_pipeline(s->gpu, &DF_passes[i], spec, spec_count, NULL, &s->dfsph[i]);
    return r;
}

void sph_dfsph_destroy(vf_sph *s)
{
    for (int i = 0; i < DF_COUNT; i++)
        vf_pipeline_destroy(&s->dfsph[i]);
}

/* The slots a pass reads or writes: bound whole; the others by their first
 * word (bound, not accessed). */
enum {
    U_POS = 1u << 0, U_VEL = 1u << 1, U_DENS = 1u << 2, U_WARM = 1u << 3, U_KAPPA = 1u << 4, U_VSTAR = 1u << 5,
    U_NEIGH = 1u << 6, /* cell starts and neighbour bits */
    U_PARTIAL = 1u << 7, U_BIN = 1u << 8, U_DISPATCH = 1u << 9,
};

static vf_binding part(vf_buffer *b, bool whole)
{
    return whole ? sph_bind(b) : sph_bind_word(b);
}

static void bindings(vf_sph *s, vf_binding *b, unsigned use)
{
    int a = s->cur;
    b[VF_SPH_BIND_PARAMS] = sph_bind(s->params);
    b[VF_SPH_BIND_STATE] = sph_bind(s->state);
    b[VF_DFSPH_BIND_CTL] = sph_bind(s->ctl);
    b[VF_DFSPH_BIND_POS] = b[VF_DFSPH_BIND_POS_T] = part(s->pos[a], use & U_POS);
    b[VF_DFSPH_BIND_VEL] = b[VF_DFSPH_BIND_VEL_T] = part(s->vel[a], use & U_VEL);
    b[VF_DFSPH_BIND_DENS] = b[VF_DFSPH_BIND_DENS_T] = part(s->dens, use & U_DENS);
    b[VF_DFSPH_BIND_WARM] = b[VF_DFSPH_BIND_WARM_T] = part(s->warm[a], use & U_WARM);
    b[VF_DFSPH_BIND_KAPPA] = b[VF_DFSPH_BIND_KAPPA_T] = part(s->kappa, use & U_KAPPA);
    b[VF_DFSPH_BIND_VSTAR] = b[VF_DFSPH_BIND_VSTAR_T] = part(s->acc, use & U_VSTAR);
    b[VF_DFSPH_BIND_START] = b[VF_DFSPH_BIND_START_T] = part(s->start, use & U_NEIGH);
    b[VF_DFSPH_BIND_BITS] = b[VF_DFSPH_BIND_BITS_T] = part(s->nb_bits, use & U_NEIGH);
    b[VF_DFSPH_BIND_PARTIAL] = part(s->partial, use & U_PARTIAL);
    b[VF_DFSPH_BIND_CELL] = part(s->cell, use & U_BIN);
    b[VF_DFSPH_BIND_SLOT] = part(s->slot, use & U_BIN);
    b[VF_DFSPH_BIND_COUNTS] = part(s->counts, use & U_BIN);
    b[VF_DFSPH_BIND_DISPATCH] = part(s->dispatch, use & U_DISPATCH);
}

static vf_dfsph_push make_push(const vf_sph *s, uint32_t mode, uint32_t flags, uint32_t left)
{
    vf_dfsph_push pc = {.strength = s->interact.strength, .mode = mode, .flags = flags, .left = left};
    memcpy(pc.interact, s->interact.interact, sizeof pc.interact);
    return pc;
}

/* One dfsph_step (one workgroup). */
static void record_step(vf_sph *s, VkCommandBuffer cmd, uint32_t mode, uint32_t left)
{
    vf_binding b[VF_MAX_BINDINGS];
    bindings(s, b, U_DISPATCH);
    vf_dfsph_push pc = make_push(s, mode, 0, left);
    vf_cmd_dispatch(cmd, s->dfsph[DF_STEP], b, &pc, 1, 1, 1);
    sph_barrier(s, cmd); /* its arguments are read by the dispatches after it */
}

/* A particle pass dispatched by the arguments at offset of the control
 * buffer. */
static void record_pass(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, int pass, unsigned use, uint32_t mode,
                        uint32_t flags, VkDeviceSize offset)
{
    vf_binding b[VF_MAX_BINDINGS];
    bindings(s, b, use);
    vf_dfsph_push pc = make_push(s, mode, flags, 0);
    sph_record_particles_at(s, cmd, prof, &DF_passes[pass], s->dfsph[pass], b, &pc, s->ctl, offset);
}

void sph_dfsph_frame_begin(vf_sph *s, VkCommandBuffer cmd)
{
    record_step(s, cmd, VF_DFSPH_STEP_FRAME, 0);
    s->left = s->dfsph_substeps;
}

vf_result sph_dfsph_record_substep(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, bool finish)
{
    (void)finish; /* the advect always bins the next substep (without an emitter) */
    if (s->left == 0)
        return VF_ERR_INVALID_ARG; /* more substeps than the frame records */
    vf_cmd_label_begin(s->gpu, cmd, "dfsph step");
    uint32_t sc = vf_sim_pass_begin(s->gpu, cmd, prof, &DF_passes[DF_STEP]);
    record_step(s, cmd, VF_DFSPH_STEP_BEGIN, s->left--);
    vf_sim_pass_end(s->gpu, cmd, prof, sc);
    bool emitter = s->desc.emitter;
    if (emitter) {
        sph_record_emit_at(s, cmd, prof, s->ctl, offsetof(vf_dfsph_ctl, emit_x));
        record_step(s, cmd, VF_DFSPH_STEP_REFRESH, 0);
    }
    /* the binning, dispatched by the step's arguments; the advect of the
     * substep before binned unless there is an emitter (or none ran yet) */
    s->gate = s->ctl;
    vf_result r = sph_record_binning(s, cmd, prof, !emitter && s->advect_binned);
    s->gate = NULL;
    if (r != VF_OK) {
        vf_cmd_label_end(s->gpu, cmd);
        return r;
    }
    uint32_t iterations = s->prm.dfsph_max_iterations;
    record_pass(s, cmd, prof, DF_DENSITY, U_POS | U_VEL | U_DENS | U_WARM | U_NEIGH, 0, 0, 0);
    for (uint32_t l = 0; l < iterations; l++) {
        VkDeviceSize in = l == 0 ? 0 : VF_DFSPH_DIV_ARGS_OFFSET + 16ull * l;
        record_pass(s, cmd, prof, DF_DIVERGENCE, U_POS | U_VEL | U_DENS | U_KAPPA | U_NEIGH | U_PARTIAL, l, 0, in);
        record_pass(s, cmd, prof, DF_DIV_UPDATE, U_POS | U_VEL | U_DENS | U_KAPPA | U_WARM | U_NEIGH, l, 0,
                    VF_DFSPH_DIV_ARGS_OFFSET + 16ull * (l + 1));
    }
    record_pass(s, cmd, prof, DF_PREDICT, U_POS | U_VEL | U_DENS | U_WARM | U_VSTAR | U_NEIGH, 0, 0, 0);
    for (uint32_t l = 0; l < iterations; l++) {
        VkDeviceSize in = l == 0 ? 0 : VF_DFSPH_DENS_ARGS_OFFSET + 16ull * l;
        record_pass(s, cmd, prof, DF_PRESSURE, U_POS | U_DENS | U_KAPPA | U_VSTAR | U_NEIGH | U_PARTIAL, l, 0, in);
        record_pass(s, cmd, prof, DF_PRESS_UPDATE, U_POS | U_DENS | U_KAPPA | U_WARM | U_VSTAR | U_NEIGH, l, 0,
                    VF_DFSPH_DENS_ARGS_OFFSET + 16ull * (l + 1));
    }
    /* the advect writes the end of the substep back into the buffers the
     * binning read, so the current ones are the same whether or not the GPU
     * ran the substep */
    int o = s->cur, a = 1 - o;
    uint32_t flags = (emitter ? 0u : VF_SPH_DRIFT_BIN) | (s->speed_odd ? VF_SPH_DRIFT_ODD : 0u);
    s->speed_odd = !s->speed_odd;
    vf_binding ab[VF_MAX_BINDINGS] = {
        [VF_SPH_BIND_PARAMS] = sph_bind(s->params),          [VF_SPH_BIND_STATE] = sph_bind(s->state),
        [VF_DFSPH_ADVECT_BIND_CTL] = sph_bind(s->ctl),        [VF_DFSPH_ADVECT_BIND_POS_IN] = sph_bind(s->pos[o]),
        [VF_DFSPH_ADVECT_BIND_VSTAR] = sph_bind(s->acc),      [VF_DFSPH_ADVECT_BIND_DENS] = sph_bind(s->dens),
        [VF_DFSPH_ADVECT_BIND_WARM_IN] = sph_bind(s->warm[o]), [VF_DFSPH_ADVECT_BIND_ID_IN] = sph_bind(s->id[o]),
        [VF_DFSPH_ADVECT_BIND_POS_OUT] = sph_bind(s->pos[a]), [VF_DFSPH_ADVECT_BIND_VEL_OUT] = sph_bind(s->vel[a]),
        [VF_DFSPH_ADVECT_BIND_WARM_OUT] = sph_bind(s->warm[a]), [VF_DFSPH_ADVECT_BIND_ID_OUT] = sph_bind(s->id[a]),
        [VF_DFSPH_ADVECT_BIND_CELL] = part(s->cell, !emitter),  [VF_DFSPH_ADVECT_BIND_SLOT] = part(s->slot, !emitter),
        [VF_DFSPH_ADVECT_BIND_COUNTS] = part(s->counts, !emitter)};
    vf_dfsph_push pc = make_push(s, 0, flags, 0);
    sph_record_particles_at(s, cmd, prof, &DF_passes[DF_ADVECT], s->dfsph[DF_ADVECT], ab, &pc, s->ctl, 0);
    s->cur = a;
    s->advect_binned = !emitter;
    vf_cmd_label_end(s->gpu, cmd);
    return VF_OK;
}

vf_result sph_dfsph_read_ctl(vf_sph *s, vf_dfsph_ctl *out)
{
    return vf_buffer_read(s->ctl, 0, out, sizeof *out);
}

vf_result vf_sph_read_dfsph(vf_sph *s, float (*out)[2], uint32_t n, vf_dfsph_ctl *ctl)
{
    if (!s->ctl || n > s->capacity)
        return VF_ERR_INVALID_ARG;
    vf_result r = n ? vf_buffer_read(s->warm[s->cur], 0, out, 8ull * n) : VF_OK;
    if (r == VF_OK && ctl)
        r = sph_dfsph_read_ctl(s, ctl);
    return r;
}
