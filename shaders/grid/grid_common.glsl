// grid_common.glsl: helpers shared by the grid kernels (GLSL only; include it
// after VF_PUSH(vf_grid_push)). Layout (see src/sim/grid/solver_grid.h):
//   u(i, j), i in [0, nx], j in [0, ny-1] at (i h, (j + 1/2) h), index j (nx + 1) + i
//   v(i, j), i in [0, nx-1], j in [0, ny] at ((i + 1/2) h, j h), index j nx + i
//   cell (i, j) at ((i + 1/2) h, (j + 1/2) h), index j nx + i
// With periodic x the face i = nx is the face i = 0 (kept equal); same for y.

#define VF_GRID_LOCAL layout(local_size_x = VF_GRID_WG_X, local_size_y = VF_GRID_WG_Y) in;

// The packed side types: pc.sides, or a specialization constant in the
// kernels that define VF_GRID_SIDES before including this file.
#ifndef VF_GRID_SIDES
#define VF_GRID_SIDES pc.sides
#endif

uint side_type(uint s)
{
    return (VF_GRID_SIDES >> (4u * s)) & 15u;
}

// The weight of a box side's faces in the pressure operator: 2 outflow
// (pressure 0 half a cell outside), 1 periodic, 0 a wall or an inflow (the
// velocity there is fixed).
float side_weight(uint side)
{
    uint t = side_type(side);
    return t == VF_GRID_BC_OUTFLOW ? 2.0 : (t == VF_GRID_BC_PERIODIC ? 1.0 : 0.0);
}

// Specialized with VF_GRID_SPEC_OPEN = 1 when no solid cell can exist (the
// solver's open variant): every mask entry is fluid and the face weights
// follow from the position and the sides, so neither is loaded.
layout(constant_id = VF_GRID_SPEC_OPEN) const bool grid_open = false;

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

// wrapi for i in [-n, 2n) (at most a period outside [0, n)), by one
// addition: CPU devices divide one lane at a time.
int wrap_near(int i, int n)
{
    return i < 0 ? i + n : (i >= n ? i - n : i);
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

// The face weights when no solid cell exists (grid_open): 1 inside the box,
// the side's weight on its faces (grid_mg_weights computes the same).
float open_wx(int i)
{
    return i == 0 ? side_weight(VF_GRID_SIDE_LEFT) : (i == NX() ? side_weight(VF_GRID_SIDE_RIGHT) : 1.0);
}

float open_wy(int j)
{
    return j == 0 ? side_weight(VF_GRID_SIDE_BOTTOM) : (j == NY() ? side_weight(VF_GRID_SIDE_TOP) : 1.0);
}

// A cell's mask test (MASK_AT: the mask read, a function of the cell index)
// and a face's weight, read only where solids may exist.
#define VF_GRID_IS_FLUID(MASK_AT, k) (grid_open || MASK_AT(k) == VF_GRID_CELL_FLUID)
#define VF_GRID_WX_AT(WX, i, j) (grid_open ? open_wx(i) : WX[uidx(i, j)])
#define VF_GRID_WY_AT(WY, i, j) (grid_open ? open_wy(j) : WY[vidx(i, j)])

int cidx(int i, int j)
{
    return j * NX() + i;
}

// Where a fetch at a, outside [0, n) by at most n across the sides s0
// (a < 0) and s1, reads: the wrapped index on a periodic side, else the
// nearest inside one; s gets the side.
int ghost_source(int a, int n, uint s0, uint s1, out uint s)
{
    s = a < 0 ? s0 : s1;
    return side_type(s) == VF_GRID_BC_PERIODIC ? wrap_near(a, n) : (a < 0 ? 0 : n - 1);
}

// A ghost's value from the value it reads: mirrored about the side's
// velocity on no-slip and inflow sides.
float ghost_value(float inner, uint s, float side_vel)
{
    uint t = side_type(s);
    return t == VF_GRID_BC_NOSLIP || t == VF_GRID_BC_INFLOW ? 2.0 * side_vel - inner : inner;
}

// A face field at face (i, j) read through LOAD (a function of the element
// index), its index already wrapped or clamped along the faces; across them
// the rows (or columns) outside come from the sides' condition (ghosts). U:
// u, i in [0, nx], j in [-1, ny], the ghosts from the bottom and top; else v,
// j in [0, ny], i in [-1, nx], from the left and right. One load either way
// (a ghost reads its source row), so a device that runs both sides of a
// branch loads once.
#define VF_GRID_FACE_FETCH(NAME, LOAD, U)                                           \
    float NAME(int i, int j)                                                        \
    {                                                                               \
        int a = U ? j : i, n = U ? NY() : NX();                                     \
        bool inside = a >= 0 && a < n;                                              \
        uint s;                                                                     \
        int r = ghost_source(a, n, U ? VF_GRID_SIDE_BOTTOM : VF_GRID_SIDE_LEFT,     \
                             U ? VF_GRID_SIDE_TOP : VF_GRID_SIDE_RIGHT, s);         \
        r = inside ? a : r;                                                         \
        float x = LOAD(U ? uidx(i, r) : vidx(r, j));                                \
        return inside ? x : ghost_value(x, s, U ? pc.side_u[s] : pc.side_v[s]);     \
    }
#define VF_GRID_U_FETCH(NAME, LOAD) VF_GRID_FACE_FETCH(NAME, LOAD, true)
#define VF_GRID_V_FETCH(NAME, LOAD) VF_GRID_FACE_FETCH(NAME, LOAD, false)

// One axis of a bilinear stencil at g (a position / h, shifted so that the
// samples lie at the integers) over n samples: the indices i0 and i1 = i0 + 1
// and the fraction f. A periodic axis wraps; else g is clamped to [lo, hi]
// and i0 to at most last.
void stencil_axis(float g, int n, bool periodic, float lo, float hi, int last, out int i0, out int i1, out float f)
{
    if (periodic) {
        float fl = floor(g);
        f = g - fl;
        i0 = wrapi(int(fl), n);
        i1 = i0 + 1 < n ? i0 + 1 : 0;
    } else {
        g = clamp(g, lo, hi);
        i0 = min(int(floor(g)), last);
        f = g - float(i0);
        i1 = i0 + 1;
    }
}

// The axis of a face field along its faces (samples at 0..n; g = position / h).
void face_axis(float g, int n, bool periodic, out int i0, out int i1, out float f)
{
    stencil_axis(g, n, periodic, 0.0, float(n), n - 1, i0, i1, f);
}

// The axis of a face field across its faces (samples at the centres, the
// ghosts at -1 and n from the fetch; g = position / h).
void centre_axis(float g, int n, bool periodic, out int i0, out int i1, out float f)
{
    stencil_axis(g - 0.5, n, periodic, -0.5, float(n) - 0.5, n - 1, i0, i1, f);
}

// Bilinear interpolation of a (i0, j0), b (i1, j0), c (i0, j1), d (i1, j1);
// lo/hi get their range.
float bilinear(float a, float b, float c, float d, float fx, float fy, out float lo, out float hi)
{
    lo = min(min(a, b), min(c, d));
    hi = max(max(a, b), max(c, d));
    float bot = a + (b - a) * fx, top = c + (d - c) * fx;
    return bot + (top - bot) * fy;
}

// Bilinear sample of a face field at p (domain units) through FETCH; lo/hi get
// the stencil's range. U: the u faces (x along the faces), else the v faces.
#define VF_GRID_FACE_SAMPLE(NAME, FETCH, U)                                          \
    float NAME(vec2 p, out float lo, out float hi)                                  \
    {                                                                               \
        int i0, i1, j0, j1;                                                         \
        float fx, fy;                                                               \
        if (U) {                                                                    \
            face_axis(p.x / pc.h, NX(), per_x(), i0, i1, fx);                       \
            centre_axis(p.y / pc.h, NY(), per_y(), j0, j1, fy);                     \
        } else {                                                                    \
            centre_axis(p.x / pc.h, NX(), per_x(), i0, i1, fx);                     \
            face_axis(p.y / pc.h, NY(), per_y(), j0, j1, fy);                       \
        }                                                                           \
        return bilinear(FETCH(i0, j0), FETCH(i1, j0), FETCH(i0, j1), FETCH(i1, j1), fx, fy, lo, hi); \
    }
#define VF_GRID_U_SAMPLE(NAME, FETCH) VF_GRID_FACE_SAMPLE(NAME, FETCH, true)
#define VF_GRID_V_SAMPLE(NAME, FETCH) VF_GRID_FACE_SAMPLE(NAME, FETCH, false)

// Cell-centred sample that ignores solid cells (weights renormalised; 0 when
// the whole stencil is solid). Zero-gradient at non-periodic sides.
struct vf_cell_stencil {
    int k[4];
    float w[4];
};

vf_cell_stencil cell_stencil(vec2 p)
{
    int nx = NX(), ny = NY();
    int i0, i1, j0, j1;
    float fx, fy;
    stencil_axis(p.x / pc.h - 0.5, nx, per_x(), 0.0, float(nx - 1), nx - 2, i0, i1, fx);
    stencil_axis(p.y / pc.h - 0.5, ny, per_y(), 0.0, float(ny - 1), ny - 2, j0, j1, fy);
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

// Samples a cell field read through LOAD (a function of the cell index)
// through a stencil whose solid cells have weight 0.
#define VF_GRID_C_SAMPLE(NAME, LOAD, MASK_AT)                                       \
    float NAME(vf_cell_stencil s, out float lo, out float hi)                       \
    {                                                                               \
        float sum = 0.0, wsum = 0.0;                                                \
        lo = 3.0e38;                                                                \
        hi = -3.0e38;                                                               \
        for (int q = 0; q < 4; q++) {                                               \
            if (!VF_GRID_IS_FLUID(MASK_AT, s.k[q]))                                 \
                continue;                                                           \
            float x = LOAD(s.k[q]);                                                 \
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
// cells' velocities (a and b are cell indices or -1; MASK_AT the mask read).
#define VF_GRID_SOLID_VEL(NAME, MASK_AT, SVEL)                                      \
    float NAME(int a, int b)                                                        \
    {                                                                               \
        bool sa = a >= 0 && MASK_AT(a) != VF_GRID_CELL_FLUID;                       \
        bool sb = b >= 0 && MASK_AT(b) != VF_GRID_CELL_FLUID;                       \
        float s = 0.0, n = 0.0;                                                     \
        if (sa) { s += SVEL[a]; n += 1.0; }                                         \
        if (sb) { s += SVEL[b]; n += 1.0; }                                         \
        return n > 0.0 ? s / n : 0.0;                                               \
    }

// The fixed value of a face of weight 0: a solid's velocity, else the side's;
// u faces when U, else v faces. The including shader defines MASKSOLID(k).
#define VF_GRID_FIXED_FACE(NAME, SOLIDVEL, U)                                       \
    float NAME(int i, int j)                                                        \
    {                                                                               \
        int f = U ? i : j, n = U ? NX() : NY(); /* across the faces */              \
        bool per = U ? per_x() : per_y();                                           \
        int c0 = f > 0 ? f - 1 : (per ? n - 1 : -1), c1 = f < n ? f : (per ? 0 : -1); \
        int a = c0 < 0 ? -1 : (U ? cidx(c0, j) : cidx(i, c0));                      \
        int b = c1 < 0 ? -1 : (U ? cidx(c1, j) : cidx(i, c1));                      \
        bool any = (a >= 0 && MASKSOLID(a)) || (b >= 0 && MASKSOLID(b));            \
        if (any)                                                                    \
            return SOLIDVEL(a, b);                                                  \
        uint side = f == 0 ? (U ? VF_GRID_SIDE_LEFT : VF_GRID_SIDE_BOTTOM)          \
                           : (U ? VF_GRID_SIDE_RIGHT : VF_GRID_SIDE_TOP);           \
        return side_type(side) == VF_GRID_BC_INFLOW ? (U ? pc.side_u[side] : pc.side_v[side]) : 0.0; \
    }
#define VF_GRID_FIXED_U(NAME, SOLIDVEL) VF_GRID_FIXED_FACE(NAME, SOLIDVEL, true)
#define VF_GRID_FIXED_V(NAME, SOLIDVEL) VF_GRID_FIXED_FACE(NAME, SOLIDVEL, false)

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
