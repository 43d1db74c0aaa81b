/* export_particles: particle state to disk, each file written whole or not at
 * all (fileio's temporary + rename): CSV with the header
 * x,y,z,vx,vy,vz,density,pressure, and VTK PolyData XML (.vtp, appended raw
 * binary, one vertex per particle) with velocity, density, pressure and id
 * arrays for ParaView. */
#ifndef VF_EXPORT_PARTICLES_H
#define VF_EXPORT_PARTICLES_H

#include <stdint.h>

#include "vf_error.h"

/** Borrowed particle arrays: n entries each; vel, dens, id may be NULL (then
 * zeros are written / the array is left out). pos and vel are xyz(w). */
typedef struct vf_particles_view {
    uint32_t n;
    const float (*pos)[4];
    const float (*vel)[4];
    const float (*dens)[2]; /* density, pressure */
    const uint32_t *id;
    const uint32_t *order;  /* write particle order[k] as the k-th (NULL: in order) */
} vf_particles_view;

/** Writes path as CSV: "x,y,z,vx,vy,vz,density,pressure" and one line per
 * particle (9 significant digits: floats round-trip). */
vf_result vf_export_particles_csv(const char *path, const vf_particles_view *v);

/** Writes path as a VTK XML PolyData file (.vtp). */
vf_result vf_export_particles_vtp(const char *path, const vf_particles_view *v);

#endif
