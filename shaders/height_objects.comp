#version 450
// Floating objects, once per frame: each object slides down the surface slope
// (horizontal force -m g grad eta, which is also what makes it follow the
// orbital motion of waves), relaxes towards the flow velocity with time
// constant tau (zero without a flow), bounces off walls, solid and dry cells,
// and takes the surface elevation (bobbing). Ducks turn towards where they go,
// leaves spin slowly. With a boat, object 0 is the boat on its set path.
#include "shared.h"

layout(local_size_x = VF_HEIGHT_OBJECTS_WG) in;
layout(std430, binding = VF_HEIGHT_OBJ_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_OBJ_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_OBJ_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_OBJ_BIND_OBJECTS) buffer Objects { vf_height_object objects[]; };
layout(std430, binding = VF_HEIGHT_OBJ_BIND_FLOW_VEL) readonly buffer FlowVel { vec2 flow_vel[]; };
VF_PUSH(vf_height_objects_push)

float sample_eta(vec2 p)
{
    float fx = clamp(p.x / pc.dx - 0.5, 0.0, float(pc.nx - 1u));
    float fy = clamp(p.y / pc.dx - 0.5, 0.0, float(pc.ny - 1u));
    uint x0 = min(uint(fx), pc.nx - 1u), y0 = min(uint(fy), pc.ny - 1u);
    uint x1 = min(x0 + 1u, pc.nx - 1u), y1 = min(y0 + 1u, pc.ny - 1u);
    float tx = fx - float(x0), ty = fy - float(y0);
    float a = mix(eta[y0 * pc.nx + x0], eta[y0 * pc.nx + x1], tx);
    float c = mix(eta[y1 * pc.nx + x0], eta[y1 * pc.nx + x1], tx);
    return mix(a, c, ty);
}

vec2 sample_flow(vec2 p)
{
    float lx = float(pc.nx) * pc.dx, ly = float(pc.ny) * pc.dx;
    float fx = clamp(p.x / lx * float(pc.flow_nx) - 0.5, 0.0, float(pc.flow_nx - 1u));
    float fy = clamp(p.y / ly * float(pc.flow_ny) - 0.5, 0.0, float(pc.flow_ny - 1u));
    uint x0 = min(uint(fx), pc.flow_nx - 1u), y0 = min(uint(fy), pc.flow_ny - 1u);
    uint x1 = min(x0 + 1u, pc.flow_nx - 1u), y1 = min(y0 + 1u, pc.flow_ny - 1u);
    float tx = fx - float(x0), ty = fy - float(y0);
    vec2 a = mix(flow_vel[y0 * pc.flow_nx + x0], flow_vel[y0 * pc.flow_nx + x1], tx);
    vec2 c = mix(flow_vel[y1 * pc.flow_nx + x0], flow_vel[y1 * pc.flow_nx + x1], tx);
    return mix(a, c, ty);
}

// True when the cell under p is solid or dry.
bool blocked(vec2 p)
{
    uint i = min(uint(max(p.x / pc.dx, 0.0)), pc.nx - 1u);
    uint j = min(uint(max(p.y / pc.dx, 0.0)), pc.ny - 1u);
    uint idx = j * pc.nx + i;
    return (flags[idx] & VF_HEIGHT_SOLID) != 0u || eta[idx] - bed[idx] < 1e-3;
}

void main()
{
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count)
        return;
    vf_height_object o = objects[k];
    if (pc.boat != 0u && k == 0u) {
        o.x = pc.boat_x;
        o.y = pc.boat_y;
        o.heading = pc.boat_heading;
        o.vx = cos(pc.boat_heading) * pc.boat_speed;
        o.vy = sin(pc.boat_heading) * pc.boat_speed;
        o.z = sample_eta(vec2(o.x, o.y));
        objects[k] = o;
        return;
    }
    vec2 p = vec2(o.x, o.y), v = vec2(o.vx, o.vy);
    vec2 grad = vec2(sample_eta(p + vec2(pc.dx, 0.0)) - sample_eta(p - vec2(pc.dx, 0.0)),
                     sample_eta(p + vec2(0.0, pc.dx)) - sample_eta(p - vec2(0.0, pc.dx))) / (2.0 * pc.dx);
    vec2 a = -pc.g * grad;
    float al = length(a), amax = 0.5 * pc.g;
    if (al > amax)
        a *= amax / al;
    v += pc.dt * a;
    vec2 u = pc.flow != 0u ? sample_flow(p) : vec2(0.0);
    v = u + (v - u) * exp(-pc.dt / pc.tau);
    vec2 np = p + pc.dt * v;
    float lx = float(pc.nx) * pc.dx, ly = float(pc.ny) * pc.dx, m = 0.5 * pc.dx;
    if (np.x < m) { np.x = m; v.x = abs(v.x); }
    if (np.x > lx - m) { np.x = lx - m; v.x = -abs(v.x); }
    if (np.y < m) { np.y = m; v.y = abs(v.y); }
    if (np.y > ly - m) { np.y = ly - m; v.y = -abs(v.y); }
    if (blocked(np)) {
        np = p;
        v = -0.5 * v;
    }
    if (o.kind == VF_HEIGHT_OBJ_DUCK) {
        float sp = length(v);
        if (sp > 1e-3) {
            float d = atan(v.y, v.x) - o.heading;
            d -= 6.28318531 * floor(d / 6.28318531 + 0.5);
            o.heading += clamp(d, -2.0 * pc.dt, 2.0 * pc.dt);
        }
    } else {
        o.heading += pc.dt * ((k & 1u) != 0u ? 0.3 : -0.3);
    }
    o.x = np.x;
    o.y = np.y;
    o.vx = v.x;
    o.vy = v.y;
    o.z = sample_eta(np);
    objects[k] = o;
}
