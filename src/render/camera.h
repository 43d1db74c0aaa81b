/* camera: 4x4 matrices for 3D renderers, and camera presets.
 *
 * Matrices are column-major float[16] (m[col * 4 + row]), as GLSL reads a
 * mat4 from a buffer. World and view space are right-handed with y up; the
 * camera looks down -z in view space. Projections map to Vulkan clip space:
 * y points down the screen and depth runs 0 (near) .. 1 (far). */
#ifndef VF_CAMERA_H
#define VF_CAMERA_H

#include "render.h"

typedef struct vf_mat4 {
    float m[16];
} vf_mat4;

/** The identity matrix. */
vf_mat4 vf_mat4_identity(void);
/** a * b (apply b first). */
vf_mat4 vf_mat4_mul(const vf_mat4 *a, const vf_mat4 *b);
/** Perspective projection: fov_y in radians, aspect = width / height,
 * 0 < znear < zfar. A view-space point at z = -znear maps to depth 0, at
 * z = -zfar to depth 1; +y in view space goes up the screen (clip y < 0). */
vf_mat4 vf_mat4_perspective(float fov_y, float aspect, float znear, float zfar);
/** View matrix of an eye at eye looking at target with the given up vector
 * (need not be orthogonal to the view direction, must not be parallel to it). */
vf_mat4 vf_mat4_look_at(const float eye[3], const float target[3], const float up[3]);
/** Inverse of a rigid transform (rotation + translation), e.g. a view matrix. */
vf_mat4 vf_mat4_rigid_inverse(const vf_mat4 *a);
/** out = a * (p, w): transforms a point (w = 1) or direction (w = 0); out
 * gets x, y, z, w (no division). */
void vf_mat4_transform(const vf_mat4 *a, const float p[3], float w, float out[4]);

/** The view and projection matrices of a camera for an output of the given
 * aspect ratio (width / height). Either output may be NULL. */
void vf_camera_matrices(const vf_camera *cam, float aspect, vf_mat4 *view, vf_mat4 *proj);
/** Focal length in pixels of a camera for an output height: the number of
 * pixels that 1 m spans at 1 m view depth, height / (2 tan(fov_y / 2)). */
float vf_camera_focal_px(const vf_camera *cam, uint32_t height);
/** The pick ray through a point of the output: (sx, sy) in [-1, 1], x right
 * and y up the screen (window (mx, my) of a w x h window: sx = 2 mx / w - 1,
 * sy = 1 - 2 my / h). origin gets the eye, dir an unnormalised direction
 * whose view-space depth is 1. */
void vf_camera_pick_ray(const vf_camera *cam, float aspect, float sx, float sy, float origin[3], float dir[3]);
/** A camera that shows the box [box_min, box_max] from the front, a little
 * from above and to the right, with the whole box in view at aspect
 * (width / height): 45 degree fov, near/far planes fitted around the box. */
vf_camera vf_camera_for_box(const float box_min[3], const float box_max[3], float aspect);

/** A camera looking along -dir (dir points from the box towards the eye; it
 * need not be normalised, must not be parallel to y) with the given vertical
 * fov (radians), at the nearest distance that keeps all 8 corners of the box
 * inside the central fill (0..1] of the frame at aspect (width / height),
 * and the box's projection centred. Near/far planes fitted around the box. */
vf_camera vf_camera_fit_box(const float box_min[3], const float box_max[3], const float dir[3], float fov_y,
                            float aspect, float fill);

#endif
