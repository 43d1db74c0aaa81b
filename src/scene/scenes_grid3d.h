/* scenes_grid3d: the built-in 3D grid scenes (smoke3d, fire3d, wind3d) and
 * their keys. */
#ifndef VF_SCENES_GRID3D_H
#define VF_SCENES_GRID3D_H

#include "scene_info.h"
#include "solver_grid3d.h"

/** The user-facing keys of the 3D grid scenes. */
typedef struct vf_grid3d_scene_desc {
    int n;                 /* cells across the width (the long axis gets 2 n) */
    double viscosity;
    double vorticity;
    double alpha, beta;    /* buoyancy */
    double inflow;         /* wind3d: inflow speed */
    double re;             /* wind3d: inflow * obstacle side / viscosity */
    double source_density, source_temperature;
    double source_radius;  /* domain units (the domain is 1 wide) */
    double cooling;        /* 1/s: Newton's law of cooling of the temperature above ambient */
    int source_profile;    /* uniform|smooth */
    int obstacle;          /* none|sphere|box|cylinder */
    double obstacle_size;  /* radius or half side */
    double obstacle_x, obstacle_y, obstacle_z;
    int walls;             /* noslip|freeslip */
    int pressure;          /* multigrid|jacobi */
    int pressure_iters;    /* 0: automatic */
    int advect;            /* semi-lagrangian|maccormack */
    double cfl;
    double frame_dt;       /* 0: automatic */
    int substeps;
} vf_grid3d_scene_desc;

extern const vf_scene_info vf_scene_grid3d_smoke3d;
extern const vf_scene_info vf_scene_grid3d_fire3d;
extern const vf_scene_info vf_scene_grid3d_wind3d;

#endif
