/* solver_terrain_ref: CPU references of every terrain_*.comp kernel, written
 * with the same float operations in the same order as the shaders, over host
 * arrays of nx*ny cells (row-major), faces as 4 floats each ((nx + 1) x ny x
 * faces, nx x (ny + 1) y faces). The tests compare the GPU against these. */
#ifndef VF_SOLVER_TERRAIN_REF_H
#define VF_SOLVER_TERRAIN_REF_H

#include <stdint.h>

#include "shared_terrain.h"

/** The flux of one face (terrain_flux.comp's hll): side a before the face,
 * b after it; depth, bed, normal and tangential velocity of each; out gets
 * F_h, F_n^-, F_n^+, F_t. */
void vf_terrain_ref_hll(float g, float ha, float ba, float una, float uta, float hb, float bb, float unb, float utb,
                        float out[4]);
/** terrain_face_quanta. */
uint32_t vf_terrain_ref_face_quanta(float flux, float quanta, float limit);
/** terrain_flux.comp: every face. */
void vf_terrain_ref_flux(const vf_terrain_step_push *p, const float *bed, const uint32_t *depth, const float *mom,
                         float *face_x, float *face_y);
/** terrain_limit.comp. */
void vf_terrain_ref_limit(const vf_terrain_step_push *p, const uint32_t *depth, const float *face_x, const float *face_y,
                          float *limit);
/** terrain_update.comp: depth and mom updated in place, eta written, the
 * stats' drained count, capped count and largest CFL number updated. */
void vf_terrain_ref_update(const vf_terrain_step_push *p, const vf_terrain_tools *tools, const float *bed,
                           uint32_t *depth, float *mom, const float *face_x, const float *face_y, const float *limit,
                           float *eta, vf_terrain_stats *stats);
/** terrain_edit.comp: bed changed in place, the bulldozer (objects[0]) placed. */
void vf_terrain_ref_edit(const vf_terrain_edit_push *p, float *bed, vf_height_object *objects);
/** terrain_slip.comp: bed -> bed_out. */
void vf_terrain_ref_slip(const vf_terrain_slip_push *p, const float *bed, float *bed_out);
/** One substep: flux, limit, update (work arrays allocated inside). */
void vf_terrain_ref_step(const vf_terrain_step_push *p, const vf_terrain_tools *tools, const float *bed,
                         uint32_t *depth, float *mom, float *eta, vf_terrain_stats *stats);

#endif
