/* sim_pass: the compute passes of a solver family, declared once in the
 * family's pass table (src/sim/<family>/<family>_passes.def) and recorded
 * through one call that opens the pass's profiler scope, dispatches and puts
 * the barrier after it.
 *
 * A table lists each pass as
 *   PASS(ID, name, shader, push, local_x, bindings, bytes)
 *     ID        <prefix>_<ID> in the family's pass enum, the index of its pipeline
 *     name      the profiler scope and the benchmark's pass name
 *     shader    the SPIR-V file
 *     push      the push-constant struct (vf_no_push: none)
 *     local_x   the workgroup's x size as a specialization constant (0: the shader's own)
 *     bindings  BIND(slot, type) for each binding: slot a constant of the shared
 *               C/GLSL header (the shader names the same constant and the
 *               recording code fills its bindings by it), type a
 *               vf_binding_type without VF_BIND_
 *     bytes     the bytes one execution must move, an expression over the
 *               names the family's pass_bytes function defines
 *     ...       a family may add its own columns after bytes (the grid's
 *               stage and build columns, grid_passes.def)
 * and sim_pass_table.h turns it into the enum, the binding counts and the
 * table of vf_sim_pass. A pass written NEIGHBOUR_PASS (the same columns)
 * loops over each particle's neighbours: the work accounting counts its
 * dispatches as neighbour passes. */
#ifndef VF_SIM_PASS_H
#define VF_SIM_PASS_H

#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "gpu_profiler.h"

/** The push of a table's pass without push constants (its push_size is 0). */
typedef struct vf_no_push {
    uint32_t unused;
} vf_no_push;

/** The push-constant bytes of a table's push type: 0 for vf_no_push. */
#define VF_PASS_PUSH_SIZE(type) _Generic((type *)0, vf_no_push *: 0u, default: (uint32_t)sizeof(type))

/** One compute pass of a family's table. */
typedef struct vf_sim_pass {
    const char *name;     /* profiler scope and benchmark pass name */
    vf_compute_desc desc; /* shader, binding types by slot, push size, local x */
} vf_sim_pass;

/** Creates the pipeline of pass with spec_count specialization constants
 * spec (NULL when spec_count is 0). variant (may be NULL) is appended to the
 * pipeline's debug name, for passes built more than once. The caller owns
 * *out (vf_pipeline_destroy). */
vf_result vf_sim_pass_pipeline(vf_gpu *gpu, const vf_sim_pass *pass, const uint32_t *spec, uint32_t spec_count,
                               const char *variant, vf_pipeline **out);

/** Records one pass: its profiler scope and debug label (only when prof is
 * not NULL: a pass recorded inside a step's scope, or with nothing timed,
 * adds neither), the dispatch of gx x gy x gz workgroups of pipe with
 * bindings b and push constants push (NULL when the pass has none), then a
 * compute-to-compute barrier. */
void vf_sim_pass_record(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                        vf_pipeline *pipe, const vf_binding *b, const void *push, uint32_t gx, uint32_t gy,
                        uint32_t gz);

/** As vf_sim_pass_record, for threads invocations in 1D (the groups from the
 * pipeline's local x size). */
void vf_sim_pass_record_1d(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                           vf_pipeline *pipe, const vf_binding *b, const void *push, uint64_t threads);

/** Opens the profiler scope of pass (prof may be NULL) for a step of several
 * dispatches that the benchmark times as one: record them with
 * vf_sim_pass_dispatch and close the scope with vf_sim_pass_end. Returns the
 * scope for vf_sim_pass_end. */
uint32_t vf_sim_pass_begin(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass);

/** Closes a scope of vf_sim_pass_begin (the same gpu and prof). */
void vf_sim_pass_end(vf_gpu *gpu, VkCommandBuffer cmd, vf_profiler *prof, uint32_t scope);

/** Records one dispatch of gx x gy x gz workgroups of pipe inside an open
 * scope (vf_sim_pass_begin), then a compute-to-compute barrier. */
void vf_sim_pass_dispatch(vf_gpu *gpu, VkCommandBuffer cmd, vf_pipeline *pipe, const vf_binding *b, const void *push,
                          uint32_t gx, uint32_t gy, uint32_t gz);

#endif
