/* Height-field water: every GPU kernel against its CPU reference
 * (tests/ref/solver_height_ref.c) on small odd-sized grids with dry cells, an
 * obstacle, a boat hull and absorbing edges; the Thomas solve against the
 * tridiagonal system itself; drop volume neutrality; coupling signs; the
 * advection of the surface state by a cell-centred and a MAC flow; the floor
 * caustics pass (render_caustics) against its CPU reference, and the
 * reference against the exact refraction of a sinusoidal surface. */
#include <stdlib.h>
#include <string.h>

#include <float.h>
#include <math.h>

#include "gpu_cmd.h"
#include "render_caustics.h"
#include "solver_height.h"
#include "solver_height_ref.h"
#include "testlib.h"

static uint32_t rng_state = 12345;

static float frand(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (float)(rng_state >> 8) / 16777216.0f;
}

/* A small scene with everything switched on that changes the stencil. */
static vf_height_desc base_desc(int integrator)
{
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = 37;
    d.ny = 29;
    d.dx = 0.1;
    d.surface = 1.0;
    d.bed = 0.0;
    d.bed_shape = VF_HEIGHT_BED_BEACH;
    d.shelf_x = 0.6;
    d.pillar = true;
    d.pillar_x = 0.3;
    d.pillar_y = 0.5;
    d.pillar_r = 0.35;
    d.edges = VF_HEIGHT_EDGES_ABSORBING;
    d.damping = 0.3;
    d.integrator = integrator;
    d.boat = true;
    d.boat_length = 0.9;
    d.boat_width = 0.4;
    d.boat_draft = 0.1;
    d.wake_speed = 1.0;
    d.leaves = 7;
    d.ducks = 3;
    d.volume_fix = false;
    return d;
}

typedef struct host {
    size_t n;
    float *bed;
    uint32_t *flags;
} host;

/* Reads bed and flags back (they are static). */
static void read_static(vf_solver *s, host *h)
{
    vf_height_state st;
    vf_height_get_state(s, &st);
    h->n = (size_t)st.nx * st.ny;
    h->bed = malloc(h->n * 4);
    h->flags = malloc(h->n * 4);
    CHECK(vf_buffer_read(st.bed, 0, h->bed, h->n * 4) == VF_OK);
    CHECK(vf_buffer_read(st.flags, 0, h->flags, h->n * 4) == VF_OK);
}

static void free_host(host *h)
{
    free(h->bed);
    free(h->flags);
}

/* Random wet state: eta above the bed by a random depth where the bed is
 * low, dry (eta = bed) where it is high. */
static void random_eta(const host *h, float *eta, float amp)
{
    for (size_t i = 0; i < h->n; i++) {
        float e = amp * (2.0f * frand() - 1.0f);
        eta[i] = (h->flags[i] & VF_HEIGHT_SOLID) ? h->bed[i] : fmaxf(e, h->bed[i]);
    }
}

static double max_diff(const float *a, const float *b, size_t n, size_t *where)
{
    double m;
    *where = vf_test_max_diff(a, b, n, &m);
    return m;
}

/* The largest difference between side neighbours of an nx x ny field. */
static double max_jump(const float *f, uint32_t nx, uint32_t ny)
{
    double m = 0;
    for (uint32_t y = 0; y < ny; y++)
        for (uint32_t x = 0; x < nx; x++) {
            if (x + 1 < nx)
                m = fmax(m, fabs((double)f[y * nx + x + 1] - f[y * nx + x]));
            if (y + 1 < ny)
                m = fmax(m, fabs((double)f[(y + 1) * nx + x] - f[y * nx + x]));
        }
    return m;
}

static void run_step_volume(vf_gpu *gpu, vf_solver *s, const vf_height_step_push *sp,
                            const vf_height_disturb_push *dp, bool volume)
{
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        return;
    vf_height_record_step(s, cmd, NULL, sp, dp, volume);
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
}

static void run_step(vf_gpu *gpu, vf_solver *s, const vf_height_step_push *sp, const vf_height_disturb_push *dp)
{
    run_step_volume(gpu, s, sp, dp, false);
}

/* rows: consecutive rows per invocation (vf_height_desc.rows: a GPU's 1, a
 * CPU device's VF_HEIGHT_CPU_ROWS, which reuses the cells above and below). */
static void test_explicit(vf_gpu *gpu, int rows)
{
    vf_test_section("explicit step: gpu vs cpu");
    printf("-- %d row%s per invocation\n", rows, rows > 1 ? "s" : "");
    vf_height_desc d = base_desc(VF_HEIGHT_INT_EXPLICIT);
    d.rows = rows;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    host h;
    read_static(s, &h);
    float *eta = malloc(h.n * 4), *vel = malloc(h.n * 4), *pres = calloc(h.n, 4), *ref_eta = malloc(h.n * 4),
          *ref_vel = malloc(h.n * 4), *gpu_eta = malloc(h.n * 4), *gpu_vel = malloc(h.n * 4);
    random_eta(&h, eta, 0.2f);
    for (size_t i = 0; i < h.n; i++)
        vel[i] = 0.5f * (2.0f * frand() - 1.0f);
    CHECK(vf_height_upload(s, eta, vel) == VF_OK);
    vf_height_step_push sp = vf_height_step_params(s, 0.7); /* boat somewhere inside */
    CHECK(sp.flags & VF_HEIGHT_STEP_HULL);
    CHECK_EQ_INT(sp.radiate, 15);
    vf_height_disturb_push dp = vf_height_disturb_params(s, 0);
    dp.drop_count = 0;
    run_step(gpu, s, &sp, &dp);
    CHECK(vf_height_download(s, gpu_eta, gpu_vel) == VF_OK);
    memcpy(ref_vel, vel, h.n * 4);
    vf_height_ref_explicit(&sp, eta, h.bed, h.flags, pres, ref_vel, ref_eta);
    size_t w = 0;
    double de = max_diff(gpu_eta, ref_eta, h.n, &w), dv = max_diff(gpu_vel, ref_vel, h.n, &w);
    double moved = max_diff(ref_eta, eta, h.n, &w);
    printf("explicit: max |eta gpu - cpu| = %.3g, max |v gpu - cpu| = %.3g (step moved eta by up to %.3g)\n", de, dv, moved);
    CHECK(moved > 1e-3);
    CHECK_LE(de, 2e-6);
    CHECK_LE(dv, 2e-4);
    free(eta), free(vel), free(pres), free(ref_eta), free(ref_vel), free(gpu_eta), free(gpu_vel);
    free_host(&h);
    vf_solver_destroy(&s);
}

/* The absorbing-edge diagonal term of a line's cell k (kappa = c dt / (2 dx)
 * per radiating face on this line). */
static double edge_kappa(const vf_height_step_push *p, const float *eta, const host *h, size_t i, uint32_t k, uint32_t n)
{
    uint32_t lo = p->axis == 0 ? VF_HEIGHT_SIDE_LEFT : VF_HEIGHT_SIDE_BOTTOM;
    uint32_t hi = p->axis == 0 ? VF_HEIGHT_SIDE_RIGHT : VF_HEIGHT_SIDE_TOP;
    int faces = (k == 0 && (p->radiate & lo)) + (k + 1 == n && (p->radiate & hi));
    if (!faces || (h->flags[i] & VF_HEIGHT_SOLID))
        return 0.0;
    return faces * sqrt((double)p->g * fmax((double)eta[i] - h->bed[i], 0.0)) * p->dt / (2.0 * p->dx);
}

/* Residual of the tridiagonal system the sweep solves, in double. */
static double sweep_residual(const vf_height_step_push *p, const float *eta, const host *h, const float *rhs,
                             const float *x)
{
    const uint32_t n = p->axis == 0 ? p->nx : p->ny, lines = p->axis == 0 ? p->ny : p->nx;
    const size_t stride = p->axis == 0 ? 1 : p->nx;
    const double al = (double)p->wa * p->dt * p->dt * p->g / ((double)p->dx * p->dx);
    double worst = 0.0;
    for (uint32_t line = 0; line < lines; line++) {
        size_t base = p->axis == 0 ? (size_t)line * p->nx : line;
        for (uint32_t k = 0; k < n; k++) {
            size_t i = base + k * stride;
            double dm = k > 0 ? vf_height_face_depth(eta[i - stride], h->bed[i - stride], h->flags[i - stride], eta[i],
                                                     h->bed[i], h->flags[i])
                              : 0.0;
            double dpp = k + 1 < n ? vf_height_face_depth(eta[i], h->bed[i], h->flags[i], eta[i + stride],
                                                          h->bed[i + stride], h->flags[i + stride])
                                   : 0.0;
            double lhs = (1 + edge_kappa(p, eta, h, i, k, n) + al * (dm + dpp)) * x[i] - (k > 0 ? al * dm * x[i - stride] : 0) -
                         (k + 1 < n ? al * dpp * x[i + stride] : 0);
            worst = fmax(worst, fabs(lhs - rhs[i]));
        }
    }
    return worst;
}

static void test_adi(vf_gpu *gpu)
{
    vf_test_section("adi: tridiagonal sweeps and a whole step, gpu vs cpu");
    vf_height_desc d = base_desc(VF_HEIGHT_INT_ADI);
    d.dt = 0.2; /* about 13x the explicit limit of this scene */
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    printf("adi dt %.3g s = %.1f x the explicit limit %.3g s\n", d.dt, d.dt / vf_height_explicit_limit(&d),
           vf_height_explicit_limit(&d));
    host h;
    read_static(s, &h);
    float *eta = malloc(h.n * 4), *prev = malloc(h.n * 4), *pres = calloc(h.n, 4), *rhs = malloc(h.n * 4),
          *out = malloc(h.n * 4), *ref = malloc(h.n * 4), *w1 = malloc(h.n * 4), *w2 = malloc(h.n * 4);
    random_eta(&h, eta, 0.2f);
    for (size_t i = 0; i < h.n; i++)
        prev[i] = (h.flags[i] & VF_HEIGHT_SOLID) ? eta[i] : fmaxf(eta[i] + 0.05f * (2.0f * frand() - 1.0f), h.bed[i]);
    CHECK(vf_height_upload(s, eta, prev) == VF_OK);
    for (int form = 0; form < 2; form++) {
        vf_height_step_push sp = vf_height_step_params(s, 1.3);
        if (form) {
            sp.wa = 1.0f;
            sp.wb = sp.wc = 0.0f;
        }
        for (uint32_t axis = 0; axis < 2; axis++) {
            sp.axis = axis;
            for (size_t i = 0; i < h.n; i++)
                rhs[i] = fmaxf(eta[i] + (2.0f * frand() - 1.0f) * 0.3f, h.bed[i] + 0.5f);
            CHECK(vf_height_run_sweep(s, &sp, rhs, out) == VF_OK);
            vf_height_ref_adi_sweep(&sp, eta, h.bed, h.flags, rhs, ref, w1);
            size_t w = 0;
            double diff = max_diff(out, ref, h.n, &w);
            double resid = sweep_residual(&sp, eta, &h, rhs, ref);
            /* the line operator has zero column sums apart from the edge term:
             * sum (1 + kappa) x = sum rhs */
            double sum_in = 0, sum_out = 0;
            const uint32_t n = axis == 0 ? sp.nx : sp.ny;
            for (size_t i = 0; i < h.n; i++) {
                uint32_t k = axis == 0 ? (uint32_t)(i % sp.nx) : (uint32_t)(i / sp.nx);
                sum_in += rhs[i];
                sum_out += (1 + edge_kappa(&sp, eta, &h, i, k, n)) * out[i];
            }
            printf("%s sweep axis %u: max |gpu - cpu| = %.3g, cpu residual %.3g, sum rhs %.7g sum x %.7g\n",
                   form ? "kass-miller" : "trapezoidal", axis, diff, resid, sum_in, sum_out);
            CHECK_LE(diff, 2e-5);
            CHECK_LE(resid, 2e-5);
            if (axis == 0)
                CHECK_REL(sum_out, sum_in, 1e-6, 1.0); /* the row solve conserves the sum */
        }
    }
    vf_height_step_push sp = vf_height_step_params(s, 1.3);
    vf_height_disturb_push dp = vf_height_disturb_params(s, 0);
    dp.drop_count = 0;
    run_step(gpu, s, &sp, &dp);
    float *gpu_eta = malloc(h.n * 4), *gpu_prev = malloc(h.n * 4);
    CHECK(vf_height_download(s, gpu_eta, gpu_prev) == VF_OK);
    vf_height_ref_adi_step(&sp, eta, prev, h.bed, h.flags, pres, ref, w1, w2);
    size_t w = 0;
    double diff = max_diff(gpu_eta, ref, h.n, &w), pd = max_diff(gpu_prev, eta, h.n, &w);
    printf("adi step: max |eta gpu - cpu| = %.3g; eta^(n-1) after the step equals eta^n: %.3g\n", diff, pd);
    CHECK_LE(diff, 3e-5);
    CHECK_LE(pd, 0.0);
    free(eta), free(prev), free(pres), free(rhs), free(out), free(ref), free(w1), free(w2), free(gpu_eta), free(gpu_prev);
    free_host(&h);
    vf_solver_destroy(&s);
}

static vf_buffer *make_flow_buffer(vf_gpu *gpu, const float *data, size_t n, const char *name)
{
    vf_buffer *b = NULL;
    vf_buffer_desc bd = {.size = n * 4, .name = name};
    CHECK(vf_buffer_create(gpu, &bd, &b) == VF_OK);
    if (b)
        CHECK(vf_buffer_write(b, 0, data, n * 4) == VF_OK);
    return b;
}

static void test_disturb(vf_gpu *gpu, int integrator, int coupling, int rows)
{
    const char *cname[] = {"none", "pressure", "divergence"};
    printf("-- disturb (%s, coupling=%s, 3 drops and a pointer drop, %d rows per invocation): gpu vs cpu\n",
           integrator ? "adi" : "explicit", cname[coupling], rows);
    vf_height_desc d = base_desc(integrator);
    d.rows = rows;
    d.coupling = coupling;
    d.rho = 1000.0;
    d.strength = 0.8;
    d.rain = 100;
    d.drop_radius = 0.15;
    d.drop_amplitude = 0.05;
    d.seed = 99;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    host h;
    read_static(s, &h);
    const uint32_t fnx = 20, fny = 15; /* a coarser flow grid over the same domain */
    float *fp = malloc(fnx * fny * 4), *fdiv = malloc(fnx * fny * 4);
    for (uint32_t i = 0; i < fnx * fny; i++) {
        fp[i] = 2000.0f * (2.0f * frand() - 1.0f); /* Pa: +-0.2 m of water */
        fdiv[i] = 3.0f * (2.0f * frand() - 1.0f);
    }
    vf_buffer *bp = make_flow_buffer(gpu, fp, fnx * fny, "test flow pressure");
    vf_buffer *bd = make_flow_buffer(gpu, fdiv, fnx * fny, "test flow divergence");
    /* scales as a solver with kinematic pressure and b = div/dt would need */
    vf_height_flow flow = {.pressure = bp, .divergence = bd, .nx = fnx, .ny = fny, .pressure_scale = 2.0f,
                           .divergence_scale = 0.5f};
    CHECK(vf_height_set_flow(s, &flow) == VF_OK);
    float *eta = malloc(h.n * 4), *second = malloc(h.n * 4), *pres = calloc(h.n, 4), *ref_eta = malloc(h.n * 4),
          *ref_prev = malloc(h.n * 4), *g_eta = malloc(h.n * 4), *g_second = malloc(h.n * 4), *g_pres = malloc(h.n * 4);
    random_eta(&h, eta, 0.1f);
    memcpy(second, eta, h.n * 4); /* adi: at rest; explicit: the velocity, irrelevant here */
    CHECK(vf_height_upload(s, eta, second) == VF_OK);
    vf_height_disturb_push dp = vf_height_disturb_params(s, 0);
    dp.drop_count = 3;
    dp.drop_base = 17;
    dp.edge_cells = 2; /* the divergence of the flow's two end columns is left out */
    dp.user_x = 1.7f; /* and a drop from the viewer's pointer */
    dp.user_y = 1.2f;
    dp.user_amp = 0.04f;
    /* the disturbance alone: run it through a step with an integrator that
     * does nothing (dt = 0 keeps eta; adi with dt = 0 gives eta^(n+1) = eta^n) */
    vf_height_step_push sp = vf_height_step_params(s, 0.0);
    sp.dt = 0.0f;
    sp.flags &= ~VF_HEIGHT_STEP_HULL;
    run_step(gpu, s, &sp, &dp);
    vf_height_state st;
    vf_height_get_state(s, &st);
    CHECK(vf_height_download(s, g_eta, integrator ? g_second : NULL) == VF_OK);
    CHECK(vf_buffer_read(st.pres, 0, g_pres, h.n * 4) == VF_OK);
    memcpy(ref_eta, eta, h.n * 4);
    memcpy(ref_prev, second, h.n * 4);
    vf_height_ref_disturb(&dp, ref_eta, ref_prev, h.bed, h.flags, pres, fp, fdiv);
    size_t w = 0;
    double de = max_diff(g_eta, ref_eta, h.n, &w), dpres = max_diff(g_pres, pres, h.n, &w);
    double moved = max_diff(ref_eta, eta, h.n, &w);
    printf("max |eta gpu - cpu| = %.3g (disturbance up to %.3g m), |pres gpu - cpu| = %.3g\n", de, moved, dpres);
    CHECK(moved > 1e-3);
    CHECK_LE(de, 3e-6);
    CHECK_LE(dpres, 3e-6);
    if (integrator) {
        /* adi: eta^(n-1) moved with eta^n (no velocity kick); after the
         * zero-length step the roles rotate, so the new prev is the disturbed eta */
        double dprev = max_diff(g_second, ref_eta, h.n, &w);
        printf("adi: eta^(n-1) after the step vs disturbed eta: %.3g\n", dprev);
        CHECK_LE(dprev, 3e-6);
    }
    if (coupling == VF_HEIGHT_COUPLE_DIVERGENCE) {
        /* Klein et al.: a mass surplus (negative divergence) raises the surface */
        vf_height_disturb_push q = dp;
        q.drop_count = 0;
        q.user_amp = 0.0f;
        q.edge_cells = 0;
        float *a = calloc(h.n, 4), *b = calloc(h.n, 4), *z = calloc(h.n, 4);
        float *neg = malloc(fnx * fny * 4);
        for (uint32_t i = 0; i < fnx * fny; i++)
            neg[i] = -1.0f;
        for (size_t i = 0; i < h.n; i++)
            a[i] = (h.flags[i] & VF_HEIGHT_SOLID) ? h.bed[i] : fmaxf(0.0f, h.bed[i]);
        vf_height_ref_disturb(&q, a, b, h.bed, h.flags, z, fp, neg);
        int rise = 0, wet = 0;
        for (size_t i = 0; i < h.n; i++)
            if (!(h.flags[i] & VF_HEIGHT_SOLID) && h.bed[i] < 0.0f)
                wet++, rise += a[i] > 0.0f;
        CHECK_EQ_INT(rise, wet);
        free(a), free(b), free(z), free(neg);
    }
    free(fp), free(fdiv), free(eta), free(second), free(pres), free(ref_eta), free(ref_prev), free(g_eta),
        free(g_second), free(g_pres);
    free_host(&h);
    vf_solver_destroy(&s);
    vf_buffer_destroy(&bp);
    vf_buffer_destroy(&bd);
}

static void test_drop_volume(void)
{
    vf_test_section("a drop is volume neutral (cpu shape)");
    const uint32_t n = 64;
    float *eta = calloc(n * n, 4), *bed = malloc(n * n * 4);
    uint32_t *flags = calloc(n * n, 4);
    for (uint32_t i = 0; i < n * n; i++)
        bed[i] = -1.0f;
    vf_height_disturb_push p = {.nx = n, .ny = n, .dx = 0.05f, .seed = 5, .drop_count = 1, .drop_sigma = 0.15f,
                                .drop_amp = 0.05f, .flow_nx = 1, .flow_ny = 1};
    /* find a drop whose crater lies inside the domain */
    for (p.drop_base = 0; p.drop_base < 100; p.drop_base++) {
        float x = vf_height_hash01(5, 3 * p.drop_base) * n * p.dx, y = vf_height_hash01(5, 3 * p.drop_base + 1) * n * p.dx;
        if (x > 1.0f && x < n * p.dx - 1.0f && y > 1.0f && y < n * p.dx - 1.0f)
            break;
    }
    vf_height_ref_disturb(&p, eta, NULL, bed, flags, NULL, NULL, NULL);
    double sum = 0, sumabs = 0;
    for (uint32_t i = 0; i < n * n; i++)
        sum += eta[i], sumabs += fabs(eta[i]);
    printf("drop: net volume %.3g of displaced %.3g (relative %.2g)\n", sum, sumabs, sum / sumabs);
    CHECK(sumabs > 0.1);
    CHECK_LE(fabs(sum / sumabs), 2e-3);
    free(eta), free(bed), free(flags);
}

/* The volume sum of the pass that ends a frame (the explicit step, the ADI
 * column sweep, or the disturbances after either), against the host sum of
 * the state it wrote, then the frame's end (the correction and the objects
 * in one dispatch) against the CPU references. nx x ny sets how many
 * workgroups take part (the last one of each block of
 * VF_HEIGHT_VOLUME_BLOCK, and the last block, sum); rows and cells the work
 * per invocation (vf_height_desc.rows, end_cells: the CPU device's
 * choice and the GPU's). */
static void test_volume(vf_gpu *gpu, int integrator, uint32_t nx, uint32_t ny, int rows, int cells)
{
    printf("-- volume sum and correction (%s, %ux%u, %d rows, %d cells per invocation): gpu vs cpu\n",
           integrator ? "adi" : "explicit", nx, ny, rows, cells);
    vf_height_desc d = base_desc(integrator);
    d.nx = nx;
    d.ny = ny;
    d.volume_fix = true;
    d.rows = rows;
    d.end_cells = cells;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    host h;
    read_static(s, &h);
    float *eta0 = malloc(h.n * 4), *eta = malloc(h.n * 4), *second = malloc(h.n * 4), *g = malloc(h.n * 4),
          *g2 = malloc(h.n * 4), *c = malloc(h.n * 4), *c2 = malloc(h.n * 4);
    CHECK(vf_height_download(s, eta0, NULL) == VF_OK);
    uint32_t wet0 = 0;
    double target = vf_height_ref_excess(nx, ny, eta0, h.bed, h.flags, &wet0, NULL);
    vf_height_volume_result r0;
    CHECK(vf_height_read_volume_result(s, &r0) == VF_OK);
    CHECK_EQ_INT(r0.corrections, 0);
    /* twice per last pass: the count of arrived workgroups must start from 0 again */
    for (int run = 0; run < 4; run++) {
        const int disturb = run >= 2;
        random_eta(&h, eta, 0.1f);
        for (size_t i = 0; i < h.n; i++) {
            if (eta[i] > h.bed[i])
                eta[i] += 0.013f * (run + 1); /* a net gain to remove */
            second[i] = integrator ? eta[i] : 0.2f * (2.0f * frand() - 1.0f); /* adi: at rest */
        }
        CHECK(vf_height_upload(s, eta, second) == VF_OK);
        vf_height_step_push sp = vf_height_step_params(s, 0.7);
        vf_height_disturb_push dp = vf_height_disturb_params(s, 0);
        dp.drop_count = disturb ? 3 : 0;
        dp.drop_base = 5;
        run_step_volume(gpu, s, &sp, &dp, true);
        CHECK(vf_height_download(s, g, g2) == VF_OK);
        vf_height_volume_result r;
        CHECK(vf_height_read_volume_result(s, &r) == VF_OK);
        uint32_t wet = 0;
        double depth = 0;
        double excess = vf_height_ref_excess(nx, ny, g, h.bed, h.flags, &wet, &depth);
        printf("%s: gpu excess %.7g, cpu %.7g (difference %.2g); depth gpu %.7g cpu %.7g; wet cells gpu %u cpu %u; "
               "scale %.4g (target %.4g)\n", disturb ? "step + drops" : "step", r.excess, excess, r.excess - excess,
               r.depth, depth, r.wet, wet, r.scale, target);
        /* fp32 sums: within 1e-7 m per cell (the resolution of a float near 1 m of depth) */
        const double tol = 1e-7 * (double)h.n;
        CHECK_NEAR(r.excess, excess, tol);
        CHECK_REL(r.depth, depth, 1e-6, 1.0);
        CHECK_EQ_INT(r.wet, wet);
        CHECK_REL(r.scale, (target - excess) / depth, 1e-5, 1e-6);
        CHECK_EQ_INT(r.corrections, run + 1);
        CHECK_EQ_INT(r.arrived, 0);
        CHECK(fabs(excess - target) > 1e-3 * wet); /* there is something to correct */
        /* the frame's end: the objects move on the uncorrected surface, the cells are corrected */
        vf_height_state st;
        vf_height_get_state(s, &st);
        vf_height_object *o = calloc(st.object_count, sizeof *o), *go = calloc(st.object_count, sizeof *go);
        CHECK(vf_height_read_objects(s, o) == VF_OK);
        vf_height_objects_push op = vf_height_objects_params(s);
        op.dt = 0.1f;
        CHECK(vf_height_run_frame_end(s, &op, true) == VF_OK);
        vf_height_ref_objects(&op, g, h.bed, h.flags, NULL, NULL, o);
        CHECK(vf_height_read_objects(s, go) == VF_OK);
        double worst = 0;
        for (uint32_t k = 0; k < st.object_count; k++)
            worst = fmax(worst, fabs(go[k].x - o[k].x) + fabs(go[k].y - o[k].y) + fabs(go[k].z - o[k].z) +
                                    fabs(go[k].vx - o[k].vx) + fabs(go[k].vy - o[k].vy));
        CHECK_LE(worst, 1e-4);
        free(o), free(go);
        CHECK(vf_height_download(s, c, c2) == VF_OK);
        vf_height_ref_volume_apply(nx, ny, integrator ? VF_HEIGHT_END_PREV : 0, r.scale, g, g2, h.bed, h.flags);
        size_t w = 0;
        CHECK_LE(max_diff(c, g, h.n, &w), 1e-6);
        CHECK_LE(max_diff(c2, g2, h.n, &w), 1e-6); /* explicit: the velocity, unchanged */
        double after = vf_height_ref_excess(nx, ny, c, h.bed, h.flags, NULL, NULL);
        printf("excess after the correction %.6g (target %.6g)\n", after, target);
        CHECK_NEAR(after, target, tol);
    }
    free(eta0), free(eta), free(second), free(g), free(g2), free(c), free(c2);
    free_host(&h);
    vf_solver_destroy(&s);
}

static void test_objects(vf_gpu *gpu, int integrator)
{
    printf("-- floating objects (%s): gpu vs cpu\n", integrator ? "adi" : "explicit");
    vf_height_desc d = base_desc(integrator);
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    host h;
    read_static(s, &h);
    float *eta = malloc(h.n * 4), *g = malloc(h.n * 4);
    random_eta(&h, eta, 0.1f);
    CHECK(vf_height_upload(s, eta, eta) == VF_OK);
    CHECK(vf_height_download(s, g, NULL) == VF_OK);

    /* objects: a flow velocity field, one frame of motion */
    vf_height_state st;
    vf_height_get_state(s, &st);
    const uint32_t fnx = 9, fny = 7;
    float *fv = malloc(fnx * fny * 8);
    for (uint32_t i = 0; i < fnx * fny * 2; i++)
        fv[i] = 0.6f * (2.0f * frand() - 1.0f);
    vf_buffer *bv = make_flow_buffer(gpu, fv, fnx * fny * 2, "test flow velocity");
    vf_height_flow flow = {.velocity = bv, .nx = fnx, .ny = fny};
    CHECK(vf_height_set_flow(s, &flow) == VF_OK);
    vf_height_object *o = calloc(st.object_count, sizeof *o), *go = calloc(st.object_count, sizeof *go);
    CHECK(vf_height_read_objects(s, o) == VF_OK);
    CHECK_EQ_INT(st.object_count, 11);
    CHECK_EQ_INT(o[0].kind, VF_HEIGHT_OBJ_BOAT);
    int same = 0; /* every object starts at its own place */
    for (uint32_t a = 0; a < st.object_count; a++)
        for (uint32_t b = a + 1; b < st.object_count; b++)
            same += o[a].x == o[b].x && o[a].y == o[b].y;
    CHECK_EQ_INT(same, 0);
    vf_height_objects_push op = vf_height_objects_params(s);
    op.dt = 0.1f;
    CHECK_EQ_INT(op.flow, 1);
    for (int rep = 0; rep < 3; rep++)
        CHECK(vf_height_run_frame_end(s, &op, false) == VF_OK);
    for (int rep = 0; rep < 3; rep++)
        vf_height_ref_objects(&op, g, h.bed, h.flags, fv, NULL, o);
    CHECK(vf_height_read_objects(s, go) == VF_OK);
    double worst = 0;
    for (uint32_t k = 0; k < st.object_count; k++) {
        worst = fmax(worst, fabs(go[k].x - o[k].x) + fabs(go[k].y - o[k].y) + fabs(go[k].z - o[k].z));
        worst = fmax(worst, fabs(go[k].vx - o[k].vx) + fabs(go[k].vy - o[k].vy));
        double dh = fabs(go[k].heading - o[k].heading);
        worst = fmax(worst, fmin(dh, fabs(dh - 6.28318531)));
    }
    printf("objects after 3 frames: max |gpu - cpu| = %.3g (object 1 at %.3f, %.3f)\n", worst, go[1].x, go[1].y);
    CHECK_LE(worst, 1e-4);

    /* MAC-staggered flow (u on x faces, v on y faces), a velocity scale, and
     * recycling at the right end (one leaf placed just before it) */
    float *fu = malloc((fnx + 1) * fny * 4), *fvv = malloc(fnx * (fny + 1) * 4);
    for (uint32_t i = 0; i < (fnx + 1) * fny; i++)
        fu[i] = 0.4f + 0.3f * (2.0f * frand() - 1.0f);
    for (uint32_t i = 0; i < fnx * (fny + 1); i++)
        fvv[i] = 0.3f * (2.0f * frand() - 1.0f);
    vf_buffer *bu = make_flow_buffer(gpu, fu, (fnx + 1) * fny, "test flow u faces");
    vf_buffer *bvv = make_flow_buffer(gpu, fvv, fnx * (fny + 1), "test flow v faces");
    vf_height_flow mac = {.velocity = bu, .velocity_v = bvv, .layout = VF_HEIGHT_FLOW_MAC, .nx = fnx, .ny = fny,
                          .velocity_scale = 1.5f};
    CHECK(vf_height_set_flow(s, &mac) == VF_OK);
    vf_height_flow bad = mac;
    bad.velocity_v = NULL;
    CHECK(vf_height_set_flow(s, &bad) == VF_ERR_INVALID_ARG);
    CHECK(vf_height_read_objects(s, o) == VF_OK);
    /* leaf 2 right before the right end, on the left half's water (the beach rises on the right) */
    o[2].x = 37 * 0.1f - 0.06f;
    o[2].y = 0.5f;
    o[2].vx = 1.0f;
    vf_height_state st2;
    vf_height_get_state(s, &st2);
    CHECK(vf_buffer_write(st2.objects, 0, o, st2.object_count * sizeof *o) == VF_OK);
    op = vf_height_objects_params(s);
    op.dt = 0.1f;
    op.recycle = 1;
    CHECK_EQ_INT(op.flow_layout, VF_HEIGHT_FLOW_MAC);
    for (int rep = 0; rep < 3; rep++)
        CHECK(vf_height_run_frame_end(s, &op, false) == VF_OK);
    for (int rep = 0; rep < 3; rep++)
        vf_height_ref_objects(&op, g, h.bed, h.flags, fu, fvv, o);
    CHECK(vf_height_read_objects(s, go) == VF_OK);
    worst = 0;
    for (uint32_t k = 0; k < st.object_count; k++)
        worst = fmax(worst, fabs(go[k].x - o[k].x) + fabs(go[k].y - o[k].y) + fabs(go[k].vx - o[k].vx) +
                                fabs(go[k].vy - o[k].vy));
    printf("objects in a MAC flow after 3 frames: max |gpu - cpu| = %.3g; leaf 2 recycled to x = %.3f m\n", worst, go[2].x);
    CHECK_LE(worst, 1e-4);
    CHECK_LE(go[2].x, 1.0);
    vf_buffer_destroy(&bu);
    vf_buffer_destroy(&bvv);
    free(fu), free(fvv);
    free(o), free(go), free(fv), free(eta), free(g);
    free_host(&h);
    vf_solver_destroy(&s);
    vf_buffer_destroy(&bv);
}

/* A stand-in flow solver: its frame fills its pressure buffer with 2000 Pa. */
typedef struct fake_flow {
    vf_solver base;
    vf_buffer *p;
    int recorded;
    int *destroyed;
} fake_flow;

static void fake_destroy(vf_solver *s)
{
    fake_flow *f = (fake_flow *)s;
    *f->destroyed = 1;
    vf_buffer_destroy(&f->p);
    free(f);
}

static vf_result fake_record(vf_solver *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t *substeps)
{
    (void)prof;
    *substeps = 0; /* all its work is before the substeps */
    fake_flow *f = (fake_flow *)s;
    float pa = 2000.0f;
    uint32_t bits;
    memcpy(&bits, &pa, 4);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                   VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, f->p->buffer, 0, VK_WHOLE_SIZE, bits);
    vf_cmd_barrier_transfer_to_compute(cmd);
    f->recorded++;
    return VF_OK;
}

static const vf_solver_vtable fake_vt = {.family = "fake", .destroy = fake_destroy, .frame_begin = fake_record};

static void fake_bind(vf_solver *s, vf_height_flow *out)
{
    *out = (vf_height_flow){.pressure = ((fake_flow *)s)->p, .nx = 4, .ny = 4};
}

static void test_flow_solver(vf_gpu *gpu)
{
    vf_test_section("an attached flow solver: recorded every frame, pressure tracked, destroyed with the height solver");
    vf_height_desc d = base_desc(VF_HEIGHT_INT_EXPLICIT);
    d.boat = false;
    d.coupling = VF_HEIGHT_COUPLE_NONE;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    int destroyed = 0;
    fake_flow *f = calloc(1, sizeof *f);
    f->base.vt = &fake_vt;
    f->base.gpu = gpu;
    f->base.frame_dt = d.frame_dt * 2; /* wrong first */
    f->destroyed = &destroyed;
    vf_buffer_desc bd = {.size = 64, .name = "fake flow pressure"};
    CHECK(vf_buffer_create(gpu, &bd, &f->p) == VF_OK);
    vf_height_flow_source src = {.solver = &f->base, .bind = fake_bind};
    CHECK(vf_height_attach_flow_solver(s, &src) == VF_ERR_INVALID_ARG);
    f->base.frame_dt = d.frame_dt;
    CHECK(vf_height_attach_flow_solver(s, &src) == VF_OK);
    host h;
    read_static(s, &h);
    float *eta0 = malloc(h.n * 4), *eta1 = malloc(h.n * 4), *pres = malloc(h.n * 4);
    CHECK(vf_height_download(s, eta0, NULL) == VF_OK);
    VkCommandBuffer cmd;
    CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
    for (int k = 0; k < 2; k++) {
        CHECK(vf_solver_record_frame(s, cmd, NULL) == VF_OK);
        CHECK(vf_solver_frame_done(s) == VF_OK);
    }
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    CHECK_EQ_INT(f->recorded, 2);
    CHECK_EQ_U64(f->base.frames, 2);
    vf_height_state st;
    vf_height_get_state(s, &st);
    CHECK(vf_buffer_read(st.pres, 0, pres, h.n * 4) == VF_OK);
    CHECK(vf_height_download(s, eta1, NULL) == VF_OK);
    double worst = 0, moved = 0;
    for (size_t i = 0; i < h.n; i++) {
        if (h.flags[i] & VF_HEIGHT_SOLID)
            continue;
        worst = fmax(worst, fabs(pres[i] - 2000.0 / (1000.0 * 9.81)));
        moved = fmax(moved, fabs(eta1[i] - eta0[i]));
    }
    printf("pressure height tracked to within %.3g m of p/(rho g); eta moved by %.3g m (coupling=none: 0)\n", worst, moved);
    CHECK_LE(worst, 1e-6);
    CHECK_LE(moved, 0.0);
    vf_solver_destroy(&s);
    CHECK_EQ_INT(destroyed, 1);
    free(eta0), free(eta1), free(pres);
    free_host(&h);
}

/* height_advect against vf_height_ref_advect: random wet state on the beach +
 * pillar scene, a random flow of up to 1.5 m/s (several cells per frame at
 * dt = 0.25 s, so traces cross dry and solid cells and leave the domain),
 * cell-centred then MAC; the second array (velocity of height or eta^(n-1))
 * travels with eta. Tolerance per field: 1e-6 (a few roundings of the O(1)
 * values; GLSL's mix may round differently from a + (b - a) t) plus
 * 8 n eps times the field's largest jump between side neighbours. The foot of
 * the trace, in cells (up to n = max(nx, ny)), may differ by about 4 ulp of n
 * per axis: Vulkan allows 2.5 ulp for a division, and a driver may fuse
 * p - dt v and the flow's own interpolation into FMAs (NVIDIA does, lavapipe
 * does not); a foot moved by d cells moves the value by at most d times the
 * jump on each of the two axes. With the second field of the explicit case
 * (random in [-1, 1]) that is about 7e-5; a wrong cell or weight moves a value
 * by a good part of a jump. */
static void test_advect(vf_gpu *gpu, int integrator)
{
    vf_test_section(integrator ? "advection of the surface state by the flow (adi)"
                               : "advection of the surface state by the flow (explicit)");
    vf_height_desc d = base_desc(integrator);
    d.boat = false;
    d.leaves = d.ducks = 0;
    d.advect = true;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    host h;
    read_static(s, &h);
    size_t n = h.n;
    float *eta = malloc(n * 4), *sec = malloc(n * 4), *re = malloc(n * 4), *rs = malloc(n * 4), *ge = malloc(n * 4),
          *gs = malloc(n * 4);
    const uint32_t fnx = 11, fny = 9;
    float *fv = malloc(fnx * fny * 2 * 4), *fu = malloc((fnx + 1) * fny * 4), *fw = malloc(fnx * (fny + 1) * 4);
    for (uint32_t i = 0; i < fnx * fny * 2; i++)
        fv[i] = 1.5f * (2.0f * frand() - 1.0f);
    for (uint32_t i = 0; i < (fnx + 1) * fny; i++)
        fu[i] = 0.5f + 0.8f * (2.0f * frand() - 1.0f);
    for (uint32_t i = 0; i < fnx * (fny + 1); i++)
        fw[i] = 0.8f * (2.0f * frand() - 1.0f);
    vf_buffer *bv = make_flow_buffer(gpu, fv, fnx * fny * 2, "test flow velocity");
    vf_buffer *bu = make_flow_buffer(gpu, fu, (fnx + 1) * fny, "test flow u faces");
    vf_buffer *bw = make_flow_buffer(gpu, fw, fnx * (fny + 1), "test flow v faces");
    CHECK(vf_height_run_advect(s, &(vf_height_advect_push){0}) == VF_ERR_INVALID_ARG); /* no flow yet */
    for (int layout = 0; layout < 2; layout++) {
        vf_height_flow flow = {.velocity = bv, .layout = VF_HEIGHT_FLOW_CELL, .nx = fnx, .ny = fny};
        if (layout)
            flow = (vf_height_flow){.velocity = bu, .velocity_v = bw, .layout = VF_HEIGHT_FLOW_MAC, .nx = fnx,
                                    .ny = fny, .velocity_scale = 1.5f};
        CHECK(vf_height_set_flow(s, &flow) == VF_OK);
        random_eta(&h, eta, 0.2f);
        for (size_t i = 0; i < n; i++)
            sec[i] = integrator ? fmaxf(eta[i] + 0.05f * (2.0f * frand() - 1.0f), h.bed[i]) : 2.0f * frand() - 1.0f;
        CHECK(vf_height_upload(s, eta, sec) == VF_OK);
        vf_height_advect_push p = vf_height_advect_params(s);
        p.dt = 0.25f;
        CHECK_EQ_INT(p.flow_layout, layout ? VF_HEIGHT_FLOW_MAC : VF_HEIGHT_FLOW_CELL);
        CHECK(vf_height_run_advect(s, &p) == VF_OK);
        CHECK(vf_height_download(s, ge, gs) == VF_OK);
        vf_height_ref_advect(&p, eta, sec, h.bed, h.flags, layout ? fu : fv, layout ? fw : NULL, re, rs);
        size_t we = 0, ws = 0, changed = 0;
        double de = max_diff(ge, re, n, &we), ds = max_diff(gs, rs, n, &ws);
        double foot = 8.0 * fmax(p.nx, p.ny) * FLT_EPSILON;
        double tol_e = 1e-6 + foot * max_jump(eta, p.nx, p.ny), tol_s = 1e-6 + foot * max_jump(sec, p.nx, p.ny);
        for (size_t i = 0; i < n; i++)
            changed += re[i] != eta[i];
        printf("  %s flow: max |gpu - cpu| eta %.3g m (tol %.2g), second %.3g (tol %.2g); %zu of %zu cells changed\n",
               layout ? "mac" : "cell", de, tol_e, ds, tol_s, changed, n);
        CHECK_MSG(de <= tol_e, "eta at cell %zu: gpu %.9g cpu %.9g", we, ge[we], re[we]);
        CHECK_MSG(ds <= tol_s, "second at cell %zu: gpu %.9g cpu %.9g", ws, gs[ws], rs[ws]);
        CHECK(changed > n / 2);
    }
    vf_solver_destroy(&s);
    vf_buffer_destroy(&bv);
    vf_buffer_destroy(&bu);
    vf_buffer_destroy(&bw);
    free(eta), free(sec), free(re), free(rs), free(ge), free(gs), free(fv), free(fu), free(fw);
    free_host(&h);
}

/* The desc's cell arrays: solid cells become VF_HEIGHT_SOLID with their
 * bed above the water and eta on it; a level cell starts at its surface
 * (init does not apply there), dry on its bed when the level is below it,
 * solid when both are given; the other cells keep the cosine start. The
 * largest start depth counts the level cells. The arrays are freed right
 * after create (create keeps no pointer to them). */
static void test_cells(vf_gpu *gpu)
{
    vf_test_section("obstacle and level cells given as arrays");
    vf_height_desc d = base_desc(VF_HEIGHT_INT_EXPLICIT);
    d.bed_shape = VF_HEIGHT_BED_FLAT;
    d.pillar = d.boat = false;
    d.leaves = d.ducks = 0;
    d.init = VF_HEIGHT_INIT_COSINE;
    d.init_amplitude = 0.05;
    const size_t n = (size_t)d.nx * d.ny;
    uint8_t *solid = calloc(n, 1);
    double *level = malloc(n * sizeof(double));
    double *start = malloc(n * sizeof(double));
    float *eta = malloc(n * sizeof(float));
    if (!CHECK(solid && level && start && eta))
        goto done;
    for (int j = 0; j < d.ny; j++)
        for (int i = 0; i < d.nx; i++) {
            size_t idx = (size_t)j * d.nx + i;
            solid[idx] = i >= 2 && i < 5 && j >= 3 && j < 7;
            level[idx] = NAN;
            if (i >= 20 && i < 26 && j >= 10 && j < 15)
                level[idx] = d.surface + 0.25; /* raised water */
            else if (i >= 30 && i < 33 && j >= 20 && j < 24)
                level[idx] = d.bed - 0.5; /* below the bed: dry */
            else if (i == 3 && j == 4)
                level[idx] = d.surface + 0.1; /* solid wins */
            const double x = (i + 0.5) * d.dx, lx = d.nx * d.dx; /* as the solver computes them */
            start[idx] = isnan(level[idx]) ? d.init_amplitude * cos(3.14159265358979323846 * x / lx)
                                           : level[idx] - d.surface;
        }
    vf_height_desc plain = d;
    d.solid = solid;
    d.level = level;
    CHECK_MSG(fabs(vf_height_max_depth(&plain) - (d.surface - d.bed)) < 1e-12, "max depth %g without cells",
              vf_height_max_depth(&plain));
    CHECK_MSG(fabs(vf_height_max_depth(&d) - (d.surface + 0.25 - d.bed)) < 1e-12, "max depth %g with level cells",
              vf_height_max_depth(&d));
    vf_solver *s = NULL;
    char err[256] = "";
    vf_result r = vf_height_create(gpu, &d, &s, NULL, err, sizeof err);
    free(level);
    level = NULL;
    uint8_t *given = solid; /* kept for the comparison, not by the solver */
    solid = NULL;
    if (!CHECK_MSG(r == VF_OK, "create: %s (%s)", vf_result_message(r), err)) {
        free(given);
        goto done;
    }
    host h;
    read_static(s, &h);
    CHECK(vf_height_download(s, eta, NULL) == VF_OK);
    size_t bad_flags = 0, bad_eta = 0, solids = 0, raised = 0, dry = 0;
    for (size_t idx = 0; idx < n; idx++) {
        bool is_solid = (h.flags[idx] & VF_HEIGHT_SOLID) != 0;
        bad_flags += is_solid != (given[idx] != 0);
        float want = is_solid ? h.bed[idx] : fmaxf((float)start[idx], h.bed[idx]);
        bad_eta += eta[idx] != want;
        solids += is_solid;
        raised += !is_solid && eta[idx] > 0.2f;
        dry += !is_solid && eta[idx] == h.bed[idx];
        if (is_solid)
            bad_eta += !(h.bed[idx] > 0.0f); /* drawn as a column above the water */
    }
    printf("  %zu solid, %zu raised, %zu dry cells, %zu with a flag or eta off\n", solids, raised, dry,
           bad_flags + bad_eta);
    CHECK_EQ_INT((int)solids, 12);
    CHECK_EQ_INT((int)raised, 30);
    CHECK_EQ_INT((int)dry, 12);
    CHECK_EQ_INT((int)bad_flags, 0);
    CHECK_EQ_INT((int)bad_eta, 0);
    free(given);
    free_host(&h);
    vf_solver_destroy(&s);

    /* every cell solid: no water left, the solver's own message */
    uint8_t *all = malloc(n);
    if (CHECK(all != NULL)) {
        memset(all, 1, n);
        plain.solid = all;
        err[0] = 0;
        const char *key = NULL;
        CHECK(vf_height_validate(&plain, &key, err, sizeof err) == VF_ERR_INVALID_ARG);
        CHECK(key && !strcmp(key, "surface")); /* the key comes back apart from the text */
        CHECK_STR_CONTAINS(err, "zero or negative everywhere");
        free(all);
    }
done:
    free(solid);
    free(level);
    free(start);
    free(eta);
}

/* ------------------------------------------------------------------ floor caustics */

#define CAUSTICS_PI 3.14159265358979323846

/* A cosine surface eta = A cos(k (x - xc)) over a flat bed at depth D, lit
 * from straight above: a photon leaving x lands at
 * X(x) = x + (D + eta) tan(theta - theta'), theta the slope angle, theta' its
 * refraction (Snell), so the floor's intensity at X(x) is 1 / X'(x) (area
 * ratio), evaluated here in double with a central difference. Under the
 * crest (x = xc) the light focuses: 1 / (1 - D (1 - 1/n) A k^2) to first order. */
static double exact_x(double x, double a, double k, double xc, double depth, double ior)
{
    double slope = -a * k * sin(k * (x - xc)), th = atan(slope), thr = asin(sin(th) / ior);
    return x + (depth + a * cos(k * (x - xc))) * tan(th - thr);
}

static void cosine_field(uint32_t nx, uint32_t ny, float dx, double a, double k, double xc, double depth, float *eta,
                         float *bed, uint32_t *flags)
{
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            double x = (i + 0.5) * dx;
            eta[j * nx + i] = (float)(a * cos(k * (x - xc)));
            bed[j * nx + i] = (float)-depth;
            flags[j * nx + i] = 0;
        }
}

static void test_caustics_reference(void)
{
    vf_test_section("caustics: CPU reference against the exact refraction of a cosine surface");
    enum { NX = 128, NY = 6 };
    static float eta[NX * NY], bed[NX * NY];
    static uint32_t flags[NX * NY], acc[NX * NY];
    const float dx = 0.01f;
    const double depth = 0.5, ior = 1.333, lambda = 32 * dx, k = 2 * CAUSTICS_PI / lambda, xc = 48.5 * dx;
    const double focus = 0.3; /* D (1 - 1/n) A k^2 */
    const double a = focus / (depth * (1 - 1 / ior) * k * k);
    cosine_field(NX, NY, dx, a, k, xc, depth, eta, bed, flags);
    /* four photons per cell side, as the renderer: with two, the photons
     * spread apart under a trough (0.65 dx) alias against the cell-wide
     * splat by about 8 % */
    vf_caustics_push p = {.nx = NX, .ny = NY, .dx = dx, .sub = 4, .light_x = 0, .light_y = 0, .light_z = 1,
                          .ior = (float)ior};
    vf_caustics_reference(&p, eta, bed, flags, acc);
    /* the light is conserved: every photon lands somewhere in the domain */
    double total = 0;
    for (uint32_t c = 0; c < NX * NY; c++)
        total += acc[c];
    double mean = total / (NX * NY) / VF_CAUSTICS_ONE;
    printf("mean intensity %.6f (1 within 1e-4: the light is conserved)\n", mean);
    CHECK(fabs(mean - 1.0) < 1e-4);
    /* crest (cell 48) and trough (cell 64) against the exact area ratio */
    const double h = 1e-6;
    double i_crest = 2 * h / (exact_x(xc + h, a, k, xc, depth, ior) - exact_x(xc - h, a, k, xc, depth, ior));
    double xt = xc + lambda / 2;
    double i_trough = 2 * h / (exact_x(xt + h, a, k, xc, depth, ior) - exact_x(xt - h, a, k, xc, depth, ior));
    double r_crest = (double)acc[2 * NX + 48] / VF_CAUSTICS_ONE, r_trough = (double)acc[2 * NX + 64] / VF_CAUSTICS_ONE;
    printf("under the crest: %.4f (exact %.4f, first order %.4f); under the trough: %.4f (exact %.4f)\n", r_crest,
           i_crest, 1 / (1 - focus), r_trough, i_trough);
    /* within 3 %: the cell-wide bilinear splat and the one-cell central
     * difference of the slope smooth a 32-cell wave by about 1 % */
    CHECK(r_crest > 1.3 && fabs(r_crest - i_crest) < 0.03 * i_crest);
    CHECK(r_trough < 0.85 && fabs(r_trough - i_trough) < 0.03 * i_trough);
    /* the mean over whole waves away from the edges is 1 too */
    double s = 0;
    for (uint32_t i = 32; i < 96; i++)
        s += acc[2 * NX + i];
    printf("mean over two waves %.4f (1 within 1 %%)\n", s / 64 / VF_CAUSTICS_ONE);
    CHECK(fabs(s / 64 / VF_CAUSTICS_ONE - 1.0) < 0.01);
    /* flat water: exactly 1 everywhere, also lit obliquely */
    for (uint32_t c = 0; c < NX * NY; c++)
        eta[c] = 0;
    p.light_x = 0.4f;
    p.light_y = -0.3f;
    p.light_z = sqrtf(1 - 0.25f);
    vf_caustics_reference(&p, eta, bed, flags, acc);
    uint32_t off = 0;
    for (uint32_t c = 0; c < NX * NY; c++)
        off += acc[c] != VF_CAUSTICS_ONE;
    printf("flat water: %u cells not exactly 1\n", off);
    CHECK(off == 0);
}

/* Runs the GPU pass on a field and compares with the reference: every cell
 * within VF_CAUSTICS_TOL of the reference's intensity (float rounding of the
 * photon positions moves a photon's bilinear shares by a few fixed-point
 * units; a cell collects at most a few dozen photons). */
#define VF_CAUSTICS_TOL 2e-3
static void caustics_compare(vf_gpu *gpu, const char *label, const vf_caustics_push *p, const float *eta,
                             const float *bed, const uint32_t *flags)
{
    const size_t n = (size_t)p->nx * p->ny;
    uint32_t *ref = calloc(n, 4), *got = calloc(n, 4);
    vf_buffer *be = NULL, *bb = NULL, *bf = NULL;
    vf_caustics *c = NULL;
    vf_buffer_desc bd = {.size = n * 4, .name = "caustics test field"};
    vf_caustics_desc cd = {.nx = p->nx, .ny = p->ny, .sub = p->sub};
    VkCommandBuffer cmd;
    if (!CHECK(ref && got) || !CHECK(vf_buffer_create(gpu, &bd, &be) == VF_OK) ||
        !CHECK(vf_buffer_create(gpu, &bd, &bb) == VF_OK) || !CHECK(vf_buffer_create(gpu, &bd, &bf) == VF_OK) ||
        !CHECK(vf_caustics_create(gpu, &cd, &c) == VF_OK))
        goto done;
    CHECK(vf_buffer_write(be, 0, eta, n * 4) == VF_OK);
    CHECK(vf_buffer_write(bb, 0, bed, n * 4) == VF_OK);
    CHECK(vf_buffer_write(bf, 0, flags, n * 4) == VF_OK);
    /* twice in one command buffer: the second clears what the first left */
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        goto done;
    vf_caustics_record(c, cmd, p, be, bb, bf);
    vf_caustics_record(c, cmd, p, be, bb, bf);
    if (!CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK))
        goto done;
    CHECK(vf_buffer_read(vf_caustics_buffer(c), 0, got, n * 4) == VF_OK);
    vf_caustics_reference(p, eta, bed, flags, ref);
    double worst = 0, sg = 0, sr = 0, peak = 0;
    for (size_t i = 0; i < n; i++) {
        worst = fmax(worst, fabs((double)got[i] - (double)ref[i]) / VF_CAUSTICS_ONE);
        sg += got[i];
        sr += ref[i];
        peak = fmax(peak, (double)ref[i] / VF_CAUSTICS_ONE);
    }
    printf("%-34s sub %u: max |gpu - cpu| %.2e (tol %.0e), brightest %.3f, light gpu %.6f cpu %.6f\n", label, p->sub,
           worst, VF_CAUSTICS_TOL, peak, sg / (double)n / VF_CAUSTICS_ONE, sr / (double)n / VF_CAUSTICS_ONE);
    CHECK(worst <= VF_CAUSTICS_TOL);
    CHECK(fabs(sg - sr) / fmax(sr, 1.0) < 1e-5);
done:
    vf_caustics_destroy(&c);
    vf_buffer_destroy(&be);
    vf_buffer_destroy(&bb);
    vf_buffer_destroy(&bf);
    free(ref);
    free(got);
}

static void test_caustics_gpu(vf_gpu *gpu)
{
    vf_test_section("caustics: GPU pass against the CPU reference");
    /* the cosine, lit from straight above and as the renderer's sun */
    enum { NX = 128, NY = 6 };
    static float eta[NX * NY], bed[NX * NY];
    static uint32_t flags[NX * NY];
    const double k = 2 * CAUSTICS_PI / 0.32;
    cosine_field(NX, NY, 0.01f, 0.3 / (0.5 * (1 - 1 / 1.333) * k * k), k, 0.485, 0.5, eta, bed, flags);
    vf_caustics_push p = {.nx = NX, .ny = NY, .dx = 0.01f, .sub = 4, .light_z = 1, .ior = 1.333f};
    caustics_compare(gpu, "cosine, sun overhead", &p, eta, bed, flags);
    p.light_x = -0.35f / 1.0f;
    p.light_y = -0.76f;
    p.light_z = 0.55f;
    float l = sqrtf(p.light_x * p.light_x + p.light_y * p.light_y + p.light_z * p.light_z);
    p.light_x /= l;
    p.light_y /= l;
    p.light_z /= l;
    caustics_compare(gpu, "cosine, oblique sun", &p, eta, bed, flags);
    /* an odd-sized pool of random bumps with a beach (dry cells), an obstacle
     * and focusing strong enough to fold the light */
    enum { MX = 45, MY = 37 };
    static float e2[MX * MY], b2[MX * MY];
    static uint32_t f2[MX * MY];
    for (uint32_t j = 0; j < MY; j++)
        for (uint32_t i = 0; i < MX; i++) {
            uint32_t c = j * MX + i;
            b2[c] = i > 34 ? -0.4f + 0.06f * (float)(i - 34) : -0.4f;
            e2[c] = 0.004f * (frand() - 0.5f) + 0.003f * sinf(0.7f * (float)i) * cosf(0.5f * (float)j);
            if (e2[c] < b2[c])
                e2[c] = b2[c];
            f2[c] = (i - 12) * (i - 12) + (j - 20) * (j - 20) < 9 ? VF_HEIGHT_SOLID : 0;
        }
    vf_caustics_push q = p;
    q.nx = MX;
    q.ny = MY;
    q.dx = 0.02f;
    for (uint32_t sub = 1; sub <= VF_CAUSTICS_MAX_SUB; sub++) {
        q.sub = sub;
        caustics_compare(gpu, "random pool with a beach", &q, e2, b2, f2);
    }
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    test_explicit(gpu, 1);
    test_explicit(gpu, VF_HEIGHT_CPU_ROWS);
    test_adi(gpu);
    for (int integ = 0; integ < 2; integ++)
        for (int c = 0; c < 3; c++) {
            test_disturb(gpu, integ, c, 1);
            test_disturb(gpu, integ, c, VF_HEIGHT_CPU_ROWS);
        }
    test_drop_volume();
    for (int gpu_like = 0; gpu_like < 2; gpu_like++) {
        /* a CPU device's work per invocation, then a GPU's */
        const int rows = gpu_like ? 1 : VF_HEIGHT_CPU_ROWS, cells = gpu_like ? 1 : VF_HEIGHT_END_CPU_CELLS;
        test_volume(gpu, 0, 37, 29, rows, cells);
        test_volume(gpu, 1, 37, 29, rows, cells);
        test_volume(gpu, 0, 150, 70, rows, cells); /* 3 column-sweep workgroups */
        test_volume(gpu, 1, 150, 70, rows, cells);
    }
    /* more than one block of workgroups (2D: 32 x 9 with 8 rows, 32 x 69 with 1) */
    test_volume(gpu, 0, 512, 1100, VF_HEIGHT_CPU_ROWS, VF_HEIGHT_END_CPU_CELLS);
    test_volume(gpu, 1, 512, 1100, 1, 1);
    test_objects(gpu, 0);
    test_objects(gpu, 1);
    test_flow_solver(gpu);
    test_advect(gpu, 0);
    test_advect(gpu, 1);
    test_cells(gpu);
    test_caustics_reference();
    test_caustics_gpu(gpu);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
