// sph_common.glsl: what the sph_*.comp passes share (included after shared.h):
// the parameter block, the GPU counters, the particle index of a 1D
// dispatch, the cell of a position, the equation of state and the boundary
// collision. Mirrored on the CPU by tests/ref/solver_sph_ref.c.
#ifndef SPH_STATE_ACCESS
#define SPH_STATE_ACCESS readonly
#endif

// Neighbour reads through texel views (shared_sph.h, VF_SPH_SPEC_TEXEL).
#include "sph_texel.glsl"

layout(std140, binding = VF_SPH_BIND_PARAMS) uniform Params { vf_sph_params prm; };
layout(std430, binding = VF_SPH_BIND_STATE) SPH_STATE_ACCESS buffer State { vf_sph_state st; };

uint sph_index()
{
    return vf_group_linear() * VF_SPH_WG + gl_LocalInvocationID.x;
}

ivec3 sph_grid()
{
    return ivec3(int(prm.grid_x), int(prm.grid_y), int(prm.grid_z));
}

// Cell coordinates of a position, clamped to the grid (NaN goes to cell 0 so
// a broken particle never indexes out of bounds; the guards report it).
ivec3 sph_cell3(vec3 p)
{
    precise vec3 f = (p - prm.lo.xyz) * prm.inv_cell;
    ivec3 n = sph_grid();
    ivec3 c;
    for (int k = 0; k < 3; k++) {
        float v = f[k];
        if (!(v >= 0.0))
            v = 0.0;
        v = min(v, float(n[k] - 1));
        c[k] = int(v);
    }
    return c;
}

uint sph_cell_index(ivec3 c)
{
    return uint(c.x) + prm.grid_x * (uint(c.y) + prm.grid_y * uint(c.z));
}

float sph_pressure(float rho)
{
    float p;
    if (prm.eos == VF_SPH_EOS_TAIT) {
        float r = rho / prm.rho0;
        float r2 = r * r;
        p = prm.eos_b * (r2 * r2 * r2 * r - 1.0);
    } else {
        p = prm.eos_k * (rho - prm.rho0);
    }
    if (prm.clamp_pressure != 0u)
        p = max(p, 0.0);
    return p;
}

// Keeps a particle out of the obstacles and inside the walls, at least
// margin away from each surface: the position goes back to that distance
// and the normal velocity, when it points inwards, is reversed and scaled
// by the restitution (<= 1: never gains energy).
void sph_collide_margin(inout vec3 x, inout vec3 v, float margin)
{
    float e = prm.restitution;
    for (uint k = 0u; k < prm.sphere_count; k++) {
        vec4 s = prm.spheres[k];
        vec3 d = x - s.xyz;
        float d2 = dot(d, d), r = s.w + margin;
        if (d2 < r * r) {
            float len = sqrt(d2);
            vec3 n = len > 1e-6 * s.w ? d / len : vec3(0.0, 1.0, 0.0);
            x = s.xyz + n * r;
            float vn = dot(v, n);
            if (vn < 0.0)
                v -= (1.0 + e) * vn * n;
        }
    }
    for (uint k = 0u; k < prm.box_count; k++) {
        vec3 lo = prm.box_lo[k].xyz - margin, hi = prm.box_hi[k].xyz + margin;
        if (all(greaterThan(x, lo)) && all(lessThan(x, hi))) {
            vec3 dlo = x - lo, dhi = hi - x;
            int axis = 0;
            float best = dlo.x;
            bool upper = false;
            for (int a = 0; a < 3; a++) {
                if (dlo[a] < best) { best = dlo[a]; axis = a; upper = false; }
                if (dhi[a] < best) { best = dhi[a]; axis = a; upper = true; }
            }
            if (upper) {
                x[axis] = hi[axis];
                if (v[axis] < 0.0)
                    v[axis] = -e * v[axis];
            } else {
                x[axis] = lo[axis];
                if (v[axis] > 0.0)
                    v[axis] = -e * v[axis];
            }
        }
    }
    for (int a = 0; a < 3; a++) {
        if (x[a] < prm.lo[a] + margin) {
            x[a] = prm.lo[a] + margin;
            if (v[a] < 0.0)
                v[a] = -e * v[a];
        }
        if (x[a] > prm.hi[a] - margin) {
            x[a] = prm.hi[a] - margin;
            if (v[a] > 0.0)
                v[a] = -e * v[a];
        }
    }
}

void sph_collide(inout vec3 x, inout vec3 v)
{
    sph_collide_margin(x, v, 0.0);
}

// The margin the large-step methods keep particles off the surfaces at: a
// particle on a wall would see its own mirror image at its own position,
// where the image's gradient has no direction (rounding sets it), and
// could never move off its image's density.
float sph_wall_margin() { return 1e-3 * prm.h; }

// The large-step methods' viscosity (pbf_xsph, dfsph_predict): sph_forces'
// viscosity force over a step dt, v_i += g sum_j (1 - r/h) (v_j - v_i) / rho_j
// with g = dt mu m visc / rho_i, as one explicit update from the step's
// velocities. diag = sum_j (1 - r/h) / rho_j over the other particles and
// images: the gain is held to 1 / diag, so that a viscosity too large for
// the step (dt mu m visc diag / rho_i > 1) moves v_i at most to its
// neighbours' weighted mean instead of past it.
float sph_visc_gain(float dt, float rho_i, float diag)
{
    float g = dt * prm.viscosity * prm.mass * prm.visc / rho_i;
    return g * diag > 1.0 ? 1.0 / diag : g;
}

// The interactive force's acceleration at x: interact.xyz the point,
// interact.w the radius (0: off), strength the acceleration at the point
// (> 0 pushes away), fading linearly to 0 at the radius.
vec3 sph_interaction(vec3 x, vec4 interact, float strength)
{
    float radius = interact.w;
    if (radius > 0.0) {
        vec3 d = x - interact.xyz;
        float len = length(d);
        if (len < radius && len > 1e-6 * radius)
            return (strength * (1.0 - len / radius) / len) * d;
    }
    return vec3(0.0);
}

// The large-step methods' external accelerations: gravity, damping and the
// interactive force (interact, strength as sph_interaction).
vec3 sph_external(vec3 x, vec3 v, vec4 interact, float strength)
{
    return prm.gravity.xyz - prm.damping * v + sph_interaction(x, interact, strength);
}

// The cell a binning puts a position in: the extra bin prm.cells inside the
// sink (the scatter drops it), else its grid cell. sph_bin, sph_integrate and
// sph_forces_drift.
uint sph_bin_cell(vec3 x)
{
    if (prm.sink_enabled != 0u && all(greaterThanEqual(x, prm.sink_lo.xyz)) && all(lessThanEqual(x, prm.sink_hi.xyz)))
        return prm.cells;
    return sph_cell_index(sph_cell3(x));
}

// The leapfrog's closing half kick of one step (kick_dt), then the opening
// half kick and the drift of the next (dt), and the collisions. Returns the
// speed after the closing kick (the speed at the end of the step) as uint
// bits. sph_forces_drift, inside a frame (on the CPU: VF_SPH_INTEGRATE_KICK,
// then VF_SPH_INTEGRATE_DRIFT).
uint sph_kick_drift(inout vec3 x, inout vec3 v, vec3 a, float kick_dt, float dt)
{
    v += (0.5 * kick_dt) * a;
    uint speed_bits = floatBitsToUint(length(v));
    v += (0.5 * dt) * a;
    x += dt * v;
    sph_collide(x, v);
    return speed_bits;
}

// Walls by mirror particles: a particle closer than h to a tank wall sees,
// besides its neighbours, their mirror images across that wall (and across
// every combination of the walls it is near, for edges and corners), and
// across the surface of the nearest obstacle (its tangent plane). Images carry
// the density and pressure of their original and its velocity reflected
// (free slip) or reversed (no slip: prm.noslip). A lattice of fluid against a wall therefore continues
// seamlessly through it: no density deficit at walls, and the pressure of the
// images holds the fluid out (no penetration) with a symmetric pair force.
// Reflection never brings an image closer than its original, so the images
// that matter belong to the neighbours already within h.
struct sph_mirrors {
    uint axes;    // bit a: mirror across the wall plane[a] of axis a
    vec3 plane;
    bool obstacle; // mirror across the plane dot(n, x) = c
    vec3 n;
    float c;
};

sph_mirrors sph_mirrors_at(vec3 x)
{
    sph_mirrors m;
    m.axes = 0u;
    m.plane = vec3(0.0);
    float h = prm.h;
    for (int a = 0; a < 3; a++) {
        float dlo = x[a] - prm.lo[a], dhi = prm.hi[a] - x[a];
        if (dlo < h && dlo <= dhi) {
            m.axes |= 1u << uint(a);
            m.plane[a] = prm.lo[a];
        } else if (dhi < h) {
            m.axes |= 1u << uint(a);
            m.plane[a] = prm.hi[a];
        }
    }
    m.obstacle = false;
    m.n = vec3(0.0, 1.0, 0.0);
    m.c = 0.0;
    float best = h;
    for (uint k = 0u; k < prm.sphere_count; k++) {
        vec4 s = prm.spheres[k];
        vec3 d = x - s.xyz;
        float len = length(d);
        if (len - s.w < best && len > 1e-6 * s.w) {
            best = max(len - s.w, 0.0);
            m.obstacle = true;
            m.n = d / len;
            m.c = dot(m.n, s.xyz) + s.w;
        }
    }
    for (uint k = 0u; k < prm.box_count; k++) {
        vec3 q = clamp(x, prm.box_lo[k].xyz, prm.box_hi[k].xyz);
        vec3 d = x - q;
        float len = length(d);
        if (len < best && len > 0.0) {
            best = len;
            m.obstacle = true;
            m.n = d / len;
            m.c = dot(m.n, q);
        }
    }
    return m;
}

// Whether a particle with mirrors m sees mirror images (near a wall or an
// obstacle).
bool sph_has_images(sph_mirrors m) { return m.axes != 0u || m.obstacle; }

vec3 sph_mirror_axes(vec3 x, uint mask, vec3 plane)
{
    for (int a = 0; a < 3; a++)
        if ((mask & (1u << uint(a))) != 0u)
            x[a] = 2.0 * plane[a] - x[a];
    return x;
}

vec3 sph_mirror_plane(vec3 x, vec3 n, float c)
{
    return x - (2.0 * (dot(n, x) - c)) * n;
}

// The neighbour rows: the density and force loops visit the rows (y, z) of
// cells within VF_SPH_CELL_DIV of a particle's cell, and of each row only the
// cells that can hold a particle closer than h. sph_rows_at gives the
// particle's position in cell units, clamped to the grid as sph_cell3 clamps
// (clamping never brings two points closer, so a neighbour's clamped
// coordinate lies in its cell and within h of this one). sph_row_range gives
// the x-range [x0, x1] of cells of row (y, z) within h (with a margin of
// 0.1 % for rounding), inside [c.x - VF_SPH_CELL_DIV, c.x + VF_SPH_CELL_DIV];
// false when the whole row is farther than h. Only candidates farther than h
// are skipped, so the neighbours and the order of their sums are the same as
// over the whole rows.
vec3 sph_rows_at(vec3 x)
{
    precise vec3 f = (x - prm.lo.xyz) * prm.inv_cell;
    vec3 n = vec3(sph_grid());
    for (int k = 0; k < 3; k++)
        f[k] = f[k] >= 0.0 ? min(f[k], n[k]) : 0.0; // NaN to 0 as in sph_cell3
    return f;
}

float sph_row_gap(float f, int cell)
{
    return max(0.0, max(float(cell) - f, f - float(cell + 1)));
}

// What the row functions read of the parameters, read once by sph_rows_of
// before the loops and passed to them. A device that cannot keep a uniform
// value in a register across the loop's texel reads (opaque calls on
// llvmpipe) otherwise reads it again on every row, one lane at a time.
struct sph_rows {
    float reach2; // (h / cell)^2, with the margin of 0.1 %
    uint gx, gy;  // prm.grid_x, prm.grid_y
};

sph_rows sph_rows_of()
{
    sph_rows g;
    float hc = prm.h * prm.inv_cell;
    g.reach2 = hc * hc * 1.001;
    g.gx = prm.grid_x;
    g.gy = prm.grid_y;
    return g;
}

bool sph_row_range(sph_rows g, vec3 f, ivec3 c, int y, int z, out int x0, out int x1)
{
    float gy = sph_row_gap(f.y, y), gz = sph_row_gap(f.z, z);
    float rem = g.reach2 - gy * gy - gz * gz;
    x0 = max(c.x - VF_SPH_CELL_DIV, 0);
    x1 = min(c.x + VF_SPH_CELL_DIV, int(g.gx) - 1);
    if (!(rem > 0.0))
        return false;
    // the cells c.x - k and c.x + k (k = 1 .. VF_SPH_CELL_DIV) within sqrt(rem)
    // of f.x, compared squared (no square root or floor); c.x itself is
    // within it unless f.x lies outside the grid (around an image)
    float fr = f.x - float(c.x); // in [0, 1] inside the grid
    float g0 = max(0.0, max(-fr, fr - 1.0));
    int kl = 0, kr = 0;
    for (int k = 1; k <= VF_SPH_CELL_DIV; k++) {
        float gl = fr + float(k - 1), gr = float(k) - fr;
        kl += gl * gl < rem ? 1 : 0;
        kr += gr * gr < rem ? 1 : 0;
    }
    x0 = max(x0, c.x - kl);
    x1 = min(x1, c.x + kr);
    return g0 * g0 < rem && x0 <= x1;
}

// The rows (y, z) of cells around a particle's cell c (or an image's), as
// two loops over the bounds of sph_row_bounds (z outer, y inner):
//     ivec2 lo, hi;
//     sph_row_bounds(c, f, lo, hi);
//     for (int z = lo.y; z <= hi.y; z++)
//         for (int y = lo.x; y <= hi.x; y++) { sph_row_candidates_at(g, y, z, c, f, b, e); ... }
// sph_row_candidates_at gives row (y, z)'s candidates [b, e) in cell order
// (sph_row_range's cells of the row within h; empty where the row is farther
// than h). The shader defines start_at, its read of the cell starts.
uint start_at(uint k);

void sph_row_candidates_at(sph_rows g, int y, int z, ivec3 c, vec3 f, out uint b, out uint e)
{
    int x0, x1;
    b = 0u;
    e = 0u;
    if (!sph_row_range(g, f, c, y, z, x0, x1)) // (y, z) lies in the grid: sph_row_bounds
        return;
    uint row = g.gx * (uint(y) + g.gy * uint(z));
    b = start_at(row + uint(x0));
    e = start_at(row + uint(x1) + 1u);
}

// The rows (y, z) that sph_row_candidates_at can find candidates in, as the
// bounds lo <= (y, z) <= hi: within VF_SPH_CELL_DIV of c, inside the grid,
// and not farther than h from f along y or z alone (with a margin above
// sph_row_range's, so every row left out is one it rejects, and the sums
// keep their order). Around a mirror image outside the tank this leaves the
// rows of the cap only: across the floor or a z wall one or two rows of five
// instead of all five. A device that runs every lane through the longest
// loop (llvmpipe) otherwise paid the setup of 25 rows for every image set.
void sph_row_bounds(ivec3 c, vec3 f, out ivec2 lo, out ivec2 hi)
{
    float hc = prm.h * prm.inv_cell * 1.001;
    lo = max(max(c.yz - VF_SPH_CELL_DIV, ivec2(0)), ivec2(floor(f.yz - hc)));
    hi = min(min(c.yz + VF_SPH_CELL_DIV, ivec2(int(prm.grid_y), int(prm.grid_z)) - 1), ivec2(floor(f.yz + hc)));
}

// The rows of a particle's own neighbourhood as one loop of a fixed count:
//     for (int r = 0; r < SPH_ROWS; r++) { sph_row_candidates_of(g, r, c, f, lo, hi, b, e); ... }
// row r of the (2 VF_SPH_CELL_DIV + 1)^2 around c, z outer and y inner (the
// order of the two loops above), empty outside sph_row_bounds' lo..hi. Every
// invocation runs the same count, which costs llvmpipe less than two nested
// loops with bounds of their own (forces 4.5 %, density 2 % less a substep).
const int SPH_ROW_SPAN = 2 * VF_SPH_CELL_DIV + 1;
const int SPH_ROWS = SPH_ROW_SPAN * SPH_ROW_SPAN;

void sph_row_candidates_of(sph_rows g, int r, ivec3 c, vec3 f, ivec2 lo, ivec2 hi, out uint b, out uint e)
{
    ivec2 yz = c.yz - VF_SPH_CELL_DIV + ivec2(r % SPH_ROW_SPAN, r / SPH_ROW_SPAN);
    b = 0u;
    e = 0u;
    if (all(greaterThanEqual(yz, lo)) && all(lessThanEqual(yz, hi)))
        sph_row_candidates_at(g, yz.x, yz.y, c, f, b, e);
}

// The mirror images (sph_mirrors) of the neighbours within h of x, by image
// set: the images across the walls of axes mask (mask != 0), or across the
// obstacle's plane (mask == 0). The images within h of x are the images of
// the particles within h of x's own image, so a set's loop visits the rows
// around that image: only the cap of the fluid within h of it (about a fifth
// of the neighbourhood on average), where one loop over the neighbours with
// every image of each would visit all of them for each image set.
vec3 sph_mirror(vec3 x, uint mask, sph_mirrors m, bool velocity)
{
    if (velocity && prm.noslip != 0u)
        return -x; // no-slip walls at rest: the image moves against its original
    return mask != 0u ? sph_mirror_axes(x, mask, velocity ? vec3(0.0) : m.plane)
                      : sph_mirror_plane(x, m.n, velocity ? 0.0 : m.c);
}

// The reflection of a direction (a gradient) by the image set mask of m:
// how an image's offset turns when its original moves.
vec3 sph_reflect(vec3 v, uint mask, sph_mirrors m)
{
    return mask != 0u ? sph_mirror_axes(v, mask, vec3(0.0)) : sph_mirror_plane(v, m.n, 0.0);
}

// The image sets of m, one after the other: start with set = m.axes and
// obstacle = m.obstacle; sph_next_image_set gives the next set's mask (see
// sph_mirror) and false when there is none left.
bool sph_next_image_set(sph_mirrors m, inout uint set, inout bool obstacle, out uint mask)
{
    mask = set;
    if (set != 0u) {
        set = (set - 1u) & m.axes;
        return true;
    }
    bool more = obstacle;
    obstacle = false;
    return more;
}

// As sph_rows_at for a position that may lie outside the tank (an image):
// the rows' distances are measured from the point itself, not clamped.
vec3 sph_rows_at_image(vec3 x)
{
    return (x - prm.lo.xyz) * prm.inv_cell;
}

// The neighbour bits (shared_sph.h, VF_SPH_MASK_WORDS, 5 to 8): a bit
// stream in two uvec4 (words 0-3 and 4-7; the words past the count are not
// stored), candidate p of the stream at bit p & 31 of word
// p >> 5. sph_mask_push adds a row's len bits at position p (bits above len
// clear; what lies past the last word is dropped) and moves p on, through
// a pending word acc (the stream's bits from p & ~31 on, 0 at p = 0):
// a word is written once, when it is full, and sph_mask_flush writes the
// last one (every word tested for every row cost the density pass 1.5 %).
// sph_mask_bits reads len (<= 32) bits from position p, every bit past the
// last word set.
uint sph_mask_word(uvec4 m0, uvec4 m1, uint w)
{
    return w < 4u ? m0[w & 3u] : (w < VF_SPH_MASK_WORDS ? m1[w & 3u] : ~0u);
}

// Word w of the stream (none for w >= 8) set to word.
void sph_mask_set(inout uvec4 m0, inout uvec4 m1, uint w, uint word)
{
    uvec4 k = uvec4(0u, 1u, 2u, 3u);
    m0 = mix(m0, uvec4(word), equal(k, uvec4(w)));
    m1 = mix(m1, uvec4(word), equal(k + 4u, uvec4(w)));
}

void sph_mask_push(inout uvec4 m0, inout uvec4 m1, inout uint acc, inout uint p, uint bits, uint len)
{
    uint sh = p & 31u;
    acc |= bits << sh;
    bool full = sh + len >= 32u;
    sph_mask_set(m0, m1, full ? p >> 5u : 8u, acc);
    acc = full ? (bits >> 1u) >> (31u - sh) : acc; // the bits past the full word
    p += len;
}

void sph_mask_flush(inout uvec4 m0, inout uvec4 m1, uint acc, uint p)
{
    sph_mask_set(m0, m1, p >> 5u, acc);
}

uint sph_mask_bits(uvec4 m0, uvec4 m1, uint p, uint len)
{
    uint w = p >> 5u, sh = p & 31u;
    uint bits = (sph_mask_word(m0, m1, w) >> sh) | ((sph_mask_word(m0, m1, w + 1u) << 1u) << (31u - sh));
    return len < 32u ? bits & ((1u << len) - 1u) : bits;
}

// Reads particle i's neighbour bits (VF_SPH_MASK_WORDS words, written by a
// density pass) into m0, m1: from the texel view TEX where sph_texel, else
// from the storage buffer BUF.
#define SPH_READ_BITS(i_, TEX, BUF, m0_, m1_)                                                                         \
    {                                                                                                                  \
        m0_ = uvec4(0u);                                                                                               \
        m1_ = uvec4(0u);                                                                                               \
        for (uint k_ = 0u; k_ < VF_SPH_MASK_WORDS; k_ += 2u) {                                                         \
            uint word_ = VF_SPH_MASK_WORDS * (i_) + k_;                                                                \
            uvec2 w_ = sph_texel ? texelFetch(TEX, int(word_ / 2u)).xy : uvec2(BUF[word_], BUF[word_ + 1u]);           \
            if (k_ < 4u) {                                                                                             \
                m0_[k_] = w_.x;                                                                                        \
                m0_[k_ + 1u] = w_.y;                                                                                   \
            } else {                                                                                                   \
                m1_[k_ & 3u] = w_.x;                                                                                   \
                m1_[(k_ + 1u) & 3u] = w_.y;                                                                            \
            }                                                                                                          \
        }                                                                                                              \
    }

// The end of a pass that moves particle i to x with speed bits speed_bits_
// (floatBitsToUint of its speed): where BIN holds its new cell and its slot
// there (cell, slot, counts), and the substep's largest speed into st's word
// of this parity (VF_SPH_DRIFT_ODD): no barrier, and an atomic only above
// the other word.
#define SPH_DRIFT_END(BIN, x_, i_, speed_bits_)                                                                       \
    {                                                                                                                  \
        if (BIN) {                                                                                                     \
            uint c_ = sph_bin_cell(x_);                                                                                \
            cell[i_] = c_;                                                                                             \
            slot[i_] = atomicAdd(counts[c_], 1u);                                                                      \
        }                                                                                                              \
        if ((pc.flags & VF_SPH_DRIFT_ODD) != 0u) {                                                                     \
            if ((speed_bits_) > st.max_speed_bits)                                                                     \
                atomicMax(st.max_speed_bits_odd, speed_bits_);                                                         \
        } else if ((speed_bits_) > st.max_speed_bits_odd) {                                                            \
            atomicMax(st.max_speed_bits, speed_bits_);                                                                 \
        }                                                                                                              \
    }

// The candidates of a particle at x0 (the rows of its cell, as the loop that
// wrote its neighbour bits m0, m1 walked them) whose bit is set, a slab of
// rows of equal z at a time (as sph_forces): VISIT for each, the candidate in
// `j`. The candidates the bits do not cover (past the 32nd of a row, past the
// last word) are visited where CHECK (an expression of j) holds.
#define SPH_FOR_MARKED(x0_, m0_, m1_, CHECK, VISIT)                                                                    \
    {                                                                                                                  \
        ivec3 c_ = sph_cell3(x0_);                                                                                     \
        vec3 f_ = sph_rows_at(x0_);                                                                                    \
        ivec2 lo_, hi_;                                                                                                \
        sph_row_bounds(c_, f_, lo_, hi_);                                                                              \
        sph_rows g_ = sph_rows_of();                                                                                   \
        uint at_ = 0u;                                                                                                 \
        const uint limit_ = 32u * VF_SPH_MASK_WORDS;                                                                   \
        for (int zs_ = 0; zs_ < SPH_ROW_SPAN; zs_++) {                                                                 \
            uint rb_[SPH_ROW_SPAN], re_[SPH_ROW_SPAN], rw_[SPH_ROW_SPAN], rr_[SPH_ROW_SPAN], rs_[SPH_ROW_SPAN];        \
            for (int k_ = 0; k_ < SPH_ROW_SPAN; k_++) {                                                                \
                uint b_, e_;                                                                                           \
                sph_row_candidates_of(g_, zs_ * SPH_ROW_SPAN + k_, c_, f_, lo_, hi_, b_, e_);                          \
                uint len_ = min(e_ - b_, 32u);                                                                         \
                rw_[k_] = sph_mask_bits(m0_, m1_, at_, len_);                                                          \
                /* the bits that lie in the stored words */                                                           \
                rs_[k_] = at_ >= limit_ ? 0u : (limit_ - at_ >= 32u ? ~0u : (1u << (limit_ - at_)) - 1u);              \
                at_ += len_;                                                                                           \
                rb_[k_] = b_;                                                                                          \
                re_[k_] = e_;                                                                                          \
                rr_[k_] = b_ + 32u;                                                                                    \
            }                                                                                                          \
            for (;;) {                                                                                                 \
                bool found_ = false, sure_ = true;                                                                     \
                uint j = 0u;                                                                                           \
                for (int k_ = 0; k_ < SPH_ROW_SPAN; k_++) {                                                            \
                    bool bit_ = !found_ && rw_[k_] != 0u;                                                              \
                    int lsb_ = findLSB(rw_[k_]);                                                                       \
                    j = bit_ ? rb_[k_] + uint(lsb_) : j;                                                               \
                    sure_ = bit_ ? ((rs_[k_] >> uint(max(lsb_, 0))) & 1u) != 0u : sure_;                               \
                    rw_[k_] &= bit_ ? rw_[k_] - 1u : ~0u;                                                              \
                    found_ = found_ || bit_;                                                                           \
                }                                                                                                      \
                if (!found_)                                                                                           \
                    break;                                                                                             \
                if (sure_ || (CHECK)) {                                                                                \
                    VISIT                                                                                              \
                }                                                                                                      \
            }                                                                                                          \
            for (;;) {                                                                                                 \
                bool found_ = false;                                                                                   \
                uint j = 0u;                                                                                           \
                for (int k_ = 0; k_ < SPH_ROW_SPAN; k_++) {                                                            \
                    bool rest_ = !found_ && rr_[k_] < re_[k_];                                                         \
                    j = rest_ ? rr_[k_] : j;                                                                           \
                    rr_[k_] += rest_ ? 1u : 0u;                                                                        \
                    found_ = found_ || rest_;                                                                          \
                }                                                                                                      \
                if (!found_)                                                                                           \
                    break;                                                                                             \
                if (CHECK) {                                                                                           \
                    VISIT                                                                                              \
                }                                                                                                      \
            }                                                                                                          \
        }                                                                                                              \
    }

// The mirror images of a pair near walls and obstacles: a particle within h
// of a wall or an obstacle (sph_mirrors of its position) sees the images of
// each of its pairs within h of it, across every image set (sph_density's
// images), taken in the pair's own visit: SPH_FOR_IMAGE_SETS(m, VISIT_IMAGE)
// calls VISIT_IMAGE for each set (its mask in `mask`; sph_mirror(x, mask, m, ...)).
#define SPH_FOR_IMAGE_SETS(pm_, VISIT_IMAGE)                                                                           \
    {                                                                                                                  \
        uint set_ = pm_.axes, mask;                                                                                    \
        bool obstacle_ = pm_.obstacle;                                                                                 \
        while (sph_next_image_set(pm_, set_, obstacle_, mask)) {                                                      \
            VISIT_IMAGE                                                                                                \
        }                                                                                                              \
    }
