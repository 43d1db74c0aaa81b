#version 450
// Stam's FFT projection on the MAC grid of a doubly periodic box: in Fourier
// space the pressure operator A (grid_mg_op.glsl) is diagonal, its eigenvalue
// for the mode (kx, ky) being -(ex[kx] + ey[ky]) with
// ex[kx] = 4 sin^2(pi kx / nx) / h^2 (the host computes them in double
// precision), so A p = b is solved mode by mode: p^ = b^ / (-(ex + ey) N),
// N = nx ny undoing the unnormalised inverse transform. The mean (kx = ky = 0),
// which A cannot change, is set to 0. One invocation per mode of the half
// spectrum ((nx / 2 + 1) x ny complex values, kx fastest).
#include "shared_grid.h"
VF_PUSH(vf_grid_push)
#include "grid_common.glsl"

VF_GRID_LOCAL
layout(std430, binding = VF_GRID_FFT_SPECTRUM) buffer Spectrum { vec2 spec[]; };
layout(std430, binding = VF_GRID_FFT_EIG) readonly buffer Eig { float eig[]; };

void main()
{
    int kx = int(gl_GlobalInvocationID.x), ky = int(gl_GlobalInvocationID.y);
    int cx = NX() / 2 + 1;
    if (kx >= cx || ky >= NY())
        return;
    int m = ky * cx + kx;
    float lambda = eig[kx] + eig[cx + ky];
    spec[m] = lambda > 0.0 ? spec[m] * (-pc.a.x / lambda) : vec2(0.0);
}
