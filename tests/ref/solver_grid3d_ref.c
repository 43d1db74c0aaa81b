#include "solver_grid3d_ref.h"

#include "ref_dft.h"
#include "solver_grid3d.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct iv3 {
    int v[3];
} iv3;

static iv3 mk(int i, int j, int k)
{
    return (iv3){{i, j, k}};
}

static int dimc(const vf_g3ref *g, int a)
{
    return a == 0 ? g->nx : a == 1 ? g->ny : g->nz;
}

size_t vf_g3ref_cells(const vf_g3ref *g)
{
    return (size_t)g->nx * g->ny * g->nz;
}

static size_t foff(const vf_g3ref *g, int c)
{
    size_t o1 = (size_t)(g->nx + 1) * g->ny * g->nz;
    return c == 0 ? 0 : c == 1 ? o1 : o1 + (size_t)g->nx * (g->ny + 1) * g->nz;
}

size_t vf_g3ref_faces(const vf_g3ref *g)
{
    return foff(g, 2) + (size_t)g->nx * g->ny * (g->nz + 1);
}

static void face_dims(const vf_g3ref *g, int c, int d[3])
{
    d[0] = g->nx + (c == 0);
    d[1] = g->ny + (c == 1);
    d[2] = g->nz + (c == 2);
}

size_t vf_g3ref_fidx(const vf_g3ref *g, int c, int i, int j, int k)
{
    return vf_grid3d_face_index((uint32_t)g->nx, (uint32_t)g->ny, (uint32_t)g->nz, c, i, j, k);
}

/* whether axis a wraps (both its sides periodic) */
static int wraps(const vf_g3ref *g, int a)
{
    return g->sides[2 * a] == VF_G3_BC_PERIODIC;
}

/* face (c, p) one period outside the array on a periodic axis: the face inside */
static size_t fi(const vf_g3ref *g, int c, iv3 p)
{
    int d[3] = {g->nx + (c == 0), g->ny + (c == 1), g->nz + (c == 2)};
    for (int a = 0; a < 3; a++)
        if (wraps(g, a))
            p.v[a] += p.v[a] < 0 ? dimc(g, a) : (p.v[a] >= d[a] ? -dimc(g, a) : 0);
    return vf_g3ref_fidx(g, c, p.v[0], p.v[1], p.v[2]);
}

/* cell -1 of a periodic axis is cell n - 1, cell n is cell 0 */
static size_t ci(const vf_g3ref *g, iv3 p)
{
    for (int a = 0; a < 3; a++)
        if (wraps(g, a))
            p.v[a] += p.v[a] < 0 ? dimc(g, a) : (p.v[a] >= dimc(g, a) ? -dimc(g, a) : 0);
    return ((size_t)p.v[2] * g->ny + p.v[1]) * g->nx + p.v[0];
}

static int in_faces(const vf_g3ref *g, int c, iv3 p)
{
    int d[3];
    face_dims(g, c, d);
    for (int a = 0; a < 3; a++)
        if (p.v[a] < 0 || p.v[a] >= d[a])
            return 0;
    return 1;
}

static int solid(const vf_g3ref *g, iv3 p)
{
    return g->mask[ci(g, p)] != VF_G3_CELL_FLUID;
}

static int face_kind(const vf_g3ref *g, int c, iv3 p)
{
    if ((p.v[c] == 0 || p.v[c] == dimc(g, c)) && !wraps(g, c))
        return 1;
    iv3 q = p;
    q.v[c]--;
    return (solid(g, p) || solid(g, q)) ? 2 : 0;
}

static int face_side(int c, iv3 p)
{
    return 2 * c + (p.v[c] == 0 ? 0 : 1);
}

static float pweight(const vf_g3ref *g, iv3 p, int a, int dir)
{
    iv3 q = p;
    q.v[a] += dir;
    if ((q.v[a] < 0 || q.v[a] >= dimc(g, a)) && !wraps(g, a))
        return g->sides[2 * a + (dir < 0 ? 0 : 1)] == VF_G3_BC_OUTFLOW ? 2.0f : 0.0f;
    return solid(g, q) ? 0.0f : 1.0f;
}

static void face_pos(const vf_g3ref *g, int c, iv3 p, float x[3])
{
    for (int a = 0; a < 3; a++)
        x[a] = ((float)p.v[a] + (a == c ? 0.0f : 0.5f)) * g->h;
}

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static float lerpf(float a, float b, float t)
{
    return a + t * (b - a);
}

/* Trilinear sample of an array of dims d at grid coordinates gc (already in
 * array index units), clamped, or on a periodic axis wrapped into [0, n)
 * (n the cell count of g; the upper neighbour n is index 0; g NULL: clamped
 * on every axis); lo/hi of the 8 values. */
float vf_g3ref_trilinear(const vf_g3ref *g, const float *buf, size_t off, const int d[3], const float gc[3], float *lo,
                         float *hi)
{
    int i0[3];
    float f[3];
    for (int a = 0; a < 3; a++) {
        float n = g ? (float)dimc(g, a) : 0.0f, gg;
        int ii;
        if (g && wraps(g, a)) {
            gg = gc[a] - n * floorf(gc[a] / n);
            ii = (int)floorf(gg);
        } else {
            gg = clampf(gc[a], 0.0f, (float)(d[a] - 1));
            ii = (int)floorf(gg);
            if (ii > d[a] - 2)
                ii = d[a] - 2;
        }
        i0[a] = ii;
        f[a] = gg - (float)ii;
    }
    float v[8];
    for (int n = 0; n < 8; n++) {
        int q[3] = {i0[0] + (n & 1), i0[1] + ((n >> 1) & 1), i0[2] + ((n >> 2) & 1)};
        for (int a = 0; a < 3; a++)
            if (g && wraps(g, a) && q[a] >= dimc(g, a))
                q[a] -= dimc(g, a);
        v[n] = buf[off + ((size_t)q[2] * d[1] + q[1]) * d[0] + q[0]];
    }
    float l = v[0], h = v[0];
    for (int n = 1; n < 8; n++) {
        l = fminf(l, v[n]);
        h = fmaxf(h, v[n]);
    }
    *lo = l;
    *hi = h;
    float x00 = lerpf(v[0], v[1], f[0]), x10 = lerpf(v[2], v[3], f[0]);
    float x01 = lerpf(v[4], v[5], f[0]), x11 = lerpf(v[6], v[7], f[0]);
    return lerpf(lerpf(x00, x10, f[1]), lerpf(x01, x11, f[1]), f[2]);
}

static float sample_face(const vf_g3ref *g, const float *buf, int c, const float x[3], float *lo, float *hi)
{
    int d[3];
    face_dims(g, c, d);
    float gc[3];
    for (int a = 0; a < 3; a++)
        gc[a] = x[a] / g->h - (a == c ? 0.0f : 0.5f);
    return vf_g3ref_trilinear(g, buf, foff(g, c), d, gc, lo, hi);
}

static float sample_cell(const vf_g3ref *g, const float *buf, int ch, const float x[3], float *lo, float *hi)
{
    int d[3] = {g->nx, g->ny, g->nz};
    float gc[3];
    for (int a = 0; a < 3; a++)
        gc[a] = x[a] / g->h - 0.5f;
    return vf_g3ref_trilinear(g, buf, (size_t)ch * vf_g3ref_cells(g), d, gc, lo, hi);
}

static void vel_at(const vf_g3ref *g, const float *vel, const float x[3], float out[3])
{
    float lo, hi;
    for (int c = 0; c < 3; c++)
        out[c] = sample_face(g, vel, c, x, &lo, &hi);
}

static void trace(const vf_g3ref *g, const float *vel, const float x[3], float dt, float out[3])
{
    float k1[3], m[3], k2[3];
    vel_at(g, vel, x, k1);
    for (int a = 0; a < 3; a++)
        m[a] = x[a] - 0.5f * dt * k1[a];
    vel_at(g, vel, m, k2);
    for (int a = 0; a < 3; a++)
        out[a] = x[a] - dt * k2[a];
}

#define FOR_CELLS(g, p)                     \
    for (int kk_ = 0; kk_ < (g)->nz; kk_++) \
        for (int jj_ = 0; jj_ < (g)->ny; jj_++) \
            for (int ii_ = 0; ii_ < (g)->nx; ii_++) \
                for (iv3 p = mk(ii_, jj_, kk_), *once_ = &p; once_; once_ = NULL)

#define FOR_FACES(g, c, p)                                         \
    for (int c = 0; c < 3; c++)                                    \
        for (int kk_ = 0; kk_ < (g)->nz + (c == 2); kk_++)         \
            for (int jj_ = 0; jj_ < (g)->ny + (c == 1); jj_++)     \
                for (int ii_ = 0; ii_ < (g)->nx + (c == 0); ii_++) \
                    for (iv3 p = mk(ii_, jj_, kk_), *once_ = &p; once_; once_ = NULL)

void vf_g3ref_source(const vf_g3ref *g, float *scal, const float s[4], float rate_density, float rate_temp,
                     uint32_t profile)
{
    size_t nc = vf_g3ref_cells(g);
    FOR_CELLS(g, p)
    {
        if (solid(g, p))
            continue;
        float d2 = 0;
        for (int a = 0; a < 3; a++) {
            float d = ((float)p.v[a] + 0.5f) * g->h - s[a];
            d2 += d * d;
        }
        if (d2 > s[3] * s[3])
            continue;
        float w = 1.0f;
        if (profile == VF_G3_SOURCE_SMOOTH) {
            float q = 1.0f - d2 / (s[3] * s[3]);
            w = (float)VF_G3_SMOOTH_PEAK * q * q;
        }
        scal[ci(g, p)] += g->dt * rate_density * w;
        scal[nc + ci(g, p)] += g->dt * rate_temp * w;
    }
}

void vf_g3ref_cool(const vf_g3ref *g, float *scal, float cooling, float ambient)
{
    if (!(cooling > 0))
        return;
    size_t nc = vf_g3ref_cells(g);
    float f = (float)exp(-(double)cooling * (double)g->dt);
    FOR_CELLS(g, p)
    {
        if (!solid(g, p))
            scal[nc + ci(g, p)] = ambient + (scal[nc + ci(g, p)] - ambient) * f;
    }
}

void vf_g3ref_buoyancy(const vf_g3ref *g, float *vel, const float *scal, float alpha, float beta, float ambient,
                       const float centre[4], const float acc[3])
{
    size_t nc = vf_g3ref_cells(g);
    FOR_FACES(g, c, p)
    {
        if (face_kind(g, c, p) != 0)
            continue;
        float f = 0;
        if (c == 1) {
            iv3 q = p;
            q.v[1]--;
            size_t k0 = ci(g, q), k1 = ci(g, p);
            float t = 0.5f * (scal[nc + k0] + scal[nc + k1]);
            float rho = 0.5f * (scal[k0] + scal[k1]);
            f += alpha * (t - ambient) - beta * rho;
        }
        if (centre[3] > 0) {
            float x[3], d2 = 0;
            face_pos(g, c, p, x);
            for (int a = 0; a < 3; a++)
                d2 += (x[a] - centre[a]) * (x[a] - centre[a]);
            f += acc[c] * expf(-d2 / (centre[3] * centre[3]));
        }
        vel[fi(g, c, p)] += g->dt * f;
    }
}

static void ucell(const vf_g3ref *g, const float *vel, iv3 p, float r[3])
{
    for (int c = 0; c < 3; c++) {
        iv3 q = p;
        q.v[c]++;
        r[c] = 0.5f * (vel[fi(g, c, p)] + vel[fi(g, c, q)]);
    }
}

static float dcell(const vf_g3ref *g, const float *vel, iv3 p, int comp, int a)
{
    iv3 lo = p, hi = p;
    lo.v[a] = p.v[a] > 0 || wraps(g, a) ? p.v[a] - 1 : 0; /* fi wraps a periodic axis */
    hi.v[a] = p.v[a] + 1 < dimc(g, a) || wraps(g, a) ? p.v[a] + 1 : dimc(g, a) - 1;
    float ul[3], uh[3];
    ucell(g, vel, lo, ul);
    ucell(g, vel, hi, uh);
    return (uh[comp] - ul[comp]) / ((float)(hi.v[a] - lo.v[a]) * g->h);
}

void vf_g3ref_vorticity(const vf_g3ref *g, const float *vel, float *omega)
{
    FOR_CELLS(g, p)
    {
        float w[3] = {dcell(g, vel, p, 2, 1) - dcell(g, vel, p, 1, 2), dcell(g, vel, p, 0, 2) - dcell(g, vel, p, 2, 0),
                      dcell(g, vel, p, 1, 0) - dcell(g, vel, p, 0, 1)};
        float *o = omega + 4 * ci(g, p);
        o[0] = w[0];
        o[1] = w[1];
        o[2] = w[2];
        o[3] = sqrtf(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
}

static void conf_force(const vf_g3ref *g, const float *omega, iv3 p, float eps, float f[3])
{
    float gr[3];
    for (int a = 0; a < 3; a++) {
        iv3 lo = p, hi = p;
        lo.v[a] = p.v[a] > 0 || wraps(g, a) ? p.v[a] - 1 : 0; /* ci wraps a periodic axis */
        hi.v[a] = p.v[a] + 1 < dimc(g, a) || wraps(g, a) ? p.v[a] + 1 : dimc(g, a) - 1;
        gr[a] = (omega[4 * ci(g, hi) + 3] - omega[4 * ci(g, lo) + 3]) / ((float)(hi.v[a] - lo.v[a]) * g->h);
    }
    float len = sqrtf(gr[0] * gr[0] + gr[1] * gr[1] + gr[2] * gr[2]);
    if (len < 1e-20f) {
        f[0] = f[1] = f[2] = 0;
        return;
    }
    float n[3] = {gr[0] / len, gr[1] / len, gr[2] / len};
    const float *w = omega + 4 * ci(g, p);
    float s = eps * g->h;
    f[0] = s * (n[1] * w[2] - n[2] * w[1]);
    f[1] = s * (n[2] * w[0] - n[0] * w[2]);
    f[2] = s * (n[0] * w[1] - n[1] * w[0]);
}

void vf_g3ref_confine(const vf_g3ref *g, float *vel, const float *omega, float eps)
{
    FOR_FACES(g, c, p)
    {
        if (face_kind(g, c, p) != 0)
            continue;
        iv3 q = p;
        q.v[c]--;
        float fa[3], fb[3];
        conf_force(g, omega, q, eps, fa);
        conf_force(g, omega, p, eps, fb);
        vel[fi(g, c, p)] += g->dt * 0.5f * (fa[c] + fb[c]);
    }
}

void vf_g3ref_advect_vel(const vf_g3ref *g, const float *vel, const float *src, float *out, float tdt, int maccormack)
{
    FOR_FACES(g, c, p)
    {
        size_t k = fi(g, c, p);
        if (face_kind(g, c, p) != 0) {
            out[k] = vel[k];
            continue;
        }
        float x[3], xb[3], lo, hi, r;
        face_pos(g, c, p, x);
        trace(g, vel, x, tdt, xb);
        if (!maccormack) {
            r = sample_face(g, src, c, xb, &lo, &hi);
        } else {
            float xf[3], l2, h2;
            sample_face(g, vel, c, xb, &lo, &hi);
            trace(g, vel, x, -tdt, xf);
            float back = sample_face(g, src, c, xf, &l2, &h2);
            r = clampf(src[k] + 0.5f * (vel[k] - back), lo, hi);
        }
        out[k] = r;
    }
}

void vf_g3ref_advect_scalar(const vf_g3ref *g, const float *vel, const float *src, const float *hat, float *out,
                            float tdt, int maccormack)
{
    size_t nc = vf_g3ref_cells(g);
    FOR_CELLS(g, p)
    {
        size_t k = ci(g, p);
        if (solid(g, p)) {
            out[k] = out[nc + k] = 0;
            continue;
        }
        float x[3], xb[3], xf[3];
        for (int a = 0; a < 3; a++)
            x[a] = ((float)p.v[a] + 0.5f) * g->h;
        trace(g, vel, x, tdt, xb);
        if (maccormack)
            trace(g, vel, x, -tdt, xf);
        for (int ch = 0; ch < 2; ch++) {
            float lo, hi, r = sample_cell(g, src, ch, xb, &lo, &hi);
            if (maccormack) {
                float l2, h2, back = sample_cell(g, hat, ch, xf, &l2, &h2);
                r = clampf(hat[ch * nc + k] + 0.5f * (src[ch * nc + k] - back), lo, hi);
            }
            out[ch * nc + k] = r;
        }
    }
}

void vf_g3ref_diffuse(const vf_g3ref *g, const float *rhs, float *x, float a, int color)
{
    FOR_FACES(g, c, p)
    {
        if (((p.v[0] + p.v[1] + p.v[2]) & 1) != color || face_kind(g, c, p) != 0)
            continue;
        size_t k = fi(g, c, p);
        float self = x[k], sum = 0;
        for (int n = 0; n < 6; n++) {
            int ax = n >> 1, dir = (n & 1) ? 1 : -1;
            iv3 q = p;
            q.v[ax] += dir;
            if (in_faces(g, c, q) || wraps(g, ax)) {
                sum += x[fi(g, c, q)];
            } else {
                uint32_t t = g->sides[2 * ax + (dir < 0 ? 0 : 1)];
                sum += (t == VF_G3_BC_FREESLIP || t == VF_G3_BC_OUTFLOW) ? self : -self;
            }
        }
        x[k] = (rhs[k] + a * sum) / (1.0f + 6.0f * a);
    }
}

void vf_g3ref_boundary(const vf_g3ref *g, float *vel)
{
    FOR_FACES(g, c, p)
    {
        int kind = face_kind(g, c, p);
        if (wraps(g, c) && p.v[c] == dimc(g, c)) { /* the far face of a periodic axis: face 0 */
            iv3 q = p;
            q.v[c] = 0;
            vel[fi(g, c, p)] = kind == 0 ? vel[fi(g, c, q)] : 0.0f;
            continue;
        }
        if (kind == 0)
            continue;
        float r = 0;
        if (kind == 1) {
            int s = face_side(c, p);
            uint32_t t = g->sides[s];
            if (t == VF_G3_BC_INFLOW) {
                r = (s & 1) == 0 ? g->inflow[s] : -g->inflow[s];
            } else if (t == VF_G3_BC_OUTFLOW) {
                iv3 q = p;
                q.v[c] += p.v[c] == 0 ? 1 : -1;
                r = face_kind(g, c, q) == 0 ? vel[fi(g, c, q)] : 0.0f;
            }
        }
        vel[fi(g, c, p)] = r;
    }
}

void vf_g3ref_divergence(const vf_g3ref *g, const float *vel, float *out, float scale)
{
    FOR_CELLS(g, p)
    {
        float d = 0;
        if (!solid(g, p)) {
            for (int c = 0; c < 3; c++) {
                iv3 q = p;
                q.v[c]++;
                d += vel[fi(g, c, q)] - vel[fi(g, c, p)];
            }
            d *= scale / g->h;
        }
        out[ci(g, p)] = d;
    }
}

void vf_g3ref_gradient(const vf_g3ref *g, float *vel, const float *pr, float dt)
{
    FOR_FACES(g, c, p)
    {
        int kind = face_kind(g, c, p);
        iv3 q = p;
        q.v[c]--;
        float gr;
        if (kind == 0)
            gr = (pr[ci(g, p)] - pr[ci(g, q)]) / g->h;
        else if (kind == 1 && g->sides[face_side(c, p)] == VF_G3_BC_OUTFLOW)
            gr = p.v[c] == 0 ? 2.0f * pr[ci(g, p)] / g->h : -2.0f * pr[ci(g, q)] / g->h;
        else
            continue;
        vel[fi(g, c, p)] -= dt * gr;
    }
}

/* sum_f w_f x_nb (open faces only) and sum_f w_f at fluid cell p. */
static void stencil(const vf_g3ref *g, const float *x, iv3 p, float *acc, float *s)
{
    *acc = 0;
    *s = 0;
    for (int n = 0; n < 6; n++) {
        int a = n >> 1, dir = (n & 1) ? 1 : -1;
        float w = pweight(g, p, a, dir);
        if (w == 1.0f) {
            iv3 q = p;
            q.v[a] += dir;
            *acc += x[ci(g, q)];
        }
        *s += w;
    }
}

/* The stencil of x at a fluid cell p (returns true); a solid cell gets
 * out[k] = 0 (returns false). k: p's index. */
static bool fluid_stencil(const vf_g3ref *g, const float *x, iv3 p, float *out, size_t *k, float *acc, float *s)
{
    *k = ci(g, p);
    if (solid(g, p)) {
        out[*k] = 0;
        return false;
    }
    stencil(g, x, p, acc, s);
    return true;
}

void vf_g3ref_smooth(const vf_g3ref *g, float *x, const float *b, int color, float omega)
{
    FOR_CELLS(g, p)
    {
        if (((p.v[0] + p.v[1] + p.v[2]) & 1) != color)
            continue;
        size_t k;
        float acc, s;
        if (fluid_stencil(g, x, p, x, &k, &acc, &s) && s > 0)
            x[k] = (1.0f - omega) * x[k] + omega * (acc - g->h * g->h * b[k]) / s;
    }
}

void vf_g3ref_residual(const vf_g3ref *g, const float *x, const float *b, float *r)
{
    FOR_CELLS(g, p)
    {
        size_t k;
        float acc, s;
        if (fluid_stencil(g, x, p, r, &k, &acc, &s))
            r[k] = b[k] - (acc - s * x[k]) / (g->h * g->h);
    }
}

void vf_g3ref_jacobi(const vf_g3ref *g, const float *x, const float *b, float *xo, float omega)
{
    FOR_CELLS(g, p)
    {
        size_t k = ci(g, p);
        float acc = 0, s = 0;
        if (!solid(g, p))
            stencil(g, x, p, &acc, &s);
        xo[k] = s > 0 ? (1.0f - omega) * x[k] + omega * (acc - g->h * g->h * b[k]) / s : 0.0f;
    }
}

void vf_g3ref_restrict(const vf_g3ref *gc, const float *rf, float *bc, float *xc)
{
    int fnx = 2 * gc->nx, fny = 2 * gc->ny;
    FOR_CELLS(gc, p)
    {
        float s = 0;
        for (int n = 0; n < 8; n++) {
            int x = 2 * p.v[0] + (n & 1), y = 2 * p.v[1] + ((n >> 1) & 1), z = 2 * p.v[2] + ((n >> 2) & 1);
            s += rf[((size_t)z * fny + y) * fnx + x];
        }
        bc[ci(gc, p)] = 0.125f * s;
        xc[ci(gc, p)] = 0;
    }
}

void vf_g3ref_prolong(const vf_g3ref *gf, const float *xc, float *xf)
{
    int d[3] = {gf->nx / 2, gf->ny / 2, gf->nz / 2};
    FOR_CELLS(gf, p)
    {
        if (solid(gf, p))
            continue;
        float gcoord[3], lo, hi;
        for (int a = 0; a < 3; a++)
            gcoord[a] = ((float)p.v[a] + 0.5f) * 0.5f - 0.5f;
        xf[ci(gf, p)] += vf_g3ref_trilinear(NULL, xc, 0, d, gcoord, &lo, &hi); /* clamped at the sides, periodic too */
    }
}

void vf_g3ref_coarsen_mask(int nx, int ny, int nz, const uint32_t *fine, uint32_t *coarse)
{
    vf_grid3d_coarsen_mask((uint32_t)nx, (uint32_t)ny, (uint32_t)nz, fine, coarse);
}

double vf_g3ref_residual_rms(const vf_g3ref *g, const float *x, const float *b)
{
    double s2 = 0;
    size_t n = 0;
    FOR_CELLS(g, p)
    {
        if (solid(g, p))
            continue;
        float acc, s;
        stencil(g, x, p, &acc, &s);
        double r = (double)b[ci(g, p)] - ((double)acc - (double)s * x[ci(g, p)]) / ((double)g->h * g->h);
        s2 += r * r;
        n++;
    }
    return n ? sqrt(s2 / (double)n) : 0.0;
}

static void dft3(const vf_g3ref *g, double *re, double *im, int sign, double *tr, double *ti)
{
    const int nx = g->nx, ny = g->ny, nz = g->nz;
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            vf_ref_dft_line(re, im, nx, ((size_t)k * ny + j) * nx, 1, sign, tr, ti);
    for (int k = 0; k < nz; k++)
        for (int i = 0; i < nx; i++)
            vf_ref_dft_line(re, im, ny, (size_t)k * ny * nx + i, (size_t)nx, sign, tr, ti);
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++)
            vf_ref_dft_line(re, im, nz, (size_t)j * nx + i, (size_t)nx * ny, sign, tr, ti);
}

double vf_g3ref_fft_eigenvalue(const vf_g3ref *g, int kx, int ky, int kz)
{
    const double pi = 3.14159265358979323846, h2 = (double)g->h * g->h;
    double sx = sin(pi * kx / g->nx), sy = sin(pi * ky / g->ny), sz = sin(pi * kz / g->nz);
    return -4.0 * (sx * sx + sy * sy + sz * sz) / h2;
}

void vf_g3ref_fft_pressure(const vf_g3ref *g, const float *b, float *p)
{
    size_t n = vf_g3ref_cells(g);
    int m = g->nx > g->ny ? g->nx : g->ny;
    m = m > g->nz ? m : g->nz;
    double *re = calloc(n, sizeof(double)), *im = calloc(n, sizeof(double));
    double *tr = malloc((size_t)m * sizeof(double)), *ti = malloc((size_t)m * sizeof(double));
    if (re && im && tr && ti) {
        for (size_t k = 0; k < n; k++)
            re[k] = b[k];
        dft3(g, re, im, -1, tr, ti);
        for (int kz = 0; kz < g->nz; kz++)
            for (int ky = 0; ky < g->ny; ky++)
                for (int kx = 0; kx < g->nx; kx++) {
                    double lam = vf_g3ref_fft_eigenvalue(g, kx, ky, kz), f = lam < 0 ? 1.0 / lam : 0.0;
                    size_t k = ((size_t)kz * g->ny + ky) * g->nx + kx;
                    re[k] *= f;
                    im[k] *= f;
                }
        dft3(g, re, im, 1, tr, ti);
        for (size_t k = 0; k < n; k++)
            p[k] = (float)(re[k] / (double)n);
    }
    free(re);
    free(im);
    free(tr);
    free(ti);
}
