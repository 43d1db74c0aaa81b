/* sph_mesh_table: the marching-cubes case table of the surface mesh, built
 * from the cube's geometry (no typed-in table), and the host mesh's memory. */
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

void vf_mesh_edge_start(int e, int s[3], int *axis)
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
    vf_mesh_edge_start(e0, s0, &a0);
    vf_mesh_edge_start(e1, s1, &a1);
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

void vf_mesh_host_free(vf_mesh_host *h)
{
    if (!h)
        return;
    free(h->pos);
    free(h->normal);
    free(h->tri);
    memset(h, 0, sizeof *h);
}
