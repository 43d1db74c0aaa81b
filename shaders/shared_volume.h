/* shared_volume.h: the 3D grid's volume renderer (src/render_volume.h):
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

/* The push-constant block (128 bytes).
 *   eye    xyz camera position, w = view march step (m)
 *   fwd    xyz forward (unit), w = extinction per unit density per m
 *   right  xyz right * tan(fov/2) * aspect, w = emission per unit temperature
 *   up     xyz up * tan(fov/2), w = ambient temperature
 *   light  xyz unit direction towards the light, w = light march step (m)
 *   box    xyz domain extent, w = cell size h
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
