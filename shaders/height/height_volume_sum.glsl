// height_volume_sum.glsl: the volume sum of the pass that ends a frame
// (height_explicit.comp, height_adi_y.comp, height_disturb.comp built with
// height_volume true; false leaves no barrier or shared memory in the
// pipeline). Each invocation passes the excess depth
// max(eta - bed, 0) - max(-bed, 0) (depth above the rest depth; small numbers,
// so fp32 sums stay accurate), the depth and the wet count of the cells it
// wrote. Then, with one workgroup barrier:
//   1. each workgroup sums its subgroups' sums into its partial;
//   2. the last workgroup to arrive of each block of VF_HEIGHT_VOLUME_BLOCK
//      (an atomic count in the block's entry) sums the block's partials;
//   3. the last block to arrive (the count in the result) sums the blocks'
//      entries, and computes the relative depth change that brings the
//      excess volume back to the target; height_frame_end.comp applies it.
// Steps 2 and 3 run on one subgroup and sum in a fixed order, so the result
// does not depend on which workgroup arrives last; the blocks keep each of
// those sums short on a large grid.
//
// Before including: VOL_WG (invocations per workgroup), VOL_BIND_PARTIAL
// and VOL_BIND_RESULT (binding slots). The partial buffer holds the
// workgroups' partials, then one entry per block.

#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(constant_id = VF_HEIGHT_SPEC_VOLUME) const bool height_volume = false;
// rows per invocation of the 2D passes that include this (explicit step, disturbances)
layout(constant_id = VF_HEIGHT_SPEC_ROWS) const uint height_rows = 1u;
layout(std430, binding = VOL_BIND_PARTIAL) coherent buffer VolPartial { vf_height_partial vol_partial[]; };
layout(std430, binding = VOL_BIND_RESULT) coherent buffer VolResult { vf_height_volume_result vol_result; };

shared float s_vol_e[VOL_WG]; // one entry per subgroup
shared float s_vol_d[VOL_WG];
shared uint s_vol_w[VOL_WG];

// The excess, depth and wet count of one cell's new height (solid cells: 0).
void height_volume_cell(float en, float b, uint f, inout float e, inout float d, inout uint w)
{
    if ((f & VF_HEIGHT_SOLID) != 0u)
        return;
    float depth = en - b;
    e += max(depth, 0.0) - max(-b, 0.0);
    d += max(depth, 0.0);
    w += depth > 0.0 ? 1u : 0u;
}

// The sum of vol_partial[base .. base + n), by the calling subgroup (all of
// its invocations active): lane-strided, then across the lanes.
vf_height_partial height_volume_entries(uint base, uint n)
{
    float e = 0.0, d = 0.0;
    uint w = 0u;
    for (uint k = gl_SubgroupInvocationID; k < n; k += gl_SubgroupSize) {
        vf_height_partial p = vol_partial[base + k];
        e += p.excess;
        d += p.depth;
        w += p.wet;
    }
    return vf_height_partial(subgroupAdd(e), subgroupAdd(d), subgroupAdd(w), 0u);
}

// Called by every invocation of the workgroup (uniform control flow) with
// its own sums; target is the wanted excess volume / dx^2.
void height_volume_sum(float e, float d, uint w, float target)
{
    e = subgroupAdd(e);
    d = subgroupAdd(d);
    w = subgroupAdd(w);
    if (subgroupElect()) {
        s_vol_e[gl_SubgroupID] = e;
        s_vol_d[gl_SubgroupID] = d;
        s_vol_w[gl_SubgroupID] = w;
    }
    barrier();
    if (gl_SubgroupID != 0u)
        return;
    // 1. the workgroup's partial
    e = 0.0;
    d = 0.0;
    w = 0u;
    for (uint k = gl_SubgroupInvocationID; k < gl_NumSubgroups; k += gl_SubgroupSize) {
        e += s_vol_e[k];
        d += s_vol_d[k];
        w += s_vol_w[k];
    }
    vf_height_partial mine = vf_height_partial(subgroupAdd(e), subgroupAdd(d), subgroupAdd(w), 0u);
    uint group = vf_group_linear();
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumWorkGroups.z;
    uint block = group / VF_HEIGHT_VOLUME_BLOCK;
    uint blocks = (groups + VF_HEIGHT_VOLUME_BLOCK - 1u) / VF_HEIGHT_VOLUME_BLOCK;
    uint in_block = min(VF_HEIGHT_VOLUME_BLOCK, groups - block * VF_HEIGHT_VOLUME_BLOCK);
    bool last = false;
    if (subgroupElect()) {
        vol_partial[group] = mine;
        memoryBarrierBuffer(); // the partial is visible before the count says so
        last = atomicAdd(vol_partial[groups + block].count, 1u) == in_block - 1u;
    }
    if (!subgroupAny(last))
        return;
    // 2. the block's entry (its count back to 0 for the next frame)
    memoryBarrierBuffer();
    vf_height_partial sum = height_volume_entries(block * VF_HEIGHT_VOLUME_BLOCK, in_block);
    last = false;
    if (subgroupElect()) {
        vol_partial[groups + block] = sum;
        memoryBarrierBuffer();
        last = atomicAdd(vol_result.arrived, 1u) == blocks - 1u;
    }
    if (!subgroupAny(last))
        return;
    // 3. the total and the correction
    memoryBarrierBuffer();
    sum = height_volume_entries(groups, blocks);
    if (subgroupElect()) {
        vol_result.excess = sum.excess;
        vol_result.depth = sum.depth;
        vol_result.wet = sum.wet;
        // relative depth change that restores the target (bounded: never
        // empties a cell; the error of the large depth sum only scales the
        // small correction)
        vol_result.scale = sum.depth > 0.0 ? clamp((target - sum.excess) / sum.depth, -0.5, 0.5) : 0.0;
        vol_result.corrections += 1u;
        vol_result.arrived = 0u; // ready for the next frame
    }
}
