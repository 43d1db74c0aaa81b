// grid_common.glsl: helpers shared by the grid kernels (GLSL only; include it
// after VF_PUSH(vf_grid_push)). Layout (see src/solver_grid.h):
//   u(i, j), i in [0, nx], j in [0, ny-1] at (i h, (j + 1/2) h), index j (nx + 1) + i
//   v(i, j), i in [0, nx-1], j in [0, ny] at ((i + 1/2) h, j h), index j nx + i
//   cell (i, j) at ((i + 1/2) h, (j + 1/2) h), index j nx + i
// With periodic x the face i = nx is the face i = 0 (kept equal); same for y.

#define VF_GRID_LOCAL layout(local_size_x = VF_GRID_WG_X, local_size_y = VF_GRID_WG_Y) in;

uint side_type(uint s)
{
    return (pc.sides >> (4u * s)) & 15u;
}

bool per_x()
{
    return side_type(VF_GRID_SIDE_LEFT) == VF_GRID_BC_PERIODIC;
}

bool per_y()
{
    return side_type(VF_GRID_SIDE_BOTTOM) == VF_GRID_BC_PERIODIC;
}

int wrapi(int i, int n)
{
    int r = i % n;
    return r < 0 ? r + n : r;
}

// A shader that walks several levels defines VF_GRID_LEVEL_DIMS and its own
// NX() and NY() (the level being worked on) before including this file.
#ifndef VF_GRID_LEVEL_DIMS
int NX()
{
    return int(pc.nx);
}

int NY()
{
    return int(pc.ny);
}
#endif

int uidx(int i, int j)
{
    return j * (NX() + 1) + i;
}

int vidx(int i, int j)
{
    return j * NX() + i;
}

int cidx(int i, int j)
{
    return j * NX() + i;
}

// u at face (i, j) with i in [0, nx] (already wrapped or clamped) and j in
// [-1, ny]: rows outside come from the bottom/top condition (ghost rows).
#define VF_GRID_U_FETCH(NAME, BUF)                                                  \
    float NAME(int i, int j)                                                        \
    {                                                                               \
        if (j >= 0 && j < NY())                                                     \
            return BUF[uidx(i, j)];                                                 \
        uint s = j < 0 ? VF_GRID_SIDE_BOTTOM : VF_GRID_SIDE_TOP;                    \
        uint t = side_type(s);                                                      \
        if (t == VF_GRID_BC_PERIODIC)                                               \
            return BUF[uidx(i, wrapi(j, NY()))];                                    \
        float inner = BUF[uidx(i, j < 0 ? 0 : NY() - 1)];                           \
        if (t == VF_GRID_BC_NOSLIP || t == VF_GRID_BC_INFLOW)                       \
            return 2.0 * pc.side_u[s] - inner;                                      \
        return inner;                                                               \
    }

// v at face (i, j) with j in [0, ny] (wrapped or clamped) and i in [-1, nx].
#define VF_GRID_V_FETCH(NAME, BUF)                                                  \
    float NAME(int i, int j)                                                        \
    {                                                                               \
        if (i >= 0 && i < NX())                                                     \
            return BUF[vidx(i, j)];                                                 \
        uint s = i < 0 ? VF_GRID_SIDE_LEFT : VF_GRID_SIDE_RIGHT;                    \
        uint t = side_type(s);                                                      \
        if (t == VF_GRID_BC_PERIODIC)                                               \
            return BUF[vidx(wrapi(i, NX()), j)];                                    \
        float inner = BUF[vidx(i < 0 ? 0 : NX() - 1, j)];                           \
        if (t == VF_GRID_BC_NOSLIP || t == VF_GRID_BC_INFLOW)                       \
            return 2.0 * pc.side_v[s] - inner;                                      \
        return inner;                                                               \
    }

// Bilinear sample of u at p (domain units); lo/hi get the stencil's range.
#define VF_GRID_U_SAMPLE(NAME, FETCH)                                               \
    float NAME(vec2 p, out float lo, out float hi)                                  \
    {                                                                               \
        int nx = NX(), ny = NY();                                                   \
        float gx = p.x / pc.h, gy = p.y / pc.h - 0.5;                               \
        int i0, i1, j0, j1;                                                         \
        float fx, fy;                                                               \
        if (per_x()) {                                                              \
            float f = floor(gx);                                                    \
            fx = gx - f;                                                            \
            i0 = wrapi(int(f), nx);                                                 \
            i1 = wrapi(int(f) + 1, nx);                                             \
        } else {                                                                    \
            gx = clamp(gx, 0.0, float(nx));                                         \
            i0 = min(int(floor(gx)), nx - 1);                                       \
            fx = gx - float(i0);                                                    \
            i1 = i0 + 1;                                                            \
        }                                                                           \
        if (per_y()) {                                                              \
            float f = floor(gy);                                                    \
            fy = gy - f;                                                            \
            j0 = wrapi(int(f), ny);                                                 \
            j1 = wrapi(int(f) + 1, ny);                                             \
        } else {                                                                    \
            gy = clamp(gy, -0.5, float(ny) - 0.5);                                  \
            j0 = int(floor(gy));                                                    \
            fy = gy - float(j0);                                                    \
            j1 = j0 + 1;                                                            \
        }                                                                           \
        float a = FETCH(i0, j0), b = FETCH(i1, j0), c = FETCH(i0, j1), d = FETCH(i1, j1); \
        lo = min(min(a, b), min(c, d));                                             \
        hi = max(max(a, b), max(c, d));                                             \
        float bot = a + (b - a) * fx, top = c + (d - c) * fx;                       \
        return bot + (top - bot) * fy;                                              \
    }

#define VF_GRID_V_SAMPLE(NAME, FETCH)                                               \
    float NAME(vec2 p, out float lo, out float hi)                                  \
    {                                                                               \
        int nx = NX(), ny = NY();                                                   \
        float gx = p.x / pc.h - 0.5, gy = p.y / pc.h;                               \
        int i0, i1, j0, j1;                                                         \
        float fx, fy;                                                               \
        if (per_x()) {                                                              \
            float f = floor(gx);                                                    \
            fx = gx - f;                                                            \
            i0 = wrapi(int(f), nx);                                                 \
            i1 = wrapi(int(f) + 1, nx);                                             \
        } else {                                                                    \
            gx = clamp(gx, -0.5, float(nx) - 0.5);                                  \
            i0 = int(floor(gx));                                                    \
            fx = gx - float(i0);                                                    \
            i1 = i0 + 1;                                                            \
        }                                                                           \
        if (per_y()) {                                                              \
            float f = floor(gy);                                                    \
            fy = gy - f;                                                            \
            j0 = wrapi(int(f), ny);                                                 \
            j1 = wrapi(int(f) + 1, ny);                                             \
        } else {                                                                    \
            gy = clamp(gy, 0.0, float(ny));                                         \
            j0 = min(int(floor(gy)), ny - 1);                                       \
            fy = gy - float(j0);                                                    \
            j1 = j0 + 1;                                                            \
        }                                                                           \
        float a = FETCH(i0, j0), b = FETCH(i1, j0), c = FETCH(i0, j1), d = FETCH(i1, j1); \
        lo = min(min(a, b), min(c, d));                                             \
        hi = max(max(a, b), max(c, d));                                             \
        float bot = a + (b - a) * fx, top = c + (d - c) * fx;                       \
        return bot + (top - bot) * fy;                                              \
    }

// Cell-centred sample that ignores solid cells (weights renormalised; 0 when
// the whole stencil is solid). Zero-gradient at non-periodic sides.
struct vf_cell_stencil {
    int k[4];
    float w[4];
};

vf_cell_stencil cell_stencil(vec2 p)
{
    int nx = NX(), ny = NY();
    float gx = p.x / pc.h - 0.5, gy = p.y / pc.h - 0.5;
    int i0, i1, j0, j1;
    float fx, fy;
    if (per_x()) {
        float f = floor(gx);
        fx = gx - f;
        i0 = wrapi(int(f), nx);
        i1 = wrapi(int(f) + 1, nx);
    } else {
        gx = clamp(gx, 0.0, float(nx - 1));
        i0 = min(int(floor(gx)), nx - 2);
        fx = gx - float(i0);
        i1 = i0 + 1;
    }
    if (per_y()) {
        float f = floor(gy);
        fy = gy - f;
        j0 = wrapi(int(f), ny);
        j1 = wrapi(int(f) + 1, ny);
    } else {
        gy = clamp(gy, 0.0, float(ny - 1));
        j0 = min(int(floor(gy)), ny - 2);
        fy = gy - float(j0);
        j1 = j0 + 1;
    }
    vf_cell_stencil s;
    s.k[0] = cidx(i0, j0);
    s.k[1] = cidx(i1, j0);
    s.k[2] = cidx(i0, j1);
    s.k[3] = cidx(i1, j1);
    s.w[0] = (1.0 - fx) * (1.0 - fy);
    s.w[1] = fx * (1.0 - fy);
    s.w[2] = (1.0 - fx) * fy;
    s.w[3] = fx * fy;
    return s;
}

// Samples BUF through a stencil whose solid cells have weight 0.
#define VF_GRID_C_SAMPLE(NAME, BUF, MASK)                                           \
    float NAME(vf_cell_stencil s, out float lo, out float hi)                       \
    {                                                                               \
        float sum = 0.0, wsum = 0.0;                                                \
        lo = 3.0e38;                                                                \
        hi = -3.0e38;                                                               \
        for (int q = 0; q < 4; q++) {                                               \
            if (MASK[s.k[q]] != VF_GRID_CELL_FLUID)                                 \
                continue;                                                           \
            float x = BUF[s.k[q]];                                                  \
            sum += s.w[q] * x;                                                      \
            wsum += s.w[q];                                                         \
            lo = min(lo, x);                                                        \
            hi = max(hi, x);                                                        \
        }                                                                           \
        if (wsum <= 1e-6) {                                                         \
            lo = 0.0;                                                               \
            hi = 0.0;                                                               \
            return 0.0;                                                             \
        }                                                                           \
        return sum / wsum;                                                          \
    }

// Velocity of the face a solid cell imposes: the mean of the adjacent solid
// cells' velocities (a and b are cell indices or -1).
#define VF_GRID_SOLID_VEL(NAME, MASK, SVEL)                                         \
    float NAME(int a, int b)                                                        \
    {                                                                               \
        bool sa = a >= 0 && MASK[a] != VF_GRID_CELL_FLUID;                          \
        bool sb = b >= 0 && MASK[b] != VF_GRID_CELL_FLUID;                          \
        float s = 0.0, n = 0.0;                                                     \
        if (sa) { s += SVEL[a]; n += 1.0; }                                         \
        if (sb) { s += SVEL[b]; n += 1.0; }                                         \
        return n > 0.0 ? s / n : 0.0;                                               \
    }

// The fixed value of a u face of weight 0: a solid's velocity, else the side's.
// The including shader defines MASKSOLID(k).
#define VF_GRID_FIXED_U(NAME, SOLIDVEL)                                             \
    float NAME(int i, int j)                                                        \
    {                                                                               \
        int nx = NX();                                                              \
        int a = i > 0 ? cidx(i - 1, j) : (per_x() ? cidx(nx - 1, j) : -1);         \
        int b = i < nx ? cidx(i, j) : (per_x() ? cidx(0, j) : -1);                  \
        bool any = (a >= 0 && MASKSOLID(a)) || (b >= 0 && MASKSOLID(b));            \
        if (any)                                                                    \
            return SOLIDVEL(a, b);                                                  \
        uint side = i == 0 ? VF_GRID_SIDE_LEFT : VF_GRID_SIDE_RIGHT;                \
        return side_type(side) == VF_GRID_BC_INFLOW ? pc.side_u[side] : 0.0;        \
    }

#define VF_GRID_FIXED_V(NAME, SOLIDVEL)                                             \
    float NAME(int i, int j)                                                        \
    {                                                                               \
        int ny = NY();                                                              \
        int a = j > 0 ? cidx(i, j - 1) : (per_y() ? cidx(i, ny - 1) : -1);         \
        int b = j < ny ? cidx(i, j) : (per_y() ? cidx(i, 0) : -1);                  \
        bool any = (a >= 0 && MASKSOLID(a)) || (b >= 0 && MASKSOLID(b));            \
        if (any)                                                                    \
            return SOLIDVEL(a, b);                                                  \
        uint side = j == 0 ? VF_GRID_SIDE_BOTTOM : VF_GRID_SIDE_TOP;                \
        return side_type(side) == VF_GRID_BC_INFLOW ? pc.side_v[side] : 0.0;        \
    }

// vel(p) and the RK2 (midpoint) trace p - dt u(p - dt/2 u(p)) through the
// velocity sampled by SAMPLE_U / SAMPLE_V.
#define VF_GRID_TRACE(SAMPLE_U, SAMPLE_V)                                           \
    vec2 vel(vec2 p)                                                                \
    {                                                                               \
        float lo, hi;                                                               \
        return vec2(SAMPLE_U(p, lo, hi), SAMPLE_V(p, lo, hi));                      \
    }                                                                               \
    vec2 trace(vec2 p, float dt)                                                    \
    {                                                                               \
        vec2 k1 = vel(p);                                                           \
        vec2 k2 = vel(p - 0.5 * dt * k1);                                           \
        return p - dt * k2;                                                         \
    }
