/* render_surface_ref: see render_surface_ref.h. */
#include "render_surface_ref.h"

#include <math.h>
#include <string.h>

#define RING VF_SURFACE_RING

static uint32_t cell(const vf_surface_frame *f, int i, int j)
{
    i = i < 0 ? 0 : i >= (int)f->nx ? (int)f->nx - 1 : i;
    j = j < 0 ? 0 : j >= (int)f->ny ? (int)f->ny - 1 : j;
    return (uint32_t)j * f->nx + (uint32_t)i;
}

static bool wet(const float *eta, const float *bed, const uint32_t *flags, uint32_t c)
{
    return !(flags[c] & VF_HEIGHT_SOLID) && eta[c] - bed[c] > 1e-4f;
}

/* Position of mesh vertex m along an axis of mm inner vertices over len
 * metres (surface_bed.vert's rings at -wall and len + wall). */
static double axis_pos(int m, int mm, double len, double wall)
{
    return m <= -2 ? -wall : m == -1 ? 0.0 : m == mm ? len : m > mm ? len + wall : (double)m / (mm - 1) * len;
}

static double bed_vertex(const vf_surface_frame *f, const float *bed, const uint32_t *flags, int mx_, int my_,
                         double *solid)
{
    double dx = f->grid[0], lx = f->nx * dx, ly = f->ny * dx, wall = 0.02 * fmax(lx, ly);
    double rim = f->misc[1], base = -1.15 * f->grid[3] - rim;
    int mx = (int)f->mesh_x, my = (int)f->mesh_y;
    double px = axis_pos(mx_, mx, lx, wall), py = axis_pos(my_, my, ly, wall);
    bool foot = mx_ == -3 || my_ == -3 || mx_ == mx + 2 || my_ == my + 2;
    bool edge = mx_ < 0 || my_ < 0 || mx_ >= mx || my_ >= my;
    *solid = 1.0;
    if (edge && f->misc[3] > 0.5f) {
        double cx = fmin(fmax(px, 0.0), lx) / dx, cy = fmin(fmax(py, 0.0), ly) / dx;
        bool outer = foot || mx_ <= -2 || my_ <= -2 || mx_ > mx || my_ > my;
        return outer ? rim : bed[cell(f, (int)cx, (int)cy)];
    }
    if (edge)
        return foot ? base : rim;
    int i1 = (int)floor(px / dx + 0.5), j1 = (int)floor(py / dx + 0.5);
    double sum = 0.0, top = -1e30;
    for (int k = 0; k < 4; k++) {
        uint32_t c = cell(f, k % 2 == 0 ? i1 - 1 : i1, k < 2 ? j1 - 1 : j1);
        sum += bed[c];
        if (flags[c] & VF_HEIGHT_SOLID)
            top = fmax(top, bed[c]);
    }
    *solid = top > -1e29 ? 1.0 : 0.0;
    return top > -1e29 ? top : 0.25 * sum;
}

void vf_surface_corners_ref(const vf_surface_frame *f, const float *eta, const float *bed, const uint32_t *flags,
                            vf_surface_corner *out)
{
    int vx = (int)f->mesh_x + 2 * RING, vy = (int)f->mesh_y + 2 * RING;
    double dx = f->grid[0], lx = f->nx * dx, ly = f->ny * dx;
    for (int y = 0; y < vy; y++)
        for (int x = 0; x < vx; x++) {
            int mx_ = x - RING, my_ = y - RING;
            vf_surface_corner *c = &out[y * vx + x];
            memset(c, 0, sizeof *c);
            double solid, b = bed_vertex(f, bed, flags, mx_, my_, &solid);
            c->water[0] = (float)b;
            c->normal[3] = (float)b;
            c->bed[0] = (float)solid;
            if (mx_ < 0 || my_ < 0 || mx_ >= (int)f->mesh_x || my_ >= (int)f->mesh_y)
                continue;
            double px = (double)mx_ / (f->mesh_x - 1) * lx, py = (double)my_ / (f->mesh_y - 1) * ly;
            int i1 = (int)floor(px / dx + 0.5), j1 = (int)floor(py / dx + 0.5);
            double se = 0, sd = 0, n = 0, allb = 0;
            for (int k = 0; k < 4; k++) {
                uint32_t ci = cell(f, k % 2 == 0 ? i1 - 1 : i1, k < 2 ? j1 - 1 : j1);
                allb += bed[ci];
                if (wet(eta, bed, flags, ci)) {
                    se += eta[ci];
                    sd += eta[ci] - bed[ci];
                    n += 1;
                }
            }
            c->water[0] = (float)(n > 0 ? se / n : 0.25 * allb);
            c->water[1] = (float)(n > 0 ? sd / n : 0.0);
            c->water[2] = (float)(n / 4);
        }
}

/* Moller-Trumbore in double: t and the weights of b and c, or false. */
static bool tri(const double ro[3], const double rd[3], const double a[3], const double b[3], const double c[3],
                double *t, double *u, double *v)
{
    double e1[3], e2[3], tv[3], pv[3], qv[3];
    for (int k = 0; k < 3; k++) {
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
        tv[k] = ro[k] - a[k];
    }
    pv[0] = rd[1] * e2[2] - rd[2] * e2[1];
    pv[1] = rd[2] * e2[0] - rd[0] * e2[2];
    pv[2] = rd[0] * e2[1] - rd[1] * e2[0];
    double det = e1[0] * pv[0] + e1[1] * pv[1] + e1[2] * pv[2];
    if (fabs(det) < 1e-18)
        return false;
    qv[0] = tv[1] * e1[2] - tv[2] * e1[1];
    qv[1] = tv[2] * e1[0] - tv[0] * e1[2];
    qv[2] = tv[0] * e1[1] - tv[1] * e1[0];
    *u = (tv[0] * pv[0] + tv[1] * pv[1] + tv[2] * pv[2]) / det;
    *v = (rd[0] * qv[0] + rd[1] * qv[1] + rd[2] * qv[2]) / det;
    *t = (e2[0] * qv[0] + e2[1] * qv[1] + e2[2] * qv[2]) / det;
    return *u >= 0 && *v >= 0 && *u + *v <= 1 && *t > 0;
}

uint32_t vf_surface_hit_ref(const vf_surface_frame *f, const vf_surface_corner *corners, const double ro[3],
                            const double rd[3], double *t_out)
{
    int mx = (int)f->mesh_x, my = (int)f->mesh_y, vx = mx + 2 * RING;
    double dx = f->grid[0], lx = f->nx * dx, ly = f->ny * dx, wall = 0.02 * fmax(lx, ly);
    double best = INFINITY;
    uint32_t kind = VF_SURFACE_HIT_NONE;
    /* every quad of the bed mesh (lower vertex -3 .. mesh), both triangles */
    for (int qy = -RING; qy < my + RING - 1; qy++)
        for (int qx = -RING; qx < mx + RING - 1; qx++) {
            const int ox[4] = {0, 1, 1, 0}, oy[4] = {0, 0, 1, 1};
            double pb[4][3], pw[4][3];
            const vf_surface_corner *c[4];
            for (int k = 0; k < 4; k++) {
                c[k] = &corners[(qy + oy[k] + RING) * vx + qx + ox[k] + RING];
                double x = axis_pos(qx + ox[k], mx, lx, wall), z = axis_pos(qy + oy[k], my, ly, wall);
                pb[k][0] = pw[k][0] = x;
                pb[k][2] = pw[k][2] = z;
                pb[k][1] = c[k]->normal[3];
                pw[k][1] = c[k]->water[0];
            }
            bool inner = qx >= 0 && qy >= 0 && qx < mx - 1 && qy < my - 1;
            for (int tr = 0; tr < 2; tr++) {
                int i1 = tr == 0 ? 1 : 2, i2 = tr == 0 ? 2 : 3;
                double t, u, v;
                if (tri(ro, rd, pb[0], pb[i1], pb[i2], &t, &u, &v) && t < best) {
                    best = t;
                    kind = VF_SURFACE_HIT_BED;
                }
                if (!inner || !tri(ro, rd, pw[0], pw[i1], pw[i2], &t, &u, &v) || t >= best)
                    continue;
                double w0 = 1 - u - v;
                double wetf = w0 * c[0]->water[2] + u * c[i1]->water[2] + v * c[i2]->water[2];
                double depth = w0 * c[0]->water[1] + u * c[i1]->water[1] + v * c[i2]->water[1];
                if (wetf >= 0.5 && depth >= 1e-3) {
                    best = t;
                    kind = VF_SURFACE_HIT_WATER;
                }
            }
        }
    *t_out = kind == VF_SURFACE_HIT_NONE ? -1.0 : best;
    return kind;
}
