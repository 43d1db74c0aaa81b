/* SPIR-V reflection (gpu_spirv.h) and the check that every pass table row
 * agrees with its shader. No GPU work: only the embedded SPIR-V is read.
 *
 * - reflection: a few embedded shaders, their binding slots and types, push
 *   block sizes and workgroup sizes, against what their GLSL declares;
 * - every row of every family's pass table (the .def files of src/sim): the
 *   shader exists and reflects, its push-constant block is exactly the row's
 *   push struct (0 for vf_no_push), and a row's local_x (when not 0) is the
 *   workgroup x size the shader declares;
 * - every row of render_pipelines.def likewise (a graphics row's push is the
 *   larger of its two shaders' blocks). */
#include <string.h>

#include "gpu_limits.h"
#include "gpu_shaders.h"
#include "gpu_spirv.h"
#include "shared.h"
#include "shared_ssf.h"
#include "render_pipelines.h"
#include "sim_pass.h"
#include "solver_grid.h"
#include "solver_grid3d.h"
#include "solver_height.h"
#include "solver_sph.h"
#include "solver_terrain.h"
#include "testlib.h"

static vf_spirv_info reflect(const char *name)
{
    vf_spirv_info info;
    char why[256] = "";
    bool ok = vf_spirv_reflect_shader(name, &info, why, sizeof why);
    CHECK_MSG(ok, "%s: %s", name, why);
    return info;
}

static void test_reflection(void)
{
    vf_test_section("reflection of embedded shaders");
    /* selftest_fill.comp: one storage buffer at 0, vf_selftest_push, VF_WG_1D */
    vf_spirv_info a = reflect("selftest_fill.comp");
    CHECK_EQ_U64(a.slot_mask, 1u);
    CHECK(a.types[0] == VF_BIND_STORAGE_BUFFER);
    CHECK_EQ_U64(a.push_size, sizeof(vf_selftest_push));
    CHECK(a.have_local_size && a.local_size[0] == VF_WG_1D && a.local_size[1] == 1);
    CHECK_EQ_U64(a.local_x_spec_id, UINT32_MAX);

    /* bench_copy.comp: two storage buffers at the shared.h slots */
    vf_spirv_info b = reflect("bench_copy.comp");
    CHECK_EQ_U64(b.slot_mask, (1u << VF_BENCH_COPY_BIND_SRC) | (1u << VF_BENCH_COPY_BIND_DST));
    CHECK_EQ_U64(b.push_size, sizeof(vf_bench_copy_push));

    /* ssf_composite.frag: a uniform buffer and three combined image samplers */
    vf_spirv_info c = reflect("ssf_composite.frag");
    CHECK_EQ_U64(c.slot_mask, 0xfu);
    CHECK(c.types[0] == VF_BIND_UNIFORM_BUFFER);
    for (int i = 1; i < 4; i++)
        CHECK_MSG(c.types[i] == VF_BIND_SAMPLED_IMAGE, "ssf_composite.frag slot %d: type %d", i, (int)c.types[i]);
    CHECK(!c.have_local_size);

    /* ssf_smooth.comp: two storage images; ssf_blur.comp: sampled in, storage out */
    vf_spirv_info d = reflect("ssf_smooth.comp");
    CHECK(d.slot_mask == 3u && d.types[0] == VF_BIND_STORAGE_IMAGE && d.types[1] == VF_BIND_STORAGE_IMAGE);
    vf_spirv_info e = reflect("ssf_blur.comp");
    CHECK(e.slot_mask == 3u && e.types[0] == VF_BIND_SAMPLED_IMAGE && e.types[1] == VF_BIND_STORAGE_IMAGE);

    /* grid_advect_vel.comp: storage buffers and their texel views */
    vf_spirv_info g = reflect("grid_advect_vel.comp");
    CHECK(g.slot_mask & (1u << VF_GRID_AV_U));
    CHECK(g.types[VF_GRID_AV_U] == VF_BIND_STORAGE_BUFFER);
    CHECK_MSG(g.types[VF_GRID_AV_U_T] == VF_BIND_TEXEL_BUFFER, "grid_advect_vel.comp slot %d: type %d", VF_GRID_AV_U_T,
              (int)g.types[VF_GRID_AV_U_T]);
    CHECK_EQ_U64(g.push_size, sizeof(vf_grid_push));

    /* grid_mg_tail.comp: x sized by a specialization constant */
    vf_spirv_info t = reflect("grid_mg_tail.comp");
    CHECK_EQ_U64(t.local_x_spec_id, VF_GRID_SPEC_TAIL_WG);
    CHECK(t.spec_mask & (1u << VF_GRID_SPEC_TAIL_WG));
    CHECK(t.spec_mask & (1u << VF_GRID_SPEC_TAIL_FLOATS));
    CHECK_EQ_U64(t.local_size[0], VF_GRID_TAIL_DEFAULT_WG);

    /* the limits check reads the same walker */
    uint32_t size[3];
    uint64_t shared = 0;
    const vf_shader_blob *blob = vf_shader_find("grid_mg_tail.comp");
    CHECK(blob && vf_limits_reflect(blob->code, blob->size, size, &shared) && size[0] == t.local_size[0] &&
          shared == t.shared_bytes);

    /* every embedded shader reflects */
    int count = 0;
    for (const vf_shader_blob *s = vf_shader_table; s->name; s++, count++) {
        vf_spirv_info info;
        char why[256] = "";
        CHECK_MSG(vf_spirv_reflect(s->code, s->size, &info, why, sizeof why), "%s: %s", s->name, why);
    }
    printf("  %d embedded shaders reflected\n", count);

    /* malformed input fails with a phrase */
    uint32_t junk[8] = {0x07230203u, 0x00010600u, 0, 100, 0, 0x00ff0011u, 0, 0};
    vf_spirv_info info;
    char why[256] = "";
    CHECK(!vf_spirv_reflect(junk, sizeof junk, &info, why, sizeof why) && why[0]);
    CHECK(!vf_spirv_reflect(junk, 8, &info, why, sizeof why));
}

typedef const vf_sim_pass *(*table_fn)(uint32_t *count);

static void check_table(const char *family, table_fn fn)
{
    uint32_t n = 0;
    const vf_sim_pass *t = fn(&n);
    CHECK_MSG(n > 0, "%s: an empty pass table", family);
    for (uint32_t i = 0; i < n; i++) {
        const vf_compute_desc *d = &t[i].desc;
        vf_spirv_info info;
        char why[256] = "";
        if (!CHECK_MSG(vf_spirv_reflect_shader(d->shader, &info, why, sizeof why), "%s row %u (%s): %s", family, i,
                       d->shader, why))
            continue;
        CHECK_MSG(info.push_size == d->push_size, "%s row %u (%s): the shader's push block is %u bytes, the row's push %u",
                  family, i, d->shader, info.push_size, d->push_size);
        CHECK_MSG(!d->local_size_x || (info.have_local_size && info.local_size[0] == d->local_size_x),
                  "%s row %u (%s): local_x %u, the shader's workgroup x %u", family, i, d->shader, d->local_size_x,
                  info.local_size[0]);
    }
    printf("  %s: %u rows checked against their shaders\n", family, n);
}

static void test_tables(void)
{
    vf_test_section("pass tables against their SPIR-V");
    check_table("height", vf_height_pass_table);
    check_table("terrain", vf_terrain_pass_table);
    check_table("grid", vf_grid_pass_table);
    check_table("grid3d", vf_grid3d_pass_table);
    check_table("sph", vf_sph_pass_table);
    check_table("pbf", vf_pbf_pass_table);
    check_table("dfsph", vf_dfsph_pass_table);
    check_table("foam", vf_foam_pass_table);
    check_table("mesh", vf_mesh_pass_table);
}

static void test_render_table(void)
{
    vf_test_section("render pipelines against their SPIR-V");
    for (int i = 0; i < VF_RP_COUNT; i++) {
        const vf_render_pipe_row *r = vf_render_pipe_row_of((vf_render_pipe)i);
        vf_spirv_info a, b;
        char why[256] = "";
        if (!CHECK_MSG(vf_spirv_reflect_shader(r->shader, &a, why, sizeof why), "render row %d (%s): %s", i, r->shader,
                       why))
            continue;
        uint32_t push = a.push_size;
        if (r->fragment) {
            if (!CHECK_MSG(vf_spirv_reflect_shader(r->fragment, &b, why, sizeof why), "render row %d (%s): %s", i,
                           r->fragment, why))
                continue;
            push = b.push_size > push ? b.push_size : push;
            for (int k = 0; k < VF_MAX_BINDINGS; k++)
                CHECK_MSG(!(a.slot_mask & b.slot_mask & (1u << k)) || a.types[k] == b.types[k],
                          "render row %d: slot %d has two types in %s and %s", i, k, r->shader, r->fragment);
        }
        CHECK_MSG(push == r->push_size, "render row %d (%s): the shaders' push block is %u bytes, the row's push %u", i,
                  r->name, push, r->push_size);
        CHECK_MSG(!r->local_size_x || (a.have_local_size && a.local_size[0] == r->local_size_x),
                  "render row %d (%s): local_x %u, the shader's workgroup x %u", i, r->shader, r->local_size_x,
                  a.local_size[0]);
    }
    printf("  %d render pipelines checked against their shaders\n", (int)VF_RP_COUNT);
    CHECK(vf_render_pipe_row_of(VF_RP_COUNT) == NULL);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_reflection();
    test_tables();
    test_render_table();
    return vf_test_finish();
}
