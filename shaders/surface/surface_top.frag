#version 450
// Top-down 2D view (Chen & Lobo's figures): yellow above rest, white at rest,
// blue below; obstacles dark, dry land tan. Shows eta (view height) or the
// flow's pressure height p/(rho g) (view pressure; without a coupled flow
// the renderer shows the hydrostatic pressure's change from rest, eta). The domain is fitted to
// the target with its aspect kept; x right, y up. A terrain (misc.w = 1)
// shows its hill-shaded ground with the water blue by depth.
#include "shared_height.h"
#include "surface_common.glsl"

layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main()
{
    float lx = float(fr.nx), ly = float(fr.ny), w = float(fr.width), h = float(fr.height);
    float k = min(w / lx, h / ly);
    vec2 px = vec2(uv.x * w, (1.0 - uv.y) * h);
    vec2 cell = (px - 0.5 * (vec2(w, h) - k * vec2(lx, ly))) / k;
    if (cell.x < 0.0 || cell.y < 0.0 || cell.x >= lx || cell.y >= ly) {
        color = vec4(0.08, 0.08, 0.1, 1.0);
        return;
    }
    uint c = cell_index(int(cell.x), int(cell.y));
    if (terrain_style()) {
        // a terrain: the ground hill-shaded by the sun, water blue by its depth over it
        int ci = int(cell.x), cj = int(cell.y);
        float gx = (bed[cell_index(ci + 1, cj)] - bed[cell_index(ci - 1, cj)]) / (2.0 * dom_dx());
        float gy = (bed[cell_index(ci, cj + 1)] - bed[cell_index(ci, cj - 1)]) / (2.0 * dom_dx());
        vec3 n = normalize(vec3(-gx, 1.0, -gy));
        vec3 ground = terrain_color(cell * dom_dx(), n.y) * (0.35 + 0.75 * max(dot(n, normalize(fr.sun.xyz)), 0.0));
        float depth = eta[c] - bed[c];
        float k = depth > 1e-4 ? 0.35 + 0.65 * (1.0 - exp(-depth / max(0.25 * fr.grid.z, 1e-3))) : 0.0;
        color = vec4(mix(ground, vec3(0.05, 0.25, 0.75), k), 1.0);
        return;
    }
    if (cell_solid(c)) {
        color = vec4(0.25, 0.25, 0.28, 1.0);
        return;
    }
    if (!cell_wet(c)) {
        color = vec4(0.72, 0.64, 0.46, 1.0);
        return;
    }
    float v = fr.view == VF_SURFACE_VIEW_PRESSURE ? pres[c] : sample_eta(cell * dom_dx());
    // signed square root: ripples a tenth of the scale still show at a third
    // of full colour, so spreading rings stay visible
    float t = clamp(v / max(fr.grid.z, 1e-9), -1.0, 1.0);
    t = sign(t) * sqrt(abs(t));
    vec3 yellow = vec3(1.0, 0.85, 0.05), blue = vec3(0.08, 0.3, 1.0), white = vec3(1.0);
    color = vec4(t >= 0.0 ? mix(white, yellow, t) : mix(white, blue, -t), 1.0);
}
