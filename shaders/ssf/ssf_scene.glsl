// ssf_scene.glsl: the procedural scene's ray cast per pixel (sky, checker
// floor at the tank's bottom, the tank's twelve edges as beams), shared by
// the raster pass (ssf_scene.frag) and the compute pass (ssf_scene.comp).
// The includer defines SSF_FLOOR_FOOTPRINT(uv, frag): the checker's filter
// footprint in tiles at the pixel (the fragment shader: fwidth of uv).
// Included after ssf_common.glsl.

// The depth-buffer value of the hit at distance t along the ray o + t d
// (1: none, t >= 1e29, or beyond the far plane).
float scene_depth_of(vec3 o, vec3 d, float t)
{
    if (t >= 1e29)
        return 1.0;
    vec3 pv = (fr.view * vec4(o + d * t, 1.0)).xyz;
    return -pv.z < fr.proj_params.w ? clamp(ssf_ndc_depth(pv.z), 0.0, 1.0) : 1.0;
}

// Linear colour of the scene along the ray through framebuffer position
// frag (pixel centres at .5); depth gets the hit's depth-buffer value
// (0 near .. 1 far; 1 for the sky and beyond the far plane).
vec3 ssf_scene_cast(vec2 frag, out float depth)
{
    vec3 vdir = normalize(ssf_view_ray(frag, fr.viewport.xy));
    vec3 o = fr.eye.xyz;
    vec3 d = normalize(mat3(fr.inv_view) * vdir);
    float best = 1e30;
    vec3 color = ssf_sky(d);

    // Floor plane (the tank stands on it), filtered checker.
    if (d.y < -1e-5) {
        float t = (fr.box_min.y - o.y) / d.y;
        if (t > 0.0) {
            vec3 p = o + d * t;
            vec2 uv = p.xz / fr.box_max.w;
            best = t;
            color = ssf_floor_color(p, t, SSF_FLOOR_FOOTPRINT(uv, frag) * 1.2);
        }
    }

    // Tank edges: beams at least ~1 px wide. A ray that misses the tank's
    // box grown by the widest beam (the one at the far corner) hits none.
    vec3 lo = fr.box_min.xyz, hi = fr.box_max.xyz;
    float far_t = length(o - 0.5 * (lo + hi)) + 0.5 * length(hi - lo);
    vec3 grow = vec3(max(fr.box_min.w, 0.75 * far_t / fr.eye.w));
    vec3 inv = 1.0 / d;
    vec3 ta = (lo - grow - o) * inv, tb = (hi + grow - o) * inv;
    vec3 tn = min(ta, tb), tx = max(ta, tb);
    if (max(max(tn.x, tn.y), tn.z) > min(min(tx.x, tx.y), tx.z) || min(min(tx.x, tx.y), tx.z) < 0.0) {
        depth = scene_depth_of(o, d, best);
        return color;
    }
    vec3 c[8] = vec3[8](vec3(lo.x, lo.y, lo.z), vec3(hi.x, lo.y, lo.z), vec3(lo.x, hi.y, lo.z), vec3(hi.x, hi.y, lo.z),
                        vec3(lo.x, lo.y, hi.z), vec3(hi.x, lo.y, hi.z), vec3(lo.x, hi.y, hi.z), vec3(hi.x, hi.y, hi.z));
    const ivec2 e[12] = ivec2[12](ivec2(0, 1), ivec2(2, 3), ivec2(4, 5), ivec2(6, 7), ivec2(0, 2), ivec2(1, 3),
                                  ivec2(4, 6), ivec2(5, 7), ivec2(0, 4), ivec2(1, 5), ivec2(2, 6), ivec2(3, 7));
    for (int i = 0; i < 12; i++) {
        float t, dist, s;
        ssf_ray_segment(o, d, c[e[i].x], c[e[i].y], t, dist, s);
        float rad = max(fr.box_min.w, 0.75 * t / fr.eye.w);
        if (t > 0.0 && dist < rad && t < best) {
            float th = sqrt(max(rad * rad - dist * dist, 0.0));
            float thit = t - th;
            vec3 axis = c[e[i].y] - c[e[i].x];
            vec3 q = c[e[i].x] + axis * s;
            vec3 n = normalize(o + d * thit - q);
            float diff = max(dot(n, fr.light.xyz), 0.0) * fr.light.w;
            vec3 h = normalize(fr.light.xyz - d);
            float spec = pow(max(dot(n, h), 0.0), 60.0) * fr.light.w;
            color = vec3(0.10, 0.11, 0.12) * (0.4 + diff) + vec3(0.5) * spec;
            best = thit;
        }
    }

    depth = scene_depth_of(o, d, best);
    return color;
}
