/* scene_info: the row of a built-in scene in the registry (scenes.h): its
 * family, parameter table and the family's hooks. Scene layer: the solvers
 * below it know nothing of scenes. */
#ifndef VF_SCENE_INFO_H
#define VF_SCENE_INFO_H

#include <stddef.h>

#include "params.h"
#include "solver.h"

/** A built-in scene: a family preset with its parameter table. */
typedef struct vf_scene_info {
    const char *name;        /* "smoke", "cavity", "dam-break", ... */
    const char *family;      /* "grid", "height", "sph" */
    const char *description; /* one line for `vkfluid scenes` */
    const vf_param_def *params;
    size_t param_count;
    size_t desc_size;        /* bytes of the family's desc struct */
    size_t shapes_offset;    /* where the desc holds a vf_scene_shapes (scene files' shape lists); 0: none */
    /** After the table's defaults (vf_scene_defaults): this scene's own
     * preset values in desc. May be NULL. */
    void (*preset)(const struct vf_scene_info *scene, void *desc);
    /** Checks cross-key constraints (after every --set): the one check of
     * desc's values. One-line reason in err; *key (key may be NULL) gets the
     * key the line names first, or NULL when it names none of the table
     * (a list entry, a file), so the caller qualifies it without reading the
     * text. */
    vf_result (*validate)(const struct vf_scene_info *scene, const void *desc, const char **key, char *err, size_t cap);
    /** Creates the solver on the GPU from a validated desc (checking only
     * what needs the device). err gets a one-line reason for
     * VF_ERR_TOO_LARGE and similar; *key as for validate. */
    vf_result (*create)(const struct vf_scene_info *scene, vf_gpu *gpu, const void *desc, vf_solver **out,
                        const char **key, char *err, size_t cap);
    /** The simulated seconds per frame the solver will take for a validated
     * desc, without a GPU (for bounds checked before any GPU work); 0 when
     * it cannot be known. NULL: the key frame_dt when it is positive. */
    double (*frame_dt)(const struct vf_scene_info *scene, const void *desc);
} vf_scene_info;

/** Fills desc (scene->desc_size bytes) with the scene's defaults: zeroes,
 * its parameter table's defaults, then its preset. */
void vf_scene_defaults(const vf_scene_info *scene, void *desc);

#endif
