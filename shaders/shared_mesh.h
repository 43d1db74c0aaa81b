/* shared_mesh.h: the meshed-surface header shared by C and GLSL (marching cubes over
 * a density grid splatted from particles: shaders/sph/mesh_*.comp, src/sim/sph/sph_mesh.c,
 * src/render/render_ssf.c's mesh passes). Includes the common shared.h. */
#ifndef VF_SHARED_MESH_H
#define VF_SHARED_MESH_H

#include "shared.h"

#define VF_MESH_WG 64            /* workgroup size of every mesh compute pass */
#define VF_MESH_FIXED 1048576.0  /* density grid: fixed point, 2^20 units per unit of volume fraction */
#define VF_MESH_CASE_STRIDE 32   /* words per marching-cubes case in the table */
#define VF_MESH_CASE_TRIS 10     /* most triangles one case may hold (1 + 3 x 10 <= 32 words) */

/* Bindings of the compute passes. */
#define VF_MESH_BIND_DENSITY 0   /* uint fixed-point density per grid point */
#define VF_MESH_BIND_POS 1       /* mesh_splat: vec4 particle positions (read) */
#define VF_MESH_BIND_TABLE 1     /* classify, triangles: uint case table */
#define VF_MESH_BIND_TRIS 2      /* uint per cell: triangles, then (scanned) first triangle */
#define VF_MESH_BIND_EDGES 3     /* uint per grid edge (3 per point): crossed, then (scanned) vertex index */
#define VF_MESH_BIND_INDICES 4   /* mesh_triangles: uint vertex indices, 3 per triangle (write) */
#define VF_MESH_BIND_VERTICES 4  /* mesh_vertices: vec4 position, vec4 normal per vertex (write) */
#define VF_MESH_BIND_COUNTS 4    /* mesh_finish: uvec4 counts then VkDrawIndirectCommand (write) */
#define VF_MESH_DRAW_OFFSET 16   /* byte offset of the draw arguments in the counts buffer */

/* Render passes that draw the mesh (render_ssf.c): the frame block of the
 * screen-space passes at VF_SSF_BIND_FRAME, then these. */
#define VF_MESH_DRAW_BIND_VERTICES 1
#define VF_MESH_DRAW_BIND_INDICES 2
#define VF_MESH_DRAW_BIND_SCENE_DEPTH 3 /* thickness pass only */

/* Push constants of every mesh compute pass. The grid has nx x ny x nz
 * points at origin + cell * (i, j, k); its outermost layer of points reads
 * as empty, so the surface is closed. Vertices are clamped into [lo, hi]. */
VF_STRUCT_BEGIN(vf_mesh_push)
    VF_VEC4(origin);      /* xyz: point (0,0,0), w: cell size (m) */
    VF_VEC4(lo);          /* xyz: the tank's min corner; w: the kernel support radius (m) */
    VF_VEC4(hi);          /* xyz: the tank's max corner; w: particle volume x kernel normalisation x VF_MESH_FIXED */
    VF_UINT nx;
    VF_UINT ny;
    VF_UINT nz;
    VF_UINT count;        /* particles (splat) */
    VF_UINT iso;          /* fixed-point iso level: a point is inside when its density > iso */
    VF_UINT max_tris;     /* triangles the index buffer holds */
    VF_UINT max_verts;    /* vertices the vertex buffer holds */
    VF_UINT pad0;
VF_STRUCT_END(vf_mesh_push)
VF_STATIC_ASSERT(sizeof(vf_mesh_push) == 80, "vf_mesh_push must match std430")

#endif
