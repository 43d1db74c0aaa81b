/* The meshed surface: the generated case table, the GPU splat and marching
 * cubes against the CPU reference, the mesh closed and consistently oriented,
 * and the volume a block of particles encloses against the particles' own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "sph_mesh.h"
#include "testlib.h"
#include "sph_mesh_ref.h"

static uint32_t rng(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static double frand(uint64_t *s)
{
    return (rng(s) & 0xffffff) / 16777216.0;
}

/* Every case: a closed surface on a grid of random values (CPU only). */
static void test_table(void)
{
    vf_test_section("case table");
    static uint32_t table[256 * VF_MESH_CASE_STRIDE];
    CHECK(vf_mesh_table_build(table) == VF_OK);
    uint32_t most = 0;
    for (int c = 0; c < 256; c++)
        most = table[c * VF_MESH_CASE_STRIDE] > most ? table[c * VF_MESH_CASE_STRIDE] : most;
    CHECK_EQ_INT(table[0], 0);
    CHECK_EQ_INT(table[255 * VF_MESH_CASE_STRIDE], 0);
    CHECK_EQ_INT(table[1 * VF_MESH_CASE_STRIDE], 1);
    CHECK_MSG(most >= 4 && most <= VF_MESH_CASE_TRIS, "most triangles in a case: %u", most);
    /* Random fields: every configuration of a cube occurs; the surface must
     * close and orient consistently everywhere. */
    vf_mesh_push p = {.origin = {0, 0, 0, 0.1f}, .lo = {-1, -1, -1, 0}, .hi = {2, 2, 2, 0}, .nx = 12, .ny = 11, .nz = 10,
                      .iso = 500};
    uint32_t *d = malloc(12 * 11 * 10 * sizeof *d);
    uint64_t seed = 7, bad_total = 0, tris = 0;
    for (int trial = 0; d && trial < 20; trial++) {
        for (int i = 0; i < 12 * 11 * 10; i++)
            d[i] = rng(&seed) % 1000;
        vf_mesh_host h;
        if (!CHECK(vf_mesh_ref_build(&p, table, d, &h) == VF_OK))
            break;
        bad_total += vf_mesh_open_edges(&h, NULL);
        tris += h.triangles;
        CHECK_MSG(vf_mesh_volume(&h) > 0.0, "random field %d: volume %g (outward normals give > 0)", trial,
                  vf_mesh_volume(&h));
        vf_mesh_host_free(&h);
    }
    printf("random fields: %llu triangles, %llu open or misoriented edges\n", (unsigned long long)tris,
           (unsigned long long)bad_total);
    CHECK_EQ_U64(bad_total, 0);
    free(d);
}

typedef struct built {
    vf_mesh_host gpu;      /* the GPU's mesh */
    uint32_t *density;     /* the GPU's grid */
} built;

/* Uploads positions, builds the mesh on the GPU, reads it back. */
static vf_result build_gpu(vf_gpu *gpu, vf_mesh *m, const float (*pos)[4], uint32_t n, built *out)
{
    memset(out, 0, sizeof *out);
    vf_buffer *buf = NULL;
    vf_buffer_desc bd = {.size = (VkDeviceSize)(n ? n : 1) * 16, .name = "test positions"};
    vf_result res = vf_buffer_create(gpu, &bd, &buf);
    if (res != VF_OK)
        return res;
    VkCommandBuffer cmd;
    if (n && (res = vf_buffer_write(buf, 0, pos, (VkDeviceSize)n * 16)) != VF_OK)
        goto done;
    if ((res = vf_cmd_oneshot_begin(gpu, &cmd)) != VF_OK)
        goto done;
    vf_cmd_barrier_transfer_to_compute(cmd);
    if ((res = vf_mesh_record(m, cmd, NULL, buf, n)) != VF_OK) {
        vf_cmd_oneshot_abandon(gpu, cmd);
        goto done;
    }
    if ((res = vf_cmd_oneshot_submit(gpu, cmd)) != VF_OK)
        goto done;
    if ((res = vf_mesh_read(m, &out->gpu)) != VF_OK)
        goto done;
    vf_mesh_buffers mb;
    vf_mesh_get_buffers(m, &mb);
    uint64_t points = (uint64_t)mb.grid[0] * mb.grid[1] * mb.grid[2];
    out->density = malloc(points * 4);
    if (!out->density) {
        res = VF_ERR_NO_MEMORY;
        goto done;
    }
    res = vf_buffer_read(mb.density, 0, out->density, points * 4);
done:
    vf_buffer_destroy(&buf);
    return res;
}

static void built_free(built *b)
{
    vf_mesh_host_free(&b->gpu);
    free(b->density);
}

/* A splashy set: a ball of particles on a jittered lattice, one touching a
 * wall, and loose drops, some of them outside the tank (unused slots). */
static uint32_t make_splash(float (*pos)[4], uint32_t cap, double s)
{
    uint64_t seed = 99;
    uint32_t n = 0;
    for (int k = 0; k < 20; k++)
        for (int j = 0; j < 20; j++)
            for (int i = 0; i < 20; i++) {
                double x = (i + 0.5) * s, y = (j + 0.5) * s, z = (k + 0.5) * s;
                double dx = x - 0.45, dy = y - 0.4, dz = z - 0.5;
                double dx2 = x - 0.1, dy2 = y - 0.3, dz2 = z - 0.2;
                bool ball = dx * dx + dy * dy + dz * dz < 0.3 * 0.3;
                bool wall = dx2 * dx2 + dy2 * dy2 + dz2 * dz2 < 0.2 * 0.2;
                if ((ball || wall) && n < cap) {
                    pos[n][0] = (float)(x + 0.2 * s * (frand(&seed) - 0.5));
                    pos[n][1] = (float)(y + 0.2 * s * (frand(&seed) - 0.5));
                    pos[n][2] = (float)(z + 0.2 * s * (frand(&seed) - 0.5));
                    pos[n][3] = 0.0f;
                    n++;
                }
            }
    for (int i = 0; i < 60 && n < cap; i++, n++) {
        pos[n][0] = (float)frand(&seed);
        pos[n][1] = (float)(0.7 + 0.3 * frand(&seed));
        pos[n][2] = (float)frand(&seed);
        pos[n][3] = 0.0f;
    }
    for (int i = 0; i < 4 && n < cap; i++, n++)
        pos[n][0] = pos[n][1] = pos[n][2] = 1.0e9f; /* VF_SPH_HIDDEN */
    return n;
}

static void test_against_cpu(vf_gpu *gpu)
{
    vf_test_section("gpu against cpu");
    const double s = 0.05;
    float(*pos)[4] = calloc(9000, sizeof *pos);
    if (!CHECK(pos))
        return;
    uint32_t n = make_splash(pos, 9000, s);
    vf_mesh_desc md = {.lo = {0, 0, 0}, .hi = {1, 1, 1}, .spacing = s, .particles = n};
    vf_mesh *m = NULL;
    char err[256] = "";
    if (!CHECK_MSG(vf_mesh_create(gpu, &md, &m, err, sizeof err) == VF_OK, "create: %s", err)) {
        free(pos);
        return;
    }
    const vf_mesh_push *p = vf_mesh_get_push(m);
    uint64_t points = (uint64_t)p->nx * p->ny * p->nz;
    built b;
    vf_result res = build_gpu(gpu, m, (const float(*)[4])pos, n, &b);
    CHECK_MSG(res == VF_OK, "gpu build: %s", vf_result_message(res));
    uint32_t *ref = malloc(points * 4);
    if (res == VF_OK && CHECK(ref)) {
        /* Splat: each of the (at most ~34) contributions to a point may round
         * differently on the two sides (fma, rounding of the weight): 1
         * fixed-point unit (2^-20) each, 64 units in all. */
        vf_mesh_ref_splat(p, (const float(*)[4])pos, n, ref);
        uint64_t bad = 0, worst_at = 0;
        long long worst = 0;
        double total = 0.0;
        for (uint64_t i = 0; i < points; i++) {
            long long d = llabs((long long)b.density[i] - (long long)ref[i]);
            if (d > worst) {
                worst = d;
                worst_at = i;
            }
            bad += d > 64;
            total += ref[i];
        }
        printf("splat: %llu points, worst difference %lld units at %llu (of %u), grid sum %.1f\n",
               (unsigned long long)points, worst, (unsigned long long)worst_at, ref[worst_at], total / VF_MESH_FIXED);
        CHECK_EQ_U64(bad, 0);

        /* Marching cubes on the GPU's grid: the same mesh exactly (counts,
         * indices), vertices within float rounding. */
        vf_mesh_host c;
        if (CHECK(vf_mesh_ref_build(p, vf_mesh_get_table(m), b.density, &c) == VF_OK)) {
            CHECK_EQ_INT(b.gpu.triangles, c.triangles);
            CHECK_EQ_INT(b.gpu.vertices, c.vertices);
            CHECK_EQ_INT(b.gpu.stored_triangles, c.triangles);
            CHECK_EQ_INT(b.gpu.stored_vertices, c.vertices);
            uint64_t bad_idx = 0, bad_pos = 0;
            double worst_pos = 0.0, worst_n = 0.0;
            if (b.gpu.stored_triangles == c.triangles && b.gpu.stored_vertices == c.vertices) {
                for (uint32_t t = 0; t < c.triangles; t++)
                    bad_idx += memcmp(b.gpu.tri[t], c.tri[t], sizeof c.tri[t]) != 0;
                for (uint32_t v = 0; v < c.vertices; v++)
                    for (int k = 0; k < 3; k++) {
                        double dp = fabs(b.gpu.pos[v][k] - c.pos[v][k]);
                        double dn = fabs(b.gpu.normal[v][k] - c.normal[v][k]);
                        worst_pos = dp > worst_pos ? dp : worst_pos;
                        worst_n = dn > worst_n ? dn : worst_n;
                        bad_pos += dp > 1e-5 || dn > 1e-4;
                    }
            }
            printf("marching cubes: %u triangles, %u vertices; worst vertex difference %.2e m, normal %.2e\n",
                   c.triangles, c.vertices, worst_pos, worst_n);
            CHECK_EQ_U64(bad_idx, 0);
            CHECK_EQ_U64(bad_pos, 0);
            vf_mesh_host_free(&c);
        }
        /* The whole pipeline on the CPU (its own splat) counts the same. */
        if (CHECK(vf_mesh_ref_build(p, vf_mesh_get_table(m), ref, &c) == VF_OK)) {
            printf("cpu splat + cpu marching cubes: %u triangles (gpu %u)\n", c.triangles, b.gpu.triangles);
            CHECK_EQ_INT(c.triangles, b.gpu.triangles);
            vf_mesh_host_free(&c);
        }
        /* Closed and oriented, with drops and a blob pressed against a wall. */
        uint64_t edges = 0, open = vf_mesh_open_edges(&b.gpu, &edges);
        printf("closed: %llu edges, %llu not shared by exactly two opposite triangles\n", (unsigned long long)edges,
               (unsigned long long)open);
        CHECK(b.gpu.triangles > 1000);
        CHECK_EQ_U64(open, 0);
        /* Written whole as PLY. */
        const char *ply = vf_test_path("splash.ply");
        CHECK(vf_mesh_write_ply(&b.gpu, ply) == VF_OK);
        size_t size = 0;
        char *text = vf_test_read_file(ply, &size);
        const char *end = text ? strstr(text, "end_header\n") : NULL;
        if (CHECK(end)) {
            size_t header = (size_t)(end - text) + strlen("end_header\n");
            CHECK_EQ_U64(size, header + 24ull * b.gpu.vertices + 13ull * b.gpu.triangles);
        }
        free(text);
    }
    free(ref);
    built_free(&b);
    vf_mesh_destroy(&m);
    free(pos);
}

/* Blocks of particles on the cubic lattice (spacing s, the particles' volume
 * s^3 each): one away from the walls, one resting in a corner of the tank
 * against the floor and two walls. The mesh must enclose the particles'
 * volume within 3%: the kernel rounds the block's edges and corners (a
 * radius of about R/2 = s), which for a block of 16 s removes about 2%. */
static void test_volume(vf_gpu *gpu)
{
    vf_test_section("enclosed volume");
    const double s = 0.04;
    const int nb = 16;
    float(*pos)[4] = calloc((size_t)nb * nb * nb, sizeof *pos);
    if (!CHECK(pos))
        return;
    vf_mesh_desc md = {.lo = {0, 0, 0}, .hi = {1.2, 0.8, 1.0}, .spacing = s, .particles = (uint32_t)(nb * nb * nb)};
    vf_mesh *m = NULL;
    char err[256] = "";
    if (!CHECK_MSG(vf_mesh_create(gpu, &md, &m, err, sizeof err) == VF_OK, "create: %s", err)) {
        free(pos);
        return;
    }
    const double corner[2][3] = {{0.3, 0.1, 0.2}, {0.0, 0.0, 0.0}};
    for (int which = 0; which < 2; which++) {
        uint32_t n = 0;
        for (int k = 0; k < nb; k++)
            for (int j = 0; j < nb; j++)
                for (int i = 0; i < nb; i++, n++) {
                    pos[n][0] = (float)(corner[which][0] + (i + 0.5) * s);
                    pos[n][1] = (float)(corner[which][1] + (j + 0.5) * s);
                    pos[n][2] = (float)(corner[which][2] + (k + 0.5) * s);
                    pos[n][3] = 0.0f;
                }
        built b;
        vf_result res = build_gpu(gpu, m, (const float(*)[4])pos, n, &b);
        if (CHECK_MSG(res == VF_OK, "gpu build: %s", vf_result_message(res))) {
            double vol = vf_mesh_volume(&b.gpu), want = n * s * s * s;
            uint64_t open = vf_mesh_open_edges(&b.gpu, NULL);
            printf("%s block of %u particles: %u triangles, volume %.6f m^3 vs %.6f (%+.2f%%), %llu open edges\n",
                   which ? "corner" : "free", n, b.gpu.triangles, vol, want, 100.0 * (vol / want - 1.0),
                   (unsigned long long)open);
            CHECK_EQ_U64(open, 0);
            CHECK_MSG(fabs(vol / want - 1.0) < 0.03, "volume %.6f vs %.6f", vol, want);
        }
        built_free(&b);
    }
    vf_mesh_destroy(&m);
    free(pos);
}

static uint32_t le32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Reads a PLY as vf_mesh_write_ply writes it. */
static bool read_ply(const char *path, vf_mesh_host *h)
{
    memset(h, 0, sizeof *h);
    size_t size = 0;
    char *text = vf_test_read_file(path, &size);
    const char *end = text ? strstr(text, "end_header\n") : NULL;
    const char *ev = text ? strstr(text, "element vertex ") : NULL, *ef = text ? strstr(text, "element face ") : NULL;
    bool ok = end && ev && ef;
    if (ok) {
        h->vertices = h->stored_vertices = (uint32_t)strtoul(ev + 15, NULL, 10);
        h->triangles = h->stored_triangles = (uint32_t)strtoul(ef + 13, NULL, 10);
        size_t at = (size_t)(end - text) + strlen("end_header\n");
        ok = size == at + 24ull * h->vertices + 13ull * h->triangles;
        h->pos = calloc(h->vertices + 1, sizeof *h->pos);
        h->normal = calloc(h->vertices + 1, sizeof *h->normal);
        h->tri = calloc(h->triangles + 1, sizeof *h->tri);
        ok = ok && h->pos && h->normal && h->tri;
        const unsigned char *b = (const unsigned char *)text + at;
        for (uint32_t i = 0; ok && i < h->vertices; i++, b += 24)
            for (int k = 0; k < 3; k++) {
                uint32_t w = le32(b + 4 * k);
                memcpy(&h->pos[i][k], &w, 4);
            }
        for (uint32_t t = 0; ok && t < h->triangles; t++, b += 13) {
            ok = b[0] == 3;
            for (int k = 0; k < 3; k++) {
                h->tri[t][k] = le32(b + 1 + 4 * k);
                ok = ok && h->tri[t][k] < h->vertices;
            }
        }
    }
    free(text);
    return ok;
}

/* run --export-mesh on the dam-break's column, one frame after the start
 * (still a block at rest against the floor and two walls): a closed mesh
 * that encloses the particles' volume within 3%. */
static void test_export_cli(void)
{
    vf_test_section("run --export-mesh");
    const char *dir = vf_test_path("export");
    int rc = vf_test_run("rm -rf '%s' && '%s' run dam-break --set spacing=0.025 --steps 1 --export '%s' --export-mesh --quiet "
                         ">/dev/null",
                         dir, vf_t.vkfluid, dir);
    CHECK_EQ_INT(rc, 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/surface_0000.ply", dir);
    vf_mesh_host h;
    if (CHECK_MSG(read_ply(path, &h), "%s: not the PLY expected", path)) {
        const double s = 0.025, particles = 10 * 20 * 10; /* a = 0.25, ratio 2, depth a */
        double vol = vf_mesh_volume(&h), want = particles * s * s * s;
        uint64_t open = vf_mesh_open_edges(&h, NULL);
        printf("dam-break column: %u triangles, %u vertices, volume %.6f m^3 vs %.6f (%+.2f%%), %llu open edges\n",
               h.triangles, h.vertices, vol, want, 100.0 * (vol / want - 1.0), (unsigned long long)open);
        CHECK_EQ_U64(open, 0);
        CHECK_MSG(fabs(vol / want - 1.0) < 0.03, "volume %.6f vs %.6f", vol, want);
    }
    vf_mesh_host_free(&h);
    CHECK_EQ_INT(vf_test_run("'%s' run smoke --steps 1 --export '%s-grid' --export-mesh --quiet 2>/dev/null", vf_t.vkfluid, dir),
                 2);
    CHECK_EQ_INT(vf_test_run("'%s' run dam-break --steps 1 --export-mesh --quiet 2>/dev/null", vf_t.vkfluid), 2);
    /* The mesh view (with the foam layer of dam-break) renders under validation. */
    const char *cap = vf_test_path("capture");
    rc = vf_test_run("rm -rf '%s' && '%s' capture dam-break --set spacing=0.04 --frames 12 --every 11 --size 160x90 "
                     "--render mesh --out '%s' --quiet",
                     cap, vf_t.vkfluid, cap);
    CHECK_EQ_INT(rc, 0);
    snprintf(path, sizeof path, "%s/frame_00011.png", cap);
    size_t png = 0;
    char *img = vf_test_read_file(path, &png);
    CHECK_MSG(img && png > 100, "%s written", path);
    free(img);
    CHECK_EQ_INT(vf_test_run("'%s' capture drop --frames 1 --render nonsense --out '%s-x' --quiet 2>/dev/null", vf_t.vkfluid, cap),
                 2);
}

static void test_bad_input(vf_gpu *gpu)
{
    vf_test_section("bad input");
    vf_mesh *m = NULL;
    char err[256] = "";
    vf_mesh_desc md = {.lo = {0, 0, 0}, .hi = {1, 1, 1}, .spacing = 0.0, .particles = 10};
    CHECK(vf_mesh_create(gpu, &md, &m, err, sizeof err) == VF_ERR_INVALID_ARG && !m);
    md.spacing = 0.1;
    md.iso = 1.5;
    CHECK(vf_mesh_create(gpu, &md, &m, err, sizeof err) == VF_ERR_INVALID_ARG && !m);
    md.iso = 0.0;
    md.cell = 1e-6; /* 10^18 points */
    CHECK(vf_mesh_create(gpu, &md, &m, err, sizeof err) == VF_ERR_TOO_LARGE && !m);
    printf("too fine: %s\n", err);
    CHECK(strstr(err, "cell") != NULL);
    vf_mesh_destroy(&m);
    vf_mesh_destroy(NULL);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    test_table();
    vf_gpu *gpu = vf_test_gpu();
    test_bad_input(gpu);
    test_against_cpu(gpu);
    test_volume(gpu);
    vf_test_gpu_done(&gpu);
    test_export_cli();
    return vf_test_finish();
}
