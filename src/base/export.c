#include "export.h"

#include <errno.h>

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
        csv->status = vf_io_result(errno);
    return VF_OK;
}

void vf_export_csv_row(vf_export_csv *csv, const double *values)
{
    if (csv->status != VF_OK || !csv->file.f)
        return;
    FILE *f = csv->file.f;
    for (uint32_t i = 0; i < csv->columns; i++)
        if (fprintf(f, i ? ",%.9g" : "%.9g", values[i]) < 0)
            csv->status = vf_io_result(errno);
    if (fputc('\n', f) == EOF)
        csv->status = vf_io_result(errno);
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
