#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// One cell's substep: the water its faces carry in and out (in whole quanta,
// each face's amount the same for both of its cells), then sources, rain and
// drains; the momentum from the faces' momentum fluxes (the hydrostatic
// reconstruction's bed terms included); bed friction (Manning, implicit);
// no velocity below the dry depth; the speed held so that |u| + sqrt(g h)
// stays within speed_cap (counted); and bed + depth for the renderers. The
// drains' quanta and the largest CFL number go to the stats.
#include "shared_terrain.h"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_DEPTH) buffer Depth { uint depth[]; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_MOM) buffer Mom { vec2 mom[]; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_FACE_X) readonly buffer FaceX { vec4 face_x[]; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_FACE_Y) readonly buffer FaceY { vec4 face_y[]; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_LIMIT) readonly buffer Limit { float limit[]; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_ETA) writeonly buffer Eta { float eta[]; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_TOOLS) readonly buffer Tools { vf_terrain_tools tools; };
layout(std430, binding = VF_TERRAIN_UPDATE_BIND_STATS) buffer Stats { vf_terrain_stats stats; };
VF_PUSH(vf_terrain_step_push)
#include "terrain_common.glsl"

void main()
{
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    bool inside = i < pc.nx && j < pc.ny;
    float cfl = 0.0;
    if (inside) {
        uint c = terrain_cell(i, j), wx = pc.nx + 1u;
        vec4 fl = face_x[j * wx + i], fr = face_x[j * wx + i + 1u];
        vec4 fb = face_y[j * pc.nx + i], ft = face_y[(j + 1u) * pc.nx + i];
        float own = limit[c];
        // each face's quanta with its donor's limit: out through negative
        // left/bottom and positive right/top fluxes, in through the others
        uint out_q = 0u, in_q = 0u, k;
        k = terrain_face_quanta(fl.x, pc.quanta, fl.x < 0.0 ? own : limit[c - (i > 0u ? 1u : 0u)]);
        if (fl.x < 0.0) out_q += k; else in_q += k;
        k = terrain_face_quanta(fr.x, pc.quanta, fr.x > 0.0 ? own : limit[c + (i + 1u < pc.nx ? 1u : 0u)]);
        if (fr.x > 0.0) out_q += k; else in_q += k;
        k = terrain_face_quanta(fb.x, pc.quanta, fb.x < 0.0 ? own : limit[c - (j > 0u ? pc.nx : 0u)]);
        if (fb.x < 0.0) out_q += k; else in_q += k;
        k = terrain_face_quanta(ft.x, pc.quanta, ft.x > 0.0 ? own : limit[c + (j + 1u < pc.ny ? pc.nx : 0u)]);
        if (ft.x > 0.0) out_q += k; else in_q += k;
        uint d = depth[c] - out_q + in_q + pc.rain;
        for (uint s = 0u; s < pc.sources; s++)
            if (vf_terrain_in_disc(int(i), int(j), tools.sources[s].ci, tools.sources[s].cj, tools.sources[s].r2))
                d += pc.source_q[s];
        for (uint s = 0u; s < pc.drains; s++)
            if (vf_terrain_in_disc(int(i), int(j), tools.drains[s].ci, tools.drains[s].cj, tools.drains[s].r2)) {
                uint take = min(d, pc.drain_q[s]);
                d -= take;
                uint old = atomicAdd(stats.drained_lo, take);
                if (old + take < old)
                    atomicAdd(stats.drained_hi, 1u);
            }
        // momentum: the faces' momentum fluxes, x then y
        float r = pc.dt / pc.dx;
        vec2 m = mom[c];
        m.x -= r * ((fr.y - fl.z) + (ft.w - fb.w));
        m.y -= r * ((fr.w - fl.w) + (ft.y - fb.z));
        float h = float(d) * float(VF_TERRAIN_QUANTUM);
        if (h <= pc.dry) {
            m = vec2(0.0);
        } else {
            float speed = length(m) / h;
            if (pc.friction > 0.0)
                m /= 1.0 + pc.dt * pc.friction * speed / pow(h, 4.0 / 3.0);
            speed = length(m) / h;
            float c0 = sqrt(pc.g * h), most = max(pc.speed_cap - c0, 0.0);
            if (speed > most) {
                m *= most / speed;
                atomicAdd(stats.capped, 1u);
                speed = most;
            }
            cfl = (speed + c0) * r;
        }
        depth[c] = d;
        mom[c] = m;
        eta[c] = bed[c] + h;
    }
    // the largest CFL number: one atomic per subgroup
    float most = subgroupMax(cfl);
    if (subgroupElect() && most > 0.0)
        atomicMax(stats.cfl_bits, floatBitsToUint(most));
}
