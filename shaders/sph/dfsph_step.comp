#version 450
// The GPU's control of a DFSPH frame (one workgroup; shared_sph.h):
//   FRAME    the frame's simulated time back to 0;
//   BEGIN    a substep: when the frame's time is not yet done, its step, the
//            CFL step dfsph_cfl spacing / (largest speed of the last advect),
//            at most dfsph_dt_max, split evenly over what is left of the
//            frame in the recorded substeps left (pc.left: when the CFL
//            step needs more, the substeps are longer, and counted); the
//            particle, scan and nozzle arguments of the substep (0 when the
//            frame is done), and the solves' iteration arguments cleared;
//   REFRESH  after an emission: the particle arguments again.
#define SPH_STATE_ACCESS
#include "shared_sph.h"
#include "dfsph_common.glsl"

void main()
{
    uint lid = gl_LocalInvocationID.x;
    if (pc.mode == VF_DFSPH_STEP_BEGIN)
        for (uint k = lid; k <= VF_DFSPH_MAX_ITERATIONS; k += VF_DFSPH_WG) {
            div_args[k] = uvec4(0u);
            dens_args[k] = uvec4(0u);
        }
    if (lid != 0u)
        return;
    if (pc.mode == VF_DFSPH_STEP_FRAME) {
        ctl.time = 0.0;
        return;
    }
    bool running = ctl.step_x != 0u || pc.mode == VF_DFSPH_STEP_BEGIN;
    if (pc.mode == VF_DFSPH_STEP_BEGIN) {
        float remaining = prm.frame_dt - ctl.time;
        running = remaining > 1e-6 * prm.frame_dt && pc.left > 0u;
        ctl.dt = 0.0;
        ctl.emit_x = 0u;
        if (running) {
            float vmax = uintBitsToFloat(ctl.speed_bits);
            float dt = min(prm.dfsph_dt_max, prm.dfsph_cfl * prm.spacing / max(vmax, 1e-6));
            float need = ceil(remaining / dt - 1e-4);
            float n = max(need, 1.0);
            if (n > float(pc.left)) {
                n = float(pc.left);
                ctl.capped += 1u;
            }
            dt = remaining / n;
            ctl.dt = dt;
            ctl.time = n == 1.0 ? prm.frame_dt : ctl.time + dt;
            ctl.substeps += 1u;
            ctl.emit_time += dt;
            if (prm.emit_interval > 0.0 && ctl.emit_time >= prm.emit_interval) {
                // the layers whose time came in this substep (a longer backlog is dropped)
                float due = floor(ctl.emit_time / prm.emit_interval);
                ctl.emit_time -= due * prm.emit_interval;
                st.emit_layers = uint(min(due, float(VF_SPH_EMIT_LAYERS_MAX)));
                ctl.emit_x = 1u;
            }
        }
        ctl.emit_y = 1u;
        ctl.emit_z = 1u;
        ctl.scan_x = running ? prm.scan_groups : 0u;
        ctl.scan_y = 1u;
        ctl.scan_z = 1u;
        if (running)
            ctl.speed_bits = 0u; // the advect of this substep measures it again
    }
    ctl.step_x = running ? dispatch_args.x : 0u;
    ctl.step_y = running ? dispatch_args.y : 1u;
    ctl.step_z = 1u;
}
