#include "solver_grid_ref.h"

#include "ref_dft.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shared_grid.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ------------------------------------------------------------------ helpers */

static uint32_t bc(const vf_grid_ref *r, int side)
{
    return r->sides[side];
}

static bool perx(const vf_grid_ref *r)
{
    return bc(r, VF_GRID_SIDE_LEFT) == VF_GRID_BC_PERIODIC;
}

static bool pery(const vf_grid_ref *r)
{
    return bc(r, VF_GRID_SIDE_BOTTOM) == VF_GRID_BC_PERIODIC;
}

static int wrap(int i, int n)
{
    int m = i % n;
    return m < 0 ? m + n : m;
}

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

#define NX ((int)r->nx)
#define NY ((int)r->ny)
#define UI(i, j) ((size_t)(j) * (r->nx + 1) + (size_t)(i))
#define VI(i, j) ((size_t)(j) * r->nx + (size_t)(i))
#define CI(i, j) ((size_t)(j) * r->nx + (size_t)(i))

vf_grid_ref vf_grid_ref_level(const vf_grid_ref *r, uint32_t l)
{
    vf_grid_ref o = *r;
    o.nx = r->nx >> l;
    o.ny = r->ny >> l;
    o.h = r->h * (float)(1u << l);
    return o;
}

/* Where a fetch at a, outside [0, n) across the sides s0 (a < 0) and s1,
 * reads: the wrapped index on a periodic side, else the nearest inside one;
 * *side gets the side. */
static int ghost_source(const vf_grid_ref *r, int a, int n, int s0, int s1, int *side)
{
    *side = a < 0 ? s0 : s1;
    return bc(r, *side) == VF_GRID_BC_PERIODIC ? wrap(a, n) : (a < 0 ? 0 : n - 1);
}

/* A ghost's value from the value it reads: mirrored about the side's
 * velocity on no-slip and inflow sides. */
static float ghost_value(const vf_grid_ref *r, float inner, int side, float side_vel)
{
    uint32_t t = bc(r, side);
    return t == VF_GRID_BC_NOSLIP || t == VF_GRID_BC_INFLOW ? 2.0f * side_vel - inner : inner;
}

/* u at face (i, j), j in [-1, ny] (ghost rows from the bottom/top side). */
static float fetch_u(const vf_grid_ref *r, const float *u, int i, int j)
{
    if (j >= 0 && j < NY)
        return u[UI(i, j)];
    int side, k = ghost_source(r, j, NY, VF_GRID_SIDE_BOTTOM, VF_GRID_SIDE_TOP, &side);
    return ghost_value(r, u[UI(i, k)], side, r->side_u[side]);
}

/* v at face (i, j), i in [-1, nx] (ghost columns from the left/right side). */
static float fetch_v(const vf_grid_ref *r, const float *v, int i, int j)
{
    if (i >= 0 && i < NX)
        return v[VI(i, j)];
    int side, k = ghost_source(r, i, NX, VF_GRID_SIDE_LEFT, VF_GRID_SIDE_RIGHT, &side);
    return ghost_value(r, v[VI(k, j)], side, r->side_v[side]);
}

/* Grid coordinate g along an axis of n samples: sets the two indices and the
 * fraction. Periodic axes wrap; else g is clamped to [lo, hi] and i0 to at
 * most last. */
static void axis(bool periodic, int n, float g, float lo, float hi, int last, int *i0, int *i1, float *f)
{
    if (periodic) {
        float fl = floorf(g);
        *f = g - fl;
        *i0 = wrap((int)fl, n);
        *i1 = wrap((int)fl + 1, n);
    } else {
        g = clampf(g, lo, hi);
        *i0 = (int)floorf(g) < last ? (int)floorf(g) : last;
        *f = g - (float)*i0;
        *i1 = *i0 + 1;
    }
}

/* The face positions 0..n (clamp to [0, n]). */
static void axis_face(bool periodic, int n, float g, int *i0, int *i1, float *f)
{
    axis(periodic, n, g, 0.0f, (float)n, n - 1, i0, i1, f);
}

/* Cell centres with one ghost each side allowed (clamp to [-1/2, n - 1/2]). */
static void axis_centre(bool periodic, int n, float g, int *i0, int *i1, float *f)
{
    axis(periodic, n, g, -0.5f, (float)n - 0.5f, n - 1, i0, i1, f);
}

static float bilerp(float a, float b, float c, float d, float fx, float fy, float *lo, float *hi)
{
    *lo = fminf(fminf(a, b), fminf(c, d));
    *hi = fmaxf(fmaxf(a, b), fmaxf(c, d));
    float bot = a + (b - a) * fx, top = c + (d - c) * fx;
    return bot + (top - bot) * fy;
}

static float sample_u(const vf_grid_ref *r, const float *u, float px, float py, float *lo, float *hi)
{
    int i0, i1, j0, j1;
    float fx, fy;
    axis_face(perx(r), NX, px / r->h, &i0, &i1, &fx);
    axis_centre(pery(r), NY, py / r->h - 0.5f, &j0, &j1, &fy);
    return bilerp(fetch_u(r, u, i0, j0), fetch_u(r, u, i1, j0), fetch_u(r, u, i0, j1), fetch_u(r, u, i1, j1), fx, fy, lo,
                  hi);
}

static float sample_v(const vf_grid_ref *r, const float *v, float px, float py, float *lo, float *hi)
{
    int i0, i1, j0, j1;
    float fx, fy;
    axis_centre(perx(r), NX, px / r->h - 0.5f, &i0, &i1, &fx);
    axis_face(pery(r), NY, py / r->h, &j0, &j1, &fy);
    return bilerp(fetch_v(r, v, i0, j0), fetch_v(r, v, i1, j0), fetch_v(r, v, i0, j1), fetch_v(r, v, i1, j1), fx, fy, lo,
                  hi);
}

/* RK2 trace: p - dt * vel(p - dt/2 vel(p)). */
static void trace(const vf_grid_ref *r, const float *u, const float *v, float px, float py, float dt, float *ox,
                  float *oy)
{
    float lo, hi;
    float k1x = sample_u(r, u, px, py, &lo, &hi), k1y = sample_v(r, v, px, py, &lo, &hi);
    float mx = px - 0.5f * dt * k1x, my = py - 0.5f * dt * k1y;
    float k2x = sample_u(r, u, mx, my, &lo, &hi), k2y = sample_v(r, v, mx, my, &lo, &hi);
    *ox = px - dt * k2x;
    *oy = py - dt * k2y;
}

typedef struct stencil {
    size_t k[4];
    float w[4];
} stencil;

static stencil cell_stencil(const vf_grid_ref *r, float px, float py)
{
    int i0, i1, j0, j1;
    float fx, fy;
    axis(perx(r), NX, px / r->h - 0.5f, 0.0f, (float)(NX - 1), NX - 2, &i0, &i1, &fx);
    axis(pery(r), NY, py / r->h - 0.5f, 0.0f, (float)(NY - 1), NY - 2, &j0, &j1, &fy);
    stencil s = {{CI(i0, j0), CI(i1, j0), CI(i0, j1), CI(i1, j1)},
                 {(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy}};
    return s;
}

static float sample_c(const stencil *s, const float *f, const uint32_t *mask, float *lo, float *hi)
{
    float sum = 0, ws = 0;
    *lo = 3.0e38f;
    *hi = -3.0e38f;
    for (int q = 0; q < 4; q++) {
        if (mask[s->k[q]] != VF_GRID_CELL_FLUID)
            continue;
        float x = f[s->k[q]];
        sum += s->w[q] * x;
        ws += s->w[q];
        *lo = fminf(*lo, x);
        *hi = fmaxf(*hi, x);
    }
    if (ws <= 1e-6f) {
        *lo = *hi = 0;
        return 0;
    }
    return sum / ws;
}

static bool solid_cell(const uint32_t *mask, long k)
{
    return k >= 0 && mask[k] != VF_GRID_CELL_FLUID;
}

static float solid_vel(const uint32_t *mask, const float *sv, long a, long b)
{
    float s = 0, n = 0;
    if (solid_cell(mask, a)) {
        s += sv[a];
        n += 1;
    }
    if (solid_cell(mask, b)) {
        s += sv[b];
        n += 1;
    }
    return n > 0 ? s / n : 0;
}

/* The cells beside face (i, j), a u face (y false) or a v face: *a before
 * it, *b after it (wrapped on periodic sides), -1 where there is none.
 * Returns the side of the domain the face lies on when at an edge (before:
 * left or bottom, else right or top). */
static int face_cells(const vf_grid_ref *r, bool y, int i, int j, long *a, long *b)
{
    bool per = y ? pery(r) : perx(r);
    int f = y ? j : i, n = y ? NY : NX;
    int c0 = f > 0 ? f - 1 : per ? n - 1 : -1, c1 = f < n ? f : per ? 0 : -1;
    *a = c0 < 0 ? -1 : y ? (long)CI(i, c0) : (long)CI(c0, j);
    *b = c1 < 0 ? -1 : y ? (long)CI(i, c1) : (long)CI(c1, j);
    if (f == 0)
        return y ? VF_GRID_SIDE_BOTTOM : VF_GRID_SIDE_LEFT;
    return y ? VF_GRID_SIDE_TOP : VF_GRID_SIDE_RIGHT;
}

/* The fixed velocity of face (i, j) of weight 0 (sv: the solids' velocity
 * along the face's normal): a solid's, else the side's. */
static float fixed_face(const vf_grid_ref *r, const uint32_t *mask, const float *sv, bool y, int i, int j)
{
    long a, b;
    int side = face_cells(r, y, i, j, &a, &b);
    if (solid_cell(mask, a) || solid_cell(mask, b))
        return solid_vel(mask, sv, a, b);
    return bc(r, side) == VF_GRID_BC_INFLOW ? (y ? r->side_v[side] : r->side_u[side]) : 0.0f;
}

static float fixed_u(const vf_grid_ref *r, const uint32_t *mask, const float *su, int i, int j)
{
    return fixed_face(r, mask, su, false, i, j);
}

static float fixed_v(const vf_grid_ref *r, const uint32_t *mask, const float *sv, int i, int j)
{
    return fixed_face(r, mask, sv, true, i, j);
}

/* ------------------------------------------------------------------ kernels */

void vf_grid_ref_obstacles(const vf_grid_ref *r, const uint32_t *mask_static, const float *su_static,
                           const float *sv_static, uint32_t shape, float cx, float cy, float radius, float vx, float vy,
                           uint32_t *mask, float *su, float *sv)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = CI(i, j);
            uint32_t m = mask_static[k];
            float a = su_static[k], b = sv_static[k];
            if (shape) {
                float dx = fabsf((i + 0.5f) * r->h - cx), dy = fabsf((j + 0.5f) * r->h - cy);
                bool in = shape == 1 ? dx * dx + dy * dy <= radius * radius : fmaxf(dx, dy) <= radius;
                if (in) {
                    m = VF_GRID_CELL_SOLID;
                    a = vx;
                    b = vy;
                }
            }
            mask[k] = m;
            su[k] = a;
            sv[k] = b;
        }
}

static float edge_weight(const vf_grid_ref *r, int side)
{
    uint32_t t = bc(r, side);
    return t == VF_GRID_BC_OUTFLOW ? 2.0f : t == VF_GRID_BC_PERIODIC ? 1.0f : 0.0f;
}

/* The weight of face (i, j): 0 beside a solid, the side's at the domain's
 * edges, else 1. */
static float face_weight(const vf_grid_ref *r, const uint32_t *mask, bool y, int i, int j)
{
    long a, b;
    int side = face_cells(r, y, i, j, &a, &b), f = y ? j : i;
    if (solid_cell(mask, a) || solid_cell(mask, b))
        return 0;
    return f == 0 || f == (y ? NY : NX) ? edge_weight(r, side) : 1;
}

void vf_grid_ref_weights(const vf_grid_ref *r, const uint32_t *mask, float *wx, float *wy)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++)
            wx[UI(i, j)] = face_weight(r, mask, false, i, j);
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++)
            wy[VI(i, j)] = face_weight(r, mask, true, i, j);
}

void vf_grid_ref_coarsen(const vf_grid_ref *r, const float *wxf, const float *wyf, float *wxc, float *wyc)
{
    size_t fnx = 2 * r->nx;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++)
            wxc[UI(i, j)] = 0.5f * (wxf[(2 * j) * (fnx + 1) + 2 * i] + wxf[(2 * j + 1) * (fnx + 1) + 2 * i]);
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++)
            wyc[VI(i, j)] = 0.5f * (wyf[(2 * j) * fnx + 2 * i] + wyf[(2 * j) * fnx + 2 * i + 1]);
}

static float gauss(const vf_grid_ref_splat *s, float x, float y)
{
    float dx = x - s->cx, dy = y - s->cy;
    return expf(-(dx * dx + dy * dy) / (s->radius * s->radius));
}

void vf_grid_ref_splat_apply(const vf_grid_ref *r, const vf_grid_ref_splat *s, const float *u, const float *v,
                             const float *const dye[3], const float *wx, const float *wy, const uint32_t *mask,
                             float *u_out, float *v_out, float *const dye_out[3])
{
    bool vel = s->mode & VF_GRID_SPLAT_VELOCITY;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++) {
            size_t k = UI(i, j);
            float x = u[k];
            int ie = perx(r) && i == NX ? 0 : i;
            if (vel && wx[k] != 0)
                x += r->dt * s->fx * gauss(s, ie * r->h, (j + 0.5f) * r->h);
            u_out[k] = x;
        }
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = VI(i, j);
            float x = v[k];
            int je = pery(r) && j == NY ? 0 : j;
            if (wy[k] != 0) {
                if (vel)
                    x += r->dt * s->fy * gauss(s, (i + 0.5f) * r->h, je * r->h);
                if (s->mode & VF_GRID_SPLAT_BUOYANCY) {
                    int jb = je > 0 ? je - 1 : pery(r) ? NY - 1 : -1;
                    int jt = je < NY ? je : pery(r) ? 0 : -1;
                    float sum = 0, n = 0;
                    int rows[2] = {jb, jt};
                    for (int q = 0; q < 2; q++) {
                        if (rows[q] < 0)
                            continue;
                        size_t c = CI(i, rows[q]);
                        sum += mask[c] == VF_GRID_CELL_FLUID ? (dye[0][c] + dye[1][c] + dye[2][c]) * (1.0f / 3.0f) : 0;
                        n += 1;
                    }
                    x += r->dt * s->buoyancy * (n > 0 ? sum / n : 0);
                }
            }
            v_out[k] = x;
        }
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = CI(i, j);
            float c[3] = {dye[0][k], dye[1][k], dye[2][k]};
            if (mask[k] != VF_GRID_CELL_FLUID) {
                c[0] = c[1] = c[2] = 0;
            } else {
                if (s->mode & VF_GRID_SPLAT_DYE) {
                    float gk = gauss(s, (i + 0.5f) * r->h, (j + 0.5f) * r->h);
                    c[0] += r->dt * s->r * gk;
                    c[1] += r->dt * s->g * gk;
                    c[2] += r->dt * s->b * gk;
                }
                if ((s->mode & VF_GRID_SPLAT_STRIPES) && i == 0) {
                    uint32_t stripe = (uint32_t)j * s->stripes / r->ny, pick = (stripe / 2) % 3;
                    for (uint32_t ch = 0; ch < 3; ch++)
                        c[ch] = (stripe & 1) ? 0.0f : (pick == ch ? 1.0f : 0.0f);
                }
            }
            for (int ch = 0; ch < 3; ch++)
                dye_out[ch][k] = c[ch];
        }
}

static float corner_curl(const vf_grid_ref *r, const float *u, const float *v, int i, int j)
{
    return (fetch_v(r, v, i, j) - fetch_v(r, v, i - 1, j) - fetch_u(r, u, i, j) + fetch_u(r, u, i, j - 1)) / r->h;
}

void vf_grid_ref_vorticity(const vf_grid_ref *r, const float *u, const float *v, float *omega)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            omega[CI(i, j)] = 0.25f * (corner_curl(r, u, v, i, j) + corner_curl(r, u, v, i + 1, j) +
                                       corner_curl(r, u, v, i, j + 1) + corner_curl(r, u, v, i + 1, j + 1));
}

static int nbx(const vf_grid_ref *r, int i)
{
    return perx(r) ? wrap(i, NX) : clampi(i, 0, NX - 1);
}

static int nby(const vf_grid_ref *r, int j)
{
    return pery(r) ? wrap(j, NY) : clampi(j, 0, NY - 1);
}

static void conf_force(const vf_grid_ref *r, float eps, const float *w, int i, int j, float *fx, float *fy)
{
    float gx = (fabsf(w[CI(nbx(r, i + 1), j)]) - fabsf(w[CI(nbx(r, i - 1), j)])) * 0.5f;
    float gy = (fabsf(w[CI(i, nby(r, j + 1))]) - fabsf(w[CI(i, nby(r, j - 1))])) * 0.5f;
    float len = sqrtf(gx * gx + gy * gy);
    if (len < 1e-20f) {
        *fx = *fy = 0;
        return;
    }
    float o = w[CI(i, j)];
    *fx = eps * r->h * gy / len * o;
    *fy = eps * r->h * -gx / len * o;
}

/* The confinement's change of a face velocity over dt: the mean force of the
 * cells beside face (i, j), its x component on a u face (y false), its y
 * component on a v face. */
static float face_confine(const vf_grid_ref *r, float eps, const float *omega, bool y, int i, int j)
{
    bool per = y ? pery(r) : perx(r);
    int n = y ? NY : NX, a = y ? j : i;
    int e = per && a == n ? 0 : a; /* the cell after the face */
    float f[2], s = 0, cnt = 0;
    if (e > 0 || per) {
        int b = y ? nby(r, e - 1) : nbx(r, e - 1);
        conf_force(r, eps, omega, y ? i : b, y ? b : j, &f[0], &f[1]);
        s += f[y];
        cnt += 1;
    }
    if (e < n) {
        conf_force(r, eps, omega, y ? i : e, y ? e : j, &f[0], &f[1]);
        s += f[y];
        cnt += 1;
    }
    return r->dt * s / cnt;
}

void vf_grid_ref_confine(const vf_grid_ref *r, float eps, const float *u, const float *v, const float *omega,
                         const float *wx, const float *wy, float *u_out, float *v_out)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++) {
            size_t k = UI(i, j);
            u_out[k] = wx[k] != 0 ? u[k] + face_confine(r, eps, omega, false, i, j) : u[k];
        }
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = VI(i, j);
            v_out[k] = wy[k] != 0 ? v[k] + face_confine(r, eps, omega, true, i, j) : v[k];
        }
}

void vf_grid_ref_advect_velocity(const vf_grid_ref *r, bool maccormack, const float *u, const float *v,
                                 const float *wx, const float *wy, const uint32_t *mask, const float *su,
                                 const float *sv, float *hat_u, float *hat_v, float *u_out, float *v_out)
{
    float lo, hi, d0, d1, bx, by;
    /* forward semi-Lagrangian step into hat (or the output) */
    float *fu = maccormack ? hat_u : u_out, *fv = maccormack ? hat_v : v_out;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++) {
            int ie = perx(r) && i == NX ? 0 : i;
            float x;
            if (wx[UI(ie, j)] == 0) {
                x = fixed_u(r, mask, su, ie, j);
            } else {
                trace(r, u, v, ie * r->h, (j + 0.5f) * r->h, r->dt, &bx, &by);
                x = sample_u(r, u, bx, by, &lo, &hi);
            }
            fu[UI(i, j)] = x;
        }
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++) {
            int je = pery(r) && j == NY ? 0 : j;
            float x;
            if (wy[VI(i, je)] == 0) {
                x = fixed_v(r, mask, sv, i, je);
            } else {
                trace(r, u, v, (i + 0.5f) * r->h, je * r->h, r->dt, &bx, &by);
                x = sample_v(r, v, bx, by, &lo, &hi);
            }
            fv[VI(i, j)] = x;
        }
    if (!maccormack)
        return;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++) {
            int ie = perx(r) && i == NX ? 0 : i;
            size_t k = UI(ie, j);
            float x;
            if (wx[k] == 0) {
                x = fixed_u(r, mask, su, ie, j);
            } else {
                float px = ie * r->h, py = (j + 0.5f) * r->h, fx, fy;
                trace(r, u, v, px, py, r->dt, &bx, &by);
                sample_u(r, u, bx, by, &lo, &hi);
                trace(r, u, v, px, py, -r->dt, &fx, &fy);
                float back = sample_u(r, hat_u, fx, fy, &d0, &d1);
                x = clampf(hat_u[k] + 0.5f * (u[k] - back), lo, hi);
            }
            u_out[UI(i, j)] = x;
        }
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++) {
            int je = pery(r) && j == NY ? 0 : j;
            size_t k = VI(i, je);
            float x;
            if (wy[k] == 0) {
                x = fixed_v(r, mask, sv, i, je);
            } else {
                float px = (i + 0.5f) * r->h, py = je * r->h, fx, fy;
                trace(r, u, v, px, py, r->dt, &bx, &by);
                sample_v(r, v, bx, by, &lo, &hi);
                trace(r, u, v, px, py, -r->dt, &fx, &fy);
                float back = sample_v(r, hat_v, fx, fy, &d0, &d1);
                x = clampf(hat_v[k] + 0.5f * (v[k] - back), lo, hi);
            }
            v_out[VI(i, j)] = x;
        }
}

void vf_grid_ref_advect_scalars(const vf_grid_ref *r, bool maccormack, const float *u, const float *v,
                                const uint32_t *mask, uint32_t count, const float *const *src, float *const *hat,
                                float *const *out)
{
    float lo, hi, bx, by, fx, fy;
    float *const *fwd = maccormack ? hat : out;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = CI(i, j);
            if (mask[k] != VF_GRID_CELL_FLUID) {
                for (uint32_t c = 0; c < count; c++)
                    fwd[c][k] = 0;
                continue;
            }
            trace(r, u, v, (i + 0.5f) * r->h, (j + 0.5f) * r->h, r->dt, &bx, &by);
            stencil st = cell_stencil(r, bx, by);
            for (uint32_t c = 0; c < count; c++)
                fwd[c][k] = sample_c(&st, src[c], mask, &lo, &hi);
        }
    if (!maccormack)
        return;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = CI(i, j);
            if (mask[k] != VF_GRID_CELL_FLUID) {
                for (uint32_t c = 0; c < count; c++)
                    out[c][k] = 0;
                continue;
            }
            float px = (i + 0.5f) * r->h, py = (j + 0.5f) * r->h;
            trace(r, u, v, px, py, r->dt, &bx, &by);
            trace(r, u, v, px, py, -r->dt, &fx, &fy);
            stencil bst = cell_stencil(r, bx, by), fst = cell_stencil(r, fx, fy);
            for (uint32_t c = 0; c < count; c++) {
                float l2, h2;
                sample_c(&bst, src[c], mask, &lo, &hi);
                float back = sample_c(&fst, hat[c], mask, &l2, &h2);
                out[c][k] = clampf(hat[c][k] + 0.5f * (src[c][k] - back), lo, hi);
            }
        }
}

void vf_grid_ref_diffuse(const vf_grid_ref *r, uint32_t component, float alpha, float omega, uint32_t sweeps,
                         const float *rhs, const float *w, float *x)
{
    bool is_u = component == 0;
    int W = is_u ? NX + 1 : NX, H = is_u ? NY : NY + 1;
    memcpy(x, rhs, sizeof(float) * (size_t)W * H);
    bool pa = is_u ? perx(r) : pery(r), pc2 = is_u ? pery(r) : perx(r);
    int na = is_u ? NX : NY, nc = is_u ? NY : NX;
    for (uint32_t s = 0; s < sweeps; s++)
        for (int color = 0; color < 2; color++)
            for (int j = 0; j < H; j++)
                for (int i = 0; i < W; i++) {
                    size_t k = (size_t)j * W + i;
                    if (((i + j) & 1) != color || w[k] != 1.0f)
                        continue;
                    int ia = is_u ? i : j, ic = is_u ? j : i;
                    if (pa && ia == na)
                        continue;
                    float diag = 1, acc = rhs[k];
                    int am = pa ? wrap(ia - 1, na) : ia - 1, ap = pa ? wrap(ia + 1, na) : ia + 1;
                    size_t km = is_u ? (size_t)j * W + am : (size_t)am * W + i;
                    size_t kp = is_u ? (size_t)j * W + ap : (size_t)ap * W + i;
                    diag += 2 * alpha;
                    acc += alpha * (x[km] + x[kp]);
                    for (int sg = -1; sg <= 1; sg += 2) {
                        int cn = ic + sg;
                        if (cn >= 0 && cn < nc) {
                            diag += alpha;
                            acc += alpha * x[is_u ? (size_t)cn * W + i : (size_t)j * W + cn];
                        } else if (pc2) {
                            cn = wrap(cn, nc);
                            diag += alpha;
                            acc += alpha * x[is_u ? (size_t)cn * W + i : (size_t)j * W + cn];
                        } else {
                            int side = is_u ? (sg < 0 ? VF_GRID_SIDE_BOTTOM : VF_GRID_SIDE_TOP)
                                            : (sg < 0 ? VF_GRID_SIDE_LEFT : VF_GRID_SIDE_RIGHT);
                            uint32_t t = bc(r, side);
                            if (t == VF_GRID_BC_NOSLIP || t == VF_GRID_BC_INFLOW) {
                                float gv = is_u ? r->side_u[side] : r->side_v[side];
                                diag += 2 * alpha;
                                acc += 2 * alpha * gv;
                            }
                        }
                    }
                    float val = x[k] + omega * (acc / diag - x[k]);
                    x[k] = val;
                    if (pa && ia == 0)
                        x[is_u ? (size_t)j * W + na : (size_t)na * W + i] = val;
                }
}

void vf_grid_ref_boundary(const vf_grid_ref *r, const float *u, const float *v, const float *wx, const float *wy,
                          const uint32_t *mask, const float *su, const float *sv, float *u_out, float *v_out)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++) {
            int ie = perx(r) && i == NX ? 0 : i;
            size_t k = UI(ie, j);
            float x;
            if (wx[k] == 0)
                x = fixed_u(r, mask, su, ie, j);
            else if (wx[k] == 2)
                x = u[UI(ie == 0 ? 1 : NX - 1, j)];
            else
                x = u[k];
            u_out[UI(i, j)] = x;
        }
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++) {
            int je = pery(r) && j == NY ? 0 : j;
            size_t k = VI(i, je);
            float x;
            if (wy[k] == 0)
                x = fixed_v(r, mask, sv, i, je);
            else if (wy[k] == 2)
                x = v[VI(i, je == 0 ? 1 : NY - 1)];
            else
                x = v[k];
            v_out[VI(i, j)] = x;
        }
}

void vf_grid_ref_divergence(const vf_grid_ref *r, const float *u, const float *v, const uint32_t *mask, float scale,
                            float *out)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = CI(i, j);
            float d = 0;
            if (mask[k] == VF_GRID_CELL_FLUID)
                d = (u[UI(i + 1, j)] - u[UI(i, j)] + v[VI(i, j + 1)] - v[VI(i, j)]) / r->h;
            out[k] = d * scale;
        }
}

static float pcell(const vf_grid_ref *r, const float *p, int i, int j)
{
    if (perx(r))
        i = wrap(i, NX);
    if (pery(r))
        j = wrap(j, NY);
    if (i < 0 || i >= NX || j < 0 || j >= NY)
        return 0;
    return p[CI(i, j)];
}

void vf_grid_ref_gradient(const vf_grid_ref *r, const float *u, const float *v, const float *p, const float *wx,
                          const float *wy, float *u_out, float *v_out)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++) {
            int ie = perx(r) && i == NX ? 0 : i;
            size_t k = UI(ie, j);
            float x = u[k];
            if (wx[k] != 0)
                x -= r->dt * wx[k] * (pcell(r, p, ie, j) - pcell(r, p, ie - 1, j)) / r->h;
            u_out[UI(i, j)] = x;
        }
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++) {
            int je = pery(r) && j == NY ? 0 : j;
            size_t k = VI(i, je);
            float x = v[k];
            if (wy[k] != 0)
                x -= r->dt * wy[k] * (pcell(r, p, i, je) - pcell(r, p, i, je - 1)) / r->h;
            v_out[VI(i, j)] = x;
        }
}

/* sum_f w_f x_nb and sum_f w_f at cell (i, j) */
static void neighbours(const vf_grid_ref *r, const float *x, const float *wx, const float *wy, int i, int j, float *s,
                       float *ws)
{
    *s = 0;
    *ws = 0;
    struct {
        float w;
        int a, b;
        bool inside;
    } f[4] = {
        {wx[UI(i, j)], i - 1, j, i - 1 >= 0 || perx(r)},
        {wx[UI(i + 1, j)], i + 1, j, i + 1 < NX || perx(r)},
        {wy[VI(i, j)], i, j - 1, j - 1 >= 0 || pery(r)},
        {wy[VI(i, j + 1)], i, j + 1, j + 1 < NY || pery(r)},
    };
    for (int q = 0; q < 4; q++) {
        if (f[q].w == 0)
            continue;
        if (f[q].inside)
            *s += f[q].w * x[CI(wrap(f[q].a, NX), wrap(f[q].b, NY))];
        *ws += f[q].w;
    }
}

/* The Jacobi value of cell (i, j): (sum_f w_f x_nb - h^2 b) / sum_f w_f, 0
 * where no face is open. */
static float jacobi_cell(const vf_grid_ref *r, const float *x, const float *b, const float *wx, const float *wy, int i,
                         int j)
{
    float s, ws;
    neighbours(r, x, wx, wy, i, j, &s, &ws);
    return ws > 0 ? (s - r->h * r->h * b[CI(i, j)]) / ws : 0;
}

void vf_grid_ref_residual(const vf_grid_ref *r, const float *x, const float *b, const float *wx, const float *wy,
                          float *res)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            float s, ws;
            neighbours(r, x, wx, wy, i, j, &s, &ws);
            size_t k = CI(i, j);
            res[k] = ws > 0 ? b[k] - (s - ws * x[k]) / (r->h * r->h) : 0;
        }
}

void vf_grid_ref_smooth(const vf_grid_ref *r, uint32_t color, float *x, const float *b, const float *wx, const float *wy)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            if (((i + j) & 1) != (int)color)
                continue;
            x[CI(i, j)] = jacobi_cell(r, x, b, wx, wy, i, j);
        }
}

void vf_grid_ref_jacobi(const vf_grid_ref *r, const float *x, const float *b, const float *wx, const float *wy,
                        float *x_out)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++)
            x_out[CI(i, j)] = jacobi_cell(r, x, b, wx, wy, i, j);
}

bool vf_grid_ref_mg_init(vf_grid_ref_mg *mg, const vf_grid_ref *r, uint32_t levels, uint32_t pre, uint32_t post,
                         uint32_t coarse_iters, float coarse_omega)
{
    memset(mg, 0, sizeof *mg);
    mg->levels = levels;
    mg->pre = pre;
    mg->post = post;
    mg->coarse_iters = coarse_iters;
    mg->coarse_omega = coarse_omega;
    for (uint32_t l = 0; l < levels; l++) {
        mg->level[l] = vf_grid_ref_level(r, l);
        if (l == 0)
            continue;
        size_t c = (size_t)mg->level[l].nx * mg->level[l].ny;
        mg->x[l] = calloc(c, 4);
        mg->b[l] = calloc(c, 4);
        mg->res[l] = calloc(c, 4);
        mg->wx[l] = calloc((size_t)(mg->level[l].nx + 1) * mg->level[l].ny, 4);
        mg->wy[l] = calloc((size_t)mg->level[l].nx * (mg->level[l].ny + 1), 4);
        if (!mg->x[l] || !mg->b[l] || !mg->res[l] || !mg->wx[l] || !mg->wy[l])
            return false;
    }
    return true;
}

void vf_grid_ref_mg_free(vf_grid_ref_mg *mg)
{
    for (uint32_t l = 1; l < 16; l++) {
        free(mg->x[l]);
        free(mg->b[l]);
        free(mg->res[l]);
        free(mg->wx[l]);
        free(mg->wy[l]);
    }
    memset(mg, 0, sizeof *mg);
}

void vf_grid_ref_mg_weights(vf_grid_ref_mg *mg)
{
    for (uint32_t l = 1; l < mg->levels; l++)
        vf_grid_ref_coarsen(&mg->level[l], mg->wx[l - 1], mg->wy[l - 1], mg->wx[l], mg->wy[l]);
}

static void coarse_solve(vf_grid_ref_mg *mg, uint32_t l)
{
    const vf_grid_ref *r = &mg->level[l];
    float *x = mg->x[l];
    for (uint32_t it = 0; it < mg->coarse_iters; it++)
        for (int color = 0; color < 2; color++)
            for (int j = 0; j < NY; j++)
                for (int i = 0; i < NX; i++) {
                    if (((i + j) & 1) != color)
                        continue;
                    float s, ws;
                    neighbours(r, x, mg->wx[l], mg->wy[l], i, j, &s, &ws);
                    size_t k = CI(i, j);
                    if (ws > 0)
                        x[k] += mg->coarse_omega * ((s - r->h * r->h * mg->b[l][k]) / ws - x[k]);
                }
}

static bool coarse_open(const vf_grid_ref *c, const float *wx, const float *wy, int I, int J)
{
    return wx[(size_t)J * (c->nx + 1) + I] + wx[(size_t)J * (c->nx + 1) + I + 1] + wy[(size_t)J * c->nx + I] +
               wy[(size_t)(J + 1) * c->nx + I] >
           0;
}

static void cycle(vf_grid_ref_mg *mg, uint32_t l)
{
    if (l + 1 == mg->levels) {
        coarse_solve(mg, l);
        return;
    }
    const vf_grid_ref *r = &mg->level[l], *c = &mg->level[l + 1];
    for (uint32_t s = 0; s < mg->pre; s++)
        for (uint32_t color = 0; color < 2; color++)
            vf_grid_ref_smooth(r, color, mg->x[l], mg->b[l], mg->wx[l], mg->wy[l]);
    vf_grid_ref_residual(r, mg->x[l], mg->b[l], mg->wx[l], mg->wy[l], mg->res[l]);
    for (uint32_t J = 0; J < c->ny; J++)
        for (uint32_t I = 0; I < c->nx; I++) {
            size_t f = (size_t)2 * J * r->nx + 2 * I;
            mg->b[l + 1][(size_t)J * c->nx + I] =
                0.25f * (mg->res[l][f] + mg->res[l][f + 1] + mg->res[l][f + r->nx] + mg->res[l][f + r->nx + 1]);
            mg->x[l + 1][(size_t)J * c->nx + I] = 0;
        }
    cycle(mg, l + 1);
    int cnx = (int)c->nx, cny = (int)c->ny;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            const float *wx = mg->wx[l], *wy = mg->wy[l];
            if (wx[UI(i, j)] + wx[UI(i + 1, j)] + wy[VI(i, j)] + wy[VI(i, j + 1)] <= 0)
                continue;
            int I = i >> 1, J = j >> 1;
            int In = (i & 1) ? I + 1 : I - 1, Jn = (j & 1) ? J + 1 : J - 1;
            In = perx(r) ? wrap(In, cnx) : clampi(In, 0, cnx - 1);
            Jn = pery(r) ? wrap(Jn, cny) : clampi(Jn, 0, cny - 1);
            int ci[4] = {I, In, I, In}, cj[4] = {J, J, Jn, Jn};
            float cw[4] = {0.5625f, 0.1875f, 0.1875f, 0.0625f}, s = 0, ws = 0;
            for (int q = 0; q < 4; q++) {
                if (!coarse_open(c, mg->wx[l + 1], mg->wy[l + 1], ci[q], cj[q]))
                    continue;
                s += cw[q] * mg->x[l + 1][(size_t)cj[q] * cnx + ci[q]];
                ws += cw[q];
            }
            if (ws > 0)
                mg->x[l][CI(i, j)] += s / ws;
        }
    for (uint32_t s = 0; s < mg->post; s++)
        for (uint32_t color = 0; color < 2; color++)
            vf_grid_ref_smooth(r, color, mg->x[l], mg->b[l], mg->wx[l], mg->wy[l]);
}

void vf_grid_ref_vcycle(vf_grid_ref_mg *mg)
{
    cycle(mg, 0);
}

void vf_grid_ref_dye_mix(const vf_grid_ref *r, float m, const uint32_t *mask, const float *const in[3],
                         float *const out[3])
{
    static const int d[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            size_t k = CI(i, j);
            if (mask[k] != VF_GRID_CELL_FLUID) {
                for (int ch = 0; ch < 3; ch++)
                    out[ch][k] = 0;
                continue;
            }
            float s[3] = {in[0][k], in[1][k], in[2][k]}, n = 1;
            for (int q = 0; q < 4; q++) {
                int a = i + d[q][0], b = j + d[q][1];
                if (perx(r))
                    a = wrap(a, NX);
                if (pery(r))
                    b = wrap(b, NY);
                if (a < 0 || a >= NX || b < 0 || b >= NY)
                    continue;
                size_t kk = CI(a, b);
                if (mask[kk] != VF_GRID_CELL_FLUID)
                    continue;
                for (int ch = 0; ch < 3; ch++)
                    s[ch] += in[ch][kk];
                n += 1;
            }
            for (int ch = 0; ch < 3; ch++)
                out[ch][k] = in[ch][k] + m * (s[ch] / n - in[ch][k]);
        }
}

double vf_grid_ref_rms(const vf_grid_ref *r, const float *field, const uint32_t *mask, float scale)
{
    double s = 0, n = 0;
    for (size_t k = 0; k < (size_t)r->nx * r->ny; k++)
        if (mask[k] == VF_GRID_CELL_FLUID) {
            double x = (double)field[k] * scale;
            s += x * x;
            n += 1;
        }
    return n > 0 ? sqrt(s / n) : 0;
}

/* ------------------------------------------------------------------ Klein et al. 2003 */

/* u at face column i (wrapped when periodic in x), row j in [-1, ny] */
static float dc_u(const vf_grid_ref *r, const float *u, int i, int j)
{
    return fetch_u(r, u, perx(r) ? wrap(i, NX) : i, pery(r) ? wrap(j, NY) : j);
}

/* v at cell column i in [-1, nx] (wrapped when periodic), face row j */
static float dc_v(const vf_grid_ref *r, const float *v, int i, int j)
{
    return fetch_v(r, v, perx(r) ? wrap(i, NX) : i, pery(r) ? wrap(j, NY) : j);
}

/* (a (c + r) / 2 - b (l + c) / 2) / h blended with its donor-cell form */
static float dc_conv(float l, float c, float rr, float a, float b, float g, float h)
{
    float central = a * (c + rr) * 0.5f - b * (l + c) * 0.5f;
    float donor = fabsf(a) * (c - rr) * 0.5f - fabsf(b) * (l - c) * 0.5f;
    return (central + g * donor) / h;
}

void vf_grid_ref_donor_cell(const vf_grid_ref *r, float gamma, const float *u, const float *v, const float *wx,
                            const float *wy, float *u_out, float *v_out)
{
    float dt = r->dt, h = r->h;
    for (int j = 0; j < NY; j++)
        for (int i = 0; i <= NX; i++) {
            int ie = perx(r) && i == NX ? 0 : i;
            float c = u[UI(ie, j)], x = c;
            if ((perx(r) || (i > 0 && i < NX)) && wx[UI(ie, j)] != 0) {
                float ul = dc_u(r, u, ie - 1, j), ur = dc_u(r, u, ie + 1, j);
                /* rows outside the box are ghosts (fetch_u), not wrapped, unless periodic */
                float ub = fetch_u(r, u, ie, pery(r) ? wrap(j - 1, NY) : j - 1);
                float ut = fetch_u(r, u, ie, pery(r) ? wrap(j + 1, NY) : j + 1);
                float vt = 0.5f * (dc_v(r, v, ie - 1, j + 1) + dc_v(r, v, ie, j + 1));
                float vb = 0.5f * (dc_v(r, v, ie - 1, j) + dc_v(r, v, ie, j));
                float du2dx = dc_conv(ul, c, ur, 0.5f * (c + ur), 0.5f * (ul + c), gamma, h);
                float duvdy = dc_conv(ub, c, ut, vt, vb, gamma, h);
                x = c - dt * (du2dx + duvdy);
            }
            u_out[UI(i, j)] = x;
        }
    for (int j = 0; j <= NY; j++)
        for (int i = 0; i < NX; i++) {
            int je = pery(r) && j == NY ? 0 : j;
            float c = v[VI(i, je)], x = c;
            if ((pery(r) || (j > 0 && j < NY)) && wy[VI(i, je)] != 0) {
                float vb = dc_v(r, v, i, je - 1), vt = dc_v(r, v, i, je + 1);
                float vl = fetch_v(r, v, perx(r) ? wrap(i - 1, NX) : i - 1, je);
                float vr = fetch_v(r, v, perx(r) ? wrap(i + 1, NX) : i + 1, je);
                float ur = 0.5f * (dc_u(r, u, i + 1, je - 1) + dc_u(r, u, i + 1, je));
                float ul = 0.5f * (dc_u(r, u, i, je - 1) + dc_u(r, u, i, je));
                float dv2dy = dc_conv(vb, c, vt, 0.5f * (c + vt), 0.5f * (vb + c), gamma, h);
                float duvdx = dc_conv(vl, c, vr, ur, ul, gamma, h);
                x = c - dt * (duvdx + dv2dy);
            }
            v_out[VI(i, j)] = x;
        }
}

/* one SOR update of cell (i, j) in place */
static void sor_cell(const vf_grid_ref *r, float omega, float *x, const float *b, const float *wx, const float *wy,
                     int i, int j)
{
    float s, ws;
    neighbours(r, x, wx, wy, i, j, &s, &ws);
    size_t k = CI(i, j);
    float gs = ws > 0 ? (s - r->h * r->h * b[k]) / ws : 0;
    x[k] = ws > 0 ? x[k] + omega * (gs - x[k]) : 0;
}

void vf_grid_ref_ssor(const vf_grid_ref *r, uint32_t iters, float omega, float *x, const float *b, const float *wx,
                      const float *wy)
{
    for (uint32_t it = 0; it < iters; it++) {
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++)
                sor_cell(r, omega, x, b, wx, wy, i, j);
        for (int j = NY - 1; j >= 0; j--)
            for (int i = NX - 1; i >= 0; i--)
                sor_cell(r, omega, x, b, wx, wy, i, j);
    }
}

/* ------------------------------------------------------------------ Chen & Lobo 1997 */

void vf_grid_ref_penalty(const vf_grid_ref *r, uint32_t substeps, float alpha, float coef_b, float *p, const float *b,
                         const float *wx, const float *wy, float *sum)
{
    size_t n = (size_t)r->nx * r->ny;
    float *next = malloc(n * sizeof(float)), *c = malloc(n * sizeof(float));
    if (!next || !c) {
        free(next);
        free(c);
        return;
    }
    memset(sum, 0, n * sizeof(float));
    for (size_t k = 0; k < n; k++) /* the constant part: coef_b b + p_0 / K */
        c[k] = coef_b * b[k] + (1.0f / (float)substeps) * p[k];
    for (uint32_t m = 0; m < substeps; m++) {
        for (int j = 0; j < NY; j++)
            for (int i = 0; i < NX; i++) {
                float s, ws;
                neighbours(r, p, wx, wy, i, j, &s, &ws);
                size_t k = CI(i, j);
                float lap = s - ws * p[k];
                sum[k] += p[k];
                next[k] = p[k] + alpha * lap - c[k];
            }
        memcpy(p, next, n * sizeof(float));
    }
    free(next);
    free(c);
}

/* ------------------------------------------------------------------ Stam's FFT solver */

/* one axis of a separable DFT of complex rows (re, im), sign -1 forward */
static void dft_axis(double *re, double *im, int n, int count, int stride, int step, int sign)
{
    double *tr = malloc((size_t)n * sizeof(double)), *ti = malloc((size_t)n * sizeof(double));
    if (!tr || !ti) {
        free(tr);
        free(ti);
        return;
    }
    for (int c = 0; c < count; c++)
        vf_ref_dft_line(re, im, n, (size_t)c * stride, (size_t)step, sign, tr, ti);
    free(tr);
    free(ti);
}

void vf_grid_ref_fft_pressure(const vf_grid_ref *r, const float *b, float *p)
{
    size_t n = (size_t)r->nx * r->ny;
    double *re = calloc(n, sizeof(double)), *im = calloc(n, sizeof(double));
    if (!re || !im) {
        free(re);
        free(im);
        return;
    }
    for (size_t k = 0; k < n; k++)
        re[k] = b[k];
    dft_axis(re, im, NX, NY, NX, 1, -1); /* rows */
    dft_axis(re, im, NY, NX, 1, NX, -1); /* columns */
    double h2 = (double)r->h * r->h;
    for (int ky = 0; ky < NY; ky++)
        for (int kx = 0; kx < NX; kx++) {
            double lam = -4.0 * (pow(sin(M_PI * kx / NX), 2) + pow(sin(M_PI * ky / NY), 2)) / h2;
            size_t k = CI(kx, ky);
            double f = lam < 0 ? 1.0 / lam : 0.0;
            re[k] *= f;
            im[k] *= f;
        }
    dft_axis(re, im, NY, NX, 1, NX, 1);
    dft_axis(re, im, NX, NY, NX, 1, 1);
    for (size_t k = 0; k < n; k++)
        p[k] = (float)(re[k] / (double)n);
    free(re);
    free(im);
}
