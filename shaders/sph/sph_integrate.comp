#version 450
// Time integration with collision against walls and obstacles: symplectic
// Euler, or the two halves of kick-drift-kick leapfrog: the drift of a
// frame's first substep and the closing kick of its last (inside a frame
// sph_forces_drift does both at once). Copies the pressure
// to pos.w and the density to vel.w (the layout renderers read). Also keeps the
// largest speed seen (a shared atomicMax per invocation, then one global
// atomicMax per workgroup: two workgroup barriers) for the
// guards: the step size itself never needs a readback. With pc.bin = 1 it
// also bins the new position exactly as sph_bin does (the leapfrog drift:
// one pass instead of two; the counts must be cleared before).
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "sph_common.glsl"

layout(local_size_x = VF_SPH_WG) in;
layout(std430, binding = VF_SPH_INTEGRATE_BIND_POS) buffer Pos { vec4 pos[]; };
layout(std430, binding = VF_SPH_INTEGRATE_BIND_VEL) buffer Vel { vec4 vel[]; };
layout(std430, binding = VF_SPH_INTEGRATE_BIND_ACC) readonly buffer Acc { vec4 acc[]; };
layout(std430, binding = VF_SPH_INTEGRATE_BIND_DENS) readonly buffer Dens { vec2 dens[]; };
layout(std430, binding = VF_SPH_INTEGRATE_BIND_CELL) writeonly buffer Cell { uint cell[]; };
layout(std430, binding = VF_SPH_INTEGRATE_BIND_SLOT) writeonly buffer Slot { uint slot[]; };
layout(std430, binding = VF_SPH_INTEGRATE_BIND_START) buffer Counts { uint counts[]; };
layout(binding = VF_SPH_INTEGRATE_BIND_POS_T) uniform samplerBuffer pos_t;
layout(binding = VF_SPH_INTEGRATE_BIND_VEL_T) uniform samplerBuffer vel_t;
layout(binding = VF_SPH_INTEGRATE_BIND_ACC_T) uniform samplerBuffer acc_t;
layout(binding = VF_SPH_INTEGRATE_BIND_DENS_T) uniform samplerBuffer dens_t;
VF_PUSH(vf_sph_integrate_push)

shared uint s_max;

void main()
{
    uint i = sph_index();
    uint lid = gl_LocalInvocationID.x;
    if (lid == 0u)
        s_max = 0u;
    barrier();
    uint speed_bits = 0u;
    if (i < st.count) {
        // each value read once, before this invocation writes it (texel views:
        // one gather on llvmpipe where a storage buffer loads lane by lane)
        int t = int(i);
        vec3 a = sph_texel ? texelFetch(acc_t, t).xyz : acc[i].xyz;
        vec3 v = sph_texel ? texelFetch(vel_t, t).xyz : vel[i].xyz;
        vec2 rp = sph_texel ? texelFetch(dens_t, t).xy : dens[i];
        vec3 x = sph_texel ? texelFetch(pos_t, t).xyz : pos[i].xyz;
        if (pc.mode == VF_SPH_INTEGRATE_KICK) {
            v += (0.5 * pc.dt) * a;
        } else {
            v += (pc.mode == VF_SPH_INTEGRATE_DRIFT ? 0.5 * pc.dt : pc.dt) * a;
            x += pc.dt * v;
            sph_collide(x, v);
        }
        // w carries the pressure and the density for renderers (render_ssf)
        pos[i] = vec4(x, rp.y);
        vel[i] = vec4(v, rp.x);
        speed_bits = max(speed_bits, floatBitsToUint(length(v))); // NaN sorts above +inf as uint
        if (pc.bin != 0u) {
            uint c = sph_bin_cell(x);
            cell[i] = c;
            slot[i] = atomicAdd(counts[c], 1u);
        }
    }
    if (speed_bits != 0u)
        atomicMax(s_max, speed_bits);
    barrier();
    if (lid == 0u && s_max != 0u)
        atomicMax(st.max_speed_bits, s_max);
}
