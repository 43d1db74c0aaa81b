/* The SPH solver behind the vf_solver interface: frames of fixed simulated
 * time split into substeps (remainder carried), guards with a last-good
 * snapshot, particle export and the summary members. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_particles.h"
#include "fileio.h"
#include "solver_sph.h"
#include "sph_foam.h"
#include "sph_private.h"

typedef struct sph_solver {
    vf_solver base;
    vf_sph *sph;
    double carry;            /* simulated time owed to the next frame */
    uint32_t frame_steps_min, frame_steps_max;
    vf_sph_snapshot good;    /* the state of the last passed check (or t = 0) */
    bool have_good, failed;
    vf_foam *foam;           /* spray, foam and bubbles (NULL: off) */
} sph_solver;

static const vf_solver_vtable sph_vtable;

/* The speed (over the scene's largest expected flow speed) above which a
 * large-step method's guard calls the state broken. */
#define SPH_SPEED_BOUND 20

static const char *const method_names[] = {VF_SPH_METHOD_LIST(VF_CHOICE_NAME)};

vf_sph *vf_sph_from_solver(vf_solver *s)
{
    return s && s->vt == &sph_vtable ? ((sph_solver *)s)->sph : NULL;
}

static void sph_destroy(vf_solver *base)
{
    sph_solver *s = (sph_solver *)base;
    vf_foam_destroy(&s->foam);
    vf_sph_destroy(&s->sph);
    vf_sph_snapshot_free(&s->good);
    free(s);
}

/* Substeps per submit (vt->submit_substeps): one substep is about seven
 * passes over every particle; at a million particles a fast GPU takes a few
 * ms per substep, so 8 keep a submit in the tens of ms (well under 100 ms)
 * while a frame of the default dam-break (about 50 substeps) is 7 submits. */
#define SPH_SUBMIT_SUBSTEPS 8

static vf_result sph_frame_begin(vf_solver *base, VkCommandBuffer cmd, vf_profiler *prof, uint32_t *substeps)
{
    (void)prof;
    sph_solver *s = (sph_solver *)base;
    if (s->sph->desc.method == VF_SPH_DFSPH) {
        /* the GPU chooses the substeps: the frame records the most it may take */
        sph_dfsph_frame_begin(s->sph, cmd);
        *substeps = s->sph->dfsph_substeps;
        s->frame_steps_min = s->frame_steps_max = *substeps;
        return VF_OK;
    }
    double dt = vf_sph_dt(s->sph);
    /* how many substeps this frame takes */
    double budget = base->frame_dt + s->carry;
    double n = floor(budget / dt * (1.0 + 1e-12));
    if (!(n <= VF_SPH_MAX_FRAME_SUBSTEPS))
        return VF_ERR_TOO_LARGE;
    uint32_t steps = (uint32_t)n;
    s->carry = fmax(0.0, budget - steps * dt);
    if (base->frames == 0 || steps < s->frame_steps_min)
        s->frame_steps_min = steps;
    if (steps > s->frame_steps_max)
        s->frame_steps_max = steps;
    *substeps = steps;
    return VF_OK;
}

static vf_result sph_record_substep(vf_solver *base, VkCommandBuffer cmd, vf_profiler *prof, uint32_t index)
{
    sph_solver *s = (sph_solver *)base;
    /* the closing kick of every substep but the frame's last one is recorded
     * with the next substep's drift */
    return vf_sph_record_substep(s->sph, cmd, prof, vf_sph_dt(s->sph), index + 1 == base->frame_substeps);
}

static vf_result sph_frame_end(vf_solver *base, VkCommandBuffer cmd, vf_profiler *prof)
{
    sph_solver *s = (sph_solver *)base;
    return s->foam ? vf_foam_record(s->foam, cmd, prof, base->frame_substeps * vf_sph_dt(s->sph)) : VF_OK;
}

static vf_result sph_probe_frame_end(vf_solver *base, VkCommandBuffer cmd)
{
    sph_solver *s = (sph_solver *)base;
    return s->foam ? vf_foam_record_probe(s->foam, cmd) : VF_OK;
}

static vf_result sph_frame_done(vf_solver *base)
{
    sph_solver *s = (sph_solver *)base;
    if (s->sph->desc.method == VF_SPH_DFSPH)
        base->time += base->frame_dt; /* the GPU's substeps fill the frame */
    else
        base->time += base->frame_substeps * vf_sph_dt(s->sph);
    return VF_OK;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Output order: by persistent id (so a particle keeps its line across
 * frames while its slot in the GPU's cell order changes). */
static uint32_t *id_order(const vf_sph_snapshot *snap)
{
    uint64_t *key = malloc(sizeof *key * (snap->count ? snap->count : 1));
    uint32_t *order = malloc(sizeof *order * (snap->count ? snap->count : 1));
    if (!key || !order) {
        free(key);
        free(order);
        return NULL;
    }
    for (uint32_t k = 0; k < snap->count; k++)
        key[k] = (uint64_t)snap->id[k] << 32 | k;
    qsort(key, snap->count, sizeof *key, cmp_u64);
    for (uint32_t k = 0; k < snap->count; k++)
        order[k] = (uint32_t)key[k];
    free(key);
    return order;
}

static vf_result export_snapshot(const vf_sph_snapshot *snap, const char *dir, uint32_t index)
{
    uint32_t *order = id_order(snap);
    if (!order)
        return VF_ERR_NO_MEMORY;
    vf_particles_view v = {
        .n = snap->count,
        .pos = (const float (*)[4])snap->pos,
        .vel = (const float (*)[4])snap->vel,
        .dens = (const float (*)[2])snap->dens,
        .id = snap->id,
        .order = order,
    };
    char path[4096];
    snprintf(path, sizeof path, "%s/particles_%04u.csv", dir, index);
    vf_result r = vf_export_particles_csv(path, &v);
    if (r == VF_OK) {
        snprintf(path, sizeof path, "%s/particles_%04u.vtp", dir, index);
        r = vf_export_particles_vtp(path, &v);
    }
    free(order);
    return r;
}

static vf_result sph_export_frame(vf_solver *base, const char *dir, uint32_t index)
{
    sph_solver *s = (sph_solver *)base;
    if (s->failed && s->have_good)
        return export_snapshot(&s->good, dir, index); /* the last good state, not the broken one */
    vf_sph_snapshot snap;
    vf_result r = vf_sph_read(s->sph, false, &snap);
    if (r != VF_OK)
        return r;
    r = export_snapshot(&snap, dir, index);
    vf_sph_snapshot_free(&snap);
    return r;
}

static vf_result sph_export_last_good(vf_solver *base, const char *dir, uint32_t index)
{
    sph_solver *s = (sph_solver *)base;
    if (!s->have_good)
        return VF_ERR_UNSUPPORTED;
    return export_snapshot(&s->good, dir, index);
}

/* The largest speed seen: the larger of the two words (VF_SPH_DRIFT_ODD). */
static float max_speed(const vf_sph_state *st)
{
    uint32_t bits = st->max_speed_bits > st->max_speed_bits_odd ? st->max_speed_bits : st->max_speed_bits_odd;
    float v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* The compression of the particles' densities: the mean and the largest of
 * max(rho / rho0 - 1, 0) (a density below rho0 at the free surface is no
 * error); for pbf the density of the last constraint iteration. */
static void density_error(const vf_sph_snapshot *snap, double rho0, double *mean, double *max)
{
    double sum = 0, big = 0;
    for (uint32_t i = 0; i < snap->count; i++) {
        double e = fmax(snap->dens[i][0] / rho0 - 1, 0);
        sum += e;
        big = fmax(big, e);
    }
    *mean = snap->count ? sum / snap->count : 0;
    *max = big;
}

static void sph_write_summary(vf_solver *base, FILE *f, const char *indent)
{
    sph_solver *s = (sph_solver *)base;
    const vf_sph_desc *d = vf_sph_get_desc(s->sph);
    vf_sph_snapshot snap = {0};
    bool have = vf_sph_read(s->sph, false, &snap) == VF_OK;
    uint32_t g[3];
    vf_sph_grid(s->sph, g);
    double dt = vf_sph_dt(s->sph), vmax = have ? max_speed(&snap.state) : NAN;
    fprintf(f, "%s\"particles\": %u,\n", indent, have ? snap.count : 0);
    fprintf(f, "%s\"particles_initial\": %u,\n", indent, vf_sph_initial_count(s->sph));
    fprintf(f, "%s\"particles_emitted\": %u,\n", indent, have ? snap.state.emitted : 0);
    fprintf(f, "%s\"particles_removed\": %u,\n", indent, have ? snap.state.removed : 0);
    fprintf(f, "%s\"capacity\": %u,\n", indent, vf_sph_capacity(s->sph));
    if (s->foam) {
        vf_foam_host fh;
        if (vf_foam_read(s->foam, &fh) == VF_OK)
            fprintf(f, "%s\"diffuse\": {\"count\": %u, \"spray\": %u, \"foam\": %u, \"bubbles\": %u, \"generated\": %u, \"dropped\": %u},\n",
                    indent, fh.state[VF_FOAM_STATE_COUNT], fh.state[VF_FOAM_STATE_SPRAY], fh.state[VF_FOAM_STATE_FOAM],
                    fh.state[VF_FOAM_STATE_BUBBLE], fh.state[VF_FOAM_STATE_GENERATED], fh.state[VF_FOAM_STATE_DROPPED]);
        vf_foam_host_free(&fh);
    }
    fprintf(f, "%s\"spacing\": ", indent);
    vf_json_number(f, d->spacing);
    fprintf(f, ",\n%s\"smoothing_radius\": ", indent);
    vf_json_number(f, d->h);
    fprintf(f, ",\n%s\"sound_speed\": ", indent);
    vf_json_number(f, d->sound_speed);
    fprintf(f, ",\n%s\"grid\": [%u, %u, %u],\n", indent, g[0], g[1], g[2]);
    fprintf(f, "%s\"dt_min\": ", indent);
    vf_json_number(f, dt);
    fprintf(f, ",\n%s\"dt_max\": ", indent);
    vf_json_number(f, dt);
    fprintf(f, ",\n%s\"substeps\": %llu,\n", indent, (unsigned long long)base->steps);
    fprintf(f, "%s\"method\": \"%s\",\n", indent, method_names[d->method]);
    if (d->method == VF_SPH_PBF)
        fprintf(f, "%s\"pbf_iterations\": %u,\n", indent, d->pbf_iterations ? d->pbf_iterations : 6);
    vf_dfsph_ctl ctl;
    if (d->method == VF_SPH_DFSPH && sph_dfsph_read_ctl(s->sph, &ctl) == VF_OK) {
        /* what the GPU chose: the substeps that ran, the solves' iterations */
        fprintf(f, "%s\"dfsph\": {\"substeps_recorded_per_frame\": %u, \"substeps_run\": %u, \"substeps_capped\": %u, "
                   "\"divergence_iterations\": %u, \"density_iterations\": %u, \"divergence_solves_capped\": %u, "
                   "\"density_solves_capped\": %u, \"divergence_error_max\": ",
                indent, s->sph->dfsph_substeps, ctl.substeps, ctl.capped, ctl.div_iterations, ctl.dens_iterations,
                ctl.div_capped, ctl.dens_capped);
        vf_json_number(f, ctl.div_error_max);
        fprintf(f, ", \"density_error_max\": ");
        vf_json_number(f, ctl.dens_error_max);
        fprintf(f, "},\n");
    }
    double err_mean = NAN, err_max = NAN;
    if (have)
        density_error(&snap, d->rho0, &err_mean, &err_max);
    fprintf(f, "%s\"density_error_mean\": ", indent);
    vf_json_number(f, err_mean);
    fprintf(f, ",\n%s\"density_error_max\": ", indent);
    vf_json_number(f, err_max);
    fprintf(f, ",\n");
    fprintf(f, "%s\"substeps_per_frame_min\": %u,\n", indent, s->frame_steps_min);
    fprintf(f, "%s\"substeps_per_frame_max\": %u,\n", indent, s->frame_steps_max);
    fprintf(f, "%s\"max_speed\": ", indent);
    vf_json_number(f, vmax);
    fprintf(f, ",\n%s\"max_mach\": ", indent);
    vf_json_number(f, vmax / d->sound_speed);
    vf_sph_snapshot_free(&snap);
}

static bool finite4(const float *v, int n)
{
    for (int k = 0; k < n; k++)
        if (!isfinite(v[k]))
            return false;
    return true;
}

static vf_result sph_check(vf_solver *base, char *msg, size_t cap)
{
    sph_solver *s = (sph_solver *)base;
    const vf_sph_desc *d = vf_sph_get_desc(s->sph);
    vf_sph_snapshot snap;
    vf_result r = vf_sph_read(s->sph, false, &snap);
    if (r == VF_ERR_NUMERIC) {
        snprintf(msg, cap, "the particle count on the gpu exceeds the capacity %u", vf_sph_capacity(s->sph));
        goto fail;
    }
    if (r != VF_OK) {
        snprintf(msg, cap, "reading the particles back failed: %s", vf_result_message(r));
        return r;
    }
    char why[300] = "";
    uint64_t expect = (uint64_t)vf_sph_initial_count(s->sph) + snap.state.emitted - snap.state.removed;
    if (snap.count != expect)
        snprintf(why, sizeof why, "%u particles but %llu expected (%u initial + %u emitted - %u removed)", snap.count,
                 (unsigned long long)expect, vf_sph_initial_count(s->sph), snap.state.emitted, snap.state.removed);
    double tol[3];
    for (int k = 0; k < 3; k++)
        tol[k] = 1e-5 * (d->hi[k] - d->lo[k]);
    for (uint32_t i = 0; i < snap.count && !why[0]; i++) {
        const float *p = snap.pos[i], *v = snap.vel[i], *rp = snap.dens[i];
        if (!finite4(p, 3) || !finite4(v, 3) || !finite4(rp, 2))
            snprintf(why, sizeof why,
                     "particle %u is not finite: position (%g, %g, %g), velocity (%g, %g, %g), density %g, pressure %g",
                     snap.id[i], p[0], p[1], p[2], v[0], v[1], v[2], rp[0], rp[1]);
        for (int k = 0; k < 3 && !why[0]; k++)
            if (p[k] < d->lo[k] - tol[k] || p[k] > d->hi[k] + tol[k])
                snprintf(why, sizeof why, "particle %u left the tank: position (%g, %g, %g)", snap.id[i], p[0], p[1],
                         p[2]);
    }
    double vmax = max_speed(&snap.state), dt = vf_sph_dt(s->sph);
    if (!why[0] && d->method == VF_SPH_WCSPH && !(vmax * dt <= 0.5 * d->h))
        snprintf(why, sizeof why,
                 "the largest speed %.4g m/s moves particles %.3g h in one step (more than 0.5 h): the step size "
                 "assumes speeds well below sound_speed = %.4g m/s; raise sound_speed or lower cfl",
                 vmax, vmax * dt / d->h, d->sound_speed);
    /* the large-step methods move particles further than h in a step by
     * design: a speed far above any the scene can make is a solve that
     * diverged */
    if (!why[0] && d->method == VF_SPH_PBF && !(vmax <= SPH_SPEED_BOUND * d->speed_ref))
        snprintf(why, sizeof why,
                 "the largest speed %.4g m/s is over %d times the largest flow speed the scene can make (%.4g m/s): "
                 "the density solve diverged; raise pbf_iterations or pbf_substeps",
                 vmax, SPH_SPEED_BOUND, d->speed_ref);
    if (why[0]) {
        vf_sph_snapshot_free(&snap);
        if (s->have_good)
            snprintf(msg, cap, "%s (an export writes the last good state, frame %llu, t = %.6g s)", why,
                     (unsigned long long)base->good_frame, base->good_time);
        else
            snprintf(msg, cap, "%s", why);
        goto fail;
    }
    vf_sph_snapshot_free(&s->good);
    s->good = snap;
    s->have_good = true;
    return VF_OK;
fail:
    s->failed = true;
    return VF_ERR_NUMERIC;
}

/* The viewer's pick ray: push (left button) or pull (right) at the point of
 * the ray closest to the middle of the tank, with the scene's push radius
 * and strength (a tenth of the tank's largest side and 50 m/s^2 when unset). */
static void sph_interact(vf_solver *base, const vf_interaction *in)
{
    sph_solver *s = (sph_solver *)base;
    const vf_sph_desc *d = vf_sph_get_desc(s->sph);
    if (!in || !in->active) {
        double zero[3] = {0, 0, 0};
        vf_sph_set_interaction(s->sph, zero, 0, 0);
        return;
    }
    double c[3], o[3], dir[3], len = 0, side = 0;
    for (int k = 0; k < 3; k++) {
        c[k] = 0.5 * (d->lo[k] + d->hi[k]);
        o[k] = in->ray_origin[k];
        dir[k] = in->ray_dir[k];
        len += dir[k] * dir[k];
        side = fmax(side, d->hi[k] - d->lo[k]);
    }
    len = sqrt(len);
    if (!(len > 0))
        return;
    double t = 0;
    for (int k = 0; k < 3; k++) {
        dir[k] /= len;
        t += (c[k] - o[k]) * dir[k];
    }
    double p[3] = {o[0] + t * dir[0], o[1] + t * dir[1], o[2] + t * dir[2]};
    double radius = d->interact[3] > 0 ? d->interact[3] : 0.1 * side;
    double strength = fabs(d->interact_strength) > 0 ? fabs(d->interact_strength) : 50;
    vf_sph_set_interaction(s->sph, p, radius, in->button == 1 ? -strength : strength);
}

static void sph_describe(vf_solver *base, char *buf, size_t cap)
{
    sph_solver *s = (sph_solver *)base;
    vf_sph_render_view v;
    vf_sph_get_render_view(s->sph, &v);
    const vf_sph_desc *d = vf_sph_get_desc(s->sph);
    if (d->emitter || d->sink)
        snprintf(buf, cap, "sph: %u particles at start, capacity %u, dt %.3g ms", vf_sph_initial_count(s->sph),
                 vf_sph_capacity(s->sph), 1e3 * vf_sph_dt(s->sph));
    else
        snprintf(buf, cap, "sph: %u particles, dt %.3g ms", v.count_max, 1e3 * vf_sph_dt(s->sph));
    if (s->foam) {
        uint32_t c[4];
        vf_foam_counts_latest(s->foam, c);
        size_t len = strlen(buf);
        snprintf(buf + len, cap - len, "; diffuse %u (spray %u, foam %u, bubbles %u)", c[0], c[1], c[2], c[3]);
    }
}

vf_result vf_sph_solver_attach_foam(vf_solver *base, vf_foam *foam)
{
    if (!vf_sph_from_solver(base)) {
        vf_foam_destroy(&foam);
        return VF_ERR_INVALID_ARG;
    }
    sph_solver *s = (sph_solver *)base;
    vf_foam_destroy(&s->foam);
    s->foam = foam;
    return VF_OK;
}

vf_foam *vf_sph_solver_foam(vf_solver *base)
{
    return vf_sph_from_solver(base) ? ((sph_solver *)base)->foam : NULL;
}

/* What the bytes columns of the SPH tables read (w->...): n, the particle
 * capacity; cells, the binning grid's cells (plus the one for particles
 * outside it). */
typedef struct sph_work {
    uint64_t n, cells;
} sph_work;

#define VF_PASS_BYTES_FN sph_row_bytes
#define VF_PASS_WORK sph_work
#define VF_PASS_FILE "sph_passes.def"
#define VF_PASS_FILE_2 "pbf_passes.def"
#define VF_PASS_FILE_3 "sph_foam_passes.def"
#define VF_PASS_FILE_4 "sph_mesh_passes.def"
#include "sim_pass_bytes.h"

/* Compulsory bytes per execution of a pass (sph_passes.def; the foam and
 * mesh passes are not modelled). */
static uint64_t sph_pass_bytes(vf_solver *base, const char *pass)
{
    sph_solver *s = (sph_solver *)base;
    vf_sph_render_view v;
    vf_sph_get_render_view(s->sph, &v);
    uint32_t g[3];
    vf_sph_grid(s->sph, g);
    const sph_work w = {.n = v.count_max, .cells = (uint64_t)g[0] * g[1] * g[2] + 1};
    return sph_row_bytes(&w, pass);
}

/* The state a substep advances: position and velocity (vec4 each) of
 * every particle. */
static uint64_t sph_state_bytes(vf_solver *base)
{
    sph_solver *s = (sph_solver *)base;
    vf_sph_render_view v;
    vf_sph_get_render_view(s->sph, &v);
    return (uint64_t)v.count_max * (16 + 16);
}

/* The foam's neighbour passes, each recorded once a frame (sph_foam_passes.def). */
#define PASS(id, name, shader, push, local, bytes)
#define NEIGHBOUR_PASS(id, name, shader, push, local, bytes) +1
enum { SPH_FOAM_NEIGHBOUR_PASSES = 0
#include "sph_foam_passes.def"
};
#undef NEIGHBOUR_PASS
#undef PASS

/* What ran (vt->work_stats): wcsph and pbf run what they record (pbf its
 * constraint iterations every substep); dfsph's control block counts the
 * substeps and the corrections of both solves the GPU ran (read back: waits
 * for the GPU). A dfsph substep runs density and predict, and in each solve
 * k corrections (two passes: the error pass, then the update) plus one
 * closing error pass, except a solve that ran all dfsph_max_iterations
 * (counted in div_capped/dens_capped), which has none; the foam's passes
 * run once a frame. */
static void sph_work_stats(vf_solver *base, vf_solver_work_stats *out)
{
    sph_solver *s = (sph_solver *)base;
    const vf_sph_desc *d = vf_sph_get_desc(s->sph);
    vf_dfsph_ctl ctl;
    memset(out, 0, sizeof *out);
    out->substeps = base->steps;
    if (d->method == VF_SPH_PBF)
        out->iterations = base->steps * (d->pbf_iterations ? d->pbf_iterations : 6);
    if (d->method == VF_SPH_DFSPH && sph_dfsph_read_ctl(s->sph, &ctl) == VF_OK) {
        uint64_t n = ctl.substeps, it = (uint64_t)ctl.div_iterations + ctl.dens_iterations;
        out->substeps = n;
        out->iterations = it;
        out->neighbour_passes = 4 * n + 2 * it - ctl.div_capped - ctl.dens_capped +
                                (s->foam ? base->frames * SPH_FOAM_NEIGHBOUR_PASSES : 0);
        out->neighbour_counted = true;
    }
}

static const vf_solver_vtable sph_vtable = {
    .family = "sph",
    .destroy = sph_destroy,
    .frame_begin = sph_frame_begin,
    .record_substep = sph_record_substep,
    .frame_end = sph_frame_end,
    .probe_frame_end = sph_probe_frame_end,
    .frame_done = sph_frame_done,
    .export_frame = sph_export_frame,
    .write_summary = sph_write_summary,
    .check = sph_check,
    .interact = sph_interact,
    .describe = sph_describe,
    .pass_bytes = sph_pass_bytes,
    .state_bytes = sph_state_bytes,
    .export_last_good = sph_export_last_good,
    .work_stats = sph_work_stats,
    .submit_substeps = SPH_SUBMIT_SUBSTEPS,
};

vf_result vf_sph_solver_wrap(vf_sph *sph, vf_gpu *gpu, vf_solver **out)
{
    *out = NULL;
    sph_solver *s = calloc(1, sizeof *s);
    if (!s) {
        vf_sph_destroy(&sph);
        return VF_ERR_NO_MEMORY;
    }
    s->base.vt = &sph_vtable;
    s->base.gpu = gpu;
    s->base.frame_dt = vf_sph_get_desc(sph)->frame_dt;
    s->sph = sph;
    /* The initial state is the first "last good" one. */
    if (vf_sph_read(sph, false, &s->good) == VF_OK)
        s->have_good = s->base.have_good = true; /* the start is a good state: frame 0, t = 0 */
    *out = &s->base;
    return VF_OK;
}

static vf_result family_create(vf_gpu *gpu, const void *desc, vf_solver **out, const char **key, char *err, size_t cap)
{
    vf_sph *sph = NULL;
    vf_result r = vf_sph_create(gpu, desc, &sph, key, err, cap);
    if (r != VF_OK)
        return r;
    return vf_sph_solver_wrap(sph, gpu, out);
}

const vf_solver_family vf_sph_family = {.name = "sph", .create = family_create};
