#version 450
// The flux through every face: HLL (Harten, Lax & van Leer) between the two
// cells' states after the hydrostatic reconstruction of Audusse et al.
// (2004): each side's depth is cut to the water above the higher of the two
// beds, h* = max(0, h - max(0, b_other - b_own)), and the normal momentum
// flux seen from each side carries g/2 (h^2 - h*^2), the bed's push, so a
// lake at rest over any ground has no net flux. Dry sides take the wave
// speeds of a dry bed (u -/+ 2c of the wet side). Invocation (i, j) writes
// the x face on the left of cell (i, j) (i = 0 .. nx) and the y face below
// it (j = 0 .. ny); faces on the domain's edge are walls (mirror state, no
// mass flux).
#include "shared_terrain.h"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_TERRAIN_FLUX_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_TERRAIN_FLUX_BIND_DEPTH) readonly buffer Depth { uint depth[]; };
layout(std430, binding = VF_TERRAIN_FLUX_BIND_MOM) readonly buffer Mom { vec2 mom[]; };
layout(std430, binding = VF_TERRAIN_FLUX_BIND_FACE_X) writeonly buffer FaceX { vec4 face_x[]; };
layout(std430, binding = VF_TERRAIN_FLUX_BIND_FACE_Y) writeonly buffer FaceY { vec4 face_y[]; };
VF_PUSH(vf_terrain_step_push)
#include "terrain_common.glsl"

// One face between side a (before) and side b (after): depth, bed, normal
// and tangential velocity of each. Returns (F_h, F_n^-, F_n^+, F_t).
vec4 hll(float ha, float ba, float una, float uta, float hb, float bb, float unb, float utb)
{
    float g = pc.g;
    float db = bb - ba;
    float sa = max(0.0, ha - max(0.0, db)), sb = max(0.0, hb - max(0.0, -db));
    float fh = 0.0, fn = 0.0;
    if (sa > 0.0 || sb > 0.0) {
        float ca = sqrt(g * sa), cb = sqrt(g * sb);
        float sl = sa > 0.0 ? (sb > 0.0 ? min(una - ca, unb - cb) : una - ca) : unb - 2.0 * cb;
        float sr = sb > 0.0 ? (sa > 0.0 ? max(una + ca, unb + cb) : unb + cb) : una + 2.0 * ca;
        float qa = sa * una, qb = sb * unb;
        float fa = qa * una + 0.5 * g * sa * sa, fb = qb * unb + 0.5 * g * sb * sb;
        if (sl >= 0.0) {
            fh = qa;
            fn = fa;
        } else if (sr <= 0.0) {
            fh = qb;
            fn = fb;
        } else {
            float inv = 1.0 / (sr - sl);
            fh = (sr * qa - sl * qb + sl * sr * (sb - sa)) * inv;
            fn = (sr * fa - sl * fb + sl * sr * (qb - qa)) * inv;
        }
    }
    float ft = fh > 0.0 ? fh * uta : fh * utb;
    float pa = 0.5 * g * (ha - sa) * (ha + sa), pb = 0.5 * g * (hb - sb) * (hb + sb);
    return vec4(fh, fn + pa, fn + pb, ft);
}

void main()
{
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    if (i > pc.nx || j > pc.ny)
        return;
    const float q = float(VF_TERRAIN_QUANTUM);
    if (j < pc.ny) { // the x face left of cell (i, j)
        uint a = terrain_cell(i > 0u ? i - 1u : 0u, j), b = terrain_cell(min(i, pc.nx - 1u), j);
        float ha = float(depth[a]) * q, hb = float(depth[b]) * q;
        vec2 va = terrain_velocity(ha, mom[a], pc.dry), vb = terrain_velocity(hb, mom[b], pc.dry);
        bool wall = i == 0u || i == pc.nx;
        if (i == 0u)
            va = vec2(-vb.x, vb.y);
        else if (i == pc.nx)
            vb = vec2(-va.x, va.y);
        vec4 f = hll(ha, bed[a], va.x, va.y, hb, bed[b], vb.x, vb.y);
        if (wall)
            f.x = f.w = 0.0;
        face_x[j * (pc.nx + 1u) + i] = f;
    }
    if (i < pc.nx) { // the y face below cell (i, j)
        uint a = terrain_cell(i, j > 0u ? j - 1u : 0u), b = terrain_cell(i, min(j, pc.ny - 1u));
        float ha = float(depth[a]) * q, hb = float(depth[b]) * q;
        vec2 va = terrain_velocity(ha, mom[a], pc.dry), vb = terrain_velocity(hb, mom[b], pc.dry);
        bool wall = j == 0u || j == pc.ny;
        if (j == 0u)
            va = vec2(vb.x, -vb.y);
        else if (j == pc.ny)
            vb = vec2(va.x, -va.y);
        vec4 f = hll(ha, bed[a], va.y, va.x, hb, bed[b], vb.y, vb.x);
        if (wall)
            f.x = f.w = 0.0;
        face_y[j * pc.nx + i] = f;
    }
}
