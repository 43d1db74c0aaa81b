#include "export_particles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"

static uint32_t at(const vf_particles_view *v, uint32_t k)
{
    return v->order ? v->order[k] : k;
}

vf_result vf_export_particles_csv(const char *path, const vf_particles_view *v)
{
    vf_file file;
    vf_result begun = vf_file_begin(&file, path);
    if (begun != VF_OK)
        return begun;
    FILE *f = file.f;
    fputs("x,y,z,vx,vy,vz,density,pressure\n", f);
    for (uint32_t k = 0; k < v->n; k++) {
        uint32_t i = at(v, k);
        const float *p = v->pos[i];
        const float zero[4] = {0, 0, 0, 0};
        const float *u = v->vel ? v->vel[i] : zero;
        const float *d = v->dens ? v->dens[i] : zero;
        fprintf(f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", p[0], p[1], p[2], u[0], u[1], u[2], d[0], d[1]);
    }
    return vf_file_commit(&file); /* fails (and removes the temporary) after a write error */
}

/* Appended raw data: each block is a UInt64 byte count and the bytes. */
static void block_header(FILE *f, uint64_t bytes)
{
    fwrite(&bytes, sizeof bytes, 1, f);
}

static void write_floats(FILE *f, const vf_particles_view *v, const float (*src4)[4], const float (*src2)[2], int comps,
                         int first)
{
    enum { CHUNK = 4096 };
    float buf[CHUNK * 3];
    uint32_t k = 0;
    while (k < v->n) {
        uint32_t m = v->n - k < CHUNK ? v->n - k : CHUNK;
        for (uint32_t j = 0; j < m; j++) {
            uint32_t i = at(v, k + j);
            for (int c = 0; c < comps; c++)
                buf[j * comps + c] = src4 ? src4[i][first + c] : src2 ? src2[i][first + c] : 0.0f;
        }
        fwrite(buf, sizeof(float) * comps, m, f);
        k += m;
    }
}

static void write_ints(FILE *f, const vf_particles_view *v, int what)
{
    enum { CHUNK = 4096 };
    int32_t buf[CHUNK];
    uint32_t k = 0;
    while (k < v->n) {
        uint32_t m = v->n - k < CHUNK ? v->n - k : CHUNK;
        for (uint32_t j = 0; j < m; j++)
            buf[j] = what == 0 ? (int32_t)(k + j) : what == 1 ? (int32_t)(k + j + 1) : (int32_t)v->id[at(v, k + j)];
        fwrite(buf, sizeof(int32_t), m, f);
        k += m;
    }
}

vf_result vf_export_particles_vtp(const char *path, const vf_particles_view *v)
{
    const uint16_t probe = 1;
    if (*(const uint8_t *)&probe != 1)
        return VF_ERR_IO; /* the raw blocks below are written little-endian */
    vf_file file;
    vf_result begun = vf_file_begin(&file, path);
    if (begun != VF_OK)
        return begun;
    FILE *f = file.f;
    uint64_t n = v->n, hdr = sizeof(uint64_t);
    uint64_t off = 0;
    uint64_t o_points = off;
    off += hdr + 12 * n;
    uint64_t o_vel = off;
    off += hdr + 12 * n;
    uint64_t o_rho = off;
    off += hdr + 4 * n;
    uint64_t o_p = off;
    off += hdr + 4 * n;
    uint64_t o_id = off;
    if (v->id)
        off += hdr + 4 * n;
    uint64_t o_conn = off;
    off += hdr + 4 * n;
    uint64_t o_offs = off;
    fprintf(f,
            "<?xml version=\"1.0\"?>\n"
            "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
            "  <PolyData>\n"
            "    <Piece NumberOfPoints=\"%llu\" NumberOfVerts=\"%llu\" NumberOfLines=\"0\" NumberOfStrips=\"0\" "
            "NumberOfPolys=\"0\">\n"
            "      <PointData Scalars=\"density\" Vectors=\"velocity\">\n"
            "        <DataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "        <DataArray type=\"Float32\" Name=\"density\" format=\"appended\" offset=\"%llu\"/>\n"
            "        <DataArray type=\"Float32\" Name=\"pressure\" format=\"appended\" offset=\"%llu\"/>\n",
            (unsigned long long)n, (unsigned long long)n, (unsigned long long)o_vel, (unsigned long long)o_rho,
            (unsigned long long)o_p);
    if (v->id)
        fprintf(f, "        <DataArray type=\"Int32\" Name=\"id\" format=\"appended\" offset=\"%llu\"/>\n",
                (unsigned long long)o_id);
    fprintf(f,
            "      </PointData>\n"
            "      <Points>\n"
            "        <DataArray type=\"Float32\" Name=\"position\" NumberOfComponents=\"3\" format=\"appended\" "
            "offset=\"%llu\"/>\n"
            "      </Points>\n"
            "      <Verts>\n"
            "        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"appended\" offset=\"%llu\"/>\n"
            "        <DataArray type=\"Int32\" Name=\"offsets\" format=\"appended\" offset=\"%llu\"/>\n"
            "      </Verts>\n"
            "    </Piece>\n"
            "  </PolyData>\n"
            "  <AppendedData encoding=\"raw\">\n_",
            (unsigned long long)o_points, (unsigned long long)o_conn, (unsigned long long)o_offs);
    block_header(f, 12 * n);
    write_floats(f, v, v->pos, NULL, 3, 0);
    block_header(f, 12 * n);
    write_floats(f, v, v->vel, NULL, 3, 0);
    block_header(f, 4 * n);
    write_floats(f, v, NULL, v->dens, 1, 0);
    block_header(f, 4 * n);
    write_floats(f, v, NULL, v->dens, 1, 1);
    if (v->id) {
        block_header(f, 4 * n);
        write_ints(f, v, 2);
    }
    block_header(f, 4 * n);
    write_ints(f, v, 0);
    block_header(f, 4 * n);
    write_ints(f, v, 1);
    fprintf(f, "\n  </AppendedData>\n</VTKFile>\n");
    return vf_file_commit(&file); /* fails (and removes the temporary) after a write error */
}
