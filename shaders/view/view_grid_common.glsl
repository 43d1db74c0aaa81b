// Shared by the 2D field view shaders: the grid solver's buffers (MAC layout,
// see src/sim/grid/solver_grid.h) and bilinear sampling of cell-centred fields.
layout(std430, binding = VF_VIEW_BIND_R) readonly buffer FR { float fr[]; };
layout(std430, binding = VF_VIEW_BIND_G) readonly buffer FG { float fg[]; };
layout(std430, binding = VF_VIEW_BIND_B) readonly buffer FB { float fb[]; };
layout(std430, binding = VF_VIEW_BIND_P) readonly buffer FP { float fp[]; };
layout(std430, binding = VF_VIEW_BIND_U) readonly buffer FU { float fu[]; };
layout(std430, binding = VF_VIEW_BIND_V) readonly buffer FV { float fv[]; };
layout(std430, binding = VF_VIEW_BIND_MASK) readonly buffer FM { uint fmask[]; };
layout(std430, binding = VF_VIEW_BIND_S) readonly buffer FS { float fs[]; };
layout(std430, binding = VF_VIEW_BIND_T) readonly buffer FT { float ft[]; };
VF_PUSH(vf_view_grid_push)

int cell_index(int i, int j)
{
    return clamp(j, 0, int(pc.ny) - 1) * int(pc.nx) + clamp(i, 0, int(pc.nx) - 1);
}

// Velocity at the centre of cell (i, j): the mean of its faces.
vec2 cell_velocity(int i, int j)
{
    i = clamp(i, 0, int(pc.nx) - 1);
    j = clamp(j, 0, int(pc.ny) - 1);
    int nx = int(pc.nx);
    float u = 0.5 * (fu[j * (nx + 1) + i] + fu[j * (nx + 1) + i + 1]);
    float v = 0.5 * (fv[j * nx + i] + fv[(j + 1) * nx + i]);
    return vec2(u, v);
}

#define VF_BILINEAR(name, expr)                                        \
    float name(vec2 x)                                                 \
    {                                                                  \
        vec2 c = x - 0.5;                                              \
        ivec2 i0 = ivec2(floor(c));                                    \
        vec2 f = c - vec2(i0);                                         \
        float a = expr(cell_index(i0.x, i0.y));                        \
        float b = expr(cell_index(i0.x + 1, i0.y));                    \
        float d = expr(cell_index(i0.x, i0.y + 1));                    \
        float e = expr(cell_index(i0.x + 1, i0.y + 1));                \
        return mix(mix(a, b, f.x), mix(d, e, f.x), f.y);               \
    }
