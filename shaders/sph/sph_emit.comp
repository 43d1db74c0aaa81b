#version 450
// The nozzle: one workgroup appends the layers of particles due (pc.layers,
// or st.emit_layers with VF_SPH_EMIT_LAYERS_STATE) at the pattern's points
// (origin + offset, the nozzle velocity, fresh persistent ids), the newest
// pc.lead along the jet and layer m one spacing further than layer m - 1 (a
// substep longer than the nozzle's interval spacing / speed emits the layers
// of the intervals that passed in it, each where it would be had it left on
// time: the nozzle's flow does not depend on the step), skipping points that still have a particle closer
// than the clearance and stopping at the capacity. The points that emit are
// compacted with a workgroup prefix sum, so ids and slots are deterministic.
// sph_args (mode emit) then commits st.pending into the count.
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_EMIT_BIND_START) readonly buffer Start { uint start[]; };
layout(std430, binding = VF_SPH_EMIT_BIND_POS) buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_SPH_EMIT_BIND_VEL) writeonly buffer Vel { vec4 vel[]; };
layout(std430, binding = VF_SPH_EMIT_BIND_ID) writeonly buffer Id { uint id[]; };
layout(std430, binding = VF_SPH_EMIT_BIND_ACC) writeonly buffer Acc { vec4 acc[]; };
layout(std430, binding = VF_SPH_EMIT_BIND_PATTERN) readonly buffer Pattern { vec4 pattern[]; };

VF_PUSH(vf_sph_emit_push)

shared uint s_scan[VF_SPH_WG];

bool point_is_clear(vec3 p, uint count)
{
    ivec3 c = sph_cell3(p);
    ivec3 n = sph_grid();
    int x0 = max(c.x - VF_SPH_CELL_DIV, 0), x1 = min(c.x + VF_SPH_CELL_DIV, n.x - 1);
    for (int z = max(c.z - VF_SPH_CELL_DIV, 0); z <= min(c.z + VF_SPH_CELL_DIV, n.z - 1); z++) {
        for (int y = max(c.y - VF_SPH_CELL_DIV, 0); y <= min(c.y + VF_SPH_CELL_DIV, n.y - 1); y++) {
            uint row = prm.grid_x * (uint(y) + prm.grid_y * uint(z));
            uint b = start[row + uint(x0)], e = min(start[row + uint(x1) + 1u], count);
            for (uint j = b; j < e; j++) {
                vec3 d = pos[j].xyz - p;
                if (dot(d, d) < prm.emit_clearance2)
                    return false;
            }
        }
    }
    return true;
}

void main()
{
    uint lid = gl_LocalInvocationID.x;
    uint count = st.count;
    uint room = prm.capacity - count;
    uint base = 0u;
    uint layers = min(pc.layers == VF_SPH_EMIT_LAYERS_STATE ? st.emit_layers : pc.layers, VF_SPH_EMIT_LAYERS_MAX);
    float speed = length(prm.emit_velocity.xyz);
    vec3 along = speed > 0.0 ? prm.emit_velocity.xyz / speed : vec3(0.0);
    float lead = pc.layers == VF_SPH_EMIT_LAYERS_STATE ? 0.0 : pc.lead;
    for (uint at = 0u; at < layers * prm.emit_count; at += VF_SPH_WG) {
        uint k = at + lid;
        vec3 p = vec3(0.0);
        bool want = false;
        if (k < layers * prm.emit_count) {
            uint layer = k / prm.emit_count;
            p = prm.emit_origin.xyz + pattern[k - layer * prm.emit_count].xyz +
                (lead + float(layer) * prm.spacing) * along;
            want = point_is_clear(p, count);
        }
        uint flag = want ? 1u : 0u;
        s_scan[lid] = flag;
        barrier();
        for (uint off = 1u; off < VF_SPH_WG; off <<= 1u) {
            uint x = s_scan[lid];
            if (lid >= off)
                x += s_scan[lid - off];
            barrier();
            s_scan[lid] = x;
            barrier();
        }
        uint slot = base + s_scan[lid] - flag;
        uint total = s_scan[VF_SPH_WG - 1u];
        if (want && slot < room) {
            uint d = count + slot;
            pos[d] = vec4(p, 0.0);
            vel[d] = vec4(prm.emit_velocity.xyz, 0.0);
            id[d] = st.next_id + slot;
            acc[d] = vec4(0.0);
        }
        base += total;
        barrier();
    }
    if (lid == 0u)
        st.pending = min(base, room);
}
