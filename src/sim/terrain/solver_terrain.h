/* solver_terrain: water over a changing terrain on the GPU (the shallow-water
 * equations, finite volumes, fp32 with the depth in integer quanta).
 *
 * An nx x ny grid of square cells of side dx holds the ground elevation, the
 * water depth and its momentum (h u, h v). Every substep computes the flux
 * through each cell face by HLL with the hydrostatic reconstruction of
 * Audusse et al. (2004) (a lake at rest over any ground stays at rest, dry
 * cells need nothing special), limits what each cell sends to what it holds
 * (no negative depths), and moves the water in whole quanta of
 * VF_TERRAIN_QUANTUM metres, each face's amount computed once: the total
 * volume changes only by the sources, rain and drains, and exactly by what
 * they add and take. Bed friction by Manning's formula.
 *
 * The ground: flat, hills, a valley with a dam (generated, from seed), or a
 * heightmap given by the caller (a scene file's 16-bit PNG or raw floats).
 * It changes while the water runs: a scripted bulldozer cuts a path down to
 * a level from a set time (the terrain scene breaches its dam), the
 * viewer's pointer digs (left) or raises (right) the ground under it, and
 * soil steeper than its angle of repose slips to the lower neighbour (a
 * talus model); the water keeps its depth and follows the new ground.
 * A source and a drain (discs of cells with a rate in m^3/s; the update
 * pass takes up to VF_TERRAIN_MAX_SOURCES and VF_TERRAIN_MAX_DRAINS) and
 * rain (mm/h) anywhere.
 *
 * Scenes: terrain (scenes_terrain.c). Drawn by render_surface over the
 * shaded ground. */
#ifndef VF_SOLVER_TERRAIN_H
#define VF_SOLVER_TERRAIN_H

#include <stdbool.h>

#include "gpu_buffer.h"
#include "shared_terrain.h"
#include "solver.h"

/* The generated grounds (a caller's heightmap replaces them). */
#define VF_TERRAIN_GROUND_LIST(X)                                                                                      \
    X(VF_TERRAIN_GROUND_FLAT, "flat") X(VF_TERRAIN_GROUND_HILLS, "hills") X(VF_TERRAIN_GROUND_VALLEY, "valley")
enum { VF_TERRAIN_GROUND_LIST(VF_CHOICE_ENUM) };

/** A source or drain: a disc of cells and its rate. */
typedef struct vf_terrain_spot {
    double x, y;   /* centre (fractions of the domain's sides) */
    double radius; /* m (at least the cell holding the centre) */
    double rate;   /* m^3/s: added (source) or at most taken (drain); 0: none */
} vf_terrain_spot;

/** Every key of the terrain family (the param table stores into this). */
typedef struct vf_terrain_desc {
    int nx, ny;             /* cells */
    double dx;              /* cell size (m) */
    double g;               /* gravity (m/s^2) */
    int ground;             /* VF_TERRAIN_GROUND_* */
    double relief;          /* hills: their height; valley: the walls' height (m) */
    double slope;           /* valley: fall of its floor along x (m/m) */
    int seed;               /* hills and the valley's small bumps */
    bool dam;               /* valley: a dam across it */
    double dam_x;           /* its crest's place (fraction of x) */
    double dam_height;      /* above the valley floor (m) */
    double dam_crest;       /* crest width (m); faces at 1:2 */
    double water_level;     /* the initial lake's surface elevation (m) ... */
    double water_x0, water_x1; /* ... over this range of x (fractions); none when x1 <= x0 */
    double rain;            /* mm/h on every cell */
    vf_terrain_spot source; /* the key-given source ... */
    vf_terrain_spot drain;  /* ... and drain */
    double manning;         /* Manning's n (s/m^(1/3)); 0: no friction */
    double repose;          /* angle of repose (degrees); 90: no slippage */
    double slip_rate;       /* fraction of a slope's excess that slips per second */
    bool dozer;             /* a bulldozer cuts a path ... */
    double dozer_time;      /* ... starting then (s) */
    double dozer_speed;     /* m/s */
    double dozer_x0, dozer_y0, dozer_x1, dozer_y1; /* from, to (fractions) */
    double dozer_width;     /* its blade (m) */
    double dozer_level;     /* the ground is cut down to this elevation (m) */
    double brush_radius;    /* the pointer's dig/raise tool (m) */
    double brush_rate;      /* m/s at its centre */
    double cfl;             /* automatic dt: cfl dx / (2 sqrt(g H)), H the largest depth or relief */
    double dt;              /* substep (s); 0: automatic */
    double frame_dt;        /* simulated time per frame (s) */
    double dry_depth;       /* below this depth (m) water has no velocity */
    /* Not keys: given by the caller (a scene file), each may be NULL/0. Read
     * only while validate or create runs (create keeps no pointer). */
    const float *heightmap; /* nx*ny ground elevations (m), row-major from y = 0; replaces `ground` */
} vf_terrain_desc;

/** The parameter table of the terrain family. */
#define VF_TERRAIN_PARAM_COUNT 42
extern const vf_param_def vf_terrain_params[VF_TERRAIN_PARAM_COUNT];
extern const size_t vf_terrain_param_count;

/** Fills desc with the table defaults (no heightmap, no extra spots). */
void vf_terrain_desc_defaults(vf_terrain_desc *desc);

/** Cross-key checks: sizes, water within the quanta's range, the substep
 * (stability, count per frame), the source and drain inside the domain, the
 * bulldozer's path. One-line reason in err (cap bytes) starting with the key,
 * and that key in *key (key may be NULL). The one check of a desc's values:
 * vf_terrain_create does not repeat it. */
vf_result vf_terrain_validate(const vf_terrain_desc *desc, const char **key, char *err, size_t cap);

/** Creates the solver. desc's values must come validated: create checks
 * only what needs the device (the face fields within
 * maxStorageBufferRange, every buffer within its memory), so a desc that did
 * not pass vf_terrain_validate (the scenes run it while validating) is
 * undefined. On success *out owns every GPU buffer; destroy with
 * vf_solver_destroy. err gets a one-line reason for VF_ERR_TOO_LARGE naming
 * nx (may be NULL when cap is 0), and *key (key may be NULL) that key. */
vf_result vf_terrain_create(vf_gpu *gpu, const vf_terrain_desc *desc, vf_solver **out, const char **key, char *err,
                            size_t cap);

/** The terrain family for vf_solver_create (desc: a vf_terrain_desc). */
extern const vf_solver_family vf_terrain_family;

/** True when s is a terrain-family solver. */
bool vf_terrain_is(const vf_solver *s);

/** What renderers and tests read: the solver's live buffers (owned by the
 * solver; the ground's buffer changes with the slippage, so query it when
 * recording). Elevations are metres above the datum (the lowest ground at
 * the start): add datum for the scene's elevations. */
typedef struct vf_terrain_state {
    vf_buffer *eta;       /* ground + water depth (m), nx*ny floats (written by every substep) */
    vf_buffer *bed;       /* ground (m), nx*ny floats */
    vf_buffer *depth;     /* water depth in quanta, nx*ny uints */
    vf_buffer *mom;       /* momentum (h u, h v), 2 floats per cell */
    vf_buffer *zeros;     /* nx*ny zero words (no solid cells, for renderers that read flags) */
    vf_buffer *objects;   /* vf_height_object[object_count] (at least one slot): the bulldozer */
    uint32_t nx, ny, object_count;
    float dx, g;
    double datum;         /* m: elevations in the buffers are above it */
    float ground_lo, ground_hi; /* the ground's range at the start (m above the datum) */
    float max_depth;      /* the largest water depth expected (m): the scene's lake or relief */
    double time;          /* simulated seconds recorded so far */
    const float *ground0; /* the ground at the start (host, nx*ny; for picking), owned by the solver */
} vf_terrain_state;

/** Fills *out with the current buffers of a terrain solver. */
void vf_terrain_get_state(const vf_solver *s, vf_terrain_state *out);

/** The domain point (m) where a ray (origin, dir in domain metres: x, y,
 * z up, z above the datum) first meets the ground as it was at the start,
 * or the water level above it where the water stood then; false when it
 * misses the domain. Host only (no GPU). */
bool vf_terrain_pick(const vf_solver *s, const double origin[3], const double dir[3], double hit[2]);

/* ---- volume bookkeeping (exact, in quanta) */

typedef struct vf_terrain_volume {
    uint64_t total;    /* quanta in the water now (a readback) */
    uint64_t initial;  /* at creation */
    uint64_t added;    /* by sources and rain so far (host count of what was recorded) */
    uint64_t drained;  /* by the drains (the GPU's count) */
    double cell_area;  /* dx^2: quanta * VF_TERRAIN_QUANTUM * cell_area is m^3 */
} vf_terrain_volume;

/** Reads the depth and the drains' count back (waits). */
vf_result vf_terrain_read_volume(vf_solver *s, vf_terrain_volume *out);
/** Reads the stats (waits). */
vf_result vf_terrain_read_stats(vf_solver *s, vf_terrain_stats *out);

/* ---- for tests and the benchmark: single passes, state access */

/** Substep length (s) the solver uses. */
double vf_terrain_dt(const vf_solver *s);
/** The push of the next substep (sources, rain and drains for it), without
 * advancing the host's counts. */
vf_terrain_step_push vf_terrain_step_params(const vf_solver *s);
/** The edit push of the next frame (the bulldozer's blade and the pointer's
 * brush at the current time), without advancing anything. */
vf_terrain_edit_push vf_terrain_edit_params(const vf_solver *s);
/** The slippage push of a frame. */
vf_terrain_slip_push vf_terrain_slip_params(const vf_solver *s);
/** Replaces the ground (nx*ny, m above the datum), the depth (quanta) and the
 * momentum (2 floats per cell); any may be NULL (kept). Waits. */
vf_result vf_terrain_upload(vf_solver *s, const float *bed, const uint32_t *depth, const float *mom);
/** Reads the ground, depth and momentum (any may be NULL). Waits. */
vf_result vf_terrain_download(vf_solver *s, float *bed, uint32_t *depth, float *mom);
/** Reads the faces ((nx + 1) ny and nx (ny + 1) vec4s), the limits and eta
 * (any may be NULL). Waits. */
vf_result vf_terrain_download_work(vf_solver *s, float *face_x, float *face_y, float *limit, float *eta);
/** The sources' and drains' discs on the grid (as the update pass reads them). */
vf_terrain_tools vf_terrain_get_tools(const vf_solver *s);
/** Records and submits one pass (waits): VF_TERRAIN_PASS_FLUX, _LIMIT and
 * _UPDATE with *push (a vf_terrain_step_push), _EDIT with a
 * vf_terrain_edit_push, _SLIP with a vf_terrain_slip_push (the slipped
 * ground becomes the current one). */
vf_result vf_terrain_run_pass(vf_solver *s, int pass, const void *push);
enum { VF_TERRAIN_PASS_EDIT, VF_TERRAIN_PASS_SLIP, VF_TERRAIN_PASS_FLUX, VF_TERRAIN_PASS_LIMIT, VF_TERRAIN_PASS_UPDATE };


struct vf_sim_pass;
/** The passes of terrain_passes.def (static; *count set to their number), for the check
 * that each row agrees with its shader's SPIR-V. */
const struct vf_sim_pass *vf_terrain_pass_table(uint32_t *count);

#endif
