/* Work accounting (gpu_counters): the counts of dispatches, barriers,
 * submits and bound bytes that the recording helpers report, on small cases
 * whose commands are known: a two-level prefix sum, Jacobi pressure
 * iterations and one multigrid V-cycle of the grid solver, and frames of the
 * height field; the scan and the grid again on the descriptor-set path. */
#include <stdlib.h>

#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "gpu_scan.h"
#include "shared.h"
#include "solver_grid.h"
#include "solver_height.h"
#include "testlib.h"

/* A scan of 3 blocks: one block-scan dispatch writing 3 block sums, a
 * barrier, a single-block scan of the sums, a barrier, one add dispatch. */
static void test_scan(vf_gpu *gpu)
{
    vf_test_section("two-level scan");
    const uint64_t n = 3 * VF_SCAN_BLOCK;
    vf_scan *scan = NULL;
    vf_buffer *buf = NULL;
    vf_scan_desc sd = {.max_count = n};
    vf_buffer_desc bd = {.size = n * 4, .name = "test counters scan"};
    if (!CHECK(vf_scan_create(gpu, &sd, &scan) == VF_OK) || !CHECK(vf_buffer_create(gpu, &bd, &buf) == VF_OK))
        goto done;
    vf_gpu_counters c;
    vf_gpu_counters_reset(&c);
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        goto done;
    vkCmdFillBuffer(cmd, buf->buffer, 0, VK_WHOLE_SIZE, 1);
    vf_cmd_barrier_transfer_to_compute(cmd);
    vf_gpu_counters_attach(gpu, &c);
    CHECK(vf_scan_record(scan, cmd, buf, 0, n) == VF_OK);
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    vf_gpu_counters_attach(gpu, NULL);
    const vf_kernel_count *blk = vf_gpu_counters_kernel(&c, "scan block");
    const vf_kernel_count *add = vf_gpu_counters_kernel(&c, "scan add");
    printf("  dispatches %llu, barriers %llu, submits %llu, bytes %llu\n", (unsigned long long)c.dispatches,
           (unsigned long long)c.barriers, (unsigned long long)c.submits, (unsigned long long)c.bytes);
    CHECK_MSG(c.dispatches == 3, "dispatches %llu, want 3", (unsigned long long)c.dispatches);
    CHECK_MSG(c.barriers == 2, "barriers %llu, want 2", (unsigned long long)c.barriers);
    CHECK_MSG(c.submits == 1, "submits %llu, want 1", (unsigned long long)c.submits);
    CHECK(c.draws == 0 && c.indirect_dispatches == 0);
    if (CHECK(blk && add)) {
        CHECK_MSG(blk->dispatches == 2 && add->dispatches == 1, "block %llu add %llu", (unsigned long long)blk->dispatches,
                  (unsigned long long)add->dispatches);
        /* block: (n words + sums) + (3 sums + sums); add: n words + sums */
        CHECK_MSG((int64_t)blk->bytes - 2 * (int64_t)add->bytes == 12 - (int64_t)n * 4,
                  "block bytes %llu, add bytes %llu", (unsigned long long)blk->bytes, (unsigned long long)add->bytes);
        CHECK(c.bytes == blk->bytes + add->bytes);
    }
    /* detached: nothing more is counted */
    vf_gpu_counters before = c;
    if (CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
        CHECK(vf_scan_record(scan, cmd, buf, 0, n) == VF_OK);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    }
    CHECK(c.dispatches == before.dispatches && c.barriers == before.barriers && c.submits == before.submits);
done:
    vf_buffer_destroy(&buf);
    vf_scan_destroy(&scan);
}

static bool count_pressure(vf_gpu *gpu, vf_grid *g, vf_grid_pressure m, uint32_t iters, vf_gpu_counters *c)
{
    vf_gpu_counters_reset(c);
    VkCommandBuffer cmd;
    if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
        return false;
    vf_cmd_barrier_frame_start(cmd);
    vf_gpu_counters_attach(gpu, c);
    bool ok = CHECK(vf_grid_record_pressure_iterations(g, cmd, m, iters) == VF_OK);
    vf_gpu_counters_attach(gpu, NULL);
    return CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK) && ok;
}

/* Jacobi: several iterations per dispatch (grid_jacobi.comp), one barrier
 * per dispatch, an even count of dispatches: on 64 x 32 cells, 10 iterations
 * take 2 (5 each) whether a workgroup's region is 64 cells wide (2 tiles of
 * 54) or 32 (the smallest; 6 tiles of 22, against 6 tiles of 26 for 4
 * dispatches of 3 iterations). Without solids the
 * open-domain variant runs and binds only x, b and the output in full (the
 * face weights, which it never reads, by their first element); with an
 * obstacle every dispatch binds the two face-weight arrays too. */
static void test_jacobi(vf_gpu *gpu, bool obstacle)
{
    const uint32_t nx = 64, ny = 32;
    vf_grid_desc d = {.nx = nx, .ny = ny, .width = 2.0, .dt = 0.02, .pressure = VF_GRID_PRESSURE_JACOBI};
    if (obstacle)
        d.obstacles[0] = (vf_grid_obstacle){.shape = VF_GRID_SHAPE_DISC, .cx = 1.0f, .cy = 0.5f, .radius = 0.2f};
    vf_grid *g = vf_test_grid(gpu, &d);
    if (!g)
        return;
    vf_gpu_counters c;
    if (count_pressure(gpu, g, VF_GRID_PRESSURE_JACOBI, 10, &c)) {
        printf("  jacobi x10 %s: dispatches %llu, barriers %llu, bytes %llu\n", obstacle ? "with an obstacle" : "open",
               (unsigned long long)c.dispatches, (unsigned long long)c.barriers, (unsigned long long)c.bytes);
        uint64_t n = vf_grid_jacobi_dispatches(g, 10);
        CHECK_MSG(n == 2, "10 iterations in %llu dispatches, want 2", (unsigned long long)n);
        CHECK_MSG(c.dispatches == n && c.barriers == n, "dispatches %llu barriers %llu, want %llu and %llu",
                  (unsigned long long)c.dispatches, (unsigned long long)c.barriers, (unsigned long long)n,
                  (unsigned long long)n);
        uint64_t cells = (uint64_t)nx * ny * 4, faces = ((uint64_t)(nx + 1) * ny + (uint64_t)nx * (ny + 1)) * 4;
        uint64_t per = n ? c.bytes / n : 0;
        CHECK_MSG(n && c.bytes % n == 0 && per >= 3 * cells, "bytes %llu: want %llu x at least %llu",
                  (unsigned long long)c.bytes, (unsigned long long)n, (unsigned long long)(3 * cells));
        if (obstacle)
            CHECK_MSG(per >= 3 * cells + faces, "with an obstacle the weights are bound: %llu per dispatch",
                      (unsigned long long)per);
        else
            CHECK_MSG(per < 3 * cells + faces / 2, "open: the weights are not bound in full: %llu per dispatch",
                      (unsigned long long)per);
        CHECK(c.kernel_count == 1);
        const vf_kernel_count *k = vf_gpu_counters_kernel(&c, obstacle ? "grid_jacobi.comp" : "grid_jacobi.comp open");
        CHECK_MSG(k && k->dispatches == n, "the %s Jacobi variant ran", obstacle ? "general" : "open");
    }
    vf_grid_destroy(&g);
}

/* One V-cycle over L levels: per level above the tail level one tiled
 * pre-smoothing pass, one residual-and-restriction pass and one tiled pass
 * of prolongation and post-smoothing (at most R / 4 half-sweeps each, R = 4
 * x the tile kernel's workgroup side: 8 or 16, so 2 + 1 sweeps fit); one
 * dispatch (grid_mg_tail.comp, one workgroup) for the tail level and every
 * coarser one. The tail level is the finest whose V-cycle
 * fits the device's shared memory: x of that level plus x and b of each
 * coarser one, 4 bytes a cell. */
static void count_vcycle(vf_gpu *gpu, uint32_t nx, uint32_t ny, uint32_t want_levels, uint32_t want_tail)
{
    vf_grid_desc d = {.nx = nx, .ny = ny, .width = 2.0, .dt = 0.02, .pressure = VF_GRID_PRESSURE_MULTIGRID, .mg_pre = 2,
                      .mg_post = 1};
    vf_grid *g = vf_test_grid(gpu, &d);
    if (!g)
        return;
    vf_gpu_counters c;
    uint32_t levels = vf_grid_levels(g), tail = vf_grid_tail_level(g);
    uint64_t want = (uint64_t)want_tail * 3 + 1;
    CHECK_EQ_INT(levels, want_levels);
    CHECK_EQ_INT(tail, want_tail);
    if (count_pressure(gpu, g, VF_GRID_PRESSURE_MULTIGRID, 1, &c)) {
        printf("  V-cycle over %u levels of %u x %u, tail from level %u: dispatches %llu (want %llu), barriers %llu\n",
               levels, nx, ny, tail, (unsigned long long)c.dispatches, (unsigned long long)want,
               (unsigned long long)c.barriers);
        CHECK(c.dispatches == want && c.barriers == want);
        const vf_kernel_count *k = vf_gpu_counters_kernel(&c, "grid_mg_tail.comp open");
        CHECK_MSG(k && k->dispatches == 1, "the open tail kernel ran once");
        k = vf_gpu_counters_kernel(&c, "grid_mg_smooth_tile.comp open");
        CHECK_MSG(want_tail == 0 ? !k : k && k->dispatches == 2 * want_tail, "two tiled smoothing passes a level");
    }
    vf_grid_destroy(&g);
}

static void test_vcycle(vf_gpu *gpu)
{
    uint32_t shared = gpu->props.limits.maxComputeSharedMemorySize;
    /* 64 x 32, 32 x 16, 16 x 8: 2048 + 2 (512 + 128) floats = 13 312 bytes,
     * within the 16 KiB every Vulkan device has: the whole cycle is one pass */
    count_vcycle(gpu, 64, 32, 3, 0);
    /* 256 x 128 down to 16 x 8: from level 1, 8192 + 2 (2048 + 512 + 128)
     * floats = 54 272 bytes; from level 2, 13 312 bytes */
    count_vcycle(gpu, 256, 128, 5, shared >= 54272 ? 1 : 2);
}

static void test_grid(vf_gpu *gpu)
{
    vf_test_section("grid pressure iterations");
    test_jacobi(gpu, false);
    test_jacobi(gpu, true);
    test_vcycle(gpu);
}

/* One height frame of 3 substeps with volume_fix and objects: the explicit
 * step 3 times, the last in its variant with the volume sum, then one
 * frame-end dispatch (objects and correction): 4 dispatches, and 5 barriers
 * (the part's first, then one per dispatch). Under ADI a substep is 3
 * passes (right-hand side, row and column sweeps), the last column sweep
 * summing. Without volume_fix and
 * objects the substeps alone. */
static void count_height_frame(vf_gpu *gpu, int integrator, bool fix, int leaves, uint64_t want_dispatches)
{
    vf_height_desc d;
    vf_height_desc_defaults(&d);
    d.nx = 48;
    d.ny = 40;
    d.integrator = integrator;
    d.volume_fix = fix;
    d.leaves = leaves;
    d.ducks = 0;
    d.boat = false;
    d.rain = 0;
    d.dt = 0.5 * vf_height_explicit_limit(&d);
    d.frame_dt = 3 * d.dt;
    vf_solver *s = vf_test_height_solver(gpu, &d);
    if (!s)
        return;
    vf_gpu_counters c;
    vf_gpu_counters_reset(&c);
    VkCommandBuffer cmd;
    if (CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
        vf_gpu_counters_attach(gpu, &c);
        CHECK(vf_solver_record_frame(s, cmd, NULL) == VF_OK);
        vf_gpu_counters_attach(gpu, NULL);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        CHECK(vf_solver_frame_done(s) == VF_OK);
    }
    printf("height %s, volume_fix %s, %d objects: %llu substeps, %llu dispatches, %llu barriers\n",
           integrator ? "adi" : "explicit", fix ? "on" : "off", leaves, (unsigned long long)s->steps,
           (unsigned long long)c.dispatches, (unsigned long long)c.barriers);
    CHECK_EQ_U64(s->steps, 3);
    CHECK_EQ_U64(c.dispatches, want_dispatches);
    CHECK_EQ_U64(c.barriers, want_dispatches + 1);
    const char *last = integrator ? "height_adi_y.comp volume" : "height_explicit.comp volume";
    const vf_kernel_count *k = vf_gpu_counters_kernel(&c, last);
    CHECK_EQ_U64(k ? k->dispatches : 0, fix ? 1 : 0);
    k = vf_gpu_counters_kernel(&c, "height_frame_end.comp");
    CHECK_EQ_U64(k ? k->dispatches : 0, fix || leaves ? 1 : 0);
    vf_solver_destroy(&s);
}

static void test_height(vf_gpu *gpu)
{
    vf_test_section("height frames");
    count_height_frame(gpu, VF_HEIGHT_INT_EXPLICIT, true, 5, 3 + 1);
    count_height_frame(gpu, VF_HEIGHT_INT_ADI, true, 5, 3 * 3 + 1);
    count_height_frame(gpu, VF_HEIGHT_INT_EXPLICIT, false, 5, 3 + 1);
    count_height_frame(gpu, VF_HEIGHT_INT_EXPLICIT, false, 0, 3);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    test_scan(gpu);
    test_grid(gpu);
    test_height(gpu);
    bool pushed = gpu->push_descriptors;
    vf_test_gpu_done(&gpu);
    /* The scan and the grid's counts again on the descriptor-set path (the
     * only path of devices without push descriptors, SwiftShader among them):
     * binding sets must count the same commands and bytes. */
    if (pushed) {
        vf_gpu_desc sd = {.descriptor_sets = true}; /* validation as vf_test_gpu's */
        printf("descriptor sets, forced:\n");
        if (CHECK(vf_gpu_create(&sd, &gpu) == VF_OK) && CHECK(!gpu->push_descriptors)) {
            test_scan(gpu);
            test_grid(gpu);
        }
        vf_test_gpu_done(&gpu);
    }
    return vf_test_finish();
}
