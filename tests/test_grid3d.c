/* 3D grid solver kernels on the GPU against the CPU reference
 * (solver_grid3d_ref.c) on the same random inputs, for two set-ups (an
 * inflow/outflow box with a sphere, a box and a cylinder, no-slip and
 * free-slip sides, MacCormack, vorticity, viscosity; a closed free-slip box,
 * semi-Lagrangian, Jacobi, the smooth source profile), 16^3 cells, validation and synchronization
 * validation on.
 *
 * Tolerances (max |gpu - cpu| relative to max(1, max |cpu|)): 1e-5 for local
 * arithmetic (source, buoyancy, vorticity, confinement, boundary, divergence,
 * gradient, restriction, prolongation), 1e-4 for advection (a trace landing
 * within rounding of a cell edge may pick the neighbouring stencil for the
 * limiter) and for the iterative solves (diffusion sweeps, V-cycle, Jacobi:
 * fp32 rounding accumulates over sweeps).
 *
 * A triply periodic box (every side wraps) runs the same comparison, and
 * Stam's FFT pressure (VkFFT's transforms around grid3d_fft_scale) is checked
 * on a random divergent velocity: its pressure against a direct DFT in double
 * precision (1e-5 of max |p|), its residual (|b - A p| <= 2e-6 |b|, rms), the
 * divergence after the projection (<= 1e-5 of before, rms), multigrid's
 * pressure and projected velocity after 30 V-cycles on the same b (1e-4 of
 * max |p|, of max |u|), and VkFFT's dispatches in the work counters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "solver_grid3d.h"
#include "solver_grid3d_ref.h"
#include "testlib.h"

static uint64_t rng_state = 777;

/* The next random number of this test's sequence, in [0, 1). */
static float frand(void)
{
    return vf_test_randf(&rng_state);
}

static void compare(const char *what, vf_grid3d *g, vf_grid3d_field f, const float *ref, double tol)
{
    size_t n = (size_t)vf_grid3d_field_count(g, f);
    float *gpu = malloc(n * 4);
    if (!CHECK(gpu != NULL) || !CHECK(vf_grid3d_read(g, f, gpu) == VF_OK)) {
        free(gpu);
        return;
    }
    vf_test_compare(what, gpu, ref, n, 0, tol, 1.0);
    free(gpu);
}

typedef struct levels {
    int count;
    vf_g3ref lv[VF_GRID3D_MAX_LEVELS];
    uint32_t *mask[VF_GRID3D_MAX_LEVELS];
    float *x[VF_GRID3D_MAX_LEVELS], *b[VF_GRID3D_MAX_LEVELS], *r[VF_GRID3D_MAX_LEVELS];
} levels;

/* The reference V-cycle, mirroring the solver's mg_cycle. */
static void ref_cycle(levels *L, int l, const vf_grid3d_desc *d, uint32_t coarse, float omega)
{
    if (l + 1 == L->count) {
        for (uint32_t s = 0; s < coarse; s++)
            for (int c = 0; c < 2; c++)
                vf_g3ref_smooth(&L->lv[l], L->x[l], L->b[l], c, omega);
        return;
    }
    for (uint32_t s = 0; s < d->mg_pre; s++)
        for (int c = 0; c < 2; c++)
            vf_g3ref_smooth(&L->lv[l], L->x[l], L->b[l], c, 1.0f);
    vf_g3ref_residual(&L->lv[l], L->x[l], L->b[l], L->r[l]);
    vf_g3ref_restrict(&L->lv[l + 1], L->r[l], L->b[l + 1], L->x[l + 1]);
    ref_cycle(L, l + 1, d, coarse, omega);
    vf_g3ref_prolong(&L->lv[l], L->x[l + 1], L->x[l]);
    for (uint32_t s = 0; s < d->mg_post; s++)
        for (int c = 0; c < 2; c++)
            vf_g3ref_smooth(&L->lv[l], L->x[l], L->b[l], c, 1.0f);
}

static void run_setup(vf_gpu *gpu, const char *name, vf_grid3d_desc *din)
{
    vf_test_section(name);
    vf_grid3d *g = NULL;
    char err[256] = "";
    vf_result res = vf_grid3d_create(gpu, din, &g, NULL, err, sizeof err);
    if (!CHECK_MSG(res == VF_OK, "create %s: %s %s", name, vf_result_message(res), err))
        return;
    const vf_grid3d_desc *d = vf_grid3d_get_desc(g);
    size_t nc = (size_t)d->nx * d->ny * d->nz;
    uint32_t *mask = malloc(nc * 4);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_MASK, mask) == VF_OK);
    vf_g3ref r = {.nx = (int)d->nx, .ny = (int)d->ny, .nz = (int)d->nz, .h = (float)(d->width / d->nx),
                  .dt = (float)d->dt, .mask = mask};
    for (int s = 0; s < 6; s++) {
        r.sides[s] = d->sides[s];
        r.inflow[s] = d->inflow[s];
    }
    size_t nf = vf_g3ref_faces(&r), solid = 0;
    for (size_t k = 0; k < nc; k++)
        solid += mask[k] != VF_G3_CELL_FLUID;
    printf("  %zu solid cells of %zu\n", solid, nc);
    float *vel = malloc(nf * 4), *scal = malloc(2 * nc * 4), *p = malloc(nc * 4), *rhs = malloc(nc * 4);
    float *rv = malloc(nf * 4), *rv2 = malloc(nf * 4), *rs = malloc(2 * nc * 4), *rs2 = malloc(2 * nc * 4);
    float *om = malloc(4 * nc * 4), *rc = malloc(nc * 4);
    for (size_t k = 0; k < nf; k++)
        vel[k] = 2.0f * (frand() - 0.5f);
    for (size_t k = 0; k < 2 * nc; k++)
        scal[k] = frand();
    for (size_t k = 0; k < nc; k++) {
        p[k] = frand() - 0.5f;
        rhs[k] = 20.0f * (frand() - 0.5f);
    }
#define UPLOAD()                                                                                                 \
    CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK &&                                                 \
          vf_grid3d_write(g, VF_GRID3D_FIELD_SCALARS, scal) == VF_OK && vf_grid3d_write(g, VF_GRID3D_FIELD_P, p) == VF_OK && \
          vf_grid3d_write(g, VF_GRID3D_FIELD_RHS, rhs) == VF_OK)

    /* source */
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_SOURCE));
    memcpy(rs, scal, 2 * nc * 4);
    vf_g3ref_cool(&r, rs, (float)d->cooling, (float)d->ambient);
    vf_g3ref_source(&r, rs, d->source, d->source_density, d->source_temperature,
                    d->source_profile == VF_GRID3D_SOURCE_SMOOTH ? VF_G3_SOURCE_SMOOTH : VF_G3_SOURCE_UNIFORM);
    compare("source: scalars", g, VF_GRID3D_FIELD_SCALARS, rs, 1e-5);

    /* buoyancy with a push */
    float centre[4] = {0.4f, 0.5f, 0.6f, 0.2f}, acc[3] = {1.5f, -2.0f, 0.7f};
    vf_grid3d_set_push(g, centre, centre[3], acc, false);
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_BUOYANCY));
    memcpy(rv, vel, nf * 4);
    vf_g3ref_buoyancy(&r, rv, scal, (float)d->alpha, (float)d->beta, (float)d->ambient, centre, acc);
    compare("buoyancy + push: velocity", g, VF_GRID3D_FIELD_VEL, rv, 1e-5);
    vf_grid3d_set_push(g, NULL, 0, NULL, false);

    /* vorticity + confinement */
    if (d->vorticity > 0) {
        UPLOAD();
        CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_VORTICITY));
        vf_g3ref_vorticity(&r, vel, om);
        compare("vorticity", g, VF_GRID3D_FIELD_OMEGA, om, 1e-5);
        memcpy(rv, vel, nf * 4);
        vf_g3ref_confine(&r, rv, om, (float)d->vorticity);
        compare("confinement: velocity", g, VF_GRID3D_FIELD_VEL, rv, 1e-5);
    }

    /* velocity advection */
    bool mc = d->advection == VF_GRID3D_ADVECT_MACCORMACK;
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_ADVECT_VELOCITY));
    vf_g3ref_advect_vel(&r, vel, vel, rv, r.dt, 0);
    if (mc) {
        vf_g3ref_advect_vel(&r, vel, rv, rv2, r.dt, 1);
        compare("advect velocity (maccormack)", g, VF_GRID3D_FIELD_VEL, rv2, 1e-4);
    } else {
        compare("advect velocity (semi-lagr.)", g, VF_GRID3D_FIELD_VEL, rv, 1e-4);
    }

    /* diffusion */
    if (d->viscosity > 0) {
        UPLOAD();
        CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_DIFFUSE));
        memcpy(rv, vel, nf * 4);
        float a = (float)(d->viscosity * d->dt / ((double)r.h * r.h));
        for (uint32_t it = 0; it < vf_grid3d_diffuse_sweeps(g); it++)
            for (int c = 0; c < 2; c++)
                vf_g3ref_diffuse(&r, vel, rv, a, c);
        printf("  (%u sweeps, a = %.3g)\n", vf_grid3d_diffuse_sweeps(g), a);
        compare("diffusion: velocity", g, VF_GRID3D_FIELD_VEL, rv, 1e-4);
    }

    /* boundary */
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_BOUNDARY));
    memcpy(rv, vel, nf * 4);
    vf_g3ref_boundary(&r, rv);
    compare("boundary: velocity", g, VF_GRID3D_FIELD_VEL, rv, 1e-6);

    /* divergence */
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_DIVERGENCE));
    vf_g3ref_divergence(&r, vel, rc, 1.0f / r.dt);
    compare("divergence: rhs", g, VF_GRID3D_FIELD_RHS, rc, 1e-5);

    /* gradient */
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_GRADIENT));
    memcpy(rv, vel, nf * 4);
    vf_g3ref_gradient(&r, rv, p, r.dt);
    compare("gradient: velocity", g, VF_GRID3D_FIELD_VEL, rv, 1e-5);

    /* pressure: the desc's iterations */
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_PRESSURE));
    if (d->pressure == VF_GRID3D_PRESSURE_MULTIGRID) {
        levels L = {.count = (int)vf_grid3d_levels(g)};
        for (int l = 0; l < L.count; l++) {
            L.lv[l] = r;
            L.lv[l].nx = r.nx >> l;
            L.lv[l].ny = r.ny >> l;
            L.lv[l].nz = r.nz >> l;
            L.lv[l].h = r.h * (float)(1 << l);
            size_t lc = vf_g3ref_cells(&L.lv[l]);
            L.mask[l] = malloc(lc * 4);
            if (l == 0)
                memcpy(L.mask[0], mask, nc * 4);
            else
                vf_g3ref_coarsen_mask(L.lv[l - 1].nx, L.lv[l - 1].ny, L.lv[l - 1].nz, L.mask[l - 1], L.mask[l]);
            L.lv[l].mask = L.mask[l];
            L.x[l] = calloc(lc, 4);
            L.b[l] = calloc(lc, 4);
            L.r[l] = calloc(lc, 4);
        }
        memcpy(L.x[0], p, nc * 4);
        memcpy(L.b[0], rhs, nc * 4);
        float omega;
        uint32_t coarse = vf_grid3d_coarse_sweeps(g, &omega);
        for (uint32_t it = 0; it < d->pressure_iters; it++)
            ref_cycle(&L, 0, d, coarse, omega);
        printf("  (%d levels, one workgroup from level %u, residual rms %.3g -> %.3g)\n", L.count,
               vf_grid3d_tail_level(g), vf_g3ref_residual_rms(&r, p, rhs), vf_g3ref_residual_rms(&r, L.x[0], rhs));
        /* the tail kernel sums the per-level passes' terms in their order:
         * SwiftShader matches the CPU exactly, lavapipe within 2e-7 */
        compare("multigrid V-cycles: pressure", g, VF_GRID3D_FIELD_P, L.x[0], 2e-6);
        CHECK_MSG(vf_grid3d_tail_level(g) + 1 < (uint32_t)L.count, "the coarser levels run in one workgroup");
        for (int l = 0; l < L.count; l++) {
            free(L.mask[l]);
            free(L.x[l]);
            free(L.b[l]);
            free(L.r[l]);
        }
    } else {
        memcpy(rc, p, nc * 4);
        uint32_t it = d->pressure_iters + (d->pressure_iters & 1);
        for (uint32_t k = 0; k < it; k++) {
            vf_g3ref_jacobi(&r, rc, rhs, rs, 1.0f);
            memcpy(rc, rs, nc * 4);
        }
        printf("  (%u Jacobi iterations, residual rms %.3g -> %.3g)\n", it, vf_g3ref_residual_rms(&r, p, rhs),
               vf_g3ref_residual_rms(&r, rc, rhs));
        compare("jacobi: pressure", g, VF_GRID3D_FIELD_P, rc, 1e-4);
    }

    /* scalar advection */
    UPLOAD();
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_ADVECT_SCALARS));
    vf_g3ref_advect_scalar(&r, vel, scal, scal, rs, r.dt, 0);
    if (mc) {
        vf_g3ref_advect_scalar(&r, vel, scal, rs, rs2, r.dt, 1);
        compare("advect scalars (maccormack)", g, VF_GRID3D_FIELD_SCALARS, rs2, 1e-4);
    } else {
        compare("advect scalars (semi-lagr.)", g, VF_GRID3D_FIELD_SCALARS, rs, 1e-4);
    }
#undef UPLOAD
    free(vel);
    free(scal);
    free(p);
    free(rhs);
    free(rv);
    free(rv2);
    free(rs);
    free(rs2);
    free(om);
    free(rc);
    free(mask);
    vf_grid3d_destroy(&g);
}

static double rms_of(const float *a, size_t n)
{
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += (double)a[k] * a[k];
    return sqrt(s / (double)n);
}

/* The velocity projected with the pressure now in the grid (faces kept
 * equal across the wrap by the boundary pass first), read into vel_out; its
 * divergence (rms, 1/s) by the CPU reference. */
static double project(vf_grid3d *g, const vf_g3ref *r, const float *vel, float *vel_out, float *div)
{
    CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK);
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_GRADIENT));
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_VEL, vel_out) == VF_OK);
    vf_g3ref_divergence(r, vel_out, div, 1.0f);
    return rms_of(div, vf_g3ref_cells(r));
}

/* Stam's FFT pressure in the triply periodic box of nx x ny x nz cells (see
 * the file's comment); with_mg: against multigrid too (sizes it coarsens). */
static void test_fft(vf_gpu *gpu, uint32_t nx, uint32_t ny, uint32_t nz, bool with_mg)
{
    char name[96];
    snprintf(name, sizeof name, "fft pressure, triply periodic %u x %u x %u", nx, ny, nz);
    vf_test_section(name);
    vf_grid3d_desc d = {.nx = nx, .ny = ny, .nz = nz, .dt = 0.01, .pressure = VF_GRID3D_PRESSURE_FFT};
    for (int s = 0; s < 6; s++)
        d.sides[s] = VF_G3_BC_PERIODIC;
    vf_grid3d *g = vf_test_grid3d(gpu, &d);
    if (!g)
        return;
    CHECK_MSG(!with_mg || vf_grid3d_levels(g) > 1, "the fft grid keeps multigrid's levels");
    size_t nc = (size_t)nx * ny * nz;
    uint32_t *mask = calloc(nc, 4);
    vf_g3ref r = {.nx = (int)nx, .ny = (int)ny, .nz = (int)nz, .h = 1.0f / (float)nx, .dt = 0.01f, .mask = mask};
    for (int s = 0; s < 6; s++)
        r.sides[s] = VF_G3_BC_PERIODIC;
    size_t nf = vf_g3ref_faces(&r);
    float *vel = malloc(nf * 4), *v1 = malloc(nf * 4), *v2 = malloc(nf * 4), *b = malloc(nc * 4);
    float *p = malloc(nc * 4), *ref = malloc(nc * 4), *div = malloc(nc * 4), *zero = calloc(nc, 4);
    if (!CHECK(mask && vel && v1 && v2 && b && p && ref && div && zero))
        goto done;
    /* a random divergent velocity, the far faces equal to face 0 (the
     * boundary pass), its right-hand side div(u) / dt */
    for (size_t k = 0; k < nf; k++)
        vel[k] = 2.0f * (frand() - 0.5f);
    vf_g3ref_boundary(&r, vel);
    CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK);
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_DIVERGENCE));
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_RHS, b) == VF_OK);
    vf_g3ref_divergence(&r, vel, div, 1.0f);
    double div0 = rms_of(div, nc);

    vf_gpu_counters c;
    vf_gpu_counters_reset(&c);
    vf_gpu_counters_attach(gpu, &c);
    CHECK(vf_test_grid3d_pass(g, VF_GRID3D_PASS_PRESSURE));
    vf_gpu_counters_attach(gpu, NULL);
    vf_g3ref_fft_pressure(&r, b, ref);
    compare("fft: p against the DFT", g, VF_GRID3D_FIELD_P, ref, 1e-5);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_P, p) == VF_OK);
    double rr = vf_g3ref_residual_rms(&r, p, b), rb = rms_of(b, nc);
    printf("  residual: |b - A p| / |b| = %.3g (rms)\n", rr / rb);
    CHECK_MSG(rr <= 2e-6 * rb, "fft residual %.3g of |b| > 2e-6", rr / rb);
    vf_test_check_fft_counts(&c);

    /* the projection: divergence at rounding level */
    double div_fft = project(g, &r, vel, v1, div);
    printf("  fft projection: divergence %.4g -> %.3g (rms, 1/s; ratio %.2g)\n", div0, div_fft, div_fft / div0);
    CHECK_MSG(div_fft <= 1e-5 * div0, "fft projection leaves %.3g of %.3g", div_fft, div0);

    if (with_mg) {
        /* multigrid from p = 0 on the same b: the same pressure up to its mean */
        CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_P, zero) == VF_OK);
        CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_RHS, b) == VF_OK);
        CHECK(vf_test_grid3d_pressure(g, VF_GRID3D_PRESSURE_MULTIGRID, 30));
        float *mg = ref; /* the DFT's pressure is no longer needed */
        if (CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_P, mg) == VF_OK)) {
            double m = 0;
            for (size_t k = 0; k < nc; k++)
                m += mg[k];
            for (size_t k = 0; k < nc; k++)
                mg[k] -= (float)(m / (double)nc);
            double e;
            vf_test_max_diff(mg, p, nc, &e);
            double scale = vf_test_max_abs(p, nc);
            printf("  multigrid x30 against fft: max |dp| = %.3g of max |p| %.3g\n", e, scale);
            CHECK_MSG(e <= 1e-4 * scale, "multigrid and fft pressures differ by %.3g (of %.3g)", e, scale);
        }
        double div_mg = project(g, &r, vel, v2, div), du;
        vf_test_max_diff(v2, v1, nf, &du);
        double us = vf_test_max_abs(v1, nf);
        printf("  multigrid projection: divergence %.3g; max |u_mg - u_fft| = %.3g of max |u| %.3g\n", div_mg, du, us);
        CHECK_MSG(du <= 1e-4 * us, "multigrid and fft velocities differ by %.3g (of %.3g)", du, us);
    }
done:
    free(mask);
    free(vel);
    free(v1);
    free(v2);
    free(b);
    free(p);
    free(ref);
    free(div);
    free(zero);
    vf_grid3d_destroy(&g);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);

    vf_grid3d_desc a = {
        .nx = 16, .ny = 16, .nz = 16, .viscosity = 0.002, .vorticity = 0.3, .alpha = 0.8, .beta = 0.3, .ambient = 0.1,
        .advection = VF_GRID3D_ADVECT_MACCORMACK,
        .sides = {VF_G3_BC_INFLOW, VF_G3_BC_OUTFLOW, VF_G3_BC_NOSLIP, VF_G3_BC_FREESLIP, VF_G3_BC_NOSLIP, VF_G3_BC_OUTFLOW},
        .inflow = {0.7f},
        .obstacles = {{.shape = VF_GRID3D_SHAPE_SPHERE, .centre = {0.3f, 0.5f, 0.5f}, .size = {0.15f}},
                      {.shape = VF_GRID3D_SHAPE_BOX, .centre = {0.7f, 0.3f, 0.3f}, .size = {0.1f, 0.2f, 0.08f}},
                      {.shape = VF_GRID3D_SHAPE_CYLINDER, .centre = {0.6f, 0.7f, 0.7f}, .size = {0.08f, 0.25f}, .axis = 2}},
        .source_on = true, .source = {0.5f, 0.2f, 0.5f, 0.2f}, .source_density = 2.0f, .source_temperature = 3.0f,
        .cooling = 3.0,
    };
    run_setup(gpu, "inflow/outflow box, three obstacles, maccormack, multigrid, cooling", &a);

    /* 32 x 32 x 16: levels above the one-workgroup tail (from level 1 with
     * 32 KiB of shared memory, level 2 with 16 KiB) and the tail below them */
    vf_grid3d_desc c = {
        .nx = 32, .ny = 32, .nz = 16, .width = 2.0, .alpha = 1.0,
        .sides = {VF_G3_BC_NOSLIP, VF_G3_BC_OUTFLOW, VF_G3_BC_NOSLIP, VF_G3_BC_FREESLIP, VF_G3_BC_NOSLIP,
                  VF_G3_BC_NOSLIP},
        .obstacles = {{.shape = VF_GRID3D_SHAPE_SPHERE, .centre = {0.4f, 0.5f, 0.5f}, .size = {0.2f}}},
        .source_on = true, .source = {0.5f, 0.2f, 0.5f, 0.2f}, .source_density = 1.0f, .source_temperature = 2.0f,
    };
    run_setup(gpu, "32x32x16 box with an outflow side and a sphere, multigrid above and in the tail", &c);

    vf_grid3d_desc b = {
        .nx = 16, .ny = 16, .nz = 16, .alpha = 1.0, .pressure = VF_GRID3D_PRESSURE_JACOBI, .pressure_iters = 30,
        .sides = {VF_G3_BC_FREESLIP, VF_G3_BC_FREESLIP, VF_G3_BC_FREESLIP, VF_G3_BC_FREESLIP, VF_G3_BC_FREESLIP,
                  VF_G3_BC_FREESLIP},
        .source_on = true, .source = {0.5f, 0.1f, 0.5f, 0.15f}, .source_density = 1.0f, .source_temperature = 1.0f,
        .source_profile = VF_GRID3D_SOURCE_SMOOTH,
    };
    run_setup(gpu, "closed free-slip box, semi-Lagrangian, Jacobi, smooth source", &b);

    /* every side periodic: advection, diffusion, vorticity, the boundary
     * copy, the divergence, the gradient and multigrid wrap */
    vf_grid3d_desc e = {
        .nx = 16, .ny = 16, .nz = 16, .viscosity = 0.002, .vorticity = 0.3, .alpha = 0.8, .beta = 0.3, .ambient = 0.1,
        .advection = VF_GRID3D_ADVECT_MACCORMACK,
        .obstacles = {{.shape = VF_GRID3D_SHAPE_SPHERE, .centre = {0.5f, 0.5f, 0.5f}, .size = {0.2f}}},
        .source_on = true, .source = {0.5f, 0.2f, 0.5f, 0.2f}, .source_density = 2.0f, .source_temperature = 3.0f,
    };
    for (int s = 0; s < 6; s++)
        e.sides[s] = VF_G3_BC_PERIODIC;
    run_setup(gpu, "triply periodic box with a sphere, maccormack, vorticity, viscosity, multigrid", &e);

    test_fft(gpu, 16, 16, 16, true);
    test_fft(gpu, 12, 10, 8, false); /* radix 3 and 5, not a cube */

    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
