/* The 2D grid's other methods from the papers, their kernels against the CPU
 * reference (solver_grid_ref.c) with validation and synchronization
 * validation on:
 *  - Klein et al. 2003: donor-cell convection (grid_donor_cell) and a fixed
 *    count of symmetric SOR iterations in lexicographic order (grid_ssor,
 *    one workgroup along the anti-diagonals);
 *  - Chen & Lobo 1997: the penalty pressure's explicit sub-steps
 *    (grid_penalty) in one workgroup (the whole domain) and in tiles with
 *    halos over several dispatches, then the velocity and the pressure
 *    after them (gradient with the sum, divergence / -eps);
 *  - Stam: the FFT pressure (VkFFT's transforms around grid_fft_scale) on a
 *    doubly periodic box against a plain DFT in double precision, against
 *    multigrid run to convergence, and the divergence after the projection;
 *    the work counters see VkFFT's dispatches.
 * and the bad input of each (one line, exit 2, before any GPU work).
 *
 * Tolerances (max |gpu - cpu| relative to max(1, max |cpu|)): 1e-5 for the
 * donor-cell step (local arithmetic); 1e-4 for SSOR (over-relaxed sweeps
 * amplify a rounding by up to omega per sweep); 2e-5 of the velocity's
 * largest correction for the penalty (hundreds of sub-steps summed in fp32
 * give 1e-6 to 2e-6), and for its pressure -div(u) / eps what that allows,
 * 4 x 2e-5 max |correction| / (h eps); 1e-5 of max |p| for the FFT
 * pressure (fp32 transforms of a few thousand points) and 1e-4 between the
 * FFT's and multigrid's pressures (multigrid converged to 1e-7). */
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "gpu_fft.h"
#include "solver_grid.h"
#include "solver_grid_ref.h"
#include "testlib.h"

static uint64_t rng_state = 777;

/* The next random number of this test's sequence, in [0, 1). */
static float frand(void)
{
    return vf_test_randf(&rng_state);
}

/* The grid's fields a kernel test reads back, and the reference's domain. */
typedef struct setup {
    vf_grid *g;
    vf_grid_ref r;
    size_t nu, nv, nc;
    float *u, *v, *p, *b, *wx, *wy;
    uint32_t *mask;
} setup;

static void setup_free(setup *s)
{
    void *all[] = {s->u, s->v, s->p, s->b, s->wx, s->wy, s->mask};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++)
        free(all[k]);
    vf_grid_destroy(&s->g);
}

/* Creates the grid, paints a few solid cells unless `open`, runs the
 * obstacles pass and uploads random u, v, p and b (b with zero mean over
 * the fluid cells); reads the mask and weights back. */
static bool setup_make(vf_gpu *gpu, vf_grid_desc *d, bool open, setup *s)
{
    memset(s, 0, sizeof *s);
    if (!(s->g = vf_test_grid(gpu, d)))
        return false;
    const vf_grid_desc *gd = vf_grid_get_desc(s->g);
    s->r = (vf_grid_ref){.nx = gd->nx, .ny = gd->ny, .h = (float)(gd->width / gd->nx), .dt = (float)gd->dt};
    for (int q = 0; q < 4; q++) {
        s->r.sides[q] = gd->sides[q];
        s->r.side_u[q] = gd->side_u[q];
        s->r.side_v[q] = gd->side_v[q];
    }
    uint32_t nx = gd->nx, ny = gd->ny;
    s->nu = (size_t)(nx + 1) * ny;
    s->nv = (size_t)nx * (ny + 1);
    s->nc = (size_t)nx * ny;
    s->u = malloc(s->nu * 4);
    s->v = malloc(s->nv * 4);
    s->p = malloc(s->nc * 4);
    s->b = malloc(s->nc * 4);
    s->wx = malloc(s->nu * 4);
    s->wy = malloc(s->nv * 4);
    s->mask = calloc(s->nc, 4);
    if (!CHECK(s->u && s->v && s->p && s->b && s->wx && s->wy && s->mask))
        return false;
    if (!open) {
        for (int q = 0; q < 5; q++)
            s->mask[(size_t)(3 + (uint32_t)(frand() * (ny - 6))) * nx + 3 + (uint32_t)(frand() * (nx - 6))] =
                VF_GRID_CELL_SOLID;
        CHECK(vf_grid_write(s->g, VF_GRID_FIELD_MASK_STATIC, s->mask) == VF_OK);
        CHECK(vf_test_grid_pass(s->g, VF_GRID_PASS_OBSTACLES));
    }
    CHECK(vf_grid_read(s->g, VF_GRID_FIELD_MASK, s->mask) == VF_OK);
    CHECK(vf_grid_read(s->g, VF_GRID_FIELD_WX, s->wx) == VF_OK);
    CHECK(vf_grid_read(s->g, VF_GRID_FIELD_WY, s->wy) == VF_OK);
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i <= nx; i++)
            s->u[(size_t)j * (nx + 1) + i] = sinf(0.3f * i + 0.2f) * cosf(0.21f * j) + 0.4f * (frand() - 0.5f);
    for (uint32_t j = 0; j <= ny; j++)
        for (uint32_t i = 0; i < nx; i++)
            s->v[(size_t)j * nx + i] = cosf(0.19f * i) * sinf(0.27f * j + 0.1f) + 0.4f * (frand() - 0.5f);
    /* periodic fields: the duplicate faces equal their images */
    if (gd->sides[VF_GRID_SIDE_LEFT] == VF_GRID_BC_PERIODIC)
        for (uint32_t j = 0; j < ny; j++)
            s->u[(size_t)j * (nx + 1) + nx] = s->u[(size_t)j * (nx + 1)];
    if (gd->sides[VF_GRID_SIDE_BOTTOM] == VF_GRID_BC_PERIODIC)
        for (uint32_t i = 0; i < nx; i++)
            s->v[(size_t)ny * nx + i] = s->v[i];
    double mean = 0, fluid = 0;
    for (size_t k = 0; k < s->nc; k++) {
        s->p[k] = s->mask[k] ? 0.0f : frand() - 0.5f;
        s->b[k] = s->mask[k] ? 0.0f : 20.0f * (frand() - 0.5f);
        mean += s->b[k];
        fluid += s->mask[k] ? 0 : 1;
    }
    for (size_t k = 0; k < s->nc; k++)
        if (!s->mask[k])
            s->b[k] -= (float)(mean / fluid);
    return CHECK(vf_grid_write(s->g, VF_GRID_FIELD_U, s->u) == VF_OK) &&
           CHECK(vf_grid_write(s->g, VF_GRID_FIELD_V, s->v) == VF_OK) &&
           CHECK(vf_grid_write(s->g, VF_GRID_FIELD_P, s->p) == VF_OK) &&
           CHECK(vf_grid_write(s->g, VF_GRID_FIELD_RHS, s->b) == VF_OK);
}

/* ------------------------------------------------------------------ Klein */

static void test_klein(vf_gpu *gpu, const char *name, vf_grid_desc *d, bool open)
{
    vf_test_section(name);
    d->advection = VF_GRID_ADVECT_DONOR_CELL;
    d->pressure = VF_GRID_PRESSURE_SSOR;
    setup s;
    if (!setup_make(gpu, d, open, &s)) {
        setup_free(&s);
        return;
    }
    const vf_grid_desc *gd = vf_grid_get_desc(s.g);
    float *ru = malloc(s.nu * 4), *rv = malloc(s.nv * 4), *x = malloc(s.nc * 4);
    if (CHECK(ru && rv && x) && CHECK(vf_test_grid_pass(s.g, VF_GRID_PASS_ADVECT_VELOCITY))) {
        vf_grid_ref_donor_cell(&s.r, (float)gd->donor_gamma, s.u, s.v, s.wx, s.wy, ru, rv);
        vf_test_compare_grid("donor-cell: u", s.g, VF_GRID_FIELD_U, ru, 1e-5, 1.0);
        vf_test_compare_grid("donor-cell: v", s.g, VF_GRID_FIELD_V, rv, 1e-5, 1.0);
    }
    const uint32_t iters[] = {1, 3};
    for (int q = 0; q < 2 && x; q++) {
        CHECK(vf_grid_write(s.g, VF_GRID_FIELD_P, s.p) == VF_OK);
        CHECK(vf_test_grid_pressure(s.g, VF_GRID_PRESSURE_SSOR, iters[q]));
        memcpy(x, s.p, s.nc * 4);
        vf_grid_ref_ssor(&s.r, iters[q], (float)gd->ssor_omega, x, s.b, s.wx, s.wy);
        char what[64];
        snprintf(what, sizeof what, "ssor x%u (omega %.2g): p", iters[q], gd->ssor_omega);
        vf_test_compare_grid(what, s.g, VF_GRID_FIELD_P, x, 1e-4, 1.0);
    }
    free(ru);
    free(rv);
    free(x);
    setup_free(&s);
}

/* ------------------------------------------------------------------ Chen & Lobo */

/* The penalty's sub-steps (several dispatches when the grid is wider than
 * one region), then the velocity and pressure after them, against the
 * reference chain: sub-steps, gradient of the sum with dtau, -div / eps.
 * The right-hand side is the random velocity's own divergence / dt, as in a
 * step; the velocity's change (the correction) is compared relative to its
 * own size, and so is the pressure after. */
/* the penalty's velocity correction, relative to its largest value */
#define PENALTY_TOL 2e-5

static void test_penalty(vf_gpu *gpu, const char *name, vf_grid_desc *d, bool open)
{
    vf_test_section(name);
    d->pressure = VF_GRID_PRESSURE_PENALTY;
    setup s;
    if (!setup_make(gpu, d, open, &s)) {
        setup_free(&s);
        return;
    }
    const vf_grid_desc *gd = vf_grid_get_desc(s.g);
    uint32_t k = vf_grid_penalty_substeps(s.g, NULL);
    float *x = malloc(s.nc * 4), *sum = malloc(s.nc * 4), *ru = malloc(s.nu * 4), *rv = malloc(s.nv * 4);
    float *gu = malloc(s.nu * 4), *gv = malloc(s.nv * 4);
    if (CHECK(x && sum && ru && rv && gu && gv)) {
        vf_grid_ref_divergence(&s.r, s.u, s.v, s.mask, 1.0f / s.r.dt, s.b);
        CHECK(vf_grid_write(s.g, VF_GRID_FIELD_RHS, s.b) == VF_OK);
        VkCommandBuffer cmd;
        CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
        vf_cmd_barrier_transfer_to_compute(cmd);
        CHECK(vf_grid_record_pass(s.g, cmd, VF_GRID_PASS_PRESSURE, NULL) == VF_OK);
        CHECK(vf_grid_record_pass(s.g, cmd, VF_GRID_PASS_GRADIENT, NULL) == VF_OK);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        double dtau = gd->dt / k, h = s.r.h;
        memcpy(x, s.p, s.nc * 4);
        vf_grid_ref_penalty(&s.r, k, (float)(dtau / (gd->epsilon * h * h)), (float)(dtau / gd->epsilon), x, s.b, s.wx,
                            s.wy, sum);
        vf_grid_ref r2 = s.r;
        r2.dt = (float)dtau;
        vf_grid_ref_gradient(&r2, s.u, s.v, sum, s.wx, s.wy, ru, rv);
        CHECK(vf_grid_read(s.g, VF_GRID_FIELD_U, gu) == VF_OK && vf_grid_read(s.g, VF_GRID_FIELD_V, gv) == VF_OK);
        /* the corrections: gpu - u* against ref - u* */
        for (size_t q = 0; q < s.nu; q++) {
            gu[q] -= s.u[q];
            ru[q] -= s.u[q];
        }
        for (size_t q = 0; q < s.nv; q++) {
            gv[q] -= s.v[q];
            rv[q] -= s.v[q];
        }
        double eu, ev;
        vf_test_max_diff(gu, ru, s.nu, &eu);
        vf_test_max_diff(gv, rv, s.nv, &ev);
        double cu = vf_test_max_abs(ru, s.nu), cv = vf_test_max_abs(rv, s.nv);
        printf("  penalty %u sub-steps: the velocity's correction, max |gpu - cpu| = %.3g, %.3g (of %.3g, %.3g)\n", k,
               eu, ev, cu, cv);
        CHECK_MSG(eu <= PENALTY_TOL * cu && ev <= PENALTY_TOL * cv, "penalty correction off by %.3g, %.3g (of %.3g, %.3g)",
                  eu, ev, cu, cv);
        for (size_t q = 0; q < s.nu; q++)
            ru[q] += s.u[q];
        for (size_t q = 0; q < s.nv; q++)
            rv[q] += s.v[q];
        vf_grid_ref_divergence(&s.r, ru, rv, s.mask, (float)(-1.0 / gd->epsilon), x);
        /* p = -div(u) / eps of a nearly divergence-free u: the velocities'
         * allowed difference, across a cell, over eps */
        double ptol = 4 * PENALTY_TOL * fmax(cu, cv) / (h * gd->epsilon);
        vf_test_compare_grid("penalty: p = -div(u) / eps", s.g, VF_GRID_FIELD_P, x,
                             ptol / fmax(1.0, vf_test_max_abs(x, s.nc)), 1.0);
        double before = vf_grid_ref_rms(&s.r, s.b, s.mask, s.r.dt), after = vf_grid_ref_rms(&s.r, x, s.mask, -(float)gd->epsilon);
        printf("  divergence %.4g -> %.3g (rms, 1/s)\n", before, after);
    }
    free(x);
    free(sum);
    free(ru);
    free(rv);
    free(gu);
    free(gv);
    setup_free(&s);
}

/* ------------------------------------------------------------------ Stam's FFT */

/* The FFT pressure of a random zero-mean b against the DFT reference, its
 * residual, multigrid converged on the same b, the divergence of a random
 * velocity after a projection, and VkFFT's dispatches in the counters. */
static void test_fft(vf_gpu *gpu, uint32_t nx, uint32_t ny)
{
    char name[96];
    snprintf(name, sizeof name, "fft pressure, doubly periodic %u x %u", nx, ny);
    vf_test_section(name);
    vf_grid_desc d = {.nx = nx, .ny = ny, .width = 1.0, .dt = 0.01, .pressure = VF_GRID_PRESSURE_FFT};
    for (int q = 0; q < 4; q++)
        d.sides[q] = VF_GRID_BC_PERIODIC;
    setup s;
    if (!setup_make(gpu, &d, true, &s)) {
        setup_free(&s);
        return;
    }
    float *ref = malloc(s.nc * 4), *mg = malloc(s.nc * 4), *res = malloc(s.nc * 4);
    if (!CHECK(ref && mg && res))
        goto done;
    vf_gpu_counters c;
    vf_gpu_counters_reset(&c);
    vf_gpu_counters_attach(gpu, &c);
    CHECK(vf_test_grid_pressure(s.g, VF_GRID_PRESSURE_FFT, 1));
    vf_gpu_counters_attach(gpu, NULL);
    vf_grid_ref_fft_pressure(&s.r, s.b, ref);
    vf_test_compare_grid("fft: p against the DFT", s.g, VF_GRID_FIELD_P, ref, 1e-5, 0.0);
    /* the residual of the fp32 solution: rounding level */
    float *p = malloc(s.nc * 4);
    if (CHECK(p != NULL) && CHECK(vf_grid_read(s.g, VF_GRID_FIELD_P, p) == VF_OK)) {
        vf_grid_ref_residual(&s.r, p, s.b, s.wx, s.wy, res);
        double rb = vf_grid_ref_rms(&s.r, s.b, s.mask, 1.0f), rr = vf_grid_ref_rms(&s.r, res, s.mask, 1.0f);
        printf("  residual: |b - A p| / |b| = %.3g (rms)\n", rr / rb);
        CHECK_MSG(rr <= 2e-5 * rb, "fft residual %.3g of |b| > 2e-5", rr / rb);
    }
    /* multigrid from p = 0 to convergence on the same b: the same pressure up to its mean */
    memset(mg, 0, s.nc * 4);
    CHECK(vf_grid_write(s.g, VF_GRID_FIELD_P, mg) == VF_OK);
    CHECK(vf_test_grid_pressure(s.g, VF_GRID_PRESSURE_MULTIGRID, 30));
    if (CHECK(vf_grid_read(s.g, VF_GRID_FIELD_P, mg) == VF_OK)) {
        double m = 0;
        for (size_t k = 0; k < s.nc; k++)
            m += mg[k];
        for (size_t k = 0; k < s.nc; k++)
            mg[k] -= (float)(m / s.nc);
        double err;
        vf_test_max_diff(mg, p, s.nc, &err);
        double scale = vf_test_max_abs(p, s.nc);
        printf("  multigrid x30 against fft: max |dp| = %.3g of max |p| %.3g\n", err, scale);
        CHECK_MSG(err <= 1e-4 * scale, "multigrid and fft pressures differ by %.3g (of %.3g)", err, scale);
    }
    free(p);
    /* dispatches: VkFFT's forward kernels, the scaling, the inverse kernels */
    vf_test_check_fft_counts(&c);
    /* a random velocity projected: the divergence after it is rounding */
    CHECK(vf_grid_write(s.g, VF_GRID_FIELD_U, s.u) == VF_OK && vf_grid_write(s.g, VF_GRID_FIELD_V, s.v) == VF_OK);
    {
        VkCommandBuffer cmd;
        CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
        vf_cmd_barrier_transfer_to_compute(cmd);
        const vf_grid_pass pp[] = {VF_GRID_PASS_DIVERGENCE, VF_GRID_PASS_PRESSURE, VF_GRID_PASS_GRADIENT,
                                   VF_GRID_PASS_MEASURE};
        for (int q = 0; q < 4; q++)
            CHECK(vf_grid_record_pass(s.g, cmd, pp[q], NULL) == VF_OK);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        vf_grid_stats st;
        CHECK(vf_grid_read_stats(s.g, &st) == VF_OK);
        printf("  projection: divergence %.4g -> %.3g (rms, 1/s; ratio %.2g)\n", st.div_before, st.div_after,
               st.div_after / st.div_before);
        CHECK_MSG(st.div_after <= 1e-5 * st.div_before, "fft projection leaves %.3g of %.3g", st.div_after,
                  st.div_before);
    }
done:
    free(ref);
    free(mg);
    free(res);
    setup_free(&s);
}

/* VkFFT's transforms alone: a round trip returns N f, and one mode lands
 * where the layout says. */
static void test_fft_transforms(vf_gpu *gpu)
{
    vf_test_section("vkfft round trip and layout, 30 x 20");
    const uint32_t nx = 30, ny = 20, size[3] = {nx, ny, 1};
    uint64_t rb = vf_fft_real_bytes(2, size);
    vf_buffer *in = NULL, *out = NULL;
    vf_buffer_desc bd = {.size = rb, .name = "test fft real"};
    vf_fft *f = NULL;
    char err[256] = "";
    if (!CHECK(vf_buffer_create(gpu, &bd, &in) == VF_OK && vf_buffer_create(gpu, &bd, &out) == VF_OK))
        goto done;
    vf_fft_desc fd = {.dims = 2, .size = {nx, ny, 1}, .real_in = in, .real_out = out, .name = "test"};
    if (!CHECK_MSG(vf_fft_create(gpu, &fd, &f, err, sizeof err) == VF_OK, "%s", err))
        goto done;
    float x[30 * 20], y[30 * 20], spec[2 * 16 * 20];
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++)
            x[j * nx + i] = cosf(2.0f * 3.14159265f * (3.0f * i / nx + 2.0f * j / ny)) + 0.25f;
    CHECK(vf_buffer_write(in, 0, x, sizeof x) == VF_OK);
    VkCommandBuffer cmd;
    CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
    vf_cmd_barrier_transfer_to_compute(cmd);
    CHECK(vf_fft_record(f, cmd, false) == VF_OK);
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    CHECK(vf_buffer_read(vf_fft_spectrum(f), 0, spec, sizeof spec) == VF_OK);
    /* cos(2 pi (3 x + 2 y)) + 1/4: N/2 at (3, 2), N/4 at (0, 0), nothing else */
    double n = nx * ny, worst = 0;
    for (uint32_t ky = 0; ky < ny; ky++)
        for (uint32_t kx = 0; kx <= nx / 2; kx++) {
            double want = (kx == 3 && ky == 2) ? n / 2 : (kx == 0 && ky == 0) ? n / 4 : 0;
            size_t m = (size_t)ky * (nx / 2 + 1) + kx;
            worst = fmax(worst, hypot(spec[2 * m] - want, spec[2 * m + 1]));
        }
    printf("  forward: max |X - exact| = %.3g (of N/2 = %.0f)\n", worst, n / 2);
    CHECK(worst <= 1e-4 * n);
    CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
    vf_cmd_barrier_transfer_to_compute(cmd);
    CHECK(vf_fft_record(f, cmd, true) == VF_OK);
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    CHECK(vf_buffer_read(out, 0, y, sizeof y) == VF_OK);
    worst = 0;
    for (size_t k = 0; k < nx * ny; k++)
        worst = fmax(worst, fabs(y[k] / n - x[k]));
    printf("  inverse(forward(f)) / N - f: max %.3g\n", worst);
    CHECK(worst <= 1e-5);
    CHECK_EQ_INT(vf_fft_largest_prime(30), 5);
    CHECK_EQ_INT(vf_fft_largest_prime(34), 17);
    CHECK_EQ_INT(vf_fft_nearest_size(34, true), 32);
    CHECK_EQ_INT(vf_fft_nearest_size(47, true), 48);
done:
    vf_fft_destroy(&f);
    vf_buffer_destroy(&in);
    vf_buffer_destroy(&out);
}

/* ------------------------------------------------------------------ bad input */

/* One line on stderr naming the key and the fix, exit 2, nothing written. */
static void refused(const char *args, const char *needle)
{
    char out[2048];
    const char *dir = vf_test_path("refused");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run %s --steps 1 --export '%s' 2>&1", vf_t.vkfluid, args, dir);
    printf("  %s -> %d: %s", args, rc, out);
    CHECK_MSG(rc == 2, "%s: exit %d (want 2)", args, rc);
    CHECK_MSG(vf_test_lines(out) == 1, "%s: %d lines", args, vf_test_lines(out));
    CHECK_MSG(strstr(out, needle) != NULL, "%s: the message names %s", args, needle);
    CHECK_MSG(!vf_test_exists(dir), "%s: nothing written", args);
}

static void test_refusals(void)
{
    vf_test_section("bad input: one line, exit 2, before the GPU");
    refused("cavity --set pressure=fft", "use walls=periodic");
    refused("smoke --set walls=periodic --set obstacle=disc --set pressure=fft", "leave the obstacles out");
    refused("smoke --set walls=periodic --set n=34 --set pressure=fft", "use n=32");
    refused("cavity --set pressure=penalty --set epsilon=1e-9", "use a larger epsilon");
    refused("cavity --set n=32 --set pressure=penalty --set pressure_iters=10", "use pressure_iters=0");
    refused("channel --set advect=donor-cell", "use cfl=0.5");
    refused("cavity --set pressure=ssor --set ssor_omega=2", "ssor_omega=2: out of range");
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);

    /* walls with a lid and painted solid cells */
    vf_grid_desc a = {.nx = 40, .ny = 24, .width = 1.25, .dt = 0.01, .donor_gamma = 0.7};
    a.side_u[VF_GRID_SIDE_TOP] = 1.0f;
    test_klein(gpu, "klein: walls + lid + solid cells (40x24)", &a, false);
    /* a channel: inflow, outflow, free-slip banks */
    vf_grid_desc b = {.nx = 48, .ny = 16, .width = 3.0, .dt = 0.02, .ssor_omega = 1.3};
    b.sides[VF_GRID_SIDE_LEFT] = VF_GRID_BC_INFLOW;
    b.sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_OUTFLOW;
    b.sides[VF_GRID_SIDE_BOTTOM] = b.sides[VF_GRID_SIDE_TOP] = VF_GRID_BC_FREESLIP;
    b.side_u[VF_GRID_SIDE_LEFT] = 1.0f;
    test_klein(gpu, "klein: inflow/outflow/free-slip + solid cells (48x16)", &b, false);
    /* doubly periodic, no solids (the open variant of the donor-cell pass) */
    vf_grid_desc c = {.nx = 32, .ny = 20, .dt = 0.01};
    for (int q = 0; q < 4; q++)
        c.sides[q] = VF_GRID_BC_PERIODIC;
    test_klein(gpu, "klein: periodic, no solids (32x20)", &c, true);

    /* the penalty: the whole domain in one workgroup, walls, epsilon 0.05 */
    vf_grid_desc p1 = {.nx = 24, .ny = 20, .width = 1.2, .dt = 0.004, .epsilon = 0.005};
    p1.side_u[VF_GRID_SIDE_TOP] = 1.0f;
    test_penalty(gpu, "penalty: one region, walls + solid cells (24x20), eps 0.005", &p1, false);
    /* wider than a region along x (tiles with halos, several dispatches),
     * an outflow side; periodic along y */
    vf_grid_desc p2 = {.nx = 150, .ny = 16, .width = 3.0, .dt = 0.002, .epsilon = 0.05};
    p2.sides[VF_GRID_SIDE_LEFT] = VF_GRID_BC_INFLOW;
    p2.sides[VF_GRID_SIDE_RIGHT] = VF_GRID_BC_OUTFLOW;
    p2.sides[VF_GRID_SIDE_BOTTOM] = p2.sides[VF_GRID_SIDE_TOP] = VF_GRID_BC_PERIODIC;
    p2.side_u[VF_GRID_SIDE_LEFT] = 1.0f;
    test_penalty(gpu, "penalty: tiles along x, outflow, periodic y (150x16)", &p2, false);

    test_fft_transforms(gpu);
    test_fft(gpu, 48, 36);
    test_fft(gpu, 40, 50);
    vf_test_gpu_done(&gpu);
    test_refusals();
    return vf_test_finish();
}
