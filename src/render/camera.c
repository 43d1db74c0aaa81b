#include "camera.h"

#include <math.h>
#include <string.h>

vf_mat4 vf_mat4_identity(void)
{
    vf_mat4 r = {{0}};
    r.m[0] = r.m[5] = r.m[10] = r.m[15] = 1.0f;
    return r;
}

vf_mat4 vf_mat4_mul(const vf_mat4 *a, const vf_mat4 *b)
{
    vf_mat4 r;
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a->m[k * 4 + row] * b->m[c * 4 + k];
            r.m[c * 4 + row] = s;
        }
    return r;
}

vf_mat4 vf_mat4_perspective(float fov_y, float aspect, float znear, float zfar)
{
    vf_mat4 r = {{0}};
    float f = 1.0f / tanf(0.5f * fov_y);
    r.m[0] = f / aspect;
    r.m[5] = -f;                           /* Vulkan: clip y points down */
    r.m[10] = zfar / (znear - zfar);       /* z = -znear -> 0, z = -zfar -> 1 */
    r.m[11] = -1.0f;                       /* w = -z */
    r.m[14] = znear * zfar / (znear - zfar);
    return r;
}

static void normalize3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f)
        for (int i = 0; i < 3; i++)
            v[i] /= l;
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

vf_mat4 vf_mat4_look_at(const float eye[3], const float target[3], const float up[3])
{
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]}, s[3], u[3];
    normalize3(f);
    cross3(f, up, s);
    normalize3(s);
    cross3(s, f, u);
    vf_mat4 r = vf_mat4_identity();
    for (int i = 0; i < 3; i++) {
        r.m[i * 4 + 0] = s[i];
        r.m[i * 4 + 1] = u[i];
        r.m[i * 4 + 2] = -f[i];
    }
    r.m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    r.m[13] = -(u[0] * eye[0] + u[1] * eye[1] + u[2] * eye[2]);
    r.m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
    return r;
}

vf_mat4 vf_mat4_rigid_inverse(const vf_mat4 *a)
{
    vf_mat4 r = vf_mat4_identity();
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++)
            r.m[c * 4 + row] = a->m[row * 4 + c];
    for (int row = 0; row < 3; row++)
        r.m[12 + row] = -(r.m[0 * 4 + row] * a->m[12] + r.m[1 * 4 + row] * a->m[13] + r.m[2 * 4 + row] * a->m[14]);
    return r;
}

void vf_mat4_transform(const vf_mat4 *a, const float p[3], float w, float out[4])
{
    for (int row = 0; row < 4; row++)
        out[row] = a->m[row] * p[0] + a->m[4 + row] * p[1] + a->m[8 + row] * p[2] + a->m[12 + row] * w;
}

void vf_camera_matrices(const vf_camera *cam, float aspect, vf_mat4 *view, vf_mat4 *proj)
{
    if (view)
        *view = vf_mat4_look_at(cam->eye, cam->target, cam->up);
    if (proj)
        *proj = vf_mat4_perspective(cam->fov_y, aspect, cam->znear, cam->zfar);
}

float vf_camera_focal_px(const vf_camera *cam, uint32_t height)
{
    return (float)height / (2.0f * tanf(0.5f * cam->fov_y));
}

vf_camera vf_camera_for_box(const float box_min[3], const float box_max[3], float aspect)
{
    vf_camera c;
    memset(&c, 0, sizeof c);
    float centre[3], ext[3], radius = 0.0f;
    for (int i = 0; i < 3; i++) {
        centre[i] = 0.5f * (box_min[i] + box_max[i]);
        ext[i] = box_max[i] - box_min[i];
        radius += 0.25f * ext[i] * ext[i];
    }
    radius = sqrtf(radius); /* bounding sphere of the box */
    c.fov_y = 0.78539816f;
    float half = 0.5f * c.fov_y;
    if (aspect > 0.0f && aspect < 1.0f)
        half = atanf(tanf(half) * aspect); /* narrow outputs: fit the width */
    float dist = radius / sinf(half) * 1.02f;
    float dir[3] = {0.35f, 0.45f, 1.0f}; /* from the front, right and above */
    normalize3(dir);
    for (int i = 0; i < 3; i++) {
        c.target[i] = centre[i] - (i == 1 ? 0.1f * ext[1] : 0.0f);
        c.eye[i] = c.target[i] + dir[i] * dist;
    }
    c.up[1] = 1.0f;
    c.znear = fmaxf(0.01f, 0.02f * dist);
    c.zfar = dist + 20.0f * radius + 10.0f; /* the floor stretches to the horizon */
    return c;
}

void vf_camera_pick_ray(const vf_camera *cam, float aspect, float sx, float sy, float origin[3], float dir[3])
{
    float fy = tanf(cam->fov_y * 0.5f), fx = fy * aspect;
    float f[3], r[3], u[3];
    for (int i = 0; i < 3; i++)
        f[i] = cam->target[i] - cam->eye[i];
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++)
        f[i] /= fl;
    r[0] = f[1] * cam->up[2] - f[2] * cam->up[1];
    r[1] = f[2] * cam->up[0] - f[0] * cam->up[2];
    r[2] = f[0] * cam->up[1] - f[1] * cam->up[0];
    float rl = sqrtf(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    for (int i = 0; i < 3; i++)
        r[i] /= rl;
    u[0] = r[1] * f[2] - r[2] * f[1];
    u[1] = r[2] * f[0] - r[0] * f[2];
    u[2] = r[0] * f[1] - r[1] * f[0];
    for (int i = 0; i < 3; i++) {
        origin[i] = cam->eye[i];
        dir[i] = f[i] + sx * fx * r[i] + sy * fy * u[i];
    }
}

/* the largest |x| / fill_x or |y| of a corner's normalised device coordinates;
 * > 1 when a corner is outside the frame (or behind the eye) */
static float box_overflow(const vf_camera *c, const float lo[3], const float hi[3], float aspect, float fill)
{
    vf_mat4 view, proj;
    vf_camera_matrices(c, aspect, &view, &proj);
    vf_mat4 vp = vf_mat4_mul(&proj, &view);
    float worst = 0.0f;
    for (int k = 0; k < 8; k++) {
        float p[3] = {k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]}, q[4];
        vf_mat4_transform(&vp, p, 1.0f, q);
        if (q[3] <= 1e-6f)
            return 1e30f;
        worst = fmaxf(worst, fmaxf(fabsf(q[0] / q[3]), fabsf(q[1] / q[3])) / fill);
    }
    return worst;
}

vf_camera vf_camera_fit_box(const float box_min[3], const float box_max[3], const float dir_in[3], float fov_y,
                            float aspect, float fill)
{
    vf_camera c;
    memset(&c, 0, sizeof c);
    float dir[3] = {dir_in[0], dir_in[1], dir_in[2]}, radius = 0.0f;
    normalize3(dir);
    for (int i = 0; i < 3; i++) {
        c.target[i] = 0.5f * (box_min[i] + box_max[i]);
        radius += 0.25f * (box_max[i] - box_min[i]) * (box_max[i] - box_min[i]);
    }
    radius = fmaxf(sqrtf(radius), 1e-6f);
    c.up[1] = 1.0f;
    c.fov_y = fov_y;
    if (!(aspect > 0.0f))
        aspect = 1.0f;
    if (!(fill > 0.0f && fill <= 1.0f))
        fill = 0.9f;
    /* bisect the distance: the nearest eye that keeps every corner in frame;
     * then centre the box's projection by moving the target (twice) */
    for (int pass = 0; pass < 3; pass++) {
        float lo = 0.0f, hi = 50.0f * radius;
        for (int it = 0; it < 40; it++) {
            float mid = 0.5f * (lo + hi);
            for (int i = 0; i < 3; i++)
                c.eye[i] = c.target[i] + dir[i] * mid;
            c.znear = 1e-4f;
            c.zfar = 1e6f;
            if (box_overflow(&c, box_min, box_max, aspect, fill) > 1.0f)
                lo = mid;
            else
                hi = mid;
        }
        for (int i = 0; i < 3; i++)
            c.eye[i] = c.target[i] + dir[i] * hi;
        if (pass == 2)
            break;
        /* the screen-space centre of the box's corners, moved back onto the target */
        vf_mat4 view, proj;
        vf_camera_matrices(&c, aspect, &view, &proj);
        vf_mat4 vp = vf_mat4_mul(&proj, &view);
        float mn[2] = {1e30f, 1e30f}, mx[2] = {-1e30f, -1e30f};
        for (int k = 0; k < 8; k++) {
            float p[3] = {k & 1 ? box_max[0] : box_min[0], k & 2 ? box_max[1] : box_min[1],
                          k & 4 ? box_max[2] : box_min[2]}, q[4];
            vf_mat4_transform(&vp, p, 1.0f, q);
            for (int a = 0; a < 2; a++) {
                mn[a] = fminf(mn[a], q[a] / q[3]);
                mx[a] = fmaxf(mx[a], q[a] / q[3]);
            }
        }
        float sx = 0.5f * (mn[0] + mx[0]), sy = -0.5f * (mn[1] + mx[1]); /* clip y points down */
        float origin[3], ray[3];
        vf_camera_pick_ray(&c, aspect, sx, sy, origin, ray);
        float dist = 0.0f;
        for (int i = 0; i < 3; i++)
            dist += (c.target[i] - c.eye[i]) * (c.target[i] - c.eye[i]);
        dist = sqrtf(dist); /* the target's view depth: the camera looks at it */
        /* move the target sideways by the offset seen at the target's depth */
        for (int i = 0; i < 3; i++)
            c.target[i] = origin[i] + ray[i] * dist;
    }
    float dist = 0.0f;
    for (int i = 0; i < 3; i++)
        dist += (c.eye[i] - c.target[i]) * (c.eye[i] - c.target[i]);
    dist = sqrtf(dist);
    c.znear = fmaxf(0.002f, 0.02f * dist);
    c.zfar = dist + 20.0f * radius + 10.0f;
    return c;
}
