/* GPU exclusive prefix sum against the CPU scan, at the lengths the
 * foundation promises, with validation (and synchronization validation) on. */
#include <stdlib.h>

#include "gpu_scan.h"
#include "testlib.h"

static uint32_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static void check_length(vf_scan *scan, uint64_t n, uint32_t maxval)
{
    uint32_t *data = malloc(n * 4), *ref = malloc(n * 4);
    if (!CHECK(data && ref))
        goto done;
    uint64_t seed = n * 7919u + 1;
    for (uint64_t i = 0; i < n; i++)
        data[i] = maxval ? rng(&seed) % maxval : rng(&seed);
    vf_scan_cpu(data, ref, n);
    vf_result res = vf_scan_run(scan, data, n);
    CHECK_MSG(res == VF_OK, "scan of %llu: %s", (unsigned long long)n, vf_result_message(res));
    uint64_t bad = 0, first = 0;
    for (uint64_t i = 0; i < n; i++)
        if (data[i] != ref[i] && bad++ == 0)
            first = i;
    CHECK_MSG(bad == 0, "scan of %llu: %llu wrong, first at %llu: gpu %u cpu %u", (unsigned long long)n,
              (unsigned long long)bad, (unsigned long long)first, data[first], ref[first]);
    printf("length %llu: %s\n", (unsigned long long)n, bad ? "MISMATCH" : "ok");
done:
    free(data);
    free(ref);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    const uint64_t big = (1ull << 26) + 3; /* beyond lavapipe's 2^25-word binding range: chunked */
    vf_scan *scan = NULL;
    vf_scan_desc sd = {.max_count = big};
    CHECK(vf_scan_create(gpu, &sd, &scan) == VF_OK);
    if (scan) {
        const uint64_t lengths[] = {1, 2, 255, 256, 257, 1023, 1024, 1025, 65537};
        for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
            check_length(scan, lengths[i], 1000);
        uint64_t seed = 42;
        uint64_t random_len = 1000001 + rng(&seed) % 3000000;
        check_length(scan, random_len, 0); /* full-range values: wrapping arithmetic */
        check_length(scan, big, 16);
        CHECK(vf_scan_run(scan, (uint32_t[]){1}, 0) == VF_ERR_INVALID_ARG);
        CHECK(vf_scan_run(scan, (uint32_t[]){1}, big + 1) == VF_ERR_INVALID_ARG);
    }
    vf_scan_destroy(&scan);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
