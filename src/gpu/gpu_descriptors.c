#include "gpu_descriptors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VF_SET_CACHE_POOLS (VF_SET_CACHE_MAX / VF_SET_CACHE_CHUNK)
#define VF_SET_CACHE_TYPES 5u /* the descriptor types of vf_binding_type */

struct vf_set_cache {
    vf_gpu *gpu;
    vf_set_cache *prev, *next; /* the context's list of caches */
    VkDescriptorSetLayout layout;
    uint32_t count;            /* bindings per set */
    uint32_t key_words;        /* count * VF_SET_KEY_WORDS */
    VkDescriptorPoolSize sizes[VF_SET_CACHE_TYPES];
    uint32_t size_count;
    VkDescriptorPool pools[VF_SET_CACHE_POOLS];
    uint32_t pool_count;
    uint32_t allocated;        /* sets allocated so far (entries 0..allocated-1) */
    uint32_t live;             /* entries holding a key */
    uint32_t last;             /* entry of the last hit */
    VkDescriptorSet sets[VF_SET_CACHE_MAX];
    bool used[VF_SET_CACHE_MAX];
    uint64_t *keys;            /* allocated * key_words words, grown per chunk */
    char name[64];
};

void vf_set_cache_destroy(vf_set_cache **pc)
{
    if (!pc || !*pc)
        return;
    vf_set_cache *c = *pc;
    if (c->prev)
        c->prev->next = c->next;
    else if (c->gpu->set_caches == c)
        c->gpu->set_caches = c->next;
    if (c->next)
        c->next->prev = c->prev;
    for (uint32_t i = 0; i < c->pool_count; i++)
        vkDestroyDescriptorPool(c->gpu->device, c->pools[i], NULL);
    free(c->keys);
    free(c);
    *pc = NULL;
}

vf_result vf_set_cache_create(vf_gpu *gpu, VkDescriptorSetLayout layout, const VkDescriptorType *types, uint32_t count,
                              const char *name, vf_set_cache **out)
{
    *out = NULL;
    if (!gpu || count == 0 || count > VF_SET_MAX_BINDINGS || !types)
        return VF_ERR_INVALID_ARG;
    vf_set_cache *c;
    VF_NEW_OR_RETURN(c);
    c->gpu = gpu;
    c->layout = layout;
    c->count = count;
    c->key_words = count * VF_SET_KEY_WORDS;
    snprintf(c->name, sizeof c->name, "%s", name ? name : "pipeline");
    /* pool sizes from the layout: descriptors of each type per set, times the chunk */
    for (uint32_t i = 0; i < count; i++) {
        uint32_t k = 0;
        while (k < c->size_count && c->sizes[k].type != types[i])
            k++;
        if (k == c->size_count) {
            if (k == VF_SET_CACHE_TYPES) {
                free(c);
                return VF_ERR_INVALID_ARG;
            }
            c->sizes[k].type = types[i];
            c->size_count++;
        }
        c->sizes[k].descriptorCount += VF_SET_CACHE_CHUNK;
    }
    c->next = gpu->set_caches;
    if (c->next)
        c->next->prev = c;
    gpu->set_caches = c;
    *out = c;
    return VF_OK;
}

static void fail(vf_set_cache *c, vf_result res)
{
    if (c->gpu->deferred_error == VF_OK)
        c->gpu->deferred_error = res;
}

/* One more chunk: a pool for VF_SET_CACHE_CHUNK sets, its sets allocated at
 * once, and room for their keys. */
static bool grow(vf_set_cache *c)
{
    if (c->pool_count == VF_SET_CACHE_POOLS)
        return false;
    uint64_t *keys = realloc(c->keys, (size_t)(c->allocated + VF_SET_CACHE_CHUNK) * c->key_words * sizeof *keys);
    if (!keys) {
        fail(c, VF_ERR_NO_MEMORY);
        return false;
    }
    c->keys = keys;
    VkDescriptorPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = VF_SET_CACHE_CHUNK,
        .poolSizeCount = c->size_count,
        .pPoolSizes = c->sizes,
    };
    VkDescriptorPool pool;
    vf_result res = VF_VK(vkCreateDescriptorPool(c->gpu->device, &pci, NULL, &pool));
    if (res != VF_OK) {
        fail(c, res);
        return false;
    }
    char name[96];
    snprintf(name, sizeof name, "%s descriptor pool %u", c->name, c->pool_count);
    vf_gpu_name(c->gpu, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)pool, name);
    VkDescriptorSetLayout layouts[VF_SET_CACHE_CHUNK];
    for (uint32_t i = 0; i < VF_SET_CACHE_CHUNK; i++)
        layouts[i] = c->layout;
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = pool,
        .descriptorSetCount = VF_SET_CACHE_CHUNK,
        .pSetLayouts = layouts,
    };
    if ((res = VF_VK(vkAllocateDescriptorSets(c->gpu->device, &ai, &c->sets[c->allocated]))) != VF_OK) {
        vkDestroyDescriptorPool(c->gpu->device, pool, NULL);
        fail(c, res);
        return false;
    }
    for (uint32_t i = 0; i < VF_SET_CACHE_CHUNK; i++) {
        snprintf(name, sizeof name, "%s set %u", c->name, c->allocated + i);
        vf_gpu_name(c->gpu, VK_OBJECT_TYPE_DESCRIPTOR_SET, (uint64_t)c->sets[c->allocated + i], name);
        c->used[c->allocated + i] = false;
    }
    c->pools[c->pool_count++] = pool;
    c->allocated += VF_SET_CACHE_CHUNK;
    return true;
}

VkDescriptorSet vf_set_cache_get(vf_set_cache *c, const uint64_t *key, VkWriteDescriptorSet *writes)
{
    size_t bytes = (size_t)c->key_words * sizeof *key;
    if (c->last < c->allocated && c->used[c->last] && !memcmp(&c->keys[(size_t)c->last * c->key_words], key, bytes))
        return c->sets[c->last];
    uint32_t free_entry = UINT32_MAX;
    for (uint32_t i = 0; i < c->allocated; i++) {
        if (!c->used[i]) {
            if (free_entry == UINT32_MAX)
                free_entry = i;
            continue;
        }
        if (!memcmp(&c->keys[(size_t)i * c->key_words], key, bytes)) {
            c->last = i;
            return c->sets[i];
        }
    }
    if (free_entry == UINT32_MAX) {
        if (!grow(c)) {
            /* every set holds a live combination: bind one of them so the
             * recording stays valid; the submit fails, so nothing runs */
            fail(c, VF_ERR_SET_CACHE_FULL);
            return c->allocated ? c->sets[0] : VK_NULL_HANDLE;
        }
        free_entry = c->allocated - VF_SET_CACHE_CHUNK;
    }
    /* a free entry is in no pending command buffer: its last combination
     * named a resource that has since been destroyed */
    VkDescriptorSet set = c->sets[free_entry];
    for (uint32_t i = 0; i < c->count; i++)
        writes[i].dstSet = set;
    vkUpdateDescriptorSets(c->gpu->device, c->count, writes, 0, NULL);
    memcpy(&c->keys[(size_t)free_entry * c->key_words], key, bytes);
    c->used[free_entry] = true;
    c->live++;
    c->last = free_entry;
    return set;
}

void vf_set_cache_forget(vf_gpu *gpu, uint64_t serial)
{
    if (!gpu || serial == 0)
        return;
    for (vf_set_cache *c = gpu->set_caches; c; c = c->next)
        for (uint32_t i = 0; i < c->allocated; i++) {
            if (!c->used[i])
                continue;
            const uint64_t *k = &c->keys[(size_t)i * c->key_words];
            for (uint32_t b = 0; b < c->count; b++)
                if (k[b * VF_SET_KEY_WORDS] == serial) {
                    c->used[i] = false;
                    c->live--;
                    break;
                }
        }
}

void vf_set_cache_stats(const vf_set_cache *c, uint32_t *live, uint32_t *allocated)
{
    if (live)
        *live = c ? c->live : 0;
    if (allocated)
        *allocated = c ? c->allocated : 0;
}
