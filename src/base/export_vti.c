#include "export_vti.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fileio.h"

static int little_endian(void)
{
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

bool vf_vti_compression_parse(const char *name, vf_vti_compression *out)
{
    int k = name ? vf_choice_index(VF_CHOICES(VF_VTI_COMPRESSION_LIST), name) : -1;
    if (k < 0)
        return false;
    *out = (vf_vti_compression)k;
    return true;
}

/* One array compressed in VTK's block format: the UInt64 header (nblocks,
 * block size, last partial block size, compressed sizes) and the zlib
 * streams one after another. */
typedef struct packed_array {
    uint64_t *header; /* 3 + nblocks values */
    uint64_t header_count;
    uint8_t *data;
    uint64_t data_bytes;
} packed_array;

static void packed_free(packed_array *a)
{
    free(a->header);
    free(a->data);
    memset(a, 0, sizeof *a);
}

static vf_result pack(const void *src, uint64_t bytes, packed_array *a)
{
    const uint64_t bs = VF_VTI_BLOCK_BYTES, blocks = (bytes + bs - 1) / bs;
    memset(a, 0, sizeof *a);
    a->header_count = 3 + blocks;
    a->header = calloc((size_t)a->header_count, sizeof *a->header);
    uLong bound = compressBound((uLong)bs);
    uint64_t cap = bytes / 4 + bound; /* grows as needed */
    a->data = malloc((size_t)cap);
    if (!a->header || !a->data) {
        packed_free(a);
        return VF_ERR_NO_MEMORY;
    }
    a->header[0] = blocks;
    a->header[1] = bs;
    a->header[2] = bytes % bs; /* 0: the last block is whole */
    for (uint64_t b = 0; b < blocks; b++) {
        uint64_t in = b + 1 < blocks || bytes % bs == 0 ? bs : bytes % bs;
        if (cap - a->data_bytes < bound) {
            uint64_t ncap = cap * 2;
            uint8_t *nd = realloc(a->data, (size_t)ncap);
            if (!nd) {
                packed_free(a);
                return VF_ERR_NO_MEMORY;
            }
            a->data = nd;
            cap = ncap;
        }
        uLongf out = (uLongf)(cap - a->data_bytes);
        if (compress2(a->data + a->data_bytes, &out, (const Bytef *)src + b * bs, (uLong)in, Z_DEFAULT_COMPRESSION) !=
            Z_OK) {
            packed_free(a);
            return VF_ERR_NO_MEMORY; /* zlib fails only for memory here (the output fits its bound) */
        }
        a->header[3 + b] = out;
        a->data_bytes += out;
    }
    return VF_OK;
}

vf_result vf_vti_write(const char *path, const vf_vti_desc *d)
{
    if (!path || !d || !d->nx || !d->ny || !d->nz || (d->field_count && !d->fields) ||
        (d->compression != VF_VTI_RAW && d->compression != VF_VTI_ZLIB))
        return VF_ERR_INVALID_ARG;
    for (uint32_t i = 0; i < d->field_count; i++)
        if (!d->fields[i].name || !d->fields[i].data || (d->fields[i].components != 1 && d->fields[i].components != 3))
            return VF_ERR_INVALID_ARG;
    const uint64_t points = (uint64_t)d->nx * d->ny * d->nz;
    const bool zlib = d->compression == VF_VTI_ZLIB;
    packed_array *packed = NULL;
    vf_result res = VF_OK;
    if (zlib) {
        /* compressed first: the header needs every array's offset */
        if (!(packed = calloc(d->field_count ? d->field_count : 1, sizeof *packed)))
            return VF_ERR_NO_MEMORY;
        for (uint32_t i = 0; i < d->field_count && res == VF_OK; i++)
            res = pack(d->fields[i].data, points * d->fields[i].components * 4, &packed[i]);
        if (res != VF_OK)
            goto done;
    }
    vf_file file;
    if ((res = vf_file_begin(&file, path)) != VF_OK)
        goto done;
    FILE *f = file.f;
    fprintf(f, "<?xml version=\"1.0\"?>\n"
               "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\"%s>\n",
            little_endian() ? "LittleEndian" : "BigEndian", zlib ? " compressor=\"vtkZLibDataCompressor\"" : "");
    fprintf(f, "  <ImageData WholeExtent=\"0 %u 0 %u 0 %u\" Origin=\"%.9g %.9g %.9g\" Spacing=\"%.9g %.9g %.9g\">\n",
            d->nx - 1, d->ny - 1, d->nz - 1, d->origin[0], d->origin[1], d->origin[2], d->spacing[0], d->spacing[1],
            d->spacing[2]);
    fprintf(f, "    <Piece Extent=\"0 %u 0 %u 0 %u\">\n      <PointData>\n", d->nx - 1, d->ny - 1, d->nz - 1);
    uint64_t offset = 0;
    for (uint32_t i = 0; i < d->field_count; i++) {
        fprintf(f, "        <DataArray type=\"Float32\" Name=\"%s\" NumberOfComponents=\"%u\" format=\"appended\" offset=\"%llu\"/>\n",
                d->fields[i].name, d->fields[i].components, (unsigned long long)offset);
        offset += zlib ? 8 * packed[i].header_count + packed[i].data_bytes : 8 + points * d->fields[i].components * 4;
    }
    fprintf(f, "      </PointData>\n      <CellData/>\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"raw\">\n   _");
    for (uint32_t i = 0; i < d->field_count; i++) {
        bool ok;
        if (zlib) {
            const packed_array *a = &packed[i];
            ok = fwrite(a->header, 8, (size_t)a->header_count, f) == a->header_count &&
                 fwrite(a->data, 1, (size_t)a->data_bytes, f) == a->data_bytes;
        } else {
            uint64_t bytes = points * d->fields[i].components * 4;
            ok = fwrite(&bytes, 8, 1, f) == 1 && fwrite(d->fields[i].data, 4, (size_t)(bytes / 4), f) == bytes / 4;
        }
        if (!ok) {
            int err = errno;
            vf_file_abort(&file);
            res = vf_io_result(err);
            goto done;
        }
    }
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    res = vf_file_commit(&file);
done:
    if (packed) {
        for (uint32_t i = 0; i < d->field_count; i++)
            packed_free(&packed[i]);
        free(packed);
    }
    return res;
}
