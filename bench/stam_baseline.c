/* A plain single-threaded C version of Jos Stam's "Real-Time Fluid Dynamics
 * for Games" (GDC 2003) solver: an N x N grid with a one-cell border,
 * semi-Lagrangian advection, diffusion and projection each by 20
 * Gauss-Seidel sweeps. It is the comparison baseline of bench/compare_stam.sh,
 * not part of vkfluid.
 *
 * usage: stam_baseline N STEPS
 * Runs a smoke source (density and upward velocity in a patch at the bottom)
 * for STEPS steps of dt = 0.1 / N * 64 and prints one line of key=value pairs:
 * steps per second, CPU milliseconds per step, and the RMS divergence before
 * and after the last projection of the last step (decimal digits of
 * divergence removed per step and per second). */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define IX(i, j) ((i) + (n + 2) * (j))
#define SWAP(a, b)          \
    do {                    \
        float *t_ = (a);    \
        (a) = (b);          \
        (b) = t_;           \
    } while (0)

enum { SWEEPS = 20 };

static void set_bnd(int n, int b, float *x)
{
    for (int i = 1; i <= n; i++) {
        x[IX(0, i)] = b == 1 ? -x[IX(1, i)] : x[IX(1, i)];
        x[IX(n + 1, i)] = b == 1 ? -x[IX(n, i)] : x[IX(n, i)];
        x[IX(i, 0)] = b == 2 ? -x[IX(i, 1)] : x[IX(i, 1)];
        x[IX(i, n + 1)] = b == 2 ? -x[IX(i, n)] : x[IX(i, n)];
    }
    x[IX(0, 0)] = 0.5f * (x[IX(1, 0)] + x[IX(0, 1)]);
    x[IX(0, n + 1)] = 0.5f * (x[IX(1, n + 1)] + x[IX(0, n)]);
    x[IX(n + 1, 0)] = 0.5f * (x[IX(n, 0)] + x[IX(n + 1, 1)]);
    x[IX(n + 1, n + 1)] = 0.5f * (x[IX(n, n + 1)] + x[IX(n + 1, n)]);
}

static void lin_solve(int n, int b, float *x, const float *x0, float a, float c)
{
    for (int k = 0; k < SWEEPS; k++) {
        for (int j = 1; j <= n; j++)
            for (int i = 1; i <= n; i++)
                x[IX(i, j)] = (x0[IX(i, j)] + a * (x[IX(i - 1, j)] + x[IX(i + 1, j)] + x[IX(i, j - 1)] + x[IX(i, j + 1)])) / c;
        set_bnd(n, b, x);
    }
}

static void diffuse(int n, int b, float *x, const float *x0, float diff, float dt)
{
    float a = dt * diff * (float)n * (float)n;
    lin_solve(n, b, x, x0, a, 1 + 4 * a);
}

static void advect(int n, int b, float *d, const float *d0, const float *u, const float *v, float dt)
{
    float dt0 = dt * (float)n;
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++) {
            float x = (float)i - dt0 * u[IX(i, j)], y = (float)j - dt0 * v[IX(i, j)];
            if (x < 0.5f)
                x = 0.5f;
            if (x > (float)n + 0.5f)
                x = (float)n + 0.5f;
            if (y < 0.5f)
                y = 0.5f;
            if (y > (float)n + 0.5f)
                y = (float)n + 0.5f;
            int i0 = (int)x, j0 = (int)y, i1 = i0 + 1, j1 = j0 + 1;
            float s1 = x - (float)i0, s0 = 1 - s1, t1 = y - (float)j0, t0 = 1 - t1;
            d[IX(i, j)] = s0 * (t0 * d0[IX(i0, j0)] + t1 * d0[IX(i0, j1)]) + s1 * (t0 * d0[IX(i1, j0)] + t1 * d0[IX(i1, j1)]);
        }
    set_bnd(n, b, d);
}

/* RMS of the central-difference divergence over the interior, 1/s */
static double divergence_rms(int n, const float *u, const float *v)
{
    double s = 0;
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++) {
            double d = 0.5 * (double)n * (u[IX(i + 1, j)] - u[IX(i - 1, j)] + v[IX(i, j + 1)] - v[IX(i, j - 1)]);
            s += d * d;
        }
    return sqrt(s / ((double)n * n));
}

static void project(int n, float *u, float *v, float *p, float *div)
{
    float h = 1.0f / (float)n;
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++) {
            div[IX(i, j)] = -0.5f * h * (u[IX(i + 1, j)] - u[IX(i - 1, j)] + v[IX(i, j + 1)] - v[IX(i, j - 1)]);
            p[IX(i, j)] = 0;
        }
    set_bnd(n, 0, div);
    set_bnd(n, 0, p);
    lin_solve(n, 0, p, div, 1, 4);
    for (int j = 1; j <= n; j++)
        for (int i = 1; i <= n; i++) {
            u[IX(i, j)] -= 0.5f * (float)n * (p[IX(i + 1, j)] - p[IX(i - 1, j)]);
            v[IX(i, j)] -= 0.5f * (float)n * (p[IX(i, j + 1)] - p[IX(i, j - 1)]);
        }
    set_bnd(n, 1, u);
    set_bnd(n, 2, v);
}

static void add_source(int n, float *x, const float *s, float dt)
{
    for (int i = 0; i < (n + 2) * (n + 2); i++)
        x[i] += dt * s[i];
}

typedef struct state {
    float *u, *v, *u0, *v0, *d, *d0;
    double div_before, div_after;
} state;

static void vel_step(int n, state *st, float visc, float dt)
{
    add_source(n, st->u, st->u0, dt);
    add_source(n, st->v, st->v0, dt);
    SWAP(st->u0, st->u);
    diffuse(n, 1, st->u, st->u0, visc, dt);
    SWAP(st->v0, st->v);
    diffuse(n, 2, st->v, st->v0, visc, dt);
    project(n, st->u, st->v, st->u0, st->v0);
    SWAP(st->u0, st->u);
    SWAP(st->v0, st->v);
    advect(n, 1, st->u, st->u0, st->u0, st->v0, dt);
    advect(n, 2, st->v, st->v0, st->u0, st->v0, dt);
    st->div_before = divergence_rms(n, st->u, st->v);
    project(n, st->u, st->v, st->u0, st->v0);
    st->div_after = divergence_rms(n, st->u, st->v);
}

static void dens_step(int n, state *st, float diff, float dt)
{
    add_source(n, st->d, st->d0, dt);
    SWAP(st->d0, st->d);
    diffuse(n, 0, st->d, st->d0, diff, dt);
    SWAP(st->d0, st->d);
    advect(n, 0, st->d, st->d0, st->u, st->v, dt);
}

static double cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: stam_baseline N STEPS (N in 8..4096, STEPS in 1..100000)\n");
        return 2;
    }
    char *end;
    long n = strtol(argv[1], &end, 10);
    long steps = *end ? -1 : strtol(argv[2], &end, 10);
    if (n < 8 || n > 4096 || steps < 1 || steps > 100000 || *end) {
        fprintf(stderr, "stam_baseline: N must be in 8..4096 and STEPS in 1..100000\n");
        return 2;
    }
    size_t cells = (size_t)(n + 2) * (size_t)(n + 2);
    float *mem = calloc(6 * cells, sizeof(float));
    if (!mem) {
        fprintf(stderr, "stam_baseline: out of memory for N = %ld\n", n);
        return 1;
    }
    state st = {mem, mem + cells, mem + 2 * cells, mem + 3 * cells, mem + 4 * cells, mem + 5 * cells, 0, 0};
    const int N = (int)n;
    const float dt = 0.1f * 64.0f / (float)N, visc = 0.0f, diff = 0.0f;
    double w0 = wall_seconds(), c0 = cpu_seconds();
    for (long s = 0; s < steps; s++) {
        /* the source: density and upward velocity in a patch at the bottom
         * centre (re-applied every step, as in Stam's demo while the mouse
         * is held) */
        memset(st.u0, 0, cells * sizeof(float));
        memset(st.v0, 0, cells * sizeof(float));
        memset(st.d0, 0, cells * sizeof(float));
        for (int j = 1; j <= N / 16 + 1; j++)
            for (int i = N / 2 - N / 16; i <= N / 2 + N / 16; i++) {
                int n = N;
                st.v0[IX(i, j)] = 20.0f;
                st.d0[IX(i, j)] = 100.0f;
            }
        vel_step(N, &st, visc, dt);
        dens_step(N, &st, diff, dt);
    }
    double wall = wall_seconds() - w0, cpu = cpu_seconds() - c0;
    double digits = st.div_after > 0 && st.div_before > 0 ? log10(st.div_before / st.div_after) : 0.0;
    double sps = wall > 0 ? (double)steps / wall : 0.0;
    printf("baseline n=%d steps=%ld wall_s=%.4f cpu_ms_per_step=%.3f steps_per_s=%.3f div_before_rms=%.6g "
           "div_after_rms=%.6g digits_per_step=%.4f digits_per_s=%.4f\n",
           N, steps, wall, 1e3 * cpu / (double)steps, sps, st.div_before, st.div_after, digits, digits * sps);
    free(mem);
    return 0;
}
