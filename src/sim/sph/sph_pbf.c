/* Position-based fluids (Macklin & Mueller 2013) on the SPH solver's
 * particles, binning and boundaries: a substep predicts the positions, bins
 * and reorders them, iterates the density constraint (pbf_lambda,
 * pbf_delta) a fixed number of times, applies XSPH, the viscosity force
 * (pbf_xsph) and vorticity confinement (pbf_confine) when they are on, and
 * its last pass either ends
 * the substep or already predicts and bins the next one (shared_sph.h). */
#include <string.h>

#include "sph_private.h"

/* The pass enum (PB_*), binding counts and table PB_passes, from pbf_passes.def. */
#define VF_PASS_FILE "pbf_passes.def"
#define VF_PASS_PREFIX PB
#define VF_PASS_TABLE_FN vf_pbf_pass_table
#include "sim_pass_table.h"

_Static_assert(PB_COUNT <= SPH_PBF_MAX_PIPES, "sph_private.h: SPH_PBF_MAX_PIPES holds every pass of pbf_passes.def");

vf_result sph_pbf_create(vf_sph *s, const uint32_t *spec, uint32_t spec_count)
{
    vf_result r = VF_OK;
    for (int i = 0; i < PB_COUNT && r == VF_OK; i++)
        r = vf_sim_pass_pipeline(s->gpu, &PB_passes[i], spec, spec_count, NULL, &s->pbf[i]);
    return r;
}

void sph_pbf_destroy(vf_sph *s)
{
    for (int i = 0; i < PB_COUNT; i++)
        vf_pipeline_destroy(&s->pbf[i]);
}

/* The bindings every pass has (pbf_common.glsl): the current particles (x0
 * and the predicted velocities), the density, the binning of the next
 * substep (whole only when bin), the cell starts and bits of this one, and
 * the other pair of particle buffers for the substep's end. */
static void common_bindings(vf_sph *s, vf_binding *b, bool bin)
{
    int a = s->cur, o = 1 - a;
    b[VF_SPH_BIND_PARAMS] = sph_bind(s->params);
    b[VF_SPH_BIND_STATE] = sph_bind(s->state);
    b[VF_PBF_BIND_POS] = sph_bind(s->pos[a]);
    b[VF_PBF_BIND_POS_T] = sph_bind(s->pos[a]);
    b[VF_PBF_BIND_VEL] = sph_bind(s->vel[a]);
    b[VF_PBF_BIND_DENS] = sph_bind(s->dens);
    b[VF_PBF_BIND_CELL] = bin ? sph_bind(s->cell) : sph_bind_word(s->cell);
    b[VF_PBF_BIND_SLOT] = bin ? sph_bind(s->slot) : sph_bind_word(s->slot);
    b[VF_PBF_BIND_COUNTS] = bin ? sph_bind(s->counts) : sph_bind_word(s->counts);
    b[VF_PBF_BIND_START] = sph_bind(s->start);
    b[VF_PBF_BIND_START_T] = sph_bind(s->start);
    b[VF_PBF_BIND_BITS] = sph_bind(s->nb_bits);
    b[VF_PBF_BIND_BITS_T] = sph_bind(s->nb_bits);
    b[VF_PBF_BIND_OUT_POS] = sph_bind(s->pos[o]);
    b[VF_PBF_BIND_OUT_VEL] = sph_bind(s->vel[o]);
}

static vf_pbf_push make_push(const vf_sph *s, double dt, uint32_t flags)
{
    vf_pbf_push pc = {.strength = s->interact.strength, .dt = (float)dt, .flags = flags};
    memcpy(pc.interact, s->interact.interact, sizeof pc.interact);
    return pc;
}

static void record(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, int pass, const vf_binding *b,
                   const vf_pbf_push *pc)
{
    sph_record_particles(s, cmd, prof, &PB_passes[pass], s->pbf[pass], b, pc);
}

/* The prediction of a substep no earlier pass predicted (a frame's first). */
static void record_predict(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, double dt, bool bin)
{
    vf_binding b[VF_MAX_BINDINGS] = {0};
    common_bindings(s, b, bin);
    vf_pbf_push pc = make_push(s, dt, bin ? VF_SPH_DRIFT_BIN : 0u);
    record(s, cmd, prof, PB_PREDICT, b, &pc);
}

vf_result sph_pbf_record_substep(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, double dt, bool finish)
{
    vf_cmd_label_begin(s->gpu, cmd, "pbf step");
    uint32_t layers = sph_emit_step(s, dt);
    bool emit = layers > 0;
    bool binned;
    if (s->drifted > 0) {
        /* the last pass of the substep before predicted (and, unless this
         * one emits, binned) this one */
        binned = s->drift_binned;
        s->drifted = 0;
    } else {
        binned = !emit;
        record_predict(s, cmd, prof, dt, binned);
    }
    if (emit)
        sph_record_emit(s, cmd, prof, layers);
    vf_result r = sph_record_binning(s, cmd, prof, binned);
    if (r != VF_OK) {
        vf_cmd_label_end(s->gpu, cmd);
        return r;
    }

    /* how the substep ends: predicting (and binning) the next one of the
     * same dt inside a frame */
    bool next_emit = !finish && sph_emit_next(s, dt);
    bool bin = !finish && !next_emit;
    uint32_t end = (finish ? 0u : VF_PBF_PREDICT) | (bin ? VF_SPH_DRIFT_BIN : 0u) |
                   (s->speed_odd ? VF_SPH_DRIFT_ODD : 0u);
    s->speed_odd = !s->speed_odd;
    bool vort = s->prm.vorticity > 0, post = s->prm.xsph > 0 || s->prm.viscosity > 0 || vort;

    int a = s->cur, o = 1 - a; /* x0 and the predicted velocities; the substep's end */
    uint32_t iterations = s->desc.pbf_iterations ? s->desc.pbf_iterations : 6;
    for (uint32_t k = 0; k < iterations; k++) {
        bool last = k + 1 == iterations;
        vf_binding lb[VF_MAX_BINDINGS] = {0};
        common_bindings(s, lb, false);
        vf_buffer *x = k == 0 ? s->pos[a] : s->iter;
        lb[VF_PBF_LAMBDA_BIND_X] = sph_bind(x);
        lb[VF_PBF_LAMBDA_BIND_X_T] = sph_bind(x);
        lb[VF_PBF_LAMBDA_BIND_REC] = sph_bind(s->nb_x);
        vf_pbf_push lp = make_push(s, dt, k == 0 ? VF_PBF_FIRST : 0u);
        record(s, cmd, prof, PB_LAMBDA, lb, &lp);

        bool ends = last && !post;
        vf_binding db[VF_MAX_BINDINGS] = {0};
        common_bindings(s, db, ends && bin);
        db[VF_PBF_DELTA_BIND_REC] = sph_bind(s->nb_x);
        db[VF_PBF_DELTA_BIND_REC_T] = sph_bind(s->nb_x);
        db[VF_PBF_DELTA_BIND_X] = sph_bind(s->iter);
        db[VF_PBF_DELTA_BIND_NB_V] = sph_bind(s->nb_v);
        db[VF_PBF_DELTA_BIND_DISP] = sph_bind(s->acc); /* free until pbf_xsph's vorticity */
        uint32_t df = (k == 0 ? VF_PBF_FIRST : 0u) | (!last ? 0u : VF_PBF_LAST | (post ? VF_PBF_POST : end));
        vf_pbf_push dp = make_push(s, dt, df);
        record(s, cmd, prof, PB_DELTA, db, &dp);
    }
    if (post) {
        vf_binding xb[VF_MAX_BINDINGS] = {0};
        common_bindings(s, xb, !vort && bin);
        xb[VF_PBF_XSPH_BIND_X] = sph_bind(s->iter);
        xb[VF_PBF_XSPH_BIND_X_T] = sph_bind(s->iter);
        xb[VF_PBF_XSPH_BIND_NB_V] = sph_bind(s->nb_v);
        xb[VF_PBF_XSPH_BIND_NB_V_T] = sph_bind(s->nb_v);
        xb[VF_PBF_XSPH_BIND_OMEGA] = vort ? sph_bind(s->acc) : sph_bind_word(s->acc);
        xb[VF_PBF_XSPH_BIND_WREC] = vort ? sph_bind(s->nb_x) : sph_bind_word(s->nb_x);
        vf_pbf_push xp = make_push(s, dt, vort ? VF_PBF_POST : end);
        record(s, cmd, prof, PB_XSPH, xb, &xp);
    }
    if (vort) {
        vf_binding cb[VF_MAX_BINDINGS] = {0};
        common_bindings(s, cb, bin);
        cb[VF_PBF_CONFINE_BIND_WREC] = sph_bind(s->nb_x);
        cb[VF_PBF_CONFINE_BIND_WREC_T] = sph_bind(s->nb_x);
        cb[VF_PBF_CONFINE_BIND_OMEGA] = sph_bind(s->acc);
        cb[VF_PBF_CONFINE_BIND_X] = sph_bind(s->iter);
        vf_pbf_push cp = make_push(s, dt, end);
        record(s, cmd, prof, PB_CONFINE, cb, &cp);
    }
    /* the substep's end went into the other pair of buffers, in the order
     * of the reorder's ids: they go with it */
    vf_buffer *ids = s->id[a];
    s->id[a] = s->id[o];
    s->id[o] = ids;
    s->cur = o;
    if (!finish) {
        s->drifted = dt;
        s->drift_binned = bin;
    }
    vf_cmd_label_end(s->gpu, cmd);
    return VF_OK;
}
