#include "solver_height_ref.h"
#include "solver_height.h"

#include <math.h>
#include <stdlib.h>
#include <stddef.h>

float vf_height_face_depth(float e0, float b0, uint32_t f0, float e1, float b1, uint32_t f1)
{
    if ((f0 | f1) & VF_HEIGHT_SOLID)
        return 0.0f;
    return fmaxf(0.0f, fmaxf(e0, e1) - fmaxf(b0, b1));
}

float vf_height_hull(float x, float y, float hx, float hy, float ha, float hb, float hc, float hs, float draft)
{
    float dx = x - hx, dy = y - hy;
    float u = (dx * hc + dy * hs) / ha;
    float v = (dy * hc - dx * hs) / hb;
    float r2 = u * u + v * v;
    if (r2 >= 1.0f)
        return 0.0f;
    float s = 1.0f - r2;
    return draft * s * s;
}

uint32_t vf_height_boundary_faces(uint32_t i, uint32_t j, uint32_t nx, uint32_t ny, uint32_t sides)
{
    return (i == 0 && (sides & VF_HEIGHT_SIDE_LEFT)) + (i + 1 == nx && (sides & VF_HEIGHT_SIDE_RIGHT)) +
           (j == 0 && (sides & VF_HEIGHT_SIDE_BOTTOM)) + (j + 1 == ny && (sides & VF_HEIGHT_SIDE_TOP));
}

float vf_height_drop_shape(float r2, float sigma)
{
    float s2 = sigma * sigma;
    if (r2 >= 36.0f * s2)
        return 0.0f;
    return expf(-r2 / s2) - 0.25f * expf(-r2 / (4.0f * s2));
}

static float pot(const vf_height_step_push *p, const float *pres, uint32_t i, uint32_t j)
{
    float v = (p->flags & VF_HEIGHT_STEP_PRES) ? pres[(size_t)j * p->nx + i] : 0.0f;
    if (p->flags & VF_HEIGHT_STEP_HULL)
        v -= vf_height_hull(((float)i + 0.5f) * p->dx, ((float)j + 0.5f) * p->dx, p->hull_x, p->hull_y, p->hull_a, p->hull_b,
                            p->hull_cos, p->hull_sin, p->hull_draft);
    return v;
}

static float damped_prev(const vf_height_step_push *p, const float *eta, const float *prev, uint32_t i, uint32_t j)
{
    size_t idx = (size_t)j * p->nx + i;
    float keep = fmaxf(0.0f, 1.0f - p->dt * p->damping);
    return eta[idx] - keep * (eta[idx] - prev[idx]);
}

static float rhs_q(const vf_height_step_push *p, const float *eta, const float *prev, const float *pres, uint32_t i,
                   uint32_t j)
{
    size_t idx = (size_t)j * p->nx + i;
    return p->wb * eta[idx] + p->wc * damped_prev(p, eta, prev, i, j) - pot(p, pres, i, j);
}

/* The field whose differences the weighted Laplacians take: eta - pot
 * (the explicit step; prev NULL) or rhs_q (the ADI right-hand side). */
typedef struct lap_field {
    const vf_height_step_push *p;
    const float *eta, *prev, *pres;
} lap_field;

static float lap_value(const lap_field *lf, uint32_t i, uint32_t j)
{
    if (lf->prev)
        return rhs_q(lf->p, lf->eta, lf->prev, lf->pres, i, j);
    return lf->eta[(size_t)j * lf->p->nx + i] - pot(lf->p, lf->pres, i, j);
}

/* sum over the faces of cell (i, j) inside the grid (left, right, bottom,
 * top) of the face depth times (the value there - the value here). */
static float face_laplacian(const lap_field *lf, const float *bed, const uint32_t *flags, uint32_t i, uint32_t j)
{
    const uint32_t nx = lf->p->nx, ny = lf->p->ny;
    const size_t idx = (size_t)j * nx + i;
    const float e = lf->eta[idx], b = bed[idx], here = lap_value(lf, i, j);
    const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
    float sum = 0.0f;
    for (int q = 0; q < 4; q++) {
        if ((di[q] < 0 && i == 0) || (di[q] > 0 && i + 1 >= nx) || (dj[q] < 0 && j == 0) || (dj[q] > 0 && j + 1 >= ny))
            continue;
        uint32_t ni = (uint32_t)((int)i + di[q]), nj = (uint32_t)((int)j + dj[q]);
        size_t n = (size_t)nj * nx + ni;
        sum += vf_height_face_depth(e, b, flags[idx], lf->eta[n], bed[n], flags[n]) * (lap_value(lf, ni, nj) - here);
    }
    return sum;
}

void vf_height_ref_explicit(const vf_height_step_push *p, const float *eta, const float *bed, const uint32_t *flags,
                            const float *pres, float *vel, float *eta_out)
{
    const uint32_t nx = p->nx, ny = p->ny;
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            size_t idx = (size_t)j * nx + i;
            float e = eta[idx], b = bed[idx];
            uint32_t f = flags[idx];
            if (f & VF_HEIGHT_SOLID) {
                eta_out[idx] = e;
                vel[idx] = 0.0f;
                continue;
            }
            lap_field lf = {p, eta, NULL, pres};
            float acc = face_laplacian(&lf, bed, flags, i, j);
            acc *= p->g / (p->dx * p->dx);
            float rad = 0.0f;
            if (p->radiate)
                rad = (float)vf_height_boundary_faces(i, j, nx, ny, p->radiate) * sqrtf(p->g * fmaxf(e - b, 0.0f)) / p->dx;
            float v = (vel[idx] + p->dt * acc) / (1.0f + p->dt * rad) * fmaxf(0.0f, 1.0f - p->dt * p->damping);
            float en = e + p->dt * v;
            if (en < b) {
                en = b;
                v = 0.0f;
            }
            eta_out[idx] = en;
            vel[idx] = v;
        }
}

void vf_height_ref_adi_rhs(const vf_height_step_push *p, const float *eta, const float *prev, const float *bed,
                           const uint32_t *flags, const float *pres, float *rhs)
{
    const uint32_t nx = p->nx, ny = p->ny;
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            size_t idx = (size_t)j * nx + i;
            float e = eta[idx], b = bed[idx];
            uint32_t f = flags[idx];
            if (f & VF_HEIGHT_SOLID) {
                rhs[idx] = e;
                continue;
            }
            lap_field lf = {p, eta, prev, pres};
            float lap = face_laplacian(&lf, bed, flags, i, j);
            float ep = damped_prev(p, eta, prev, i, j);
            float kappa = 0.0f;
            if (p->radiate)
                kappa = (float)vf_height_boundary_faces(i, j, nx, ny, p->radiate) * sqrtf(p->g * fmaxf(e - b, 0.0f)) * p->dt /
                        (2.0f * p->dx);
            rhs[idx] = 2.0f * e - ep + kappa * ep + p->dt * p->dt * p->g / (p->dx * p->dx) * lap;
        }
}

void vf_height_ref_adi_sweep(const vf_height_step_push *p, const float *eta, const float *bed, const uint32_t *flags,
                             const float *in, float *out, float *scratch)
{
    const uint32_t n = p->axis == 0 ? p->nx : p->ny, lines = p->axis == 0 ? p->ny : p->nx;
    const size_t stride = p->axis == 0 ? 1 : p->nx;
    const float al = p->wa * p->dt * p->dt * p->g / (p->dx * p->dx);
    for (uint32_t line = 0; line < lines; line++) {
        size_t base = p->axis == 0 ? (size_t)line * p->nx : line;
        float dm = 0.0f, cprev = 0.0f, dprev = 0.0f;
        for (uint32_t k = 0; k < n; k++) {
            size_t idx = base + k * stride;
            float dp = 0.0f;
            if (k + 1 < n) {
                size_t nb = idx + stride;
                dp = vf_height_face_depth(eta[idx], bed[idx], flags[idx], eta[nb], bed[nb], flags[nb]);
            }
            float a = -al * dm, c = -al * dp;
            float kappa = 0.0f;
            uint32_t lo = p->axis == 0 ? VF_HEIGHT_SIDE_LEFT : VF_HEIGHT_SIDE_BOTTOM;
            uint32_t hi = p->axis == 0 ? VF_HEIGHT_SIDE_RIGHT : VF_HEIGHT_SIDE_TOP;
            uint32_t faces = (k == 0 && (p->radiate & lo)) + (k + 1 == n && (p->radiate & hi));
            if (faces && !(flags[idx] & VF_HEIGHT_SOLID))
                kappa = (float)faces * sqrtf(p->g * fmaxf(eta[idx] - bed[idx], 0.0f)) * p->dt /
                        (2.0f * p->dx);
            float denom = 1.0f + kappa + al * (dm + dp) - a * cprev;
            cprev = c / denom;
            dprev = (in[idx] - a * dprev) / denom;
            scratch[idx] = cprev;
            out[idx] = dprev;
            dm = dp;
        }
        size_t last = base + (size_t)(n - 1) * stride;
        float next = out[last];
        if (p->axis == 1)
            out[last] = fmaxf(next, bed[last]);
        for (uint32_t k = n - 1; k-- > 0;) {
            size_t idx = base + k * stride;
            next = out[idx] - scratch[idx] * next;
            out[idx] = p->axis == 1 ? fmaxf(next, bed[idx]) : next;
        }
    }
}

void vf_height_ref_adi_step(const vf_height_step_push *p, const float *eta, const float *prev, const float *bed,
                            const uint32_t *flags, const float *pres, float *eta_next, float *work1, float *work2)
{
    vf_height_step_push q = *p;
    vf_height_ref_adi_rhs(&q, eta, prev, bed, flags, pres, eta_next);
    q.axis = 0;
    vf_height_ref_adi_sweep(&q, eta, bed, flags, eta_next, work1, work2);
    q.axis = 1;
    vf_height_ref_adi_sweep(&q, eta, bed, flags, work1, eta_next, work2);
}

/* Bilinear sample of a w x h array (stride floats per point, component comp)
 * at array coordinates (fx, fy), clamped. */
static float sample_array(const float *a, uint32_t w, uint32_t h, uint32_t stride, uint32_t comp, float fx, float fy)
{
    fx = fminf(fmaxf(fx, 0.0f), (float)(w - 1));
    fy = fminf(fmaxf(fy, 0.0f), (float)(h - 1));
    uint32_t x0 = (uint32_t)fx, y0 = (uint32_t)fy;
    if (x0 > w - 1)
        x0 = w - 1;
    if (y0 > h - 1)
        y0 = h - 1;
    uint32_t x1 = x0 + 1 < w ? x0 + 1 : w - 1, y1 = y0 + 1 < h ? y0 + 1 : h - 1;
    float tx = fx - (float)x0, ty = fy - (float)y0;
    float v00 = a[((size_t)y0 * w + x0) * stride + comp], v10 = a[((size_t)y0 * w + x1) * stride + comp];
    float v01 = a[((size_t)y1 * w + x0) * stride + comp], v11 = a[((size_t)y1 * w + x1) * stride + comp];
    float r0 = v00 + (v10 - v00) * tx, r1 = v01 + (v11 - v01) * tx;
    return r0 + (r1 - r0) * ty;
}

static float sample_cells(const float *f, uint32_t fnx, uint32_t fny, float fx, float fy)
{
    return sample_array(f, fnx, fny, 1, 0, fx, fy);
}

static float sample_flow_at_cell(const vf_height_disturb_push *p, const float *f, uint32_t i, uint32_t j)
{
    float fx = ((float)i + 0.5f) * (float)p->flow_nx / (float)p->nx - 0.5f;
    float fy = ((float)j + 0.5f) * (float)p->flow_ny / (float)p->ny - 0.5f;
    return sample_cells(f, p->flow_nx, p->flow_ny, fx, fy);
}

/* The divergence at height cell (i, j), 3x3 binomial over flow cells (height_disturb.comp). */
static float sample_div_smooth(const vf_height_disturb_push *p, const float *f, uint32_t i, uint32_t j)
{
    float fx = ((float)i + 0.5f) * (float)p->flow_nx / (float)p->nx - 0.5f;
    float fy = ((float)j + 0.5f) * (float)p->flow_ny / (float)p->ny - 0.5f;
    if (p->edge_cells > 0 && (fx < (float)p->edge_cells || fx > (float)p->flow_nx - 1.0f - (float)p->edge_cells))
        return 0.0f; /* open ends: the boundary condition's divergence */
    float s = 0.0f;
    for (int oy = -1; oy <= 1; oy++)
        for (int ox = -1; ox <= 1; ox++)
            s += (float)((2 - abs(ox)) * (2 - abs(oy))) * sample_cells(f, p->flow_nx, p->flow_ny, fx + (float)ox, fy + (float)oy);
    return s / 16.0f;
}

void vf_height_ref_disturb(const vf_height_disturb_push *p, float *eta, float *prev, const float *bed,
                           const uint32_t *flags, float *pres, const float *flow_p, const float *flow_div)
{
    for (uint32_t j = 0; j < p->ny; j++)
        for (uint32_t i = 0; i < p->nx; i++) {
            size_t idx = (size_t)j * p->nx + i;
            if (flags[idx] & VF_HEIGHT_SOLID)
                continue;
            float e = eta[idx], b = bed[idx];
            float delta = 0.0f;
            if (p->flags & VF_HEIGHT_DISTURB_TRACK_P) {
                float ph = sample_flow_at_cell(p, flow_p, i, j) * p->inv_rho_g;
                if (p->coupling == VF_HEIGHT_COUPLE_PRESSURE)
                    delta += ph - pres[idx];
                pres[idx] = ph;
            }
            if (e - b > 0.0f) {
                float xc = ((float)i + 0.5f) * p->dx, yc = ((float)j + 0.5f) * p->dx;
                float lx = (float)p->nx * p->dx, ly = (float)p->ny * p->dx;
                for (uint32_t k = 0; k < p->drop_count; k++) {
                    uint32_t id = p->drop_base + k;
                    float px = vf_height_hash01(p->seed, 3u * id) * lx;
                    float py = vf_height_hash01(p->seed, 3u * id + 1u) * ly;
                    float amp = p->drop_amp * (0.5f + vf_height_hash01(p->seed, 3u * id + 2u));
                    float rx = xc - px, ry = yc - py;
                    delta -= amp * vf_height_drop_shape(rx * rx + ry * ry, p->drop_sigma);
                }
                if (p->user_amp != 0.0f) {
                    float rx = xc - p->user_x, ry = yc - p->user_y;
                    delta -= p->user_amp * vf_height_drop_shape(rx * rx + ry * ry, p->user_sigma);
                }
                if (p->coupling == VF_HEIGHT_COUPLE_DIVERGENCE)
                    delta -= p->dt * p->strength * p->div_scale * sample_div_smooth(p, flow_div, i, j) / (1.0f + e * e);
            }
            if (delta == 0.0f)
                continue;
            float en = fmaxf(e + delta, b);
            eta[idx] = en;
            if (p->flags & VF_HEIGHT_DISTURB_PREV)
                prev[idx] += en - e;
        }
}

double vf_height_ref_excess(uint32_t nx, uint32_t ny, const float *eta, const float *bed, const uint32_t *flags,
                            uint32_t *wet, double *depth)
{
    return vf_height_excess(nx, ny, eta, bed, flags, wet, depth);
}

void vf_height_ref_volume_apply(uint32_t nx, uint32_t ny, uint32_t flags_push, float scale, float *eta, float *prev,
                                const float *bed, const uint32_t *flags)
{
    for (size_t idx = 0; idx < (size_t)nx * ny; idx++) {
        if (flags[idx] & VF_HEIGHT_SOLID)
            continue;
        float e = eta[idx], b = bed[idx];
        if (e - b <= 0.0f)
            continue;
        float en = e + scale * (e - b);
        eta[idx] = en;
        if (flags_push & VF_HEIGHT_END_PREV)
            prev[idx] += en - e;
    }
}

static float sample_eta(const vf_height_objects_push *p, const float *eta, float x, float y)
{
    return sample_cells(eta, p->nx, p->ny, x / p->dx - 0.5f, y / p->dx - 0.5f);
}

static void sample_flow_vel(const vf_height_objects_push *p, const float *fa, const float *fb, float x, float y, float out[2])
{
    float gx = x / ((float)p->nx * p->dx) * (float)p->flow_nx, gy = y / ((float)p->ny * p->dx) * (float)p->flow_ny;
    if (p->flow_layout == VF_HEIGHT_FLOW_MAC) {
        out[0] = sample_array(fa, p->flow_nx + 1, p->flow_ny, 1, 0, gx, gy - 0.5f);
        out[1] = sample_array(fb, p->flow_nx, p->flow_ny + 1, 1, 0, gx - 0.5f, gy);
    } else {
        out[0] = sample_array(fa, p->flow_nx, p->flow_ny, 2, 0, gx - 0.5f, gy - 0.5f);
        out[1] = sample_array(fa, p->flow_nx, p->flow_ny, 2, 1, gx - 0.5f, gy - 0.5f);
    }
    out[0] *= p->vel_scale;
    out[1] *= p->vel_scale;
}

static int blocked(const vf_height_objects_push *p, const float *eta, const float *bed, const uint32_t *flags, float x,
                   float y)
{
    uint32_t i = (uint32_t)fmaxf(x / p->dx, 0.0f), j = (uint32_t)fmaxf(y / p->dx, 0.0f);
    if (i > p->nx - 1)
        i = p->nx - 1;
    if (j > p->ny - 1)
        j = p->ny - 1;
    size_t idx = (size_t)j * p->nx + i;
    return (flags[idx] & VF_HEIGHT_SOLID) || eta[idx] - bed[idx] < 1e-3f;
}

void vf_height_ref_objects(const vf_height_objects_push *p, const float *eta, const float *bed, const uint32_t *flags,
                           const float *flow_vel, const float *flow_v, vf_height_object *objects)
{
    for (uint32_t k = 0; k < p->count; k++) {
        vf_height_object *o = &objects[k];
        if (p->boat && k == 0) {
            o->x = p->boat_x;
            o->y = p->boat_y;
            o->heading = p->boat_heading;
            o->vx = cosf(p->boat_heading) * p->boat_speed;
            o->vy = sinf(p->boat_heading) * p->boat_speed;
            o->z = sample_eta(p, eta, o->x, o->y);
            continue;
        }
        float px = o->x, py = o->y, vx = o->vx, vy = o->vy;
        float gx = (sample_eta(p, eta, px + p->dx, py) - sample_eta(p, eta, px - p->dx, py)) / (2.0f * p->dx);
        float gy = (sample_eta(p, eta, px, py + p->dx) - sample_eta(p, eta, px, py - p->dx)) / (2.0f * p->dx);
        float ax = -p->g * gx, ay = -p->g * gy;
        float al = sqrtf(ax * ax + ay * ay), amax = 0.5f * p->g;
        if (al > amax) {
            ax *= amax / al;
            ay *= amax / al;
        }
        vx += p->dt * ax;
        vy += p->dt * ay;
        float u[2] = {0.0f, 0.0f};
        if (p->flow)
            sample_flow_vel(p, flow_vel, flow_v, px, py, u);
        float keep = expf(-p->dt / p->tau);
        vx = u[0] + (vx - u[0]) * keep;
        vy = u[1] + (vy - u[1]) * keep;
        float nxp = px + p->dt * vx, nyp = py + p->dt * vy;
        float lx = (float)p->nx * p->dx, ly = (float)p->ny * p->dx, m = 0.5f * p->dx;
        if (nxp < m) { nxp = m; vx = fabsf(vx); }
        if (nxp > lx - m) {
            if (p->recycle) {
                nxp = m;
            } else {
                nxp = lx - m;
                vx = -fabsf(vx);
            }
        }
        if (nyp < m) { nyp = m; vy = fabsf(vy); }
        if (nyp > ly - m) { nyp = ly - m; vy = -fabsf(vy); }
        if (blocked(p, eta, bed, flags, nxp, nyp)) {
            nxp = px;
            nyp = py;
            vx = -0.5f * vx;
            vy = -0.5f * vy;
        }
        if (o->kind == VF_HEIGHT_OBJ_DUCK) {
            float sp = sqrtf(vx * vx + vy * vy);
            if (sp > 1e-3f) {
                float d = atan2f(vy, vx) - o->heading;
                d -= 6.28318531f * floorf(d / 6.28318531f + 0.5f);
                float lim = 2.0f * p->dt;
                o->heading += fminf(fmaxf(d, -lim), lim);
            }
        } else {
            o->heading += p->dt * ((k & 1u) ? 0.3f : -0.3f);
        }
        o->x = nxp;
        o->y = nyp;
        o->vx = vx;
        o->vy = vy;
        o->z = sample_eta(p, eta, nxp, nyp);
    }
}

/* ------------------------------------------------------------------ advection */

static int adv_wet(const float *eta, const float *bed, const uint32_t *flags, size_t k)
{
    return !(flags[k] & VF_HEIGHT_SOLID) && eta[k] - bed[k] > 0.0f;
}

void vf_height_ref_advect(const vf_height_advect_push *p, const float *eta, const float *second, const float *bed,
                          const uint32_t *flags, const float *flow_vel, const float *flow_v, float *eta_out,
                          float *second_out)
{
    /* the flow sampling of the objects kernel, with the advect push's fields */
    vf_height_objects_push op = {.nx = p->nx, .ny = p->ny, .dx = p->dx, .flow_nx = p->flow_nx, .flow_ny = p->flow_ny,
                                 .flow_layout = p->flow_layout, .vel_scale = p->vel_scale};
    for (uint32_t j = 0; j < p->ny; j++)
        for (uint32_t i = 0; i < p->nx; i++) {
            size_t k = (size_t)j * p->nx + i;
            float e = eta[k], s = second[k];
            if (adv_wet(eta, bed, flags, k)) {
                float px = ((float)i + 0.5f) * p->dx, py = ((float)j + 0.5f) * p->dx, u[2];
                sample_flow_vel(&op, flow_vel, flow_v, px, py, u);
                float qx = px - p->dt * u[0], qy = py - p->dt * u[1];
                float fx = fminf(fmaxf(qx / p->dx - 0.5f, 0.0f), (float)(p->nx - 1));
                float fy = fminf(fmaxf(qy / p->dx - 0.5f, 0.0f), (float)(p->ny - 1));
                uint32_t x0 = (uint32_t)fx, y0 = (uint32_t)fy;
                if (x0 > p->nx - 1)
                    x0 = p->nx - 1;
                if (y0 > p->ny - 1)
                    y0 = p->ny - 1;
                uint32_t x1 = x0 + 1 < p->nx ? x0 + 1 : p->nx - 1, y1 = y0 + 1 < p->ny ? y0 + 1 : p->ny - 1;
                float tx = fx - (float)x0, ty = fy - (float)y0;
                size_t c[4] = {(size_t)y0 * p->nx + x0, (size_t)y0 * p->nx + x1, (size_t)y1 * p->nx + x0,
                               (size_t)y1 * p->nx + x1};
                float w[4] = {(1.0f - tx) * (1.0f - ty), tx * (1.0f - ty), (1.0f - tx) * ty, tx * ty};
                float ws = 0.0f, se = 0.0f, ss = 0.0f;
                for (int n = 0; n < 4; n++) {
                    if (!adv_wet(eta, bed, flags, c[n]))
                        continue;
                    ws += w[n];
                    se += w[n] * eta[c[n]];
                    ss += w[n] * second[c[n]];
                }
                if (ws > 1e-6f) {
                    e = fmaxf(se / ws, bed[k]);
                    s = ss / ws;
                }
            }
            eta_out[k] = e;
            second_out[k] = s;
        }
}
