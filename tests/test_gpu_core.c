/* Vulkan core: device choice, buffers, images, pipelines, dispatch indexing,
 * profiler, and proof that the validation messenger (with synchronization
 * validation) really counts messages. */
#include <stdlib.h>
#include <string.h>

#include "gpu_buffer.h"
#include "gpu_cmd.h"
#include "gpu_descriptors.h"
#include "gpu_limits.h"
#include "gpu_shaders.h"
#include "gpu_pipeline.h"
#include "gpu_profiler.h"
#include "gpu_spirv.h"
#include "shared_grid.h"
#include "testlib.h"

static void test_device_choice(void)
{
    vf_test_section("device choice");
    vf_device_info d[3] = {0};
    d[0].type = VK_PHYSICAL_DEVICE_TYPE_CPU;
    d[1].type = VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    d[2].type = VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    snprintf(d[0].name, sizeof d[0].name, "llvmpipe (LLVM 15)");
    snprintf(d[1].name, sizeof d[1].name, "Intel(R) UHD Graphics");
    snprintf(d[2].name, sizeof d[2].name, "NVIDIA H100 80GB HBM3");
    for (int i = 0; i < 3; i++)
        d[i].usable = true;
    uint32_t idx = 99;
    CHECK(vf_gpu_pick_default(d, 3, &idx) && idx == 2);
    d[2].usable = false;
    CHECK(vf_gpu_pick_default(d, 3, &idx) && idx == 1);
    d[1].usable = false;
    CHECK(vf_gpu_pick_default(d, 3, &idx) && idx == 0);
    d[0].usable = false;
    CHECK(!vf_gpu_pick_default(d, 3, &idx));
    CHECK(vf_gpu_match_device(d, 3, "1", &idx) == VF_OK && idx == 1);
    CHECK(vf_gpu_match_device(d, 3, "3", &idx) == VF_ERR_DEVICE_NOT_FOUND);
    CHECK(vf_gpu_match_device(d, 3, "99", &idx) == VF_ERR_DEVICE_NOT_FOUND);
    CHECK(vf_gpu_match_device(d, 3, "h100", &idx) == VF_OK && idx == 2);
    CHECK(vf_gpu_match_device(d, 3, "LLVMPIPE", &idx) == VF_OK && idx == 0);
    CHECK(vf_gpu_match_device(d, 3, "radeon", &idx) == VF_ERR_DEVICE_NOT_FOUND);
    CHECK(vf_gpu_match_device(d, 3, "", &idx) == VF_ERR_DEVICE_NOT_FOUND);
}

static void test_buffers(vf_gpu *gpu)
{
    vf_test_section("buffers");
    vf_buffer *b = NULL;
    vf_buffer_desc bd = {.size = 4096, .name = "test buffer"};
    CHECK(vf_buffer_create(gpu, &bd, &b) == VF_OK);
    uint32_t src[1024], dst[1024];
    for (int i = 0; i < 1024; i++)
        src[i] = (uint32_t)i * 2654435761u;
    CHECK(vf_buffer_write(b, 0, src, sizeof src) == VF_OK);
    CHECK(vf_buffer_read(b, 0, dst, sizeof dst) == VF_OK);
    CHECK(memcmp(src, dst, sizeof src) == 0);
    CHECK(vf_buffer_fill(b, 1024, 2048, 0xdeadbeefu) == VF_OK);
    CHECK(vf_buffer_read(b, 0, dst, sizeof dst) == VF_OK);
    CHECK_EQ_U64(dst[255], src[255]);
    CHECK_EQ_U64(dst[256], 0xdeadbeefu);
    CHECK_EQ_U64(dst[767], 0xdeadbeefu);
    CHECK_EQ_U64(dst[768], src[768]);
    CHECK(vf_buffer_read(b, 4000, dst, 200) == VF_ERR_INVALID_ARG); /* past the end */
    vf_buffer_destroy(&b);
    CHECK(b == NULL);
    vf_buffer_destroy(&b); /* NULL is fine */
    vf_buffer_destroy(NULL);
    bd.size = 0;
    CHECK(vf_buffer_create(gpu, &bd, &b) == VF_ERR_INVALID_ARG);
    bd.size = 1ull << 50; /* a petabyte: no heap that big */
    vf_result res = vf_buffer_create(gpu, &bd, &b);
    CHECK_MSG(res == VF_ERR_TOO_LARGE || res == VF_ERR_OUT_OF_DEVICE_MEMORY, "huge buffer: %s", vf_result_name(res));
    CHECK(b == NULL);
}

static void test_images(vf_gpu *gpu)
{
    vf_test_section("images");
    vf_image *img = NULL;
    vf_image_desc id = {.width = 0, .height = 4, .format = VK_FORMAT_R8G8B8A8_UNORM};
    CHECK(vf_image_create(gpu, &id, &img) == VF_ERR_INVALID_ARG);
    id.width = gpu->props.limits.maxImageDimension2D + 1;
    CHECK(vf_image_create(gpu, &id, &img) == VF_ERR_TOO_LARGE);
    CHECK(img == NULL);
    vf_image_destroy(&img);
}

static void test_dispatch_and_profiler(vf_gpu *gpu)
{
    vf_test_section("dispatch indexing and profiler");
    vf_pipeline *p = NULL;
    vf_compute_desc cd = {.shader = "no_such_shader.comp"};
    CHECK(vf_pipeline_compute_create(gpu, &cd, &p) == VF_ERR_SHADER_NOT_FOUND);
    cd = (vf_compute_desc){.shader = "selftest_fill.comp", .push_size = sizeof(vf_selftest_push)};
    CHECK(vf_pipeline_compute_create(gpu, &cd, &p) == VF_OK);
    /* More groups than maxComputeWorkGroupCount[0] forces the split over y. */
    uint64_t n = (uint64_t)gpu->props.limits.maxComputeWorkGroupCount[0] * VF_WG_1D + 777;
    if (n > 24000000)
        n = 24000000; /* devices with huge x limits: still a good size */
    vf_buffer *b = NULL;
    vf_buffer_desc bd = {.size = n * 4, .name = "dispatch test"};
    vf_profiler *prof = NULL;
    CHECK(vf_buffer_create(gpu, &bd, &b) == VF_OK);
    CHECK(vf_profiler_create(gpu, NULL, &prof) == VF_OK);
    VkCommandBuffer cmd;
    if (p && b && prof && vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK) {
        vf_profiler_reset(prof, cmd, 0);
        vf_selftest_push pc = {.width = (uint32_t)n};
        vf_binding bind = vf_bind_buffer(b);
        uint32_t s0 = vf_profiler_begin(prof, cmd, "fill");
        vf_cmd_dispatch_1d(cmd, p, &bind, &pc, n);
        vf_profiler_end(prof, cmd, s0);
        vf_cmd_barrier_compute(cmd);
        uint32_t s1 = vf_profiler_begin(prof, cmd, "fill");
        vf_cmd_dispatch_1d(cmd, p, &bind, &pc, n);
        vf_profiler_end(prof, cmd, s1);
        uint32_t s2 = vf_profiler_begin(prof, cmd, "empty");
        vf_profiler_end(prof, cmd, s2);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        uint32_t *host = malloc(n * 4);
        CHECK(vf_buffer_read(b, 0, host, n * 4) == VF_OK);
        uint64_t bad = 0;
        for (uint64_t i = 0; i < n; i++)
            bad += host[i] != (uint32_t)(3 * i + 1);
        CHECK_EQ_U64(bad, 0);
        free(host);
        vf_pass_time t[8];
        uint32_t nt = 0;
        CHECK(vf_profiler_collect(prof, 0, t, 8, &nt) == VF_OK);
        CHECK_EQ_INT(nt, 2);
        if (nt == 2) {
            CHECK(!strcmp(t[0].name, "fill") && t[0].count == 2);
            CHECK(!strcmp(t[1].name, "empty") && t[1].count == 1);
            CHECK_MSG(t[0].ms > 0.0, "fill pass time %.4f ms must be positive", t[0].ms);
            CHECK(t[1].ms >= 0.0);
            printf("fill of %llu words twice: %.3f ms\n", (unsigned long long)n, t[0].ms);
        }
    }
    vf_profiler_destroy(&prof);

    /* a frame with more scopes than the slot holds: the extra ones are
     * refused and counted, and the slot's next use holds them all */
    vf_profiler_desc pd = {.max_scopes = 4, .slots = 2};
    CHECK(vf_profiler_create(gpu, &pd, &prof) == VF_OK);
    for (int use = 0; prof && use < 2; use++) {
        if (!CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK))
            break;
        vf_profiler_reset(prof, cmd, 1);
        static const char *const names[7] = {"a", "b", "c", "d", "e", "f", "g"};
        for (int k = 0; k < 7; k++)
            vf_profiler_end(prof, cmd, vf_profiler_begin(prof, cmd, names[k]));
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        vf_pass_time t[8];
        uint32_t nt = 0;
        CHECK(vf_profiler_collect(prof, 1, t, 8, &nt) == VF_OK);
        printf("profiler use %d: 7 scopes asked, %u collected, %u refused\n", use + 1, nt,
               vf_profiler_dropped(prof, 1));
        CHECK_EQ_INT(nt, use == 0 ? 4 : 7);
        CHECK_EQ_INT(vf_profiler_dropped(prof, 1), use == 0 ? 3 : 0);
        CHECK(nt >= 4 && !strcmp(t[nt - 1].name, names[nt - 1]));
    }
    vf_profiler_destroy(&prof);
    vf_buffer_destroy(&b);
    vf_pipeline_destroy(&p);
}

/* bench_copy.comp (the benchmark's shader copy bandwidth) against memcpy:
 * the first count uvec4 of src land in dst, nothing past them is written. */
static void test_bench_copy(vf_gpu *gpu)
{
    vf_test_section("bench copy kernel against memcpy");
    const uint32_t n = 100003, count = n - 5; /* uvec4 elements; a tail left alone */
    vf_pipeline *p = NULL;
    vf_buffer *src = NULL, *dst = NULL;
    uint32_t *in = malloc((size_t)n * 16), *out = malloc((size_t)n * 16), *want = malloc((size_t)n * 16);
    vf_compute_desc cd = {.shader = "bench_copy.comp",
                          .push_size = sizeof(vf_bench_copy_push)};
    vf_buffer_desc bd = {.size = (VkDeviceSize)n * 16, .name = "bench copy test src"};
    CHECK(in && out && want);
    CHECK(vf_pipeline_compute_create(gpu, &cd, &p) == VF_OK);
    CHECK(vf_buffer_create(gpu, &bd, &src) == VF_OK);
    bd.name = "bench copy test dst";
    CHECK(vf_buffer_create(gpu, &bd, &dst) == VF_OK);
    VkCommandBuffer cmd;
    if (in && out && want && p && src && dst && vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK) {
        for (uint32_t i = 0; i < 4 * n; i++)
            in[i] = i * 2654435761u;
        memset(want, 0xab, (size_t)n * 16); /* the fill below */
        memcpy(want, in, (size_t)count * 16);
        CHECK(vf_buffer_write(src, 0, in, (VkDeviceSize)n * 16) == VF_OK);
        vkCmdFillBuffer(cmd, dst->buffer, 0, VK_WHOLE_SIZE, 0xabababab);
        vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
        vf_binding bind[2] = {[VF_BENCH_COPY_BIND_SRC] = vf_bind_buffer(src),
                              [VF_BENCH_COPY_BIND_DST] = vf_bind_buffer(dst)};
        vf_bench_copy_push pc = {.count = count};
        vf_cmd_dispatch_1d(cmd, p, bind, &pc, count);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        CHECK(vf_buffer_read(dst, 0, out, (VkDeviceSize)n * 16) == VF_OK);
        uint64_t bad = 0;
        for (uint32_t i = 0; i < 4 * n; i++)
            bad += out[i] != want[i];
        CHECK_EQ_U64(bad, 0);
    }
    vf_buffer_destroy(&src);
    vf_buffer_destroy(&dst);
    vf_pipeline_destroy(&p);
    free(in), free(out), free(want);
}

/* Starts a section and creates a context of its own with validation (and
 * the descriptor-set path when asked); NULL (the failure checked) when it
 * cannot. */
static vf_gpu *own_gpu(const char *section, bool descriptor_sets)
{
    vf_test_section(section);
    vf_gpu_desc desc = {.validation = 1, .descriptor_sets = descriptor_sets};
    vf_gpu *gpu = NULL;
    if (!CHECK(vf_gpu_create(&desc, &gpu) == VF_OK))
        return NULL;
    return gpu;
}

/* A missing barrier between a dispatch that writes a buffer and one that
 * reads it must be reported by synchronization validation and counted: this
 * proves that the zero count every other test asserts is meaningful. (This
 * layer version deliberately ignores write-after-write through the same
 * descriptor, so the hazard here is read-after-write.) */
static void test_validation_counts_hazards(void)
{
    vf_gpu *gpu = own_gpu("synchronization validation catches a missing barrier", false);
    if (!gpu)
        return;
    CHECK(gpu->validation);
    vf_pipeline *fill = NULL, *add = NULL;
    vf_buffer *b = NULL, *o = NULL;
    vf_compute_desc cd = {.shader = "selftest_fill.comp", .push_size = sizeof(vf_selftest_push)};
    vf_compute_desc ad = {.shader = "scan_add.comp",
                          .push_size = sizeof(vf_scan_push), .local_size_x = VF_SCAN_WG};
    vf_buffer_desc bd = {.size = 4096, .name = "hazard written"};
    CHECK(vf_pipeline_compute_create(gpu, &cd, &fill) == VF_OK);
    CHECK(vf_pipeline_compute_create(gpu, &ad, &add) == VF_OK);
    CHECK(vf_buffer_create(gpu, &bd, &b) == VF_OK);
    bd.name = "hazard other";
    CHECK(vf_buffer_create(gpu, &bd, &o) == VF_OK);
    VkCommandBuffer cmd;
    if (fill && add && b && o && vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK) {
        vf_selftest_push pc = {.width = 1024};
        vf_binding wb = vf_bind_buffer(b);
        printf("(the next validation message is expected)\n");
        vf_cmd_dispatch_1d(cmd, fill, &wb, &pc, 1024);
        vf_binding rb[2] = {vf_bind_buffer(o), vf_bind_buffer(b)}; /* reads b: no barrier */
        vf_scan_push sp = {.count = 1024};
        vf_cmd_dispatch(cmd, add, rb, &sp, 1, 1, 1);
        vf_cmd_oneshot_submit(gpu, cmd);
    }
    vf_buffer_destroy(&b);
    vf_buffer_destroy(&o);
    vf_pipeline_destroy(&fill);
    vf_pipeline_destroy(&add);
    uint32_t count = vf_gpu_shutdown(&gpu);
    CHECK_MSG(count >= 1, "the hazard must produce at least one validation message, got %u", count);
}

/* Records `rounds` dispatches of selftest_fill over `bind` and submits them. */
static vf_result fill_rounds(vf_gpu *gpu, vf_pipeline *p, const vf_binding *bind, uint32_t words, int rounds)
{
    VkCommandBuffer cmd;
    vf_result res = vf_cmd_oneshot_begin(gpu, &cmd);
    if (res != VF_OK)
        return res;
    vf_selftest_push pc = {.width = words};
    for (int r = 0; r < rounds; r++) {
        if (r)
            vf_cmd_barrier_compute(cmd);
        vf_cmd_dispatch_1d(cmd, p, bind, &pc, words);
    }
    return vf_cmd_oneshot_submit(gpu, cmd);
}

/* The self-test's fill pipeline and a 4096-byte buffer called name, each
 * create checked (a failure leaves NULL). */
static void fill_and_buffer(vf_gpu *gpu, const char *name, vf_pipeline **p, vf_buffer **b)
{
    vf_compute_desc cd = {.shader = "selftest_fill.comp", .push_size = sizeof(vf_selftest_push)};
    vf_buffer_desc bd = {.size = 4096, .name = name};
    CHECK(vf_pipeline_compute_create(gpu, &cd, p) == VF_OK);
    CHECK(vf_buffer_create(gpu, &bd, b) == VF_OK);
}

/* The descriptor-set path (forced on a device that has push descriptors):
 * a steady loop allocates nothing, destroyed resources free their sets for
 * reuse, and a full cache fails the submit instead of running. */
static void test_descriptor_sets(void)
{
    vf_gpu *gpu = own_gpu("descriptor-set path: one set per combination, recycled, bounded", true);
    if (!gpu)
        return;
    CHECK(!gpu->push_descriptors);
    vf_pipeline *p = NULL;
    vf_buffer *b = NULL;
    fill_and_buffer(gpu, "set path", &p, &b);
    vf_buffer_desc bd = {.size = 4096, .name = "set path"};
    if (!p || !b || !CHECK(p->sets != NULL))
        goto done;
    uint32_t live = 0, allocated = 0;
    vf_set_cache_stats(p->sets, &live, &allocated);
    CHECK_EQ_INT(allocated, 0); /* nothing until the first bind */
    vf_binding bind = vf_bind_buffer(b);
    for (int frame = 0; frame < 3; frame++) {
        CHECK(fill_rounds(gpu, p, &bind, 1024, 20) == VF_OK);
        vf_set_cache_stats(p->sets, &live, &allocated);
        CHECK_MSG(live == 1 && allocated == VF_SET_CACHE_CHUNK, "frame %d: live %u allocated %u", frame, live, allocated);
    }
    uint32_t host[1024];
    CHECK(vf_buffer_read(b, 0, host, sizeof host) == VF_OK);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < 1024; i++)
        bad += host[i] != 3 * i + 1;
    CHECK_EQ_INT(bad, 0);
    /* 3 chunks' worth of buffers, each bound once then destroyed: the sets are reused */
    for (uint32_t i = 0; i < 3 * VF_SET_CACHE_CHUNK; i++) {
        vf_buffer *t = NULL;
        if (!CHECK(vf_buffer_create(gpu, &bd, &t) == VF_OK))
            break;
        vf_binding tb = vf_bind_buffer(t);
        CHECK(fill_rounds(gpu, p, &tb, 16, 1) == VF_OK);
        vf_buffer_destroy(&t);
    }
    vf_set_cache_stats(p->sets, &live, &allocated);
    CHECK_MSG(live == 1 && allocated == VF_SET_CACHE_CHUNK, "after recycling: live %u allocated %u", live, allocated);
    /* more live combinations (offsets into one buffer) than the cache holds */
    VkDeviceSize align = gpu->props.limits.minStorageBufferOffsetAlignment;
    if (align < 256)
        align = 256;
    vf_buffer *big = NULL;
    bd.size = align * (VF_SET_CACHE_MAX + 1);
    bd.name = "set path offsets";
    if (CHECK(vf_buffer_create(gpu, &bd, &big) == VF_OK)) {
        VkCommandBuffer cmd;
        if (CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
            vf_selftest_push pc = {.width = 16};
            for (uint32_t i = 0; i <= VF_SET_CACHE_MAX; i++) {
                vf_binding ob = {.buffer = big, .offset = i * align, .range = 64};
                vf_cmd_dispatch_1d(cmd, p, &ob, &pc, 16);
            }
            vf_result res = vf_cmd_oneshot_submit(gpu, cmd);
            CHECK_MSG(res == VF_ERR_SET_CACHE_FULL, "a full cache fails the submit: %s", vf_result_name(res));
        }
        vf_set_cache_stats(p->sets, &live, &allocated);
        CHECK_EQ_INT(allocated, VF_SET_CACHE_MAX);
        CHECK(fill_rounds(gpu, p, &bind, 16, 1) == VF_ERR_SET_CACHE_FULL); /* stays failed */
    }
    vf_buffer_destroy(&big);
done:
    vf_buffer_destroy(&b);
    vf_pipeline_destroy(&p);
    uint32_t count = vf_gpu_shutdown(&gpu);
    CHECK_MSG(count == 0, "the set path raises no validation message (got %u)", count);
}

/* The workgroup checks read the SPIR-V; a too-small limit is named. */
static void test_limits(vf_gpu *gpu)
{
    vf_test_section("limits: workgroup reflection, named limits, the min-desktop clamp");
    const vf_shader_blob *b = vf_shader_find("scan_block.comp");
    uint32_t size[3] = {0, 0, 0};
    uint64_t shared = 0;
    if (CHECK(b != NULL) && CHECK(vf_limits_reflect(b->code, b->size, size, &shared))) {
        CHECK_EQ_INT(size[0], VF_SCAN_WG);
        CHECK_EQ_INT(size[1] * size[2], 1);
        CHECK_EQ_U64(shared, VF_SCAN_WG * sizeof(uint32_t));
    }
    /* a workgroup size and a shared array sized by specialization constants
     * count at their defaults (the host sets them within the device's limits) */
    b = vf_shader_find("grid_mg_tail.comp");
    if (CHECK(b != NULL) && CHECK(vf_limits_reflect(b->code, b->size, size, &shared))) {
        CHECK_EQ_INT(size[0], VF_GRID_TAIL_DEFAULT_WG);
        CHECK_EQ_U64(shared, VF_GRID_TAIL_DEFAULT_FLOATS * sizeof(float));
    }
    char why[160] = "";
    VkPhysicalDeviceLimits l = gpu->props.limits;
    CHECK_MSG(vf_limits_check_shaders(&l, why, sizeof why), "this device runs every shader: %s", why);
    l.maxComputeSharedMemorySize = 16;
    CHECK(!vf_limits_check_shaders(&l, why, sizeof why));
    CHECK_STR_CONTAINS(why, "maxComputeSharedMemorySize is 16 bytes, shader ");
    l = gpu->props.limits;
    l.maxComputeWorkGroupInvocations = 8;
    CHECK(!vf_limits_check_shaders(&l, why, sizeof why));
    CHECK_STR_CONTAINS(why, "maxComputeWorkGroupInvocations is 8");
    l = gpu->props.limits;
    l.maxComputeWorkGroupSize[0] = 2;
    CHECK(!vf_limits_check_shaders(&l, why, sizeof why));
    CHECK_STR_CONTAINS(why, "maxComputeWorkGroupSize[0] is 2");
    l = gpu->props.limits;
    l.minStorageBufferOffsetAlignment = 4;
    l.maxComputeSharedMemorySize = 1u << 20;
    vf_limits_clamp_min_desktop(&l);
    CHECK_EQ_INT(l.minStorageBufferOffsetAlignment, 256);
    CHECK_EQ_INT(l.maxComputeSharedMemorySize, 32768);
    CHECK(l.maxComputeWorkGroupCount[0] <= 65535);
    /* mapped memory: flush and invalidate round to nonCoherentAtomSize (a no-op when coherent) */
    vf_buffer *up = NULL;
    vf_buffer_desc bd = {.size = 1000, .memory = VF_MEMORY_UPLOAD, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                         .name = "flush test"};
    if (CHECK(vf_buffer_create(gpu, &bd, &up) == VF_OK)) {
        CHECK(up->mapped != NULL);
        CHECK(vf_buffer_flush(up, 3, 17) == VF_OK);
        CHECK(vf_buffer_flush(up, 999, VK_WHOLE_SIZE) == VF_OK);
        CHECK(vf_buffer_invalidate(up, 0, 1000) == VF_OK);
        if (gpu->min_desktop)
            CHECK(!up->coherent);
    }
    vf_buffer_destroy(&up);
}

/* Under VKFLUID_LIMITS=min-desktop a buffer offset the device accepts but
 * the clamped 256-byte alignment does not fails the submit, naming the limit. */
static void test_offset_alignment(void)
{
    vf_gpu *gpu = own_gpu("buffer offsets against minStorageBufferOffsetAlignment", false);
    if (!gpu)
        return;
    VkPhysicalDeviceProperties real;
    vkGetPhysicalDeviceProperties(gpu->physical, &real);
    VkDeviceSize dev_align = real.limits.minStorageBufferOffsetAlignment;
    VkDeviceSize align = gpu->props.limits.minStorageBufferOffsetAlignment;
    printf("minStorageBufferOffsetAlignment: device %llu, used %llu%s\n", (unsigned long long)dev_align,
           (unsigned long long)align, gpu->min_desktop ? " (min-desktop)" : "");
    CHECK(align >= dev_align);
    vf_pipeline *p = NULL;
    vf_buffer *b = NULL;
    fill_and_buffer(gpu, "alignment", &p, &b);
    if (p && b) {
        vf_binding ok = {.buffer = b, .offset = align, .range = 256};
        CHECK(fill_rounds(gpu, p, &ok, 64, 1) == VF_OK);
        if (align > dev_align) {
            /* legal for the device, not for the limits vkfluid uses */
            vf_binding bad = {.buffer = b, .offset = dev_align, .range = 256};
            vf_result res = fill_rounds(gpu, p, &bad, 64, 1);
            CHECK_MSG(res == VF_ERR_MISALIGNED, "misaligned offset: %s", vf_result_name(res));
            CHECK_STR_CONTAINS(vf_result_message(res), "minStorageBufferOffsetAlignment");
        }
    }
    vf_buffer_destroy(&b);
    vf_pipeline_destroy(&p);
    uint32_t count = vf_gpu_shutdown(&gpu);
    CHECK_EQ_INT(count, 0);
}

/* A pipeline's set is its shaders' declarations: gaps stay gaps, a slot two
 * stages give different types and a push block larger than the pushed bytes
 * are refused. */
static void test_reflected_layouts(vf_gpu *gpu)
{
    vf_test_section("pipeline layouts from the SPIR-V");
    vf_spirv_info info;
    vf_pipeline *p = NULL;
    CHECK(vf_spirv_reflect_shader("dfsph_step.comp", &info, NULL, 0));
    vf_compute_desc cd = {.shader = "dfsph_step.comp", .push_size = info.push_size};
    if (CHECK(vf_pipeline_compute_create(gpu, &cd, &p) == VF_OK)) {
        CHECK_EQ_U64(p->slot_mask, info.slot_mask);
        CHECK(p->slot_mask != (1u << p->slot_count) - 1); /* the shader leaves slots out */
        for (uint32_t s = 0; s < p->slot_count; s++)
            CHECK(!(p->slot_mask & (1u << s)) || p->types[s] == info.types[s]);
    }
    vf_pipeline_destroy(&p);
    cd.push_size = info.push_size - 4;
    CHECK(vf_pipeline_compute_create(gpu, &cd, &p) == VF_ERR_INVALID_ARG && p == NULL);
    /* ssf_sphere.vert's slot 1 is a storage buffer, ssf_composite.frag's a sampled image */
    vf_graphics_desc gd = {.vertex_shader = "ssf_sphere.vert", .fragment_shader = "ssf_composite.frag",
                           .color_count = 1, .color_formats = {VK_FORMAT_R8G8B8A8_UNORM}, .name = "mismatch"};
    CHECK(vf_pipeline_graphics_create(gpu, &gd, &p) == VF_ERR_INVALID_ARG && p == NULL);
    gd.vertex_shader = "ssf_fullscreen.vert";
    if (CHECK(vf_pipeline_graphics_create(gpu, &gd, &p) == VF_OK)) {
        vf_spirv_info fs;
        CHECK(vf_spirv_reflect_shader("ssf_composite.frag", &fs, NULL, 0));
        CHECK_EQ_U64(p->slot_mask, fs.slot_mask);
        CHECK(p->types[1] == VF_BIND_SAMPLED_IMAGE);
    }
    vf_pipeline_destroy(&p);
}

/* The compute pipelines the context keeps: the same shader, specialisation
 * and push size give the same VkPipeline (created once); another push size
 * another; a pipeline destroyed leaves the context's objects to the others,
 * which still dispatch. */
static void test_kept_pipelines(vf_gpu *gpu)
{
    vf_test_section("compute pipelines kept by the context");
    vf_pipeline *a = NULL, *b = NULL, *c = NULL;
    vf_compute_desc cd = {.shader = "selftest_fill.comp", .push_size = sizeof(vf_selftest_push), .name = "kept a"};
    CHECK(vf_pipeline_compute_create(gpu, &cd, &a) == VF_OK);
    uint32_t kept = gpu->kept_count;
    cd.name = "kept b";
    CHECK(vf_pipeline_compute_create(gpu, &cd, &b) == VF_OK);
    cd.push_size += 4;
    CHECK(vf_pipeline_compute_create(gpu, &cd, &c) == VF_OK);
    if (!CHECK(a && b && c))
        goto done;
    printf("kept pipelines: %u after the first, %u after the third\n", kept, gpu->kept_count);
    CHECK(a->kept && b->kept && c->kept);
    CHECK_MSG(a->pipeline == b->pipeline && a->layout == b->layout && a->set_layout == b->set_layout,
              "the same shader, specialisation and push size: the same pipeline and layouts");
    CHECK_MSG(c->pipeline != a->pipeline && c->layout != a->layout, "another push size: another pipeline");
    CHECK_EQ_INT(gpu->kept_count, kept + 1);
    CHECK(!strcmp(b->name, "kept b")); /* each keeps its own name for the accounting */
    vf_pipeline_destroy(&a);
    const uint64_t n = 1000;
    vf_buffer *buf = NULL;
    vf_buffer_desc bd = {.size = n * 4, .name = "kept pipelines"};
    VkCommandBuffer cmd;
    if (CHECK(vf_buffer_create(gpu, &bd, &buf) == VF_OK) && CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK)) {
        vf_selftest_push pc = {.width = (uint32_t)n};
        vf_binding bind = vf_bind_buffer(buf);
        vf_cmd_dispatch_1d(cmd, b, &bind, &pc, n);
        CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
        uint32_t host[1000];
        uint64_t bad = 0;
        CHECK(vf_buffer_read(buf, 0, host, sizeof host) == VF_OK);
        for (uint64_t i = 0; i < n; i++)
            bad += host[i] != (uint32_t)(3 * i + 1);
        CHECK_MSG(bad == 0, "the second pipeline dispatches after the first is destroyed: %llu words wrong",
                  (unsigned long long)bad);
    }
    vf_buffer_destroy(&buf);
done:
    vf_pipeline_destroy(&a);
    vf_pipeline_destroy(&b);
    vf_pipeline_destroy(&c);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    /* this test checks the validation messenger itself: validation on in
     * every build, the sanitizer build's too (tests/tests.cmake sets it off) */
    setenv("VKFLUID_VALIDATION", "1", 1);
    test_device_choice();
    vf_gpu *gpu = vf_test_gpu();
    CHECK(gpu->validation);
    CHECK(gpu->info.subgroup_size >= 1);
    test_buffers(gpu);
    test_images(gpu);
    test_dispatch_and_profiler(gpu);
    test_bench_copy(gpu);
    test_limits(gpu);
    test_reflected_layouts(gpu);
    test_kept_pipelines(gpu);
    vf_test_gpu_done(&gpu);
    test_descriptor_sets();
    test_offset_alignment();
    test_validation_counts_hazards();
    return vf_test_finish();
}
