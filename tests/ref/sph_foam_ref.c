/* sph_foam_ref: the CPU reference of the foam passes' potentials and
 * classification (brute force over all pairs, fp32 like the shaders). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "sph_foam_ref.h"

static float weight(const vf_sph_params *prm, float r)
{
    return r < prm->h ? 1.0f - r * prm->inv_h : 0.0f;
}

static float clampf01(float v, float lo, float hi)
{
    return (fminf(v, hi) - fminf(v, lo)) / (hi - lo);
}

float vf_foam_ref_random(uint32_t id, uint32_t frame, uint32_t stream)
{
    uint32_t h = vf_hash(id * 0x9e3779b9u ^ vf_hash(frame * 16u + stream));
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

static float len3(const float v[3])
{
    return sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static void unit3(const float v[3], float out[3])
{
    float l = len3(v);
    for (int k = 0; k < 3; k++)
        out[k] = l > 1e-12f ? v[k] / l : 0.0f;
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Whether j is a neighbour of i (another particle closer than h): then the
 * offset x_i - x_j into d, its length into *r and the kernel weight into *w. */
static bool neighbour(const vf_sph_params *prm, const float (*pos)[4], uint32_t i, uint32_t j, float d[3], float *r,
                      float *w)
{
    for (int k = 0; k < 3; k++)
        d[k] = pos[i][k] - pos[j][k];
    *r = len3(d);
    if (j == i || !(*r < prm->h) || *r <= 0.0f)
        return false;
    *w = weight(prm, *r);
    return true;
}

void vf_foam_ref_potentials(const vf_sph_params *prm, const vf_foam_push *p, uint32_t n, const float (*pos)[4],
                            const float (*vel)[4], const uint32_t *id, float (*normal)[4], float (*pot)[4])
{
    for (uint32_t i = 0; i < n; i++) {
        float sum[3] = {0, 0, 0}, wsum = 0.0f;
        for (uint32_t j = 0; j < n; j++) {
            float d[3], r, w;
            if (!neighbour(prm, pos, i, j, d, &r, &w))
                continue;
            for (int k = 0; k < 3; k++)
                sum[k] += d[k] / r * w;
            wsum += w;
        }
        memcpy(normal[i], sum, sizeof sum);
        normal[i][3] = wsum;
    }
    vf_foam_ref_potentials_of(prm, p, n, pos, vel, id, (const float(*)[4])normal, pot);
}

void vf_foam_ref_potentials_of(const vf_sph_params *prm, const vf_foam_push *p, uint32_t n, const float (*pos)[4],
                               const float (*vel)[4], const uint32_t *id, const float (*normal)[4], float (*pot)[4])
{
    for (uint32_t i = 0; i < n; i++) {
        float ni[3], vi[3] = {vel[i][0], vel[i][1], vel[i][2]};
        bool surface = len3(normal[i]) > 0.3f * normal[i][3];
        unit3(normal[i], ni);
        float ta = 0.0f, wc = 0.0f;
        for (uint32_t j = 0; j < n; j++) {
            float xij[3], r, w;
            if (!neighbour(prm, pos, i, j, xij, &r, &w))
                continue;
            float vij[3] = {vi[0] - vel[j][0], vi[1] - vel[j][1], vi[2] - vel[j][2]}, vu[3], xu[3], nj[3];
            unit3(vij, vu);
            for (int k = 0; k < 3; k++)
                xu[k] = xij[k] / r;
            ta += len3(vij) * (1.0f - dot3(vu, xu)) * w;
            if (-dot3(xu, ni) < 0.0f) {
                unit3(normal[j], nj);
                wc += (1.0f - dot3(ni, nj)) * w;
            }
        }
        float vu[3];
        unit3(vi, vu);
        if (!surface || dot3(vu, ni) < p->motion[2])
            wc = 0.0f;
        float ek = 0.5f * dot3(vi, vi);
        float rate = clampf01(ek, p->energy[0], p->energy[1]) *
                     (p->rate[0] * clampf01(ta, p->limits[0], p->limits[1]) + p->rate[1] * clampf01(wc, p->limits[2], p->limits[3]));
        float want = p->rate[2] * rate + vf_foam_ref_random(id[i], p->frame, 0);
        float k = fminf(floorf(want), 64.0f);
        pot[i][0] = ta;
        pot[i][1] = wc;
        pot[i][2] = ek;
        pot[i][3] = k;
    }
}

uint32_t vf_foam_ref_class(const vf_sph_params *prm, const vf_foam_push *p, uint32_t n, const float (*pos)[4],
                           const float x[3])
{
    uint32_t count = 0;
    for (uint32_t j = 0; j < n; j++) {
        float d[3] = {x[0] - pos[j][0], x[1] - pos[j][1], x[2] - pos[j][2]};
        if (len3(d) < prm->h)
            count++;
    }
    return count < p->spray_max ? VF_FOAM_SPRAY : count > p->bubble_min ? VF_FOAM_BUBBLE : VF_FOAM_FOAM;
}
