/* sph_mesh_ref: the CPU reference of the
 * mesh passes (splat, classify + scan + triangles + vertices) with the checks
 * the tests apply to a mesh (closed, enclosed volume). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sph_mesh_ref.h"

/* ---------------------------------------------------------------- splat */

static void splat_one(const vf_mesh_push *p, const float q[3], uint32_t *density)
{
    float cell = p->origin[3], r = p->lo[3], scale = p->hi[3];
    float inv_r2 = 1.0f / (r * r);
    int dims[3] = {(int)p->nx, (int)p->ny, (int)p->nz};
    int lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        float g = (q[a] - p->origin[a]) / cell;
        float gr = r / cell;
        if (!(g > -gr - 1.0f && g < (float)dims[a] + gr))
            return;
        lo[a] = (int)ceilf(g - gr);
        hi[a] = (int)floorf(g + gr);
        if (lo[a] < 0)
            lo[a] = 0;
        if (hi[a] > dims[a] - 1)
            hi[a] = dims[a] - 1;
    }
    for (int z = lo[2]; z <= hi[2]; z++)
        for (int y = lo[1]; y <= hi[1]; y++)
            for (int x = lo[0]; x <= hi[0]; x++) {
                float dx = p->origin[0] + cell * (float)x - q[0];
                float dy = p->origin[1] + cell * (float)y - q[1];
                float dz = p->origin[2] + cell * (float)z - q[2];
                float q2 = (dx * dx + dy * dy + dz * dz) * inv_r2;
                if (q2 >= 1.0f)
                    continue;
                float f = 1.0f - q2;
                density[((uint64_t)z * p->ny + y) * p->nx + x] += (uint32_t)(scale * f * f * f + 0.5f);
            }
}

void vf_mesh_ref_splat(const vf_mesh_push *p, const float (*pos)[4], uint32_t count, uint32_t *density)
{
    memset(density, 0, (uint64_t)p->nx * p->ny * p->nz * sizeof *density);
    for (uint32_t i = 0; i < count; i++) {
        unsigned mask = 0;
        float mirror[3];
        for (int a = 0; a < 3; a++) {
            mirror[a] = pos[i][a];
            if (pos[i][a] - p->lo[a] < p->lo[3]) {
                mask |= 1u << a;
                mirror[a] = 2.0f * p->lo[a] - pos[i][a];
            } else if (p->hi[a] - pos[i][a] < p->lo[3]) {
                mask |= 1u << a;
                mirror[a] = 2.0f * p->hi[a] - pos[i][a];
            }
        }
        for (unsigned k = 0; k < 8; k++) {
            if (k & ~mask)
                continue;
            float q[3];
            for (int a = 0; a < 3; a++)
                q[a] = (k >> a) & 1 ? mirror[a] : pos[i][a];
            splat_one(p, q, density);
        }
    }
}

/* ---------------------------------------------------------------- marching cubes */

typedef struct grid_view {
    const vf_mesh_push *p;
    const uint32_t *d;
} grid_view;

/* The density at a point, the outermost layer (and beyond) empty. */
static uint32_t value_at(const grid_view *g, int x, int y, int z)
{
    const vf_mesh_push *p = g->p;
    if (x <= 0 || y <= 0 || z <= 0 || x >= (int)p->nx - 1 || y >= (int)p->ny - 1 || z >= (int)p->nz - 1)
        return 0;
    return g->d[((uint64_t)z * p->ny + y) * p->nx + x];
}

static void gradient_at(const grid_view *g, int x, int y, int z, float out[3])
{
    out[0] = (float)value_at(g, x + 1, y, z) - (float)value_at(g, x - 1, y, z);
    out[1] = (float)value_at(g, x, y + 1, z) - (float)value_at(g, x, y - 1, z);
    out[2] = (float)value_at(g, x, y, z + 1) - (float)value_at(g, x, y, z - 1);
}

vf_result vf_mesh_ref_build(const vf_mesh_push *p, const uint32_t *table, const uint32_t *density, vf_mesh_host *out)
{
    memset(out, 0, sizeof *out);
    grid_view g = {p, density};
    uint64_t points = (uint64_t)p->nx * p->ny * p->nz;
    uint32_t *vid = malloc(points * 3 * sizeof *vid);
    if (!vid)
        return VF_ERR_NO_MEMORY;
    /* Vertices in edge order (the scan of the crossed edges). */
    uint64_t nv = 0;
    for (uint64_t i = 0; i < points * 3; i++)
        vid[i] = UINT32_MAX;
    for (int pass = 0; pass < 2; pass++) {
        nv = 0;
        for (int z = 0; z < (int)p->nz; z++)
            for (int y = 0; y < (int)p->ny; y++)
                for (int x = 0; x < (int)p->nx; x++)
                    for (int a = 0; a < 3; a++) {
                        int q[3] = {x, y, z}, e[3] = {0, 0, 0};
                        e[a] = 1;
                        if (q[a] + 1 >= (int)(a == 0 ? p->nx : a == 1 ? p->ny : p->nz))
                            continue;
                        uint32_t v0 = value_at(&g, x, y, z), v1 = value_at(&g, x + e[0], y + e[1], z + e[2]);
                        if ((v0 > p->iso) == (v1 > p->iso))
                            continue;
                        uint64_t id = ((uint64_t)z * p->ny + y) * p->nx + x;
                        if (pass == 1) {
                            float t = ((float)p->iso - (float)v0) / ((float)v1 - (float)v0);
                            float g0[3], g1[3], nrm[3], len2 = 0.0f;
                            gradient_at(&g, x, y, z, g0);
                            gradient_at(&g, x + e[0], y + e[1], z + e[2], g1);
                            for (int k = 0; k < 3; k++) {
                                float c = p->origin[k] + p->origin[3] * ((float)q[k] + t * (float)e[k]);
                                c = fminf(fmaxf(c, p->lo[k]), p->hi[k]);
                                out->pos[nv][k] = c;
                                nrm[k] = g0[k] + t * (g1[k] - g0[k]);
                                len2 += nrm[k] * nrm[k];
                            }
                            out->pos[nv][3] = 1.0f;
                            float inv = len2 > 0.0f ? -1.0f / sqrtf(len2) : 0.0f;
                            for (int k = 0; k < 3; k++)
                                out->normal[nv][k] = nrm[k] * inv;
                            out->normal[nv][3] = 0.0f;
                            if (len2 <= 0.0f)
                                out->normal[nv][1] = 1.0f;
                            vid[id * 3 + a] = (uint32_t)nv;
                        }
                        nv++;
                    }
        if (pass == 0) {
            if (nv > UINT32_MAX)
                goto too_many;
            out->pos = calloc(nv ? nv : 1, sizeof *out->pos);
            out->normal = calloc(nv ? nv : 1, sizeof *out->normal);
            if (!out->pos || !out->normal)
                goto no_memory;
        }
    }
    out->vertices = out->stored_vertices = (uint32_t)nv;
    /* Triangles in cube order. */
    uint64_t nt = 0;
    for (int pass = 0; pass < 2; pass++) {
        nt = 0;
        for (int z = 0; z + 1 < (int)p->nz; z++)
            for (int y = 0; y + 1 < (int)p->ny; y++)
                for (int x = 0; x + 1 < (int)p->nx; x++) {
                    int c = 0;
                    for (int b = 0; b < 8; b++)
                        if (value_at(&g, x + (b & 1), y + ((b >> 1) & 1), z + ((b >> 2) & 1)) > p->iso)
                            c |= 1 << b;
                    const uint32_t *row = table + c * VF_MESH_CASE_STRIDE;
                    for (uint32_t t = 0; t < row[0]; t++, nt++) {
                        if (pass == 0)
                            continue;
                        for (int j = 0; j < 3; j++) {
                            int s[3], a;
                            vf_mesh_edge_start((int)row[1 + 3 * t + j], s, &a);
                            uint64_t id = ((uint64_t)(z + s[2]) * p->ny + (uint64_t)(y + s[1])) * p->nx + (uint64_t)(x + s[0]);
                            out->tri[nt][j] = vid[id * 3 + a];
                        }
                    }
                }
        if (pass == 0) {
            if (nt > UINT32_MAX)
                goto too_many;
            out->tri = calloc(nt ? nt : 1, sizeof *out->tri);
            if (!out->tri)
                goto no_memory;
        }
    }
    out->triangles = out->stored_triangles = (uint32_t)nt;
    free(vid);
    return VF_OK;
too_many:
    free(vid);
    vf_mesh_host_free(out);
    return VF_ERR_TOO_LARGE;
no_memory:
    free(vid);
    vf_mesh_host_free(out);
    return VF_ERR_NO_MEMORY;
}

/* ---------------------------------------------------------------- checks */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint64_t vf_mesh_open_edges(const vf_mesh_host *h, uint64_t *edges)
{
    uint64_t n = (uint64_t)h->stored_triangles * 3;
    if (edges)
        *edges = 0;
    if (n == 0)
        return 0;
    /* Directed edges as (min, max, direction) keys: a closed, consistently
     * oriented mesh has each undirected edge exactly once in each direction. */
    uint64_t *k = malloc(n * sizeof *k);
    if (!k)
        return UINT64_MAX;
    for (uint64_t t = 0; t < h->stored_triangles; t++)
        for (int j = 0; j < 3; j++) {
            uint64_t a = h->tri[t][j], b = h->tri[t][(j + 1) % 3];
            uint64_t lo = a < b ? a : b, hi = a < b ? b : a;
            k[t * 3 + j] = (lo << 33) | (hi << 1) | (a > b);
        }
    qsort(k, n, sizeof *k, cmp_u64);
    uint64_t bad = 0, count = 0;
    for (uint64_t i = 0; i < n;) {
        uint64_t j = i;
        while (j < n && (k[j] >> 1) == (k[i] >> 1))
            j++;
        count++;
        if (j - i != 2 || (k[i] & 1) == (k[i + 1] & 1))
            bad++;
        i = j;
    }
    free(k);
    if (edges)
        *edges = count;
    return bad;
}

double vf_mesh_volume(const vf_mesh_host *h)
{
    double v = 0.0;
    for (uint32_t t = 0; t < h->stored_triangles; t++) {
        const float *a = h->pos[h->tri[t][0]], *b = h->pos[h->tri[t][1]], *c = h->pos[h->tri[t][2]];
        /* a . (b x c) / 6 */
        double bx = (double)b[1] * c[2] - (double)b[2] * c[1];
        double by = (double)b[2] * c[0] - (double)b[0] * c[2];
        double bz = (double)b[0] * c[1] - (double)b[1] * c[0];
        v += (a[0] * bx + a[1] * by + a[2] * bz) / 6.0;
    }
    return v;
}

