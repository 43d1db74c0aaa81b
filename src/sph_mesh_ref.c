/* sph_mesh_ref: the marching-cubes case table, and the CPU reference of the
 * mesh passes (splat, classify + scan + triangles + vertices) with the checks
 * the tests apply to a mesh (closed, enclosed volume). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sph_mesh.h"

/* ---------------------------------------------------------------- case table */

/* Corner offset of corner b. */
static void corner_xyz(int b, int c[3])
{
    c[0] = b & 1;
    c[1] = (b >> 1) & 1;
    c[2] = (b >> 2) & 1;
}

/* Edge e = 4 a + m: along axis a from the corner with coordinate m&1 on axis
 * (a+1)%3 and m>>1 on axis (a+2)%3. */
static void edge_start(int e, int s[3], int *axis)
{
    int a = e / 4, m = e % 4;
    s[a] = 0;
    s[(a + 1) % 3] = m & 1;
    s[(a + 2) % 3] = m >> 1;
    *axis = a;
}

static int corner_of(const int c[3])
{
    return c[0] | c[1] << 1 | c[2] << 2;
}

/* The edge between two corners that differ in one coordinate. */
static int edge_between(int b0, int b1)
{
    int c0[3], c1[3];
    corner_xyz(b0, c0);
    corner_xyz(b1, c1);
    int a = 0;
    while (c0[a] == c1[a])
        a++;
    int lo[3] = {c0[0], c0[1], c0[2]};
    lo[a] = 0;
    return 4 * a + (lo[(a + 1) % 3] | lo[(a + 2) % 3] << 1);
}

/* Whether two edges lie on a common cube face. */
static int share_face(int e0, int e1)
{
    int s0[3], s1[3], a0, a1;
    edge_start(e0, s0, &a0);
    edge_start(e1, s1, &a1);
    for (int b = 0; b < 3; b++)
        if (b != a0 && b != a1 && s0[b] == s1[b])
            return 1;
    return 0;
}

/* Triangulates loop v[0..k-1] (k >= 3) with no diagonal between two vertices
 * on a common face; appends triangles to tri (3 edges each). Returns 0 when
 * there is no such triangulation. Tries the apex nearest the middle first. */
static int triangulate(const int *v, int k, int *tri, int *ntri)
{
    if (k == 3) {
        tri[3 * *ntri + 0] = v[0];
        tri[3 * *ntri + 1] = v[1];
        tri[3 * *ntri + 2] = v[2];
        (*ntri)++;
        return 1;
    }
    for (int d = 0; d < k - 2; d++) {
        int m = (k - 1) / 2 + ((d & 1) ? -(d + 1) / 2 : d / 2);
        if (m < 1 || m > k - 2)
            continue;
        if (m > 1 && share_face(v[0], v[m]))
            continue;
        if (m < k - 2 && share_face(v[m], v[k - 1]))
            continue;
        int saved = *ntri;
        tri[3 * *ntri + 0] = v[0];
        tri[3 * *ntri + 1] = v[m];
        tri[3 * *ntri + 2] = v[k - 1];
        (*ntri)++;
        int ok = 1;
        if (m > 1)
            ok = triangulate(v, m + 1, tri, ntri);
        if (ok && m < k - 2)
            ok = triangulate(v + m, k - m, tri, ntri);
        if (ok)
            return 1;
        *ntri = saved;
    }
    return 0;
}

vf_result vf_mesh_table_build(uint32_t table[256 * VF_MESH_CASE_STRIDE])
{
    memset(table, 0, 256 * VF_MESH_CASE_STRIDE * sizeof *table);
    for (int c = 0; c < 256; c++) {
        int next[12];
        for (int e = 0; e < 12; e++)
            next[e] = -1;
        /* Every face, corners counter-clockwise seen from outside. */
        for (int a = 0; a < 3; a++) {
            for (int side = 0; side < 2; side++) {
                int u = (a + 1) % 3, w = (a + 2) % 3;
                static const int uv[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
                int ring[4];
                for (int i = 0; i < 4; i++) {
                    int q = side ? i : 3 - i; /* normal +a: (u, v) order; -a: reversed */
                    int xyz[3];
                    xyz[a] = side;
                    xyz[u] = uv[q][0];
                    xyz[w] = uv[q][1];
                    ring[i] = corner_of(xyz);
                }
                int cross_edge[4], entry[4], n = 0;
                for (int i = 0; i < 4; i++) {
                    int b0 = ring[i], b1 = ring[(i + 1) % 4];
                    int in0 = (c >> b0) & 1, in1 = (c >> b1) & 1;
                    if (in0 != in1) {
                        cross_edge[n] = edge_between(b0, b1);
                        entry[n] = in1;
                        n++;
                    }
                }
                /* Each entry with the next crossing (its exit): the segment
                 * exit -> entry bounds that corner's inside region. */
                for (int i = 0; i < n; i++)
                    if (entry[i])
                        next[cross_edge[(i + 1) % n]] = cross_edge[i];
            }
        }
        int used[12] = {0}, tri[3 * 16], ntri = 0;
        for (int e = 0; e < 12; e++) {
            if (next[e] < 0 || used[e])
                continue;
            int loop[12], k = 0, x = e;
            while (!used[x]) {
                if (k >= 12 || next[x] < 0)
                    return VF_ERR_INVALID_ARG;
                used[x] = 1;
                loop[k++] = x;
                x = next[x];
            }
            if (x != e || k < 3 || !triangulate(loop, k, tri, &ntri) || ntri > VF_MESH_CASE_TRIS)
                return VF_ERR_INVALID_ARG;
        }
        uint32_t *row = table + c * VF_MESH_CASE_STRIDE;
        row[0] = (uint32_t)ntri;
        /* The loop rule traces the boundary with the inside on its left seen
         * from outside the cube; reversed, the triangles face away from the
         * inside (outward normals by the right-hand rule). */
        for (int t = 0; t < ntri; t++) {
            row[1 + 3 * t + 0] = (uint32_t)tri[3 * t + 0];
            row[1 + 3 * t + 1] = (uint32_t)tri[3 * t + 2];
            row[1 + 3 * t + 2] = (uint32_t)tri[3 * t + 1];
        }
    }
    return VF_OK;
}

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
                            edge_start((int)row[1 + 3 * t + j], s, &a);
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

void vf_mesh_host_free(vf_mesh_host *h)
{
    if (!h)
        return;
    free(h->pos);
    free(h->normal);
    free(h->tri);
    memset(h, 0, sizeof *h);
}
