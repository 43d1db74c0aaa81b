/* render_surface_ref: the CPU reference of the height-field surface
 * renderer's compute path: its corner pass (the raster path's bed and water
 * mesh vertices) and the ray hits of its march pass, by brute force over
 * every triangle in double precision (no walk, no slab, no skipping). */
#ifndef VF_RENDER_SURFACE_REF_H
#define VF_RENDER_SURFACE_REF_H

#include <stdbool.h>
#include <stdint.h>

#include "shared_height.h"

/** The corner pass's bed and water vertices for frame f over the solver's
 * eta, bed and flags (nx x ny each): (mesh_x + 6) x (mesh_y + 6)
 * vf_surface_corner (the water's normal left zero). */
void vf_surface_corners_ref(const vf_surface_frame *f, const float *eta, const float *bed, const uint32_t *flags,
                            vf_surface_corner *out);

/** The nearest hit of the ray ro + t rd (metres: x, height, y) with the
 * corner meshes of frame f, as the march draws them (water triangles where
 * the interpolated wet fraction is 1/2 or more and the depth 1 mm or more;
 * bed triangles; objects left out): VF_SURFACE_HIT_* and *t (-1 for none). */
uint32_t vf_surface_hit_ref(const vf_surface_frame *f, const vf_surface_corner *corners, const double ro[3],
                            const double rd[3], double *t);

#endif
