// ssf_splat.glsl: one sphere's splat into the compute path's accumulators,
// shared by ssf_splat.comp (one invocation per sphere) and ssf_splat_big.comp
// (a workgroup per large sphere). Mirrors vf_ssf_splat_ref() (tests/ref).
//
// Per pixel whose centre ray meets the sphere (the test of ssf_depth.frag):
//  - depth: the front hit's linear view depth, where its depth-buffer value
//    is below the scene's (the raster pass's LESS test against the scene's
//    depth), by an atomic minimum on its bits (positive floats order as
//    their bits);
//  - thickness: the chord, where the front hit's depth-buffer value is not
//    above the scene's (ssf_thickness.frag's test), added in fixed point
//    (VF_SSF_THICK_UNITS per metre), at the thickness image's resolution.
// A sphere cut by the near plane keeps its part behind the plane: where the
// front hit lies nearer than the plane the depth is the plane's (its
// depth-buffer value 0) and the chord runs from the plane to the back hit.
// A sphere that holds the eye, lies wholly in front of the near plane or
// has a non-finite centre leaves nothing.
// Included after ssf_common.glsl.

layout(binding = VF_SSF_CS_SCENE_DEPTH, r32f) uniform readonly image2D scene_depth;
layout(std430, binding = VF_SSF_CS_DEPTH_ACC) buffer DepthAcc { uint depth_acc[]; };
layout(std430, binding = VF_SSF_CS_THICK_ACC) buffer ThickAcc { uint thick_acc[]; };
layout(std430, binding = VF_SSF_CS_ARGS) buffer Args { uint args[]; };
layout(std430, binding = VF_SSF_CS_POSITIONS) readonly buffer Positions { vec4 positions[]; };
VF_PUSH(vf_ssf_cs_push)

// Bounds of a / w over the disc (ca, cw), radius r, of the (a, w) plane (w
// the view depth, a a view axis) clipped to w >= n: at the tangents from
// the eye where they touch the disc behind the near plane, else at the
// ends of the chord the near plane cuts.
void ssf_axis_bounds(float ca, float cw, float r, float n, out float lo, out float hi)
{
    bool clip = cw - r < n;
    float k = sqrt(max(r * r - (n - cw) * (n - cw), 0.0));
    lo = (ca - k) / n;
    hi = (ca + k) / n;
    float l2 = ca * ca + cw * cw;
    if (l2 <= r * r)
        return;
    float l = sqrt(l2), t = sqrt(l2 - r * r);
    float sc = ca / l, cc = cw / l, sa = r / l, ct = t / l;
    float s1 = sc * ct + cc * sa, c1 = cc * ct - sc * sa; // the centre's direction turned by +asin(r / l)
    float s0 = sc * ct - cc * sa, c0 = cc * ct + sc * sa; // and by -asin(r / l)
    if (c1 > 0.0 && (!clip || t * c1 >= n))
        hi = s1 / c1;
    if (c0 > 0.0 && (!clip || t * c0 >= n))
        lo = s0 / c0;
}

// The pixels whose centres may see the sphere (view-space centre c, radius
// r) in an image of size `size`: x0, y0, x1, y1 (inclusive), empty when
// x0 > x1 or y0 > y1. False when the sphere leaves nothing.
bool ssf_sphere_box(vec3 c, float r, vec2 size, out ivec4 box)
{
    box = ivec4(0, 0, -1, -1);
    float n = fr.proj_params.z;
    float cw = -c.z;
    if (any(isnan(c)) || any(isinf(c)) || dot(c, c) <= r * r || cw + r <= n)
        return false;
    float ulo, uhi, vlo, vhi;
    ssf_axis_bounds(c.x, cw, r, n, ulo, uhi);
    ssf_axis_bounds(c.y, cw, r, n, vlo, vhi);
    // ndc = proj_params.xy * (x, y) / w; pixel centres at (ndc + 1) size / 2 - 0.5
    vec2 a = (vec2(ulo, vlo) * fr.proj_params.xy + 1.0) * 0.5 * size - 0.5;
    vec2 b = (vec2(uhi, vhi) * fr.proj_params.xy + 1.0) * 0.5 * size - 0.5;
    // (a hundredth of a pixel of slack for the rounding of the bounds)
    vec2 lo = clamp(ceil(min(a, b) - 0.01), vec2(-1.0), size);
    vec2 hi = clamp(floor(max(a, b) + 0.01), vec2(-1.0), size);
    box = ivec4(ivec2(max(lo, vec2(0.0))), ivec2(min(hi, size - 1.0)));
    return box.x <= box.z && box.y <= box.w;
}

// The ray through framebuffer position frag of an image of size `size`
// against the sphere: the front (or near-plane) depth, its depth-buffer
// value and the chord behind the near plane. False on a miss.
bool ssf_sphere_pixel(vec3 c, float r, vec2 frag, vec2 size, out float depth, out float ndc, out float chord)
{
    vec3 d = normalize(ssf_view_ray(frag, size));
    float b = dot(d, c);
    vec3 perp = c - d * b;
    float disc = r * r - dot(perp, perp);
    depth = ndc = chord = 0.0;
    if (disc < 0.0)
        return false;
    float h = sqrt(disc);
    vec3 hit = d * (b - h);
    float n = fr.proj_params.z;
    if (-hit.z >= n) {
        depth = -hit.z;
        ndc = ssf_ndc_depth(hit.z);
        chord = 2.0 * h;
        return true;
    }
    float t_near = n / -d.z; // the ray parameter at the near plane
    if (b + h <= t_near)
        return false;
    depth = n;
    ndc = 0.0;
    chord = b + h - t_near;
    return true;
}

// Local counts for the work accounting (pc.stats).
uint st_tested = 0u, st_depth = 0u, st_thick = 0u;

void ssf_splat_depth_pixel(vec3 c, float r, ivec2 q, bool thick)
{
    vec2 size = fr.viewport.xy;
    float depth, ndc, chord;
    st_tested++;
    if (!ssf_sphere_pixel(c, r, vec2(q) + 0.5, size, depth, ndc, chord))
        return;
    float scene = imageLoad(scene_depth, q).r;
    uint at = uint(q.y) * uint(size.x) + uint(q.x);
    if (ndc < scene) {
        atomicMin(depth_acc[at], floatBitsToUint(depth));
        st_depth++;
    }
    if (thick && ndc <= scene) {
        atomicAdd(thick_acc[at], uint(chord * VF_SSF_THICK_UNITS + 0.5));
        st_thick++;
    }
}

void ssf_splat_thick_pixel(vec3 c, float r, ivec2 q)
{
    vec2 size = fr.thick_size.xy;
    float depth, ndc, chord;
    st_tested++;
    if (!ssf_sphere_pixel(c, r, vec2(q) + 0.5, size, depth, ndc, chord))
        return;
    // the scene's depth where a sampler's nearest filter reads it
    ivec2 sq = min(ivec2((vec2(q) + 0.5) * fr.thick_size.zw * fr.viewport.xy), ivec2(fr.viewport.xy) - 1);
    if (ndc <= imageLoad(scene_depth, sq).r) {
        atomicAdd(thick_acc[uint(q.y) * uint(size.x) + uint(q.x)], uint(chord * VF_SSF_THICK_UNITS + 0.5));
        st_thick++;
    }
}

// Splats pixels first, first + stride, ... of the sphere's boxes.
void ssf_splat_sphere(vec3 c, float r, ivec4 box, ivec4 tbox, uint first, uint stride)
{
    bool fused = pc.thick_fused != 0u;
    int w = box.z - box.x + 1, h = box.w - box.y + 1;
    uint n = box.x <= box.z && box.y <= box.w ? uint(w * h) : 0u;
    for (uint k = first; k < n; k += stride)
        ssf_splat_depth_pixel(c, r, box.xy + ivec2(int(k % uint(w)), int(k / uint(w))), fused);
    if (fused)
        return;
    int tw = tbox.z - tbox.x + 1, th = tbox.w - tbox.y + 1;
    uint tn = tbox.x <= tbox.z && tbox.y <= tbox.w ? uint(tw * th) : 0u;
    for (uint k = first; k < tn; k += stride)
        ssf_splat_thick_pixel(c, r, tbox.xy + ivec2(int(k % uint(tw)), int(k / uint(tw))));
}

void ssf_splat_stats()
{
    if (pc.stats == 0u)
        return;
    atomicAdd(args[VF_SSF_ARGS_STATS + 0], st_tested);
    atomicAdd(args[VF_SSF_ARGS_STATS + 1], st_depth);
    atomicAdd(args[VF_SSF_ARGS_STATS + 2], st_thick);
}
