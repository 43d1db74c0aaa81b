/* shared_height.h: the height-field water family (solver_height, render_surface).
 * Includes the common shared.h; C and GLSL see the same bindings, workgroup
 * sizes and push-constant structs.
 *
 * State on the GPU (one float per cell, row-major, index j * nx + i):
 *   eta  surface elevation above the rest level `surface` (m)
 *   bed  bed elevation relative to the rest level (m; negative under water)
 *   flags  VF_HEIGHT_SOLID for obstacle cells
 * Depth is eta - bed. A face between two cells carries the depth
 * max(0, max(eta0, eta1) - max(bed0, bed1)) (zero next to a solid cell or the
 * domain edge), so dry cells (bed above the water) take part without flux. */
#ifndef VF_SHARED_HEIGHT_H
#define VF_SHARED_HEIGHT_H

#include "shared.h"

#define VF_HEIGHT_SOLID 1u

/* 2D kernels use VF_WG_2D_X x VF_WG_2D_Y; the ADI sweeps run one thread per
 * row (or column) in groups of VF_HEIGHT_SWEEP_WG; the frame's end
 * (height_frame_end.comp) VF_HEIGHT_END_WG threads, one per object or cell.
 * The volume sum of a frame's last pass reduces each workgroup's cells in
 * shared memory, so those sizes are powers of two. */
#define VF_HEIGHT_SWEEP_WG 64
#define VF_HEIGHT_END_WG 256
#define VF_HEIGHT_END_CPU_CELLS 64 /* cells each invocation of the frame's end corrects on a CPU device */
/* At most this many drops start in one substep. */
#define VF_HEIGHT_MAX_DROPS_PER_STEP 16u

/* step push flags */
#define VF_HEIGHT_STEP_HULL 1u       /* a boat hull presses on the surface */
#define VF_HEIGHT_STEP_PRES 4u       /* the pressure height pres[] acts as a potential (coupling=pressure) */
/* sides of the domain (radiate mask) */
#define VF_HEIGHT_SIDE_LEFT 1u       /* x = 0 */
#define VF_HEIGHT_SIDE_RIGHT 2u      /* x = nx dx */
#define VF_HEIGHT_SIDE_BOTTOM 4u     /* y = 0 */
#define VF_HEIGHT_SIDE_TOP 8u        /* y = ny dx */
/* disturb push flags */
#define VF_HEIGHT_DISTURB_PREV 1u    /* also shift eta_prev (ADI: no velocity kick) */
#define VF_HEIGHT_DISTURB_TRACK_P 2u /* a flow pressure is bound: keep pres[] = p / (rho g) (the pressure view) */
#define VF_HEIGHT_COUPLE_NONE 0u
#define VF_HEIGHT_COUPLE_PRESSURE 1u
#define VF_HEIGHT_COUPLE_DIVERGENCE 2u

/* ---- explicit step: eta_out = eta + dt * v', v' = (v + dt g L(eta - pot)) * damp */
#define VF_HEIGHT_EXPL_BIND_ETA 0     /* eta^n (read) */
#define VF_HEIGHT_EXPL_BIND_ETA_OUT 1 /* eta^(n+1) (write) */
#define VF_HEIGHT_EXPL_BIND_VEL 2     /* velocity of height (read-write, own cell) */
#define VF_HEIGHT_EXPL_BIND_BED 3
#define VF_HEIGHT_EXPL_BIND_FLAGS 4
#define VF_HEIGHT_EXPL_BIND_PRES 5    /* pressure height p/(rho g) of the flow (pot) */
#define VF_HEIGHT_EXPL_BIND_PARTIAL 6 /* volume sum: vf_height_partial per workgroup */
#define VF_HEIGHT_EXPL_BIND_RESULT 7  /* volume sum: vf_height_volume_result */

/* ---- ADI right-hand side */
#define VF_HEIGHT_RHS_BIND_ETA 0      /* eta^n */
#define VF_HEIGHT_RHS_BIND_PREV 1     /* eta^(n-1) */
#define VF_HEIGHT_RHS_BIND_OUT 2      /* right-hand side (write) */
#define VF_HEIGHT_RHS_BIND_BED 3
#define VF_HEIGHT_RHS_BIND_FLAGS 4
#define VF_HEIGHT_RHS_BIND_PRES 5

/* ---- ADI tridiagonal sweep (axis 0: rows, 1: columns) */
#define VF_HEIGHT_SWEEP_BIND_ETA 0    /* eta^n: face depths (frozen over the step) */
#define VF_HEIGHT_SWEEP_BIND_IN 1     /* right-hand side */
#define VF_HEIGHT_SWEEP_BIND_OUT 2    /* solution (write) */
#define VF_HEIGHT_SWEEP_BIND_SCRATCH 3/* modified super-diagonal c' */
#define VF_HEIGHT_SWEEP_BIND_BED 4
#define VF_HEIGHT_SWEEP_BIND_FLAGS 5
#define VF_HEIGHT_SWEEP_BIND_PARTIAL 6/* column sweep, volume sum */
#define VF_HEIGHT_SWEEP_BIND_RESULT 7

VF_STRUCT_BEGIN(vf_height_step_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT dx;         /* cell size (m) */
    VF_FLOAT g;          /* gravity (m/s^2) */
    VF_FLOAT dt;         /* substep (s) */
    VF_FLOAT damping;    /* velocity damping rate (1/s) */
    VF_FLOAT wa;         /* ADI weights of eta^(n+1), eta^n, eta^(n-1) (sum 1) */
    VF_FLOAT wb;
    VF_FLOAT wc;
    VF_UINT flags;       /* VF_HEIGHT_STEP_* */
    VF_FLOAT hull_x;     /* boat centre (m) */
    VF_FLOAT hull_y;
    VF_FLOAT hull_a;     /* half length (m) */
    VF_FLOAT hull_b;     /* half width (m) */
    VF_FLOAT hull_draft; /* depth the hull presses the surface down (m) */
    VF_FLOAT hull_cos;   /* heading */
    VF_FLOAT hull_sin;
    VF_UINT axis;        /* sweep axis */
    VF_UINT radiate;     /* absorbing sides (radiation condition deta/dt + c deta/dn = 0): VF_HEIGHT_SIDE_* bits */
    VF_FLOAT volume_target; /* the pipeline with the volume sum: wanted excess volume / dx^2 (m) */
VF_STRUCT_END(vf_height_step_push)
VF_STATIC_ASSERT(sizeof(vf_height_step_push) == 80, "vf_height_step_push must match std430")

/* ---- disturbances: drops and coupling to a 2D flow */
#define VF_HEIGHT_DIST_BIND_ETA 0
#define VF_HEIGHT_DIST_BIND_PREV 1
#define VF_HEIGHT_DIST_BIND_BED 2
#define VF_HEIGHT_DIST_BIND_FLAGS 3
#define VF_HEIGHT_DIST_BIND_PRES 4    /* pressure height p/(rho g) per cell (read-write) */
#define VF_HEIGHT_DIST_BIND_FLOW_P 5  /* flow pressure, flow_nx * flow_ny */
#define VF_HEIGHT_DIST_BIND_FLOW_DIV 6/* flow tentative-velocity divergence */
#define VF_HEIGHT_DIST_BIND_PARTIAL 7 /* volume sum */
#define VF_HEIGHT_DIST_BIND_RESULT 8

VF_STRUCT_BEGIN(vf_height_disturb_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT dx;
    VF_FLOAT dt;
    VF_UINT seed;
    VF_UINT drop_base;   /* global index of the first drop of this substep */
    VF_UINT drop_count;  /* drops starting in this substep */
    VF_UINT flags;       /* VF_HEIGHT_DISTURB_PREV */
    VF_FLOAT drop_sigma; /* drop radius (m) */
    VF_FLOAT drop_amp;   /* drop depth (m) */
    VF_UINT coupling;    /* VF_HEIGHT_COUPLE_* */
    VF_FLOAT strength;   /* divergence coupling s (m s) */
    VF_FLOAT inv_rho_g;  /* pressure buffer to metres: pressure_scale / (rho g) */
    VF_UINT flow_nx;     /* flow grid (covers the same domain) */
    VF_UINT flow_ny;
    VF_FLOAT div_scale;  /* the divergence buffer times this is delta / dt_flow (1/s^2) */
    VF_FLOAT user_x;     /* a drop from the viewer's pointer (m); user_amp 0 = none */
    VF_FLOAT user_y;
    VF_FLOAT user_amp;   /* crater depth (m); negative raises a bump */
    VF_UINT edge_cells;  /* divergence coupling: flow cells at the left and right ends left out (open ends) */
    VF_FLOAT user_sigma; /* the pointer's crater radius (m) */
    VF_FLOAT volume_target; /* as in vf_height_step_push */
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_height_disturb_push)
VF_STATIC_ASSERT(sizeof(vf_height_disturb_push) == 96, "vf_height_disturb_push must match std430")

/* ---- volume: the pass that ends a frame, built with the specialization
 * constant VF_HEIGHT_SPEC_VOLUME true (a pipeline variant: the other
 * substeps' passes carry no trace of it), also sums the excess depth of its
 * output (height_volume_sum.glsl): a partial per workgroup, an entry per
 * block of VF_HEIGHT_VOLUME_BLOCK workgroups, and the total in the result.
 * The frame's end (height_frame_end.comp) then scales the depth of wet cells. */
#define VF_HEIGHT_SPEC_VOLUME 0
#define VF_HEIGHT_VOLUME_BLOCK 256u
/* Consecutive rows each invocation of the explicit step and the disturbances
 * takes (a specialization constant; vf_height_desc.rows): the step reuses the
 * cells above and below a row from the rows before, and the summing variants
 * have fewer workgroups to sum. */
#define VF_HEIGHT_SPEC_ROWS 1
#define VF_HEIGHT_CPU_ROWS 8u /* on a CPU device */
VF_STRUCT_BEGIN(vf_height_partial)
    VF_FLOAT excess;     /* sum of depth - rest depth (m) over the workgroup's cells */
    VF_FLOAT depth;      /* sum of the depth of wet cells (m) */
    VF_UINT wet;         /* wet cells of the workgroup */
    VF_UINT count;       /* a block's entry: its workgroups done with the current sum (0 between sums) */
VF_STRUCT_END(vf_height_partial)

/* The correction moves each wet cell by scale * its depth (never below the
 * bed; a uniform shift where the depth is uniform). */
VF_STRUCT_BEGIN(vf_height_volume_result)
    VF_FLOAT excess;     /* total excess volume / dx^2 (m) before the correction */
    VF_FLOAT depth;      /* total depth of wet cells (m) */
    VF_UINT wet;         /* wet cells */
    VF_FLOAT scale;      /* relative depth change applied to wet cells */
    VF_UINT corrections; /* how many times the sum ran */
    VF_UINT arrived;     /* workgroups done with the current sum (0 between passes) */
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_height_volume_result)

/* ---- floating objects (leaves, ducks, the boat) */
#define VF_HEIGHT_OBJ_LEAF 0u
#define VF_HEIGHT_OBJ_DUCK 1u
#define VF_HEIGHT_OBJ_BOAT 2u
#define VF_HEIGHT_OBJ_DOZER 3u /* the terrain family's bulldozer */
/* The frame's end (height_frame_end.comp), one dispatch: the first
 * ceil(count / VF_HEIGHT_END_WG) workgroups move the objects on the frame's
 * surface (eta, read); with VF_HEIGHT_END_APPLY the others write the
 * volume-corrected surface to eta_out (which then becomes the current eta). */
#define VF_HEIGHT_END_BIND_ETA 0
#define VF_HEIGHT_END_BIND_BED 1
#define VF_HEIGHT_END_BIND_FLAGS 2
#define VF_HEIGHT_END_BIND_OBJECTS 3
#define VF_HEIGHT_END_BIND_FLOW_VEL 4 /* flow velocity: vec2 per flow cell, or the u faces (MAC) */
#define VF_HEIGHT_END_BIND_FLOW_V 5   /* MAC: the v faces */
#define VF_HEIGHT_END_BIND_ETA_OUT 6  /* the corrected eta (write) */
#define VF_HEIGHT_END_BIND_PREV 7     /* ADI: eta^(n-1), shifted with eta (read-write) */
#define VF_HEIGHT_END_BIND_RESULT 8   /* the volume sum (read) */
#define VF_HEIGHT_END_APPLY 1u        /* end flags: apply the volume correction */
#define VF_HEIGHT_END_PREV 2u         /* end flags: shift eta^(n-1) too (ADI: no velocity kick) */
#define VF_HEIGHT_FLOW_CELL 0u        /* velocity: (u, v) per cell, cell-centred */
#define VF_HEIGHT_FLOW_MAC 1u         /* u on x faces ((nx + 1) x ny), v on y faces (nx x (ny + 1)) */

VF_STRUCT_BEGIN(vf_height_object)
    VF_FLOAT x;          /* position (m) */
    VF_FLOAT y;
    VF_FLOAT z;          /* surface elevation at the object (m above rest) */
    VF_FLOAT heading;    /* radians, 0 = +x */
    VF_FLOAT vx;         /* velocity (m/s) */
    VF_FLOAT vy;
    VF_FLOAT size;       /* length (m) */
    VF_UINT kind;        /* VF_HEIGHT_OBJ_* */
VF_STRUCT_END(vf_height_object)

VF_STRUCT_BEGIN(vf_height_objects_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT dx;
    VF_FLOAT g;
    VF_FLOAT dt;         /* frame time (s) */
    VF_UINT count;
    VF_FLOAT tau;        /* drag relaxation time towards the flow (s) */
    VF_UINT flow;        /* 1: a flow velocity is bound */
    VF_UINT flow_nx;
    VF_UINT flow_ny;
    VF_FLOAT boat_x;     /* the boat (object 0 when boat != 0) follows its path */
    VF_FLOAT boat_y;
    VF_FLOAT boat_heading;
    VF_FLOAT boat_speed;
    VF_UINT boat;
    VF_FLOAT time;
    VF_UINT flow_layout; /* VF_HEIGHT_FLOW_CELL or VF_HEIGHT_FLOW_MAC */
    VF_FLOAT vel_scale;  /* flow velocity buffer to m/s */
    VF_UINT recycle;     /* 1: objects reaching the right end start again at the left */
    VF_UINT end_flags;   /* VF_HEIGHT_END_* (vf_height_objects_params leaves it 0) */
    VF_UINT end_cells;   /* with VF_HEIGHT_END_APPLY: cells per invocation, a workgroup's width apart */
    VF_UINT pad0;
    VF_UINT pad1;
    VF_UINT pad2;
VF_STRUCT_END(vf_height_objects_push)
VF_STATIC_ASSERT(sizeof(vf_height_objects_push) == 96, "vf_height_objects_push must match std430")

/* ---- advection of the surface state by the flow (height_advect.comp), once
 * per frame: semi-Lagrangian, bilinear over the wet cells */
#define VF_HEIGHT_ADV_BIND_ETA 0        /* eta in */
#define VF_HEIGHT_ADV_BIND_SECOND 1     /* the second state array in (explicit: velocity of height; adi: eta^(n-1)) */
#define VF_HEIGHT_ADV_BIND_ETA_OUT 2
#define VF_HEIGHT_ADV_BIND_SECOND_OUT 3
#define VF_HEIGHT_ADV_BIND_BED 4
#define VF_HEIGHT_ADV_BIND_FLAGS 5
#define VF_HEIGHT_ADV_BIND_FLOW_VEL 6   /* as VF_HEIGHT_END_BIND_FLOW_VEL */
#define VF_HEIGHT_ADV_BIND_FLOW_V 7     /* as VF_HEIGHT_END_BIND_FLOW_V */
#define VF_HEIGHT_ADV_BINDINGS 8

VF_STRUCT_BEGIN(vf_height_advect_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT dx;
    VF_FLOAT dt;         /* the time the state is carried for (s): one frame */
    VF_UINT flow_nx;
    VF_UINT flow_ny;
    VF_UINT flow_layout; /* VF_HEIGHT_FLOW_CELL or VF_HEIGHT_FLOW_MAC */
    VF_FLOAT vel_scale;  /* flow velocity buffer to m/s */
VF_STRUCT_END(vf_height_advect_push)
VF_STATIC_ASSERT(sizeof(vf_height_advect_push) == 32, "vf_height_advect_push must match std430")

/* ---- surface renderer (render_surface): one uniform block per frame */
#define VF_SURFACE_BIND_FRAME 0   /* vf_surface_frame (uniform) */
#define VF_SURFACE_BIND_ETA 1
#define VF_SURFACE_BIND_BED 2
#define VF_SURFACE_BIND_FLAGS 3
#define VF_SURFACE_BIND_OBJECTS 4
#define VF_SURFACE_BIND_PRES 5
#define VF_SURFACE_BIND_DYE_R 6   /* the flow's dye (flow_nx x flow_ny floats each); any buffer when flow_nx is 0 */
#define VF_SURFACE_BIND_DYE_G 7
#define VF_SURFACE_BIND_DYE_B 8
#define VF_SURFACE_BIND_CAUSTICS 9 /* floor caustics (render_caustics: uint per cell, VF_CAUSTICS_ONE = 1); any buffer when misc.z is 0 */

/* The water and bed meshes are drawn as indexed instanced draws: one instance
 * per row of quads, one index buffer holding a row of VF_SURFACE_MESH_MAX + 6
 * quads whose vertex (m, k) has index k VF_SURFACE_MESH_STRIDE + m, so a
 * vertex shared by neighbouring triangles of a row is shaded once. */
#define VF_SURFACE_MESH_MAX 256u
#define VF_SURFACE_MESH_STRIDE (VF_SURFACE_MESH_MAX + 7u)
#define VF_SURFACE_VIEW_3D 0u
#define VF_SURFACE_VIEW_HEIGHT 1u
#define VF_SURFACE_VIEW_PRESSURE 2u

VF_STRUCT_BEGIN(vf_surface_frame)
    VF_VEC4(view_proj[4]);     /* column-major */
    VF_VEC4(inv_view_proj[4]);
    VF_VEC4(eye);              /* xyz, w = simulated time (s) */
    VF_VEC4(sun);              /* xyz towards the sun, w = intensity */
    VF_VEC4(grid);             /* dx (m), rest surface z (m), 2D colour scale (m), largest rest depth (m) */
    VF_VEC4(water);            /* absorption per metre (rgb), refraction index */
    VF_VEC4(misc);             /* detail normal strength, rim height above rest (m), 1: floor caustics bound, 0 */
    VF_UINT nx;
    VF_UINT ny;
    VF_UINT mesh_x;            /* vertices of the drawn mesh along x and y */
    VF_UINT mesh_y;
    VF_UINT object_count;
    VF_UINT view;              /* VF_SURFACE_VIEW_* */
    VF_UINT width;             /* target size in pixels */
    VF_UINT height;
    VF_UINT flow_nx;           /* dye grid over the same domain; 0: no dye */
    VF_UINT flow_ny;
    VF_FLOAT dye_opacity;      /* how strongly dye tints the water, 0..1 */
    VF_UINT pad0;
VF_STRUCT_END(vf_surface_frame)
VF_STATIC_ASSERT(sizeof(vf_surface_frame) == 256, "vf_surface_frame must match std140")

/* ---- the surface renderer's compute path (render_surface_compute.c): the
 * corner pass (surface_corners.comp) computes each vertex of the raster
 * path's meshes once: the bed mesh's (mesh_x + 6) x (mesh_y + 6) vertices
 * with its rings, and for the inner mesh_x x mesh_y the water's vertex
 * attributes; the march pass (surface_march.comp) casts one ray per pixel
 * through the same triangles. Bindings 0..9 are the raster path's. */
#define VF_SURFACE_BIND_CORNERS 10 /* vf_surface_corner per bed-mesh vertex */
#define VF_SURFACE_BIND_BOUNDS 11  /* 3 uints: lowest and highest vertex height, highest inner one (order-preserving bits) */
#define VF_SURFACE_BIND_OUTPUT 12  /* rgba8 storage image: the target's UNORM alias or a copy source */
#define VF_SURFACE_BIND_BOXES 13   /* vf_surface_box: the floating objects' two boxes each (corner pass) */
#define VF_SURFACE_BIND_HITS 14    /* tests: per pixel vec4(ray direction, t), vec4(ray origin, hit kind); push.hits = 1 */
#define VF_SURFACE_BIND_TILES 15   /* per tile of VF_SURFACE_TILE^2 inner quads: its highest vertex (order-preserving bits) */
#define VF_SURFACE_TILE 8
#define VF_SURFACE_HIT_NONE 0u
#define VF_SURFACE_HIT_WATER 1u
#define VF_SURFACE_HIT_BED 2u
#define VF_SURFACE_HIT_OBJECT 3u
#define VF_SURFACE_WG 8u           /* march: 8 x 8 pixels per workgroup (2 x 2 quads for the derivatives) */
#define VF_SURFACE_WG_CORNERS 64u
#define VF_SURFACE_RING 3          /* bed-mesh rings around the domain (surface_bed.vert) */

VF_STRUCT_BEGIN(vf_surface_corner)
    VF_VEC4(water);  /* water height (m), depth (m), wet fraction, |grad eta| (inner vertices) */
    VF_VEC4(normal); /* the water's vertex normal (world xyz), w: bed height (m) */
    VF_VEC4(bed);    /* x: 1 solid (a wall or obstacle), 0 floor; yzw 0 */
VF_STRUCT_END(vf_surface_corner)
VF_STATIC_ASSERT(sizeof(vf_surface_corner) == 48, "vf_surface_corner must match std430")

/* A floating object's box as surface_objects.vert places it, in metres
 * (x, height, y): centre, its three axes with the half extents along them. */
VF_STRUCT_BEGIN(vf_surface_box)
    VF_VEC4(centre); /* xyz, w: bounding-sphere radius (0: no box) */
    VF_VEC4(fwd);    /* unit axis, w: half length */
    VF_VEC4(side);   /* unit axis, w: half width */
    VF_VEC4(up);     /* unit axis, w: half height */
    VF_VEC4(albedo); /* rgb */
VF_STRUCT_END(vf_surface_box)
VF_STATIC_ASSERT(sizeof(vf_surface_box) == 80, "vf_surface_box must match std430")

VF_STRUCT_BEGIN(vf_surface_cs_push)
    VF_UINT bgra;    /* 1: write B, G, R, A (a BGRA target through the copy) */
    VF_UINT encode_srgb; /* 1: the target is sRGB: write encoded bytes (the raster path's blend unit does) */
    VF_UINT boxes;   /* boxes the box buffer holds: 2 x the objects, at most its capacity */
    VF_UINT hits;    /* 1: the march also writes each pixel's ray and hit (VF_SURFACE_BIND_HITS) */
VF_STRUCT_END(vf_surface_cs_push)

/* ---- caustics on the floor (render_caustics): light refracted through the
 * height field's slopes, scattered as photons into a floor accumulator.
 * Each wet cell sends sub x sub photons (one per sub-cell centre, each
 * carrying 1 / sub^2 of the light falling on the cell); a photon travels the
 * cell's depth along the refracted sun ray and lands at its displacement from
 * where flat water would have sent it (so flat water gives 1 everywhere and
 * the rim's shadow is left out), mirrored back into the domain at its edges,
 * and adds its share bilinearly to the four cell centres around it in
 * fixed point (VF_CAUSTICS_ONE per unit intensity: integer atomics, so the
 * sum does not depend on order). Intensity = acc / VF_CAUSTICS_ONE: 1 under
 * flat water, above 1 where waves focus the light. */
#define VF_CAUSTICS_WG 64
#define VF_CAUSTICS_ONE 65536u
#define VF_CAUSTICS_MIN_DEPTH 1e-4
#define VF_CAUSTICS_BIND_ETA 0
#define VF_CAUSTICS_BIND_BED 1
#define VF_CAUSTICS_BIND_FLAGS 2
#define VF_CAUSTICS_BIND_ACC 3

VF_STRUCT_BEGIN(vf_caustics_push)
    VF_UINT nx;
    VF_UINT ny;
    VF_FLOAT dx;       /* cell size (m) */
    VF_UINT sub;       /* photons per cell side, 1..VF_CAUSTICS_MAX_SUB */
    VF_FLOAT light_x;  /* unit vector towards the sun, domain axes (x, y, z up) */
    VF_FLOAT light_y;
    VF_FLOAT light_z;
    VF_FLOAT ior;      /* refraction index of the water */
VF_STRUCT_END(vf_caustics_push)
VF_STATIC_ASSERT(sizeof(vf_caustics_push) == 32, "vf_caustics_push must match std430")
#define VF_CAUSTICS_MAX_SUB 4u

#endif
