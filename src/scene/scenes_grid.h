/* scenes_grid: the built-in grid scenes (smoke, cavity, channel, shear), their keys
 * and the mapping from a scene's keys (and a scene file's shapes) to the grid
 * solver's desc. */
#ifndef VF_SCENES_GRID_H
#define VF_SCENES_GRID_H

#include "scene_shapes.h"
#include "scene_info.h"
#include "solver_grid.h"

/** The user-facing keys of the grid scenes (one struct, each scene's table
 * lists the keys it uses). */
typedef struct vf_grid_scene_desc {
    int n;              /* cells per side (channel: across the height) */
    double re;          /* Reynolds number (cavity: lid * 1 / nu; channel: U D / nu) */
    double lid;         /* cavity lid speed */
    double inflow;      /* channel inflow speed */
    double length;      /* channel length / height */
    int obstacle;       /* channel: cylinder|square; smoke: none|disc|moving */
    int walls;          /* noslip|freeslip|periodic (smoke, channel sides) */
    bool periodic;      /* smoke: periodic left/right */
    double viscosity;   /* smoke */
    double vorticity;
    double buoyancy;
    double dye_mix;
    double force;       /* smoke source acceleration */
    int pressure;       /* multigrid|jacobi|ssor|penalty|fft */
    int pressure_iters; /* 0: automatic */
    double epsilon;     /* penalty parameter */
    double ssor_omega;  /* SSOR relaxation */
    int advect;         /* semi-lagrangian|maccormack|donor-cell */
    double donor_gamma; /* donor-cell share */
    double cfl;
    double frame_dt;    /* 0: automatic */
    int diffuse_iters;  /* 0: automatic */
    int report_every;
    bool texcoords;
    int flow;           /* shear: shear|taylor-green */
    double thickness;   /* shear: the layers' thickness */
    vf_scene_shapes shapes; /* scene file: obstacles (discs, squares), inflow/outflow sides, dye regions */
} vf_grid_scene_desc;

/** The built-in grid scenes (listed in scenes.c). */
extern const vf_scene_info vf_scene_grid_smoke;
extern const vf_scene_info vf_scene_grid_cavity;
extern const vf_scene_info vf_scene_grid_channel;
extern const vf_scene_info vf_scene_grid_shear;

/** Builds the solver desc of a grid scene from its keys and checks it: the
 * scene-level combinations, then vf_grid_validate_desc. One-line reason in
 * err (naming the key) for combinations the solver cannot run. The scene's
 * validate hook runs this once; its create and frame_dt hooks only convert. */
vf_result vf_grid_scene_to_desc(const vf_scene_info *scene, const vf_grid_scene_desc *sd, vf_grid_desc *out,
                                const char **key, char *err,
                                size_t cap);

#endif
