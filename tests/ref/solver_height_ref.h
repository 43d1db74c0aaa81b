/* solver_height_ref: CPU references of every height_*.comp kernel, written
 * with the same float operations in the same order as the shaders, over host
 * arrays of nx*ny cells (row-major). The tests compare the GPU against these;
 * the benchmark may use them as a baseline. */
#ifndef VF_SOLVER_HEIGHT_REF_H
#define VF_SOLVER_HEIGHT_REF_H

#include <stdint.h>

#include "shared_height.h"

/* The hash (vf_hash in shared.h, vf_height_hash01) and the excess volume
 * (vf_height_excess) the solver computes on the host too are in
 * solver_height.h; the references use those. */
/** Depth a face carries (height_face_depth). */
float vf_height_face_depth(float e0, float b0, uint32_t f0, float e1, float b1, uint32_t f1);
/** Hull depression at (x, y) (height_hull). */
float vf_height_hull(float x, float y, float hx, float hy, float ha, float hb, float hc, float hs, float draft);
/** Boundary faces of cell (i, j) (height_boundary_faces). */
uint32_t vf_height_boundary_faces(uint32_t i, uint32_t j, uint32_t nx, uint32_t ny, uint32_t sides);
/** Drop crater shape at squared distance r2 (height_drop_shape). */
float vf_height_drop_shape(float r2, float sigma);

/** height_explicit.comp: vel is updated in place, eta_out written. */
void vf_height_ref_explicit(const vf_height_step_push *p, const float *eta, const float *bed, const uint32_t *flags,
                            const float *pres, float *vel, float *eta_out);
/** height_adi_rhs.comp. */
void vf_height_ref_adi_rhs(const vf_height_step_push *p, const float *eta, const float *prev, const float *bed,
                           const uint32_t *flags, const float *pres, float *rhs);
/** height_adi_x.comp / height_adi_y.comp along p->axis: in -> out, scratch holds c' (nx*ny). */
void vf_height_ref_adi_sweep(const vf_height_step_push *p, const float *eta, const float *bed, const uint32_t *flags,
                             const float *in, float *out, float *scratch);
/** One whole ADI step: rhs, row sweep, column sweep; eta_next receives
 * eta^(n+1); work1/work2 are nx*ny scratch arrays. */
void vf_height_ref_adi_step(const vf_height_step_push *p, const float *eta, const float *prev, const float *bed,
                            const uint32_t *flags, const float *pres, float *eta_next, float *work1, float *work2);
/** height_disturb.comp (eta, prev and pres updated in place; prev may be NULL
 * without the PREV flag, flow arrays may be NULL when unused). */
void vf_height_ref_disturb(const vf_height_disturb_push *p, float *eta, float *prev, const float *bed,
                           const uint32_t *flags, float *pres, const float *flow_p, const float *flow_div);
/** height_volume_sum.glsl in double: returns the excess volume / dx^2;
 * wet cells and the summed depth of wet cells go to *wet and *depth (each may
 * be NULL). The solver's own host sum, vf_height_excess. */
double vf_height_ref_excess(uint32_t nx, uint32_t ny, const float *eta, const float *bed, const uint32_t *flags,
                            uint32_t *wet, double *depth);
/** height_frame_end.comp's volume correction: wet cells change their depth by the fraction scale. */
void vf_height_ref_volume_apply(uint32_t nx, uint32_t ny, uint32_t flags_push, float scale, float *eta, float *prev,
                                const float *bed, const uint32_t *flags);
/** height_frame_end.comp's objects. Without p->flow the flow arrays may be NULL; with
 * VF_HEIGHT_FLOW_CELL flow_vel holds 2 floats per flow cell (flow_v unused),
 * with VF_HEIGHT_FLOW_MAC flow_vel holds u ((nx + 1) x ny) and flow_v v
 * (nx x (ny + 1)). */
void vf_height_ref_objects(const vf_height_objects_push *p, const float *eta, const float *bed, const uint32_t *flags,
                           const float *flow_vel, const float *flow_v, vf_height_object *objects);
/** height_advect.comp: eta and second (nx*ny each) carried along the flow
 * for p->dt into eta_out and second_out. Flow arrays as for
 * vf_height_ref_objects (p->flow_layout). */
void vf_height_ref_advect(const vf_height_advect_push *p, const float *eta, const float *second, const float *bed,
                          const uint32_t *flags, const float *flow_vel, const float *flow_v, float *eta_out,
                          float *second_out);

#endif
