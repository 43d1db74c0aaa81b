#version 450
// Explicit wave step (Mueller-Fischer's velocity of height, flux form with
// face depths): v' = (v + dt g L(eta - pot)) / (1 + dt r) * max(0, 1 - dt damping),
// r the radiation damping of absorbing edges,
// eta' = max(eta + dt v', bed). Stable for sqrt(g d) dt / dx <= 1/sqrt(2).
// Built with height_volume (the frame's last pass) it also sums the volume of eta'.
#include "shared.h"
#include "height_common.glsl"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_HEIGHT_EXPL_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_EXPL_BIND_ETA_OUT) writeonly buffer EtaOut { float eta_out[]; };
layout(std430, binding = VF_HEIGHT_EXPL_BIND_VEL) buffer Vel { float vel[]; };
layout(std430, binding = VF_HEIGHT_EXPL_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_EXPL_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_EXPL_BIND_PRES) readonly buffer Pres { float pres[]; };
VF_PUSH(vf_height_step_push)
#define VOL_WG (VF_WG_2D_X * VF_WG_2D_Y)
#define VOL_BIND_PARTIAL VF_HEIGHT_EXPL_BIND_PARTIAL
#define VOL_BIND_RESULT VF_HEIGHT_EXPL_BIND_RESULT
#include "height_volume_sum.glsl"

float pot(uint i, uint j)
{
    float p = (pc.flags & VF_HEIGHT_STEP_PRES) != 0u ? pres[j * pc.nx + i] : 0.0;
    if ((pc.flags & VF_HEIGHT_STEP_HULL) != 0u)
        p -= height_hull(vec2((float(i) + 0.5) * pc.dx, (float(j) + 0.5) * pc.dx), pc.hull_x, pc.hull_y, pc.hull_a,
                         pc.hull_b, pc.hull_cos, pc.hull_sin, pc.hull_draft);
    return p;
}

// Steps cell (i, j) and adds its new height to the volume sums.
void step(uint i, uint j, inout float ve, inout float vd, inout uint vw)
{
    if (i >= pc.nx || j >= pc.ny)
        return;
    uint idx = j * pc.nx + i;
    float e = eta[idx], b = bed[idx];
    uint f = flags[idx];
    if ((f & VF_HEIGHT_SOLID) != 0u) {
        eta_out[idx] = e;
        vel[idx] = 0.0;
        return;
    }
    float phi = e - pot(i, j);
    float acc = 0.0;
    if (i > 0u) {
        uint n = idx - 1u;
        acc += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * ((eta[n] - pot(i - 1u, j)) - phi);
    }
    if (i + 1u < pc.nx) {
        uint n = idx + 1u;
        acc += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * ((eta[n] - pot(i + 1u, j)) - phi);
    }
    if (j > 0u) {
        uint n = idx - pc.nx;
        acc += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * ((eta[n] - pot(i, j - 1u)) - phi);
    }
    if (j + 1u < pc.ny) {
        uint n = idx + pc.nx;
        acc += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * ((eta[n] - pot(i, j + 1u)) - phi);
    }
    acc *= pc.g / (pc.dx * pc.dx);
    // absorbing edges: damping at c/dx per boundary face, taken implicitly
    float rad = 0.0;
    if (pc.radiate != 0u)
        rad = float(height_boundary_faces(i, j, pc.nx, pc.ny, pc.radiate)) * sqrt(pc.g * max(e - b, 0.0)) / pc.dx;
    float v = (vel[idx] + pc.dt * acc) / (1.0 + pc.dt * rad) * max(0.0, 1.0 - pc.dt * pc.damping);
    float en = e + pc.dt * v;
    if (en < b) {
        en = b;
        v = 0.0;
    }
    eta_out[idx] = en;
    vel[idx] = v;
    height_volume_cell(en, b, f, ve, vd, vw);
}

void main()
{
    float ve = 0.0, vd = 0.0;
    uint vw = 0u;
    // the variant with the volume sum may take several rows per invocation
    // (fewer workgroups to sum, for CPU devices)
    uint rows = height_volume ? height_volume_rows : 1u;
    uint j = gl_WorkGroupID.y * VF_WG_2D_Y * rows + gl_LocalInvocationID.y;
    for (uint r = 0u; r < rows; r++)
        step(gl_GlobalInvocationID.x, j + r * VF_WG_2D_Y, ve, vd, vw);
    if (height_volume)
        height_volume_sum(ve, vd, vw, pc.volume_target);
}
