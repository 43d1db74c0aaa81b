/* render_ssf_internal: what render_ssf.c (options, targets, the raster
 * path and the passes both paths share) and render_ssf_compute.c (the
 * compute path) share. Not for other files. */
#ifndef VF_RENDER_SSF_INTERNAL_H
#define VF_RENDER_SSF_INTERNAL_H

#include "gpu_pipeline.h"
#include "render_ssf.h"

/* Internal images beyond the public ones. */
enum { IMG_DEPTH_TMP = VF_SSF_IMAGE_COUNT, IMG_THICK_TMP, IMG_OUTPUT, IMG_ALL };

typedef struct img_state {
    VkPipelineStageFlags2 stage;  /* every use since the last barrier (what the next one waits for) */
    VkAccessFlags2 access;
    VkPipelineStageFlags2 synced; /* the last barrier's destination stages and accesses */
    VkAccessFlags2 synced_access;
} img_state;

/* The compute path's pipelines and buffers (render_ssf_compute.c). */
typedef struct ssf_compute {
    vf_pipeline *p_scene, *p_splat, *p_big, *p_resolve, *p_foam, *p_composite;
    vf_buffer *depth_acc, *thick_acc, *foam_acc, *args;
} ssf_compute;

typedef struct ssf {
    vf_renderer base;
    char name[40];
    vf_ssf_options opt;      /* resolved (no zeros left where a default applies) */
    vf_ssf_particles parts;
    float box_min[3], box_max[3];
    vf_camera cam;
    bool cam_set;
    bool encode_srgb;
    vf_render_path want;     /* the path asked for, auto resolved: compute or raster */
    bool want_auto;          /* it was auto: too large for the compute buffers draws raster */
    uint32_t thick_w, thick_h;
    vf_pipeline *p_scene, *p_background, *p_depth, *p_thickness, *p_composite, *p_particles;
    vf_pipeline *p_smooth, *p_blur, *p_pack;
    vf_ssf_surface surf;     /* a surface mesh drawn instead of the spheres (vertices NULL: none) */
    vf_pipeline *p_mesh_depth, *p_mesh_thickness;
    vf_ssf_foam foam;        /* diffuse particles drawn over the fluid (positions NULL: none) */
    vf_pipeline *p_foam;
    ssf_compute cs;          /* pipelines created with the renderer; buffers with compute targets */
    bool stats;              /* the compute passes count their work into the argument buffer */
    bool counted;            /* a frame was recorded with stats (the argument buffer holds its counts) */
    vf_buffer *frame;
    vf_image *img[IMG_ALL];  /* the current targets (base.path's set; some NULL) */
    img_state st[IMG_ALL];
    VkImageMemoryBarrier2 batch[IMG_ALL + 2];
    uint32_t batch_count;
} ssf;

/* render_ssf.c */
/** Queues the barrier (with layout transition) from image i's last use to
 * the next one, unless a read follows a read the last barrier covers. */
void ssf_image_use(ssf *s, int i, VkImageLayout layout, VkPipelineStageFlags2 stage, VkAccessFlags2 access);
/** Queues a barrier of an image that is not the renderer's (the output
 * target), with its layout transition; img->layout is updated. */
void ssf_image_use_other(ssf *s, vf_image *img, VkImageLayout layout, VkPipelineStageFlags2 src_stage,
                         VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
/** Records the queued image barriers as one barrier, with a global memory
 * barrier from compute writes to compute (and indirect) reads and writes
 * when memory is true; nothing when nothing is queued and memory is false. */
void ssf_image_flush(ssf *s, VkCommandBuffer cmd, bool memory);
/** The frame constants' update and its barriers. */
void ssf_pass_frame_constants(ssf *s, VkCommandBuffer cmd);
/** The depth smoothing; returns the image the composite reads. */
int ssf_pass_smooth(ssf *s, VkCommandBuffer cmd, vf_profiler *prof);
/** The thickness blur of VF_SSF_IMAGE_THICKNESS into VF_SSF_IMAGE_THICKNESS_BLUR. */
void ssf_pass_thickness_blur(ssf *s, VkCommandBuffer cmd, vf_profiler *prof);
/** Workgroups of wg covering n. */
uint32_t ssf_groups(uint32_t n, uint32_t wg);
/** Binding helpers: the frame block, the particle positions, an image
 * sampled with sampler, an image as storage (layout GENERAL). */
vf_binding ssf_bind_frame(ssf *s);
vf_binding ssf_bind_positions(ssf *s);
vf_binding ssf_bind_sampled(ssf *s, int i, VkSampler sampler);
vf_binding ssf_bind_storage(ssf *s, int i);
/** Whether the particles are drawn (a positions buffer and a count). */
bool ssf_have_particles(const ssf *s);

/* render_ssf_compute.c */
/** Creates the compute path's pipelines (none on failure: auto then takes
 * the raster path). */
vf_result ssf_compute_create(ssf *s);
/** Destroys the compute path's pipelines and buffers; safe when absent. */
void ssf_compute_destroy(ssf *s);
/** (Re)creates the compute path's buffers for targets of w x h (thickness
 * tw x th); VF_ERR_TOO_LARGE when a buffer exceeds the device's storage
 * buffer range. */
vf_result ssf_compute_buffers(ssf *s, uint32_t w, uint32_t h, uint32_t tw, uint32_t th);
/** Frees the compute path's buffers. */
void ssf_compute_free_buffers(ssf *s);
/** Records the frame of the compute path into target. */
vf_result ssf_compute_record(ssf *s, VkCommandBuffer cmd, vf_image *target, vf_profiler *prof);
/** The counts of the last frame recorded with work counters attached. */
bool ssf_compute_gpu_counts(ssf *s, vf_render_gpu_counts *out);
/** Whether a target can take the compute path's output: a storage view
 * (vf_image.storage) or transfer-destination usage. */
bool ssf_compute_target_ok(const vf_image *target);

#endif
