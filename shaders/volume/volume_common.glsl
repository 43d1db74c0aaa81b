// volume_common.glsl: cell indexing and trilinear sampling of cell-centred
// fields for the volume renderer (include after VF_PUSH(vf_volume_push) and
// the scal / mask buffers). Mirrored by tests/ref/render_volume_ref.c.

ivec3 vdims()
{
    return ivec3(int(pc.nx), int(pc.ny), int(pc.nz));
}

// The cell size h (the light pass marches in steps of one cell).
float vh()
{
    return pc.light.w;
}

int vcells()
{
    return int(pc.nx * pc.ny * pc.nz);
}

int vidx(ivec3 p)
{
    return (p.z * int(pc.ny) + p.y) * int(pc.nx) + p.x;
}

bool vsolid_at(vec3 x)
{
    ivec3 p = clamp(ivec3(floor(x / vh())), ivec3(0), vdims() - 1);
    return mask[vidx(p)] != 0u;
}

#define VF_VOL_SAMPLER(NAME, BUF, OFFSET)                                       \
    float NAME(vec3 x)                                                          \
    {                                                                           \
        ivec3 d = vdims();                                                      \
        vec3 g = clamp(x / vh() - 0.5, vec3(0.0), vec3(d - 1));             \
        ivec3 i0 = min(ivec3(floor(g)), d - 2);                                 \
        vec3 f = g - vec3(i0);                                                  \
        int o = OFFSET;                                                         \
        float v[8];                                                             \
        for (int n = 0; n < 8; n++) {                                           \
            ivec3 q = i0 + ivec3(n & 1, (n >> 1) & 1, (n >> 2) & 1);            \
            v[n] = BUF[o + (q.z * d.y + q.y) * d.x + q.x];                      \
        }                                                                       \
        float x00 = mix(v[0], v[1], f.x), x10 = mix(v[2], v[3], f.x);          \
        float x01 = mix(v[4], v[5], f.x), x11 = mix(v[6], v[7], f.x);          \
        return mix(mix(x00, x10, f.y), mix(x01, x11, f.y), f.z);               \
    }
