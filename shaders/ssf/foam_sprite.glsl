// foam_sprite.glsl: a diffuse particle's sprite (view-space centre, half
// size and alpha), shared by the raster foam layer (foam_sprite.vert) and the
// compute path's foam pass (ssf_foam.comp). Size by class; alpha by class
// and remaining lifetime. A sprite smaller than VF_FOAM_MIN_RADIUS_PX on the
// screen is drawn at that radius with its alpha scaled by the area ratio:
// the same light, spread over the pixels it falls in, instead of a
// full-strength pixel wherever its tiny quad happens to cover a pixel centre
// (sparkle that comes and goes as it moves). False for a sprite in front of
// the near plane (not drawn). Included after ssf_common.glsl; the includer
// declares fpos and fvel.
bool foam_sprite(uint i, out vec3 c, out float size, out float alpha)
{
    vec4 p = fpos[i];
    uint cls = uint(fvel[i].w);
    c = (fr.view * vec4(p.xyz, 1.0)).xyz;
    size = fr.shade.x * (cls == VF_FOAM_SPRAY ? 0.35 : cls == VF_FOAM_FOAM ? 0.55 : 0.3);
    float a = cls == VF_FOAM_SPRAY ? 0.75 : cls == VF_FOAM_FOAM ? 0.85 : 0.45;
    alpha = a * clamp(p.w / 0.5, 0.0, 1.0); // fade out over the last half second
    const float VF_FOAM_MIN_RADIUS_PX = 1.0;
    float radius_px = size * fr.eye.w / max(-c.z, 1e-6);
    if (radius_px < VF_FOAM_MIN_RADIUS_PX) {
        float grow = VF_FOAM_MIN_RADIUS_PX / max(radius_px, 1e-6);
        size *= grow;
        alpha /= grow * grow;
    }
    return c.z <= -fr.proj_params.z;
}

