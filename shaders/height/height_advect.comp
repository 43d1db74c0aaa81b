#version 450
// Advection of the surface state by the flow under it, once per frame
// (semi-Lagrangian): each wet cell traces its centre back along the flow
// velocity for dt and takes eta and the second state array (velocity of
// height, or eta^(n-1) for ADI) there, bilinearly over the wet, non-solid
// cells around that point (weights renormalised; none wet: the cell keeps its
// own values; eta never below the bed). Solid and dry cells keep theirs. The wave equation alone has
// no transport by the current (Klein et al. leave it as future work); with
// this pass waves shed at a pillar trail downstream. Not conservative: the
// per-frame volume correction takes the drift out.
#include "shared_height.h"

layout(local_size_x = VF_WG_2D_X, local_size_y = VF_WG_2D_Y) in;
layout(std430, binding = VF_HEIGHT_ADV_BIND_ETA) readonly buffer Eta { float eta[]; };
layout(std430, binding = VF_HEIGHT_ADV_BIND_SECOND) readonly buffer Second { float second[]; };
layout(std430, binding = VF_HEIGHT_ADV_BIND_ETA_OUT) writeonly buffer EtaOut { float eta_out[]; };
layout(std430, binding = VF_HEIGHT_ADV_BIND_SECOND_OUT) writeonly buffer SecondOut { float second_out[]; };
layout(std430, binding = VF_HEIGHT_ADV_BIND_BED) readonly buffer Bed { float bed[]; };
layout(std430, binding = VF_HEIGHT_ADV_BIND_FLAGS) readonly buffer Flags { uint flags[]; };
layout(std430, binding = VF_HEIGHT_ADV_BIND_FLOW_VEL) readonly buffer FlowVel { float flow_a[]; };
layout(std430, binding = VF_HEIGHT_ADV_BIND_FLOW_V) readonly buffer FlowV { float flow_b[]; };
VF_PUSH(vf_height_advect_push)

// Bilinear sample of flow_a / flow_b (w x h values) at array coordinates f
// (as the objects of height_frame_end.comp).
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

bool wet(uint k)
{
    return (flags[k] & VF_HEIGHT_SOLID) == 0u && eta[k] - bed[k] > 0.0;
}

void main()
{
    uint i = gl_GlobalInvocationID.x, j = gl_GlobalInvocationID.y;
    if (i >= pc.nx || j >= pc.ny)
        return;
    uint k = j * pc.nx + i;
    float e = eta[k], s = second[k];
    if (wet(k)) {
        vec2 p = vec2((float(i) + 0.5) * pc.dx, (float(j) + 0.5) * pc.dx);
        vec2 q = p - pc.dt * sample_flow(p);
        float fx = clamp(q.x / pc.dx - 0.5, 0.0, float(pc.nx - 1u));
        float fy = clamp(q.y / pc.dx - 0.5, 0.0, float(pc.ny - 1u));
        uint x0 = min(uint(fx), pc.nx - 1u), y0 = min(uint(fy), pc.ny - 1u);
        uint x1 = min(x0 + 1u, pc.nx - 1u), y1 = min(y0 + 1u, pc.ny - 1u);
        float tx = fx - float(x0), ty = fy - float(y0);
        uint c[4] = uint[4](y0 * pc.nx + x0, y0 * pc.nx + x1, y1 * pc.nx + x0, y1 * pc.nx + x1);
        float w[4] = float[4]((1.0 - tx) * (1.0 - ty), tx * (1.0 - ty), (1.0 - tx) * ty, tx * ty);
        float ws = 0.0, se = 0.0, ss = 0.0;
        for (int n = 0; n < 4; n++) {
            if (!wet(c[n]))
                continue;
            ws += w[n];
            se += w[n] * eta[c[n]];
            ss += w[n] * second[c[n]];
        }
        if (ws > 1e-6) {
            e = max(se / ws, bed[k]);
            s = ss / ws;
        }
    }
    eta_out[k] = e;
    second_out[k] = s;
}
