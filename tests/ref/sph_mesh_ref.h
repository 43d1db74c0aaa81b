/* sph_mesh_ref: the CPU reference of the mesh passes and the checks the tests apply to a mesh. */
#ifndef VF_SPH_MESH_REF_H
#define VF_SPH_MESH_REF_H

#include "sph_mesh.h"

/** mesh_splat on the CPU: density (nx*ny*nz words, cleared here) from
 * count positions and their mirror images across the walls. */
void vf_mesh_ref_splat(const vf_mesh_push *p, const float (*pos)[4], uint32_t count, uint32_t *density);

/** Marching cubes on the CPU over a density grid with the same table and
 * rules as the GPU: out gets the totals and every vertex and triangle (its
 * arrays allocated here; free with vf_mesh_host_free). */
vf_result vf_mesh_ref_build(const vf_mesh_push *p, const uint32_t *table, const uint32_t *density, vf_mesh_host *out);

/** Checks that a mesh is closed and consistently oriented: every undirected
 * edge used by exactly two triangles, once in each direction. Returns the
 * number of edges that are not, and (when not NULL) the number of edges. */
uint64_t vf_mesh_open_edges(const vf_mesh_host *h, uint64_t *edges);
/** The signed volume the mesh encloses (divergence theorem; positive for
 * outward normals), m^3. */
double vf_mesh_volume(const vf_mesh_host *h);

#endif
