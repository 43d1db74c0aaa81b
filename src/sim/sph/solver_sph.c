#include "solver_sph.h"
#include "sph_private.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPH_PI 3.14159265358979323846

#include "gpu_buffer.h"
#include "gpu_cmd.h"
#include "gpu_counters.h"
#include "gpu_pipeline.h"
#include "text.h"

/* The pass enum (SP_*), binding counts and table SP_passes, from sph_passes.def. */
#define VF_PASS_FILE "sph_passes.def"
#define VF_PASS_PREFIX SP
#define VF_PASS_TABLE_FN vf_sph_pass_table
#include "sim_pass_table.h"

/* Bytes of GPU memory per particle of capacity: pos and vel (vec4, double
 * buffered), ids (double buffered), cell, slot, key, (density, pressure),
 * acceleration, the two neighbour records, the neighbour bits. */
#define SPH_BYTES_PER_PARTICLE (2 * 16 + 2 * 16 + 2 * 4 + 4 + 4 + 4 + 8 + 16 + 2 * 16 + 4 * VF_SPH_MASK_WORDS)

_Static_assert(SP_COUNT <= SPH_MAX_PIPES, "sph_private.h: SPH_MAX_PIPES holds every pass of sph_passes.def");

static void vec4f(float out[4], const double in[3], double w)
{
    out[0] = (float)in[0];
    out[1] = (float)in[1];
    out[2] = (float)in[2];
    out[3] = (float)w;
}

/* ------------------------------------------------------------------ setup */

static vf_result create_pipelines(vf_sph *s)
{
    vf_result r = VF_OK;
    uint32_t spec[] = {[VF_SPH_SPEC_TEXEL] = s->texel, [VF_SPH_SPEC_TENSION] = s->desc.tension > 0,
                       [VF_SPH_SPEC_WARM] = s->desc.method == VF_SPH_DFSPH};
    for (int i = 0; i < SP_COUNT && r == VF_OK; i++) {
        /* the other methods do without the weakly compressible forces and integration */
        bool wcsph_only = i == SP_FORCES || i == SP_FORCES_DRIFT || i == SP_INTEGRATE;
        if (!wcsph_only || s->desc.method == VF_SPH_WCSPH)
            r = vf_sim_pass_pipeline(s->gpu, &SP_passes[i], spec, 3, NULL, &s->pipe[i]);
    }
    if (r == VF_OK && s->desc.method == VF_SPH_PBF)
        r = sph_pbf_create(s, spec, 2);
    if (r == VF_OK && s->desc.method == VF_SPH_DFSPH)
        r = sph_dfsph_create(s, spec, 2);
    return r;
}

static vf_result make_view_buffer(vf_gpu *gpu, VkDeviceSize size, VkBufferUsageFlags usage, VkFormat texel,
                                  const char *name, vf_buffer **out)
{
    vf_buffer_desc bd = {
        .size = size,
        .usage = usage ? usage
                       : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .name = name,
        .texel_format = texel,
    };
    return vf_buffer_create(gpu, &bd, out);
}

static vf_result make_buffer(vf_gpu *gpu, VkDeviceSize size, VkBufferUsageFlags usage, const char *name, vf_buffer **out)
{
    return make_view_buffer(gpu, size, usage, VK_FORMAT_UNDEFINED, name, out);
}

/* The formats of the texel views density, forces, the integration and the
 * scan read (shared_sph.h); Vulkan requires uniform texel buffer support of
 * all four. */
#define SPH_START_TEXELS VK_FORMAT_R32_UINT
#define SPH_VEC4_TEXELS VK_FORMAT_R32G32B32A32_SFLOAT
#define SPH_VEC2_TEXELS VK_FORMAT_R32G32_SFLOAT
#define SPH_BITS_TEXELS VK_FORMAT_R32G32_UINT
#define SPH_FLOAT_TEXELS VK_FORMAT_R32_SFLOAT

/* Whether the device can read every particle, cell start and neighbour bit as a texel. */
static bool texel_reads_fit(vf_sph *s)
{
    return vf_gpu_texel_buffer_fits(s->gpu, SPH_START_TEXELS, (uint64_t)s->cells + 1) &&
           vf_gpu_texel_buffer_fits(s->gpu, SPH_START_TEXELS, s->capacity) && /* cells, slots, keys, ids */
           vf_gpu_texel_buffer_fits(s->gpu, SPH_VEC4_TEXELS, s->capacity) &&
           vf_gpu_texel_buffer_fits(s->gpu, SPH_VEC2_TEXELS, s->capacity) &&
           vf_gpu_texel_buffer_fits(s->gpu, SPH_FLOAT_TEXELS, s->capacity) &&
           vf_gpu_texel_buffer_fits(s->gpu, SPH_BITS_TEXELS, (uint64_t)s->capacity * VF_SPH_MASK_WORDS / 2);
}

/* Blocks of counts the two-pass scan of the cell starts works on. */
static VkDeviceSize scan_blocks(const vf_sph *s)
{
    return ((VkDeviceSize)s->cells + 1 + VF_SPH_SCAN_BLOCK - 1) / VF_SPH_SCAN_BLOCK;
}

static vf_result create_buffers(vf_sph *s)
{
    vf_gpu *g = s->gpu;
    VkDeviceSize n = s->capacity;
    vf_result r;
    if ((r = make_buffer(g, sizeof(vf_sph_params), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         "sph params", &s->params)) ||
        (r = make_buffer(g, sizeof(vf_sph_state), 0, "sph state", &s->state)) ||
        (r = make_buffer(g, 32,
                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                             VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                         "sph dispatch args", &s->dispatch)) ||
        (r = make_view_buffer(g, 4 * ((VkDeviceSize)s->cells + 1), 0, SPH_START_TEXELS, "sph cell starts",
                              &s->start)) ||
        (r = make_view_buffer(g, 4 * ((VkDeviceSize)s->cells + 1), 0, SPH_START_TEXELS, "sph cell counts",
                              &s->counts)) ||
        (r = make_view_buffer(g, 4 * scan_blocks(s), 0, SPH_START_TEXELS, "sph cell count block sums", &s->sums)) ||
        (r = make_view_buffer(g, 4 * n, 0, SPH_START_TEXELS, "sph cell", &s->cell)) ||
        (r = make_view_buffer(g, 4 * n, 0, SPH_START_TEXELS, "sph slot", &s->slot)) ||
        (r = make_view_buffer(g, 4 * n, 0, SPH_START_TEXELS, "sph keys", &s->keys)) ||
        (r = make_view_buffer(g, 8 * n, 0, SPH_VEC2_TEXELS, "sph density", &s->dens)) ||
        (r = make_view_buffer(g, 16 * n, 0, SPH_VEC4_TEXELS, "sph neighbour x and p / rho^2", &s->nb_x)) ||
        (r = make_view_buffer(g, 16 * n, 0, SPH_VEC4_TEXELS, "sph neighbour v and 1 / rho", &s->nb_v)) ||
        (r = make_view_buffer(g, 16 * n, 0, SPH_VEC4_TEXELS, "sph acceleration", &s->acc)) ||
        (r = make_view_buffer(g, 4 * VF_SPH_MASK_WORDS * n, 0, SPH_BITS_TEXELS, "sph neighbour bits", &s->nb_bits)) ||
        (r = make_buffer(g, 16 * (VkDeviceSize)(s->prm.emit_count ? s->prm.emit_count : 1), 0, "sph nozzle pattern",
                         &s->pattern)))
        return r;
    if (s->desc.method == VF_SPH_PBF &&
        (r = make_view_buffer(g, 16 * n, 0, SPH_VEC4_TEXELS, "pbf iteration positions", &s->iter)))
        return r;
    if (s->desc.method == VF_SPH_DFSPH &&
        ((r = make_buffer(g, VF_DFSPH_CTL_BYTES,
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          "dfsph control", &s->ctl)) ||
         (r = make_view_buffer(g, 8 * n, 0, SPH_VEC2_TEXELS, "dfsph warm start 0", &s->warm[0])) ||
         (r = make_view_buffer(g, 8 * n, 0, SPH_VEC2_TEXELS, "dfsph warm start 1", &s->warm[1])) ||
         (r = make_view_buffer(g, 4 * n, 0, SPH_FLOAT_TEXELS, "dfsph kappa", &s->kappa)) ||
         (r = make_buffer(g, 4 * ((n + VF_SPH_WG - 1) / VF_SPH_WG) + 16, 0, "dfsph error sums", &s->partial))))
        return r;
    for (int k = 0; k < 2; k++) {
        char name[32];
        snprintf(name, sizeof name, "sph position %d", k);
        if ((r = make_view_buffer(g, 16 * n, 0, SPH_VEC4_TEXELS, name, &s->pos[k])))
            return r;
        snprintf(name, sizeof name, "sph velocity %d", k);
        if ((r = make_view_buffer(g, 16 * n, 0, SPH_VEC4_TEXELS, name, &s->vel[k])))
            return r;
        snprintf(name, sizeof name, "sph id %d", k);
        if ((r = make_view_buffer(g, 4 * n, 0, SPH_START_TEXELS, name, &s->id[k])))
            return r;
    }
    return VF_OK;
}

/* The sum of term(r, z, h, c) over the points of the cubic lattice of
 * spacing s within h of a lattice point (that point included: r = 0), r
 * their distance and z their offset along one axis. */
static double lattice_sum(double h, double s, double (*term)(double r, double z, double h, double c), double c)
{
    int m = (int)ceil(h / s) + 1;
    double sum = 0;
    for (int i = -m; i <= m; i++)
        for (int j = -m; j <= m; j++)
            for (int l = -m; l <= m; l++) {
                double r = s * sqrt((double)(i * i + j * j + l * l));
                if (r < h)
                    sum += term(r, l * s, h, c);
            }
    return sum;
}

static double spiky_moment_term(double r, double z, double h, double c)
{
    (void)c;
    return r > 0 ? 45.0 / (SPH_PI * pow(h, 6)) * (h - r) * (h - r) * z * z / r : 0.0;
}

static double wendland_term(double r, double z, double h, double c)
{
    (void)z, (void)c;
    double q = r / h;
    return (1 - q) * (1 - q) * (1 - q) * (1 - q) * (1 + 4 * q);
}

static double spiky_grad2_term(double r, double z, double h, double spiky)
{
    (void)z;
    double g = spiky * (1 - r / h) * (1 - r / h);
    return r > 0 ? g * g : 0.0;
}

/* The first moment of the spiky gradient over the cubic lattice of spacing s
 * (without the particle itself): K = s^3 sum |dW/dr| z^2 / r. The continuous
 * value is 1 (the SPH gradient of a linear field is exact); on a lattice of
 * h / s = 2.41 it is 0.944, i.e. a pressure gradient 6% too steep. Dividing
 * the gradient by K makes it exact on the lattice the fluid starts from. */
static double spiky_lattice_moment(double h, double s)
{
    return lattice_sum(h, s, spiky_moment_term, 0) * s * s * s;
}

/* The sum of the Wendland C2 shape (1 - q)^4 (1 + 4 q), q = r / h, times
 * 21 s^3 / (2 pi h^3) over the cubic lattice of spacing s (the particle
 * itself included): 1 for the continuous kernel, 1.017 at h / s = 2.41.
 * dfsph's density divides by it, so that the lattice the fluid starts from
 * is at rest density. */
static double wendland_lattice_sum(double h, double s)
{
    return lattice_sum(h, s, wendland_term, 0) * 21.0 * s * s * s / (2.0 * SPH_PI * h * h * h);
}

/* sum_j |grad W_ij|^2 over the cubic lattice of spacing s around a lattice
 * point (the spiky gradient of factor spiky): the PBF constraint's
 * sum |grad C|^2 of a particle at rest is volume^2 times it. */
static double spiky_lattice_grad2(double h, double s, double spiky)
{
    return lattice_sum(h, s, spiky_grad2_term, spiky);
}

/* The PBF substeps a frame and iterations a substep of d (0: the defaults). */
static uint32_t pbf_substeps(const vf_sph_desc *d)
{
    return d->pbf_substeps ? d->pbf_substeps : 2;
}

/* The substeps a DFSPH frame records: the desc's, or enough CFL steps at
 * 1.25 times the largest expected speed, and no fewer than frame_dt over the
 * largest step. */
/* DFSPH's largest step without a fixed count: CFL at 1.25 times the largest
 * expected speed, at most dfsph_dt_max. */
static double dfsph_auto_step(const vf_sph_desc *d)
{
    double cfl = d->dfsph_cfl > 0 ? d->dfsph_cfl : 0.4, dt_max = d->dfsph_dt_max > 0 ? d->dfsph_dt_max : 0.005;
    return fmin(dt_max, cfl * d->spacing / (1.25 * fmax(d->speed_ref, 1e-6)));
}

static uint32_t dfsph_substeps(const vf_sph_desc *d)
{
    if (d->dfsph_substeps)
        return d->dfsph_substeps;
    double n = ceil(d->frame_dt / dfsph_auto_step(d) - 1e-9);
    return n < 1 ? 1 : n > VF_SPH_MAX_FRAME_SUBSTEPS ? VF_SPH_MAX_FRAME_SUBSTEPS + 1 : (uint32_t)n;
}

/* Fills the constants block from the desc. */
static void fill_params(vf_sph *s, uint32_t gx, uint32_t gy, uint32_t gz)
{
    const vf_sph_desc *d = &s->desc;
    vf_sph_params *p = &s->prm;
    memset(p, 0, sizeof *p);
    vec4f(p->lo, d->lo, 0);
    vec4f(p->hi, d->hi, 0);
    vec4f(p->gravity, d->gravity, 0);
    if (d->sink) {
        vec4f(p->sink_lo, d->sink_lo, 0);
        vec4f(p->sink_hi, d->sink_hi, 0);
        p->sink_enabled = 1;
    }
    vec4f(p->emit_origin, d->emit_origin, 0);
    vec4f(p->emit_velocity, d->emit_velocity, 0);
    for (uint32_t k = 0; k < d->sphere_count; k++)
        vec4f(p->spheres[k], d->spheres[k], d->spheres[k][3]);
    for (uint32_t k = 0; k < d->box_count; k++) {
        vec4f(p->box_lo[k], d->box_lo[k], 0);
        vec4f(p->box_hi[k], d->box_hi[k], 0);
    }
    p->grid_x = gx;
    p->grid_y = gy;
    p->grid_z = gz;
    p->cells = gx * gy * gz;
    p->sphere_count = d->sphere_count;
    p->box_count = d->box_count;
    p->capacity = s->capacity;
    p->eos = (uint32_t)d->eos;
    p->clamp_pressure = d->keep_negative_pressure ? 0u : 1u;
    p->sink_enabled = d->sink ? 1u : 0u;
    p->max_groups_x = s->gpu->props.limits.maxComputeWorkGroupCount[0];
    double h = d->h;
    p->h = (float)h;
    p->h2 = (float)(h * h);
    p->inv_h = (float)(1.0 / h);
    p->inv_cell = (float)(VF_SPH_CELL_DIV / h);
    p->mass = (float)(d->rho0 * d->spacing * d->spacing * d->spacing);
    p->rho0 = (float)d->rho0;
    p->eos_b = (float)(d->rho0 * d->sound_speed * d->sound_speed / 7.0);
    p->eos_k = (float)(d->stiffness > 0 ? d->stiffness : d->sound_speed * d->sound_speed);
    p->poly6 = (float)(315.0 / (64.0 * SPH_PI * h * h * h));
    p->spiky = (float)(45.0 / (SPH_PI * h * h * h * h) / spiky_lattice_moment(h, d->spacing));
    p->visc = (float)(45.0 / (SPH_PI * h * h * h * h * h));
    p->poly6_grad = (float)(945.0 / (32.0 * SPH_PI * h * h * h * h));
    p->poly6_lap = (float)(945.0 / (32.0 * SPH_PI * h * h * h * h * h));
    p->dfsph_w = (float)(21.0 / (2.0 * SPH_PI * h * h * h) / wendland_lattice_sum(h, d->spacing));
    p->dfsph_grad = (float)(210.0 / (SPH_PI * h * h * h * h * h));
    p->viscosity = (float)d->viscosity;
    p->tension = (float)d->tension;
    p->tension_threshold = (float)(0.2 / h); /* |grad c| ~ 1/h at a free surface, ~0 inside */
    p->restitution = (float)d->restitution;
    p->damping = (float)d->damping;
    p->emit_clearance2 = (float)(0.8 * d->spacing * 0.8 * d->spacing);
    double volume = d->spacing * d->spacing * d->spacing;
    p->volume = (float)volume;
    p->frame_dt = (float)d->frame_dt;
    p->noslip = d->walls == VF_SPH_WALLS_NOSLIP;
    p->spacing = (float)d->spacing;
    p->dfsph_cfl = (float)(d->dfsph_cfl > 0 ? d->dfsph_cfl : 0.4);
    p->dfsph_dt_max = (float)(d->dfsph_dt_max > 0 ? d->dfsph_dt_max : 0.005);
    p->dfsph_eta = (float)(d->dfsph_eta > 0 ? d->dfsph_eta : 1e-4);
    p->dfsph_eta_v = (float)(d->dfsph_eta_v > 0 ? d->dfsph_eta_v : 1e-3);
    p->dfsph_max_iterations = d->dfsph_max_iterations ? d->dfsph_max_iterations : 30;
    if (p->dfsph_max_iterations > VF_DFSPH_MAX_ITERATIONS)
        p->dfsph_max_iterations = VF_DFSPH_MAX_ITERATIONS;
    p->scan_groups = (uint32_t)(((uint64_t)p->cells + 1 + VF_SPH_SCAN_BLOCK - 1) / VF_SPH_SCAN_BLOCK);
    /* sum_k |grad_k C|^2 of a particle of the rest lattice: the scale of the
     * constraint's relaxation and of the artificial pressure (a lambda of
     * -k / S0 is what a density error k gives at rest) */
    double s0 = volume * volume * spiky_lattice_grad2(h, d->spacing, p->spiky);
    p->pbf_relax = (float)(d->pbf_relaxation * s0);
    p->pbf_omega = (float)(d->pbf_omega > 0 ? d->pbf_omega : VF_SPH_PBF_OMEGA);
    p->pbf_scorr_k = (float)(d->pbf_tensile_k / s0);
    double dq = 1 - d->pbf_tensile_dq * d->pbf_tensile_dq;
    p->pbf_scorr_inv_w = (float)(dq > 0 ? 1 / (dq * dq * dq) : 0);
    p->pbf_scorr_n = (float)d->pbf_tensile_n;
    p->xsph = (float)d->xsph;
    p->vorticity = (float)d->vorticity;
}

/* The nozzle: points of a square lattice of the particle spacing on a disc
 * of emit_radius orthogonal to the emission direction. Returns the count. */
static uint32_t nozzle_pattern(const vf_sph_desc *d, float (*out)[4], uint32_t max)
{
    double v[3] = {d->emit_velocity[0], d->emit_velocity[1], d->emit_velocity[2]};
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    double n[3] = {v[0] / len, v[1] / len, v[2] / len};
    double a[3] = {1, 0, 0};
    if (fabs(n[0]) > 0.9) {
        a[0] = 0;
        a[1] = 1;
    }
    /* e1 = normalize(a - (a.n) n), e2 = n x e1 */
    double an = a[0] * n[0] + a[1] * n[1] + a[2] * n[2];
    double e1[3] = {a[0] - an * n[0], a[1] - an * n[1], a[2] - an * n[2]};
    double l1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
    for (int k = 0; k < 3; k++)
        e1[k] /= l1;
    double e2[3] = {n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2], n[0] * e1[1] - n[1] * e1[0]};
    int m = (int)floor(d->emit_radius / d->spacing);
    uint32_t count = 0;
    for (int i = -m; i <= m; i++)
        for (int j = -m; j <= m; j++) {
            double u = i * d->spacing, w = j * d->spacing;
            if (u * u + w * w > d->emit_radius * d->emit_radius + 1e-12)
                continue;
            if (count < max && out)
                for (int k = 0; k < 3; k++)
                    out[count][k] = (float)(u * e1[k] + w * e2[k]);
            if (out && count < max)
                out[count][3] = 0;
            count++;
        }
    return count;
}

static double vlen(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* The step size: CFL with the speed of sound plus the largest expected flow
 * speed, the force limit 0.25 sqrt(h / a) and the viscous limit
 * 0.05 h^2 rho0 / mu (the viscosity kernel's Laplacian has a diagonal of
 * about 15 nu / h^2, so its largest eigenvalue is about 30 nu / h^2 and
 * explicit steps need dt < 2 / 30 h^2 / nu; 0.05 leaves a margin). */
double vf_sph_step_size(const vf_sph_desc *d)
{
    if (d->method == VF_SPH_PBF)
        return d->frame_dt / pbf_substeps(d);
    if (d->method == VF_SPH_DFSPH)
        return d->frame_dt / dfsph_substeps(d);
    double h = d->h;
    double dt = d->cfl * h / (d->sound_speed + d->speed_ref);
    double a = vlen(d->gravity) + fabs(d->interact_strength);
    if (a > 0)
        dt = fmin(dt, 0.25 * sqrt(h / a));
    if (d->viscosity > 0)
        dt = fmin(dt, 0.05 * h * h * d->rho0 / d->viscosity);
    return dt;
}

vf_result vf_sph_check_fields(const vf_sph_desc *d, const char **key, char *err, size_t cap)
{
    for (int k = 0; k < 3; k++)
        if (!(d->hi[k] > d->lo[k])) {
            vf_set_err(err, cap, "tank: the domain must have a positive size along every axis");
            return VF_ERR_INVALID_ARG;
        }
    /* the one range check of the spacing and of h (smoothing x spacing in the scenes) */
    double tank_min = fmin(d->hi[0] - d->lo[0], fmin(d->hi[1] - d->lo[1], d->hi[2] - d->lo[2]));
    if (!(d->spacing > 0) || d->spacing > tank_min) {
        vf_set_key_err(key, err, cap, "spacing", ": %g m is not in (0, %g]: it must be positive and fit the tank's smallest side",
                   d->spacing, tank_min);
        return VF_ERR_INVALID_ARG;
    }
    if (!(d->h > 0) || !(d->sound_speed > 0) || !(d->rho0 > 0) || !(d->cfl > 0) || !(d->frame_dt > 0)) {
        vf_set_err(err, cap, "sph: h, sound_speed, rho0, cfl and frame_dt must be positive");
        return VF_ERR_INVALID_ARG;
    }
    if (d->sphere_count > VF_SPH_MAX_SPHERES || d->box_count > VF_SPH_MAX_BOXES) {
        vf_set_err(err, cap, "sph: at most %d sphere and %d box obstacles", VF_SPH_MAX_SPHERES, VF_SPH_MAX_BOXES);
        return VF_ERR_INVALID_ARG;
    }
    if (d->restitution < 0 || d->restitution > 1) {
        vf_set_key_err(key, err, cap, "restitution", ": must be in [0, 1]");
        return VF_ERR_INVALID_ARG;
    }
    if (d->count && !d->pos) {
        vf_set_err(err, cap, "sph: particle positions missing");
        return VF_ERR_INVALID_ARG;
    }
    if (d->emitter && !(vlen(d->emit_velocity) > 0 && d->emit_radius >= 0)) {
        vf_set_err(err, cap, "emitter: needs a positive speed");
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

vf_result vf_sph_check_desc(const vf_sph_desc *desc, const char **key, char *err, size_t cap)
{
    if (err && cap)
        err[0] = 0;
    vf_result r = vf_sph_check_fields(desc, key, err, cap);
    if (r == VF_OK)
        r = vf_sph_check_substeps(desc, key, err, cap);
    return r == VF_OK ? vf_sph_check_nozzle(desc, err, cap) : r;
}

vf_result vf_sph_check_substeps(const vf_sph_desc *desc, const char **key, char *err, size_t cap)
{
    /* substeps per frame, bounded before anything is allocated or recorded:
     * a fast sound speed or a fine spacing with a long frame would otherwise
     * run thousands of substeps per frame */
    if (desc->method == VF_SPH_DFSPH && !desc->dfsph_substeps) {
        double dt = dfsph_auto_step(desc), n = ceil(desc->frame_dt / dt - 1e-9);
        if (!(n <= VF_SPH_MAX_FRAME_SUBSTEPS)) {
            vf_set_key_err(key, err, cap,
                       "frame_dt", ": %g s needs %.6g dfsph substeps of %.3g s (dfsph_dt_max %g s, dfsph_cfl %g, spacing %g m): "
                       "at most %d per frame: use frame_dt in (0, %.3g], or a larger dfsph_dt_max or spacing",
                       desc->frame_dt, n, dt, desc->dfsph_dt_max, desc->dfsph_cfl, desc->spacing,
                       VF_SPH_MAX_FRAME_SUBSTEPS, VF_SPH_MAX_FRAME_SUBSTEPS * dt);
            return VF_ERR_INVALID_ARG;
        }
    }
    double dt = vf_sph_step_size(desc), n = ceil(desc->frame_dt / dt - 1e-9);
    if (!(n <= VF_SPH_MAX_FRAME_SUBSTEPS)) {
        vf_set_key_err(key, err, cap,
                   "frame_dt", ": %g s needs %.6g substeps of %.3g s (sound speed %g m/s, spacing %g m, cfl %g): at most %d "
                   "per frame: use frame_dt in (0, %.3g], or a larger spacing (fewer particles) or a lower sound_speed",
                   desc->frame_dt, n, dt, desc->sound_speed, desc->spacing, desc->cfl, VF_SPH_MAX_FRAME_SUBSTEPS,
                   VF_SPH_MAX_FRAME_SUBSTEPS * dt);
        return VF_ERR_INVALID_ARG;
    }
    return VF_OK;
}

vf_result vf_sph_check_nozzle(const vf_sph_desc *desc, char *err, size_t cap)
{
    if (desc->emitter) {
        uint32_t points = nozzle_pattern(desc, NULL, 0);
        if (points == 0 || points > VF_SPH_EMIT_MAX) {
            vf_set_err(err, cap, "emitter: the nozzle has %u points at this spacing; it must have 1 to %d", points,
                       VF_SPH_EMIT_MAX);
            return VF_ERR_INVALID_ARG;
        }
    }
    return VF_OK;
}

/* ------------------------------------------------------------------ recording */

void sph_barrier(const vf_sph *s, VkCommandBuffer cmd)
{
    /* Compute writes -> compute reads/writes and indirect dispatch arguments. */
    vf_cmd_barrier_on(s->gpu, cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                   VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
}

static vf_binding B(vf_buffer *b)
{
    return vf_bind_buffer(b);
}

/* Records pipe over the particles: an indirect dispatch (the count is on
 * the GPU), then the barrier. */
/* Records p dispatched by the arguments at offset of args, then the barrier. */
static void dispatch_pipe_at(vf_sph *s, VkCommandBuffer cmd, vf_pipeline *p, const vf_binding *b, const void *push,
                             vf_buffer *args, VkDeviceSize offset)
{
    vf_cmd_bind(cmd, p, b, push);
    vkCmdDispatchIndirect(cmd, args->buffer, offset);
    if (s->gpu->counters)
        vf_count_dispatch(s->gpu, p->name, vf_pipeline_bound_bytes(p, b), true, p->neighbours);
    sph_barrier(s, cmd);
}

/* The per-particle dispatch: by the particle count (sph_args), or while a
 * method gates the binning (dfsph), by the gate's substep arguments. */
static void dispatch_pipe(vf_sph *s, VkCommandBuffer cmd, vf_pipeline *p, const vf_binding *b, const void *push)
{
    dispatch_pipe_at(s, cmd, p, b, push, s->gate ? s->gate : s->dispatch, 0);
}

void sph_record_particles_at(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                             vf_pipeline *pipe, const vf_binding *b, const void *push, vf_buffer *args,
                             VkDeviceSize offset)
{
    uint32_t sc = vf_sim_pass_begin(s->gpu, cmd, prof, pass);
    dispatch_pipe_at(s, cmd, pipe, b, push, args, offset);
    vf_sim_pass_end(s->gpu, cmd, prof, sc);
}

static void dispatch_particles(vf_sph *s, VkCommandBuffer cmd, int pass, const vf_binding *b, const void *push)
{
    dispatch_pipe(s, cmd, s->pipe[pass], b, push);
}

void sph_record_particles(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, const vf_sim_pass *pass,
                          vf_pipeline *pipe, const vf_binding *b, const void *push)
{
    uint32_t sc = vf_sim_pass_begin(s->gpu, cmd, prof, pass);
    dispatch_pipe(s, cmd, pipe, b, push);
    vf_sim_pass_end(s->gpu, cmd, prof, sc);
}

/* dispatch_particles in the pass's own profiler scope. */
static void record_particles(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, int pass, const vf_binding *b,
                             const void *push)
{
    sph_record_particles(s, cmd, prof, &SP_passes[pass], s->pipe[pass], b, push);
}

static void record_args(vf_sph *s, VkCommandBuffer cmd, uint32_t mode)
{
    vf_binding b[VF_MAX_BINDINGS] = {[VF_SPH_BIND_PARAMS] = B(s->params), [VF_SPH_BIND_STATE] = B(s->state),
                                      [VF_SPH_ARGS_BIND_START] = B(s->start),
                                      [VF_SPH_ARGS_BIND_DISPATCH] = B(s->dispatch)};
    vf_sph_args_push pc = {.mode = mode};
    vf_cmd_dispatch(cmd, s->pipe[SP_ARGS], b, &pc, 1, 1, 1);
    sph_barrier(s, cmd);
}

/* The cell starts from the counts (two passes), which also sets the counts
 * back to zero for the next binning. */
static void record_scan(vf_sph *s, VkCommandBuffer cmd)
{
    vf_sph_scan_push pc = {.count = s->cells + 1};
    uint64_t items = (uint64_t)scan_blocks(s) * VF_SPH_SCAN_WG;
    vf_binding sb[VF_MAX_BINDINGS] = {[VF_SPH_SCAN_BIND_COUNTS] = B(s->counts),
                                            [VF_SPH_SCAN_BIND_SUMS] = B(s->sums),
                                            [VF_SPH_SCAN_BIND_COUNTS_T] = B(s->counts)};
    if (s->gate)
        dispatch_pipe_at(s, cmd, s->pipe[SP_SCAN_SUMS], sb, &pc, s->gate, offsetof(vf_dfsph_ctl, scan_x));
    else {
        vf_cmd_dispatch_1d(cmd, s->pipe[SP_SCAN_SUMS], sb, &pc, items);
        sph_barrier(s, cmd);
    }
    vf_binding xb[VF_MAX_BINDINGS] = {[VF_SPH_SCAN_BIND_COUNTS] = B(s->counts), [VF_SPH_SCAN_BIND_SUMS] = B(s->sums),
                                       [VF_SPH_SCAN_BIND_START] = B(s->start),
                                       [VF_SPH_SCAN_BIND_COUNTS_T] = B(s->counts),
                                       [VF_SPH_SCAN_BIND_SUMS_T] = B(s->sums)};
    if (s->gate)
        dispatch_pipe_at(s, cmd, s->pipe[SP_SCAN], xb, &pc, s->gate, offsetof(vf_dfsph_ctl, scan_x));
    else {
        vf_cmd_dispatch_1d(cmd, s->pipe[SP_SCAN], xb, &pc, items);
        sph_barrier(s, cmd);
    }
}

/* The binning; binned: the counts, cells and slots were already made by the
 * leapfrog drift (sph_integrate with bin = 1). The counts are zero before a
 * binning (zero at creation, set back to zero by every scan). */
vf_result sph_record_binning(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, bool binned)
{
    int a = s->cur, o = 1 - s->cur;
    if (!binned) {
        vf_binding bb[VF_MAX_BINDINGS] = {[VF_SPH_BIND_PARAMS] = B(s->params),  [VF_SPH_BIND_STATE] = B(s->state),
                                          [VF_SPH_BIN_BIND_POS] = B(s->pos[a]), [VF_SPH_BIN_BIND_CELL] = B(s->cell),
                                          [VF_SPH_BIN_BIND_SLOT] = B(s->slot),  [VF_SPH_BIN_BIND_START] = B(s->counts)};
        record_particles(s, cmd, prof, SP_BIN, bb, NULL);
    }

    uint32_t sc = vf_sim_pass_begin(s->gpu, cmd, prof, &SP_passes[SP_SCAN_SUMS]);
    record_scan(s, cmd);
    vf_sim_pass_end(s->gpu, cmd, prof, sc);

    vf_binding sb[VF_MAX_BINDINGS] = {[VF_SPH_BIND_PARAMS] = B(s->params),    [VF_SPH_BIND_STATE] = B(s->state),
                                       [VF_SPH_SORT_BIND_ID] = B(s->id[a]),    [VF_SPH_SORT_BIND_CELL] = B(s->cell),
                                       [VF_SPH_SORT_BIND_SLOT] = B(s->slot),   [VF_SPH_SORT_BIND_START] = B(s->start),
                                       [VF_SPH_SORT_BIND_KEYS] = B(s->keys),   [VF_SPH_SORT_BIND_ID_T] = B(s->id[a]),
                                       [VF_SPH_SORT_BIND_CELL_T] = B(s->cell), [VF_SPH_SORT_BIND_SLOT_T] = B(s->slot),
                                       [VF_SPH_SORT_BIND_START_T] = B(s->start)};
    record_particles(s, cmd, prof, SP_SORT, sb, NULL);

    sc = vf_sim_pass_begin(s->gpu, cmd, prof, &SP_passes[SP_SCATTER]);
    vf_binding xb[VF_MAX_BINDINGS] = {
        [VF_SPH_BIND_PARAMS] = B(s->params),          [VF_SPH_BIND_STATE] = B(s->state),
        [VF_SPH_SCATTER_BIND_CELL] = B(s->cell),      [VF_SPH_SCATTER_BIND_START] = B(s->start),
        [VF_SPH_SCATTER_BIND_KEYS] = B(s->keys),      [VF_SPH_SCATTER_BIND_POS_IN] = B(s->pos[a]),
        [VF_SPH_SCATTER_BIND_VEL_IN] = B(s->vel[a]),  [VF_SPH_SCATTER_BIND_ID_IN] = B(s->id[a]),
        [VF_SPH_SCATTER_BIND_POS_OUT] = B(s->pos[o]), [VF_SPH_SCATTER_BIND_VEL_OUT] = B(s->vel[o]),
        [VF_SPH_SCATTER_BIND_ID_OUT] = B(s->id[o]),   [VF_SPH_SCATTER_BIND_CELL_T] = B(s->cell),
        [VF_SPH_SCATTER_BIND_START_T] = B(s->start),  [VF_SPH_SCATTER_BIND_KEYS_T] = B(s->keys),
        [VF_SPH_SCATTER_BIND_POS_IN_T] = B(s->pos[a]), [VF_SPH_SCATTER_BIND_VEL_IN_T] = B(s->vel[a]),
        [VF_SPH_SCATTER_BIND_ID_IN_T] = B(s->id[a]),
        /* dfsph: the warm start moves with the particles; else not accessed */
        [VF_SPH_SCATTER_BIND_WARM_IN] = s->warm[a] ? B(s->warm[a]) : (vf_binding){.buffer = s->dens, .range = 8},
        [VF_SPH_SCATTER_BIND_WARM_OUT] = s->warm[o] ? B(s->warm[o]) : (vf_binding){.buffer = s->dens, .range = 8}};
    dispatch_particles(s, cmd, SP_SCATTER, xb, NULL);
    if (s->desc.sink)
        record_args(s, cmd, VF_SPH_ARGS_COMPACT);
    vf_sim_pass_end(s->gpu, cmd, prof, sc);
    s->cur = o;
    return VF_OK;
}

vf_result vf_sph_record_binning(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    return sph_record_binning(s, cmd, prof, false);
}

/* Density and forces; drift: the forces pass also records the closing kick
 * of this step and the drift of the next (sph_forces_drift; its push
 * constants), NULL: it writes the accelerations. */
static void record_evaluate(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, const vf_sph_forces_push *drift)
{
    int a = s->cur;
    vf_binding db[VF_MAX_BINDINGS] = {[VF_SPH_BIND_PARAMS] = B(s->params),
                                          [VF_SPH_BIND_STATE] = B(s->state),
                                          [VF_SPH_DENSITY_BIND_START] = B(s->start),
                                          [VF_SPH_DENSITY_BIND_POS] = B(s->pos[a]),
                                          [VF_SPH_DENSITY_BIND_DENS] = B(s->dens),
                                          [VF_SPH_DENSITY_BIND_START_T] = B(s->start),
                                          [VF_SPH_DENSITY_BIND_POS_T] = B(s->pos[a]),
                                          [VF_SPH_DENSITY_BIND_VEL] = B(s->vel[a]),
                                          [VF_SPH_DENSITY_BIND_NB_X] = B(s->nb_x),
                                          [VF_SPH_DENSITY_BIND_NB_V] = B(s->nb_v),
                                          [VF_SPH_DENSITY_BIND_NB_BITS] = B(s->nb_bits),
                                          [VF_SPH_DENSITY_BIND_VEL_T] = B(s->vel[a])};
    record_particles(s, cmd, prof, SP_DENSITY, db, NULL);
    if (!s->pipe[SP_FORCES])
        return; /* the other methods: the density only (the state at creation) */
    vf_binding fb[VF_MAX_BINDINGS] = {[VF_SPH_BIND_PARAMS] = B(s->params),
                                         [VF_SPH_BIND_STATE] = B(s->state),
                                         [VF_SPH_FORCES_BIND_START] = B(s->start),
                                         [VF_SPH_FORCES_BIND_NB_X] = B(s->nb_x),
                                         [VF_SPH_FORCES_BIND_NB_V] = B(s->nb_v),
                                         [VF_SPH_FORCES_BIND_ACC] = B(s->acc),
                                         [VF_SPH_FORCES_BIND_START_T] = B(s->start),
                                         [VF_SPH_FORCES_BIND_NB_X_T] = B(s->nb_x),
                                         [VF_SPH_FORCES_BIND_NB_V_T] = B(s->nb_v),
                                         [VF_SPH_FORCES_BIND_NB_BITS] = B(s->nb_bits),
                                         [VF_SPH_FORCES_BIND_NB_BITS_T] = B(s->nb_bits)};
    if (!drift) {
        record_particles(s, cmd, prof, SP_FORCES, fb, &s->interact);
        return;
    }
    /* without binning the bin buffers are bound by their first word only */
    bool bin = (drift->flags & VF_SPH_DRIFT_BIN) != 0;
    vf_binding db2[VF_MAX_BINDINGS] = {
        [VF_SPH_BIND_PARAMS] = B(s->params),
        [VF_SPH_BIND_STATE] = B(s->state),
        [VF_SPH_FORCES_BIND_START] = B(s->start),
        [VF_SPH_FORCES_BIND_NB_X] = B(s->nb_x),
        [VF_SPH_FORCES_BIND_NB_V] = B(s->nb_v),
        [VF_SPH_FORCES_BIND_ACC] = {.buffer = s->acc, .range = 16},
        [VF_SPH_FORCES_BIND_START_T] = B(s->start),
        [VF_SPH_FORCES_BIND_NB_X_T] = B(s->nb_x),
        [VF_SPH_FORCES_BIND_NB_V_T] = B(s->nb_v),
        [VF_SPH_FORCES_BIND_NB_BITS] = B(s->nb_bits),
        [VF_SPH_FORCES_BIND_NB_BITS_T] = B(s->nb_bits),
        [VF_SPH_FORCES_BIND_POS] = B(s->pos[a]),
        [VF_SPH_FORCES_BIND_VEL] = B(s->vel[a]),
        [VF_SPH_FORCES_BIND_DENS] = B(s->dens),
        [VF_SPH_FORCES_BIND_DENS_T] = B(s->dens),
        [VF_SPH_FORCES_BIND_CELL] = bin ? B(s->cell) : (vf_binding){.buffer = s->cell, .range = 4},
        [VF_SPH_FORCES_BIND_SLOT] = bin ? B(s->slot) : (vf_binding){.buffer = s->slot, .range = 4},
        [VF_SPH_FORCES_BIND_COUNTS] = bin ? B(s->counts) : (vf_binding){.buffer = s->counts, .range = 4}};
    record_particles(s, cmd, prof, SP_FORCES_DRIFT, db2, drift);
}

vf_result vf_sph_record_evaluate(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof)
{
    if (!s || s->drifted > 0)
        return VF_ERR_INVALID_ARG;
    record_evaluate(s, cmd, prof, NULL);
    return VF_OK;
}

/* bin: the pass also bins the new positions (the counts cleared first). */
static void record_integrate(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t mode, double dt, bool bin)
{
    int a = s->cur;
    /* without binning the bin buffers are bound by their first word only */
    vf_binding ib[VF_MAX_BINDINGS] = {
        [VF_SPH_BIND_PARAMS] = B(s->params),
        [VF_SPH_BIND_STATE] = B(s->state),
        [VF_SPH_INTEGRATE_BIND_POS] = B(s->pos[a]),
        [VF_SPH_INTEGRATE_BIND_VEL] = B(s->vel[a]),
        [VF_SPH_INTEGRATE_BIND_ACC] = B(s->acc),
        [VF_SPH_INTEGRATE_BIND_DENS] = B(s->dens),
        [VF_SPH_INTEGRATE_BIND_CELL] = bin ? B(s->cell) : (vf_binding){.buffer = s->cell, .range = 4},
        [VF_SPH_INTEGRATE_BIND_SLOT] = bin ? B(s->slot) : (vf_binding){.buffer = s->slot, .range = 4},
        [VF_SPH_INTEGRATE_BIND_START] = bin ? B(s->counts) : (vf_binding){.buffer = s->counts, .range = 4},
        [VF_SPH_INTEGRATE_BIND_POS_T] = B(s->pos[a]),
        [VF_SPH_INTEGRATE_BIND_VEL_T] = B(s->vel[a]),
        [VF_SPH_INTEGRATE_BIND_ACC_T] = B(s->acc),
        [VF_SPH_INTEGRATE_BIND_DENS_T] = B(s->dens)};
    vf_sph_integrate_push pc = {.dt = (float)dt, .mode = mode, .bin = bin ? 1u : 0u};
    record_particles(s, cmd, prof, SP_INTEGRATE, ib, &pc);
}

/* The nozzle pass: `layers` layers (or VF_SPH_EMIT_LAYERS_STATE), dispatched
 * directly or, with args, by the arguments at offset there. */
static void record_emit(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, vf_buffer *args, VkDeviceSize offset,
                        uint32_t layers)
{
    int a = s->cur;
    uint32_t sc = vf_sim_pass_begin(s->gpu, cmd, prof, &SP_passes[SP_EMIT]);
    vf_binding eb[VF_MAX_BINDINGS] = {[VF_SPH_BIND_PARAMS] = B(s->params),    [VF_SPH_BIND_STATE] = B(s->state),
                                       [VF_SPH_EMIT_BIND_START] = B(s->start), [VF_SPH_EMIT_BIND_POS] = B(s->pos[a]),
                                       [VF_SPH_EMIT_BIND_VEL] = B(s->vel[a]),  [VF_SPH_EMIT_BIND_ID] = B(s->id[a]),
                                       [VF_SPH_EMIT_BIND_ACC] = B(s->acc),     [VF_SPH_EMIT_BIND_PATTERN] = B(s->pattern)};
    vf_sph_emit_push pc = {.layers = layers, .lead = (float)s->emit_lead};
    if (args) {
        dispatch_pipe_at(s, cmd, s->pipe[SP_EMIT], eb, &pc, args, offset);
    } else {
        vf_cmd_dispatch(cmd, s->pipe[SP_EMIT], eb, &pc, 1, 1, 1);
        sph_barrier(s, cmd);
    }
    record_args(s, cmd, VF_SPH_ARGS_EMIT);
    vf_sim_pass_end(s->gpu, cmd, prof, sc);
}

void sph_record_emit(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, uint32_t layers)
{
    record_emit(s, cmd, prof, NULL, 0, layers);
}

void sph_record_emit_at(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, vf_buffer *args, VkDeviceSize offset)
{
    record_emit(s, cmd, prof, args, offset, VF_SPH_EMIT_LAYERS_STATE);
}

vf_result vf_sph_record_step(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, double dt)
{
    return vf_sph_record_substep(s, cmd, prof, dt, true);
}

uint32_t sph_emit_step(vf_sph *s, double dt)
{
    if (!s->desc.emitter)
        return 0;
    s->emit_timer += dt;
    if (s->emit_timer < s->emit_interval)
        return 0;
    double due = floor(s->emit_timer / s->emit_interval);
    s->emit_timer -= due * s->emit_interval;
    s->emit_lead = s->emit_timer * vlen(s->desc.emit_velocity); /* the newest was due emit_timer ago */
    return due < VF_SPH_EMIT_LAYERS_MAX ? (uint32_t)due : VF_SPH_EMIT_LAYERS_MAX;
}

bool sph_emit_next(const vf_sph *s, double dt)
{
    return s->desc.emitter && s->emit_timer + dt >= s->emit_interval;
}

vf_result vf_sph_record_substep(vf_sph *s, VkCommandBuffer cmd, vf_profiler *prof, double dt, bool finish)
{
    if (!s || !(dt > 0))
        return VF_ERR_INVALID_ARG;
    /* a drift recorded with the last step's forces was of the size it was told */
    if (s->drifted > 0 && dt != s->drifted)
        return VF_ERR_INVALID_ARG;
    if (s->desc.method == VF_SPH_PBF)
        return sph_pbf_record_substep(s, cmd, prof, dt, finish);
    if (s->desc.method == VF_SPH_DFSPH)
        return sph_dfsph_record_substep(s, cmd, prof, finish);
    bool leapfrog = s->desc.integrator == VF_SPH_LEAPFROG;
    vf_cmd_label_begin(s->gpu, cmd, "sph step");
    uint32_t layers = sph_emit_step(s, dt);
    bool emit = layers > 0;
    /* the drift bins the particles it moves, unless an emission adds some
     * after it */
    bool binned = leapfrog && !emit;
    if (s->drifted > 0) {
        /* the last step's forces pass recorded the drift, and predicted this
         * step's emission exactly as above */
        binned = s->drift_binned;
        s->drifted = 0;
    } else if (leapfrog) {
        record_integrate(s, cmd, prof, VF_SPH_INTEGRATE_DRIFT, dt, binned);
    }
    if (emit)
        sph_record_emit(s, cmd, prof, layers);
    vf_result r = sph_record_binning(s, cmd, prof, binned);
    if (r == VF_OK) {
        if (leapfrog && !finish) {
            /* the closing kick of this step and the drift of the next one (of
             * the same size) in the forces pass; it bins unless the next step
             * emits */
            bool next_emit = sph_emit_next(s, dt);
            vf_sph_forces_push pc = s->interact;
            pc.dt = (float)dt;
            pc.flags = (next_emit ? 0u : VF_SPH_DRIFT_BIN) | (s->speed_odd ? VF_SPH_DRIFT_ODD : 0u);
            s->speed_odd = !s->speed_odd;
            record_evaluate(s, cmd, prof, &pc);
            s->drifted = dt;
            s->drift_binned = !next_emit;
        } else {
            record_evaluate(s, cmd, prof, NULL);
            record_integrate(s, cmd, prof, leapfrog ? VF_SPH_INTEGRATE_KICK : VF_SPH_INTEGRATE_EULER, dt, false);
        }
    }
    vf_cmd_label_end(s->gpu, cmd);
    return r;
}

/* ------------------------------------------------------------------ create */

/* Bytes of GPU memory per particle of capacity for the desc's method. */
static uint64_t sph_bytes_per_particle(const vf_sph_desc *d)
{
    return SPH_BYTES_PER_PARTICLE + (d->method == VF_SPH_PBF ? 16 : 0) + (d->method == VF_SPH_DFSPH ? 2 * 8 + 4 + 4 : 0);
}

vf_result vf_sph_check_size(vf_gpu *gpu, const vf_sph_desc *desc, uint64_t particles, uint32_t grid[3],
                            const char **key, char *err, size_t cap)
{
    /* The grid: cells of size h / VF_SPH_CELL_DIV covering the tank; one more word for the
     * removed-particle bin. The start array is bound whole: it must fit the
     * storage buffer range. */
    uint64_t range = gpu->info.max_storage_buffer_range;
    uint64_t g[3];
    for (int k = 0; k < 3; k++) {
        double n = ceil((desc->hi[k] - desc->lo[k]) / desc->h * VF_SPH_CELL_DIV);
        g[k] = n < 1 ? 1 : n > 4e9 ? 4000000000ull : (uint64_t)n;
    }
    double cells_d = (double)g[0] * (double)g[1] * (double)g[2];
    uint64_t max_cells = range / 4 - 1;
    if (max_cells > UINT32_MAX - 1)
        max_cells = UINT32_MAX - 1;
    bool cells_fit = cells_d <= (double)max_cells;
    uint64_t cells = cells_fit ? g[0] * g[1] * g[2] : 0;

    /* Particles first (a huge count also makes the grid huge, and the count is
     * what the user asked for): every per-particle buffer is bound whole
     * (the widest: the neighbour bits, 4 VF_SPH_MASK_WORDS bytes a particle)
     * and all of them must fit in device memory. */
    uint64_t heap = gpu->info.device_local_bytes;
    uint64_t fixed = 4 * (cells + 1) * 2 + 4 * ((cells + 1) / VF_SPH_SCAN_BLOCK + 1) +
                     (1u << 20); /* starts, counts, block sums, small buffers */
    uint64_t per = sph_bytes_per_particle(desc);
    uint64_t by_heap = heap > fixed ? (uint64_t)((double)(heap - fixed) * 0.9) / per : 0;
    _Static_assert(4 * VF_SPH_MASK_WORDS >= 16, "the neighbour bits are the widest per-particle buffer");
    uint64_t by_range = range / (4 * VF_SPH_MASK_WORDS);
    uint64_t max_particles = by_heap < by_range ? by_heap : by_range;
    if (max_particles > (uint64_t)UINT32_MAX - VF_SPH_WG)
        max_particles = (uint64_t)UINT32_MAX - VF_SPH_WG;
    const char *ck = desc->count_key && strcmp(desc->count_key, "particles") ? desc->count_key : NULL;
    if (particles > max_particles && ck) {
        vf_set_key_err(key, err, cap, ck,
                ": %g m gives %llu particles, which do not fit on %s: at most %llu fit (%d bytes each; %llu MiB "
                "device memory, %llu MiB storage buffer range, maxStorageBufferRange): use a larger %s",
                desc->spacing, (unsigned long long)particles, gpu->info.name, (unsigned long long)max_particles,
                (int)per, (unsigned long long)(heap >> 20), (unsigned long long)(range >> 20), ck);
        return VF_ERR_TOO_LARGE;
    }
    if (particles > max_particles) {
        vf_set_key_err(key, err, cap,
                "particles", ": %llu particles do not fit on %s: at most %llu fit (%d bytes each; %llu MiB device memory, "
                "%llu MiB storage buffer range, maxStorageBufferRange)",
                (unsigned long long)particles, gpu->info.name, (unsigned long long)max_particles, (int)per,
                (unsigned long long)(heap >> 20), (unsigned long long)(range >> 20));
        return VF_ERR_TOO_LARGE;
    }
    if (!cells_fit) {
        vf_set_key_err(key, err, cap,
                "spacing", ": the tank needs %.3g cells of size h / %d = %.4g m (%llu x %llu x %llu) but at most %llu fit "
                "on %s: use a larger spacing or a smaller tank",
                cells_d, VF_SPH_CELL_DIV, desc->h / VF_SPH_CELL_DIV, (unsigned long long)g[0], (unsigned long long)g[1], (unsigned long long)g[2],
                (unsigned long long)max_cells, gpu->info.name);
        return VF_ERR_TOO_LARGE;
    }
    if (grid)
        for (int k = 0; k < 3; k++)
            grid[k] = (uint32_t)g[k];
    return VF_OK;
}

void vf_sph_destroy(vf_sph **ps)
{
    if (!ps || !*ps)
        return;
    vf_sph *s = *ps;
    for (int i = 0; i < SP_COUNT; i++)
        vf_pipeline_destroy(&s->pipe[i]);
    sph_pbf_destroy(s);
    sph_dfsph_destroy(s);
    vf_buffer *bufs[] = {s->params, s->state,  s->dispatch, s->start,  s->counts, s->sums,   s->cell,
                         s->slot,   s->keys,   s->dens,     s->acc,    s->pattern, s->pos[0], s->pos[1],
                         s->vel[0], s->vel[1], s->id[0],    s->id[1], s->nb_x, s->nb_v, s->nb_bits, s->iter,
                         s->ctl, s->warm[0], s->warm[1], s->kappa, s->partial};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        vf_buffer_destroy(&bufs[i]);
    free(s);
    *ps = NULL;
}

vf_result vf_sph_create(vf_gpu *gpu, const vf_sph_desc *desc, vf_sph **out, const char **key, char *err, size_t cap)
{
    *out = NULL;
    if (err && cap)
        err[0] = 0;
    if (!gpu || !desc)
        return VF_ERR_INVALID_ARG;
    vf_result r;
    uint64_t want = desc->capacity > desc->count ? desc->capacity : desc->count;
    uint32_t g[3];
    if ((r = vf_sph_check_size(gpu, desc, want, g, key, err, cap)) != VF_OK) /* the values come validated */
        return r;
    if (want == 0)
        want = 1;
    uint64_t cells = (uint64_t)g[0] * g[1] * g[2];

    vf_sph *s;

    VF_NEW_OR_RETURN(s);
    s->gpu = gpu;
    s->desc = *desc;
    s->desc.pos = NULL;
    s->desc.vel = NULL;
    s->capacity = (uint32_t)want;
    s->cells = (uint32_t)cells;
    s->initial_count = desc->count;
    s->texel = !desc->buffer_reads && texel_reads_fit(s);
    fill_params(s, g[0], g[1], g[2]);
    s->dt = vf_sph_step_size(desc);
    vec4f(s->interact.interact, desc->interact, desc->interact[3]);
    s->interact.strength = (float)desc->interact_strength;

    float(*pattern)[4] = NULL;
    if (desc->emitter) {
        uint32_t n = nozzle_pattern(desc, NULL, 0); /* 1 to VF_SPH_EMIT_MAX: vf_sph_check_desc */
        pattern = calloc(n, sizeof *pattern);
        if (!pattern) {
            free(s);
            return VF_ERR_NO_MEMORY;
        }
        s->prm.emit_count = nozzle_pattern(desc, pattern, n);
        s->emit_interval = desc->spacing / vlen(desc->emit_velocity);
        s->emit_timer = s->emit_interval; /* the first layer goes out with the first step */
        s->prm.emit_interval = (float)s->emit_interval;
    }

    if ((r = create_buffers(s)) != VF_OK || (r = create_pipelines(s)) != VF_OK) {
        const char *ck = desc->count_key && strcmp(desc->count_key, "particles") ? desc->count_key : NULL;
        if ((r == VF_ERR_TOO_LARGE || r == VF_ERR_OUT_OF_DEVICE_MEMORY) && ck)
            vf_set_key_err(key, err, cap, ck, ": %g m gives %u particles and %u cells do not fit in the memory of %s: use a larger %s",
                           desc->spacing, s->capacity, s->cells, gpu->info.name, ck);
        else if (r == VF_ERR_TOO_LARGE || r == VF_ERR_OUT_OF_DEVICE_MEMORY)
            vf_set_key_err(key, err, cap, "particles", ": %u particles and %u cells do not fit in the memory of %s", s->capacity,
                    s->cells, gpu->info.name);
        goto fail;
    }

    /* Upload: particles, ids 0..count-1, the state and the constants. */
    vf_sph_state st = {.count = desc->count, .next_id = desc->count};
    if ((r = vf_buffer_write(s->params, 0, &s->prm, sizeof s->prm)) || (r = vf_buffer_write(s->state, 0, &st, sizeof st)))
        goto fail;
    if (pattern && (r = vf_buffer_write(s->pattern, 0, pattern, 16ull * s->prm.emit_count)))
        goto fail;
    if (s->ctl) {
        s->dfsph_substeps = dfsph_substeps(desc);
        vf_dfsph_ctl ctl = {.emit_time = (float)s->emit_interval}; /* the first layer goes out with the first step */
        if ((r = vf_buffer_fill(s->ctl, 0, VK_WHOLE_SIZE, 0)) || (r = vf_buffer_write(s->ctl, 0, &ctl, sizeof ctl)) ||
            (r = vf_buffer_fill(s->warm[0], 0, VK_WHOLE_SIZE, 0)) || (r = vf_buffer_fill(s->warm[1], 0, VK_WHOLE_SIZE, 0)) ||
            (r = vf_buffer_fill(s->kappa, 0, VK_WHOLE_SIZE, 0)))
            goto fail;
    }
    if ((r = vf_buffer_fill(s->pos[0], 0, VK_WHOLE_SIZE, VF_SPH_HIDDEN_BITS)) ||
        (r = vf_buffer_fill(s->pos[1], 0, VK_WHOLE_SIZE, VF_SPH_HIDDEN_BITS)) ||
        (r = vf_buffer_fill(s->acc, 0, VK_WHOLE_SIZE, 0)) || (r = vf_buffer_fill(s->dens, 0, VK_WHOLE_SIZE, 0)) ||
        (r = vf_buffer_fill(s->vel[0], 0, VK_WHOLE_SIZE, 0)) || (r = vf_buffer_fill(s->start, 0, VK_WHOLE_SIZE, 0)) ||
        (r = vf_buffer_fill(s->counts, 0, VK_WHOLE_SIZE, 0)))
        goto fail;
    if (desc->count) {
        uint32_t *ids = malloc(4ull * desc->count);
        if (!ids) {
            r = VF_ERR_NO_MEMORY;
            goto fail;
        }
        for (uint32_t i = 0; i < desc->count; i++)
            ids[i] = i;
        r = vf_buffer_write(s->id[0], 0, ids, 4ull * desc->count);
        free(ids);
        if (r || (r = vf_buffer_write(s->pos[0], 0, desc->pos, 16ull * desc->count)))
            goto fail;
        if (desc->vel && (r = vf_buffer_write(s->vel[0], 0, desc->vel, 16ull * desc->count)))
            goto fail;
    }

    /* Prime: dispatch size, binning, density and forces, so the first step's
     * leapfrog drift has its acceleration and an export at t = 0 has density. */
    VkCommandBuffer cmd;
    if ((r = vf_cmd_oneshot_begin(gpu, &cmd)) != VF_OK)
        goto fail;
    vf_cmd_barrier_transfer_to_compute(cmd);
    record_args(s, cmd, VF_SPH_ARGS_INIT);
    if ((r = vf_sph_record_binning(s, cmd, NULL)) || (r = vf_sph_record_evaluate(s, cmd, NULL))) {
        vf_cmd_oneshot_abandon(gpu, cmd);
        goto fail;
    }
    if ((r = vf_cmd_oneshot_submit(gpu, cmd)) != VF_OK)
        goto fail;
    free(pattern);
    *out = s;
    return VF_OK;
fail:
    free(pattern);
    vf_sph_destroy(&s);
    return r;
}

double vf_sph_dt(const vf_sph *s)
{
    return s->dt;
}

const vf_sph_params *vf_sph_get_params(const vf_sph *s)
{
    return &s->prm;
}

const vf_sph_desc *vf_sph_get_desc(const vf_sph *s)
{
    return &s->desc;
}

void vf_sph_grid(const vf_sph *s, uint32_t out[3])
{
    out[0] = s->prm.grid_x;
    out[1] = s->prm.grid_y;
    out[2] = s->prm.grid_z;
}

void vf_sph_get_render_view(const vf_sph *s, vf_sph_render_view *out)
{
    memset(out, 0, sizeof *out);
    out->positions = s->pos[s->cur];
    out->attributes = s->vel[s->cur];
    out->draw_args = s->dispatch;
    out->draw_offset = VF_SPH_DRAW_ARGS_OFFSET;
    out->count_max = s->desc.emitter || s->desc.sink ? s->capacity : s->initial_count;
    for (int k = 0; k < 3; k++) {
        out->box_min[k] = (float)s->desc.lo[k];
        out->box_max[k] = (float)s->desc.hi[k];
    }
    out->spacing = (float)s->desc.spacing;
}

void vf_sph_get_neighbor_view(const vf_sph *s, vf_sph_neighbor_view *out)
{
    *out = (vf_sph_neighbor_view){.params = s->params, .state = s->state, .positions = s->pos[s->cur],
                                  .velocities = s->vel[s->cur], .ids = s->id[s->cur], .start = s->start,
                                  .capacity = s->capacity};
}

uint32_t vf_sph_initial_count(const vf_sph *s)
{
    return s->initial_count;
}

uint32_t vf_sph_capacity(const vf_sph *s)
{
    return s->capacity;
}

void vf_sph_set_interaction(vf_sph *s, const double point[3], double radius, double strength)
{
    vec4f(s->interact.interact, point, radius > 0 ? radius : 0);
    s->interact.strength = (float)strength;
}

/* ------------------------------------------------------------------ readback */

void vf_sph_snapshot_free(vf_sph_snapshot *snap)
{
    if (!snap)
        return;
    free(snap->pos);
    free(snap->vel);
    free(snap->dens);
    free(snap->acc);
    free(snap->id);
    free(snap->start);
    free(snap->counts);
    memset(snap, 0, sizeof *snap);
}

vf_result vf_sph_read(vf_sph *s, bool full, vf_sph_snapshot *out)
{
    memset(out, 0, sizeof *out);
    vf_result r = vf_buffer_read(s->state, 0, &out->state, sizeof out->state);
    if (r != VF_OK)
        return r;
    uint32_t n = out->state.count;
    if (n > s->capacity)
        return VF_ERR_NUMERIC;
    out->count = n;
    out->cells = s->cells;
    size_t m = n ? n : 1;
    out->pos = malloc(16 * m);
    out->vel = malloc(16 * m);
    out->dens = malloc(8 * m);
    out->id = malloc(4 * m);
    if (full) {
        out->acc = malloc(16 * m);
        out->start = malloc(4 * ((size_t)s->cells + 1));
        out->counts = malloc(4 * ((size_t)s->cells + 1));
    }
    if (!out->pos || !out->vel || !out->dens || !out->id || (full && (!out->acc || !out->start || !out->counts))) {
        vf_sph_snapshot_free(out);
        return VF_ERR_NO_MEMORY;
    }
    int a = s->cur;
    if (n && ((r = vf_buffer_read(s->pos[a], 0, out->pos, 16ull * n)) || (r = vf_buffer_read(s->vel[a], 0, out->vel, 16ull * n)) ||
              (r = vf_buffer_read(s->dens, 0, out->dens, 8ull * n)) || (r = vf_buffer_read(s->id[a], 0, out->id, 4ull * n)) ||
              (full && (r = vf_buffer_read(s->acc, 0, out->acc, 16ull * n))))) {
        vf_sph_snapshot_free(out);
        return r;
    }
    if (full && ((r = vf_buffer_read(s->start, 0, out->start, 4ull * (s->cells + 1))) ||
                 (r = vf_buffer_read(s->counts, 0, out->counts, 4ull * (s->cells + 1))))) {
        vf_sph_snapshot_free(out);
        return r;
    }
    return VF_OK;
}

/* The vf_solver wrapper (frames, guards, export, summary) lives in
 * solver_sph_frame.c. */
