/* The built-in SPH scenes: dam-break, double-dam, drop and fountain. Each
 * scene is a parameter table (params.h) over one desc struct, defaults,
 * cross-key validation and a create that lays out the particles on a cubic
 * lattice and hands them to solver_sph. Axes: x along the tank, y up, z across. */
#include "scene_sph.h"
#include "sph_foam.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene_shapes.h"
#include "solver_sph.h"
#include "text.h"

enum { SCENE_DAM, SCENE_DOUBLE, SCENE_DROP, SCENE_FOUNTAIN };

typedef struct vf_sph_scene_desc {
    int kind;
    /* common */
    double spacing, particles, smoothing, rho0;
    int eos;
    double sound_speed, stiffness;
    bool negative_pressure;
    double viscosity, alpha, tension, gravity, restitution, damping;
    int integrator;
    double cfl, frame_dt;
    int method, walls, pbf_substeps, pbf_iterations;
    double pbf_relaxation, pbf_omega, pbf_tensile_k, pbf_tensile_dq, pbf_tensile_n, xsph, vorticity;
    double dfsph_cfl, dfsph_dt_max, dfsph_eta, dfsph_eta_v;
    int dfsph_max_iterations, dfsph_substeps;
    double push_x, push_y, push_z, push_radius, push_strength;
    double sphere_x, sphere_y, sphere_z, sphere_r;
    double box_x, box_y, box_z, box_sx, box_sy, box_sz;
    /* dam-break, double-dam */
    double a, ratio, tank_length, tank_height, depth;
    /* drop, fountain: the tank */
    double tank_x, tank_y, tank_z, pool_depth;
    /* drop */
    double drop_radius, drop_height;
    /* fountain */
    double nozzle_radius, nozzle_speed, nozzle_height, capacity;
    bool sink;
    double sink_size;
    /* spray, foam and bubbles */
    bool foam;
    double foam_capacity, foam_trapped_air, foam_wave_crest, foam_ta_min, foam_ta_max, foam_wc_min, foam_wc_max;
    double foam_ke_min, foam_ke_max, foam_life_min, foam_life_max, foam_buoyancy, foam_drag;
    /* scene file: obstacles (boxes, spheres), fluid regions (replace the
     * preset's water), the fountain's emitter and sink */
    vf_scene_shapes shapes;
} vf_sph_scene_desc;

#define OFF(f) offsetof(vf_sph_scene_desc, f)
#define DBL VF_PARAM_DOUBLE

/* Keys every SPH scene has (the spacing default is per scene). */
#define SPH_COMMON_KEYS(spacing_def)                                                                                    \
    {"spacing", DBL, OFF(spacing), spacing_def, 0, 1, true, NULL, "m", "initial particle spacing (mass = rho0 spacing^3)"}, \
    {"particles", DBL, OFF(particles), 0, 0, 4e9, false, NULL, "1",                                                  \
     "approximate initial particle count; overrides spacing when > 0"},                                               \
    {"smoothing", DBL, OFF(smoothing), 2.41, 1.2, 4, false, NULL, "1",                                               \
     "smoothing radius h (= 2 neighbour-grid cells) over the spacing; 2.41: lattice sum of W_poly6 = 1 within 2e-4, ~58 neighbours"},              \
    {"rho0", DBL, OFF(rho0), 1000, 0, 1e5, true, NULL, "kg/m^3", "rest density"},                                      \
    {"eos", VF_PARAM_ENUM, OFF(eos), VF_SPH_TAIT, 0, 0, false, VF_CHOICES(VF_SPH_EOS_LIST), "", "equation of state: tait p = B((rho/rho0)^7 - 1) or linear p = k (rho - rho0)"}, \
    {"sound_speed", DBL, OFF(sound_speed), 0, 0, 1e4, false, NULL, "m/s",                                              \
     "speed of sound c (B = rho0 c^2 / 7); 0: 10 x the largest expected speed"},                                      \
    {"stiffness", DBL, OFF(stiffness), 0, 0, 1e9, false, NULL, "m^2/s^2", "linear eos k; 0: c^2"},                     \
    {"negative_pressure", VF_PARAM_BOOL, OFF(negative_pressure), 0, 0, 0, false, NULL, "",                             \
     "keep negative pressures (false: clamp to 0, avoids clumping at the free surface)"},                              \
    {"viscosity", DBL, OFF(viscosity), 0.001, 0, 1e5, false, NULL, "Pa s",                                             \
     "dynamic viscosity mu (viscosity-kernel force; pbf and dfsph apply it to the velocities before each prediction)"}, \
    {"artificial_viscosity", DBL, OFF(alpha), 0.05, 0, 10, false, NULL, "1",                                          \
     "alpha: adds rho0 alpha h c / 10 to mu, every method, dfsph twice that (numerical viscosity that keeps runs dissipative)"},         \
    {"tension", DBL, OFF(tension), 0, 0, 1e3, false, NULL, "N/m", "surface tension coefficient (colour field); 0: off"}, \
    {"gravity", DBL, OFF(gravity), 9.81, 0, 1e3, false, NULL, "m/s^2", "gravity, pointing down (-y)"},                 \
    {"restitution", DBL, OFF(restitution), 0.2, 0, 1, false, NULL, "1", "normal velocity kept at walls and obstacles"}, \
    {"damping", DBL, OFF(damping), 0, 0, 1e4, false, NULL, "1/s", "velocity damping (for settling)"},                  \
    {"integrator", VF_PARAM_ENUM, OFF(integrator), VF_SPH_LEAPFROG, 0, 0, false, VF_CHOICES(VF_SPH_INTEGRATOR_LIST), "", \
     "kick-drift-kick leapfrog or symplectic euler"},                                                                  \
    {"cfl", DBL, OFF(cfl), 0.25, 0, 1, true, NULL, "1", "step size dt = cfl h / (c + largest expected speed)"},        \
    {"frame_dt", DBL, OFF(frame_dt), 1.0 / 60.0, 0, 10, true, NULL, "s", "simulated time per frame"},                   \
    {"method", VF_PARAM_ENUM, OFF(method), VF_SPH_WCSPH, 0, 0, false, VF_CHOICES(VF_SPH_METHOD_LIST), "",             \
     "solver: wcsph (weakly compressible, steps bound by the speed of sound), pbf (position-based fluids, Macklin & Mueller 2013: fixed substeps and iterations a frame), dfsph (divergence-free SPH, Bender & Koschier 2015: steps bound by the flow speed)"}, \
    {"walls", VF_PARAM_ENUM, OFF(walls), VF_SPH_WALLS_AUTO, 0, 0, false, VF_CHOICES(VF_SPH_WALLS_LIST), "",           \
     "tank walls and obstacles: noslip (viscosity and XSPH drag the fluid along them), freeslip, or auto (freeslip: the artificial viscosity would brake the flow)"}, \
    {"pbf_substeps", VF_PARAM_INT, OFF(pbf_substeps), 2, 1, 100, false, NULL, "1", "pbf: substeps a frame"},          \
    {"pbf_iterations", VF_PARAM_INT, OFF(pbf_iterations), 6, 1, 100, false, NULL, "1",                                 \
     "pbf: density-constraint iterations a substep"},                                                                  \
    {"pbf_relaxation", DBL, OFF(pbf_relaxation), 0.01, 0, 100, false, NULL, "1",                                      \
     "pbf: constraint relaxation epsilon, in units of a particle's sum |grad C|^2 at rest"},                           \
    {"pbf_omega", DBL, OFF(pbf_omega), VF_SPH_PBF_OMEGA, 0.5, 1.5, false, NULL, "1",                                  \
     "pbf: over-relaxation of the position corrections, x += omega V sum (lambda_i + lambda_j + s_corr) grad W (1: the paper's; 1.3 and above oscillate)"}, \
    {"pbf_tensile_k", DBL, OFF(pbf_tensile_k), 0.1, 0, 10, false, NULL, "1",                                          \
     "pbf: artificial pressure s_corr = -k (W(r) / W(dq))^n against clumping, k as a density error; 0: off"},        \
    {"pbf_tensile_dq", DBL, OFF(pbf_tensile_dq), 0.2, 0, 0.99, false, NULL, "1", "pbf: dq of the artificial pressure, over h"}, \
    {"pbf_tensile_n", DBL, OFF(pbf_tensile_n), 4, 1, 16, false, NULL, "1", "pbf: exponent n of the artificial pressure"}, \
    {"xsph", DBL, OFF(xsph), 12, 0, 1000, false, NULL, "1/s",                                                         \
     "pbf, dfsph: XSPH viscosity c, v += c dt sum_j (m / rho_j) (v_j - v_i) W_ij each substep; 0: off"},               \
    {"vorticity", DBL, OFF(vorticity), 0, 0, 100, false, NULL, "m/s",                                                 \
     "pbf: vorticity confinement epsilon, a = epsilon (N x omega); 0: off (one neighbour pass less a substep)"},       \
    {"dfsph_cfl", DBL, OFF(dfsph_cfl), 0.4, 0, 1, true, NULL, "1",                                                     \
     "dfsph: step dt = dfsph_cfl spacing / largest speed (Bender & Koschier 2017: 0.4)"},                              \
    {"dfsph_dt_max", DBL, OFF(dfsph_dt_max), 0.005, 0, 1, true, NULL, "s", "dfsph: the largest step"},               \
    {"dfsph_eta", DBL, OFF(dfsph_eta), 1e-4, 0, 0.1, true, NULL, "1",                                                \
     "dfsph: density solve tolerance, average (rho - rho0) / rho0 (Bender & Koschier 2017: 0.01 %)"},                  \
    {"dfsph_eta_v", DBL, OFF(dfsph_eta_v), 1e-3, 0, 0.1, true, NULL, "1",                                            \
     "dfsph: divergence solve tolerance, average (D rho / Dt) dt / rho0 (Bender & Koschier 2017: 0.1 %)"},             \
    {"dfsph_max_iterations", VF_PARAM_INT, OFF(dfsph_max_iterations), 30, 2, VF_DFSPH_MAX_ITERATIONS, false, NULL, "1", \
     "dfsph: the most iterations each solve records a substep (the GPU stops at the tolerance)"},                     \
    {"dfsph_substeps", VF_PARAM_INT, OFF(dfsph_substeps), 0, 0, VF_SPH_MAX_FRAME_SUBSTEPS, false, NULL, "1",           \
     "dfsph: the most substeps a frame records (the GPU chooses how many run); 0: the CFL steps at 1.25 x the largest expected speed"}, \
    {"push_x", DBL, OFF(push_x), 0, -1e3, 1e3, false, NULL, "m", "interactive force: point x"},                        \
    {"push_y", DBL, OFF(push_y), 0, -1e3, 1e3, false, NULL, "m", "interactive force: point y"},                        \
    {"push_z", DBL, OFF(push_z), 0, -1e3, 1e3, false, NULL, "m", "interactive force: point z"},                        \
    {"push_radius", DBL, OFF(push_radius), 0, 0, 1e3, false, NULL, "m", "interactive force radius; 0: off"},           \
    {"push_strength", DBL, OFF(push_strength), 50, -1e5, 1e5, false, NULL, "m/s^2",                                   \
     "interactive acceleration at the point (> 0 pushes away, < 0 pulls), fading to 0 at the radius"},                 \
    {"sphere_x", DBL, OFF(sphere_x), 0, -1e3, 1e3, false, NULL, "m", "sphere obstacle centre x"},                      \
    {"sphere_y", DBL, OFF(sphere_y), 0, -1e3, 1e3, false, NULL, "m", "sphere obstacle centre y"},                      \
    {"sphere_z", DBL, OFF(sphere_z), 0, -1e3, 1e3, false, NULL, "m", "sphere obstacle centre z"},                      \
    {"sphere_r", DBL, OFF(sphere_r), 0, 0, 1e3, false, NULL, "m", "sphere obstacle radius; 0: none"},                  \
    {"box_x", DBL, OFF(box_x), 0, -1e3, 1e3, false, NULL, "m", "box obstacle centre x"},                               \
    {"box_y", DBL, OFF(box_y), 0, -1e3, 1e3, false, NULL, "m", "box obstacle centre y"},                               \
    {"box_z", DBL, OFF(box_z), 0, -1e3, 1e3, false, NULL, "m", "box obstacle centre z"},                               \
    {"box_sx", DBL, OFF(box_sx), 0, 0, 1e3, false, NULL, "m", "box obstacle size x; 0: none"},                         \
    {"box_sy", DBL, OFF(box_sy), 0, 0, 1e3, false, NULL, "m", "box obstacle size y"},                                  \
    {"box_sz", DBL, OFF(box_sz), 0, 0, 1e3, false, NULL, "m", "box obstacle size z"}

/* Diffuse particles (sph_foam.h), on by default where `on` is 1. */
#define FOAM_KEYS(on)                                                                                                  \
    {"foam", VF_PARAM_BOOL, OFF(foam), on, 0, 0, false, NULL, "",                                                      \
     "spray, foam and bubbles (Ihmsen et al. 2012): diffuse particles made where air is trapped and at wave crests, drawn as a foam layer"}, \
    {"foam_capacity", DBL, OFF(foam_capacity), 65536, 1, 1e8, false, NULL, "1", "the most diffuse particles at once (more are dropped)"}, \
    {"foam_trapped_air", DBL, OFF(foam_trapped_air), 200, 0, 1e6, true, NULL, "1/s",                                  \
     "k_ta: diffuse particles a fluid particle makes per second at full trapped-air potential"},                        \
    {"foam_wave_crest", DBL, OFF(foam_wave_crest), 200, 0, 1e6, true, NULL, "1/s",                                    \
     "k_wc: the same at full wave-crest potential"},                                                                   \
    {"foam_ta_min", DBL, OFF(foam_ta_min), 2, 0, 1e4, false, NULL, "m/s",                                             \
     "trapped-air potential (sum over neighbours of the relative speed x (1 - v^_ij . x^_ij)(1 - r/h)) where making starts"},                        \
    {"foam_ta_max", DBL, OFF(foam_ta_max), 10, 0, 1e4, true, NULL, "m/s", "trapped-air potential where it saturates"}, \
    {"foam_wc_min", DBL, OFF(foam_wc_min), 1, 0, 1e4, false, NULL, "1",                                               \
     "wave-crest potential (sum of (1 - n^_i . n^_j)(1 - r/h) at convex, outward-moving surface) where making starts"}, \
    {"foam_wc_max", DBL, OFF(foam_wc_max), 6, 0, 1e4, true, NULL, "1", "wave-crest potential where it saturates"},     \
    {"foam_ke_min", DBL, OFF(foam_ke_min), 0.5, 0, 1e6, false, NULL, "J/kg", "kinetic energy per unit mass below which nothing is made"}, \
    {"foam_ke_max", DBL, OFF(foam_ke_max), 5, 0, 1e6, true, NULL, "J/kg", "kinetic energy per unit mass of full making"}, \
    {"foam_life_min", DBL, OFF(foam_life_min), 1, 0, 1e4, true, NULL, "s", "shortest lifetime (foam ages; spray and bubbles do not)"}, \
    {"foam_life_max", DBL, OFF(foam_life_max), 3, 0, 1e4, true, NULL, "s", "longest lifetime"},                       \
    {"foam_buoyancy", DBL, OFF(foam_buoyancy), 2, 0, 1e3, true, NULL, "1", "bubbles: buoyancy k_b, in units of -gravity"}, \
    {"foam_drag", DBL, OFF(foam_drag), 0.5, 0, 1, true, NULL, "1", "bubbles: share of the velocity difference to the fluid removed per frame"}

#define DAM_KEYS                                                                                                       \
    {"a", DBL, OFF(a), 0.25, 0, 100, true, NULL, "m", "water column width along x (against the back wall x = 0)"},     \
    {"ratio", DBL, OFF(ratio), 2, 0, 100, true, NULL, "1", "column height over a"},                                    \
    {"tank_length", DBL, OFF(tank_length), 0, 0, 1e3, false, NULL, "m", "tank length along x, at least 5 a; 0: 5 a"},   \
    {"tank_height", DBL, OFF(tank_height), 0, 0, 1e3, false, NULL, "m", "tank height; 0: 1.5 x the column"},            \
    {"depth", DBL, OFF(depth), 0, 0, 1e3, false, NULL, "m", "tank and column extent across (z); 0: a"}

static const vf_param_def dam_keys[] = {SPH_COMMON_KEYS(0.01), DAM_KEYS, FOAM_KEYS(1)};
static const vf_param_def double_keys[] = {SPH_COMMON_KEYS(0.01), DAM_KEYS, FOAM_KEYS(1)};

#define TANK_KEYS(x, y, z, pool)                                                                                       \
    {"tank_x", DBL, OFF(tank_x), x, 0, 1e3, true, NULL, "m", "tank length (x)"},                                       \
    {"tank_y", DBL, OFF(tank_y), y, 0, 1e3, true, NULL, "m", "tank height (y)"},                                       \
    {"tank_z", DBL, OFF(tank_z), z, 0, 1e3, true, NULL, "m", "tank width (z)"},                                        \
    {"pool_depth", DBL, OFF(pool_depth), pool, 0, 1e3, false, NULL, "m", "water depth of the pool at rest"}

static const vf_param_def drop_keys[] = {
    SPH_COMMON_KEYS(0.01),
    TANK_KEYS(0.5, 0.6, 0.5, 0.12),
    {"drop_radius", DBL, OFF(drop_radius), 0.08, 0, 1e3, true, NULL, "m", "radius of the falling sphere of water"},
    {"drop_height", DBL, OFF(drop_height), 0.4, 0, 1e3, true, NULL, "m", "height of the sphere's centre"},
    FOAM_KEYS(0),
};

static const vf_param_def fountain_keys[] = {
    SPH_COMMON_KEYS(0.01),
    TANK_KEYS(0.6, 0.8, 0.6, 0.04),
    {"nozzle_radius", DBL, OFF(nozzle_radius), 0.02, 0, 1e3, false, NULL, "m", "radius of the nozzle (a disc facing up)"},
    {"nozzle_speed", DBL, OFF(nozzle_speed), 2.5, 0, 1e3, true, NULL, "m/s", "speed of the emitted water"},
    {"nozzle_height", DBL, OFF(nozzle_height), 0.1, 0, 1e3, false, NULL, "m", "height of the nozzle above the floor"},
    {"capacity", DBL, OFF(capacity), 60000, 1, 4e9, false, NULL, "1", "the most particles at once (the nozzle stops there; 32-bit indices)"},
    {"sink", VF_PARAM_BOOL, OFF(sink), 1, 0, 0, false, NULL, "", "a drain in the corner (x, z < sink_size, y < spacing) removes particles"},
    {"sink_size", DBL, OFF(sink_size), 0.08, 0, 1e3, true, NULL, "m", "drain size"},
    FOAM_KEYS(0),
};

#define COUNT(t) (sizeof t / sizeof t[0])

/* The scene's geometry kind, after the table's defaults. */
static void sph_preset(const vf_scene_info *scene, void *p)
{
    vf_sph_scene_desc *d = p;
    d->kind = scene == &vf_scene_double_dam ? SCENE_DOUBLE
              : scene == &vf_scene_drop     ? SCENE_DROP
              : scene == &vf_scene_fountain ? SCENE_FOUNTAIN
                                            : SCENE_DAM;
}

/* ------------------------------------------------------------------ geometry */

typedef struct geometry {
    double lo[3], hi[3];      /* tank */
    double fluid_volume;      /* initial water volume (for `particles`) */
    double fluid_height;      /* the largest height water falls from (for c) */
    double speed_ref;         /* the largest expected speed */
} geometry;

static double dam_length(const vf_sph_scene_desc *d)
{
    return d->tank_length > 0 ? d->tank_length : 5 * d->a;
}
static double dam_height(const vf_sph_scene_desc *d)
{
    return d->tank_height > 0 ? d->tank_height : 1.5 * d->ratio * d->a;
}
static double dam_depth(const vf_sph_scene_desc *d)
{
    return d->depth > 0 ? d->depth : d->a;
}

static void scene_geometry(const vf_sph_scene_desc *d, geometry *g)
{
    memset(g, 0, sizeof *g);
    double grav = d->gravity;
    switch (d->kind) {
    case SCENE_DAM:
    case SCENE_DOUBLE: {
        g->hi[0] = dam_length(d);
        g->hi[1] = dam_height(d);
        g->hi[2] = dam_depth(d);
        double column = d->a * d->ratio * d->a * dam_depth(d);
        g->fluid_volume = d->kind == SCENE_DOUBLE ? 2 * column : column;
        g->fluid_height = d->ratio * d->a;
        break;
    }
    case SCENE_DROP:
    case SCENE_FOUNTAIN:
        g->hi[0] = d->tank_x;
        g->hi[1] = d->tank_y;
        g->hi[2] = d->tank_z;
        g->fluid_volume = d->tank_x * d->tank_z * d->pool_depth;
        if (d->kind == SCENE_DROP) {
            g->fluid_volume += 4.0 / 3.0 * 3.14159265358979 * pow(d->drop_radius, 3);
            g->fluid_height = d->drop_height + d->drop_radius;
        } else {
            g->fluid_height = fmax(d->pool_depth, d->nozzle_height + d->nozzle_speed * d->nozzle_speed / (2 * fmax(grav, 1e-9)));
        }
        break;
    }
    if (d->shapes.fluid_count) {
        /* a scene file's fluid regions replace the preset's water */
        g->fluid_volume = d->kind == SCENE_FOUNTAIN ? g->fluid_volume - d->tank_x * d->tank_z * d->pool_depth : 0.0;
        double top = 0;
        for (uint32_t k = 0; k < d->shapes.fluid_count; k++) {
            const vf_shape *f = &d->shapes.fluid[k];
            double r = f->radius, hgt = f->kind == VF_SHAPE_CYLINDER ? (f->height > 0 ? f->height : g->hi[1]) : 0;
            g->fluid_volume += f->kind == VF_SHAPE_BOX      ? f->size[0] * f->size[1] * f->size[2]
                               : f->kind == VF_SHAPE_SPHERE ? 4.0 / 3.0 * 3.14159265358979 * r * r * r
                                                            : 3.14159265358979 * r * r * hgt;
            top = fmax(top, f->center[1] + (f->kind == VF_SHAPE_BOX ? 0.5 * f->size[1] : f->kind == VF_SHAPE_SPHERE ? r : 0.5 * hgt));
        }
        g->fluid_height = fmax(d->kind == SCENE_FOUNTAIN ? g->fluid_height : 0.0, fmin(top, g->hi[1]));
    }
    g->speed_ref = sqrt(2 * grav * g->fluid_height);
    if (d->kind == SCENE_FOUNTAIN)
        g->speed_ref = fmax(g->speed_ref, d->nozzle_speed);
    if (g->speed_ref <= 0)
        g->speed_ref = 1e-3;
}

static double effective_spacing(const vf_sph_scene_desc *d, const geometry *g)
{
    if (d->particles > 0 && g->fluid_volume > 0)
        return cbrt(g->fluid_volume / d->particles);
    return d->spacing;
}

double vf_scene_sph_spacing(const void *desc)
{
    geometry g;
    scene_geometry(desc, &g);
    return effective_spacing(desc, &g);
}

/* Lattice points (i + 0.5) s inside a region; the callback says whether a
 * point is water. Returns the count, filling out when not NULL. */
typedef bool (*inside_fn)(const vf_sph_scene_desc *d, const geometry *g, const double p[3]);

static bool in_dam(const vf_sph_scene_desc *d, const geometry *g, const double p[3])
{
    bool left = p[0] < d->a && p[1] < d->ratio * d->a;
    bool right = d->kind == SCENE_DOUBLE && p[0] > g->hi[0] - d->a && p[1] < d->ratio * d->a;
    return left || right;
}

static bool in_pool(const vf_sph_scene_desc *d, const geometry *g, const double p[3])
{
    (void)g;
    if (p[1] < d->pool_depth)
        return true;
    if (d->kind == SCENE_DROP) {
        double c[3] = {0.5 * d->tank_x - p[0], d->drop_height - p[1], 0.5 * d->tank_z - p[2]};
        return c[0] * c[0] + c[1] * c[1] + c[2] * c[2] < d->drop_radius * d->drop_radius;
    }
    return false;
}

static bool in_shapes(const vf_sph_scene_desc *d, const geometry *g, const double p[3])
{
    (void)g;
    for (uint32_t k = 0; k < d->shapes.fluid_count; k++)
        if (vf_shape_contains(&d->shapes.fluid[k], 3, p, NULL, NULL, NULL))
            return true;
    return false;
}

static bool in_file_obstacle(const vf_sph_scene_desc *d, const double p[3])
{
    for (uint32_t k = 0; k < d->shapes.obstacle_count; k++)
        if (vf_shape_contains(&d->shapes.obstacles[k], 3, p, NULL, NULL, NULL))
            return true;
    return false;
}

static uint64_t lattice(const vf_sph_scene_desc *d, const geometry *g, double s, inside_fn inside, float (*out)[4],
                        uint64_t max)
{
    /* only the layers that can hold water: below the column, pool or drop top */
    double top = d->kind == SCENE_DAM || d->kind == SCENE_DOUBLE ? d->ratio * d->a
                 : d->kind == SCENE_DROP                       ? fmax(d->pool_depth, d->drop_height + d->drop_radius)
                                                               : d->pool_depth;
    if (d->shapes.fluid_count)
        top = g->hi[1];
    uint64_t n[3];
    for (int k = 0; k < 3; k++)
        n[k] = (uint64_t)floor((g->hi[k] - g->lo[k]) / s + 1e-9);
    uint64_t ny = (uint64_t)ceil((top - g->lo[1]) / s);
    if (ny < n[1])
        n[1] = ny;
    uint64_t count = 0;
    for (uint64_t z = 0; z < n[2]; z++)
        for (uint64_t y = 0; y < n[1]; y++)
            for (uint64_t x = 0; x < n[0]; x++) {
                double p[3] = {g->lo[0] + (x + 0.5) * s, g->lo[1] + (y + 0.5) * s, g->lo[2] + (z + 0.5) * s};
                if (!inside(d, g, p))
                    continue;
                bool blocked = false;
                if (d->sphere_r > 0) {
                    double q[3] = {p[0] - d->sphere_x, p[1] - d->sphere_y, p[2] - d->sphere_z};
                    blocked = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] < d->sphere_r * d->sphere_r;
                }
                if (d->box_sx > 0 && d->box_sy > 0 && d->box_sz > 0 && fabs(p[0] - d->box_x) < 0.5 * d->box_sx &&
                    fabs(p[1] - d->box_y) < 0.5 * d->box_sy && fabs(p[2] - d->box_z) < 0.5 * d->box_sz)
                    blocked = true;
                if (blocked || in_file_obstacle(d, p))
                    continue;
                if (out && count < max)
                    for (int k = 0; k < 4; k++)
                        out[count][k] = k < 3 ? (float)p[k] : 0.0f;
                count++;
            }
    return count;
}

/* Rough count without walking the lattice (for huge requests). */
static double estimated_count(const geometry *g, double s)
{
    return g->fluid_volume / (s * s * s);
}

/* ------------------------------------------------------------------ validate */

static void scene_sph_desc(const vf_sph_scene_desc *d, const geometry *g, double s, vf_sph_desc *sd);

static vf_result sph_validate(const vf_scene_info *scene, const void *p, const char **key, char *err, size_t cap)
{
    (void)scene;
    const vf_sph_scene_desc *d = p;
    if (d->foam) {
        const struct {
            const char *lo_key, *hi_key;
            double lo, hi;
        } ranges[] = {{"foam_ta_min", "foam_ta_max", d->foam_ta_min, d->foam_ta_max},
                      {"foam_wc_min", "foam_wc_max", d->foam_wc_min, d->foam_wc_max},
                      {"foam_ke_min", "foam_ke_max", d->foam_ke_min, d->foam_ke_max}};
        for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
            if (!(ranges[k].hi > ranges[k].lo)) {
                vf_set_key_err(key, err, cap, ranges[k].hi_key, ": %g is not above %s = %g: make it larger", ranges[k].hi,
                         ranges[k].lo_key, ranges[k].lo);
                return VF_ERR_INVALID_ARG;
            }
        if (d->foam_life_max < d->foam_life_min) {
            vf_set_key_err(key, err, cap, "foam_life_max", ": %g s is below foam_life_min = %g s: make it at least that", d->foam_life_max,
                     d->foam_life_min);
            return VF_ERR_INVALID_ARG;
        }
        if (d->foam_capacity != floor(d->foam_capacity)) {
            vf_set_key_err(key, err, cap, "foam_capacity", ": %g is not a whole number of particles", d->foam_capacity);
            return VF_ERR_INVALID_ARG;
        }
    }
    geometry g;
    scene_geometry(d, &g);
    double s = effective_spacing(d, &g);
    double tank_min = fmin(g.hi[0], fmin(g.hi[1], g.hi[2]));
    vf_shapes_caps caps = {.family = "sph",
                           .dims = 3,
                           .hi = {g.hi[0], g.hi[1], g.hi[2]},
                           .max_obstacles = VF_SPH_MAX_SPHERES + VF_SPH_MAX_BOXES,
                           .max_fluid = VF_SHAPES_MAX_FLUID,
                           .max_emitters = d->kind == SCENE_FOUNTAIN ? 1 : 0,
                           .max_sinks = d->kind == SCENE_FOUNTAIN ? 1 : 0};
    vf_result sr = vf_shapes_check(&d->shapes, &caps, err, cap);
    if (sr != VF_OK)
        return sr;
    uint32_t spheres = d->sphere_r > 0, boxes = d->box_sx > 0 && d->box_sy > 0 && d->box_sz > 0;
    for (uint32_t k = 0; k < d->shapes.obstacle_count; k++) {
        const vf_shape *o = &d->shapes.obstacles[k];
        bool sphere = o->kind == VF_SHAPE_SPHERE;
        if ((sphere ? ++spheres : ++boxes) > (sphere ? VF_SPH_MAX_SPHERES : VF_SPH_MAX_BOXES)) {
            snprintf(err, cap, "obstacles[%u]: the sph solver takes at most %d spheres and %d boxes (with the sphere_* and box_* keys)",
                     k, VF_SPH_MAX_SPHERES, VF_SPH_MAX_BOXES);
            return VF_ERR_INVALID_ARG;
        }
    }
    if (d->shapes.sink_count && d->shapes.sinks[0].kind != VF_SHAPE_BOX) {
        snprintf(err, cap, "sinks[0].shape: the sph sink is a box: use \"shape\": \"box\"");
        return VF_ERR_INVALID_ARG;
    }
    /* the solver's checks of single values that need no device (the spacing's and h's range among
     * them, checked nowhere else), before the scene's checks that divide by the spacing */
    vf_sph_desc sd;
    scene_sph_desc(d, &g, s, &sd);
    vf_result res = vf_sph_check_fields(&sd, key, err, cap);
    if (res != VF_OK)
        return res;
    if (d->kind == SCENE_DAM || d->kind == SCENE_DOUBLE) {
        double L = dam_length(d), H = dam_height(d);
        if (d->tank_length > 0 && d->tank_length < 5 * d->a * (1 - 1e-12)) {
            vf_set_key_err(key, err, cap, "tank_length", ": %g m is shorter than 5 a = %g m: must be at least 5 a (or 0 for 5 a)",
                     d->tank_length, 5 * d->a);
            return VF_ERR_INVALID_ARG;
        }
        if (d->ratio * d->a > H) {
            vf_set_key_err(key, err, cap,
                     "ratio", ": the column (ratio a = %g m) is taller than the tank (tank_height = %g m): must be at most %g",
                     d->ratio * d->a, H, H / d->a);
            return VF_ERR_INVALID_ARG;
        }
        if (d->kind == SCENE_DOUBLE && 2 * d->a > L) {
            vf_set_key_err(key, err, cap, "a", ": two columns of %g m do not fit the tank (tank_length = %g m)", d->a, L);
            return VF_ERR_INVALID_ARG;
        }
        double smallest = fmin(d->a, fmin(d->ratio * d->a, dam_depth(d)));
        if (s > smallest) {
            vf_set_key_err(key, err, cap, "spacing", ": %g m is larger than the water column's smallest side (%g m): must be at most %g",
                     s, smallest, smallest);
            return VF_ERR_INVALID_ARG;
        }
    } else {
        if (d->pool_depth > d->tank_y) {
            vf_set_key_err(key, err, cap, "pool_depth", ": %g m is deeper than the tank (tank_y = %g m)", d->pool_depth, d->tank_y);
            return VF_ERR_INVALID_ARG;
        }
        if (d->kind == SCENE_DROP) {
            double r = d->drop_radius;
            if (2 * r > fmin(d->tank_x, d->tank_z) || d->drop_height + r > d->tank_y || d->drop_height - r < d->pool_depth) {
                vf_set_key_err(key, err, cap,
                         "drop_radius", ": the drop (radius %g m at height %g m) must be inside the tank and above the pool "
                         "(pool_depth %g m, tank %g x %g x %g m)",
                         r, d->drop_height, d->pool_depth, d->tank_x, d->tank_y, d->tank_z);
                return VF_ERR_INVALID_ARG;
            }
            if (s > r) {
                vf_set_key_err(key, err, cap, "spacing", ": %g m is larger than the drop radius %g m", s, r);
                return VF_ERR_INVALID_ARG;
            }
        } else {
            if (d->nozzle_height >= d->tank_y || d->nozzle_radius > 0.5 * fmin(d->tank_x, d->tank_z)) {
                vf_set_key_err(key, err, cap, "nozzle_height", ": the nozzle (height %g m, radius %g m) must be inside the tank", d->nozzle_height,
                         d->nozzle_radius);
                return VF_ERR_INVALID_ARG;
            }
            if (d->capacity < estimated_count(&g, s)) {
                vf_set_key_err(key, err, cap, "capacity", ": %g is smaller than the pool's %.6g particles", d->capacity,
                         estimated_count(&g, s));
                return VF_ERR_INVALID_ARG;
            }
        }
    }
    if (d->sphere_r > 0 && (d->sphere_r >= 0.5 * tank_min)) {
        vf_set_key_err(key, err, cap, "sphere_r", ": %g m must be smaller than half the tank's smallest side (%g m)", d->sphere_r, 0.5 * tank_min);
        return VF_ERR_INVALID_ARG;
    }
    /* a spacing that gives more particles than 32-bit indices count: no
     * device holds them (the particles key is bounded below that) */
    double est = estimated_count(&g, s), most = (double)UINT32_MAX - VF_SPH_WG;
    if (d->particles <= 0 && est > most) {
        vf_set_key_err(key, err, cap, "spacing", ": %g m gives %.3g particles, which do not fit any device (32-bit indices: at most %.0f): "
                 "use a larger spacing", s, est, most);
        return VF_ERR_INVALID_ARG;
    }
    /* the solver's other checks that need no device (the substeps a frame
     * takes, the nozzle), here rather than after the device is created */
    if ((res = vf_sph_check_substeps(&sd, key, err, cap)) != VF_OK) {
        if (d->particles > 0) {
            /* the spacing follows from particles, the key the user set */
            char why[1024];
            snprintf(why, sizeof why, "%s", err);
            vf_set_key_err(key, err, cap, "particles", ": %g particles (spacing %g m) with %s", d->particles, s, why);
        }
        return res;
    }
    return vf_sph_check_nozzle(&sd, err, cap);
}

/* ------------------------------------------------------------------ create */

/* The scene's obstacles into sd: its sphere and box keys, then a scene
 * file's obstacle list (as many as the solver takes). */
static void scene_obstacles(const vf_sph_scene_desc *d, vf_sph_desc *sd)
{
    if (d->sphere_r > 0) {
        sd->sphere_count = 1;
        sd->spheres[0][0] = d->sphere_x;
        sd->spheres[0][1] = d->sphere_y;
        sd->spheres[0][2] = d->sphere_z;
        sd->spheres[0][3] = d->sphere_r;
    }
    if (d->box_sx > 0 && d->box_sy > 0 && d->box_sz > 0) {
        sd->box_count = 1;
        double c[3] = {d->box_x, d->box_y, d->box_z}, e[3] = {d->box_sx, d->box_sy, d->box_sz};
        for (int k = 0; k < 3; k++) {
            sd->box_lo[0][k] = c[k] - 0.5 * e[k];
            sd->box_hi[0][k] = c[k] + 0.5 * e[k];
        }
    }
    for (uint32_t k = 0; k < d->shapes.obstacle_count; k++) {
        const vf_shape *o = &d->shapes.obstacles[k];
        if (o->kind == VF_SHAPE_SPHERE && sd->sphere_count < VF_SPH_MAX_SPHERES) {
            for (int a = 0; a < 3; a++)
                sd->spheres[sd->sphere_count][a] = o->center[a];
            sd->spheres[sd->sphere_count++][3] = o->radius;
        } else if (o->kind == VF_SHAPE_BOX && sd->box_count < VF_SPH_MAX_BOXES) {
            for (int a = 0; a < 3; a++) {
                sd->box_lo[sd->box_count][a] = o->center[a] - 0.5 * o->size[a];
                sd->box_hi[sd->box_count][a] = o->center[a] + 0.5 * o->size[a];
            }
            sd->box_count++;
        }
    }
}

/* The fountain's nozzle and sink into sd (s: the spacing), from its keys or
 * a scene file's emitter and sink. */
static void scene_emitter(const vf_sph_scene_desc *d, double s, vf_sph_desc *sd)
{
    sd->emitter = true;
    sd->emit_origin[0] = 0.5 * d->tank_x;
    sd->emit_origin[1] = d->nozzle_height;
    sd->emit_origin[2] = 0.5 * d->tank_z;
    sd->emit_velocity[1] = d->nozzle_speed;
    sd->emit_radius = d->nozzle_radius;
    sd->sink = d->sink;
    sd->sink_hi[0] = sd->sink_hi[2] = d->sink_size;
    sd->sink_hi[1] = s;
    if (d->shapes.emitter_count) {
        /* a scene file's nozzle: the jet's direction and speed from its velocity */
        const vf_shape *e = &d->shapes.emitters[0];
        for (int a = 0; a < 3; a++) {
            sd->emit_origin[a] = e->center[a];
            sd->emit_velocity[a] = e->velocity[a];
        }
        sd->emit_radius = e->radius;
    }
    if (d->shapes.sink_count) {
        const vf_shape *k = &d->shapes.sinks[0];
        sd->sink = true;
        for (int a = 0; a < 3; a++) {
            sd->sink_lo[a] = k->center[a] - 0.5 * k->size[a];
            sd->sink_hi[a] = k->center[a] + 0.5 * k->size[a];
        }
    }
}

/* The solver's desc of scene d (g: its geometry, s: its spacing), without
 * particles: what validation checks and the solver is created from. */
static void scene_sph_desc(const vf_sph_scene_desc *d, const geometry *g, double s, vf_sph_desc *sd)
{
    *sd = (vf_sph_desc){0};
    memcpy(sd->lo, g->lo, sizeof sd->lo);
    memcpy(sd->hi, g->hi, sizeof sd->hi);
    sd->spacing = s;
    sd->h = d->smoothing * s;
    sd->rho0 = d->rho0;
    sd->eos = (vf_sph_eos)d->eos;
    sd->speed_ref = g->speed_ref;
    sd->sound_speed = d->sound_speed > 0 ? d->sound_speed : 10 * g->speed_ref;
    sd->stiffness = d->stiffness;
    sd->keep_negative_pressure = d->negative_pressure;
    sd->viscosity = d->viscosity + d->rho0 * d->alpha * vf_sph_alpha_scale((vf_sph_method)d->method) * sd->h *
                                       sd->sound_speed / 10.0;
    sd->tension = d->tension;
    sd->gravity[1] = -d->gravity;
    sd->restitution = d->restitution;
    sd->damping = d->damping;
    sd->integrator = (vf_sph_integrator)d->integrator;
    sd->cfl = d->cfl;
    sd->frame_dt = d->frame_dt;
    sd->method = (vf_sph_method)d->method;
    sd->walls = (vf_sph_walls)d->walls;
    sd->pbf_substeps = (uint32_t)d->pbf_substeps;
    sd->pbf_iterations = (uint32_t)d->pbf_iterations;
    sd->pbf_relaxation = d->pbf_relaxation;
    sd->pbf_omega = d->pbf_omega;
    sd->pbf_tensile_k = d->pbf_tensile_k;
    sd->pbf_tensile_dq = d->pbf_tensile_dq;
    sd->pbf_tensile_n = d->pbf_tensile_n;
    sd->xsph = d->xsph;
    sd->vorticity = d->vorticity;
    sd->dfsph_cfl = d->dfsph_cfl;
    sd->dfsph_dt_max = d->dfsph_dt_max;
    sd->dfsph_eta = d->dfsph_eta;
    sd->dfsph_eta_v = d->dfsph_eta_v;
    sd->dfsph_max_iterations = (uint32_t)d->dfsph_max_iterations;
    sd->dfsph_substeps = (uint32_t)d->dfsph_substeps;
    sd->interact[0] = d->push_x;
    sd->interact[1] = d->push_y;
    sd->interact[2] = d->push_z;
    sd->interact[3] = d->push_radius;
    sd->interact_strength = d->push_strength; /* off while the radius is 0; the viewer may switch it on */
    scene_obstacles(d, sd);
    if (d->kind == SCENE_FOUNTAIN)
        scene_emitter(d, s, sd);
    sd->count_key = d->particles > 0 ? "particles" : "spacing"; /* the key size errors name */
}

static vf_result sph_scene_create(const vf_scene_info *scene, vf_gpu *gpu, const void *p, vf_solver **out,
                                  const char **key, char *err,
                                  size_t cap)
{
    (void)scene;
    const vf_sph_scene_desc *d = p;
    *out = NULL;
    geometry g;
    scene_geometry(d, &g);
    double s = effective_spacing(d, &g);
    vf_sph_desc sd;
    scene_sph_desc(d, &g, s, &sd);
    inside_fn inside = d->shapes.fluid_count                           ? in_shapes
                       : d->kind == SCENE_DAM || d->kind == SCENE_DOUBLE ? in_dam
                                                                         : in_pool;

    /* Size checks before any host allocation: a huge request fails here. */
    double est = estimated_count(&g, s);
    uint64_t want = est > 1e15 ? (uint64_t)1e15 : (uint64_t)est;
    if (d->kind == SCENE_FOUNTAIN && d->capacity > (double)want)
        want = (uint64_t)d->capacity;
    vf_result r = vf_sph_check_size(gpu, &sd, want, NULL, key, err, cap);
    if (r != VF_OK)
        return r;
    uint64_t n = lattice(d, &g, s, inside, NULL, 0);
    if (n == 0 && d->kind != SCENE_FOUNTAIN) {
        vf_set_key_err(key, err, cap, "spacing", ": %g m leaves no particle in the water", s);
        return VF_ERR_INVALID_ARG;
    }
    uint64_t capacity = d->kind == SCENE_FOUNTAIN ? (uint64_t)d->capacity : n;
    if (capacity < n)
        capacity = n;
    /* the lattice holds about the estimate (never more than the tank's lattice): the solver's
     * create checks the exact capacity against the device (the same line,
     * naming sd.count_key) before any GPU allocation */
    float(*pos)[4] = malloc(16 * (n ? n : 1));
    if (!pos)
        return VF_ERR_NO_MEMORY;
    lattice(d, &g, s, inside, pos, n);
    sd.count = (uint32_t)n;
    sd.pos = (const float (*)[4])pos;
    sd.capacity = capacity;
    r = vf_solver_create(gpu, &vf_sph_family, &sd, out, key, err, cap);
    free(pos);
    if (r != VF_OK)
        return r;
    if (!d->foam)
        return VF_OK;
    vf_sph *sph = vf_sph_from_solver(*out);
    vf_foam_desc fd = {.capacity = (uint32_t)d->foam_capacity, .trapped_air = d->foam_trapped_air,
                       .wave_crest = d->foam_wave_crest, .ta_min = d->foam_ta_min, .ta_max = d->foam_ta_max,
                       .wc_min = d->foam_wc_min, .wc_max = d->foam_wc_max, .ke_min = d->foam_ke_min,
                       .ke_max = d->foam_ke_max, .life_min = d->foam_life_min, .life_max = d->foam_life_max,
                       .buoyancy = d->foam_buoyancy, .drag = d->foam_drag};
    vf_foam *foam = NULL;
    if ((r = vf_foam_create(gpu, sph, &fd, &foam, key, err, cap)) == VF_OK)
        r = vf_sph_solver_attach_foam(*out, foam);
    if (r != VF_OK)
        vf_solver_destroy(out);
    return r;
}

#define SPH_SCENE(var, name_, keys, text)                                                                              \
    const vf_scene_info var = {                                                                                        \
        .name = name_,                                                                                                 \
        .family = "sph",                                                                                               \
        .description = text,                                                                                           \
        .params = keys,                                                                                                \
        .param_count = COUNT(keys),                                                                                    \
        .desc_size = sizeof(vf_sph_scene_desc),                                                                        \
        .shapes_offset = offsetof(vf_sph_scene_desc, shapes),                                                          \
        .preset = sph_preset,                                                                                          \
        .validate = sph_validate,                                                                                      \
        .create = sph_scene_create,                                                                                    \
    };

SPH_SCENE(vf_scene_dam_break, "dam-break", dam_keys,
          "sph: a water column (a x ratio*a) collapses along a tank at least 5a long")
SPH_SCENE(vf_scene_double_dam, "double-dam", double_keys, "sph: two water columns at both ends of a tank collapse and collide")
SPH_SCENE(vf_scene_drop, "drop", drop_keys, "sph: a sphere of water falls into a pool")
SPH_SCENE(vf_scene_fountain, "fountain", fountain_keys,
          "sph: a nozzle shoots water up into a tank with a drain (emitter and sink)")
