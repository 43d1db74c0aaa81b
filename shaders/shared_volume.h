/* shared_volume.h: the 3D grid's volume renderer (src/render/render_volume.h):
 * bindings and the push-constant block shared by C and GLSL. */
#ifndef VF_SHARED_VOLUME_H
#define VF_SHARED_VOLUME_H

#include "shared.h"

/* volume_light.comp runs 8 x 4 x 4 tiles over the cells. */
#define VF_VOL_WG_X 8
#define VF_VOL_WG_Y 4
#define VF_VOL_WG_Z 4

/* Views (mode). */
#define VF_VOL_MODE_VOLUME 0u    /* ray-marched density with single scattering and emission */
#define VF_VOL_MODE_DENSITY 1u   /* slice views */
#define VF_VOL_MODE_SPEED 2u
#define VF_VOL_MODE_PRESSURE 3u
#define VF_VOL_MODE_VORTICITY 4u

#define VF_VOL_MAX_OBSTACLES 4

/* Bindings of volume_light.comp and volume_march.frag. */
#define VF_VOL_SCAL 0      /* density (nc), temperature (nc) */
#define VF_VOL_MASK 1      /* uint per cell */
#define VF_VOL_LIGHT 2     /* transmittance to the light per cell (written by volume_light) */
#define VF_VOL_VEL 3       /* MAC faces (march only) */
#define VF_VOL_P 4         /* pressure (march only) */
#define VF_VOL_OBST 5      /* 2 vec4 per obstacle: (shape, cx, cy, cz), (s0, s1, s2, axis) (march only) */
#define VF_VOL_LIGHT_BINDINGS 3
#define VF_VOL_MARCH_BINDINGS 6

/* The colour of a black body (fire's emission): linear sRGB (D65) of Planck's
 * spectrum at T kelvin integrated against the CIE 1931 colour matching
 * functions (the piecewise-Gaussian fit of Wyman, Sloan and Shirley 2013),
 * negative components clamped to 0, scaled to luminance 1 (0.2126 R +
 * 0.7152 G + 0.0722 B). Every 250 K from 500 K to 6500 K; volume_march.frag
 * interpolates linearly, tests/ref/render_volume_ref.c recomputes it.
 * X(kelvin, r, g, b) */
#define VF_BLACKBODY_K0 500.0
#define VF_BLACKBODY_DK 250.0
#define VF_BLACKBODY_COUNT 25
#define VF_BLACKBODY_LIST(X) \
    X(500, 4.7037, 0.0000, 0.0000) \
    X(750, 4.7037, 0.0000, 0.0000) \
    X(1000, 4.2896, 0.1231, 0.0000) \
    X(1250, 3.6586, 0.3106, 0.0000) \
    X(1500, 3.1598, 0.4589, 0.0000) \
    X(1750, 2.7768, 0.5728, 0.0000) \
    X(2000, 2.4775, 0.6598, 0.0190) \
    X(2250, 2.2364, 0.7258, 0.0760) \
    X(2500, 2.0428, 0.7770, 0.1384) \
    X(2750, 1.8851, 0.8173, 0.2040) \
    X(3000, 1.7546, 0.8493, 0.2711) \
    X(3250, 1.6454, 0.8749, 0.3383) \
    X(3500, 1.5530, 0.8957, 0.4047) \
    X(3750, 1.4740, 0.9126, 0.4696) \
    X(4000, 1.4059, 0.9265, 0.5326) \
    X(4250, 1.3467, 0.9380, 0.5935) \
    X(4500, 1.2950, 0.9474, 0.6520) \
    X(4750, 1.2495, 0.9553, 0.7080) \
    X(5000, 1.2092, 0.9619, 0.7617) \
    X(5250, 1.1733, 0.9674, 0.8128) \
    X(5500, 1.1413, 0.9720, 0.8616) \
    X(5750, 1.1125, 0.9758, 0.9081) \
    X(6000, 1.0866, 0.9791, 0.9523) \
    X(6250, 1.0632, 0.9818, 0.9944) \
    X(6500, 1.0419, 0.9841, 1.0344)

/* The push-constant block (128 bytes).
 *   eye    xyz camera position, w = view march step (m)
 *   fwd    xyz forward (unit), w = extinction per unit density per m
 *   right  xyz right * tan(fov/2) * aspect, w = emission: brightness of the black-body
 *          glow of the hot smoke (0: none)
 *   up     xyz up * tan(fov/2), w = ambient temperature
 *   light  xyz unit direction towards the light, w = light march step (m) = cell size h
 *   box    xyz domain extent, w = kelvin per unit of temperature above ambient
 *   slice  x = slice position along z in [0, 1], y = field range of the slice
 *          colours, z = obstacle count, w = scattering albedo */
VF_STRUCT_BEGIN(vf_volume_push)
    VF_VEC4(eye);
    VF_VEC4(fwd);
    VF_VEC4(right);
    VF_VEC4(up);
    VF_VEC4(light);
    VF_VEC4(box);
    VF_VEC4(slice);
    VF_UINT nx;
    VF_UINT ny;
    VF_UINT nz;
    VF_UINT mode;
VF_STRUCT_END(vf_volume_push)
VF_STATIC_ASSERT(sizeof(vf_volume_push) == 128, "vf_volume_push must match std430 and fit 128 bytes")

#endif
