/* render_caustics: caustics on the floor of height-field water (see render_caustics.h). */
#include "render_caustics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_cmd.h"
#include "gpu_pipeline.h"
#include "render_pipelines.h"

struct vf_caustics {
    vf_gpu *gpu;
    uint32_t nx, ny, sub;
    vf_buffer *acc;
    vf_pipeline *scatter;
};

void vf_caustics_destroy(vf_caustics **c)
{
    if (!c || !*c)
        return;
    vf_pipeline_destroy(&(*c)->scatter);
    vf_buffer_destroy(&(*c)->acc);
    free(*c);
    *c = NULL;
}

vf_result vf_caustics_create(vf_gpu *gpu, const vf_caustics_desc *desc, vf_caustics **out)
{
    *out = NULL;
    uint32_t sub = desc && desc->sub ? desc->sub : 4;
    if (!desc || !desc->nx || !desc->ny || sub > VF_CAUSTICS_MAX_SUB ||
        (uint64_t)desc->nx * desc->ny * sub * sub > UINT32_MAX)
        return VF_ERR_INVALID_ARG;
    vf_caustics *c;
    VF_NEW_OR_RETURN(c);
    c->gpu = gpu;
    c->nx = desc->nx;
    c->ny = desc->ny;
    c->sub = sub;
    vf_buffer_desc bd = {.size = (VkDeviceSize)desc->nx * desc->ny * sizeof(uint32_t), .name = "caustics accumulator"};
    vf_result res = vf_buffer_create(gpu, &bd, &c->acc);
    if (res == VF_OK)
        res = vf_render_pipeline_create(gpu, VF_RP_CAUSTICS, NULL, VK_FORMAT_UNDEFINED, VK_FORMAT_UNDEFINED, &c->scatter);
    if (res != VF_OK) {
        vf_caustics_destroy(&c);
        return res;
    }
    *out = c;
    return VF_OK;
}

vf_caustics_push vf_caustics_params(const vf_caustics *c, float dx, const float light[3], float ior)
{
    float l = sqrtf(light[0] * light[0] + light[1] * light[1] + light[2] * light[2]);
    if (!(l > 0))
        l = 1;
    vf_caustics_push p = {.nx = c->nx, .ny = c->ny, .dx = dx, .sub = c->sub, .light_x = light[0] / l,
                          .light_y = light[1] / l, .light_z = light[2] / l, .ior = ior > 0 ? ior : 1.333f};
    return p;
}

void vf_caustics_record(vf_caustics *c, VkCommandBuffer cmd, const vf_caustics_push *p, vf_buffer *eta, vf_buffer *bed,
                        vf_buffer *flags)
{
    /* the last frame's floor shading read the accumulator */
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                   VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    vkCmdFillBuffer(cmd, c->acc->buffer, 0, VK_WHOLE_SIZE, 0);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    vf_binding b[4] = {vf_bind_buffer(eta), vf_bind_buffer(bed), vf_bind_buffer(flags), vf_bind_buffer(c->acc)};
    vf_cmd_dispatch_1d(cmd, c->scatter, b, p, p->nx * p->ny * p->sub * p->sub);
    vf_cmd_barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                   VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                   VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

vf_buffer *vf_caustics_buffer(const vf_caustics *c)
{
    return c->acc;
}

/* ------------------------------------------------------------------ CPU reference */

static float ref_eta(const vf_caustics_push *p, const float *eta, float x, float y)
{
    float fx = fminf(fmaxf(x / p->dx - 0.5f, 0.0f), (float)(p->nx - 1));
    float fy = fminf(fmaxf(y / p->dx - 0.5f, 0.0f), (float)(p->ny - 1));
    uint32_t x0 = (uint32_t)fx < p->nx - 1 ? (uint32_t)fx : p->nx - 1;
    uint32_t y0 = (uint32_t)fy < p->ny - 1 ? (uint32_t)fy : p->ny - 1;
    uint32_t x1 = x0 + 1 < p->nx ? x0 + 1 : p->nx - 1, y1 = y0 + 1 < p->ny ? y0 + 1 : p->ny - 1;
    float tx = fx - (float)x0, ty = fy - (float)y0;
    float a = eta[y0 * p->nx + x0] + tx * (eta[y0 * p->nx + x1] - eta[y0 * p->nx + x0]);
    float c = eta[y1 * p->nx + x0] + tx * (eta[y1 * p->nx + x1] - eta[y1 * p->nx + x0]);
    return a + ty * (c - a);
}

static void ref_bend(const float i[3], const float n[3], float e, float out[3])
{
    float c = n[0] * i[0] + n[1] * i[1] + n[2] * i[2];
    float k = 1.0f - e * e * (1.0f - c * c);
    for (int a = 0; a < 3; a++)
        out[a] = k < 0 ? 0.0f : e * i[a] - (e * c + sqrtf(k)) * n[a];
}

static float mirror(float q, float l)
{
    q = l - fabsf(l - fabsf(q));
    return fminf(fmaxf(q, 0.0f), l);
}

void vf_caustics_reference(const vf_caustics_push *p, const float *eta, const float *bed, const uint32_t *flags,
                           uint32_t *acc)
{
    memset(acc, 0, (size_t)p->nx * p->ny * sizeof *acc);
    const uint32_t w = p->nx * p->sub, h = p->ny * p->sub;
    const float d[3] = {-p->light_x, -p->light_y, -p->light_z}, up[3] = {0, 0, 1}, e = 1.0f / p->ior;
    const float unit = (float)VF_CAUSTICS_ONE / (float)(p->sub * p->sub);
    const float lx = (float)p->nx * p->dx, ly = (float)p->ny * p->dx;
    float t0[3];
    ref_bend(d, up, e, t0);
    for (uint32_t py = 0; py < h; py++)
        for (uint32_t px = 0; px < w; px++) {
            uint32_t ci = (py / p->sub) * p->nx + px / p->sub;
            float depth = eta[ci] - bed[ci];
            if ((flags[ci] & VF_HEIGHT_SOLID) || depth <= (float)VF_CAUSTICS_MIN_DEPTH)
                continue;
            float x = ((float)px + 0.5f) / (float)p->sub * p->dx, y = ((float)py + 0.5f) / (float)p->sub * p->dx;
            float gx = (ref_eta(p, eta, x + p->dx, y) - ref_eta(p, eta, x - p->dx, y)) / (2.0f * p->dx);
            float gy = (ref_eta(p, eta, x, y + p->dx) - ref_eta(p, eta, x, y - p->dx)) / (2.0f * p->dx);
            float nl = sqrtf(gx * gx + gy * gy + 1.0f), n[3] = {-gx / nl, -gy / nl, 1.0f / nl}, t[3];
            ref_bend(d, n, e, t);
            float qx = x + depth * (t[0] / fmaxf(-t[2], 0.05f) - t0[0] / fmaxf(-t0[2], 0.05f));
            float qy = y + depth * (t[1] / fmaxf(-t[2], 0.05f) - t0[1] / fmaxf(-t0[2], 0.05f));
            float fx = mirror(qx, lx) / p->dx - 0.5f, fy = mirror(qy, ly) / p->dx - 0.5f;
            float f0x = floorf(fx), f0y = floorf(fy), rx = fx - f0x, ry = fy - f0y;
            for (int k = 0; k < 4; k++) {
                int ix = (int)f0x + (k & 1), iy = (int)f0y + (k >> 1);
                ix = ix < 0 ? 0 : ix > (int)p->nx - 1 ? (int)p->nx - 1 : ix;
                iy = iy < 0 ? 0 : iy > (int)p->ny - 1 ? (int)p->ny - 1 : iy;
                float wgt = ((k & 1) ? rx : 1.0f - rx) * ((k & 2) ? ry : 1.0f - ry);
                acc[(uint32_t)iy * p->nx + (uint32_t)ix] += (uint32_t)(wgt * unit + 0.5f);
            }
        }
}
