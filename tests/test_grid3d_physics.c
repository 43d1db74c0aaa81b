/* Physics of the 3D grid solver against analytic results, at small sizes:
 *
 *  - projection: a random velocity in a closed box with a sphere (and in a
 *    box with an outflow side) is projected with 8 V-cycles; the RMS
 *    divergence afterwards must be below 1e-4 of the RMS before (fp32);
 *  - multigrid: residual reduction per V(2,2) cycle on a random right-hand
 *    side at 32^3 and 64^3 in a closed box and at 32^3 with an outflow side:
 *    each mean rate below 0.2, and the 64^3 rate within a factor 1.5 of the
 *    32^3 rate (rate independent of n);
 *  - Taylor-Green: the 3D vortex u = U sin x cos y cos z, v = -U cos x sin y
 *    cos z, w = 0 in [0, pi]^3 with free-slip walls (an exact symmetry cell)
 *    at Re = U / nu = 0.5: kinetic energy decays as exp(-6 nu t); the measured
 *    decay rate over t = 2 must match within 3 %;
 *  - plume: a hot smooth source in a closed free-slip box, no outflow,
 *    semi-Lagrangian advection, t = 0.6 at 16^3, 24^3 and 32^3 with dt = 0.32 h
 *    (one Courant number): the relative difference between the density in
 *    the box and the density injected must fall at least at first order (the
 *    order of the scheme's global error), to at most 1.2 n/m of the coarser
 *    grid's from n to m cells (see test_plume); the centroid of the density
 *    must rise at least 0.05 above the source;
 *  - cooling: a closed box of gas at temperature 1 above an ambient of 0.25,
 *    cooling at 2/s (Newton's law, dT/dt = -c (T - amb)), no buoyancy: after
 *    t = 0.5 s the temperature above ambient is exp(-c t) of the start in
 *    every cell, within 1e-5 (fp32 over the steps). */
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "solver_grid3d.h"
#include "solver_grid3d_ref.h"
#include "testlib.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static uint64_t rng_state = 4242;

/* The next random number of this test's sequence, in [0, 1). */
static float frand(void)
{
    return vf_test_randf(&rng_state);
}

static vf_g3ref ref_of(vf_grid3d *g, const uint32_t *mask)
{
    const vf_grid3d_desc *d = vf_grid3d_get_desc(g);
    vf_g3ref r = {.nx = (int)d->nx, .ny = (int)d->ny, .nz = (int)d->nz, .h = (float)(d->width / d->nx),
                  .dt = (float)d->dt, .mask = mask};
    for (int s = 0; s < 6; s++) {
        r.sides[s] = d->sides[s];
        r.inflow[s] = d->inflow[s];
    }
    return r;
}

static bool record(vf_grid3d *g, const vf_grid3d_pass *passes, int n, uint32_t cycles)
{
    VkCommandBuffer cmd;
    vf_gpu *gpu = vf_grid3d_solver(g)->gpu;
    if (vf_cmd_oneshot_begin(gpu, &cmd) != VF_OK)
        return false;
    vf_cmd_barrier_transfer_to_compute(cmd);
    for (int k = 0; k < n; k++) {
        if (passes[k] == VF_GRID3D_PASS_PRESSURE)
            vf_grid3d_record_pressure(g, cmd, VF_GRID3D_PRESSURE_MULTIGRID, cycles);
        else
            vf_grid3d_record_pass(g, cmd, passes[k], NULL);
    }
    vf_cmd_barrier_compute_to_transfer(cmd);
    return vf_cmd_oneshot_submit(gpu, cmd) == VF_OK;
}

static double rms_fluid(const float *a, const uint32_t *mask, size_t n)
{
    double s = 0;
    size_t c = 0;
    for (size_t k = 0; k < n; k++)
        if (mask[k] == VF_G3_CELL_FLUID) {
            s += (double)a[k] * a[k];
            c++;
        }
    return c ? sqrt(s / (double)c) : 0;
}

static void test_projection(vf_gpu *gpu, const char *name, vf_grid3d_desc *din)
{
    vf_test_section(name);
    vf_grid3d *g = vf_test_grid3d(gpu, din);
    if (!g)
        return;
    const vf_grid3d_desc *d = vf_grid3d_get_desc(g);
    size_t nc = (size_t)d->nx * d->ny * d->nz, nf = (size_t)vf_grid3d_field_count(g, VF_GRID3D_FIELD_VEL);
    float *vel = malloc(nf * 4), *div = malloc(nc * 4);
    uint32_t *mask = malloc(nc * 4);
    for (size_t k = 0; k < nf; k++)
        vel[k] = 2.0f * (frand() - 0.5f);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_MASK, mask) == VF_OK);
    CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK);
    vf_g3ref r = ref_of(g, mask);
    const vf_grid3d_pass pre[] = {VF_GRID3D_PASS_BOUNDARY};
    CHECK(record(g, pre, 1, 0));
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK);
    vf_g3ref_divergence(&r, vel, div, 1.0f);
    double before = rms_fluid(div, mask, nc);
    const vf_grid3d_pass proj[] = {VF_GRID3D_PASS_DIVERGENCE, VF_GRID3D_PASS_PRESSURE, VF_GRID3D_PASS_GRADIENT};
    CHECK(record(g, proj, 3, 8));
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK);
    vf_g3ref_divergence(&r, vel, div, 1.0f);
    double after = rms_fluid(div, mask, nc);
    printf("  rms divergence %.4g -> %.4g (ratio %.3g, tol 1e-4)\n", before, after, after / before);
    CHECK_LE(after, 1e-4 * before);
    free(vel);
    free(div);
    free(mask);
    vf_grid3d_destroy(&g);
}

/* Mean residual reduction per V-cycle over the first 4 cycles on a random
 * rhs (later cycles reach the fp32 floor; they are printed). */
static double vcycle_rate(vf_gpu *gpu, uint32_t n, const vf_grid3d_desc *base)
{
    vf_grid3d_desc d = base ? *base : (vf_grid3d_desc){0};
    d.nx = n;
    vf_grid3d *g = vf_test_grid3d(gpu, &d);
    if (!g)
        return 1;
    size_t nc = (size_t)n * n * n;
    float *b = malloc(nc * 4), *x = calloc(nc, 4);
    uint32_t *mask = malloc(nc * 4);
    double mean = 0;
    for (size_t k = 0; k < nc; k++) {
        b[k] = 100.0f * (frand() - 0.5f);
        mean += b[k];
    }
    mean /= (double)nc;
    for (size_t k = 0; k < nc; k++)
        b[k] = (float)(b[k] - mean); /* a closed box: the rhs must have zero mean */
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_MASK, mask) == VF_OK);
    CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_RHS, b) == VF_OK);
    CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_P, x) == VF_OK);
    vf_g3ref r = ref_of(g, mask);
    double res[8];
    res[0] = vf_g3ref_residual_rms(&r, x, b);
    const vf_grid3d_pass p[] = {VF_GRID3D_PASS_PRESSURE};
    printf("  %u^3 (%u levels): residual", n, vf_grid3d_levels(g));
    for (int c = 1; c < 7; c++) {
        CHECK(record(g, p, 1, 1));
        CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_P, x) == VF_OK);
        res[c] = vf_g3ref_residual_rms(&r, x, b);
        printf(" %.3g", res[c] / res[c - 1]);
    }
    double rate = pow(res[4] / res[0], 1.0 / 4.0); /* before the fp32 floor */
    printf("  -> mean rate %.4f\n", rate);
    free(b);
    free(x);
    free(mask);
    vf_grid3d_destroy(&g);
    return rate;
}

static double kinetic_energy(const float *vel, const vf_g3ref *r)
{
    /* sum over faces of u^2 / 2 h^3 (each component on its own faces) */
    double e = 0;
    size_t nf = vf_g3ref_faces(r);
    for (size_t k = 0; k < nf; k++)
        e += 0.5 * (double)vel[k] * vel[k];
    return e * (double)r->h * r->h * r->h;
}

static void test_taylor_green(vf_gpu *gpu)
{
    vf_test_section("Taylor-Green vortex, 32^3, Re 0.5, free-slip box [0, pi]^3");
    const double U = 0.05, nu = 0.1, T = 2.0;
    vf_grid3d_desc d = {.nx = 32, .width = M_PI, .viscosity = nu, .dt = 0.04, .pressure_iters = 2,
                        .advection = VF_GRID3D_ADVECT_MACCORMACK};
    for (int s = 0; s < 6; s++)
        d.sides[s] = VF_G3_BC_FREESLIP;
    vf_grid3d *g = vf_test_grid3d(gpu, &d);
    if (!g)
        return;
    size_t nc = 32 * 32 * 32;
    uint32_t *mask = calloc(nc, 4);
    vf_g3ref r = ref_of(g, mask);
    size_t nf = vf_g3ref_faces(&r);
    float *vel = calloc(nf, 4);
    for (int k = 0; k < 32; k++)
        for (int j = 0; j < 32; j++)
            for (int i = 0; i <= 32; i++) {
                double x = i * r.h, y = (j + 0.5) * r.h, z = (k + 0.5) * r.h;
                vel[vf_g3ref_fidx(&r, 0, i, j, k)] = (float)(U * sin(x) * cos(y) * cos(z));
                x = (i + 0.5) * r.h;
                y = i * r.h; /* reused below for v at (i+1/2, j, k+1/2): swap roles */
                (void)y;
            }
    for (int k = 0; k < 32; k++)
        for (int j = 0; j <= 32; j++)
            for (int i = 0; i < 32; i++) {
                double x = (i + 0.5) * r.h, y = j * r.h, z = (k + 0.5) * r.h;
                vel[vf_g3ref_fidx(&r, 1, i, j, k)] = (float)(-U * cos(x) * sin(y) * cos(z));
            }
    CHECK(vf_grid3d_write(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK);
    double e0 = kinetic_energy(vel, &r);
    uint32_t steps = (uint32_t)lround(T / d.dt);
    CHECK(vf_test_grid3d_steps(gpu, g, steps) == VF_OK);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_VEL, vel) == VF_OK);
    double e1 = kinetic_energy(vel, &r), t = steps * d.dt;
    double rate = -log(e1 / e0) / t, expect = 6 * nu;
    printf("  E(0) %.6g, E(%.2f) %.6g: decay rate %.5f, analytic 6 nu = %.5f (rel err %.3g, tol 0.03)\n", e0, t, e1, rate,
           expect, fabs(rate - expect) / expect);
    CHECK_REL(rate, expect, 0.03, 0);
    free(vel);
    free(mask);
    vf_grid3d_destroy(&g);
}

/* One plume run at n^3: the density in the box minus the density injected,
 * relative to the injected (the source's discrete weights summed in double);
 * *rise gets the centroid height above the source. The smooth source of
 * radius 0.16 at rates 1/8 and 5/8 injects what a uniform sphere of radius
 * 0.08 at rates 1 and 5 would; the plume stays clear of the lid until t = 0.6. */
static double plume_error(vf_gpu *gpu, uint32_t n, double *rise)
{
    const double T = 0.6, courant_dt = 0.32; /* dt = 0.32 / n: the same Courant number at every n */
    vf_grid3d_desc d = {.nx = n, .alpha = 10, .dt = courant_dt / n, .source_on = true,
                        .source = {0.5f, 0.15f, 0.5f, 0.16f}, .source_profile = VF_GRID3D_SOURCE_SMOOTH,
                        .source_density = 0.125f, .source_temperature = 0.625f,
                        .advection = VF_GRID3D_ADVECT_SEMI_LAGRANGIAN};
    for (int s = 0; s < 6; s++)
        d.sides[s] = VF_G3_BC_FREESLIP;
    *rise = 0;
    vf_grid3d *g = vf_test_grid3d(gpu, &d);
    if (!g)
        return NAN;
    size_t nc = (size_t)n * n * n;
    uint32_t steps = (uint32_t)lround(T / d.dt);
    float *scal = malloc(2 * nc * 4);
    double h = 1.0 / n, vcell = h * h * h, weights = 0, total = 0, ym = 0;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t i = 0; i < n; i++) {
                double x = (i + 0.5) * h - d.source[0], y = (j + 0.5) * h - d.source[1], z = (k + 0.5) * h - d.source[2];
                double q = 1.0 - (x * x + y * y + z * z) / ((double)d.source[3] * d.source[3]);
                weights += q >= 0 ? VF_G3_SMOOTH_PEAK * q * q : 0.0;
            }
    CHECK(vf_test_grid3d_steps(gpu, g, steps) == VF_OK);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_SCALARS, scal) == VF_OK);
    double injected = weights * vcell * d.source_density * d.dt * steps;
    for (uint32_t k = 0; k < n; k++)
        for (uint32_t j = 0; j < n; j++)
            for (uint32_t i = 0; i < n; i++) {
                double rho = scal[((size_t)k * n + j) * n + i];
                total += rho * vcell;
                ym += rho * vcell * (j + 0.5) * h;
            }
    *rise = ym / total - d.source[1];
    double e = (total - injected) / injected;
    printf("  %u^3, dt %.4g, %u steps: injected %.6g, in the box %.6g: relative error %+.4f; centroid %.3f above the "
           "source\n",
           n, d.dt, steps, injected, total, e, *rise);
    free(scal);
    vf_grid3d_destroy(&g);
    return e;
}

/* Semi-Lagrangian advection is not conservative: the trilinear interpolation
 * error, summed over the cells, changes the total. Its global error at a
 * fixed Courant number is O(h) (truncation O(h^2/dt + dt^2) with dt ~ h), so
 * the mass error of a smooth field must fall at least in proportion to h:
 * from n to m cells at most 1.2 n/m of the coarser grid's error (first order,
 * with 20 % for being short of the asymptotic range): 0.8 from 16 to 24, 0.9
 * from 24 to 32. The source is the smooth profile: a uniform sphere's
 * staircase edge is a jump at the grid scale at every n, where the
 * interpolation error is O(1), not O(h^2), and that error does not shrink
 * with n (docs/grid3d.md has both series, and 64^3). */
static void test_plume(vf_gpu *gpu)
{
    vf_test_section("plume in a closed box: density in the box vs injected, 16^3 / 24^3 / 32^3 at one Courant number");
    const uint32_t n[3] = {16, 24, 32};
    double e[3], rise[3];
    for (int k = 0; k < 3; k++)
        e[k] = plume_error(gpu, n[k], &rise[k]);
    for (int k = 1; k < 3; k++) {
        double bound = 1.2 * n[k - 1] / n[k];
        printf("  error ratio %u/%u: %.3f (first order %.3f, second %.3f; bound %.2f)\n", n[k], n[k - 1],
               fabs(e[k] / e[k - 1]), (double)n[k - 1] / n[k], pow((double)n[k - 1] / n[k], 2), bound);
        CHECK_LE(fabs(e[k]), bound * fabs(e[k - 1]));
        CHECK(rise[k] > 0.05); /* the plume rises */
    }
}

static void test_cooling(vf_gpu *gpu)
{
    vf_test_section("cooling: exp(-c t) decay of the temperature above ambient, closed box");
    const double c = 2.0, amb = 0.25, t_end = 0.5;
    vf_grid3d_desc d = {.nx = 16, .dt = 0.025, .cooling = c, .ambient = amb, .initial_temperature = 1.25f};
    vf_grid3d *g = vf_test_grid3d(gpu, &d);
    if (!g)
        return;
    size_t nc = 16 * 16 * 16;
    float *scal = malloc(2 * nc * 4);
    uint32_t steps = (uint32_t)lround(t_end / d.dt);
    CHECK(vf_test_grid3d_steps(gpu, g, steps) == VF_OK);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_SCALARS, scal) == VF_OK);
    double want = exp(-c * steps * d.dt), worst = 0;
    for (size_t k = 0; k < nc; k++)
        worst = fmax(worst, fabs((scal[nc + k] - amb) - want));
    printf("  %u steps of %.3g s: T - amb = %.6f expected (exp(-%.1f t)), worst cell off by %.2g (tol 1e-5)\n", steps,
           d.dt, want, c, worst);
    CHECK_LE(worst, 1e-5);
    free(scal);
    vf_grid3d_destroy(&g);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);

    vf_grid3d_desc closed = {.nx = 32, .obstacles = {{.shape = VF_GRID3D_SHAPE_SPHERE, .centre = {0.5f, 0.5f, 0.5f},
                                                      .size = {0.2f}}}};
    test_projection(gpu, "projection: closed box with a sphere, 32^3", &closed);
    vf_grid3d_desc open = {.nx = 32, .sides = {VF_G3_BC_INFLOW, VF_G3_BC_OUTFLOW}, .inflow = {1.0f},
                           .obstacles = {{.shape = VF_GRID3D_SHAPE_BOX, .centre = {0.4f, 0.5f, 0.5f},
                                          .size = {0.1f, 0.1f, 0.1f}}}};
    test_projection(gpu, "projection: inflow/outflow box with a cube, 32^3", &open);

    vf_test_section("multigrid: residual reduction per V(2,2) cycle");
    double r32 = vcycle_rate(gpu, 32, NULL), r64 = vcycle_rate(gpu, 64, NULL);
    CHECK_LE(r32, 0.2);
    CHECK_LE(r64, 0.2);
    CHECK_LE(r64, 1.5 * r32);
    double ro = vcycle_rate(gpu, 32, &open);
    CHECK_LE(ro, 0.2);

    test_taylor_green(gpu);
    test_cooling(gpu);
    test_plume(gpu);

    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
