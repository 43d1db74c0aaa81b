#include "export.h"

#include <stdio.h>
#include <string.h>

vf_result vf_export_csv_begin(vf_export_csv *csv, const char *path, const char *header)
{
    memset(csv, 0, sizeof *csv);
    if (!header || !*header)
        return VF_ERR_INVALID_ARG;
    csv->columns = 1;
    for (const char *p = header; *p; p++)
        csv->columns += *p == ',';
    vf_result res = vf_file_begin(&csv->file, path);
    if (res != VF_OK)
        return res;
    if (fprintf(csv->file.f, "%s\n", header) < 0)
        csv->status = VF_ERR_IO;
    return VF_OK;
}

void vf_export_csv_row(vf_export_csv *csv, const double *values)
{
    if (csv->status != VF_OK || !csv->file.f)
        return;
    FILE *f = csv->file.f;
    for (uint32_t i = 0; i < csv->columns; i++)
        if (fprintf(f, i ? ",%.9g" : "%.9g", values[i]) < 0)
            csv->status = VF_ERR_IO;
    if (fputc('\n', f) == EOF)
        csv->status = VF_ERR_IO;
}

vf_result vf_export_csv_commit(vf_export_csv *csv)
{
    if (csv->status != VF_OK) {
        vf_file_abort(&csv->file);
        return csv->status;
    }
    return vf_file_commit(&csv->file);
}

void vf_export_csv_abort(vf_export_csv *csv)
{
    vf_file_abort(&csv->file);
}

/* Streams bytes as base64 (no line breaks). */
typedef struct b64 {
    FILE *f;
    unsigned char pend[3];
    int n;
    bool ok;
} b64;

static const char b64_chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64_emit(b64 *s, const unsigned char *in, int n)
{
    char out[4];
    unsigned v = (unsigned)in[0] << 16 | (n > 1 ? (unsigned)in[1] << 8 : 0u) | (n > 2 ? in[2] : 0u);
    out[0] = b64_chars[(v >> 18) & 63];
    out[1] = b64_chars[(v >> 12) & 63];
    out[2] = n > 1 ? b64_chars[(v >> 6) & 63] : '=';
    out[3] = n > 2 ? b64_chars[v & 63] : '=';
    if (fwrite(out, 1, 4, s->f) != 4)
        s->ok = false;
}

static void b64_put(b64 *s, const void *data, size_t size)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < size; i++) {
        s->pend[s->n++] = p[i];
        if (s->n == 3) {
            b64_emit(s, s->pend, 3);
            s->n = 0;
        }
    }
}

static void b64_end(b64 *s)
{
    if (s->n)
        b64_emit(s, s->pend, s->n);
    s->n = 0;
}

vf_result vf_export_vti_write(const char *path, uint32_t nx, uint32_t ny, uint32_t nz, const double origin[3],
                              const double spacing[3], const vf_export_array *arrays, uint32_t count)
{
    if (!path || !nx || !ny || !nz || !arrays || !count)
        return VF_ERR_INVALID_ARG;
    for (uint32_t a = 0; a < count; a++)
        if (!arrays[a].name || !arrays[a].data || (arrays[a].components != 1 && arrays[a].components != 3))
            return VF_ERR_INVALID_ARG;
    vf_file file;
    vf_result res = vf_file_begin(&file, path);
    if (res != VF_OK)
        return res;
    FILE *f = file.f;
    bool ok = true;
    const char *scalars = NULL, *vectors = NULL;
    for (uint32_t a = 0; a < count; a++) {
        if (arrays[a].components == 1 && !scalars)
            scalars = arrays[a].name;
        if (arrays[a].components == 3 && !vectors)
            vectors = arrays[a].name;
    }
    ok &= fprintf(f,
                  "<?xml version=\"1.0\"?>\n"
                  "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
                  "  <ImageData WholeExtent=\"0 %u 0 %u 0 %u\" Origin=\"%.9g %.9g %.9g\" Spacing=\"%.9g %.9g %.9g\">\n"
                  "    <Piece Extent=\"0 %u 0 %u 0 %u\">\n"
                  "      <PointData",
                  nx - 1, ny - 1, nz - 1, origin[0], origin[1], origin[2], spacing[0], spacing[1], spacing[2], nx - 1,
                  ny - 1, nz - 1) > 0;
    if (scalars)
        ok &= fprintf(f, " Scalars=\"%s\"", scalars) > 0;
    if (vectors)
        ok &= fprintf(f, " Vectors=\"%s\"", vectors) > 0;
    ok &= fprintf(f, ">\n") > 0;
    uint64_t points = (uint64_t)nx * ny * nz;
    for (uint32_t a = 0; a < count && ok; a++) {
        ok &= fprintf(f, "        <DataArray type=\"Float32\" Name=\"%s\" NumberOfComponents=\"%u\" format=\"binary\">\n          ",
                      arrays[a].name, arrays[a].components) > 0;
        uint64_t bytes = points * arrays[a].components * sizeof(float);
        b64 s = {.f = f, .ok = true};
        b64_put(&s, &bytes, sizeof bytes); /* little-endian hosts only (x86-64, arm64) */
        b64_put(&s, arrays[a].data, bytes);
        b64_end(&s);
        ok &= s.ok;
        ok &= fprintf(f, "\n        </DataArray>\n") > 0;
    }
    ok &= fprintf(f, "      </PointData>\n    </Piece>\n  </ImageData>\n</VTKFile>\n") > 0;
    if (!ok) {
        vf_file_abort(&file);
        return VF_ERR_IO;
    }
    return vf_file_commit(&file);
}
