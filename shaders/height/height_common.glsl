// height_common.glsl: helpers shared by the height_*.comp kernels. The C
// mirror of every function is in tests/ref/solver_height_ref.c (same operations in
// the same order), which the tests compare against.

// Uniform in [0, 1) from a seed and a counter (vf_hash: shared.h).
float vf_hash01(uint seed, uint k)
{
    return float(vf_hash(seed ^ vf_hash(k)) >> 8) * (1.0 / 16777216.0);
}

// Water depth a face carries: zero next to a solid cell, and where the higher
// bed of the two cells is above both surfaces (dry).
float height_face_depth(float e0, float b0, uint f0, float e1, float b1, uint f1)
{
    if (((f0 | f1) & VF_HEIGHT_SOLID) != 0u)
        return 0.0;
    return max(0.0, max(e0, e1) - max(b0, b1));
}

// How far a hull (an ellipse of half axes a, b, heading (c, s)) presses the
// surface down at p: draft * (1 - r^2)^2 inside, 0 outside.
float height_hull(vec2 p, float hx, float hy, float ha, float hb, float hc, float hs, float draft)
{
    float dx = p.x - hx, dy = p.y - hy;
    float u = (dx * hc + dy * hs) / ha;
    float v = (dy * hc - dx * hs) / hb;
    float r2 = u * u + v * v;
    if (r2 >= 1.0)
        return 0.0;
    float s = 1.0 - r2;
    return draft * s * s;
}

// Absorbing edges (first-order radiation condition deta/dt + c deta/dn = 0):
// a ghost cell outside each absorbing boundary face at eta - dx v / c turns
// the face into a damping of the velocity of height at rate c / dx, c =
// sqrt(g d) the local wave speed. Returns the number of absorbing boundary
// faces of cell (i, j) for the side mask (VF_HEIGHT_SIDE_*).
uint height_boundary_faces(uint i, uint j, uint nx, uint ny, uint sides)
{
    return ((i == 0u && (sides & VF_HEIGHT_SIDE_LEFT) != 0u) ? 1u : 0u) +
           ((i + 1u == nx && (sides & VF_HEIGHT_SIDE_RIGHT) != 0u) ? 1u : 0u) +
           ((j == 0u && (sides & VF_HEIGHT_SIDE_BOTTOM) != 0u) ? 1u : 0u) +
           ((j + 1u == ny && (sides & VF_HEIGHT_SIDE_TOP) != 0u) ? 1u : 0u);
}

// Crater with a rim, zero integral over the plane: exp(-r^2/s^2) - exp(-r^2/(4 s^2)) / 4.
float height_drop_shape(float r2, float sigma)
{
    float s2 = sigma * sigma;
    if (r2 >= 36.0 * s2)
        return 0.0;
    return exp(-r2 / s2) - 0.25 * exp(-r2 / (4.0 * s2));
}
