// height_adi_sweep.glsl: the body of height_adi_x.comp (SWEEP_AXIS 0) and
// height_adi_y.comp (SWEEP_AXIS 1). One half of the ADI step: a tridiagonal (Thomas) solve of
//   (1 + al (dm + dp)) x_k - al dm x_(k-1) - al dp x_(k+1) = r_k,  al = wa dt^2 g / dx^2,
// along every row (axis 0) or column (axis 1), one thread per line (the
// push constant's axis is ignored: each file fixes its axis at compile time). Face
// depths dm, dp come from eta^n; solid cells and walls have zero faces, so
// they decouple. Absorbing edges add kappa = c dt / (2 dx) to the diagonal
// of the first and last cell of each line. The column sweep ends the step and keeps eta >= bed;
// built with height_volume (the frame's last step) it also sums the volume of its result.

layout(local_size_x = VF_HEIGHT_SWEEP_WG) in;
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_IN) readonly buffer In { float rhs[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_OUT) buffer Out { float x[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_SCRATCH) buffer Scratch { float cp[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
VF_PUSH(vf_height_step_push)
#ifdef SWEEP_VOLUME
#define VOL_WG VF_HEIGHT_SWEEP_WG
#define VOL_BIND_PARTIAL VF_HEIGHT_SWEEP_BIND_PARTIAL
#define VOL_BIND_RESULT VF_HEIGHT_SWEEP_BIND_RESULT
#include "height_volume_sum.glsl"
#endif

// Solves one line; the column sweep adds its results to the volume sums.
void sweep(uint line, inout float ve, inout float vd, inout uint vw)
{
    uint n = SWEEP_AXIS == 0u ? pc.nx : pc.ny;
    uint lines = SWEEP_AXIS == 0u ? pc.ny : pc.nx;
    if (line >= lines)
        return;
    uint stride = SWEEP_AXIS == 0u ? 1u : pc.nx;
    uint base = SWEEP_AXIS == 0u ? line * pc.nx : line;
    float al = pc.wa * pc.dt * pc.dt * pc.g / (pc.dx * pc.dx);
    float dm = 0.0, cprev = 0.0, dprev = 0.0;
    for (uint k = 0u; k < n; k++) {
        uint idx = base + k * stride;
        float dp = 0.0;
        if (k + 1u < n) {
            uint nb = idx + stride;
            dp = height_face_depth(eta[idx], bed[idx], flags[idx], eta[nb], bed[nb], flags[nb]);
        }
        float a = -al * dm, c = -al * dp;
        float kappa = 0.0; // absorbing edges: this line's boundary faces of the cell
        uint lo = SWEEP_AXIS == 0u ? VF_HEIGHT_SIDE_LEFT : VF_HEIGHT_SIDE_BOTTOM;
        uint hi = SWEEP_AXIS == 0u ? VF_HEIGHT_SIDE_RIGHT : VF_HEIGHT_SIDE_TOP;
        uint faces = ((k == 0u && (pc.radiate & lo) != 0u) ? 1u : 0u) + ((k + 1u == n && (pc.radiate & hi) != 0u) ? 1u : 0u);
        if (faces != 0u && (flags[idx] & VF_HEIGHT_SOLID) == 0u)
            kappa = float(faces) * sqrt(pc.g * max(eta[idx] - bed[idx], 0.0)) * pc.dt / (2.0 * pc.dx);
        float denom = 1.0 + kappa + al * (dm + dp) - a * cprev;
        cprev = c / denom;
        dprev = (rhs[idx] - a * dprev) / denom;
        cp[idx] = cprev;
        x[idx] = dprev;
        dm = dp;
    }
    uint last = base + (n - 1u) * stride;
    float next = x[last];
#ifdef SWEEP_VOLUME
    bool vol = height_volume;
    float b = bed[last];
    x[last] = max(next, b);
    if (vol)
        height_volume_cell(max(next, b), b, flags[last], ve, vd, vw);
#endif
    for (uint k = n - 1u; k-- > 0u;) {
        uint idx = base + k * stride;
        next = x[idx] - cp[idx] * next;
#ifdef SWEEP_VOLUME
        b = bed[idx];
        x[idx] = max(next, b);
        if (vol)
            height_volume_cell(max(next, b), b, flags[idx], ve, vd, vw);
#else
        x[idx] = next;
#endif
    }
}

void main()
{
    float ve = 0.0, vd = 0.0;
    uint vw = 0u;
    sweep(gl_GlobalInvocationID.x, ve, vd, vw);
#ifdef SWEEP_VOLUME
    if (height_volume)
        height_volume_sum(ve, vd, vw, pc.volume_target);
#endif
}
