#version 450
// Explicit wave step (Mueller-Fischer's velocity of height, flux form with
// face depths): v' = (v + dt g L(eta - pot)) / (1 + dt r) * max(0, 1 - dt damping),
// r the radiation damping of absorbing edges,
// eta' = max(eta + dt v', bed). Stable for sqrt(g d) dt / dx <= 1/sqrt(2).
// Built with height_volume (the frame's last pass) it also sums the volume of eta'.
#include "shared_height.h"
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

// A cell's surface, bed and flags.
struct Cell {
    float e;
    float b;
    uint f;
};

Cell cell_at(uint idx)
{
    return Cell(eta[idx], bed[idx], flags[idx]);
}

// Steps cell (i, j), c, with the cells below (dn, j - 1) and above (up,
// j + 1) given (unused at the domain's edge), and adds its new height to the
// volume sums.
void step(uint i, uint j, Cell c, Cell dn, Cell up, inout float ve, inout float vd, inout uint vw)
{
    uint idx = j * pc.nx + i;
    float e = c.e, b = c.b;
    uint f = c.f;
    if ((f & VF_HEIGHT_SOLID) != 0u) {
        eta_out[idx] = e;
        vel[idx] = 0.0;
        return;
    }
    float phi = e - pot(i, j);
    float acc = 0.0;
    if (i > 0u) {
        uint n = idx - 1u;
        float en = eta[n];
        acc += height_face_depth(e, b, f, en, bed[n], flags[n]) * ((en - pot(i - 1u, j)) - phi);
    }
    if (i + 1u < pc.nx) {
        uint n = idx + 1u;
        float en = eta[n];
        acc += height_face_depth(e, b, f, en, bed[n], flags[n]) * ((en - pot(i + 1u, j)) - phi);
    }
    if (j > 0u)
        acc += height_face_depth(e, b, f, dn.e, dn.b, dn.f) * ((dn.e - pot(i, j - 1u)) - phi);
    if (j + 1u < pc.ny)
        acc += height_face_depth(e, b, f, up.e, up.b, up.f) * ((up.e - pot(i, j + 1u)) - phi);
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
    // height_rows consecutive rows per invocation (a CPU device: each row
    // reuses the cells above and below it from the rows before)
    uint i = gl_GlobalInvocationID.x;
    uint j0 = (gl_WorkGroupID.y * VF_WG_2D_Y + gl_LocalInvocationID.y) * height_rows;
    if (i < pc.nx && j0 < pc.ny) {
        uint idx = j0 * pc.nx + i;
        Cell dn = j0 > 0u ? cell_at(idx - pc.nx) : Cell(0.0, 0.0, 0u);
        Cell c = cell_at(idx);
        for (uint r = 0u; r < height_rows && j0 + r < pc.ny; r++) {
            uint j = j0 + r;
            Cell up = j + 1u < pc.ny ? cell_at(idx + pc.nx) : Cell(0.0, 0.0, 0u);
            step(i, j, c, dn, up, ve, vd, vw);
            dn = c;
            c = up;
            idx += pc.nx;
        }
    }
    if (height_volume)
        height_volume_sum(ve, vd, vw, pc.volume_target);
}
