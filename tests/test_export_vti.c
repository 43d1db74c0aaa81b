/* VTK ImageData exports, raw and zlib-compressed (export_vti):
 *
 *  - the writer: arrays of 1 point, of exactly two 32 KiB blocks and of
 *    several blocks with a partial last one, written both ways; the zlib file
 *    is decoded here from VTK's block header ([nblocks][block size][last
 *    partial size][compressed sizes], UInt64) by inflating each block on its
 *    own, and must give back exactly the bytes of the raw file's arrays;
 *  - `vkfluid run --export-compress zlib` on a 2D grid (smoke), a height
 *    field with a grid flow under it (river) and the 3D grid (smoke3d): every
 *    .vti array decodes to exactly the bytes of the same run exported raw, and
 *    the compressed files are smaller (the fields are smooth, with empty
 *    regions);
 *  - bad input: an unknown value, the option without --export and on a
 *    particle scene: one line naming the option, exit 2. */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export_vti.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

static char out[65536];

/* One decoded array of a .vti file. */
typedef struct vti_array {
    char name[64];
    uint8_t *data;
    uint64_t bytes;
} vti_array;

typedef struct vti_file {
    bool zlib;
    int count;
    vti_array arrays[8];
    uint64_t file_bytes;
} vti_file;

static void vti_free(vti_file *v)
{
    for (int i = 0; i < v->count; i++)
        free(v->arrays[i].data);
    memset(v, 0, sizeof *v);
}

/* Reads a UInt64 at p if it lies inside [p, end). */
static bool get_u64(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
    if (end - p < 8)
        return false;
    memcpy(v, p, 8);
    return true;
}

/* Decodes every appended array of path (raw or zlib blocks); false with a
 * reason printed when the file is malformed. */
static bool vti_decode(const char *path, vti_file *v)
{
    memset(v, 0, sizeof *v);
    size_t size = 0;
    char *text = vf_test_read_file(path, &size);
    if (!CHECK_MSG(text != NULL, "%s cannot be read", path))
        return false;
    v->file_bytes = size;
    bool ok = false;
    char *app = strstr(text, "<AppendedData encoding=\"raw\">");
    char *base = app ? strchr(app, '_') : NULL;
    if (!CHECK_MSG(base != NULL, "%s: no appended data", path))
        goto done;
    *app = '\0'; /* the XML part ends here: search only inside it */
    v->zlib = strstr(text, "compressor=\"vtkZLibDataCompressor\"") != NULL;
    CHECK_MSG(strstr(text, "header_type=\"UInt64\"") != NULL, "%s: UInt64 headers", path);
    const uint8_t *data = (const uint8_t *)base + 1, *end = (const uint8_t *)text + size;
    for (char *p = strstr(text, "<DataArray"); p && v->count < 8; p = strstr(p + 1, "<DataArray")) {
        vti_array *a = &v->arrays[v->count++];
        char *nm = strstr(p, "Name=\""), *of = strstr(p, "offset=\"");
        if (!CHECK_MSG(nm && of, "%s: a DataArray without name or offset", path))
            goto done;
        size_t nl = strcspn(nm + 6, "\"");
        snprintf(a->name, sizeof a->name, "%.*s", (int)(nl < 63 ? nl : 63), nm + 6);
        const uint8_t *q = data + strtoull(of + 8, NULL, 10);
        uint64_t nb = 0, bs = 0, last = 0;
        if (!v->zlib) {
            if (!CHECK_MSG(get_u64(q, end, &a->bytes) && (uint64_t)(end - q - 8) >= a->bytes, "%s %s: raw size", path, a->name))
                goto done;
            a->data = malloc(a->bytes ? a->bytes : 1);
            memcpy(a->data, q + 8, a->bytes);
            continue;
        }
        if (!CHECK_MSG(get_u64(q, end, &nb) && get_u64(q + 8, end, &bs) && get_u64(q + 16, end, &last) && nb < (1u << 20) &&
                           bs == VF_VTI_BLOCK_BYTES && last < bs,
                       "%s %s: block header", path, a->name))
            goto done;
        a->bytes = nb ? (last ? (nb - 1) * bs + last : nb * bs) : 0;
        a->data = malloc(a->bytes ? a->bytes : 1);
        const uint8_t *blk = q + 24 + 8 * nb;
        for (uint64_t b = 0; b < nb; b++) {
            uint64_t csize = 0;
            if (!CHECK_MSG(get_u64(q + 24 + 8 * b, end, &csize) && blk <= end && (uint64_t)(end - blk) >= csize,
                           "%s %s: block %llu size", path, a->name, (unsigned long long)b))
                goto done;
            uint64_t want = b + 1 == nb && last ? last : bs;
            uLongf got = (uLongf)want;
            int zr = uncompress(a->data + b * bs, &got, blk, (uLong)csize);
            if (!CHECK_MSG(zr == Z_OK && got == want, "%s %s: block %llu inflates to %lu bytes (want %llu), zlib %d", path,
                           a->name, (unsigned long long)b, (unsigned long)got, (unsigned long long)want, zr))
                goto done;
            blk += csize;
        }
    }
    ok = v->count > 0;
done:
    free(text);
    return ok;
}

/* The arrays of a (raw) and b (zlib) must be the same bytes, name by name. */
static void same_arrays(const char *what, const vti_file *a, const vti_file *b)
{
    CHECK_MSG(!a->zlib && b->zlib, "%s: the raw file is raw and the zlib file says vtkZLibDataCompressor", what);
    CHECK_MSG(a->count == b->count, "%s: %d arrays vs %d", what, a->count, b->count);
    for (int i = 0; i < a->count && i < b->count; i++) {
        const vti_array *x = &a->arrays[i], *y = &b->arrays[i];
        CHECK_MSG(!strcmp(x->name, y->name), "%s: array %d is %s vs %s", what, i, x->name, y->name);
        CHECK_MSG(x->bytes == y->bytes && x->bytes > 0 && !memcmp(x->data, y->data, x->bytes),
                  "%s %s: the zlib array decodes to the raw bytes (%llu vs %llu bytes)", what, x->name,
                  (unsigned long long)x->bytes, (unsigned long long)y->bytes);
    }
}

static void writer_case(uint32_t nx, uint32_t ny, uint32_t nz)
{
    uint64_t n = (uint64_t)nx * ny * nz;
    float *s = malloc(n * 4), *vec = malloc(n * 12);
    for (uint64_t i = 0; i < n; i++) {
        s[i] = (float)(i % 97) * 0.25f; /* compressible, not constant */
        for (int c = 0; c < 3; c++)
            vec[3 * i + c] = (float)sin(0.001 * (double)(3 * i + c));
    }
    vf_vti_field fields[2] = {{"s", 1, s}, {"v", 3, vec}};
    vf_vti_desc d = {.nx = nx, .ny = ny, .nz = nz, .spacing = {1, 1, 1}, .fields = fields, .field_count = 2};
    char raw[64], zl[64], what[96];
    snprintf(raw, sizeof raw, "w_%u_%u_%u.vti", nx, ny, nz);
    snprintf(zl, sizeof zl, "w_%u_%u_%u_zlib.vti", nx, ny, nz);
    snprintf(what, sizeof what, "writer %ux%ux%u (%llu bytes of s)", nx, ny, nz, (unsigned long long)n * 4);
    CHECK(vf_vti_write(vf_test_path(raw), &d) == VF_OK);
    d.compression = VF_VTI_ZLIB;
    CHECK(vf_vti_write(vf_test_path(zl), &d) == VF_OK);
    vti_file a, b;
    if (vti_decode(vf_test_path(raw), &a) && vti_decode(vf_test_path(zl), &b)) {
        same_arrays(what, &a, &b);
        CHECK_MSG(a.arrays[0].bytes == n * 4 && !memcmp(a.arrays[0].data, s, n * 4), "%s: raw s is the input", what);
        CHECK_MSG(a.arrays[1].bytes == n * 12 && !memcmp(a.arrays[1].data, vec, n * 12), "%s: raw v is the input", what);
        printf("  %s: raw %llu bytes, zlib %llu bytes\n", what, (unsigned long long)a.file_bytes,
               (unsigned long long)b.file_bytes);
    }
    vti_free(&a);
    vti_free(&b);
    d.compression = (vf_vti_compression)7;
    CHECK(vf_vti_write(vf_test_path("bad.vti"), &d) == VF_ERR_INVALID_ARG);
    free(s);
    free(vec);
}

/* One scene exported raw and zlib: every .vti of the export decodes the same. */
static void run_case(const char *scene, const char *sets, const char *const *files, int nfiles)
{
    char raw[64], zl[64];
    snprintf(raw, sizeof raw, "%s_raw", scene);
    snprintf(zl, sizeof zl, "%s_zlib", scene);
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run %s %s --steps 3 --quiet --export '%s'", vf_t.vkfluid, scene, sets,
                                 vf_test_path(raw));
    CHECK_MSG(rc == 0, "run %s raw: exit %d: %s", scene, rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' run %s %s --steps 3 --quiet --export '%s' --export-compress zlib",
                             vf_t.vkfluid, scene, sets, vf_test_path(zl));
    CHECK_MSG(rc == 0, "run %s zlib: exit %d: %s", scene, rc, out);
    for (int i = 0; i < nfiles; i++) {
        char pa[4096], pb[4096], what[128];
        snprintf(pa, sizeof pa, "%s/%s", vf_test_path(raw), files[i]);
        snprintf(pb, sizeof pb, "%s/%s", vf_test_path(zl), files[i]);
        snprintf(what, sizeof what, "%s %s", scene, files[i]);
        vti_file a, b;
        if (vti_decode(pa, &a) && vti_decode(pb, &b)) {
            same_arrays(what, &a, &b);
            printf("  %s: raw %llu bytes, zlib %llu bytes (ratio %.2f)\n", what, (unsigned long long)a.file_bytes,
                   (unsigned long long)b.file_bytes, (double)a.file_bytes / (double)b.file_bytes);
            CHECK_MSG(b.file_bytes < a.file_bytes, "%s: the zlib file is smaller (%llu vs %llu bytes)", what,
                      (unsigned long long)b.file_bytes, (unsigned long long)a.file_bytes);
        }
        vti_free(&a);
        vti_free(&b);
    }
}

static void bad_input(const char *args, const char *want)
{
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run %s", vf_t.vkfluid, args);
    CHECK_MSG(rc == 2, "run %s: exit %d, want 2: %s", args, rc, out);
    CHECK_STR_CONTAINS(out, "--export-compress");
    CHECK_STR_CONTAINS(out, want);
    CHECK_MSG(strchr(out, '\n') == strrchr(out, '\n'), "one line: %s", out);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);

    vf_test_section("the writer: zlib blocks decode to the raw arrays");
    writer_case(1, 1, 1);
    writer_case(64, 32, 8);  /* s: exactly 2 blocks of 32 KiB, v: 6 */
    writer_case(50, 41, 13); /* partial last blocks */

    vf_test_section("run --export-compress zlib: the same fields as the raw export, smaller");
    const char *grid_files[] = {"grid_0000.vti"};
    run_case("smoke", "--set n=64", grid_files, 1);
    const char *river_files[] = {"height_0000.vti", "grid_0000.vti"};
    run_case("river", "--set nx=64 --set ny=32", river_files, 2);
    const char *g3_files[] = {"grid3d_0000.vti"};
    run_case("smoke3d", "--set n=16", g3_files, 1);

    vf_test_section("bad input: one line naming the option, exit 2");
    char args[4096];
    snprintf(args, sizeof args, "smoke3d --set n=16 --steps 1 --export '%s' --export-compress gzip", vf_test_path("bad1"));
    bad_input(args, "one of none|zlib");
    bad_input("smoke3d --set n=16 --steps 1 --export-compress zlib", "--export");
    snprintf(args, sizeof args, "dam-break --steps 1 --export '%s' --export-compress zlib", vf_test_path("bad2"));
    bad_input(args, "sph");
    CHECK_MSG(vf_test_run("test -e '%s' || test -e '%s'", vf_test_path("bad1"), vf_test_path("bad2")) != 0,
              "bad input wrote no export folder");
    return vf_test_finish();
}
