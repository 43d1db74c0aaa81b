#version 450
// The compute path's corner pass: every vertex of the raster path's meshes
// once (surface_bed.vert, surface_water.vert compute the same per vertex):
// the bed mesh's (mesh_x + 6) x (mesh_y + 6) vertices with the rings around
// the domain, and for the inner mesh_x x mesh_y vertices the water's height,
// depth, wet fraction, slope and normal. Also the lowest and highest vertex
// height of the frame (the march's slab) and the highest inner vertex, by
// shared then global atomics on order-preserving bits; the highest vertex
// of each tile of VF_SURFACE_TILE^2 inner quads (global atomics); and the
// floating objects' boxes.
#include "shared_height.h"
#include "surface_common.glsl"

layout(local_size_x = VF_SURFACE_WG_CORNERS) in;
layout(std430, binding = VF_SURFACE_BIND_CORNERS) writeonly buffer Corners { vf_surface_corner corners[]; };
layout(std430, binding = VF_SURFACE_BIND_BOUNDS) buffer Bounds { uint bounds[]; };
layout(std430, binding = VF_SURFACE_BIND_BOXES) writeonly buffer Boxes { vf_surface_box boxes[]; };
layout(std430, binding = VF_SURFACE_BIND_TILES) buffer Tiles { uint tiles[]; };
VF_PUSH(vf_surface_cs_push)

shared uint s_lo, s_hi, s_hi_in;

uint ordered(float f)
{
    uint b = floatBitsToUint(f);
    return (b & 0x80000000u) != 0u ? ~b : b | 0x80000000u;
}

// The bed mesh's vertex m (m in [-3, mesh + 2]): as surface_bed.vert.
float bed_vertex(ivec2 m, out float solid)
{
    float lx = float(fr.nx) * dom_dx(), ly = float(fr.ny) * dom_dx();
    float wall = 0.02 * max(lx, ly);
    float rim = fr.misc.y, base = -1.15 * fr.grid.w - rim;
    ivec2 mm = ivec2(fr.mesh_x, fr.mesh_y);
    vec2 p = vec2(m.x <= -2 ? -wall : m.x == -1 ? 0.0 : m.x == mm.x ? lx : m.x > mm.x ? lx + wall
                                                : float(m.x) / float(mm.x - 1) * lx,
                  m.y <= -2 ? -wall : m.y == -1 ? 0.0 : m.y == mm.y ? ly : m.y > mm.y ? ly + wall
                                                : float(m.y) / float(mm.y - 1) * ly);
    bool foot = m.x == -3 || m.y == -3 || m.x == mm.x + 2 || m.y == mm.y + 2;
    bool edge = m.x < 0 || m.y < 0 || m.x >= mm.x || m.y >= mm.y;
    solid = 1.0;
    if (edge && terrain_style()) {
        vec2 c = clamp(p, vec2(0.0), vec2(lx, ly)) / dom_dx();
        return foot || m.x <= -2 || m.y <= -2 || m.x > mm.x || m.y > mm.y ? rim : bed[cell_index(int(c.x), int(c.y))];
    }
    if (edge)
        return foot ? base : rim;
    vec2 c = p / dom_dx();
    ivec2 i1 = ivec2(floor(c + 0.5)), i0 = i1 - 1;
    float sum = 0.0, top = -1e30;
    for (int k = 0; k < 4; k++) {
        uint ci = cell_index(k % 2 == 0 ? i0.x : i1.x, k < 2 ? i0.y : i1.y);
        sum += bed[ci];
        if (cell_solid(ci))
            top = max(top, bed[ci]);
    }
    solid = top > -1e29 ? 1.0 : 0.0;
    return top > -1e29 ? top : 0.25 * sum;
}

// The water mesh's vertex m (inner): as surface_water.vert.
void water_vertex(ivec2 m, out vec4 water, out vec3 normal)
{
    float lx = float(fr.nx) * dom_dx(), ly = float(fr.ny) * dom_dx();
    vec2 p = vec2(float(m.x) / float(fr.mesh_x - 1u) * lx, float(m.y) / float(fr.mesh_y - 1u) * ly);
    vec2 c = p / dom_dx();
    ivec2 i1 = ivec2(floor(c + 0.5)), i0 = i1 - 1;
    float se = 0.0, sd = 0.0, n = 0.0, allb = 0.0;
    for (int k = 0; k < 4; k++) {
        uint ci = cell_index(k % 2 == 0 ? i0.x : i1.x, k < 2 ? i0.y : i1.y);
        allb += bed[ci];
        if (cell_wet(ci)) {
            se += eta[ci];
            sd += eta[ci] - bed[ci];
            n += 1.0;
        }
    }
    float e = dom_dx();
    float gx = (sample_eta(p + vec2(e, 0.0)) - sample_eta(p - vec2(e, 0.0))) / (2.0 * e);
    float gy = (sample_eta(p + vec2(0.0, e)) - sample_eta(p - vec2(0.0, e))) / (2.0 * e);
    normal = normalize(vec3(-VF_SURFACE_SLOPE_GAIN * gx, 1.0, -VF_SURFACE_SLOPE_GAIN * gy));
    water = vec4(n > 0.0 ? se / n : 0.25 * allb, n > 0.0 ? sd / n : 0.0, n / 4.0, length(vec2(gx, gy)));
}

// Box b (object b / 2, part b % 2) as surface_objects.vert places it.
void object_box(uint b)
{
    vf_height_object o = objects[b / 2u];
    vec3 ext, off, albedo, centre, fwd, side, up;
    surface_object_box(o, b / 2u, b % 2u, ext, off, albedo);
    surface_object_frame(o, centre, fwd, side, up);
    vec3 c = centre + fwd * off.x + side * off.y + up * off.z;
    float r = ext.x > 0.0 ? 0.5 * length(ext) : 0.0;
    boxes[b] = vf_surface_box(vec4(c, r), vec4(fwd, 0.5 * ext.x), vec4(side, 0.5 * ext.y), vec4(up, 0.5 * ext.z),
                              vec4(albedo, 1.0));
}

void main()
{
    if (gl_LocalInvocationIndex == 0u) {
        s_lo = 0xffffffffu;
        s_hi = 0u;
        s_hi_in = 0u;
    }
    barrier();
    uint vx = fr.mesh_x + 2u * uint(VF_SURFACE_RING), vy = fr.mesh_y + 2u * uint(VF_SURFACE_RING);
    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * VF_SURFACE_WG_CORNERS;
    if (i < pc.boxes)
        object_box(i);
    if (i < vx * vy) {
        ivec2 m = ivec2(int(i % vx), int(i / vx)) - VF_SURFACE_RING;
        float solid;
        float b = bed_vertex(m, solid);
        vec4 water = vec4(b, 0.0, 0.0, 0.0);
        vec3 normal = vec3(0.0, 1.0, 0.0);
        if (m.x >= 0 && m.y >= 0 && m.x < int(fr.mesh_x) && m.y < int(fr.mesh_y)) {
            water_vertex(m, water, normal);
            uint top = max(ordered(b), ordered(water.x));
            atomicMax(s_hi_in, top);
            // the tiles of the (up to four) inner quads around the vertex
            int tiles_x = (int(fr.mesh_x) - 2) / int(VF_SURFACE_TILE) + 1;
            for (int k = 0; k < 4; k++) {
                ivec2 q = m - ivec2(k & 1, k >> 1);
                if (q.x >= 0 && q.y >= 0 && q.x <= int(fr.mesh_x) - 2 && q.y <= int(fr.mesh_y) - 2)
                    atomicMax(tiles[(q.y / int(VF_SURFACE_TILE)) * tiles_x + q.x / int(VF_SURFACE_TILE)], top);
            }
        }
        corners[i] = vf_surface_corner(water, vec4(normal, b), vec4(solid, 0.0, 0.0, 0.0));
        atomicMin(s_lo, min(ordered(b), ordered(water.x)));
        atomicMax(s_hi, max(ordered(b), ordered(water.x)));
    }
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        atomicMin(bounds[0], s_lo);
        atomicMax(bounds[1], s_hi);
        atomicMax(bounds[2], s_hi_in);
    }
}
