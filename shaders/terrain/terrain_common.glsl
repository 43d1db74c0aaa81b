// terrain_common.glsl: helpers of the terrain_*.comp kernels. Their C
// mirrors are in tests/ref/solver_terrain_ref.c (same operations in the same
// order), which the tests compare against.

uint terrain_cell(uint i, uint j) { return j * pc.nx + i; }

// The velocity of a cell: momentum over depth, zero below the dry depth.
vec2 terrain_velocity(float h, vec2 m, float dry) { return h > dry ? m / h : vec2(0.0); }

// Water a face moves in quanta: the mass flux's magnitude times quanta (the
// push's scale), scaled by the donor's limit when it is below 1 (then a
// margin keeps the donor's faces together within what it holds). The one
// expression both cells of a face evaluate, so they agree to the quantum.
uint terrain_face_quanta(float flux, float quanta, float limit)
{
    float q = min(abs(flux) * quanta, 1.0e9);
    if (limit < 1.0)
        q = floor(q) * (limit * (1.0 - 1.0 / 1048576.0));
    return uint(q);
}
