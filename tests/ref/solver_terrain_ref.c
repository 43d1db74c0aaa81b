/* solver_terrain_ref: CPU references of the terrain kernels (see
 * solver_terrain_ref.h). */
#include "solver_terrain_ref.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static float maxf(float a, float b) { return a > b ? a : b; }
static float minf(float a, float b) { return a < b ? a : b; }

void vf_terrain_ref_hll(float g, float ha, float ba, float una, float uta, float hb, float bb, float unb, float utb,
                        float out[4])
{
    float db = bb - ba;
    float sa = maxf(0.0f, ha - maxf(0.0f, db)), sb = maxf(0.0f, hb - maxf(0.0f, -db));
    float fh = 0.0f, fn = 0.0f;
    if (sa > 0.0f || sb > 0.0f) {
        float ca = sqrtf(g * sa), cb = sqrtf(g * sb);
        float sl = sa > 0.0f ? (sb > 0.0f ? minf(una - ca, unb - cb) : una - ca) : unb - 2.0f * cb;
        float sr = sb > 0.0f ? (sa > 0.0f ? maxf(una + ca, unb + cb) : unb + cb) : una + 2.0f * ca;
        float qa = sa * una, qb = sb * unb;
        float fa = qa * una + 0.5f * g * sa * sa, fb = qb * unb + 0.5f * g * sb * sb;
        if (sl >= 0.0f) {
            fh = qa;
            fn = fa;
        } else if (sr <= 0.0f) {
            fh = qb;
            fn = fb;
        } else {
            float inv = 1.0f / (sr - sl);
            fh = (sr * qa - sl * qb + sl * sr * (sb - sa)) * inv;
            fn = (sr * fa - sl * fb + sl * sr * (qb - qa)) * inv;
        }
    }
    float ft = fh > 0.0f ? fh * uta : fh * utb;
    float pa = 0.5f * g * (ha - sa) * (ha + sa), pb = 0.5f * g * (hb - sb) * (hb + sb);
    out[0] = fh;
    out[1] = fn + pa;
    out[2] = fn + pb;
    out[3] = ft;
}

uint32_t vf_terrain_ref_face_quanta(float flux, float quanta, float limit)
{
    float q = minf(fabsf(flux) * quanta, 1.0e9f);
    if (limit < 1.0f)
        q = floorf(q) * (limit * (1.0f - 1.0f / 1048576.0f));
    return (uint32_t)q;
}

/* velocity of a cell (terrain_velocity) */
static void velocity(float h, const float *m, float dry, float v[2])
{
    v[0] = h > dry ? m[0] / h : 0.0f;
    v[1] = h > dry ? m[1] / h : 0.0f;
}

void vf_terrain_ref_flux(const vf_terrain_step_push *p, const float *bed, const uint32_t *depth, const float *mom,
                         float *face_x, float *face_y)
{
    const float q = (float)VF_TERRAIN_QUANTUM;
    const uint32_t nx = p->nx, ny = p->ny;
    for (uint32_t j = 0; j <= ny; j++)
        for (uint32_t i = 0; i <= nx; i++) {
            if (j < ny) {
                uint32_t a = j * nx + (i > 0 ? i - 1 : 0), b = j * nx + (i < nx - 1 ? i : nx - 1);
                float ha = (float)depth[a] * q, hb = (float)depth[b] * q, va[2], vb[2];
                velocity(ha, &mom[2 * a], p->dry, va);
                velocity(hb, &mom[2 * b], p->dry, vb);
                if (i == 0) {
                    va[0] = -vb[0];
                    va[1] = vb[1];
                } else if (i == nx) {
                    vb[0] = -va[0];
                    vb[1] = va[1];
                }
                float *f = &face_x[4 * ((size_t)j * (nx + 1) + i)];
                vf_terrain_ref_hll(p->g, ha, bed[a], va[0], va[1], hb, bed[b], vb[0], vb[1], f);
                if (i == 0 || i == nx)
                    f[0] = f[3] = 0.0f;
            }
            if (i < nx) {
                uint32_t a = (j > 0 ? j - 1 : 0) * nx + i, b = (j < ny - 1 ? j : ny - 1) * nx + i;
                float ha = (float)depth[a] * q, hb = (float)depth[b] * q, va[2], vb[2];
                velocity(ha, &mom[2 * a], p->dry, va);
                velocity(hb, &mom[2 * b], p->dry, vb);
                if (j == 0) {
                    va[0] = vb[0];
                    va[1] = -vb[1];
                } else if (j == ny) {
                    vb[0] = va[0];
                    vb[1] = -va[1];
                }
                float *f = &face_y[4 * ((size_t)j * nx + i)];
                vf_terrain_ref_hll(p->g, ha, bed[a], va[1], va[0], hb, bed[b], vb[1], vb[0], f);
                if (j == 0 || j == ny)
                    f[0] = f[3] = 0.0f;
            }
        }
}

void vf_terrain_ref_limit(const vf_terrain_step_push *p, const uint32_t *depth, const float *face_x, const float *face_y,
                          float *limit)
{
    const uint32_t nx = p->nx, wx = nx + 1;
    for (uint32_t j = 0; j < p->ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            float left = face_x[4 * (j * wx + i)], right = face_x[4 * (j * wx + i + 1)];
            float below = face_y[4 * (j * nx + i)], above = face_y[4 * ((j + 1) * nx + i)];
            uint32_t sent = (left < 0.0f ? vf_terrain_ref_face_quanta(left, p->quanta, 1.0f) : 0u) +
                            (right > 0.0f ? vf_terrain_ref_face_quanta(right, p->quanta, 1.0f) : 0u) +
                            (below < 0.0f ? vf_terrain_ref_face_quanta(below, p->quanta, 1.0f) : 0u) +
                            (above > 0.0f ? vf_terrain_ref_face_quanta(above, p->quanta, 1.0f) : 0u);
            uint32_t held = depth[j * nx + i];
            limit[j * nx + i] = sent > held ? (float)held / (float)sent : 1.0f;
        }
}

/* One face of the update: out (the cell sends) when send, else in. */
static void face_move(float flux, bool send, float quanta, float own, float other, uint32_t *out_q, uint32_t *in_q)
{
    uint32_t k = vf_terrain_ref_face_quanta(flux, quanta, send ? own : other);
    if (send)
        *out_q += k;
    else
        *in_q += k;
}

void vf_terrain_ref_update(const vf_terrain_step_push *p, const vf_terrain_tools *tools, const float *bed,
                           uint32_t *depth, float *mom, const float *face_x, const float *face_y, const float *limit,
                           float *eta, vf_terrain_stats *stats)
{
    const uint32_t nx = p->nx, ny = p->ny, wx = nx + 1;
    float cfl_max;
    memcpy(&cfl_max, &stats->cfl_bits, sizeof cfl_max);
    uint64_t drained = ((uint64_t)stats->drained_hi << 32) | stats->drained_lo;
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++) {
            uint32_t c = j * nx + i;
            const float *fl = &face_x[4 * (j * wx + i)], *fr = &face_x[4 * (j * wx + i + 1)];
            const float *fb = &face_y[4 * (j * nx + i)], *ft = &face_y[4 * ((j + 1) * nx + i)];
            float own = limit[c];
            uint32_t out_q = 0, in_q = 0;
            face_move(fl[0], fl[0] < 0.0f, p->quanta, own, limit[c - (i > 0 ? 1 : 0)], &out_q, &in_q);
            face_move(fr[0], fr[0] > 0.0f, p->quanta, own, limit[c + (i + 1 < nx ? 1 : 0)], &out_q, &in_q);
            face_move(fb[0], fb[0] < 0.0f, p->quanta, own, limit[c - (j > 0 ? nx : 0)], &out_q, &in_q);
            face_move(ft[0], ft[0] > 0.0f, p->quanta, own, limit[c + (j + 1 < ny ? nx : 0)], &out_q, &in_q);
            uint32_t d = depth[c] - out_q + in_q + p->rain;
            for (uint32_t s = 0; s < p->sources; s++)
                if (vf_terrain_in_disc((int)i, (int)j, tools->sources[s].ci, tools->sources[s].cj, tools->sources[s].r2))
                    d += p->source_q[s];
            for (uint32_t s = 0; s < p->drains; s++)
                if (vf_terrain_in_disc((int)i, (int)j, tools->drains[s].ci, tools->drains[s].cj, tools->drains[s].r2)) {
                    uint32_t take = d < p->drain_q[s] ? d : p->drain_q[s];
                    d -= take;
                    drained += take;
                }
            float r = p->dt / p->dx;
            float m[2] = {mom[2 * c], mom[2 * c + 1]};
            m[0] -= r * ((fr[1] - fl[2]) + (ft[3] - fb[3]));
            m[1] -= r * ((fr[3] - fl[3]) + (ft[1] - fb[2]));
            float h = (float)d * (float)VF_TERRAIN_QUANTUM;
            if (h <= p->dry) {
                m[0] = m[1] = 0.0f;
            } else {
                float speed = sqrtf(m[0] * m[0] + m[1] * m[1]) / h;
                if (p->friction > 0.0f) {
                    float k = 1.0f + p->dt * p->friction * speed / powf(h, 4.0f / 3.0f);
                    m[0] /= k;
                    m[1] /= k;
                }
                speed = sqrtf(m[0] * m[0] + m[1] * m[1]) / h;
                float c0 = sqrtf(p->g * h), most = maxf(p->speed_cap - c0, 0.0f);
                if (speed > most) {
                    m[0] *= most / speed;
                    m[1] *= most / speed;
                    stats->capped++;
                    speed = most;
                }
                cfl_max = maxf(cfl_max, (speed + c0) * r);
            }
            depth[c] = d;
            mom[2 * c] = m[0];
            mom[2 * c + 1] = m[1];
            eta[c] = bed[c] + h;
        }
    memcpy(&stats->cfl_bits, &cfl_max, sizeof cfl_max);
    stats->drained_lo = (uint32_t)drained;
    stats->drained_hi = (uint32_t)(drained >> 32);
}

void vf_terrain_ref_edit(const vf_terrain_edit_push *p, float *bed, vf_height_object *objects)
{
    for (uint32_t j = 0; j < p->ny; j++)
        for (uint32_t i = 0; i < p->nx; i++) {
            uint32_t c = j * p->nx + i;
            float x = ((float)i + 0.5f) * p->dx, y = ((float)j + 0.5f) * p->dx;
            float b = bed[c];
            if (p->flags & VF_TERRAIN_EDIT_BLADE) {
                float rx = x - p->blade_x, ry = y - p->blade_y;
                float along = rx * p->blade_cos + ry * p->blade_sin, across = ry * p->blade_cos - rx * p->blade_sin;
                if (fabsf(along) <= p->blade_half_len && fabsf(across) <= p->blade_half_width)
                    b = minf(b, p->blade_level);
            }
            if (p->flags & VF_TERRAIN_EDIT_BRUSH) {
                float rx = x - p->brush_x, ry = y - p->brush_y;
                float s = 1.0f - (rx * rx + ry * ry) / (p->brush_radius * p->brush_radius);
                if (s > 0.0f)
                    b += p->brush_delta * s * s;
            }
            bed[c] = b;
        }
    if (p->flags & VF_TERRAIN_EDIT_DOZER) {
        /* the blade's cell's invocation, on its edited ground */
        uint32_t bi = (uint32_t)maxf(p->blade_x / p->dx, 0.0f), bj = (uint32_t)maxf(p->blade_y / p->dx, 0.0f);
        bi = bi < p->nx - 1 ? bi : p->nx - 1;
        bj = bj < p->ny - 1 ? bj : p->ny - 1;
        objects[0] = (vf_height_object){.x = p->blade_x, .y = p->blade_y, .z = maxf(bed[bj * p->nx + bi], p->blade_level),
                                        .heading = atan2f(p->blade_sin, p->blade_cos), .size = p->dozer_size,
                                        .kind = VF_HEIGHT_OBJ_DOZER};
    }
}

static float slip(const vf_terrain_slip_push *p, float b, float bn)
{
    float d = bn - b;
    float excess = fabsf(d) - p->talus;
    return excess > 0.0f ? (d > 0.0f ? 1.0f : -1.0f) * (p->rate * 0.5f * excess) : 0.0f;
}

void vf_terrain_ref_slip(const vf_terrain_slip_push *p, const float *bed, float *bed_out)
{
    for (uint32_t j = 0; j < p->ny; j++)
        for (uint32_t i = 0; i < p->nx; i++) {
            uint32_t c = j * p->nx + i;
            float b = bed[c], s = 0.0f;
            if (i > 0)
                s += slip(p, b, bed[c - 1]);
            if (i + 1 < p->nx)
                s += slip(p, b, bed[c + 1]);
            if (j > 0)
                s += slip(p, b, bed[c - p->nx]);
            if (j + 1 < p->ny)
                s += slip(p, b, bed[c + p->nx]);
            bed_out[c] = b + s;
        }
}

void vf_terrain_ref_step(const vf_terrain_step_push *p, const vf_terrain_tools *tools, const float *bed,
                         uint32_t *depth, float *mom, float *eta, vf_terrain_stats *stats)
{
    size_t n = (size_t)p->nx * p->ny;
    float *fx = malloc((size_t)(p->nx + 1) * p->ny * 16), *fy = malloc((size_t)p->nx * (p->ny + 1) * 16);
    float *limit = malloc(n * 4);
    if (fx && fy && limit) {
        vf_terrain_ref_flux(p, bed, depth, mom, fx, fy);
        vf_terrain_ref_limit(p, depth, fx, fy, limit);
        vf_terrain_ref_update(p, tools, bed, depth, mom, fx, fy, limit, eta, stats);
    }
    free(fx);
    free(fy);
    free(limit);
}
