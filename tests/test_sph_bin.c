/* SPH binning on the GPU against a CPU counting sort: after the reorder every
 * particle appears exactly once, cells are non-decreasing, the order inside a
 * cell is by persistent id, and the cell starts (empty cells included) match.
 * Cases: random particles clustered in part of a large tank (many empty
 * cells), every particle in one cell, one particle, particles on cell faces,
 * and a sink that removes particles (compaction). Also checks that binning
 * twice gives the same order (determinism of the atomic slots), that the
 * per-cell counts are zero again after the scan, and the storage-buffer reads
 * (buffer_reads) of the scan, the sort and the reorder as well as their
 * texel reads. And the size check: the widest per-particle buffer, the
 * neighbour bits (4 VF_SPH_MASK_WORDS bytes a particle), is bound whole, so
 * one particle more than maxStorageBufferRange over its bytes is refused
 * before any allocation, with a line that names the key. */
#include <stdlib.h>
#include <string.h>

#include "shared_sph.h"
#include "gpu_cmd.h"
#include "solver_sph.h"
#include "solver_sph_ref.h"
#include "testlib.h"

static uint64_t rng_state = 12345;

static vf_sph_desc base_desc(double size, double h)
{
    vf_sph_desc d = {0};
    for (int k = 0; k < 3; k++) {
        d.lo[k] = 0;
        d.hi[k] = size;
    }
    d.spacing = h / 1.91;
    d.h = h;
    d.rho0 = 1000;
    d.sound_speed = 10;
    d.cfl = 0.25;
    d.frame_dt = 1.0 / 60;
    d.gravity[1] = -9.81;
    d.viscosity = 0.1;
    d.restitution = 0.5;
    return d;
}

/* Checks the GPU's order and starts against the CPU counting sort of the
 * particles as they were uploaded (in_pos, ids 0..n-1). */
static void check_binning(vf_sph *s, uint32_t n, const float (*in_pos)[4], const char *what)
{
    const vf_sph_params *prm = vf_sph_get_params(s);
    vf_sph_snapshot snap;
    vf_result r = vf_sph_read(s, true, &snap);
    if (!CHECK_MSG(r == VF_OK, "%s: read back: %s", what, vf_result_message(r)))
        return;
    uint32_t *ids = malloc(sizeof *ids * (n ? n : 1));
    uint32_t *start = malloc(sizeof *start * (prm->cells + 1));
    uint32_t *order = malloc(sizeof *order * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++)
        ids[i] = i;
    vf_sph_ref_bin(prm, n, in_pos, ids, start, order);
    uint32_t live = start[prm->cells];
    CHECK_EQ_INT(snap.count, live);
    /* exactly once */
    unsigned char *seen = calloc(n ? n : 1, 1);
    uint32_t dup = 0, bad_id = 0;
    for (uint32_t k = 0; k < snap.count; k++) {
        if (snap.id[k] >= n)
            bad_id++;
        else if (seen[snap.id[k]]++)
            dup++;
    }
    CHECK_MSG(dup == 0 && bad_id == 0, "%s: %u duplicated and %u invalid ids after the scatter", what, dup, bad_id);
    /* non-decreasing cells, same order as the CPU (by id inside a cell), data moved with the particle */
    uint32_t decreasing = 0, wrong_order = 0, wrong_data = 0;
    uint32_t prev = 0;
    for (uint32_t k = 0; k < snap.count; k++) {
        uint32_t c = vf_sph_ref_cell(prm, snap.pos[k]);
        if (k && c < prev)
            decreasing++;
        prev = c;
        if (k < live && snap.id[k] != order[k])
            wrong_order++;
        if (snap.id[k] < n && memcmp(snap.pos[k], in_pos[snap.id[k]], 12))
            wrong_data++;
    }
    CHECK_MSG(decreasing == 0, "%s: %u places where the cell index decreases", what, decreasing);
    CHECK_MSG(wrong_order == 0, "%s: %u particles differ from the CPU counting sort (by cell, then id)", what, wrong_order);
    CHECK_MSG(wrong_data == 0, "%s: %u particles whose position did not move with them", what, wrong_data);
    uint32_t bad_start = 0, empty = 0;
    for (uint32_t c = 0; c <= prm->cells; c++) {
        if (snap.start[c] != start[c])
            bad_start++;
        if (c < prm->cells && start[c + 1] == start[c])
            empty++;
    }
    CHECK_MSG(bad_start == 0, "%s: %u of %u cell starts differ from the CPU", what, bad_start, prm->cells + 1);
    /* the scan sets the per-cell counts back to zero for the next binning */
    uint32_t nonzero = 0;
    for (uint32_t c = 0; c <= prm->cells; c++)
        nonzero += snap.counts[c] != 0;
    CHECK_MSG(nonzero == 0, "%s: %u cell counts not zero after the scan", what, nonzero);
    printf("%s: %u particles, %u live, %u cells (%u empty): %s\n", what, n, live, prm->cells, empty,
           dup || decreasing || wrong_order || bad_start ? "MISMATCH" : "ok");
    free(seen);
    free(ids);
    free(start);
    free(order);
    vf_sph_snapshot_free(&snap);
}

static vf_result rebin(vf_gpu *gpu, vf_sph *s)
{
    VkCommandBuffer cmd;
    vf_result r = vf_cmd_oneshot_begin(gpu, &cmd);
    if (r != VF_OK)
        return r;
    if ((r = vf_sph_record_binning(s, cmd, NULL)) != VF_OK) {
        vf_cmd_oneshot_abandon(gpu, cmd);
        return r;
    }
    return vf_cmd_oneshot_submit(gpu, cmd);
}

static void run_case(vf_gpu *gpu, vf_sph_desc *d, uint32_t n, float (*pos)[4], const char *what)
{
    d->count = n;
    d->pos = (const float (*)[4])pos;
    vf_sph *s = NULL;
    char err[256] = "";
    vf_result r = vf_sph_create(gpu, d, &s, NULL, err, sizeof err);
    if (!CHECK_MSG(r == VF_OK, "%s: create: %s %s", what, vf_result_message(r), err))
        return;
    check_binning(s, n, (const float (*)[4])pos, what);
    /* Binning the reordered particles again must give the same order (the
     * atomic slots differ from run to run; the id ranks do not). */
    vf_sph_snapshot a, b;
    if (CHECK(vf_sph_read(s, false, &a) == VF_OK)) {
        CHECK(rebin(gpu, s) == VF_OK);
        if (CHECK(vf_sph_read(s, false, &b) == VF_OK)) {
            CHECK_MSG(a.count == b.count && !memcmp(a.id, b.id, 4ull * a.count) && !memcmp(a.pos, b.pos, 16ull * a.count),
                      "%s: binning sorted particles again changed their order", what);
            vf_sph_snapshot_free(&b);
        }
        vf_sph_snapshot_free(&a);
    }
    vf_sph_destroy(&s);
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    const double h = 0.05;

    /* 1. random particles in one corner of a 1 m tank: 20^3 = 8000 cells, most empty */
    {
        vf_sph_desc d = base_desc(1.0, h);
        uint32_t n = 6000;
        float(*pos)[4] = calloc(n, sizeof *pos);
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                pos[i][k] = (float)(0.4 * vf_test_rand(&rng_state));
        run_case(gpu, &d, n, pos, "random, clustered");
        /* 2. on cell faces and the tank walls (exact multiples of h, 0 and 1) */
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                pos[i][k] = (float)(h * (double)(rng_state = rng_state * 6364136223846793005ull + 1, (rng_state >> 40) % 21));
        run_case(gpu, &d, n, pos, "on cell faces");
        /* 3. all particles in one cell */
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                pos[i][k] = (float)(0.5 * h + 0.49 * h * (vf_test_rand(&rng_state) - 0.5) + 3 * h);
        run_case(gpu, &d, n, pos, "one cell");
        /* 4. a sink removing the particles in x < 0.2 */
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                pos[i][k] = (float)(0.6 * vf_test_rand(&rng_state));
        d.sink = true;
        d.sink_hi[0] = 0.2;
        d.sink_hi[1] = d.sink_hi[2] = 1.0;
        run_case(gpu, &d, n, pos, "sink");
        d.sink = false;
        /* 5. one particle */
        run_case(gpu, &d, 1, pos, "one particle");
        /* 6. case 1 with the scan, sort and reorder reading the storage buffers (the fallback
         * of devices that cannot address the cells as texels) */
        for (uint32_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                pos[i][k] = (float)(0.4 * vf_test_rand(&rng_state));
        d.buffer_reads = true;
        run_case(gpu, &d, n, pos, "random, clustered, storage-buffer reads");
        d.buffer_reads = false;
        free(pos);
    }
    {
        vf_test_section("a count whose neighbour bits exceed maxStorageBufferRange");
        vf_sph_desc d = base_desc(1.0, h);
        d.count_key = "particles";
        uint64_t over = gpu->info.max_storage_buffer_range / (4 * VF_SPH_MASK_WORDS) + 1;
        char err[512] = "";
        const char *key = NULL;
        vf_result r = vf_sph_check_size(gpu, &d, over, NULL, &key, err, sizeof err);
        printf("  %llu particles: %s\n", (unsigned long long)over, err);
        CHECK_EQ_INT(r, VF_ERR_TOO_LARGE);
        CHECK(key && strcmp(key, "particles") == 0);
        CHECK_STR_CONTAINS(err, "do not fit");
    }
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
