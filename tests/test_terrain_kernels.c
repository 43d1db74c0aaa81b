/* Water over a terrain: every GPU kernel (tests/ref/solver_terrain_ref.c)
 * against its CPU reference on an odd-sized grid of hills with wet and dry
 * cells, random momentum, a source, a drain, rain and friction: the faces'
 * fluxes, the limits (with a substep long enough that many cells would send
 * more than they hold), the update (depths exactly, as integers, from the
 * same faces; the total changes by exactly what rain and the source add and
 * the drain takes, and no depth goes below zero), the edit (blade and brush)
 * and the slippage; the HLL flux's exactness at rest (a lake over a step
 * has no mass flux and balanced momentum fluxes). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver_terrain.h"
#include "solver_terrain_ref.h"
#include "testlib.h"

static uint32_t rng_state = 4242;

static float frand(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f;
}

/* Hills on an odd grid, a lake at mid height (wet and dry cells), a source
 * and a drain on its cells, rain, friction. */
static vf_terrain_desc base_desc(void)
{
    vf_terrain_desc d;
    vf_terrain_desc_defaults(&d);
    d.nx = 37;
    d.ny = 29;
    d.dx = 0.5;
    d.ground = VF_TERRAIN_GROUND_HILLS;
    d.relief = 3;
    d.water_level = 1.2;
    d.water_x0 = 0;
    d.water_x1 = 1;
    d.dozer = false;
    d.rain = 360; /* mm/h: a few quanta per substep */
    d.source = (vf_terrain_spot){.x = 0.3, .y = 0.4, .radius = 1.2, .rate = 0.8};
    d.drain = (vf_terrain_spot){.x = 0.7, .y = 0.6, .radius = 1.6, .rate = 0.5};
    d.manning = 0.03;
    return d;
}

typedef struct state {
    size_t n, nfx, nfy;
    float *bed, *mom, *eta, *limit, *fx, *fy;
    uint32_t *depth;
} state;

static void state_alloc(state *s, uint32_t nx, uint32_t ny)
{
    s->n = (size_t)nx * ny;
    s->nfx = (size_t)(nx + 1) * ny;
    s->nfy = (size_t)nx * (ny + 1);
    s->bed = malloc(s->n * 4);
    s->mom = malloc(s->n * 8);
    s->eta = malloc(s->n * 4);
    s->limit = malloc(s->n * 4);
    s->depth = malloc(s->n * 4);
    s->fx = malloc(s->nfx * 16);
    s->fy = malloc(s->nfy * 16);
}

static void state_free(state *s)
{
    free(s->bed), free(s->mom), free(s->eta), free(s->limit), free(s->depth), free(s->fx), free(s->fy);
}

/* Random water over the solver's ground: dry where the ground is high, up
 * to 0.8 m elsewhere, some cells a few quanta deep; momentum up to 1.5 m/s
 * times the depth. */
static void random_water(state *s)
{
    for (size_t i = 0; i < s->n; i++) {
        float r = frand();
        double h = s->bed[i] > 1.5f ? 0.0 : r < 0.1f ? 3.0 * VF_TERRAIN_QUANTUM * frand() : 0.8 * frand();
        s->depth[i] = (uint32_t)(h / VF_TERRAIN_QUANTUM);
        float hh = (float)(s->depth[i] * VF_TERRAIN_QUANTUM);
        s->mom[2 * i] = hh * 1.5f * (2.0f * frand() - 1.0f);
        s->mom[2 * i + 1] = hh * 1.5f * (2.0f * frand() - 1.0f);
    }
}

/* The largest |a - b| over n values relative to the largest |b| (at least floor). */
static double rel_diff(const float *a, const float *b, size_t n, double floor_)
{
    double m = 0, scale = floor_;
    for (size_t i = 0; i < n; i++)
        scale = fmax(scale, fabs((double)b[i]));
    for (size_t i = 0; i < n; i++) {
        double d = fabs((double)a[i] - (double)b[i]);
        if (isnan(d))
            return INFINITY;
        m = fmax(m, d);
    }
    return m / scale;
}

/* The solver of d and two 37 x 29 states (what the gpu gave, the
 * reference), st holding the solver's bed; NULL when it cannot be made. */
static vf_solver *make_states(vf_gpu *gpu, const vf_terrain_desc *d, state *st, state *ref)
{
    vf_solver *s = vf_test_terrain(gpu, d);
    if (!s)
        return NULL;
    state_alloc(st, 37, 29);
    state_alloc(ref, 37, 29);
    CHECK(vf_terrain_download(s, st->bed, NULL, NULL) == VF_OK);
    return s;
}

static uint64_t sum_depth(const uint32_t *d, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v += d[i];
    return v;
}

static void test_substep(vf_gpu *gpu, double dt_scale)
{
    printf("-- substep %g x the solver's\n", dt_scale);
    vf_terrain_desc d = base_desc();
    state st, ref;
    vf_solver *s = make_states(gpu, &d, &st, &ref);
    if (!s)
        return;
    random_water(&st);
    CHECK(vf_terrain_upload(s, NULL, st.depth, st.mom) == VF_OK);
    vf_terrain_step_push p = vf_terrain_step_params(s);
    CHECK(p.sources == 1 && p.drains == 1 && p.rain > 0 && p.source_q[0] > 0 && p.drain_q[0] > 0);
    p.dt *= (float)dt_scale;
    p.quanta *= (float)dt_scale;
    p.speed_cap /= (float)dt_scale;
    const vf_terrain_tools tools = vf_terrain_get_tools(s);

    /* flux */
    CHECK(vf_terrain_run_pass(s, VF_TERRAIN_PASS_FLUX, &p) == VF_OK);
    CHECK(vf_terrain_download_work(s, st.fx, st.fy, NULL, NULL) == VF_OK);
    vf_terrain_ref_flux(&p, st.bed, st.depth, st.mom, ref.fx, ref.fy);
    double ex = rel_diff(st.fx, ref.fx, 4 * st.nfx, 1e-3), ey = rel_diff(st.fy, ref.fy, 4 * st.nfy, 1e-3);
    printf("flux: max |gpu - cpu| / max |cpu|: x faces %.3g, y faces %.3g\n", ex, ey);
    CHECK_LE(ex, 2e-6);
    CHECK_LE(ey, 2e-6);

    /* limit, from the GPU's faces */
    CHECK(vf_terrain_run_pass(s, VF_TERRAIN_PASS_LIMIT, &p) == VF_OK);
    CHECK(vf_terrain_download_work(s, NULL, NULL, st.limit, NULL) == VF_OK);
    vf_terrain_ref_limit(&p, st.depth, st.fx, st.fy, ref.limit);
    size_t limited = 0, wrong = 0;
    for (size_t i = 0; i < st.n; i++) {
        limited += ref.limit[i] < 1.0f;
        wrong += st.limit[i] != ref.limit[i];
    }
    printf("limit: %zu of %zu cells would send more than they hold; %zu differ from the cpu\n", limited, st.n, wrong);
    CHECK_EQ_INT(wrong, 0);
    if (dt_scale > 1)
        CHECK(limited >= 10);

    /* update, from the GPU's faces and limits */
    vf_terrain_stats before = {0}, after = {0}, rs = {0};
    CHECK(vf_terrain_read_stats(s, &before) == VF_OK);
    rs = before;
    memcpy(ref.depth, st.depth, st.n * 4);
    memcpy(ref.mom, st.mom, st.n * 8);
    vf_terrain_ref_update(&p, &tools, st.bed, ref.depth, ref.mom, st.fx, st.fy, st.limit, ref.eta, &rs);
    uint64_t total0 = sum_depth(st.depth, st.n);
    CHECK(vf_terrain_run_pass(s, VF_TERRAIN_PASS_UPDATE, &p) == VF_OK);
    CHECK(vf_terrain_download(s, NULL, st.depth, st.mom) == VF_OK);
    CHECK(vf_terrain_download_work(s, NULL, NULL, NULL, st.eta) == VF_OK);
    CHECK(vf_terrain_read_stats(s, &after) == VF_OK);
    size_t depth_wrong = 0;
    uint32_t deepest = 0;
    for (size_t i = 0; i < st.n; i++) {
        depth_wrong += st.depth[i] != ref.depth[i];
        deepest = st.depth[i] > deepest ? st.depth[i] : deepest;
    }
    double em = rel_diff(st.mom, ref.mom, 2 * st.n, 1e-3), ee = rel_diff(st.eta, ref.eta, st.n, 1.0);
    printf("update: %zu depths differ; momentum %.3g, eta %.3g (relative); deepest %.4g m\n", depth_wrong, em, ee,
           deepest * VF_TERRAIN_QUANTUM);
    CHECK_EQ_INT(depth_wrong, 0);
    CHECK_LE(em, 2e-5);
    CHECK_LE(ee, 1e-6);
    CHECK(deepest * VF_TERRAIN_QUANTUM < 4.0); /* no depth wrapped below zero */
    uint64_t drained = (((uint64_t)after.drained_hi << 32) | after.drained_lo) -
                       (((uint64_t)before.drained_hi << 32) | before.drained_lo);
    uint64_t ref_drained = (((uint64_t)rs.drained_hi << 32) | rs.drained_lo) -
                           (((uint64_t)before.drained_hi << 32) | before.drained_lo);
    uint64_t added = (uint64_t)p.rain * st.n + (uint64_t)p.source_q[0] * tools.sources[0].cells;
    printf("volume: %llu -> %llu quanta, added %llu, drained %llu (cpu %llu); capped %u (cpu %u)\n",
           (unsigned long long)total0, (unsigned long long)sum_depth(st.depth, st.n), (unsigned long long)added,
           (unsigned long long)drained, (unsigned long long)ref_drained, after.capped - before.capped,
           rs.capped - before.capped);
    CHECK_EQ_U64(drained, ref_drained);
    CHECK(drained > 0);
    CHECK_EQ_U64(sum_depth(st.depth, st.n) + drained, total0 + added);
    CHECK_EQ_INT(after.capped, rs.capped);
    float gc, rc;
    memcpy(&gc, &after.cfl_bits, 4);
    memcpy(&rc, &rs.cfl_bits, 4);
    CHECK_NEAR(gc, rc, 1e-5 * rc);
    state_free(&st);
    state_free(&ref);
    vf_solver_destroy(&s);
}

static void test_edit_slip(vf_gpu *gpu)
{
    vf_test_section("edit and slippage: gpu vs cpu");
    vf_terrain_desc d = base_desc();
    d.dozer = true;
    state st, ref;
    vf_solver *s = make_states(gpu, &d, &st, &ref);
    if (!s)
        return;
    vf_terrain_edit_push ep = {.nx = 37, .ny = 29, .dx = 0.5f,
                               .flags = VF_TERRAIN_EDIT_BLADE | VF_TERRAIN_EDIT_BRUSH | VF_TERRAIN_EDIT_DOZER,
                               .blade_x = 8.3f, .blade_y = 6.1f, .blade_cos = 0.8f, .blade_sin = 0.6f,
                               .blade_half_len = 2.1f, .blade_half_width = 1.3f, .blade_level = 0.4f,
                               .brush_x = 12.2f, .brush_y = 9.0f, .brush_radius = 2.6f, .brush_delta = -0.7f,
                               .dozer_size = 2.0f};
    memcpy(ref.bed, st.bed, st.n * 4);
    vf_height_object ro = {0}, go = {0};
    vf_terrain_ref_edit(&ep, ref.bed, &ro);
    CHECK(vf_terrain_run_pass(s, VF_TERRAIN_PASS_EDIT, &ep) == VF_OK);
    CHECK(vf_terrain_download(s, st.bed, NULL, NULL) == VF_OK);
    vf_terrain_state ts;
    vf_terrain_get_state(s, &ts);
    CHECK(vf_buffer_read(ts.objects, 0, &go, sizeof go) == VF_OK);
    size_t changed = 0;
    for (size_t i = 0; i < st.n; i++)
        changed += ref.bed[i] != ts.ground0[i];
    double eb = rel_diff(st.bed, ref.bed, st.n, 1.0);
    printf("edit: %zu cells changed, max |gpu - cpu| %.3g; bulldozer at (%.3g, %.3g, %.3g) (cpu z %.3g)\n", changed, eb,
           go.x, go.y, go.z, ro.z);
    CHECK(changed > 20);
    CHECK_LE(eb, 1e-6);
    CHECK_NEAR(go.z, ro.z, 1e-5);
    CHECK_NEAR(go.heading, ro.heading, 1e-5);
    CHECK_EQ_INT(go.kind, VF_HEIGHT_OBJ_DOZER);

    /* slippage on the edited ground (the blade's cut has steep sides) */
    vf_terrain_slip_push sp = vf_terrain_slip_params(s);
    sp.rate = 0.25f;
    vf_terrain_ref_slip(&sp, st.bed, ref.bed);
    double soil0 = 0, soil1 = 0;
    for (size_t i = 0; i < st.n; i++)
        soil0 += st.bed[i];
    CHECK(vf_terrain_run_pass(s, VF_TERRAIN_PASS_SLIP, &sp) == VF_OK);
    float *after = malloc(st.n * 4);
    CHECK(vf_terrain_download(s, after, NULL, NULL) == VF_OK);
    size_t moved = 0;
    for (size_t i = 0; i < st.n; i++) {
        soil1 += after[i];
        moved += after[i] != st.bed[i];
    }
    double es = rel_diff(after, ref.bed, st.n, 1.0);
    printf("slip: %zu cells moved soil, max |gpu - cpu| %.3g, soil %.9g -> %.9g m\n", moved, es, soil0, soil1);
    CHECK(moved > 10);
    CHECK_LE(es, 1e-6);
    CHECK_NEAR(soil1, soil0, 1e-5 * st.n);
    free(after);
    state_free(&st);
    state_free(&ref);
    vf_solver_destroy(&s);
}

/* The HLL flux with the hydrostatic reconstruction at rest: a lake over a
 * bed step has no mass flux and each side's normal momentum flux is its own
 * hydrostatic push g h^2 / 2, so the update leaves it at rest; dry ground
 * above the water acts as a wall. */
static void test_rest_flux(void)
{
    vf_test_section("hll at rest");
    const float g = 9.81f;
    float f[4];
    vf_terrain_ref_hll(g, 1.5f, 0.0f, 0.0f, 0.0f, 1.0f, 0.5f, 0.0f, 0.0f, f); /* surface 1.5 on both sides */
    CHECK_NEAR(f[0], 0.0, 0.0);
    CHECK_NEAR(f[1], 0.5 * g * 1.5 * 1.5, 1e-5);
    CHECK_NEAR(f[2], 0.5 * g * 1.0 * 1.0, 1e-5);
    vf_terrain_ref_hll(g, 0.4f, 0.0f, 0.0f, 0.0f, 0.0f, 2.0f, 0.0f, 0.0f, f); /* water against dry ground above it */
    CHECK_NEAR(f[0], 0.0, 0.0);
    CHECK_NEAR(f[1], 0.5 * g * 0.4 * 0.4, 1e-6);
    CHECK_NEAR(f[2], 0.0, 0.0);
    /* the dry-bed speeds: water at rest facing a dry cell flows into it */
    vf_terrain_ref_hll(g, 1.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, f);
    CHECK(f[0] > 0.0f);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_rest_flux();
    vf_gpu *gpu = vf_test_gpu();
    vf_test_section("substep: gpu vs cpu");
    test_substep(gpu, 1.0);
    test_substep(gpu, 12.0);
    test_edit_slip(gpu);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
