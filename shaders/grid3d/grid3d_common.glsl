// grid3d_common.glsl: helpers of the 3D grid kernels (GLSL only). Include it
// after VF_PUSH(vf_grid3d_push) and after declaring the buffers it uses:
// define G3_HAS_MASK when a readonly `uint mask[]` is declared. Layout: see
// shaders/shared_grid3d.h. tests/ref/solver_grid3d_ref.c mirrors every function.

#define VF_G3_LOCAL layout(local_size_x = VF_G3_WG_X, local_size_y = VF_G3_WG_Y, local_size_z = VF_G3_WG_Z) in;

ivec3 N()
{
    return ivec3(int(pc.nx), int(pc.ny), int(pc.nz));
}

uint side_type(uint s)
{
    return (pc.sides >> (4u * s)) & 15u;
}

float inflow_speed(uint s)
{
    return s < 4u ? pc.inflow0[s] : pc.inflow1[s - 4u];
}

int ncells()
{
    return int(pc.nx * pc.ny * pc.nz);
}

layout(constant_id = VF_G3_SPEC_PERIODIC) const uint g3_periodic = 0u; /* some side periodic */

// Whether axis a wraps (its two sides periodic; false in the kernels of a box
// without periodic sides, which the specialization constant compiles out).
bool wraps(int a)
{
    return g3_periodic != 0u && side_type(uint(2 * a)) == VF_G3_BC_PERIODIC;
}

// p moved by one period on each periodic axis where it lies outside [0, n)
// (identity on the cells, and on every axis that does not wrap).
ivec3 wrap_cell(ivec3 p)
{
    ivec3 n = N();
    for (int a = 0; a < 3; a++)
        if (wraps(a))
            p[a] += p[a] < 0 ? n[a] : (p[a] >= n[a] ? -n[a] : 0);
    return p;
}

// Index of cell p; on a periodic axis cell -1 is cell n - 1 and cell n is cell 0.
int cidx(ivec3 p)
{
    p = wrap_cell(p);
    return (p.z * int(pc.ny) + p.y) * int(pc.nx) + p.x;
}

bool in_cells(ivec3 p)
{
    return all(greaterThanEqual(p, ivec3(0))) && all(lessThan(p, N()));
}

ivec3 fdim(int c)
{
    ivec3 d = N();
    d[c] += 1;
    return d;
}

int foff(int c)
{
    int nx = int(pc.nx), ny = int(pc.ny), nz = int(pc.nz);
    if (c == 0)
        return 0;
    int o1 = (nx + 1) * ny * nz;
    return c == 1 ? o1 : o1 + nx * (ny + 1) * nz;
}

// Index of face (c, p); on a periodic axis a face one period outside the
// array is the face inside (face -1 of the normal axis is face n - 1).
int fidx(int c, ivec3 p)
{
    ivec3 d = fdim(c), n = N();
    for (int a = 0; a < 3; a++)
        if (wraps(a))
            p[a] += p[a] < 0 ? n[a] : (p[a] >= d[a] ? -n[a] : 0);
    return foff(c) + (p.z * d.y + p.y) * d.x + p.x;
}

bool in_faces(int c, ivec3 p)
{
    return all(greaterThanEqual(p, ivec3(0))) && all(lessThan(p, fdim(c)));
}

// World position of face (c, p) and of cell p.
vec3 face_pos(int c, ivec3 p)
{
    vec3 x = (vec3(p) + 0.5) * pc.h;
    x[c] -= 0.5 * pc.h;
    return x;
}

vec3 cell_pos(ivec3 p)
{
    return (vec3(p) + 0.5) * pc.h;
}

// Side of the box a domain face (p[c] == 0 or n) lies on.
uint face_side(int c, ivec3 p)
{
    return uint(2 * c) + (p[c] == 0 ? 0u : 1u);
}

// Normal velocity an inflow side imposes (inward).
float inflow_normal(uint s)
{
    float v = inflow_speed(s);
    return (s & 1u) == 0u ? v : -v;
}

#ifdef G3_HAS_MASK
bool solid(ivec3 p)
{
    return mask[cidx(p)] != VF_G3_CELL_FLUID;
}

// 0: open face between two fluid cells; 1: on a side of the box; 2: touches a
// solid cell. A face on a periodic side lies between cell n - 1 and cell 0.
int face_kind(int c, ivec3 p)
{
    if ((p[c] == 0 || p[c] == N()[c]) && !wraps(c))
        return 1;
    ivec3 q = p;
    q[c] -= 1;
    return (solid(p) || solid(q)) ? 2 : 0;
}

// Pressure-operator weight of the face between fluid cell p and its
// neighbour across axis a in direction dir (-1, +1): 1 open, 0 closed (wall,
// inflow, solid), 2 outflow side (p = 0 half a cell outside).
float pweight(ivec3 p, int a, int dir)
{
    ivec3 q = p;
    q[a] += dir;
    if ((q[a] < 0 || q[a] >= N()[a]) && !wraps(a))
        return side_type(uint(2 * a) + (dir < 0 ? 0u : 1u)) == VF_G3_BC_OUTFLOW ? 2.0 : 0.0;
    return solid(q) ? 0.0 : 1.0;
}
#endif

// The trilinear interpolation of BUF at grid position g of an array of size
// d that starts at offset O (the body of the samplers below); lo/hi: the min
// and max of the 8 values used (limiter).
// On a periodic axis g lies in [0, n] (wrapped by g3_wrap_grid) and the
// upper neighbour n wraps to 0 (on the normal axis of a face array face n is
// face 0, kept equal).
#define G3_TRILINEAR(BUF, O)                                                    \
        ivec3 i0 = ivec3(floor(g)), nn = N();                                   \
        for (int a = 0; a < 3; a++)                                             \
            if (!wraps(a))                                                      \
                i0[a] = min(i0[a], d[a] - 2);                                   \
        vec3 f = g - vec3(i0);                                                  \
        int o = O;                                                              \
        float v[8];                                                             \
        for (int n = 0; n < 8; n++) {                                           \
            ivec3 q = i0 + ivec3(n & 1, (n >> 1) & 1, (n >> 2) & 1);            \
            for (int a = 0; a < 3; a++)                                         \
                if (wraps(a) && q[a] >= nn[a])                                  \
                    q[a] -= nn[a];                                              \
            v[n] = BUF[o + (q.z * d.y + q.y) * d.x + q.x];                      \
        }                                                                       \
        lo = min(min(min(v[0], v[1]), min(v[2], v[3])), min(min(v[4], v[5]), min(v[6], v[7]))); \
        hi = max(max(max(v[0], v[1]), max(v[2], v[3])), max(max(v[4], v[5]), max(v[6], v[7]))); \
        float x00 = mix(v[0], v[1], f.x), x10 = mix(v[2], v[3], f.x);          \
        float x01 = mix(v[4], v[5], f.x), x11 = mix(v[6], v[7], f.x);          \
        return mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);

// A grid position clamped to an array of size d, or wrapped into [0, n) on a
// periodic axis (the period n is the cell count; rounding may give n).
vec3 g3_wrap_grid(vec3 g, ivec3 d)
{
    ivec3 n = N();
    for (int a = 0; a < 3; a++)
        g[a] = wraps(a) ? mod(g[a], float(n[a])) : clamp(g[a], 0.0, float(d[a] - 1));
    return g;
}

// Trilinear sample of face component c of BUF at world position x (clamped
// to the array); lo/hi: the min and max of the 8 values used (limiter).
#define G3_FACE_SAMPLER(NAME, BUF)                                              \
    float NAME(int c, vec3 x, out float lo, out float hi)                       \
    {                                                                           \
        ivec3 d = fdim(c);                                                      \
        vec3 g = x / pc.h - 0.5;                                                \
        g[c] += 0.5;                                                            \
        g = g3_wrap_grid(g, d);                                                 \
        G3_TRILINEAR(BUF, foff(c))                                              \
    }

// Trilinear sample of cell channel ch (offset ch * ncells) of BUF.
#define G3_CELL_SAMPLER(NAME, BUF)                                              \
    float NAME(int ch, vec3 x, out float lo, out float hi)                      \
    {                                                                           \
        ivec3 d = N();                                                          \
        vec3 g = g3_wrap_grid(x / pc.h - 0.5, d);                               \
        G3_TRILINEAR(BUF, ch * ncells())                                        \
    }

// RK2 (midpoint) back-trace through the velocity sampled by SAMPLE.
#define G3_TRACE(SAMPLE)                                                        \
    vec3 vel_at(vec3 x)                                                         \
    {                                                                           \
        float lo, hi;                                                           \
        return vec3(SAMPLE(0, x, lo, hi), SAMPLE(1, x, lo, hi), SAMPLE(2, x, lo, hi)); \
    }                                                                           \
    vec3 trace(vec3 x, float dt)                                                \
    {                                                                           \
        vec3 k1 = vel_at(x);                                                    \
        vec3 k2 = vel_at(x - 0.5 * dt * k1);                                    \
        return x - dt * k2;                                                     \
    }
