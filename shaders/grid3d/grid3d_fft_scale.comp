#version 450
// Stam's FFT projection in the triply periodic box: in Fourier space the
// pressure operator A (grid3d_mg_smooth, every face weight 1) is diagonal,
// its eigenvalue for the mode (kx, ky, kz) being -(ex[kx] + ey[ky] + ez[kz])
// with e[k] = 4 sin^2(pi k / n) / h^2 along each axis (the host computes them
// in double precision), so A p = b is solved mode by mode:
// p^ = b^ / (-(ex + ey + ez) N), N = nx ny nz undoing the unnormalised
// inverse transform (a.x = 1 / N). The mean (k = 0), which A cannot change,
// is set to 0. One invocation per mode of the half spectrum
// ((nx / 2 + 1) x ny x nz complex values, kx fastest).
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)
layout(std430, binding = VF_G3_FFT_SPECTRUM) buffer Spectrum { vec2 spec[]; };
layout(std430, binding = VF_G3_FFT_EIG) readonly buffer Eig { float eig[]; };
#include "grid3d_common.glsl"
VF_G3_LOCAL

void main()
{
    ivec3 k = ivec3(gl_GlobalInvocationID);
    int cx = int(pc.nx) / 2 + 1;
    if (k.x >= cx || k.y >= int(pc.ny) || k.z >= int(pc.nz))
        return;
    int m = (k.z * int(pc.ny) + k.y) * cx + k.x;
    float lambda = eig[k.x] + eig[cx + k.y] + eig[cx + int(pc.ny) + k.z];
    spec[m] = lambda > 0.0 ? spec[m] * (-pc.a.x / lambda) : vec2(0.0);
}
