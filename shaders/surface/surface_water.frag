#version 450
// Water shading (surface_common.glsl's surface_water_normal and
// surface_water_shade): detail normals from animated Perlin turbulence,
// reflection of the procedural sky (without the sun disc), refraction of the
// pool floor (the refracted ray meets the bed one local depth down; the floor
// lit by the caustics pass), Schlick Fresnel blend, Beer-Lambert light
// attenuation with the path length in the water, sun specular highlight
// filtered against speckle (band-limited detail, Toksvig, specular AA).
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) in vec3 world;
layout(location = 1) in vec3 normal;
layout(location = 2) in vec2 dom;
layout(location = 3) in vec3 depth_wet_slope; // depth (m), wet fraction, |grad eta|

layout(location = 0) out vec4 color;

void main()
{
    float depth = depth_wet_slope.x, wet = depth_wet_slope.y, slope = depth_wet_slope.z;
    if (wet < 0.5 || depth < 1e-3)
        discard;
    // octaves under the pixel footprint fade out
    vec2 q = dom * 3.0;
    float fw = max(length(dFdxFine(q)), length(dFdyFine(q)));
    float lost;
    vec3 n = surface_water_normal(world, normal, dom, fw, lost);
    vec3 dndx = dFdxFine(n), dndy = dFdyFine(n);
    float kernel = min(0.5 * (dot(dndx, dndx) + dot(dndy, dndy)), 0.1);
    color = vec4(surface_water_shade(world, n, dom, depth, slope, lost, kernel), 1.0);
}
