#version 450
// The nozzle: one workgroup appends one layer of particles at the pattern's
// points (origin + offset, the nozzle velocity, fresh persistent ids), skipping
// points that still have a particle closer than the clearance and stopping at
// the capacity. The points that emit are compacted with a workgroup prefix
// sum, so ids and slots are deterministic. sph_args (mode emit) then commits
// st.pending into the count.
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
    for (uint chunk = 0u; chunk < prm.emit_count; chunk += VF_SPH_WG) {
        uint k = chunk + lid;
        vec3 p = vec3(0.0);
        bool want = false;
        if (k < prm.emit_count) {
            p = prm.emit_origin.xyz + pattern[k].xyz;
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
