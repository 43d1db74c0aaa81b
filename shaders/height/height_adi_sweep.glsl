// height_adi_sweep.glsl: the body of height_adi_x.comp (SWEEP_AXIS 0) and
// height_adi_y.comp (SWEEP_AXIS 1). One half of the ADI step: a tridiagonal (Thomas) solve of
//   (1 + al (dm + dp)) x_k - al dm x_(k-1) - al dp x_(k+1) = r_k,  al = wa dt^2 g / dx^2,
// along every row (axis 0) or column (axis 1), one thread per line (the
// push constant's axis is ignored: each file fixes its axis at compile time). Face
// depths dm, dp come from eta^n; solid cells and walls have zero faces, so
// they decouple. Absorbing edges add kappa = c dt / (2 dx) to the diagonal
// of the first and last cell of each line. The column sweep ends the step and keeps eta >= bed.

layout(local_size_x = VF_HEIGHT_SWEEP_WG) in;
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_IN) readonly buffer In { float rhs[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_OUT) buffer Out { float x[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_SCRATCH) buffer Scratch { float cp[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_SWEEP_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
VF_PUSH(vf_height_step_push)

void main()
{
    uint line = gl_GlobalInvocationID.x;
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
    float next = x[base + (n - 1u) * stride];
    if (SWEEP_AXIS == 1u)
        x[base + (n - 1u) * stride] = max(next, bed[base + (n - 1u) * stride]);
    for (uint k = n - 1u; k-- > 0u;) {
        uint idx = base + k * stride;
        next = x[idx] - cp[idx] * next;
        x[idx] = SWEEP_AXIS == 1u ? max(next, bed[idx]) : next;
    }
}
