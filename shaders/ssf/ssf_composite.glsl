// ssf_composite.glsl: the composite's shading of one pixel, shared by the
// raster pass (ssf_composite.frag) and the compute pass (ssf_composite.comp).
// The shading of the smoothed fluid surface over the scene:
//  - view-space position from the smoothed depth; the normal from depth
//    differences, taking at each axis the one-sided difference with the
//    smaller depth change (keeps silhouettes and steps from bending normals),
//    the central difference where the pixel is a local extremum of depth;
//  - Schlick Fresnel between the reflected environment (sky and floor) and
//    the refracted background (the scene colour sampled at an offset along
//    the normal, growing with thickness), the latter attenuated per channel
//    by Beer-Lambert exp(-k * thickness) towards the deep-water colour;
//  - within a particle radius of the fluid's silhouette, the normal turns
//    towards the silhouette as over a sphere of the particle radius (the
//    smoothed depth of a column a few pixels wide is flat, but any surface
//    is seen at grazing angle at its outline), and Fresnel and reflection
//    are averaged over the pixel's footprint, so thin jets and sheets get
//    the bright or dark rims of a water column;
//  - lone fluid pixels (fewer than 2 fluid neighbours) left out;
//  - a Blinn-Phong sun highlight (at the outline, too, averaged over the
//    pixel's footprint);
//  - the fluid's depth-buffer value, tested against the scene's depth so
//    floor and tank edges in front of the fluid stay in front.
// The includer defines SSF_COMPOSITE_BIND(name): the binding of the
// fluid_depth, thickness and scene_color sampled images. Included after
// ssf_common.glsl.

layout(binding = SSF_COMPOSITE_BIND(FLUID_DEPTH)) uniform sampler2D fluid_depth;
layout(binding = SSF_COMPOSITE_BIND(THICKNESS)) uniform sampler2D thickness;
layout(binding = SSF_COMPOSITE_BIND(SCENE_COLOR)) uniform sampler2D scene_color;

// View-space position of pixel q; w = 0 when q has no fluid or lies outside.
vec4 view_pos(ivec2 q)
{
    if (q.x < 0 || q.y < 0 || q.x >= int(fr.viewport.x) || q.y >= int(fr.viewport.y))
        return vec4(0.0);
    float d = texelFetch(fluid_depth, q, 0).r;
    if (d <= 0.0)
        return vec4(0.0);
    return vec4(ssf_view_ray(vec2(q) + 0.5, fr.viewport.xy) * d, 1.0);
}

// The derivative of the position along one axis: the one-sided difference
// with the smaller depth change, the central one at a local extremum of
// depth; zero when neither neighbour has fluid.
vec3 one_sided(vec3 p, vec4 lo, vec4 hi)
{
    vec3 dh = hi.xyz - p, dl = p - lo.xyz;
    if (hi.w == 0.0 && lo.w == 0.0)
        return vec3(0.0);
    if (hi.w == 0.0)
        return dl;
    if (lo.w == 0.0)
        return dh;
    // a local extremum of depth (a droplet's pixel in front of the surface,
    // or a pit): no step to keep, the central difference's slope
    if (dh.z * dl.z < 0.0)
        return 0.5 * (dh + dl);
    return abs(dh.z) < abs(dl.z) ? dh : dl;
}

// Pixels beyond p along dir before the fluid ends (two empty pixels in a
// row: a one-pixel gap between particles is no outline), at most n.
int fluid_run(ivec2 p, ivec2 dir, int n)
{
    int k = 0;
    while (k < n && (view_pos(p + dir * (k + 1)).w > 0.0 || view_pos(p + dir * (k + 2)).w > 0.0))
        k++;
    return k;
}

// Distance (pixels, from the pixel centre) to the fluid's silhouette along
// one screen axis and the direction towards it (-1, 1; 0 when farther than n).
float edge_along(ivec2 p, ivec2 axis, int n, out float side)
{
    int lo = fluid_run(p, -axis, n), hi = fluid_run(p, axis, n);
    side = lo < hi ? -1.0 : 1.0;
    int k = min(lo, hi);
    if (k >= n)
        side = 0.0;
    return float(k) + 0.5;
}

float thickness_at(vec2 frag)
{
    vec2 tc = frag * fr.thick_size.xy * fr.viewport.zw - 0.5;
    ivec2 i0 = ivec2(floor(tc));
    vec2 f = tc - vec2(i0);
    ivec2 hi = ivec2(fr.thick_size.xy) - 1;
    float t00 = texelFetch(thickness, clamp(i0, ivec2(0), hi), 0).r;
    float t10 = texelFetch(thickness, clamp(i0 + ivec2(1, 0), ivec2(0), hi), 0).r;
    float t01 = texelFetch(thickness, clamp(i0 + ivec2(0, 1), ivec2(0), hi), 0).r;
    float t11 = texelFetch(thickness, clamp(i0 + ivec2(1, 1), ivec2(0), hi), 0).r;
    return mix(mix(t00, t10, f.x), mix(t01, t11, f.x), f.y);
}

// The shaded fluid at pixel p (framebuffer position frag = p + 0.5): its
// linear colour and depth-buffer value; false where the pixel shows no
// fluid (none there, or a lone fluid pixel).
bool ssf_composite_shade(ivec2 p, vec2 frag, out vec3 color, out float frag_depth)
{
    color = vec3(0.0);
    frag_depth = 1.0;
    float d = texelFetch(fluid_depth, p, 0).r;
    if (d <= 0.0)
        return false;
    // a fluid pixel with fewer than two fluid neighbours (of 8) is a lone
    // splat or the tip of a stray particle's sliver: its normal is undefined,
    // it would shade as a single dark or white pixel, so the scene shows
    // instead (with two, it may be part of a jet one pixel wide: kept)
    int near = 0;
    for (int k = 0; k < 9; k++)
        if (k != 4)
            near += view_pos(p + ivec2(k % 3 - 1, k / 3 - 1)).w > 0.0 ? 1 : 0;
    if (near < 2)
        return false;
    vec3 ray = ssf_view_ray(frag, fr.viewport.xy);
    vec3 pos = ray * d;

    vec3 ddx = one_sided(pos, view_pos(p - ivec2(1, 0)), view_pos(p + ivec2(1, 0)));
    vec3 ddy = one_sided(pos, view_pos(p - ivec2(0, 1)), view_pos(p + ivec2(0, 1)));
    vec3 n = cross(ddy, ddx);
    float nl = length(n);
    n = nl > 1e-12 ? n / nl : -normalize(ray);
    if (dot(n, pos) > 0.0)
        n = -n; // face the eye

    mat3 to_world = mat3(fr.inv_view);
    vec3 pw = fr.eye.xyz + to_world * pos;
    vec3 v = -normalize(to_world * ray);
    float f0 = fr.fluid_color.w;

    // Silhouette within a particle radius (r_px pixels): the direction
    // towards it, perpendicular to the ray, and the distance e to it. On a
    // sphere of radius r_px seen from afar, the point at distance e inside
    // the outline has its normal turned by asin(1 - e / r_px) towards it.
    float r_px = fr.shade.x * fr.eye.w / d;
    int reach = min(int(ceil(r_px)), 8);
    float sx, sy;
    float ex = edge_along(p, ivec2(1, 0), reach, sx), ey = edge_along(p, ivec2(0, 1), reach, sy);
    vec3 to_edge = vec3(0.0);
    float e = 1e9;
    if (sx != 0.0 && ex <= ey) {
        to_edge = vec3(sx, 0.0, 0.0);
        e = ex;
    } else if (sy != 0.0) {
        to_edge = vec3(0.0, -sy, 0.0); // screen y runs down, view y up
        e = ey;
    }
    vec3 rn = normalize(ray);
    to_edge -= rn * dot(to_edge, rn);
    bool rim = e < r_px && dot(to_edge, to_edge) > 1e-6;
    to_edge = rim ? normalize(to_edge) : vec3(0.0);
    // four samples across the pixel's footprint (distances e - 3/8 .. e + 3/8)
    const int RIM_SAMPLES = 4;
    vec3 h = normalize(fr.light.xyz + v);
    float fresnel = 0.0, spec = 0.0;
    vec3 refl = vec3(0.0), nsum = vec3(0.0);
    for (int j = 0; j < RIM_SAMPLES; j++) {
        vec3 nj = n;
        if (rim) {
            float s = clamp(1.0 - (e + (float(j) + 0.5) / float(RIM_SAMPLES) - 0.5) / r_px, 0.0, 1.0);
            vec3 flat_n = normalize(n - to_edge * dot(n, to_edge));
            nj = normalize(flat_n * sqrt(1.0 - s * s) + to_edge * s);
        }
        vec3 nwj = normalize(to_world * nj);
        float ndv = max(dot(nwj, v), 0.0);
        fresnel += f0 + (1.0 - f0) * pow(1.0 - ndv, 5.0);
        refl += ssf_environment(pw, reflect(-v, nwj), 0.6);
        spec += pow(max(dot(nwj, h), 0.0), fr.shade.y);
        nsum += nj;
        if (!rim)
            break;
    }
    float taken = rim ? float(RIM_SAMPLES) : 1.0;
    fresnel /= taken;
    refl /= taken;
    spec *= fr.shade.z * fr.light.w / taken;
    n = normalize(nsum);
    vec3 nw = normalize(to_world * n);

    float t = thickness_at(frag);
    float shift_px = fr.absorb.w * t * fr.eye.w / d;
    vec2 at = frag + vec2(n.x, -n.y) * shift_px;
    // Where the shift varies, neighbouring pixels sample the background far
    // apart: a small 5-tap blur growing with the shift keeps it from aliasing.
    float br = min(0.3 * shift_px, 6.0);
    vec3 bg = 0.2 * (textureLod(scene_color, at * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(br, 0.5 * br)) * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(-0.5 * br, br)) * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(-br, -0.5 * br)) * fr.viewport.zw, 0.0).rgb +
                     textureLod(scene_color, (at + vec2(0.5 * br, -br)) * fr.viewport.zw, 0.0).rgb);
    vec3 trans = exp(-fr.absorb.rgb * t);
    // light scattered back from inside: the colour of deep water (the fluid
    // colour after three absorption lengths), so a thick column reads dark
    // blue-green, not milky
    vec3 deep = fr.fluid_color.rgb * fr.fluid_color.rgb * fr.fluid_color.rgb;
    vec3 scatter = deep * fr.shade.w * (0.4 * SSF_HORIZON + 0.6 * max(fr.light.y, 0.0) * fr.light.w);
    vec3 refr = bg * trans + scatter * (1.0 - trans);

    vec3 c = mix(refr, refl, fresnel) + SSF_SUN_COLOR * spec;

    if (fr.debug_view == VF_SSF_DEBUG_NORMALS)
        c = n * 0.5 + 0.5;
    else if (fr.debug_view == VF_SSF_DEBUG_THICKNESS)
        c = vec3(min(t / 0.5, 1.0));
    else if (fr.debug_view == VF_SSF_DEBUG_DEPTH)
        c = vec3(clamp(2.0 - d / length(fr.eye.xyz - 0.5 * (fr.box_min.xyz + fr.box_max.xyz)), 0.0, 1.0));
    color = c;
    frag_depth = clamp(ssf_ndc_depth(pos.z), 0.0, 1.0);
    return true;
}
