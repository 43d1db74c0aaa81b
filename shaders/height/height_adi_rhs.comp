#version 450
// Right-hand side of the implicit (Kass & Miller) step
//   eta' - wa dt^2 g L eta' = 2 eta - ep + dt^2 g L(wb eta + wc ep - pot),
// with ep = eta - damp (eta - eta_prev) the damped previous level and L the
// flux-form Laplacian with face depths frozen at eta^n; absorbing edges add
// kappa ep (kappa = c dt / (2 dx) per boundary face).
#include "shared_height.h"
#include "height_common.glsl"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_HEIGHT_RHS_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_RHS_BIND_PREV) readonly buffer Prev { float prev[]; };
layout(std430, binding = VF_HEIGHT_RHS_BIND_OUT) writeonly buffer Out { float rhs[]; };
layout(std430, binding = VF_HEIGHT_RHS_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_RHS_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_RHS_BIND_PRES) readonly buffer Pres { float pres[]; };
VF_PUSH(vf_height_step_push)

// The damped previous level of cell (i, j).
float damped_prev(uint i, uint j)
{
    uint idx = j * pc.nx + i;
    float keep = max(0.0, 1.0 - pc.dt * pc.damping);
    return eta[idx] - keep * (eta[idx] - prev[idx]);
}

// What L acts on explicitly: wb eta + wc ep - pot.
float q(uint i, uint j)
{
    uint idx = j * pc.nx + i;
    float p = (pc.flags & VF_HEIGHT_STEP_PRES) != 0u ? pres[idx] : 0.0;
    if ((pc.flags & VF_HEIGHT_STEP_HULL) != 0u)
        p -= height_hull(vec2((float(i) + 0.5) * pc.dx, (float(j) + 0.5) * pc.dx), pc.hull_x, pc.hull_y, pc.hull_a,
                         pc.hull_b, pc.hull_cos, pc.hull_sin, pc.hull_draft);
    return pc.wb * eta[idx] + pc.wc * damped_prev(i, j) - p;
}

void main()
{
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    if (i >= pc.nx || j >= pc.ny)
        return;
    uint idx = j * pc.nx + i;
    float e = eta[idx], b = bed[idx];
    uint f = flags[idx];
    if ((f & VF_HEIGHT_SOLID) != 0u) {
        rhs[idx] = e;
        return;
    }
    float qc = q(i, j);
    float lap = 0.0;
    if (i > 0u) {
        uint n = idx - 1u;
        lap += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * (q(i - 1u, j) - qc);
    }
    if (i + 1u < pc.nx) {
        uint n = idx + 1u;
        lap += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * (q(i + 1u, j) - qc);
    }
    if (j > 0u) {
        uint n = idx - pc.nx;
        lap += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * (q(i, j - 1u) - qc);
    }
    if (j + 1u < pc.ny) {
        uint n = idx + pc.nx;
        lap += height_face_depth(e, b, f, eta[n], bed[n], flags[n]) * (q(i, j + 1u) - qc);
    }
    float ep = damped_prev(i, j);
    // absorbing edges: -kappa (eta' - ep) per boundary face, kappa = c dt / (2 dx);
    // the eta' part sits on the diagonal of the sweeps
    float kappa = 0.0;
    if (pc.radiate != 0u)
        kappa = float(height_boundary_faces(i, j, pc.nx, pc.ny, pc.radiate)) * sqrt(pc.g * max(e - b, 0.0)) * pc.dt /
                (2.0 * pc.dx);
    rhs[idx] = 2.0 * e - ep + kappa * ep + pc.dt * pc.dt * pc.g / (pc.dx * pc.dx) * lap;
}
