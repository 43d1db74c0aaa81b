/* vkfluid selftest: checks that the GPU runs what vkfluid needs, against CPU
 * references: the prefix sum, a compute pipeline, a graphics pipeline with
 * dynamic rendering, readback and timestamps. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "app_gpu.h"
#include "gpu_buffer.h"
#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "gpu_profiler.h"
#include "gpu_scan.h"
#include "shared.h"
#include "options.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: vkfluid selftest [--device INDEX|NAME] [--count N]\n"
               "\n"
               "Runs the GPU self-test: an exclusive prefix sum of N random uint32 (default\n"
               "1000003) against a CPU scan, a compute pipeline, a graphics pipeline drawn\n"
               "offscreen and read back, and GPU timestamps. Prints one line per check and\n"
               "exits 0 when all pass, 1 when one fails.\n"
               "\n"
               "options:\n"
               "  --device INDEX|NAME  the device to test (see vkfluid devices)\n"
               "  --count N            prefix-sum length, 1..67108864\n");
}

static uint32_t xorshift(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

static int check_scan(vf_gpu *gpu, uint64_t n)
{
    vf_scan *scan = NULL;
    uint32_t *data = malloc(n * 4), *ref = malloc(n * 4);
    int failed = 1;
    if (!data || !ref)
        goto done;
    uint32_t seed = 12345;
    for (uint64_t i = 0; i < n; i++)
        data[i] = xorshift(&seed) % 1000;
    vf_scan_cpu(data, ref, n);
    vf_scan_desc sd = {.max_count = n};
    vf_result res = vf_scan_create(gpu, &sd, &scan);
    if (res == VF_OK)
        res = vf_scan_run(scan, data, n);
    if (res != VF_OK) {
        printf("FAIL prefix sum: %s\n", vf_result_message(res));
        goto done;
    }
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < n; i++)
        if (data[i] != ref[i] && bad++ == 0)
            first = i;
    if (bad)
        printf("FAIL prefix sum of %llu: %llu wrong, first at %llu (%u vs %u)\n", (unsigned long long)n,
               (unsigned long long)bad, (unsigned long long)first, data[first], ref[first]);
    else
        printf("ok   prefix sum of %llu elements matches the CPU scan\n", (unsigned long long)n);
    failed = bad != 0;
done:
    vf_scan_destroy(&scan);
    free(data);
    free(ref);
    return failed;
}

static int check_compute_and_graphics(vf_gpu *gpu)
{
    int failed = 0;
    const uint32_t n = 70001, w = 64, h = 48;
    vf_buffer *buf = NULL;
    vf_pipeline *fill = NULL, *tri = NULL;
    vf_image *img = NULL;
    vf_profiler *prof = NULL;
    VkCommandBuffer cmd;
    uint32_t *host = malloc(n * 4);
    uint8_t *pix = malloc((size_t)w * h * 4);
    vf_result res = host && pix ? VF_OK : VF_ERR_NO_MEMORY;
    vf_buffer_desc bd = {.size = n * 4, .name = "selftest buffer"};
    vf_compute_desc cd = {.shader = "selftest_fill.comp",
                          .push_size = sizeof(vf_selftest_push)};
    vf_graphics_desc gd = {.vertex_shader = "selftest_tri.vert", .fragment_shader = "selftest_tri.frag",
                           .push_size = sizeof(vf_selftest_push), .color_count = 1,
                           .color_formats = {VK_FORMAT_R8G8B8A8_UNORM}};
    vf_image_desc id = {.width = w, .height = h, .format = VK_FORMAT_R8G8B8A8_UNORM,
                        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, .name = "selftest target"};
    if (res == VF_OK) res = vf_buffer_create(gpu, &bd, &buf);
    if (res == VF_OK) res = vf_pipeline_compute_create(gpu, &cd, &fill);
    if (res == VF_OK) res = vf_pipeline_graphics_create(gpu, &gd, &tri);
    if (res == VF_OK) res = vf_image_create(gpu, &id, &img);
    if (res == VF_OK) res = vf_profiler_create(gpu, NULL, &prof);
    if (res == VF_OK) res = vf_cmd_oneshot_begin(gpu, &cmd);
    if (res != VF_OK) {
        printf("FAIL pipelines: %s\n", vf_result_message(res));
        failed = 1;
        goto done;
    }
    vf_profiler_reset(prof, cmd, 0);
    vf_selftest_push pc = {.color = {0.2f, 0.6f, 1.0f, 1.0f}, .width = n, .height = 1};
    vf_binding b = vf_bind_buffer(buf);
    uint32_t s = vf_profiler_begin(prof, cmd, "selftest compute");
    vf_cmd_dispatch_1d(cmd, fill, &b, &pc, n);
    vf_profiler_end(prof, cmd, s);
    s = vf_profiler_begin(prof, cmd, "selftest draw");
    vf_image_transition(cmd, img, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, 0,
                        VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo ca = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = img->view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    };
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, {w, h}},
        .layerCount = 1,
        .colorAttachmentCount = 1,
        .pColorAttachments = &ca,
    };
    vkCmdBeginRendering(cmd, &ri);
    VkViewport vp = {0, 0, (float)w, (float)h, 0, 1};
    VkRect2D sc = {{0, 0}, {w, h}};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &sc);
    vf_selftest_push gp = pc;
    gp.width = w;
    gp.height = h;
    vf_cmd_bind(cmd, tri, NULL, &gp);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
    vf_profiler_end(prof, cmd, s);
    vf_image_transition(cmd, img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    if ((res = vf_cmd_oneshot_submit(gpu, cmd)) == VF_OK)
        res = vf_buffer_read(buf, 0, host, n * 4);
    if (res == VF_OK)
        res = vf_image_read(img, pix, (VkDeviceSize)w * h * 4);
    if (res != VF_OK) {
        printf("FAIL submit or readback: %s\n", vf_result_message(res));
        failed = 1;
        goto done;
    }
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += host[i] != 3u * i + 1u;
    printf("%s compute pipeline: %u of %u values wrong\n", bad ? "FAIL" : "ok  ", bad, n);
    failed |= bad != 0;
    bad = 0;
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *p = pix + ((size_t)y * w + x) * 4;
            float k = x < w / 2 ? 0.5f : 1.0f;
            int want[3] = {(int)(0.2f * k * 255 + 0.5f), (int)(0.6f * k * 255 + 0.5f), (int)(1.0f * k * 255 + 0.5f)};
            for (int c = 0; c < 3; c++)
                bad += abs((int)p[c] - want[c]) > 1;
        }
    printf("%s graphics pipeline: %u of %u channel values wrong\n", bad ? "FAIL" : "ok  ", bad, w * h * 3);
    failed |= bad != 0;
    vf_pass_time t[4];
    uint32_t nt = 0;
    if (vf_profiler_collect(prof, 0, t, 4, &nt) == VF_OK && nt == 2)
        printf("%s timestamps: %s %.3f ms, %s %.3f ms\n", vf_profiler_supported(prof) ? "ok  " : "note", t[0].name, t[0].ms,
               t[1].name, t[1].ms);
    else {
        printf("FAIL timestamps: %u scopes read\n", nt);
        failed = 1;
    }
done:
    vf_profiler_destroy(&prof);
    vf_image_destroy(&img);
    vf_pipeline_destroy(&tri);
    vf_pipeline_destroy(&fill);
    vf_buffer_destroy(&buf);
    free(host);
    free(pix);
    return failed;
}

int vf_cmd_selftest(int argc, char **argv)
{
    const char *device = NULL;
    long long count = 1000003;
    bool help = false;
    const vf_opt opts[] = {
        {.name = "--device", .type = VF_OPT_TEXT, .out = &device},
        {.name = "--count", .type = VF_OPT_INT, .out = &count, .min = 1, .max = 1ll << 26},
    };
    int prc = vf_opt_parse("selftest", argc, argv, VF_OPT_TABLE(opts), &help, NULL);
    if (prc)
        return prc;
    if (help) {
        usage(stdout);
        return VF_EXIT_OK;
    }
    vf_gpu *gpu = NULL;
    int rc = vf_app_gpu_open(device, false, NULL, 0, &gpu);
    if (rc)
        return rc;
    printf("device: %s (%s, %s)\n", gpu->info.name, vf_device_type_name(gpu->info.type), gpu->info.driver_info);
    int failed = check_scan(gpu, (uint64_t)count);
    failed |= check_compute_and_graphics(gpu);
    int close_rc = vf_app_gpu_close(&gpu);
    if (failed) {
        vf_app_error("the gpu self-test failed (see the FAIL lines above)");
        return VF_EXIT_FAIL;
    }
    if (close_rc)
        return close_rc;
    printf("self-test passed\n");
    return VF_EXIT_OK;
}
