/* Grid solver kernels on the GPU against the CPU reference (solver_grid_ref.c)
 * on the same random inputs, for three boundary set-ups (walls with a lid and
 * a moving obstacle; inflow/outflow channel with a pillar; periodic box), with
 * validation and synchronization validation on; two of them again with the
 * advection reading the fields from storage buffers instead of texel views.
 *
 * Tolerances (max |gpu - cpu| relative to max(1, max |cpu|)): 2e-6 for
 * copies, masks and weights (exact), 1e-5 for local arithmetic (splat,
 * vorticity, confinement, boundary, divergence, gradient, mixing, norms),
 * 1e-4 for advection (a trace that lands within rounding of a cell edge may
 * pick the neighbouring stencil for the limiter) and for the iterative solves
 * (diffusion sweeps, V-cycle, Jacobi: fp32 rounding accumulates over sweeps). */
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "solver_grid.h"
#include "solver_grid_ref.h"
#include "testlib.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct state {
    uint32_t nx, ny;
    size_t nu, nv, nc;
    float *u, *v, *p, *rhs, *dye[3], *s, *t, *su_s, *sv_s;
    uint32_t *mask_s;
} state;

static uint64_t rng_state = 12345;

/* The next random number of this test's sequence, in [0, 1). */
static float frand(void)
{
    return vf_test_randf(&rng_state);
}

static void state_init(state *st, uint32_t nx, uint32_t ny, float h)
{
    memset(st, 0, sizeof *st);
    st->nx = nx;
    st->ny = ny;
    st->nu = (size_t)(nx + 1) * ny;
    st->nv = (size_t)nx * (ny + 1);
    st->nc = (size_t)nx * ny;
    float **arrays[] = {&st->u,  &st->v,      &st->p,      &st->rhs,    &st->s, &st->t,
                        &st->su_s, &st->sv_s, &st->dye[0], &st->dye[1], &st->dye[2]};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        *arrays[k] = calloc(k == 0 ? st->nu : k == 1 ? st->nv : st->nc, 4);
    st->mask_s = calloc(st->nc, 4);
    /* smooth velocity plus noise, O(1) */
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i <= nx; i++)
            st->u[(size_t)j * (nx + 1) + i] = sinf(0.2f * i + 0.1f) * cosf(0.15f * j) + 0.3f * (frand() - 0.5f);
    for (uint32_t j = 0; j <= ny; j++)
        for (uint32_t i = 0; i < nx; i++)
            st->v[(size_t)j * nx + i] = cosf(0.17f * i) * sinf(0.23f * j + 0.3f) + 0.3f * (frand() - 0.5f);
    for (size_t k = 0; k < st->nc; k++) {
        st->p[k] = frand() - 0.5f;
        st->rhs[k] = 10.0f * (frand() - 0.5f);
        st->s[k] = frand();
        st->t[k] = frand();
        for (int c = 0; c < 3; c++)
            st->dye[c][k] = frand();
    }
    /* a few painted solid cells with an imposed velocity (inflow cells) */
    for (int q = 0; q < 6; q++) {
        uint32_t i = 2 + (uint32_t)(frand() * (nx - 4)), j = 2 + (uint32_t)(frand() * (ny - 4));
        size_t k = (size_t)j * nx + i;
        st->mask_s[k] = VF_GRID_CELL_SOLID;
        st->su_s[k] = frand() - 0.5f;
        st->sv_s[k] = frand() - 0.5f;
    }
    (void)h;
}

/* The CPU multigrid of the GPU's hierarchy: its levels, smoothing counts and
 * coarse SOR settings (the same formula as create), started from st's
 * pressure (copied into px) with st's rhs and the face weights wx, wy. */
static bool mg_ref_setup(vf_grid_ref_mg *mg, const vf_grid_ref *r, const vf_grid_desc *gd, uint32_t levels,
                         const state *st, float *wx, float *wy, float *px, float *rres)
{
    if (!vf_grid_ref_mg_init(mg, r, levels, gd->mg_pre, gd->mg_post, 0, 0))
        return false;
    vf_grid_ref cl = vf_grid_ref_level(r, levels - 1);
    uint32_t mm = cl.nx > cl.ny ? cl.nx : cl.ny;
    mg->coarse_iters = gd->coarse_iters ? gd->coarse_iters : (2 * mm > 8 ? 2 * mm : 8);
    mg->coarse_omega = (float)(2.0 / (1.0 + sin(M_PI / (mm + 1))));
    memcpy(px, st->p, st->nc * 4);
    mg->x[0] = px;
    mg->b[0] = st->rhs;
    mg->res[0] = rres;
    mg->wx[0] = wx;
    mg->wy[0] = wy;
    vf_grid_ref_mg_weights(mg);
    return true;
}

static void state_free(state *st)
{
    void *all[] = {st->u, st->v, st->p, st->rhs, st->s, st->t, st->su_s, st->sv_s, st->mask_s, st->dye[0], st->dye[1],
                   st->dye[2]};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        free(all[k]);
}

static bool upload(vf_grid *g, const state *st)
{
    bool ok = vf_grid_write(g, VF_GRID_FIELD_U, st->u) == VF_OK && vf_grid_write(g, VF_GRID_FIELD_V, st->v) == VF_OK &&
              vf_grid_write(g, VF_GRID_FIELD_P, st->p) == VF_OK && vf_grid_write(g, VF_GRID_FIELD_RHS, st->rhs) == VF_OK &&
              vf_grid_write(g, VF_GRID_FIELD_R, st->dye[0]) == VF_OK &&
              vf_grid_write(g, VF_GRID_FIELD_G, st->dye[1]) == VF_OK &&
              vf_grid_write(g, VF_GRID_FIELD_B, st->dye[2]) == VF_OK;
    if (vf_grid_get_desc(g)->texcoords)
        ok = ok && vf_grid_write(g, VF_GRID_FIELD_S, st->s) == VF_OK && vf_grid_write(g, VF_GRID_FIELD_T, st->t) == VF_OK;
    return ok;
}

/* Compares a GPU field with the reference; prints the error. */
static void compare(const char *what, vf_grid *g, vf_grid_field f, const float *ref, double tol)
{
    vf_test_compare_grid(what, g, f, ref, tol, 1.0);
}

/* Uploads st into g and runs one pass on it, with a check on each. */
static void upload_and_run(vf_grid *g, const state *st, vf_grid_pass pass)
{
    CHECK(upload(g, st));
    CHECK(vf_test_grid_pass(g, pass));
}

/* compare of both velocity components, named "<what>: u" and "<what>: v". */
static void compare_uv(const char *what, vf_grid *g, const float *ru, const float *rv, double tol)
{
    char name[96];
    snprintf(name, sizeof name, "%s: u", what);
    compare(name, g, VF_GRID_FIELD_U, ru, tol);
    snprintf(name, sizeof name, "%s: v", what);
    compare(name, g, VF_GRID_FIELD_V, rv, tol);
}

static void compare_u32(const char *what, vf_grid *g, vf_grid_field f, const uint32_t *ref)
{
    size_t n, bad = 0;
    uint32_t w;
    uint32_t *gpu = vf_test_read_grid(g, f, &n, &w);
    if (!gpu)
        return;
    for (size_t k = 0; k < n; k++)
        bad += gpu[k] != ref[k];
    printf("  %-28s %zu of %zu differ\n", what, bad, n);
    CHECK_MSG(bad == 0, "%s: %zu of %zu cells differ", what, bad, n);
    free(gpu);
}

/* Tolerance of the V-cycle comparisons (of the scale). The kernels sum the
 * CPU's terms in the CPU's order, and lavapipe (both widths) and SwiftShader
 * match the reference exactly; 2e-6 leaves a device room to round each
 * multiply-add once (an FMA), and is well below what smoothing in another
 * order gives (1.8e-5 when a tiled dispatch starts with the wrong colour in
 * the 10 + 3 sweeps case). */
#define VCYCLE_TOL 2e-6

/* `iters` Jacobi iterations on the GPU (several per dispatch, an even count
 * of dispatches) against as many CPU iterations, from the state's p and rhs. */
static void check_jacobi(vf_gpu *gpu, vf_grid *g, const vf_grid_ref *r, const state *st, const float *wx,
                         const float *wy, uint32_t iters)
{
    size_t nc = st->nc;
    float *px = malloc(nc * 4), *out = malloc(nc * 4);
    if (!CHECK(px && out) || !CHECK(upload(g, st))) {
        free(px);
        free(out);
        return;
    }
    VkCommandBuffer cmd;
    if (CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
        vf_cmd_barrier_transfer_to_compute(cmd);
        vf_grid_record_pressure_iterations(g, cmd, VF_GRID_PRESSURE_JACOBI, iters);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    }
    memcpy(px, st->p, nc * 4);
    for (uint32_t it = 0; it < iters; it++) {
        vf_grid_ref_jacobi(r, px, st->rhs, wx, wy, out);
        memcpy(px, out, nc * 4);
    }
    char what[64];
    snprintf(what, sizeof what, "jacobi x%u (%u dispatches): p", iters, vf_grid_jacobi_dispatches(g, iters));
    compare(what, g, VF_GRID_FIELD_P, px, 1e-4);
    free(px);
    free(out);
}

/* The CPU reference's grid for a solver's desc: size, cell, step, sides and
 * side velocities. */
static vf_grid_ref ref_for(const vf_grid_desc *gd)
{
    vf_grid_ref r = {.nx = gd->nx, .ny = gd->ny, .h = (float)(gd->width / gd->nx), .dt = (float)gd->dt};
    for (int s = 0; s < 4; s++) {
        r.sides[s] = gd->sides[s];
        r.side_u[s] = gd->side_u[s];
        r.side_v[s] = gd->side_v[s];
    }
    return r;
}

static void test_setup(vf_gpu *gpu, const char *name, vf_grid_desc *d)
{
    vf_test_section(name);
    vf_grid *g = NULL;
    char err[256] = "";
    vf_result res = vf_grid_create(gpu, d, &g, NULL, err, sizeof err);
    if (!CHECK_MSG(res == VF_OK, "create %s: %s %s", name, vf_result_message(res), err))
        return;
    const vf_grid_desc *gd = vf_grid_get_desc(g);
    vf_grid_ref r = ref_for(gd);
    state st;
    state_init(&st, r.nx, r.ny, r.h);
    size_t nu = st.nu, nv = st.nv, nc = st.nc;
    float *ru = malloc(nu * 4), *rv = malloc(nv * 4), *ru2 = malloc(nu * 4), *rv2 = malloc(nv * 4);
    float *hu = malloc(nu * 4), *hv = malloc(nv * 4), *wx = malloc(nu * 4), *wy = malloc(nv * 4);
    float *su = malloc(nc * 4), *sv = malloc(nc * 4), *om = malloc(nc * 4), *tmp = malloc(nc * 4);
    float *dyo[3], *dyh[3];
    uint32_t *mask = malloc(nc * 4);
    for (int c = 0; c < 3; c++) {
        dyo[c] = malloc(nc * 4);
        dyh[c] = malloc(nc * 4);
    }

    /* obstacles: static shapes drawn by create + painted cells + the mover */
    uint32_t *ms = malloc(nc * 4);
    float *sus = malloc(nc * 4), *svs = malloc(nc * 4);
    CHECK(vf_grid_read(g, VF_GRID_FIELD_MASK_STATIC, ms) == VF_OK);
    CHECK(vf_grid_read(g, VF_GRID_FIELD_SU_STATIC, sus) == VF_OK);
    CHECK(vf_grid_read(g, VF_GRID_FIELD_SV_STATIC, svs) == VF_OK);
    for (size_t k = 0; k < nc; k++)
        if (st.mask_s[k]) {
            ms[k] = st.mask_s[k];
            sus[k] = st.su_s[k];
            svs[k] = st.sv_s[k];
        }
    CHECK(vf_grid_write(g, VF_GRID_FIELD_MASK_STATIC, ms) == VF_OK);
    CHECK(vf_grid_write(g, VF_GRID_FIELD_SU_STATIC, sus) == VF_OK);
    CHECK(vf_grid_write(g, VF_GRID_FIELD_SV_STATIC, svs) == VF_OK);
    CHECK(vf_test_grid_pass(g, VF_GRID_PASS_OBSTACLES));
    const vf_grid_mover *m = &gd->mover;
    float w = 2.0f * (float)M_PI * m->freq;
    vf_grid_ref_obstacles(&r, ms, sus, svs, (uint32_t)m->shape, m->cx, m->cy, m->radius, m->amp * w * m->dx,
                          m->amp * w * m->dy, mask, su, sv);
    compare_u32("obstacles: mask", g, VF_GRID_FIELD_MASK, mask);
    compare("obstacles: solid u", g, VF_GRID_FIELD_SU, su, 2e-6);
    compare("obstacles: solid v", g, VF_GRID_FIELD_SV, sv, 2e-6);
    vf_grid_ref_weights(&r, mask, wx, wy);
    compare("weights: wx", g, VF_GRID_FIELD_WX, wx, 0);
    compare("weights: wy", g, VF_GRID_FIELD_WY, wy, 0);
    size_t solid = 0;
    for (size_t k = 0; k < nc; k++)
        solid += mask[k] != 0;
    printf("  %zu solid cells of %zu\n", solid, nc);

    /* splat (+ buoyancy, stripes) */
    upload_and_run(g, &st, VF_GRID_PASS_SPLAT);
    const vf_grid_source *src = &gd->source;
    vf_grid_ref_splat sp = {.cx = src->cx, .cy = src->cy, .radius = src->radius, .fx = src->fx, .fy = src->fy,
                            .buoyancy = (float)gd->buoyancy, .r = src->r, .g = src->g, .b = src->b,
                            .stripes = gd->inflow_stripes};
    if (src->on)
        sp.mode |= VF_GRID_SPLAT_VELOCITY | VF_GRID_SPLAT_DYE;
    if (gd->buoyancy != 0)
        sp.mode |= VF_GRID_SPLAT_BUOYANCY;
    if (gd->inflow_stripes)
        sp.mode |= VF_GRID_SPLAT_STRIPES;
    vf_grid_ref_splat_apply(&r, &sp, st.u, st.v, (const float *const *)st.dye, wx, wy, mask, ru, rv, dyo);
    compare_uv("splat", g, ru, rv, 1e-5);
    compare("splat: dye r", g, VF_GRID_FIELD_R, dyo[0], 1e-5);
    compare("splat: dye b", g, VF_GRID_FIELD_B, dyo[2], 1e-5);

    /* vorticity + confinement */
    upload_and_run(g, &st, VF_GRID_PASS_VORTICITY);
    vf_grid_ref_vorticity(&r, st.u, st.v, om);
    compare("vorticity", g, VF_GRID_FIELD_OMEGA, om, 1e-5);
    vf_grid_ref_confine(&r, (float)gd->vorticity, st.u, st.v, om, wx, wy, ru, rv);
    compare_uv("confinement", g, ru, rv, 1e-5);

    /* velocity advection */
    bool mc = gd->advection == VF_GRID_ADVECT_MACCORMACK;
    upload_and_run(g, &st, VF_GRID_PASS_ADVECT_VELOCITY);
    vf_grid_ref_advect_velocity(&r, mc, st.u, st.v, wx, wy, mask, su, sv, hu, hv, ru, rv);
    compare_uv(mc ? "advect velocity maccormack" : "advect velocity", g, ru, rv, 1e-4);

    /* diffusion */
    upload_and_run(g, &st, VF_GRID_PASS_DIFFUSE);
    float alpha = (float)(gd->viscosity * gd->dt / ((double)r.h * r.h));
    float omega;
    uint32_t sweeps = vf_grid_diffuse_sweeps(g, &omega);
    CHECK(sweeps == gd->diffuse_iters && omega > 1.0f && omega < 2.0f);
    vf_grid_ref_diffuse(&r, 0, alpha, omega, sweeps, st.u, wx, ru);
    vf_grid_ref_diffuse(&r, 1, alpha, omega, sweeps, st.v, wy, rv);
    compare_uv("diffuse", g, ru, rv, 1e-4);

    /* boundary */
    upload_and_run(g, &st, VF_GRID_PASS_BOUNDARY);
    vf_grid_ref_boundary(&r, st.u, st.v, wx, wy, mask, su, sv, ru, rv);
    compare_uv("boundary", g, ru, rv, 2e-6);

    /* divergence */
    upload_and_run(g, &st, VF_GRID_PASS_DIVERGENCE);
    vf_grid_ref_divergence(&r, st.u, st.v, mask, 1.0f / r.dt, tmp);
    compare("divergence (rhs)", g, VF_GRID_FIELD_RHS, tmp, 1e-5);

    /* gradient */
    upload_and_run(g, &st, VF_GRID_PASS_GRADIENT);
    vf_grid_ref_gradient(&r, st.u, st.v, st.p, wx, wy, ru, rv);
    compare_uv("gradient", g, ru, rv, 1e-5);

    /* multigrid V-cycle and Jacobi on the random rhs, warm start = random p */
    vf_grid_ref_mg mg;
    uint32_t levels = vf_grid_levels(g);
    float *px = malloc(nc * 4), *rres = malloc(nc * 4);
    CHECK(mg_ref_setup(&mg, &r, gd, levels, &st, wx, wy, px, rres));
    CHECK(upload(g, &st));
    {
        VkCommandBuffer cmd;
        CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
        vf_cmd_barrier_transfer_to_compute(cmd);
        vf_grid_record_vcycle(g, cmd);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    }
    vf_grid_ref_vcycle(&mg);
    compare("multigrid V-cycle: p", g, VF_GRID_FIELD_P, px, VCYCLE_TOL);
    printf("  (%u levels, coarsest %u x %u, %u SOR sweeps, one workgroup from level %u)\n", levels,
           mg.level[levels - 1].nx, mg.level[levels - 1].ny, mg.coarse_iters, vf_grid_tail_level(g));
    /* Jacobi: a few iterations per dispatch; then more than one dispatch
     * pair's worth (the largest halos, iterations spread unevenly) */
    check_jacobi(gpu, g, &r, &st, wx, wy, 4);
    check_jacobi(gpu, g, &r, &st, wx, wy, 38);
    /* the norms of a whole solve: rhs, residual before and after */
    CHECK(upload(g, &st));
    {
        VkCommandBuffer cmd;
        CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
        vf_cmd_barrier_transfer_to_compute(cmd);
        vf_grid_record_pressure(g, cmd, NULL, VF_GRID_PRESSURE_MULTIGRID, 2, 0);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    }
    vf_grid_stats sts;
    CHECK(vf_grid_read_stats(g, &sts) == VF_OK);
    double rhs_rms = vf_grid_ref_rms(&r, st.rhs, mask, r.dt);
    memcpy(tmp, st.rhs, nc * 4);
    if (gd->closed_mean) {
        double s = 0, n = 0;
        for (size_t k = 0; k < nc; k++)
            if (!mask[k]) {
                s += tmp[k];
                n++;
            }
        for (size_t k = 0; k < nc; k++)
            if (!mask[k])
                tmp[k] -= (float)(s / n);
    }
    vf_grid_ref_residual(&r, st.p, tmp, wx, wy, rres);
    double res_rms = vf_grid_ref_rms(&r, rres, mask, r.dt);
    printf("  norms: rhs gpu %.6g cpu %.6g; residual before gpu %.6g cpu %.6g; after %.3g\n", sts.div_before, rhs_rms,
           sts.res_before, res_rms, sts.res_after);
    CHECK_REL(sts.div_before, rhs_rms, 1e-5, 1e-30);
    CHECK_REL(sts.res_before, res_rms, 1e-4, 1e-30);
    CHECK(sts.res_after < sts.res_before);
    free(px);
    free(rres);
    vf_grid_ref_mg_free(&mg);

    /* scalar advection (dye, texture coordinates) */
    upload_and_run(g, &st, VF_GRID_PASS_ADVECT_SCALARS);
    vf_grid_ref_advect_scalars(&r, mc, st.u, st.v, mask, 3, (const float *const *)st.dye, dyh, dyo);
    compare(mc ? "advect dye maccormack: r" : "advect dye: r", g, VF_GRID_FIELD_R, dyo[0], 1e-4);
    compare(mc ? "advect dye maccormack: g" : "advect dye: g", g, VF_GRID_FIELD_G, dyo[1], 1e-4);
    compare(mc ? "advect dye maccormack: b" : "advect dye: b", g, VF_GRID_FIELD_B, dyo[2], 1e-4);
    if (gd->texcoords) {
        const float *tsrc[2] = {st.s, st.t};
        vf_grid_ref_advect_scalars(&r, mc, st.u, st.v, mask, 2, tsrc, dyh, dyo);
        compare("advect texcoords: s", g, VF_GRID_FIELD_S, dyo[0], 1e-4);
        compare("advect texcoords: t", g, VF_GRID_FIELD_T, dyo[1], 1e-4);
    }

    /* dye mixing */
    upload_and_run(g, &st, VF_GRID_PASS_DYE_MIX);
    vf_grid_ref_dye_mix(&r, (float)gd->dye_mix, mask, (const float *const *)st.dye, dyo);
    compare("dye mix: r", g, VF_GRID_FIELD_R, dyo[0], 1e-5);
    compare("dye mix: g", g, VF_GRID_FIELD_G, dyo[1], 1e-5);

    /* the divergence norm after a projection (measure pass) */
    upload_and_run(g, &st, VF_GRID_PASS_MEASURE);
    CHECK(vf_grid_read_stats(g, &sts) == VF_OK);
    vf_grid_ref_divergence(&r, st.u, st.v, mask, 1.0f, tmp);
    double div_rms = vf_grid_ref_rms(&r, tmp, mask, 1.0f);
    printf("  divergence norm gpu %.6g cpu %.6g\n", sts.div_after, div_rms);
    CHECK_REL(sts.div_after, div_rms, 1e-5, 1e-30);

    free(ru);
    free(rv);
    free(ru2);
    free(rv2);
    free(hu);
    free(hv);
    free(wx);
    free(wy);
    free(su);
    free(sv);
    free(om);
    free(tmp);
    free(mask);
    free(ms);
    free(sus);
    free(svs);
    for (int c = 0; c < 3; c++) {
        free(dyo[c]);
        free(dyh[c]);
    }
    state_free(&st);
    vf_grid_destroy(&g);
}

/* Two V-cycles and Jacobi iterations on a domain without solid cells (the
 * open-domain pressure kernels, the face weights never read) against the CPU
 * V-cycle and Jacobi, random rhs, warm start = random p. */
static void test_vcycle_open(vf_gpu *gpu, const char *name, vf_grid_desc *d)
{
    vf_test_section(name);
    d->pressure = VF_GRID_PRESSURE_MULTIGRID;
    vf_grid *g = NULL;
    char err[256] = "";
    if (!CHECK_MSG(vf_grid_create(gpu, d, &g, NULL, err, sizeof err) == VF_OK, "create %s: %s", name, err))
        return;
    const vf_grid_desc *gd = vf_grid_get_desc(g);
    vf_grid_ref r = {.nx = gd->nx, .ny = gd->ny, .h = (float)(gd->width / gd->nx), .dt = (float)gd->dt};
    for (int s = 0; s < 4; s++)
        r.sides[s] = gd->sides[s];
    state st;
    state_init(&st, r.nx, r.ny, r.h);
    size_t nc = st.nc;
    uint32_t *mask = calloc(nc, 4);
    float *wx = malloc(st.nu * 4), *wy = malloc(st.nv * 4), *px = malloc(nc * 4), *rres = malloc(nc * 4);
    vf_grid_ref_weights(&r, mask, wx, wy);
    uint32_t levels = vf_grid_levels(g);
    vf_grid_ref_mg mg;
    CHECK(mg_ref_setup(&mg, &r, gd, levels, &st, wx, wy, px, rres));
    CHECK(upload(g, &st));
    VkCommandBuffer cmd;
    if (CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
        vf_cmd_barrier_transfer_to_compute(cmd);
        vf_grid_record_pressure_iterations(g, cmd, VF_GRID_PRESSURE_MULTIGRID, 2);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    }
    vf_grid_ref_vcycle(&mg);
    vf_grid_ref_vcycle(&mg);
    compare("2 V-cycles, no solids: p", g, VF_GRID_FIELD_P, px, VCYCLE_TOL);
    printf("  (%u levels, one workgroup from level %u)\n", levels, vf_grid_tail_level(g));
    /* Jacobi without solids: the open variant (weights from the sides) */
    check_jacobi(gpu, g, &r, &st, wx, wy, 6);
    check_jacobi(gpu, g, &r, &st, wx, wy, 38);
    vf_grid_ref_mg_free(&mg);
    free(mask);
    free(wx);
    free(wy);
    free(px);
    free(rres);
    state_free(&st);
    vf_grid_destroy(&g);
}

/* Advection and the boundary pass without solid cells: the open variants
 * (every cell fluid, the face weights from the sides) against the CPU
 * reference with its all-fluid mask and weights, semi-Lagrangian and
 * MacCormack. */
static void test_transport_open(vf_gpu *gpu, const char *name, vf_grid_desc *d)
{
    for (int mc = 0; mc < 2; mc++) {
        char section[160];
        snprintf(section, sizeof section, "%s, %s", name, mc ? "maccormack" : "semi-lagrangian");
        vf_test_section(section);
        d->advection = mc ? VF_GRID_ADVECT_MACCORMACK : VF_GRID_ADVECT_SEMI_LAGRANGIAN;
        vf_grid *g = NULL;
        char err[256] = "";
        if (!CHECK_MSG(vf_grid_create(gpu, d, &g, NULL, err, sizeof err) == VF_OK, "create %s: %s", name, err))
            return;
        const vf_grid_desc *gd = vf_grid_get_desc(g);
        vf_grid_ref r = ref_for(gd);
        state st;
        state_init(&st, r.nx, r.ny, r.h);
        size_t nc = st.nc;
        uint32_t *mask = calloc(nc, 4);
        float *wx = malloc(st.nu * 4), *wy = malloc(st.nv * 4), *su = calloc(nc, 4), *sv = calloc(nc, 4);
        float *ru = malloc(st.nu * 4), *rv = malloc(st.nv * 4), *hu = malloc(st.nu * 4), *hv = malloc(st.nv * 4);
        float *dyo[3], *dyh[3];
        for (int c = 0; c < 3; c++) {
            dyo[c] = malloc(nc * 4);
            dyh[c] = malloc(nc * 4);
        }
        vf_grid_ref_weights(&r, mask, wx, wy);
        upload_and_run(g, &st, VF_GRID_PASS_ADVECT_VELOCITY);
        vf_grid_ref_advect_velocity(&r, mc, st.u, st.v, wx, wy, mask, su, sv, hu, hv, ru, rv);
        compare_uv("open advect velocity", g, ru, rv, 1e-4);
        upload_and_run(g, &st, VF_GRID_PASS_BOUNDARY);
        vf_grid_ref_boundary(&r, st.u, st.v, wx, wy, mask, su, sv, ru, rv);
        compare_uv("open boundary", g, ru, rv, 2e-6);
        upload_and_run(g, &st, VF_GRID_PASS_ADVECT_SCALARS);
        vf_grid_ref_advect_scalars(&r, mc, st.u, st.v, mask, 3, (const float *const *)st.dye, dyh, dyo);
        compare("open advect dye: r", g, VF_GRID_FIELD_R, dyo[0], 1e-4);
        compare("open advect dye: b", g, VF_GRID_FIELD_B, dyo[2], 1e-4);
        for (int c = 0; c < 3; c++) {
            free(dyo[c]);
            free(dyh[c]);
        }
        free(mask);
        free(wx);
        free(wy);
        free(su);
        free(sv);
        free(ru);
        free(rv);
        free(hu);
        free(hv);
        state_free(&st);
        vf_grid_destroy(&g);
    }
}

/* The device-memory check every grid family runs before allocating: what
 * fits passes, a buffer beyond maxStorageBufferRange or a total beyond 90 %
 * of the device memory gets one line naming the key and the caller's fix. */
static void test_fit(vf_gpu *gpu)
{
    vf_test_section("device memory fit check");
    char err[512] = "";
    const char *key = NULL;
    const uint64_t range = gpu->info.max_storage_buffer_range, have = gpu->info.device_local_bytes;
    CHECK(vf_solver_check_fit(gpu, 1u << 20, 1u << 16, "n", "16 x 16 cells", "use a smaller n", &key, err, sizeof err) ==
          VF_OK);
    CHECK(key == NULL);
    CHECK(vf_solver_check_fit(gpu, range + 1, range + 1, "n", "9 x 9 cells", "use a smaller n", &key, err, sizeof err) ==
          VF_ERR_TOO_LARGE);
    CHECK_STR_CONTAINS(err, "n: 9 x 9 cells need");
    CHECK_STR_CONTAINS(err, "(maxStorageBufferRange): use a smaller n");
    CHECK(key && !strcmp(key, "n")); /* the key comes back apart from the text */
    if (have) {
        err[0] = 0;
        CHECK(vf_solver_check_fit(gpu, have, 1u << 16, "n", "7 x 7 cells", "use a smaller n", NULL, err, sizeof err) ==
              VF_ERR_TOO_LARGE);
        CHECK_STR_CONTAINS(err, "n: 7 x 7 cells need");
    }
    key = NULL;
    CHECK(vf_solver_alloc_failed(gpu, VF_ERR_OUT_OF_DEVICE_MEMORY, 1u << 30, "nx", "5 x 5 cells", "use a smaller nx or ny",
                                 &key, err, sizeof err) == VF_ERR_TOO_LARGE);
    CHECK_STR_CONTAINS(err, "nx: 5 x 5 cells need 1.0 GiB of device memory");
    CHECK_STR_CONTAINS(err, "cannot allocate it: use a smaller nx or ny"); /* the caller's fix, not a fixed one */
    CHECK(key && !strcmp(key, "nx"));
    CHECK(vf_solver_alloc_failed(gpu, VF_ERR_INVALID_ARG, 1, "n", "", "use a smaller n", NULL, err, sizeof err) ==
          VF_ERR_INVALID_ARG);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    test_fit(gpu);

    /* A: closed box, no-slip walls, a moving lid and a moving disc, MacCormack,
     * texture coordinates; 48 x 32 cells (rectangular) */
    vf_grid_desc a = {.nx = 48, .ny = 32, .width = 1.5, .dt = 0.02, .viscosity = 0.004, .diffuse_iters = 6,
                      .advection = VF_GRID_ADVECT_MACCORMACK, .vorticity = 0.8, .buoyancy = 1.5, .dye_mix = 0.3,
                      .texcoords = true};
    a.side_u[VF_GRID_SIDE_TOP] = 1.0f;
    a.mover = (vf_grid_mover){.shape = VF_GRID_SHAPE_DISC, .cx = 0.7f, .cy = 0.5f, .radius = 0.12f, .amp = 0.2f,
                              .freq = 0.5f, .dx = 0.6f, .dy = 0.8f};
    a.source = (vf_grid_source){.on = true, .cx = 0.4f, .cy = 0.3f, .radius = 0.1f, .fx = 3.0f, .fy = 5.0f,
                                .r = 1.0f, .g = 0.5f, .b = 2.0f};
    test_setup(gpu, "walls + lid + moving disc + maccormack (48x32)", &a);

    /* B: channel: inflow left, outflow right, free-slip top/bottom, a square
     * pillar, semi-Lagrangian, dye stripes */
    vf_grid_desc b = {.nx = 64, .ny = 32, .width = 2.0, .dt = 0.03, .viscosity = 0.002, .diffuse_iters = 5,
                      .vorticity = 0.5, .dye_mix = 0.1, .inflow_stripes = 8};
    b.sides[VF_GRID_SIDE_LEFT] = VF_GRID_BC_INFLOW;
    b.sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_OUTFLOW;
    b.sides[VF_GRID_SIDE_BOTTOM] = b.sides[VF_GRID_SIDE_TOP] = VF_GRID_BC_FREESLIP;
    b.side_u[VF_GRID_SIDE_LEFT] = 1.0f;
    b.side_v[VF_GRID_SIDE_LEFT] = 0.1f;
    b.obstacles[0] = (vf_grid_obstacle){.shape = VF_GRID_SHAPE_BOX, .cx = 0.6f, .cy = 0.5f, .radius = 0.1f};
    test_setup(gpu, "channel: inflow/outflow/free-slip + pillar (64x32)", &b);

    /* C: periodic in both directions, a static disc obstacle */
    vf_grid_desc c = {.nx = 32, .ny = 32, .dt = 0.02, .viscosity = 0.003, .diffuse_iters = 4,
                      .advection = VF_GRID_ADVECT_MACCORMACK, .vorticity = 0.3, .dye_mix = 0.5};
    for (int s = 0; s < 4; s++)
        c.sides[s] = VF_GRID_BC_PERIODIC;
    c.obstacles[0] = (vf_grid_obstacle){.shape = VF_GRID_SHAPE_DISC, .cx = 0.5f, .cy = 0.5f, .radius = 0.15f};
    c.source = (vf_grid_source){.on = true, .cx = 0.05f, .cy = 0.95f, .radius = 0.1f, .fx = 3.0f, .fy = -2.0f,
                                .r = 1.0f};
    test_setup(gpu, "periodic box + disc (32x32)", &c);

    /* A and C with the advection reading the fields from the storage buffers
     * (the path of devices that cannot address them as texels) */
    a.buffer_reads = c.buffer_reads = true;
    test_setup(gpu, "walls + lid + moving disc + maccormack (48x32), storage-buffer reads", &a);
    test_setup(gpu, "periodic box + disc (32x32), storage-buffer reads", &c);

    /* D: closed box with painted solid cells, 160 x 128: five levels, the
     * coarser ones V-cycled by one workgroup, the finer ones by the
     * per-level passes */
    vf_grid_desc e = {.nx = 160, .ny = 128, .width = 1.25, .dt = 0.01, .viscosity = 0.002, .diffuse_iters = 3,
                      .vorticity = 0.4};
    e.side_u[VF_GRID_SIDE_TOP] = 0.5f;
    e.source = (vf_grid_source){.on = true, .cx = 0.6f, .cy = 0.3f, .radius = 0.1f, .fx = 2.0f, .fy = 4.0f, .g = 1.0f};
    test_setup(gpu, "walls + lid + painted cells (160x128)", &e);

    /* the V-cycle of domains without solid cells (the open-domain kernels):
     * walls with levels above the one-workgroup tail; periodic; outflow */
    vf_grid_desc o1 = {.nx = 160, .ny = 128, .width = 1.25, .dt = 0.01};
    test_vcycle_open(gpu, "open V-cycle: walls (160x128)", &o1);
    /* more sweeps than one tiled dispatch takes (R / 4 half-sweeps, R = 64
     * on lavapipe, 32 at the minimum limits): 20 half-sweeps in 3
     * dispatches of 7, 7 and 6, the second starting with black; an odd
     * count of post sweeps */
    vf_grid_desc o4 = {.nx = 160, .ny = 128, .width = 1.25, .dt = 0.01, .mg_pre = 10, .mg_post = 3};
    test_vcycle_open(gpu, "open V-cycle: walls, 10 + 3 sweeps (160x128)", &o4);
    vf_grid_desc o2 = {.nx = 128, .ny = 64, .dt = 0.01};
    for (int s = 0; s < 4; s++)
        o2.sides[s] = VF_GRID_BC_PERIODIC;
    test_vcycle_open(gpu, "open V-cycle: periodic (128x64)", &o2);
    vf_grid_desc o3 = {.nx = 96, .ny = 64, .dt = 0.01};
    o3.sides[VF_GRID_SIDE_LEFT] = VF_GRID_BC_INFLOW;
    o3.sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_OUTFLOW;
    test_vcycle_open(gpu, "open V-cycle: inflow/outflow (96x64)", &o3);

    /* advection and the boundary pass of domains without solid cells */
    vf_grid_desc t1 = {.nx = 48, .ny = 32, .width = 1.5, .dt = 0.02};
    t1.side_u[VF_GRID_SIDE_TOP] = 1.0f;
    test_transport_open(gpu, "open transport: walls + lid (48x32)", &t1);
    vf_grid_desc t2 = {.nx = 32, .ny = 32, .dt = 0.02};
    for (int s = 0; s < 4; s++)
        t2.sides[s] = VF_GRID_BC_PERIODIC;
    test_transport_open(gpu, "open transport: periodic (32x32)", &t2);
    vf_grid_desc t3 = {.nx = 64, .ny = 32, .width = 2.0, .dt = 0.03};
    t3.sides[VF_GRID_SIDE_LEFT] = VF_GRID_BC_INFLOW;
    t3.sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_OUTFLOW;
    t3.sides[VF_GRID_SIDE_BOTTOM] = t3.sides[VF_GRID_SIDE_TOP] = VF_GRID_BC_FREESLIP;
    t3.side_u[VF_GRID_SIDE_LEFT] = 1.0f;
    test_transport_open(gpu, "open transport: inflow/outflow/free-slip (64x32)", &t3);

    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
