#version 450
// The end of a frame, one dispatch. The first ceil(count / VF_HEIGHT_END_WG)
// workgroups move the floating objects; with VF_HEIGHT_END_APPLY the others
// write the volume-corrected surface to eta_out (eta stays as the objects
// read it, so the two halves share no written data).
//
// Objects: each slides down the surface slope
// (horizontal force -m g grad eta, which is also what makes it follow the
// orbital motion of waves), relaxes towards the flow velocity with time
// constant tau (zero without a flow), bounces off walls, solid and dry cells,
// and takes the surface elevation (bobbing). Ducks turn towards where they go,
// leaves spin slowly. With a boat, object 0 is the boat on its set path.
// With recycle, objects reaching the right end start again at the left (a river).
//
// Volume correction: every wet cell changes its depth by the fraction the
// frame's last pass computed (height_volume_sum.glsl); eta^(n-1) moves by the
// same amount under ADI, so no velocity is created.
#include "shared_height.h"

layout(local_size_x = VF_HEIGHT_END_WG) in;
layout(std430, binding = VF_HEIGHT_END_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_OBJECTS) buffer Objects { vf_height_object objects[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_FLOW_VEL) readonly buffer FlowVel { float flow_a[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_FLOW_V) readonly buffer FlowV { float flow_b[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_ETA_OUT) writeonly buffer EtaOut { float eta_out[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_PREV) buffer Prev { float prev[]; };
layout(std430, binding = VF_HEIGHT_END_BIND_RESULT) readonly buffer Result { vf_height_volume_result result; };
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

// Bilinear sample of flow_a / flow_b (w x h values) at array coordinates f.
float sample_a(vec2 f, uint w, uint h, uint stride, uint comp)
{
    f = clamp(f, vec2(0.0), vec2(float(w - 1u), float(h - 1u)));
    uint x0 = min(uint(f.x), w - 1u), y0 = min(uint(f.y), h - 1u);
    uint x1 = min(x0 + 1u, w - 1u), y1 = min(y0 + 1u, h - 1u);
    vec2 t = f - vec2(x0, y0);
    float a = mix(flow_a[(y0 * w + x0) * stride + comp], flow_a[(y0 * w + x1) * stride + comp], t.x);
    float c = mix(flow_a[(y1 * w + x0) * stride + comp], flow_a[(y1 * w + x1) * stride + comp], t.x);
    return mix(a, c, t.y);
}

float sample_b(vec2 f, uint w, uint h)
{
    f = clamp(f, vec2(0.0), vec2(float(w - 1u), float(h - 1u)));
    uint x0 = min(uint(f.x), w - 1u), y0 = min(uint(f.y), h - 1u);
    uint x1 = min(x0 + 1u, w - 1u), y1 = min(y0 + 1u, h - 1u);
    vec2 t = f - vec2(x0, y0);
    float a = mix(flow_b[y0 * w + x0], flow_b[y0 * w + x1], t.x);
    float c = mix(flow_b[y1 * w + x0], flow_b[y1 * w + x1], t.x);
    return mix(a, c, t.y);
}

// The flow velocity (m/s) at p: cell-centred pairs, or MAC faces (u at
// (i hx, (j + 1/2) hy), v at ((i + 1/2) hx, j hy)).
vec2 sample_flow(vec2 p)
{
    vec2 g = p / vec2(float(pc.nx) * pc.dx, float(pc.ny) * pc.dx) * vec2(float(pc.flow_nx), float(pc.flow_ny));
    vec2 v;
    if (pc.flow_layout == VF_HEIGHT_FLOW_MAC)
        v = vec2(sample_a(g - vec2(0.0, 0.5), pc.flow_nx + 1u, pc.flow_ny, 1u, 0u),
                 sample_b(g - vec2(0.5, 0.0), pc.flow_nx, pc.flow_ny + 1u));
    else
        v = vec2(sample_a(g - 0.5, pc.flow_nx, pc.flow_ny, 2u, 0u), sample_a(g - 0.5, pc.flow_nx, pc.flow_ny, 2u, 1u));
    return v * pc.vel_scale;
}

// True when the cell under p is solid or dry.
bool blocked(vec2 p)
{
    uint i = min(uint(max(p.x / pc.dx, 0.0)), pc.nx - 1u);
    uint j = min(uint(max(p.y / pc.dx, 0.0)), pc.ny - 1u);
    uint idx = j * pc.nx + i;
    return (flags[idx] & VF_HEIGHT_SOLID) != 0u || eta[idx] - bed[idx] < 1e-3;
}

// Object k over one frame.
void move_object(uint k)
{
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
    if (np.x > lx - m) {
        if (pc.recycle != 0u) {
            np.x = m; // back to the inflow end
        } else {
            np.x = lx - m;
            v.x = -abs(v.x);
        }
    }
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

// Cell idx, corrected.
void correct(uint idx)
{
    if (idx >= pc.nx * pc.ny)
        return;
    float e = eta[idx], b = bed[idx];
    float en = e;
    if ((flags[idx] & VF_HEIGHT_SOLID) == 0u && e - b > 0.0) {
        en = e + result.scale * (e - b);
        if ((pc.end_flags & VF_HEIGHT_END_PREV) != 0u)
            prev[idx] += en - e;
    }
    eta_out[idx] = en;
}

void main()
{
    uint group = vf_group_linear();
    uint object_groups = (pc.count + VF_HEIGHT_END_WG - 1u) / VF_HEIGHT_END_WG;
    if (group < object_groups) {
        move_object(group * VF_HEIGHT_END_WG + gl_LocalInvocationID.x);
    } else if ((pc.end_flags & VF_HEIGHT_END_APPLY) != 0u) {
        // pc.end_cells cells per invocation, a workgroup's width apart: a
        // CPU device runs the object half masked for every batch of
        // invocations, so fewer of them make it cheap there
        uint base = (group - object_groups) * VF_HEIGHT_END_WG * pc.end_cells + gl_LocalInvocationID.x;
        for (uint c = 0u; c < pc.end_cells; c++)
            correct(base + c * VF_HEIGHT_END_WG);
    }
}
