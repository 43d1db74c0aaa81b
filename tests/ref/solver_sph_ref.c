#include "solver_sph_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SPH_PI 3.14159265358979323846

double vf_sph_ref_poly6(double r, double h)
{
    if (r >= h)
        return 0.0;
    double t = h * h - r * r;
    return 315.0 / (64.0 * SPH_PI * pow(h, 9)) * t * t * t;
}

void vf_sph_ref_spiky_grad(const double d[3], double h, double out[3])
{
    double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    double f = r > 0 && r < h ? -45.0 / (SPH_PI * pow(h, 6)) * (h - r) * (h - r) / r : 0.0;
    for (int k = 0; k < 3; k++)
        out[k] = f * d[k];
}

double vf_sph_ref_visc_lap(double r, double h)
{
    return r < h ? 45.0 / (SPH_PI * pow(h, 6)) * (h - r) : 0.0;
}

void vf_sph_ref_poly6_grad(const double d[3], double h, double out[3])
{
    double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double t = h * h - r2;
    double f = r2 < h * h ? -945.0 / (32.0 * SPH_PI * pow(h, 9)) * t * t : 0.0;
    for (int k = 0; k < 3; k++)
        out[k] = f * d[k];
}

double vf_sph_ref_poly6_lap(double r, double h)
{
    double r2 = r * r;
    if (r2 >= h * h)
        return 0.0;
    return -945.0 / (32.0 * SPH_PI * pow(h, 9)) * (h * h - r2) * (3.0 * h * h - 7.0 * r2);
}

double vf_sph_ref_lattice_sum(double h, double s, double grad_sum[3])
{
    int m = (int)ceil(h / s) + 1;
    double v = s * s * s, sum = 0, g[3] = {0, 0, 0};
    for (int i = -m; i <= m; i++)
        for (int j = -m; j <= m; j++)
            for (int k = -m; k <= m; k++) {
                double d[3] = {-i * s, -j * s, -k * s}; /* x_i - x_j with x_i at the origin */
                double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                sum += vf_sph_ref_poly6(r, h) * v;
                double gr[3];
                vf_sph_ref_spiky_grad(d, h, gr);
                for (int a = 0; a < 3; a++)
                    g[a] += gr[a] * v;
            }
    if (grad_sum)
        memcpy(grad_sum, g, sizeof g);
    return sum;
}

int vf_sph_ref_images(const vf_sph_params *prm, const double x[3], const double p[3], const double v[3], double img[8][3],
                      double vimg[8][3])
{
    double h = prm->h, plane[3] = {0, 0, 0};
    unsigned axes = 0;
    for (int a = 0; a < 3; a++) {
        double dlo = x[a] - prm->lo[a], dhi = prm->hi[a] - x[a];
        if (dlo < h && dlo <= dhi) {
            axes |= 1u << a;
            plane[a] = prm->lo[a];
        } else if (dhi < h) {
            axes |= 1u << a;
            plane[a] = prm->hi[a];
        }
    }
    int count = 0;
    for (unsigned mask = axes; mask; mask = (mask - 1) & axes) {
        for (int a = 0; a < 3; a++) {
            bool flip = mask & (1u << a);
            img[count][a] = flip ? 2 * plane[a] - p[a] : p[a];
            if (vimg)
                vimg[count][a] = prm->noslip ? -v[a] : flip ? -v[a] : v[a];
        }
        count++;
    }
    /* the nearest obstacle surface within h */
    double best = h, n[3] = {0, 1, 0}, c = 0;
    bool obstacle = false;
    for (uint32_t k = 0; k < prm->sphere_count; k++) {
        const float *sp = prm->spheres[k];
        double d[3] = {x[0] - sp[0], x[1] - sp[1], x[2] - sp[2]};
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (len - sp[3] < best && len > 1e-6 * sp[3]) {
            best = fmax(len - sp[3], 0.0);
            obstacle = true;
            for (int a = 0; a < 3; a++)
                n[a] = d[a] / len;
            c = n[0] * sp[0] + n[1] * sp[1] + n[2] * sp[2] + sp[3];
        }
    }
    for (uint32_t k = 0; k < prm->box_count; k++) {
        double q[3], d[3];
        for (int a = 0; a < 3; a++) {
            q[a] = fmin(fmax(x[a], prm->box_lo[k][a]), prm->box_hi[k][a]);
            d[a] = x[a] - q[a];
        }
        double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        if (len < best && len > 0) {
            best = len;
            obstacle = true;
            for (int a = 0; a < 3; a++)
                n[a] = d[a] / len;
            c = n[0] * q[0] + n[1] * q[1] + n[2] * q[2];
        }
    }
    if (obstacle) {
        double pn = n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - c;
        double vn = v ? n[0] * v[0] + n[1] * v[1] + n[2] * v[2] : 0;
        for (int a = 0; a < 3; a++) {
            img[count][a] = p[a] - 2 * pn * n[a];
            if (vimg)
                vimg[count][a] = prm->noslip ? -v[a] : v[a] - 2 * vn * n[a];
        }
        count++;
    }
    return count;
}

void vf_sph_ref_cell3(const vf_sph_params *prm, const float pos[3], int c[3])
{
    const uint32_t n[3] = {prm->grid_x, prm->grid_y, prm->grid_z};
    for (int k = 0; k < 3; k++) {
        float v = (pos[k] - prm->lo[k]) * prm->inv_cell;
        if (!(v >= 0.0f))
            v = 0.0f;
        v = fminf(v, (float)(n[k] - 1));
        c[k] = (int)v;
    }
}

static bool in_sink(const vf_sph_params *prm, const float p[3])
{
    if (!prm->sink_enabled)
        return false;
    for (int k = 0; k < 3; k++)
        if (!(p[k] >= prm->sink_lo[k] && p[k] <= prm->sink_hi[k]))
            return false;
    return true;
}

uint32_t vf_sph_ref_cell(const vf_sph_params *prm, const float pos[3])
{
    if (in_sink(prm, pos))
        return prm->cells;
    int c[3];
    vf_sph_ref_cell3(prm, pos, c);
    return (uint32_t)c[0] + prm->grid_x * ((uint32_t)c[1] + prm->grid_y * (uint32_t)c[2]);
}

void vf_sph_ref_bin(const vf_sph_params *prm, uint32_t n, const float (*pos)[4], const uint32_t *id, uint32_t *start,
                    uint32_t *order)
{
    uint32_t cells = prm->cells;
    uint32_t *cell = malloc(sizeof *cell * (n ? n : 1));
    uint32_t *fill = calloc((size_t)cells + 1, sizeof *fill);
    memset(start, 0, sizeof *start * ((size_t)cells + 1));
    for (uint32_t i = 0; i < n; i++) {
        cell[i] = vf_sph_ref_cell(prm, pos[i]);
        if (cell[i] < cells)
            start[cell[i]]++;
    }
    uint32_t sum = 0;
    for (uint32_t c = 0; c <= cells; c++) {
        uint32_t k = start[c];
        start[c] = sum;
        sum += c < cells ? k : 0;
    }
    /* Insert by id: counting-sort placement, then an insertion sort by id
     * inside each cell (cells are small). */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t c = cell[i];
        if (c >= cells)
            continue;
        uint32_t at = start[c] + fill[c]++;
        while (at > start[c] && id[order[at - 1]] > id[i]) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
    free(fill);
    free(cell);
}

double vf_sph_ref_pressure(const vf_sph_params *prm, double rho)
{
    double p;
    if (prm->eos == VF_SPH_EOS_TAIT)
        p = prm->eos_b * (pow(rho / prm->rho0, 7.0) - 1.0);
    else
        p = prm->eos_k * (rho - prm->rho0);
    if (prm->clamp_pressure && p < 0)
        p = 0;
    return p;
}

void vf_sph_ref_density(const vf_sph_params *prm, uint32_t n, const float (*pos)[4], double *rho, double *press)
{
    double h = prm->h;
    for (uint32_t i = 0; i < n; i++) {
        double x[3] = {pos[i][0], pos[i][1], pos[i][2]}, sum = 0;
        for (uint32_t j = 0; j < n; j++) {
            double p[3] = {pos[j][0], pos[j][1], pos[j][2]}, img[8][3];
            double r = sqrt((x[0] - p[0]) * (x[0] - p[0]) + (x[1] - p[1]) * (x[1] - p[1]) + (x[2] - p[2]) * (x[2] - p[2]));
            if (r >= h)
                continue; /* images only of neighbours within h, as the shader */
            sum += vf_sph_ref_poly6(r, h);
            int m = vf_sph_ref_images(prm, x, p, NULL, img, NULL);
            for (int k = 0; k < m; k++) {
                double d[3] = {x[0] - img[k][0], x[1] - img[k][1], x[2] - img[k][2]};
                sum += vf_sph_ref_poly6(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), h);
            }
        }
        rho[i] = prm->mass * sum;
        press[i] = vf_sph_ref_pressure(prm, rho[i]);
    }
}

/* One pair term of particle i with a neighbour or image at x_j. */
static void ref_pair(const vf_sph_params *prm, uint32_t i, const double xi[3], const double vi[3], const double xj[3],
                     const double vj[3], double rho_j, double p_j, const double *rho, const double *press, double a[3],
                     double normal[3], double *lap)
{
    double h = prm->h, m = prm->mass;
    double d[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
    double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (r >= h)
        return;
    double g[3], gp[3];
    if (r > 1e-6 * h) {
        vf_sph_ref_shader_spiky_grad(prm, d, g);
        double f = -m * (press[i] / (rho[i] * rho[i]) + p_j / (rho_j * rho_j));
        for (int k = 0; k < 3; k++)
            a[k] += f * g[k];
    }
    double fv = prm->viscosity / rho[i] * m / rho_j * vf_sph_ref_visc_lap(r, h);
    for (int k = 0; k < 3; k++)
        a[k] += fv * (vj[k] - vi[k]);
    vf_sph_ref_poly6_grad(d, h, gp);
    for (int k = 0; k < 3; k++)
        normal[k] += m / rho_j * gp[k];
    *lap += m / rho_j * vf_sph_ref_poly6_lap(r, h);
}

void vf_sph_ref_forces(const vf_sph_params *prm, const vf_sph_forces_push *push, uint32_t n, const float (*pos)[4],
                       const float (*vel)[4], const double *rho, const double *press, double (*acc)[3])
{
    double h = prm->h, m = prm->mass;
    for (uint32_t i = 0; i < n; i++) {
        double a[3] = {0, 0, 0}, normal[3] = {0, 0, 0};
        double lap = m / rho[i] * vf_sph_ref_poly6_lap(0, h);
        double xi[3] = {pos[i][0], pos[i][1], pos[i][2]}, vi[3] = {vel[i][0], vel[i][1], vel[i][2]};
        for (uint32_t j = 0; j < n; j++) {
            double xj[3] = {pos[j][0], pos[j][1], pos[j][2]}, vj[3] = {vel[j][0], vel[j][1], vel[j][2]};
            double dx[3] = {xi[0] - xj[0], xi[1] - xj[1], xi[2] - xj[2]};
            if (dx[0] * dx[0] + dx[1] * dx[1] + dx[2] * dx[2] >= h * h)
                continue; /* images only of neighbours within h, as the shader */
            if (j != i)
                ref_pair(prm, i, xi, vi, xj, vj, rho[j], press[j], rho, press, a, normal, &lap);
            double img[8][3], vimg[8][3];
            int k = vf_sph_ref_images(prm, xi, xj, vj, img, vimg);
            for (int t = 0; t < k; t++)
                ref_pair(prm, i, xi, vi, img[t], vimg[t], rho[j], press[j], rho, press, a, normal, &lap);
        }
        for (int k = 0; k < 3; k++)
            a[k] += prm->gravity[k] - prm->damping * vel[i][k];
        if (prm->tension > 0) {
            double len = sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
            if (len > prm->tension_threshold)
                for (int k = 0; k < 3; k++)
                    a[k] -= prm->tension * lap / rho[i] * normal[k] / len;
        }
        if (push && push->interact[3] > 0) {
            double d[3] = {xi[0] - push->interact[0], xi[1] - push->interact[1], xi[2] - push->interact[2]};
            double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), rad = push->interact[3];
            if (len < rad && len > 1e-6 * rad)
                for (int k = 0; k < 3; k++)
                    a[k] += push->strength * (1.0 - len / rad) * d[k] / len;
        }
        for (int k = 0; k < 3; k++)
            acc[i][k] = a[k];
    }
}

/* The shader's sph_collide_margin in fp32. */
static void collide_margin(const vf_sph_params *prm, float x[3], float v[3], float margin)
{
    float e = prm->restitution;
    for (uint32_t k = 0; k < prm->sphere_count; k++) {
        const float *s = prm->spheres[k];
        float d[3] = {x[0] - s[0], x[1] - s[1], x[2] - s[2]};
        float d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], rr = s[3] + margin;
        if (d2 < rr * rr) {
            float len = sqrtf(d2);
            float n[3] = {0, 1, 0};
            if (len > 1e-6f * s[3])
                for (int a = 0; a < 3; a++)
                    n[a] = d[a] / len;
            for (int a = 0; a < 3; a++)
                x[a] = s[a] + n[a] * rr;
            float vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
            if (vn < 0)
                for (int a = 0; a < 3; a++)
                    v[a] -= (1.0f + e) * vn * n[a];
        }
    }
    for (uint32_t k = 0; k < prm->box_count; k++) {
        float lo[3], hi[3];
        for (int a = 0; a < 3; a++) {
            lo[a] = prm->box_lo[k][a] - margin;
            hi[a] = prm->box_hi[k][a] + margin;
        }
        bool inside = true;
        for (int a = 0; a < 3; a++)
            inside = inside && x[a] > lo[a] && x[a] < hi[a];
        if (!inside)
            continue;
        int axis = 0;
        float best = x[0] - lo[0];
        bool upper = false;
        for (int a = 0; a < 3; a++) {
            if (x[a] - lo[a] < best) {
                best = x[a] - lo[a];
                axis = a;
                upper = false;
            }
            if (hi[a] - x[a] < best) {
                best = hi[a] - x[a];
                axis = a;
                upper = true;
            }
        }
        if (upper) {
            x[axis] = hi[axis];
            if (v[axis] < 0)
                v[axis] = -e * v[axis];
        } else {
            x[axis] = lo[axis];
            if (v[axis] > 0)
                v[axis] = -e * v[axis];
        }
    }
    for (int a = 0; a < 3; a++) {
        if (x[a] < prm->lo[a] + margin) {
            x[a] = prm->lo[a] + margin;
            if (v[a] < 0)
                v[a] = -e * v[a];
        }
        if (x[a] > prm->hi[a] - margin) {
            x[a] = prm->hi[a] - margin;
            if (v[a] > 0)
                v[a] = -e * v[a];
        }
    }
}

/* The shader's sph_collide in fp32. */
static void collide(const vf_sph_params *prm, float x[3], float v[3])
{
    collide_margin(prm, x, v, 0.0f);
}

/* The large-step methods' margin (sph_wall_margin). */
static float wall_margin(const vf_sph_params *prm)
{
    return 1e-3f * prm->h;
}

void vf_sph_ref_integrate(const vf_sph_params *prm, uint32_t mode, float dt, uint32_t n, float (*pos)[4], float (*vel)[4],
                          const float (*acc)[4])
{
    for (uint32_t i = 0; i < n; i++) {
        float *v = vel[i], *x = pos[i];
        if (mode == VF_SPH_INTEGRATE_KICK) {
            for (int k = 0; k < 3; k++)
                v[k] += (0.5f * dt) * acc[i][k];
        } else {
            float f = mode == VF_SPH_INTEGRATE_EULER ? dt : 0.5f * dt;
            for (int k = 0; k < 3; k++) {
                v[k] += f * acc[i][k];
                x[k] += dt * v[k];
            }
            collide(prm, x, v);
            x[3] = 0;
        }
        v[3] = 0;
    }
}

/* ------------------------------------------------------------------ PBF */

/* The shaders' spiky gradient at offset d (|d| = r, 0 < r < h), with the
 * lattice normalisation of prm->spiky. */
static void pbf_grad(const vf_sph_params *prm, const double d[3], double r, double out[3])
{
    double omq = 1 - r / prm->h, f = -prm->spiky * omq * omq / r;
    for (int k = 0; k < 3; k++)
        out[k] = f * d[k];
}

void vf_sph_ref_shader_spiky_grad(const vf_sph_params *prm, const double d[3], double out[3])
{
    double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    out[0] = out[1] = out[2] = 0;
    if (r > 0 && r < prm->h)
        pbf_grad(prm, d, r, out);
}

static double pbf_shape(const vf_sph_params *prm, double r2)
{
    double t = 1 - r2 / ((double)prm->h * prm->h);
    return t * t * t;
}

static double dist2(const double a[3], const double b[3])
{
    double d[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    return d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

/* The external accelerations of the prediction (pbf_common.glsl). */
static void pbf_external(const vf_sph_params *prm, const vf_pbf_push *push, const float x[3], const float v[3], float a[3])
{
    for (int k = 0; k < 3; k++)
        a[k] = prm->gravity[k] - prm->damping * v[k];
    if (push && push->interact[3] > 0) {
        float d[3] = {x[0] - push->interact[0], x[1] - push->interact[1], x[2] - push->interact[2]};
        float len = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), rad = push->interact[3];
        if (len < rad && len > 1e-6f * rad)
            for (int k = 0; k < 3; k++)
                a[k] += push->strength * (1.0f - len / rad) / len * d[k];
    }
}

void vf_sph_ref_pbf_predict(const vf_sph_params *prm, const vf_pbf_push *push, float dt, uint32_t n, float (*pos)[4],
                            float (*vel)[4])
{
    for (uint32_t i = 0; i < n; i++) {
        float a[3], x1[3], xc[3], vc[3];
        pbf_external(prm, push, pos[i], vel[i], a);
        for (int k = 0; k < 3; k++) {
            vel[i][k] += dt * a[k];
            x1[k] = xc[k] = pos[i][k] + dt * vel[i][k];
            vc[k] = vel[i][k];
        }
        collide_margin(prm, xc, vc, wall_margin(prm));
        bool hit = memcmp(x1, xc, sizeof x1) != 0;
        for (int k = 0; k < 3; k++) {
            if (hit)
                vel[i][k] = (xc[k] - pos[i][k]) / dt;
            pos[i][k] = xc[k];
        }
    }
}

/* The pairs of a PBF substep: i and j within h at the binned positions x0. */
static bool *pbf_pairs(const vf_sph_params *prm, uint32_t n, const double (*x0)[3])
{
    bool *near = malloc((size_t)n * n);
    if (!near)
        return NULL;
    double h2 = (double)prm->h * prm->h;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            near[(size_t)i * n + j] = dist2(x0[i], x0[j]) < h2;
    return near;
}

/* The reflections of the direction g by the image sets of a particle at x
 * (R g for each image of vf_sph_ref_images: img(p + g) - img(p)); returns
 * the count. */
static int ref_reflections(const vf_sph_params *prm, const double x[3], const double p[3], const double g[3],
                           double out[8][3])
{
    double a[8][3], b[8][3], q[3] = {p[0] + g[0], p[1] + g[1], p[2] + g[2]};
    int m = vf_sph_ref_images(prm, x, p, NULL, a, NULL);
    vf_sph_ref_images(prm, x, q, NULL, b, NULL);
    for (int t = 0; t < m; t++)
        for (int k = 0; k < 3; k++)
            out[t][k] = b[t][k] - a[t][k];
    return m;
}

/* Where particle j stands as seen from i for the PBF passes: j itself and
 * its wall images (vf_sph_ref_images) when the pair is in i's list `near`,
 * none otherwise; with their velocities in vs when v is not NULL. Returns
 * how many. */
static int pair_points(const vf_sph_params *prm, uint32_t n, const bool *near, const double (*x)[3],
                       const double (*v)[3], uint32_t i, uint32_t j, double pts[9][3], double vs[9][3])
{
    if (!near[(size_t)i * n + j])
        return 0;
    memcpy(pts[0], x[j], sizeof pts[0]);
    if (v)
        memcpy(vs[0], v[j], sizeof vs[0]);
    return 1 + vf_sph_ref_images(prm, x[i], x[j], v ? v[j] : NULL, pts + 1, v ? vs + 1 : NULL);
}

/* lambda of every particle at positions x (pbf_lambda.comp): an image
 * moves with its original, so its gradient, reflected, counts with its
 * original's in grad_j C_i, and a particle's own images in grad_i C_i. */
static void pbf_lambdas(const vf_sph_params *prm, uint32_t n, const bool *near, const double (*x)[3], double *rho,
                        double *lambda)
{
    double h = prm->h, h2 = h * h, rmin2 = 1e-12 * h2, vol = prm->volume;
    for (uint32_t i = 0; i < n; i++) {
        double w = 0, grad[3] = {0, 0, 0}, own[3] = {0, 0, 0}, sq = 0;
        for (uint32_t j = 0; j < n; j++) {
            if (dist2(x[i], x[j]) >= h2 || !near[(size_t)i * n + j])
                continue;
            double pts[9][3];
            int m = pair_points(prm, n, near, x, NULL, i, j, pts, NULL);
            double c[3] = {0, 0, 0};
            for (int t = 0; t < m; t++) {
                double d[3] = {x[i][0] - pts[t][0], x[i][1] - pts[t][1], x[i][2] - pts[t][2]};
                double q2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                if (q2 >= h2)
                    continue;
                w += pbf_shape(prm, q2);
                if (q2 <= rmin2)
                    continue;
                double g[3];
                pbf_grad(prm, d, sqrt(q2), g);
                for (int k = 0; k < 3; k++)
                    g[k] *= vol;
                for (int k = 0; k < 3; k++)
                    grad[k] += g[k];
                if (t == 0) {
                    for (int k = 0; k < 3; k++)
                        c[k] += g[k];
                } else {
                    double r[8][3];
                    ref_reflections(prm, x[i], x[j], g, r);
                    for (int k = 0; k < 3; k++)
                        c[k] += r[t - 1][k];
                }
            }
            if (j == i) {
                for (int k = 0; k < 3; k++)
                    own[k] += c[k];
            } else {
                sq += c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
            }
        }
        rho[i] = prm->mass * prm->poly6 * w;
        double cc = rho[i] / prm->rho0 - 1;
        if (prm->clamp_pressure && cc < 0)
            cc = 0;
        double gi[3] = {grad[0] - own[0], grad[1] - own[1], grad[2] - own[2]};
        lambda[i] = -cc / (gi[0] * gi[0] + gi[1] * gi[1] + gi[2] * gi[2] + sq + prm->pbf_relax);
    }
}

/* sum over the places of every neighbour j of particle i (pair_points)
 * closer than h and farther than 1e-6 h of coef(j, q^2) grad W (pbf_grad),
 * into out: the sums of pbf_deltas and pbf_eta; into *virial (may be NULL)
 * the sum of coef(j, q^2) (x_i - x_j).grad W over the same places. */
typedef double (*pbf_coef)(const vf_sph_params *prm, const double *field, uint32_t i, uint32_t j, double q2);
static void pbf_grad_sum(const vf_sph_params *prm, uint32_t n, const bool *near, const double (*x)[3], uint32_t i,
                         pbf_coef coef, const double *field, double out[3], double *virial)
{
    double h = prm->h, h2 = h * h, rmin2 = 1e-12 * h2;
    out[0] = out[1] = out[2] = 0;
    if (virial)
        *virial = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (dist2(x[i], x[j]) >= h2)
            continue;
        double pts[9][3];
        int m = pair_points(prm, n, near, x, NULL, i, j, pts, NULL);
        for (int t = 0; t < m; t++) {
            double d[3] = {x[i][0] - pts[t][0], x[i][1] - pts[t][1], x[i][2] - pts[t][2]};
            double q2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
            if (q2 >= h2 || q2 <= rmin2)
                continue;
            double c = coef(prm, field, i, j, q2), g[3];
            pbf_grad(prm, d, sqrt(q2), g);
            for (int k = 0; k < 3; k++)
                out[k] += c * g[k];
            if (virial)
                *virial += c * (d[0] * g[0] + d[1] * g[1] + d[2] * g[2]);
        }
    }
}

/* pbf_delta.comp's weight of a pair: lambda_i + lambda_j + s_corr. */
static double delta_coef(const vf_sph_params *prm, const double *lambda, uint32_t i, uint32_t j, double q2)
{
    double scorr = 0;
    if (prm->pbf_scorr_k > 0)
        scorr = -prm->pbf_scorr_k * pow(pbf_shape(prm, q2) * prm->pbf_scorr_inv_w, prm->pbf_scorr_n);
    return lambda[i] + lambda[j] + scorr;
}

/* The corrected positions (pbf_delta.comp, over-relaxed by pbf_omega), into
 * out: each particle's displacement from its binned position x0 (moved)
 * gains the correction, the position is x0 + displacement in fp32, the
 * walls and obstacles move it, and where they do the displacement becomes
 * the move made; virial gains the correction's virial (pbf_pressure). */
static void pbf_deltas(const vf_sph_params *prm, uint32_t n, const bool *near, const double (*x0)[3],
                       const double (*x)[3], const double *lambda, double (*moved)[3], double *virial,
                       double (*out)[3])
{
    for (uint32_t i = 0; i < n; i++) {
        double dx[3], vir;
        pbf_grad_sum(prm, n, near, x, i, delta_coef, lambda, dx, &vir);
        virial[i] += vir;
        float xf[3], xc[3], unused[3] = {0, 0, 0};
        for (int k = 0; k < 3; k++) {
            moved[i][k] += prm->pbf_omega * prm->volume * dx[k];
            xf[k] = xc[k] = (float)(x0[i][k] + moved[i][k]);
        }
        collide_margin(prm, xc, unused, wall_margin(prm));
        bool hit = memcmp(xf, xc, sizeof xf) != 0;
        for (int k = 0; k < 3; k++) {
            if (hit)
                moved[i][k] = (double)xc[k] - x0[i][k];
            out[i][k] = xc[k];
        }
    }
}

/* The viscosity update of a step dt (pbf_xsph.comp, dfsph_predict.comp;
 * sph_common.glsl's sph_visc_gain): from S = sum_j m / rho_j lap W (v_j -
 * v_i) and D = sum_j m / rho_j lap W over the others (the viscosity
 * kernel's Laplacian, vf_sph_ref_visc_lap), dt mu / rho_i S, or S / D
 * where dt mu D / rho_i exceeds 1. */
static void visc_update(const vf_sph_params *prm, double dt, double rho_i, const double S[3], double D, double out[3])
{
    double g = dt * prm->viscosity / rho_i;
    double f = g * D > 1 ? 1 / D : g;
    for (int k = 0; k < 3; k++)
        out[k] = f * S[k];
}

/* A pair's (or image's) terms of visc_update's S and D at offset r, with
 * velocity difference v_j - v_i (dvji) and density rho_j. */
static void visc_pair(const vf_sph_params *prm, double r, const double dvji[3], double rho_j, double S[3], double *D)
{
    if (!(r > 1e-6 * prm->h) || !(r < prm->h))
        return;
    double c = prm->mass / rho_j * vf_sph_ref_visc_lap(r, prm->h);
    for (int k = 0; k < 3; k++)
        S[k] += c * dvji[k];
    *D += c;
}

/* XSPH, the viscosity update (visc_update of a step dt) and the vorticity
 * (pbf_xsph.comp): dv, vv and omega of every particle. */
static void pbf_xsph(const vf_sph_params *prm, double dt, uint32_t n, const bool *near, const double (*x)[3],
                     const double (*v)[3], const double *rho, double (*dv)[3], double (*vv)[3], double (*w)[3])
{
    double h = prm->h, h2 = h * h, rmin2 = 1e-12 * h2;
    for (uint32_t i = 0; i < n; i++) {
        double a[3] = {0, 0, 0}, o[3] = {0, 0, 0}, S[3] = {0, 0, 0}, D = 0;
        for (uint32_t j = 0; j < n; j++) {
            if (dist2(x[i], x[j]) >= h2)
                continue;
            double pts[9][3], vs[9][3];
            int m = pair_points(prm, n, near, x, v, i, j, pts, vs);
            for (int t = 0; t < m; t++) {
                double d[3] = {x[i][0] - pts[t][0], x[i][1] - pts[t][1], x[i][2] - pts[t][2]};
                double q2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
                if (q2 >= h2)
                    continue;
                double vol = prm->mass / rho[j], wk = vol * prm->poly6 * pbf_shape(prm, q2);
                double dvij[3] = {v[i][0] - vs[t][0], v[i][1] - vs[t][1], v[i][2] - vs[t][2]};
                for (int k = 0; k < 3; k++)
                    a[k] -= wk * dvij[k];
                double dvji[3] = {-dvij[0], -dvij[1], -dvij[2]};
                visc_pair(prm, sqrt(q2), dvji, rho[j], S, &D);
                if (q2 > rmin2) {
                    double g[3];
                    pbf_grad(prm, d, sqrt(q2), g);
                    o[0] += vol * (dvij[1] * g[2] - dvij[2] * g[1]);
                    o[1] += vol * (dvij[2] * g[0] - dvij[0] * g[2]);
                    o[2] += vol * (dvij[0] * g[1] - dvij[1] * g[0]);
                }
            }
        }
        memcpy(dv[i], a, sizeof a);
        memcpy(w[i], o, sizeof o);
        visc_update(prm, dt, rho[i], S, D, vv[i]);
    }
}

/* pbf_confine.comp's weight of a pair: V (|omega_j| - |omega_i|). */
static double eta_coef(const vf_sph_params *prm, const double *wlen, uint32_t i, uint32_t j, double q2)
{
    (void)q2;
    return prm->volume * (wlen[j] - wlen[i]);
}

/* The confinement's eta = grad |omega| (pbf_confine.comp). */
static void pbf_eta(const vf_sph_params *prm, uint32_t n, const bool *near, const double (*x)[3], const double *wlen,
                    double (*eta)[3])
{
    for (uint32_t i = 0; i < n; i++)
        pbf_grad_sum(prm, n, near, x, i, eta_coef, wlen, eta[i], NULL);
}

vf_result vf_sph_ref_pbf_substep(const vf_sph_params *prm, const vf_pbf_push *push, uint32_t iterations, float dt,
                                 uint32_t n, float (*pos)[4], float (*vel)[4], double *rho_out, double *pressure_out)
{
    vf_sph_ref_pbf_predict(prm, push, dt, n, pos, vel);
    double(*x0)[3] = malloc(24ull * n), (*x)[3] = malloc(24ull * n), (*xn)[3] = malloc(24ull * n);
    double(*v)[3] = malloc(24ull * n), (*dv)[3] = malloc(24ull * n), (*w)[3] = malloc(24ull * n);
    double(*vv)[3] = malloc(24ull * n), (*moved)[3] = calloc(n, 24);
    double *rho = malloc(8ull * n), *lambda = malloc(8ull * n), *virial = calloc(n, 8), *wlen = calloc(n, 8);
    bool *near = NULL;
    vf_result r = VF_ERR_NO_MEMORY;
    if (!x0 || !x || !xn || !v || !dv || !vv || !moved || !w || !rho || !lambda || !virial || !wlen)
        goto done;
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            x0[i][k] = x[i][k] = pos[i][k];
    if (!(near = pbf_pairs(prm, n, (const double (*)[3])x0)))
        goto done;
    for (uint32_t it = 0; it < iterations; it++) {
        pbf_lambdas(prm, n, near, (const double (*)[3])x, rho, lambda);
        pbf_deltas(prm, n, near, (const double (*)[3])x0, (const double (*)[3])x, lambda, moved, virial, xn);
        memcpy(x, xn, 24ull * n);
    }
    for (uint32_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            v[i][k] = vel[i][k] + moved[i][k] / dt;
    if (prm->xsph > 0 || prm->viscosity > 0 || prm->vorticity > 0) {
        pbf_xsph(prm, dt, n, near, (const double (*)[3])x, (const double (*)[3])v, rho, dv, vv, w);
        for (uint32_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++)
                v[i][k] += fmin((double)prm->xsph * dt, 1.0) * dv[i][k] + vv[i][k];
            wlen[i] = sqrt(w[i][0] * w[i][0] + w[i][1] * w[i][1] + w[i][2] * w[i][2]);
        }
    }
    if (prm->vorticity > 0) {
        pbf_eta(prm, n, near, (const double (*)[3])x, wlen, dv);
        for (uint32_t i = 0; i < n; i++) {
            double *e = dv[i], len = sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
            if (!(len > 1e-20))
                continue;
            double f = dt * prm->vorticity / len;
            v[i][0] += f * (e[1] * w[i][2] - e[2] * w[i][1]);
            v[i][1] += f * (e[2] * w[i][0] - e[0] * w[i][2]);
            v[i][2] += f * (e[0] * w[i][1] - e[1] * w[i][0]);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            pos[i][k] = (float)x[i][k];
            vel[i][k] = (float)v[i][k];
        }
        if (rho_out)
            rho_out[i] = rho[i];
        if (pressure_out) /* pbf_pressure */
            pressure_out[i] = (double)prm->rho0 * prm->pbf_omega * prm->volume * virial[i] / (6.0 * (double)dt * dt);
    }
    r = VF_OK;
done:
    free(x0);
    free(x);
    free(xn);
    free(v);
    free(dv);
    free(vv);
    free(moved);
    free(w);
    free(rho);
    free(lambda);
    free(virial);
    free(wlen);
    free(near);
    return r;
}

/* ------------------------------------------------------------------ DFSPH */

/* The pairs of particle i (within h) with, for each, the point and the
 * velocity reflection of each of its images: a small list the passes walk
 * (pairs[k] = j, images of j at img[k][..]). */
typedef struct dfsph_pair {
    uint32_t j;
    int images;
    double img[8][3];   /* image positions */
    double refl[8][3][3]; /* the reflection of each image (columns: R e_k) */
} dfsph_pair;

static void ref_reflection_matrix(const vf_sph_params *prm, const double x[3], const double p[3], int t,
                                  double R[3][3])
{
    for (int k = 0; k < 3; k++) {
        double e[3] = {0, 0, 0}, r[8][3];
        e[k] = 1;
        ref_reflections(prm, x, p, e, r);
        for (int a = 0; a < 3; a++)
            R[a][k] = r[t][a];
    }
}

static void mat_vec(const double R[3][3], const double v[3], double out[3])
{
    for (int a = 0; a < 3; a++)
        out[a] = R[a][0] * v[0] + R[a][1] * v[1] + R[a][2] * v[2];
}

static void mat_t_vec(const double R[3][3], const double v[3], double out[3])
{
    for (int a = 0; a < 3; a++)
        out[a] = R[0][a] * v[0] + R[1][a] * v[1] + R[2][a] * v[2];
}

static dfsph_pair *dfsph_pairs(const vf_sph_params *prm, uint32_t n, const double (*x)[3], uint32_t **first)
{
    double h2 = (double)prm->h * prm->h;
    uint32_t count = 0, cap = 64 * n + 16;
    dfsph_pair *p = malloc(sizeof *p * cap);
    *first = malloc(4ull * (n + 1));
    if (!p || !*first) {
        free(p);
        free(*first);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        (*first)[i] = count;
        for (uint32_t j = 0; j < n; j++) {
            if (dist2(x[i], x[j]) >= h2)
                continue;
            if (count == cap) {
                cap *= 2;
                dfsph_pair *q = realloc(p, sizeof *p * cap);
                if (!q) {
                    free(p);
                    free(*first);
                    return NULL;
                }
                p = q;
            }
            dfsph_pair *e = &p[count++];
            e->j = j;
            e->images = vf_sph_ref_images(prm, x[i], x[j], NULL, e->img, NULL);
            for (int t = 0; t < e->images; t++)
                ref_reflection_matrix(prm, x[i], x[j], t, e->refl[t]);
        }
    }
    (*first)[n] = count;
    return p;
}

/* dfsph's kernel (dfsph_common.glsl): the Wendland C2 shape
 * (1 - q)^4 (1 + 4 q) at r^2 < h^2, its gradient -dfsph_grad (1 - q)^3 d at
 * offset d (0 beyond h and at d = 0), and m times that. */
static double dfsph_shape(const vf_sph_params *prm, double r2)
{
    double q = sqrt(r2) / prm->h, t = 1 - q;
    return t * t * t * t * (1 + 4 * q);
}

void vf_sph_ref_dfsph_grad(const vf_sph_params *prm, const double d[3], double out[3])
{
    double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2], h2 = (double)prm->h * prm->h;
    out[0] = out[1] = out[2] = 0;
    if (!(r2 < h2) || !(r2 > 1e-12 * h2))
        return;
    double omq = 1 - sqrt(r2) / prm->h, f = -(double)prm->dfsph_grad * omq * omq * omq;
    for (int k = 0; k < 3; k++)
        out[k] = f * d[k];
}

static void dfsph_mgrad(const vf_sph_params *prm, const double d[3], double out[3])
{
    vf_sph_ref_dfsph_grad(prm, d, out);
    for (int k = 0; k < 3; k++)
        out[k] *= prm->mass;
}

/* The image's velocity for the viscosity (no-slip reverses it, free-slip
 * reflects it) and for the density (always reflected). */
static void dfsph_image_velocity(const vf_sph_params *prm, const double R[3][3], const double v[3], bool viscous,
                                 double out[3])
{
    if (viscous && prm->noslip) {
        for (int k = 0; k < 3; k++)
            out[k] = -v[k];
        return;
    }
    mat_vec(R, v, out);
}

/* sum over i's pairs and images of m (a_i + a_j) grad W (the pressure
 * terms of dfsph_div_update, dfsph_press_update and the warm starts). */
static void dfsph_pressure_sum(const vf_sph_params *prm, const dfsph_pair *pr, const uint32_t *first, uint32_t i,
                               const double (*x)[3], const double *a, double out[3])
{
    out[0] = out[1] = out[2] = 0;
    for (uint32_t k = first[i]; k < first[i + 1]; k++) {
        const dfsph_pair *e = &pr[k];
        double g[3], d[3] = {x[i][0] - x[e->j][0], x[i][1] - x[e->j][1], x[i][2] - x[e->j][2]};
        dfsph_mgrad(prm, d, g);
        for (int c = 0; c < 3; c++)
            out[c] += (a[i] + a[e->j]) * g[c];
        for (int t = 0; t < e->images; t++) {
            double di[3] = {x[i][0] - e->img[t][0], x[i][1] - e->img[t][1], x[i][2] - e->img[t][2]};
            dfsph_mgrad(prm, di, g);
            for (int c = 0; c < 3; c++)
                out[c] += (a[i] + a[e->j]) * g[c];
        }
    }
}

/* sum over i's pairs and images of m (v_i - v_j) . grad W (velocities of
 * images reflected). */
static double dfsph_divergence(const vf_sph_params *prm, const dfsph_pair *pr, const uint32_t *first, uint32_t i,
                               const double (*x)[3], const double (*v)[3])
{
    double sum = 0;
    for (uint32_t k = first[i]; k < first[i + 1]; k++) {
        const dfsph_pair *e = &pr[k];
        double g[3], d[3] = {x[i][0] - x[e->j][0], x[i][1] - x[e->j][1], x[i][2] - x[e->j][2]};
        dfsph_mgrad(prm, d, g);
        for (int c = 0; c < 3; c++)
            sum += (v[i][c] - v[e->j][c]) * g[c];
        for (int t = 0; t < e->images; t++) {
            double di[3] = {x[i][0] - e->img[t][0], x[i][1] - e->img[t][1], x[i][2] - e->img[t][2]}, vi[3];
            dfsph_mgrad(prm, di, g);
            dfsph_image_velocity(prm, e->refl[t], v[e->j], false, vi);
            for (int c = 0; c < 3; c++)
                sum += (v[i][c] - vi[c]) * g[c];
        }
    }
    return sum;
}

/* The density and the factor alpha of every particle (dfsph_density.comp). */
static void dfsph_density_alpha(const vf_sph_params *prm, const dfsph_pair *pr, const uint32_t *first, uint32_t n,
                                const double (*x)[3], double *rho, double *alpha)
{
    for (uint32_t i = 0; i < n; i++) {
        double w = 0, G[3] = {0, 0, 0}, own[3] = {0, 0, 0}, sq = 0, h2 = (double)prm->h * prm->h;
        for (uint32_t q = first[i]; q < first[i + 1]; q++) {
            const dfsph_pair *e = &pr[q];
            double c[3] = {0, 0, 0}, g[3];
            double d[3] = {x[i][0] - x[e->j][0], x[i][1] - x[e->j][1], x[i][2] - x[e->j][2]};
            w += dfsph_shape(prm, dist2(x[i], x[e->j]));
            dfsph_mgrad(prm, d, g);
            for (int t = 0; t < 3; t++) {
                G[t] += g[t];
                c[t] += g[t];
            }
            for (int t = 0; t < e->images; t++) {
                double di[3] = {x[i][0] - e->img[t][0], x[i][1] - e->img[t][1], x[i][2] - e->img[t][2]}, rg[3];
                double r2 = di[0] * di[0] + di[1] * di[1] + di[2] * di[2];
                if (r2 < h2)
                    w += dfsph_shape(prm, r2);
                dfsph_mgrad(prm, di, g);
                mat_t_vec(e->refl[t], g, rg);
                for (int u = 0; u < 3; u++) {
                    G[u] += g[u];
                    c[u] += rg[u];
                }
            }
            if (e->j == i)
                for (int u = 0; u < 3; u++)
                    own[u] += c[u];
            else
                sq += c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        }
        rho[i] = prm->mass * prm->dfsph_w * w;
        double ad[3] = {G[0] - own[0], G[1] - own[1], G[2] - own[2]};
        double denom = ad[0] * ad[0] + ad[1] * ad[1] + ad[2] * ad[2] + sq;
        double scale = (double)prm->mass * prm->dfsph_grad * prm->h;
        alpha[i] = denom > 1e-6 * scale * scale ? rho[i] / denom : 0;
    }
}

/* The velocity changes of the non-pressure forces and the density solve's
 * warm start (dfsph_predict.comp): dt (external forces), XSPH, the viscosity
 * (visc_update), -dt sum m (a_i + a_j) grad W. */
static void dfsph_nonpressure(const vf_sph_params *prm, const vf_dfsph_push *push, double dt, const dfsph_pair *pr,
                              const uint32_t *first, uint32_t n, const double (*x)[3], const double (*v)[3],
                              const double *rho, const double *a, double (*dv)[3])
{
    for (uint32_t i = 0; i < n; i++) {
        double xs[3] = {0, 0, 0}, s[3], h2 = (double)prm->h * prm->h, S[3] = {0, 0, 0}, D = 0, vv[3];
        for (uint32_t q = first[i]; q < first[i + 1]; q++) {
            const dfsph_pair *e = &pr[q];
            double pts[9][3], vs[9][3];
            memcpy(pts[0], x[e->j], sizeof pts[0]);
            memcpy(vs[0], v[e->j], sizeof vs[0]);
            for (int t = 0; t < e->images; t++) {
                memcpy(pts[t + 1], e->img[t], sizeof pts[0]);
                dfsph_image_velocity(prm, e->refl[t], v[e->j], true, vs[t + 1]);
            }
            for (int t = 0; t <= e->images; t++) {
                double r2 = dist2(x[i], pts[t]);
                if (!(r2 < h2))
                    continue;
                double wk = prm->mass / rho[e->j] * prm->poly6 * pbf_shape(prm, r2);
                double dvji[3] = {vs[t][0] - v[i][0], vs[t][1] - v[i][1], vs[t][2] - v[i][2]};
                for (int c = 0; c < 3; c++)
                    xs[c] += wk * dvji[c];
                visc_pair(prm, sqrt(r2), dvji, rho[e->j], S, &D);
            }
        }
        visc_update(prm, dt, rho[i], S, D, vv);
        dfsph_pressure_sum(prm, pr, first, i, x, a, s);
        float xf[3] = {(float)x[i][0], (float)x[i][1], (float)x[i][2]}, vf[3] = {(float)v[i][0], (float)v[i][1],
                                                                             (float)v[i][2]},
              ext[3];
        vf_pbf_push pp = {.strength = push ? push->strength : 0};
        if (push)
            memcpy(pp.interact, push->interact, sizeof pp.interact);
        pbf_external(prm, &pp, xf, vf, ext);
        for (int c = 0; c < 3; c++)
            dv[i][c] = dt * ext[c] + fmin((double)prm->xsph * dt, 1.0) * xs[c] + vv[c] - dt * s[c];
    }
}

vf_result vf_sph_ref_dfsph_substep(const vf_sph_params *prm, const vf_dfsph_push *push, double dt, uint32_t n,
                                   float (*pos)[4], float (*vel)[4], float (*warm)[2], double *rho_out,
                                   uint32_t iterations[2])
{
    double(*x)[3] = malloc(24ull * n), (*v)[3] = malloc(24ull * n), (*dv)[3] = malloc(24ull * n);
    double *rho = malloc(8ull * n), *alpha = malloc(8ull * n), *a = malloc(8ull * n), *k = malloc(8ull * n);
    double *wx = malloc(8ull * n), *wy = malloc(8ull * n);
    uint32_t *first = NULL;
    dfsph_pair *pr = NULL;
    vf_result res = VF_ERR_NO_MEMORY;
    if (!x || !v || !dv || !rho || !alpha || !a || !k || !wx || !wy)
        goto done;
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++) {
            x[i][c] = pos[i][c];
            v[i][c] = vel[i][c];
        }
    if (!(pr = dfsph_pairs(prm, n, (const double (*)[3])x, &first)))
        goto done;
    /* density, alpha, the divergence warm start (rho0 for the densities) */
    for (uint32_t i = 0; i < n; i++) {
        wy[i] = VF_DFSPH_WARM * warm[i][1];
        wx[i] = VF_DFSPH_WARM * warm[i][0];
    }
    dfsph_density_alpha(prm, pr, first, n, (const double (*)[3])x, rho, alpha);
    for (uint32_t i = 0; i < n; i++)
        a[i] = wy[i];
    for (uint32_t i = 0; i < n; i++) {
        double s[3];
        dfsph_pressure_sum(prm, pr, first, i, (const double (*)[3])x, a, s);
        for (int c = 0; c < 3; c++)
            dv[i][c] = -s[c] / prm->rho0;
    }
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            v[i][c] += dv[i][c];
    /* the divergence solve */
    iterations[0] = iterations[1] = 0;
    for (uint32_t l = 0; l < prm->dfsph_max_iterations; l++) {
        double err = 0;
        for (uint32_t i = 0; i < n; i++) {
            double div = dfsph_divergence(prm, pr, first, i, (const double (*)[3])x, (const double (*)[3])v);
            div = rho[i] >= 0.95 * prm->rho0 ? fmax(div, 0) : 0;
            k[i] = div * alpha[i];
            err += div * dt / prm->rho0;
        }
        err = n ? err / n : 0;
        if (l >= 1 && err <= prm->dfsph_eta_v)
            break;
        for (uint32_t i = 0; i < n; i++)
            a[i] = k[i] / rho[i];
        for (uint32_t i = 0; i < n; i++) {
            double s[3];
            dfsph_pressure_sum(prm, pr, first, i, (const double (*)[3])x, a, s);
            for (int c = 0; c < 3; c++)
                dv[i][c] = -s[c];
        }
        for (uint32_t i = 0; i < n; i++) {
            for (int c = 0; c < 3; c++)
                v[i][c] += dv[i][c];
            wy[i] += k[i];
        }
        iterations[0]++;
    }
    /* the non-pressure forces and the density solve's warm start */
    for (uint32_t i = 0; i < n; i++)
        a[i] = wx[i] / rho[i];
    dfsph_nonpressure(prm, push, dt, pr, first, n, (const double (*)[3])x, (const double (*)[3])v, rho, a, dv);
    for (uint32_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            v[i][c] += dv[i][c];
    /* the density solve */
    for (uint32_t l = 0; l < prm->dfsph_max_iterations; l++) {
        double err = 0;
        for (uint32_t i = 0; i < n; i++) {
            double div = dfsph_divergence(prm, pr, first, i, (const double (*)[3])x, (const double (*)[3])v);
            double excess = fmax(rho[i] + dt * div - prm->rho0, 0);
            k[i] = excess * alpha[i] / (dt * dt);
            err += excess / prm->rho0;
        }
        err = n ? err / n : 0;
        if (l >= 2 && err <= prm->dfsph_eta)
            break;
        for (uint32_t i = 0; i < n; i++)
            a[i] = k[i] / rho[i];
        for (uint32_t i = 0; i < n; i++) {
            double s[3];
            dfsph_pressure_sum(prm, pr, first, i, (const double (*)[3])x, a, s);
            for (int c = 0; c < 3; c++)
                dv[i][c] = -dt * s[c];
        }
        for (uint32_t i = 0; i < n; i++) {
            for (int c = 0; c < 3; c++)
                v[i][c] += dv[i][c];
            wx[i] += k[i];
        }
        iterations[1]++;
    }
    /* x += dt v, the walls */
    for (uint32_t i = 0; i < n; i++) {
        float xf[3], vf[3];
        for (int c = 0; c < 3; c++) {
            vf[c] = (float)v[i][c];
            xf[c] = (float)(x[i][c] + dt * vf[c]);
        }
        collide_margin(prm, xf, vf, wall_margin(prm));
        for (int c = 0; c < 3; c++) {
            pos[i][c] = xf[c];
            vel[i][c] = vf[c];
        }
        warm[i][0] = (float)wx[i];
        warm[i][1] = (float)wy[i];
        if (rho_out)
            rho_out[i] = rho[i];
    }
    res = VF_OK;
done:
    free(x);
    free(v);
    free(dv);
    free(rho);
    free(alpha);
    free(a);
    free(k);
    free(wx);
    free(wy);
    free(first);
    free(pr);
    return res;
}
