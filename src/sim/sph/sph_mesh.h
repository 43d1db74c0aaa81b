/* sph_mesh: a triangle mesh of the fluid's surface, built on the GPU from
 * particles (marching cubes, Lorensen and Cline 1987).
 *
 * Per build (all compute, no readback):
 *   mesh_clear      the density grid to zero
 *   mesh_splat      every particle, and its mirror images across the walls
 *                   within R (so the field at a wall is the fluid's, and
 *                   the surface meets the wall square), adds V W(|x - x_j|)
 *                   to the grid points within the support radius R (W the
 *                   normalised poly6
 *                   shape 315/(64 pi R^3) (1 - r^2/R^2)^3, V the particle
 *                   volume), so the field is the fluid's volume fraction,
 *                   ~1 inside and 0 outside; in fixed point (integer atomics,
 *                   so the sum does not depend on the order of the adds)
 *   mesh_classify   per cube: its triangle count from the case table; per
 *                   grid edge: 1 when the iso level crosses it
 *   scan x 2        exclusive prefix sums (gpu_scan) of both: each cube's
 *                   first triangle, each crossed edge's vertex index
 *   mesh_triangles  per cube: 3 vertex indices per triangle (edge-indexed:
 *                   the cubes that share an edge share its vertex)
 *   mesh_vertices   per crossed edge: the interpolated position (clamped
 *                   into the tank) and the normal from the density gradient
 *   mesh_finish     the totals and a VkDrawIndirectCommand (3 vertices per
 *                   triangle that fits)
 *
 * The case table is generated (vf_mesh_table_build): on each cube face the
 * inside corners are kept apart when the face is ambiguous, a rule that
 * depends on the face alone, so the cubes on both sides of a face agree; the
 * face segments are chained into loops and each loop triangulated without a
 * diagonal on a cube face. With the grid's outermost layer read as empty, the
 * mesh is closed: every edge is shared by exactly two triangles, oriented
 * consistently (outward normals), so it encloses a volume. */
#ifndef VF_SPH_MESH_H
#define VF_SPH_MESH_H

#include <stdint.h>

#include "gpu_buffer.h"
#include "gpu_profiler.h"
#include "shared_mesh.h"

/** Zero means the default in brackets. */
typedef struct vf_mesh_desc {
    double lo[3], hi[3];   /* the tank (m); the grid covers it with one cell to spare */
    double spacing;        /* particle spacing (m): volume spacing^3 (> 0) */
    double cell;           /* grid cell size (m) [spacing] */
    double radius;         /* kernel support radius (m) [2 spacing] */
    double iso;            /* iso level of the volume fraction, 0..1 [0.5] */
    uint32_t particles;    /* most particles a build reads (> 0) */
    uint32_t max_triangles;/* triangles the buffers hold [min(5 cells, max(2^20, cells / 2))] */
} vf_mesh_desc;

typedef struct vf_mesh vf_mesh;

/** Creates the mesh builder: pipelines, the case table, the grid and the
 * mesh buffers. VF_ERR_TOO_LARGE (with a one-line reason in err, naming how
 * large a cell would fit) when the grid exceeds the device's buffer range or
 * memory; VF_ERR_INVALID_ARG for a bad desc. err may be NULL. */
vf_result vf_mesh_create(vf_gpu *gpu, const vf_mesh_desc *desc, vf_mesh **out, char *err, size_t cap);
/** Destroys the builder; accepts NULL and *m == NULL. The GPU must be idle. */
void vf_mesh_destroy(vf_mesh **m);

/** Records a build from count particles (vec4 positions, xyz in metres, at
 * the start of positions; count at most desc.particles). Particles outside
 * the tank by more than the radius (e.g. unused slots) add nothing. The
 * caller records a barrier that makes the positions' compute writes visible
 * before; the build ends with a barrier that makes the mesh visible to
 * vertex shaders, indirect draws, compute and transfers. prof may be NULL. */
vf_result vf_mesh_record(vf_mesh *m, VkCommandBuffer cmd, vf_profiler *prof, vf_buffer *positions, uint32_t count);

/** The GPU buffers of the mesh (owned by the builder): vertices (vec4
 * position with w = 1, vec4 normal per vertex), indices (uint32, 3 per
 * triangle) and counts (uvec4: triangles, vertices, triangles stored,
 * vertices stored; then a VkDrawIndirectCommand at VF_MESH_DRAW_OFFSET). */
typedef struct vf_mesh_buffers {
    vf_buffer *vertices, *indices, *counts, *density;
    uint32_t max_triangles, max_vertices;
    uint32_t grid[3];      /* points per axis */
} vf_mesh_buffers;

/** Fills out with the builder's buffers. */
void vf_mesh_get_buffers(const vf_mesh *m, vf_mesh_buffers *out);
/** The push constants every pass sees (for the CPU reference). */
const vf_mesh_push *vf_mesh_get_push(const vf_mesh *m);
/** The generated case table (256 x VF_MESH_CASE_STRIDE words). */
const uint32_t *vf_mesh_get_table(const vf_mesh *m);

/** A mesh on the host. */
typedef struct vf_mesh_host {
    uint32_t triangles, vertices;          /* the totals the GPU counted */
    uint32_t stored_triangles, stored_vertices; /* what the arrays hold (less when the buffers overflowed) */
    float (*pos)[4];                       /* stored_vertices */
    float (*normal)[4];
    uint32_t (*tri)[3];                    /* stored_triangles */
} vf_mesh_host;

/** Reads the last build back (waits for the GPU). Free with vf_mesh_host_free. */
vf_result vf_mesh_read(vf_mesh *m, vf_mesh_host *out);
/** Frees a host mesh's arrays; safe on a zeroed one. */
void vf_mesh_host_free(vf_mesh_host *h);
/** Writes a host mesh as binary little-endian PLY (float x y z nx ny nz per
 * vertex, uchar-counted int lists per face), whole or not at all. Triangles
 * whose vertices were not stored are left out. */
vf_result vf_mesh_write_ply(const vf_mesh_host *h, const char *path);

typedef struct vf_solver vf_solver;

/** Builds the surface mesh of an SPH solver's current particles (one-shot
 * submit; waits) and writes it to path as binary PLY, whole or not at all.
 * *cache holds the builder between calls (created on the first; the caller
 * destroys it with vf_mesh_destroy). VF_ERR_UNSUPPORTED when the solver is
 * not of the sph family; err gets a one-line reason (may be NULL). */
vf_result vf_mesh_export_sph(vf_gpu *gpu, vf_solver *solver, vf_mesh **cache, const char *path, char *err, size_t cap);

/** Builds the marching-cubes case table: table[c * VF_MESH_CASE_STRIDE] is
 * the triangle count of case c (bit b set when corner b = (b&1, b>>1&1,
 * b>>2&1) is inside), followed by 3 local edge numbers per triangle (edge
 * 4 a + m runs along axis a from the corner whose other two coordinates are
 * m&1 and m>>1, in the order of the axes after a). Returns VF_ERR_INVALID_ARG
 * when a loop has no triangulation without a diagonal on a face. */
vf_result vf_mesh_table_build(uint32_t table[256 * VF_MESH_CASE_STRIDE]);

/** Edge e = 4 a + m of the case table's cube: along axis a (*axis) from
 * the corner s with coordinate m&1 on axis (a+1)%3 and m>>1 on axis (a+2)%3. */
void vf_mesh_edge_start(int e, int s[3], int *axis);

#endif
