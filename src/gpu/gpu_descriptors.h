/* gpu_descriptors: the descriptor-set path for devices without
 * VK_KHR_push_descriptor (or when VKFLUID_DESCRIPTORS=sets forces it).
 *
 * Each pipeline owns one cache. A cache holds descriptor sets keyed by the
 * exact resources bound (per binding: the resource's serial number, offset,
 * range, sampler and layout). A set is allocated and written once, the first
 * time its combination is bound, and never updated again while it can be in
 * use: it becomes free only when one of its resources is destroyed (which the
 * caller may do only once the GPU is done with it), and a free set is then
 * rewritten for the next new combination. Steady frame loops bind the same few
 * combinations over and over, so they allocate and write nothing.
 *
 * Bounds: sets come from pools of VF_SET_CACHE_CHUNK sets, sized from the
 * pipeline's layout (descriptor counts per type times the chunk), at most
 * VF_SET_CACHE_MAX sets per pipeline. When a pipeline already holds that many
 * live combinations, vf_set_cache_get records VF_ERR_SET_CACHE_FULL in
 * gpu->deferred_error and returns one of the live sets (so the recording
 * stays valid): every later submit of that context returns the error instead
 * of submitting, so nothing runs with the wrong resources. */
#ifndef VF_GPU_DESCRIPTORS_H
#define VF_GPU_DESCRIPTORS_H

#include "gpu_context.h"

#define VF_SET_CACHE_CHUNK 32u
#define VF_SET_CACHE_MAX 1024u
/* 64-bit words of a cache key per binding: serial, offset, range, sampler|layout */
#define VF_SET_KEY_WORDS 4u
/* Bindings of a set, at most (a pipeline's, VF_MAX_BINDINGS in gpu_pipeline.h) */
#define VF_SET_MAX_BINDINGS 24u

typedef struct vf_set_cache vf_set_cache;

/** Creates an empty cache for sets of `layout`, whose binding i has type
 * types[i] (count <= VF_SET_MAX_BINDINGS, one descriptor each). No pool exists until the first
 * set is needed. name is the debug-name prefix (copied); may be NULL. */
vf_result vf_set_cache_create(vf_gpu *gpu, VkDescriptorSetLayout layout, const VkDescriptorType *types, uint32_t count,
                              const char *name, vf_set_cache **out);

/** Destroys the cache and its pools (the GPU must be done with its sets);
 * accepts NULL and *cache == NULL. */
void vf_set_cache_destroy(vf_set_cache **cache);

/** Returns the set for key (count * VF_SET_KEY_WORDS words; word 0 of each
 * binding is the resource's serial, never 0). On a miss the set is allocated
 * or recycled and written with writes (count entries; dstSet is filled in
 * here). When the cache is full it records the error in gpu->deferred_error
 * and returns a live set; VK_NULL_HANDLE when no set could be allocated. */
VkDescriptorSet vf_set_cache_get(vf_set_cache *cache, const uint64_t *key, VkWriteDescriptorSet *writes);

/** Called when the resource with this serial is destroyed: every cached set of
 * every cache of the context that refers to it becomes free. */
void vf_set_cache_forget(vf_gpu *gpu, uint64_t serial);

/** Live (keyed) sets in the cache, and sets allocated from its pools. */
void vf_set_cache_stats(const vf_set_cache *cache, uint32_t *live, uint32_t *allocated);

#endif
