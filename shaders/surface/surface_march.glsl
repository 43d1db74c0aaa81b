// surface_march.glsl: the compute path's march pass, compiled twice:
// surface_march_quad.comp (VF_SURFACE_QUAD 1: the 2 x 2 pixel quads'
// shading normals exchanged by subgroup quad operations, where the device has
// them in compute shaders) and surface_march.comp (each pixel evaluates its
// quad neighbours' normals itself).
//
// The compute path's picture (render_surface_compute.c): one ray per pixel
// from the camera through the raster path's own triangles (the bed mesh with
// its rings and walls, the water mesh, whose vertices the corner pass
// computed) and the floating objects' boxes; the nearest hit is shaded by
// the same functions as the raster path's fragment shaders
// (surface_common.glsl), the sky where nothing is hit.
//
// The ray walks the meshes' quads in order (a 2D DDA over the bed mesh's
// grid, whose ring quads of zero width are the vertical walls, tested where
// the ray crosses them) only over the part of it between the frame's lowest
// and highest vertex (the corner pass's bounds), skips down to the highest
// inner vertex once inside the walls, skips tiles of VF_SURFACE_TILE^2 inner
// quads whose highest vertex lies below it, and skips quads whose corners
// all lie below it. The water's derivatives (the pixel footprint of the detail
// normals and the normal's change for the specular antialiasing) are
// differences across the pixel's 2 x 2 quad, as the rasteriser's dFdxFine
// and dFdyFine: the footprint from where the neighbours' rays meet the hit
// triangle's plane, the normal's change from the neighbours' normals (pixels
// off the water in a quad with water evaluate the water's normal on a
// neighbour's triangle plane, as the rasteriser's helper invocations do). A
// workgroup is 64 invocations over 8 x 8 pixels, each four consecutive
// subgroup invocations one quad.

layout(local_size_x = VF_SURFACE_WG * VF_SURFACE_WG) in;
layout(std430, binding = VF_SURFACE_BIND_CORNERS) readonly buffer Corners { vf_surface_corner corners[]; };
layout(std430, binding = VF_SURFACE_BIND_BOUNDS) readonly buffer Bounds { uint bounds[]; };
layout(std430, binding = VF_SURFACE_BIND_BOXES) readonly buffer Boxes { vf_surface_box boxes[]; };
layout(std430, binding = VF_SURFACE_BIND_HITS) writeonly buffer Hits { vec4 hits[]; };
layout(std430, binding = VF_SURFACE_BIND_TILES) readonly buffer Tiles { uint tiles[]; };
layout(binding = VF_SURFACE_BIND_OUTPUT, rgba8) uniform writeonly image2D out_img;
VF_PUSH(vf_surface_cs_push)

#define HIT_NONE int(VF_SURFACE_HIT_NONE)
#define HIT_WATER int(VF_SURFACE_HIT_WATER)
#define HIT_BED int(VF_SURFACE_HIT_BED)
#define HIT_OBJECT int(VF_SURFACE_HIT_OBJECT)

// The nearest hit so far (metres: x, height, y).
float h_t;
int h_kind;
vec3 h_gn;     // the hit triangle's or face's normal
vec3 h_normal; // water: interpolated vertex normal
vec3 h_attr;   // water: depth, wet, slope; bed: height, solid
vec3 h_albedo; // object colour

float unordered(uint b) { return uintBitsToFloat((b & 0x80000000u) != 0u ? b & 0x7fffffffu : ~b); }

// Position of the bed mesh's vertex index m along an axis of mm inner
// vertices over len metres, with the rings at -wall and len + wall.
float axis_pos(int m, int mm, float len, float wall)
{
    return m <= -2 ? -wall : m == -1 ? 0.0 : m == mm ? len : m > mm ? len + wall : float(m) / float(mm - 1) * len;
}

uint corner_index(ivec2 v)
{
    return uint(v.y + VF_SURFACE_RING) * (fr.mesh_x + 2u * uint(VF_SURFACE_RING)) + uint(v.x + VF_SURFACE_RING);
}

// Moller-Trumbore: the ray's t at triangle (a, b, c) and the weights of b
// and c; false on a miss.
bool tri_hit(vec3 ro, vec3 rd, vec3 a, vec3 b, vec3 c, out float t, out vec2 uv)
{
    vec3 e1 = b - a, e2 = c - a, pv = cross(rd, e2);
    float det = dot(e1, pv);
    t = -1.0;
    uv = vec2(0.0);
    if (abs(det) < 1e-14)
        return false;
    float inv = 1.0 / det;
    vec3 tv = ro - a;
    uv.x = dot(tv, pv) * inv;
    vec3 qv = cross(tv, e1);
    uv.y = dot(rd, qv) * inv;
    t = dot(e2, qv) * inv;
    const float eps = 1e-6;
    return uv.x >= -eps && uv.y >= -eps && uv.x + uv.y <= 1.0 + eps && t > 0.0;
}

// Tests bed triangle (a, b, c) with solid flags sa, sb, sc.
void test_bed(vec3 ro, vec3 rd, vec3 a, vec3 b, vec3 c, float sa, float sb, float sc)
{
    float t;
    vec2 uv;
    if (!tri_hit(ro, rd, a, b, c, t, uv) || t >= h_t)
        return;
    float w0 = 1.0 - uv.x - uv.y;
    h_t = t;
    h_kind = HIT_BED;
    h_gn = cross(b - a, c - a);
    h_attr = vec3(w0 * a.y + uv.x * b.y + uv.y * c.y, w0 * sa + uv.x * sb + uv.y * sc, 0.0);
}

// Tests water triangle (a, b, c) with vertex attributes wa.. (height,
// depth, wet, slope) and normals na..; the raster path discards where the
// interpolated wet fraction is under 1/2 or the depth under 1 mm.
void test_water(vec3 ro, vec3 rd, vec3 a, vec3 b, vec3 c, vec4 wa, vec4 wb, vec4 wc, vec3 na, vec3 nb, vec3 nc)
{
    float t;
    vec2 uv;
    if (!tri_hit(ro, rd, a, b, c, t, uv) || t >= h_t)
        return;
    float w0 = 1.0 - uv.x - uv.y;
    vec4 at = w0 * wa + uv.x * wb + uv.y * wc;
    if (at.z < 0.5 || at.y < 1e-3)
        return;
    h_t = t;
    h_kind = HIT_WATER;
    h_gn = cross(b - a, c - a);
    h_normal = w0 * na + uv.x * nb + uv.y * nc;
    h_attr = at.yzw;
}

// Tests the quad with lower vertex q (bed mesh indices) from ray parameter
// t_in to t_out: its two bed triangles, and the water's where q is inner
// (split along the diagonal from q as the raster path's quads).
void test_quad(ivec2 q, vec3 ro, vec3 rd, float t_in, float t_out)
{
    int mx = int(fr.mesh_x), my = int(fr.mesh_y);
    float lx = float(fr.nx) * dom_dx(), ly = float(fr.ny) * dom_dx(), wall = 0.02 * max(lx, ly);
    uint i00 = corner_index(q), row = fr.mesh_x + 2u * uint(VF_SURFACE_RING);
    vf_surface_corner c00 = corners[i00], c10 = corners[i00 + 1u], c11 = corners[i00 + row + 1u],
                      c01 = corners[i00 + row];
    float top_bed = max(max(c00.normal.w, c10.normal.w), max(c11.normal.w, c01.normal.w));
    float top_water = max(max(c00.water.x, c10.water.x), max(c11.water.x, c01.water.x));
    float low = min(ro.y + rd.y * t_in, ro.y + rd.y * t_out);
    if (low > max(top_bed, top_water))
        return;
    float x0 = axis_pos(q.x, mx, lx, wall), x1 = axis_pos(q.x + 1, mx, lx, wall);
    float z0 = axis_pos(q.y, my, ly, wall), z1 = axis_pos(q.y + 1, my, ly, wall);
    vec3 b00 = vec3(x0, c00.normal.w, z0), b10 = vec3(x1, c10.normal.w, z0), b11 = vec3(x1, c11.normal.w, z1),
         b01 = vec3(x0, c01.normal.w, z1);
    if (low <= top_bed) {
        test_bed(ro, rd, b00, b10, b11, c00.bed.x, c10.bed.x, c11.bed.x);
        test_bed(ro, rd, b00, b11, b01, c00.bed.x, c11.bed.x, c01.bed.x);
    }
    if (low > top_water || q.x < 0 || q.y < 0 || q.x >= mx - 1 || q.y >= my - 1)
        return;
    vec3 w00 = vec3(x0, c00.water.x, z0), w10 = vec3(x1, c10.water.x, z0), w11 = vec3(x1, c11.water.x, z1),
         w01 = vec3(x0, c01.water.x, z1);
    test_water(ro, rd, w00, w10, w11, c00.water, c10.water, c11.water, c00.normal.xyz, c10.normal.xyz, c11.normal.xyz);
    test_water(ro, rd, w00, w11, w01, c00.water, c11.water, c01.water, c00.normal.xyz, c11.normal.xyz, c01.normal.xyz);
}

// The quad (bed mesh index of its lower vertex) of position x along an axis.
int quad_of(float x, int mm, float len)
{
    return x < 0.0 ? -2 : x >= len ? mm : clamp(int(x / len * float(mm - 1)), 0, mm - 2);
}

// One step of the walk along an axis from quad q in direction dir: the next
// quad (mm + 9 past the end) and the zero-width wall quad crossed on the way
// (-100: none).
int step_quad(int q, int dir, int mm, out int wall_q)
{
    wall_q = -100;
    if (dir > 0) {
        if (q == -2) {
            wall_q = -1;
            return 0;
        }
        if (q == mm - 2 || q == mm) {
            wall_q = q + 1;
            return q == mm ? mm + 9 : mm;
        }
        return q + 1;
    }
    if (q == mm) {
        wall_q = mm - 1;
        return mm - 2;
    }
    if (q == 0 || q == -2) {
        wall_q = q - 1;
        return q == 0 ? -2 : mm + 9;
    }
    return q - 1;
}

// Walks the meshes' quads along the ray (metres) and keeps the nearest
// triangle hit in h_*.
void trace_meshes(vec3 ro, vec3 rd)
{
    int mx = int(fr.mesh_x), my = int(fr.mesh_y);
    float lx = float(fr.nx) * dom_dx(), ly = float(fr.ny) * dom_dx(), wall = 0.02 * max(lx, ly);
    float lo = unordered(bounds[0]), hi = unordered(bounds[1]);
    float pad = 1e-3 * max(lx, ly);
    vec3 bmin = vec3(-wall, lo, -wall) - pad, bmax = vec3(lx + wall, hi, ly + wall) + pad;
    vec3 inv = 1.0 / rd;
    vec3 ta = (bmin - ro) * inv, tb = (bmax - ro) * inv;
    vec3 tn = min(ta, tb), tf = max(ta, tb);
    float t0 = max(max(max(tn.x, tn.y), tn.z), 0.0), t1 = min(min(tf.x, tf.y), tf.z);
    if (!(t0 < t1))
        return;
    vec3 p = ro + rd * t0;
    int qx = quad_of(p.x, mx, lx), qz = quad_of(p.z, my, ly);
    int sx = rd.x > 0.0 ? 1 : -1, sz = rd.z > 0.0 ? 1 : -1;
    // entered through a side of the box: the outer wall there, in the quad
    // where the ray crosses its plane (the box is padded)
    if (tn.x >= max(tn.y, tn.z) && tn.x > 0.0) {
        float tw = ((sx > 0 ? -wall : lx + wall) - ro.x) * inv.x;
        test_quad(ivec2(sx > 0 ? -3 : mx + 1, quad_of(ro.z + rd.z * tw, my, ly)), ro, rd, tw, tw);
    } else if (tn.z >= max(tn.x, tn.y) && tn.z > 0.0) {
        float tw = ((sz > 0 ? -wall : ly + wall) - ro.z) * inv.z;
        test_quad(ivec2(quad_of(ro.x + rd.x * tw, mx, lx), sz > 0 ? -3 : my + 1), ro, rd, tw, tw);
    }
    float t = t0;
    // inside the domain's walls the ray may skip down to the highest inner vertex
    float hi_in = unordered(bounds[2]);
    vec2 t_inner = vec2(((sx > 0 ? lx : 0.0) - ro.x) * inv.x, ((sz > 0 ? ly : 0.0) - ro.z) * inv.z);
    float t_leave = min(rd.x != 0.0 ? t_inner.x : 1e30, rd.z != 0.0 ? t_inner.y : 1e30);
    float t_down = rd.y < 0.0 ? (hi_in + pad - ro.y) / rd.y : -1e30;
    bool skipped = false;
    for (int it = 0; it < 2 * (mx + my) + 32 && h_kind == HIT_NONE && t < t1; it++) {
        if (!skipped && qx >= 0 && qz >= 0 && qx <= mx - 2 && qz <= my - 2 && t_down > t) {
            skipped = true;
            t = min(t_down, t_leave - 1e-4 * pad);
            vec3 pj = ro + rd * t;
            qx = clamp(quad_of(pj.x, mx, lx), 0, mx - 2);
            qz = clamp(quad_of(pj.z, my, ly), 0, my - 2);
        }
        if (qx >= 0 && qz >= 0 && qx <= mx - 2 && qz <= my - 2) {
            // the ray above every vertex of this tile of inner quads: on to its far side
            int tile = int(VF_SURFACE_TILE), x0 = qx / tile * tile, z0 = qz / tile * tile;
            float ex = axis_pos(sx > 0 ? min(x0 + tile, mx - 1) : x0, mx, lx, wall);
            float ez = axis_pos(sz > 0 ? min(z0 + tile, my - 1) : z0, my, ly, wall);
            float te = min(rd.x != 0.0 ? (ex - ro.x) * inv.x : 1e30, rd.z != 0.0 ? (ez - ro.z) * inv.z : 1e30);
            te = min(te, t_leave - 1e-4 * pad);
            float top = unordered(tiles[(qz / tile) * ((mx - 2) / tile + 1) + qx / tile]);
            if (te > t && min(ro.y + rd.y * t, ro.y + rd.y * te) > top) {
                t = te;
                vec3 pj = ro + rd * t;
                qx = clamp(quad_of(pj.x, mx, lx), 0, mx - 2);
                qz = clamp(quad_of(pj.z, my, ly), 0, my - 2);
            }
        }
        float bx = axis_pos(sx > 0 ? qx + 1 : qx, mx, lx, wall);
        float bz = axis_pos(sz > 0 ? qz + 1 : qz, my, ly, wall);
        float tx = rd.x != 0.0 ? (bx - ro.x) * inv.x : 1e30, tz = rd.z != 0.0 ? (bz - ro.z) * inv.z : 1e30;
        float t_out = min(min(tx, tz), t1);
        test_quad(ivec2(qx, qz), ro, rd, t, t_out);
        if (h_kind != HIT_NONE || t_out >= t1)
            break;
        int wq;
        if (tx <= tz) {
            qx = step_quad(qx, sx, mx, wq);
            if (wq != -100)
                test_quad(ivec2(wq, qz), ro, rd, tx, tx);
            if (qx > mx + 1)
                break;
        } else {
            qz = step_quad(qz, sz, my, wq);
            if (wq != -100)
                test_quad(ivec2(qx, wq), ro, rd, tz, tz);
            if (qz > my + 1)
                break;
        }
        t = t_out;
    }
}

// The floating objects' boxes (the corner pass placed them as
// surface_objects.vert does): the nearest face hit before h_t.
void trace_objects(vec3 ro, vec3 rd)
{
    for (uint k = 0u; k < pc.boxes; k++) {
        vf_surface_box bx = boxes[k];
        vec3 oc = bx.centre.xyz - ro;
        float r = bx.centre.w, b = dot(oc, rd), d2 = dot(oc, oc) - b * b;
        if (r <= 0.0 || d2 > r * r || b + r < 0.0 || b - r > h_t)
            continue; // outside its bounding sphere
        vec3 lo = vec3(dot(oc, bx.fwd.xyz), dot(oc, bx.side.xyz), dot(oc, bx.up.xyz));
        vec3 ld = vec3(dot(rd, bx.fwd.xyz), dot(rd, bx.side.xyz), dot(rd, bx.up.xyz));
        vec3 he = vec3(bx.fwd.w, bx.side.w, bx.up.w);
        vec3 ta = (lo - he) / ld, tb = (lo + he) / ld;
        vec3 tn = min(ta, tb), tf = max(ta, tb);
        float t0 = max(max(tn.x, tn.y), tn.z), t1 = min(min(tf.x, tf.y), tf.z);
        if (!(t0 <= t1) || !(t0 > 0.0) || t0 >= h_t)
            continue;
        h_t = t0;
        h_kind = HIT_OBJECT;
        h_gn = t0 == tn.x ? bx.fwd.xyz : t0 == tn.y ? bx.side.xyz : bx.up.xyz;
        h_albedo = bx.albedo.rgb;
    }
}

// The world direction of the view ray through pixel position px (the sky
// pass's: from the eye to the far plane).
vec3 ray_dir(vec2 px)
{
    mat4 inv = mat4(fr.inv_view_proj[0], fr.inv_view_proj[1], fr.inv_view_proj[2], fr.inv_view_proj[3]);
    vec4 far = inv * vec4(px / vec2(float(fr.width), float(fr.height)) * 2.0 - 1.0, 1.0, 1.0);
    return far.xyz / far.w - fr.eye.xyz;
}

// Where the ray through pixel position px meets the plane through hit with
// normal gn, in metres.
vec3 on_plane(vec2 px, vec3 ro, vec3 hit, vec3 gn)
{
    vec3 d = normalize(ray_dir(px));
    float den = dot(d, gn);
    return abs(den) > 1e-12 ? ro + d * (dot(hit - ro, gn) / den) : hit;
}

vec3 srgb_encode(vec3 c)
{
    c = clamp(c, 0.0, 1.0);
    return mix(1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, c * 12.92, lessThanEqual(c, vec3(0.0031308)));
}

// The pixel's shading normal n and its quad neighbours' (across x and y;
// w = 0 where a neighbour has none).
void quad_neighbours(vec4 n, out vec4 nx, out vec4 ny)
{
#if VF_SURFACE_QUAD
    nx = subgroupQuadSwapHorizontal(n);
    ny = subgroupQuadSwapVertical(n);
#else
    nx = vec4(0.0);
    ny = vec4(0.0);
#endif
}

// A pixel off the water in a 2 x 2 quad with water is the rasteriser's
// helper invocation there: it takes a water neighbour's triangle (across x,
// else y, else the diagonal) and where its own ray meets that triangle's
// plane (wgn, wnormal, whit; metres). True where the pixel has water's
// shading normal: its own water or as a helper.
bool water_or_helper(bool water, vec3 ro, vec3 rd, inout vec3 wgn, inout vec3 wnormal, inout vec3 whit)
{
#if VF_SURFACE_QUAD
    vec4 g = vec4(wgn, water ? 1.0 : 0.0);
    vec4 gx = subgroupQuadSwapHorizontal(g), gy = subgroupQuadSwapVertical(g), gd = subgroupQuadSwapDiagonal(g);
    vec3 px = subgroupQuadSwapHorizontal(whit), py = subgroupQuadSwapVertical(whit), pd = subgroupQuadSwapDiagonal(whit);
    vec3 nx = subgroupQuadSwapHorizontal(wnormal), ny = subgroupQuadSwapVertical(wnormal),
         nd = subgroupQuadSwapDiagonal(wnormal);
    if (water)
        return true;
    vec4 pg = gx.w > 0.0 ? gx : gy.w > 0.0 ? gy : gd;
    vec3 pp = gx.w > 0.0 ? px : gy.w > 0.0 ? py : pd;
    float den = dot(rd, pg.xyz);
    if (pg.w == 0.0 || abs(den) < 1e-12)
        return false;
    wgn = pg.xyz;
    wnormal = gx.w > 0.0 ? nx : gy.w > 0.0 ? ny : nd;
    whit = ro + rd * (dot(pp - ro, pg.xyz) / den);
    return true;
#else
    return water;
#endif
}

void main()
{
#if VF_SURFACE_QUAD
    uint linear = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
#else
    uint linear = gl_LocalInvocationIndex;
#endif
    uint quad = linear / 4u, lane = linear % 4u;
    ivec2 p = ivec2(gl_WorkGroupID.xy) * int(VF_SURFACE_WG) +
              ivec2((quad % 4u) * 2u + (lane & 1u), (quad / 4u) * 2u + (lane >> 1u));
    bool inside = p.x < int(fr.width) && p.y < int(fr.height);
    float s = world_scale();
    vec3 ro = fr.eye.xyz / s, dir = ray_dir(vec2(p) + 0.5), rd = normalize(dir);
    h_t = 1e30;
    h_kind = HIT_NONE;
    if (inside) {
        trace_meshes(ro, rd);
        trace_objects(ro, rd);
    }
    vec3 hit = ro + rd * h_t, world = hit * s;
    if (h_kind != HIT_NONE) {
        h_gn = normalize(h_gn);
        if (dot(h_gn, fr.eye.xyz - world) < 0.0)
            h_gn = -h_gn;
    }
    // the water's shading normal (also at the helper pixels of quads with
    // water); the pixel footprint from where the quad neighbours' rays meet
    // the triangle's plane
    bool water = h_kind == HIT_WATER;
    vec3 wgn = h_gn, wnormal = h_normal, whit = hit;
    bool shade = water_or_helper(water, ro, rd, wgn, wnormal, whit);
    ivec2 side = ivec2((p.x & 1) == 0 ? 1 : -1, (p.y & 1) == 0 ? 1 : -1);
    vec3 wx = world, wy = world, n = vec3(0.0, 1.0, 0.0);
    float fw = 0.0, lost = 0.0;
    if (shade) {
        wx = on_plane(vec2(p + ivec2(side.x, 0)) + 0.5, ro, whit, wgn) * s;
        wy = on_plane(vec2(p + ivec2(0, side.y)) + 0.5, ro, whit, wgn) * s;
        vec2 q = whit.xz * 3.0;
        fw = max(length(wx.xz / s * 3.0 - q), length(wy.xz / s * 3.0 - q));
        n = surface_water_normal(whit * s, wnormal, whit.xz, fw, lost);
    }
    vec4 nx, ny;
    quad_neighbours(vec4(n, shade ? 1.0 : 0.0), nx, ny);
    if (!inside)
        return;
    if (pc.hits != 0u) {
        uint i = uint(p.y) * fr.width + uint(p.x);
        hits[2u * i] = vec4(rd, h_kind == HIT_NONE ? -1.0 : h_t);
        hits[2u * i + 1u] = vec4(ro, float(h_kind));
    }
    vec3 c;
    if (water) {
        float l1;
#if !VF_SURFACE_QUAD
        // the neighbours' normals where their rays meet this triangle's plane
        nx = vec4(surface_water_normal(wx, h_normal, wx.xz / s, fw, l1), 1.0);
        ny = vec4(surface_water_normal(wy, h_normal, wy.xz / s, fw, l1), 1.0);
#endif
        vec3 dndx = nx.w > 0.0 ? nx.xyz - n : vec3(0.0), dndy = ny.w > 0.0 ? ny.xyz - n : vec3(0.0);
        float kernel = min(0.5 * (dot(dndx, dndx) + dot(dndy, dndy)), 0.1);
        c = surface_water_shade(world, n, hit.xz, h_attr.x, h_attr.z, lost, kernel);
    } else if (h_kind == HIT_BED) {
        c = surface_bed_shade(h_gn, hit.xz, h_attr.x, h_attr.y);
    } else if (h_kind == HIT_OBJECT) {
        c = surface_object_shade(h_gn, h_albedo);
    } else {
        c = sky_color(dir);
    }
    vec4 o = vec4(pc.encode_srgb != 0u ? srgb_encode(c) : clamp(c, 0.0, 1.0), 1.0);
    imageStore(out_img, p, pc.bgra != 0u ? o.bgra : o);
}
