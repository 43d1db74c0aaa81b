#version 450
// The multigrid tail: one V-cycle over the levels from the tail level (q = 0
// here; the push constants are its nx, ny, nz, h) down to the coarsest
// (q = color - 1), run by ONE workgroup in shared memory, so these levels
// cost one dispatch instead of 2 (pre + post) + 3 per level and one coarse
// solve. Per level above the coarsest: `pre` red-black Gauss-Seidel sweeps
// (as grid3d_mg_smooth), the residual (as grid3d_mg_residual) restricted to
// the next level (as grid3d_mg_restrict, computed per coarse cell), and
// after the coarser levels the trilinear prolongation (as grid3d_mg_prolong)
// and `post` sweeps; the coarsest gets red-black SOR sweeps (omega = a.x, as
// grid3d_mg_coarse). mode = pre | post << 8 | coarse sweeps << 16. Each step
// ends with a workgroup barrier; the same terms are summed in the same order
// as by those passes. The tail level's x is read into shared memory and
// written back; its b stays in the buffer. The masks of the tail's levels
// are read from their buffers. Nothing depends on the subgroup size; the
// workgroup size and the shared array are specialization constants the host
// sets from the device's limits.
#include "shared_grid3d.h"
VF_PUSH(vf_grid3d_push)

layout(local_size_x = VF_G3_TAIL_DEFAULT_WG, local_size_x_id = VF_G3_SPEC_TAIL_WG) in;
layout(constant_id = VF_G3_SPEC_TAIL_FLOATS) const int tail_floats = VF_G3_TAIL_DEFAULT_FLOATS;
shared float sm[tail_floats];
layout(constant_id = VF_G3_SPEC_PERIODIC) const uint g3_periodic = 0u; /* some side periodic */

layout(std430, binding = VF_G3_TAIL_X) buffer X { float x[]; };
layout(std430, binding = VF_G3_TAIL_B) readonly buffer B { float b[]; };
layout(std430, binding = VF_G3_TAIL_MASK0 + 0) readonly buffer M0 { uint m0[]; };
layout(std430, binding = VF_G3_TAIL_MASK0 + 1) readonly buffer M1 { uint m1[]; };
layout(std430, binding = VF_G3_TAIL_MASK0 + 2) readonly buffer M2 { uint m2[]; };
layout(std430, binding = VF_G3_TAIL_MASK0 + 3) readonly buffer M3 { uint m3[]; };
#if VF_G3_TAIL_MAX_LEVELS != 4
#error "grid3d_mg_tail.comp declares 4 masks"
#endif

uint side_type(uint s)
{
    return (pc.sides >> (4u * s)) & 15u;
}

// the level being worked on (set by set_level)
int lv_q, lv_x, lv_b;
ivec3 lv_n;
float lv_h;

ivec3 dims(int q)
{
    return ivec3(int(pc.nx) >> q, int(pc.ny) >> q, int(pc.nz) >> q);
}

int cells(int q)
{
    ivec3 d = dims(q);
    return d.x * d.y * d.z;
}

// shared layout: x of level 0, then x and b of level 1, 2, ...
int x_offset(int q)
{
    int o = cells(0);
    for (int l = 1; l < q; l++)
        o += 2 * cells(l);
    return q == 0 ? 0 : o;
}

void set_level(int q)
{
    lv_q = q;
    lv_n = dims(q);
    lv_x = x_offset(q);
    lv_b = lv_x + cells(q);
    lv_h = pc.h * float(1 << q);
}

// on a periodic axis cell -1 is cell n - 1 and cell n is cell 0
int cidx(ivec3 p)
{
    for (int a = 0; a < 3; a++)
        if (g3_periodic != 0u && side_type(uint(2 * a)) == VF_G3_BC_PERIODIC)
            p[a] += p[a] < 0 ? lv_n[a] : (p[a] >= lv_n[a] ? -lv_n[a] : 0);
    return (p.z * lv_n.y + p.y) * lv_n.x + p.x;
}

ivec3 cell_of(int k)
{
    return ivec3(k % lv_n.x, (k / lv_n.x) % lv_n.y, k / (lv_n.x * lv_n.y));
}

uint mask_at(int q, int k)
{
    return q == 0 ? m0[k] : (q == 1 ? m1[k] : (q == 2 ? m2[k] : m3[k]));
}

bool solid(ivec3 p)
{
    return mask_at(lv_q, cidx(p)) != VF_G3_CELL_FLUID;
}

// the face weight of grid3d_common.glsl's pweight on the current level
float pweight(ivec3 p, int a, int dir)
{
    ivec3 q = p;
    q[a] += dir;
    if ((q[a] < 0 || q[a] >= lv_n[a]) && !(g3_periodic != 0u && side_type(uint(2 * a)) == VF_G3_BC_PERIODIC))
        return side_type(uint(2 * a) + (dir < 0 ? 0u : 1u)) == VF_G3_BC_OUTFLOW ? 2.0 : 0.0;
    return solid(q) ? 0.0 : 1.0;
}

float bval(int k)
{
    return lv_q == 0 ? b[k] : sm[lv_b + k];
}

void sync()
{
    memoryBarrierShared();
    barrier();
}

const int WG = int(gl_WorkGroupSize.x);

// (sum of the open neighbours' x, sum of the weights) at cell p
vec2 neighbours(ivec3 p)
{
    float s = 0.0, acc = 0.0;
    for (int n = 0; n < 6; n++) {
        int a = n >> 1, dir = (n & 1) == 0 ? -1 : 1;
        float w = pweight(p, a, dir);
        if (w == 1.0) {
            ivec3 q = p;
            q[a] += dir;
            acc += sm[lv_x + cidx(q)];
        }
        s += w;
    }
    return vec2(acc, s);
}

// n red-black SOR sweeps with omega (1: Gauss-Seidel) on the current level
void sweeps(uint n, float omega)
{
    float h2 = lv_h * lv_h;
    int nc = cells(lv_q);
    for (uint it = 0u; it < n; it++) {
        for (int color = 0; color < 2; color++) {
            for (int k = int(gl_LocalInvocationIndex); k < nc; k += WG) {
                ivec3 p = cell_of(k);
                if (((p.x + p.y + p.z) & 1) != color)
                    continue;
                if (solid(p)) {
                    sm[lv_x + k] = 0.0;
                    continue;
                }
                vec2 nb = neighbours(p);
                if (nb.y > 0.0)
                    sm[lv_x + k] = (1.0 - omega) * sm[lv_x + k] + omega * (nb.x - h2 * bval(k)) / nb.y;
            }
            sync();
        }
    }
}

float residual(ivec3 p)
{
    if (solid(p))
        return 0.0;
    vec2 nb = neighbours(p);
    int k = cidx(p);
    return bval(k) - (nb.x - nb.y * sm[lv_x + k]) / (lv_h * lv_h);
}

// level q's residual, restricted: level q + 1's b (mean of 8) and x = 0
void restrict_residual(int q)
{
    set_level(q);
    ivec3 cn = dims(q + 1);
    int ncc = cn.x * cn.y * cn.z;
    int cx = x_offset(q + 1), cb = cx + ncc;
    for (int c = int(gl_LocalInvocationIndex); c < ncc; c += WG) {
        ivec3 p = ivec3(c % cn.x, (c / cn.x) % cn.y, c / (cn.x * cn.y));
        float s = 0.0;
        for (int n = 0; n < 8; n++)
            s += residual(2 * p + ivec3(n & 1, (n >> 1) & 1, (n >> 2) & 1));
        sm[cb + c] = 0.125 * s;
        sm[cx + c] = 0.0;
    }
    sync();
}

// level q += the trilinear interpolation of level q + 1's correction
void prolong(int q)
{
    set_level(q);
    ivec3 dc = dims(q + 1);
    int cx = x_offset(q + 1), nc = cells(q);
    for (int k = int(gl_LocalInvocationIndex); k < nc; k += WG) {
        ivec3 p = cell_of(k);
        if (solid(p))
            continue;
        vec3 g = clamp((vec3(p) + 0.5) * 0.5 - 0.5, vec3(0.0), vec3(dc - 1));
        ivec3 i0 = min(ivec3(floor(g)), dc - 2);
        vec3 f = g - vec3(i0);
        float v[8];
        for (int n = 0; n < 8; n++) {
            ivec3 c = i0 + ivec3(n & 1, (n >> 1) & 1, (n >> 2) & 1);
            v[n] = sm[cx + (c.z * dc.y + c.y) * dc.x + c.x];
        }
        float x00 = mix(v[0], v[1], f.x), x10 = mix(v[2], v[3], f.x);
        float x01 = mix(v[4], v[5], f.x), x11 = mix(v[6], v[7], f.x);
        sm[lv_x + k] += mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);
    }
    sync();
}

void main()
{
    int levels = int(pc.color);
    uint pre = pc.mode & 0xffu, post = (pc.mode >> 8) & 0xffu, coarse = pc.mode >> 16;
    int n0 = cells(0);
    for (int k = int(gl_LocalInvocationIndex); k < n0; k += WG)
        sm[k] = x[k];
    sync();
    for (int q = 0; q < levels - 1; q++) {
        set_level(q);
        sweeps(pre, 1.0);
        restrict_residual(q);
    }
    set_level(levels - 1);
    sweeps(coarse, pc.a.x);
    for (int q = levels - 2; q >= 0; q--) {
        prolong(q);
        sweeps(post, 1.0);
    }
    for (int k = int(gl_LocalInvocationIndex); k < n0; k += WG)
        x[k] = sm[k];
}
