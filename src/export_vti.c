#include "export_vti.h"

#include <errno.h>

#include <string.h>

#include "fileio.h"

static int little_endian(void)
{
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

vf_result vf_vti_write(const char *path, const vf_vti_desc *d)
{
    if (!path || !d || !d->nx || !d->ny || !d->nz || (d->field_count && !d->fields))
        return VF_ERR_INVALID_ARG;
    for (uint32_t i = 0; i < d->field_count; i++)
        if (!d->fields[i].name || !d->fields[i].data || (d->fields[i].components != 1 && d->fields[i].components != 3))
            return VF_ERR_INVALID_ARG;
    const uint64_t points = (uint64_t)d->nx * d->ny * d->nz;
    vf_file file;
    vf_result res = vf_file_begin(&file, path);
    if (res != VF_OK)
        return res;
    FILE *f = file.f;
    fprintf(f, "<?xml version=\"1.0\"?>\n"
               "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"%s\" header_type=\"UInt64\">\n",
            little_endian() ? "LittleEndian" : "BigEndian");
    fprintf(f, "  <ImageData WholeExtent=\"0 %u 0 %u 0 %u\" Origin=\"%.9g %.9g %.9g\" Spacing=\"%.9g %.9g %.9g\">\n",
            d->nx - 1, d->ny - 1, d->nz - 1, d->origin[0], d->origin[1], d->origin[2], d->spacing[0], d->spacing[1],
            d->spacing[2]);
    fprintf(f, "    <Piece Extent=\"0 %u 0 %u 0 %u\">\n      <PointData>\n", d->nx - 1, d->ny - 1, d->nz - 1);
    uint64_t offset = 0;
    for (uint32_t i = 0; i < d->field_count; i++) {
        fprintf(f, "        <DataArray type=\"Float32\" Name=\"%s\" NumberOfComponents=\"%u\" format=\"appended\" offset=\"%llu\"/>\n",
                d->fields[i].name, d->fields[i].components, (unsigned long long)offset);
        offset += 8 + points * d->fields[i].components * 4;
    }
    fprintf(f, "      </PointData>\n      <CellData/>\n    </Piece>\n  </ImageData>\n  <AppendedData encoding=\"raw\">\n   _");
    for (uint32_t i = 0; i < d->field_count; i++) {
        uint64_t bytes = points * d->fields[i].components * 4;
        if (fwrite(&bytes, 8, 1, f) != 1 || fwrite(d->fields[i].data, 4, (size_t)(bytes / 4), f) != bytes / 4) {
            int err = errno;
            vf_file_abort(&file);
            return vf_io_result(err);
        }
    }
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    return vf_file_commit(&file);
}
