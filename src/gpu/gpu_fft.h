/* gpu_fft: real-to-complex fast Fourier transforms of 2D and 3D fields on
 * the GPU, recorded into vkfluid's own command buffers. The transforms are
 * VkFFT's (Debian's libvkfft-dev, through third_party/vkfft_glue): a forward
 * plan from a real field to its half spectrum and an inverse plan back,
 * each compiled once at creation (VkFFT generates its GLSL and compiles it
 * with glslang, a fraction of a second per plan on a CPU device).
 *
 * Layouts: a real field holds size[0] x size[1] x size[2] floats, x
 * fastest, unpadded; the spectrum holds (size[0] / 2 + 1) x size[1] x
 * size[2] complex floats (re, im), x fastest: mode (kx, ky, kz) with kx in
 * [0, size[0] / 2] and ky, kz in [0, size)). The inverse is unnormalised:
 * inverse(forward(f)) = size[0] size[1] size[2] f.
 *
 * Sizes: each side must be a product of primes up to 13 (VkFFT's radix
 * kernels); VkFFT would take other sizes through Bluestein's algorithm,
 * with more memory and rounding, which vkfluid does not use. */
#ifndef VF_GPU_FFT_H
#define VF_GPU_FFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_buffer.h"
#include "gpu_context.h"

/** The largest prime factor a side may have. */
#define VF_FFT_MAX_PRIME 13

typedef struct vf_fft vf_fft;

/** What to transform. real_in (the forward transform's input) and real_out
 * (the inverse's output) may be the same buffer; each must hold at least
 * vf_fft_real_bytes. */
typedef struct vf_fft_desc {
    uint32_t dims;    /* 2 or 3 */
    uint32_t size[3]; /* along x, y, z (size[2] ignored in 2D) */
    vf_buffer *real_in, *real_out;
    const char *name; /* prefix of the debug names; may be NULL */
} vf_fft_desc;

/** The largest prime factor of n (n >= 1; 1 for n = 1). */
uint32_t vf_fft_largest_prime(uint32_t n);

/** The nearest size to n, at least 2, whose prime factors are all at most
 * VF_FFT_MAX_PRIME and that is even when `even` (the size a message
 * proposes). */
uint32_t vf_fft_nearest_size(uint32_t n, bool even);

/** Bytes a real field's buffer must have for the plans: the padded rows
 * VkFFT binds, 2 (size[0] / 2 + 1) floats each. */
uint64_t vf_fft_real_bytes(uint32_t dims, const uint32_t size[3]);

/** Bytes of the spectrum, and the device memory the transforms allocate
 * in all (spectrum, scratch and twiddle tables, an upper bound). */
uint64_t vf_fft_spectrum_bytes(uint32_t dims, const uint32_t size[3]);
uint64_t vf_fft_memory_bytes(uint32_t dims, const uint32_t size[3]);

/** Creates both plans and the spectrum. Returns VF_ERR_INVALID_ARG for a
 * size with a prime factor above VF_FFT_MAX_PRIME or a real buffer too
 * small, VF_ERR_OUT_OF_DEVICE_MEMORY, or VF_ERR_VULKAN when VkFFT fails
 * (its reason in err, which may be NULL). The caller keeps the real
 * buffers, which must outlive the transforms. */
vf_result vf_fft_create(vf_gpu *gpu, const vf_fft_desc *desc, vf_fft **out, char *err, size_t cap);

/** Destroys the transforms; accepts NULL and *f == NULL. The GPU must be
 * idle. */
void vf_fft_destroy(vf_fft **f);

/** The spectrum buffer (owned by f): the forward transform writes it, the
 * inverse reads it (and leaves it undefined). */
vf_buffer *vf_fft_spectrum(vf_fft *f);

/** Records the forward (real_in -> spectrum) or inverse (spectrum ->
 * real_out) transform into cmd: VkFFT's dispatches, each followed by its
 * own barrier, then a compute-to-compute barrier. The work counters see
 * each dispatch as kernel "vkfft forward" or "vkfft inverse" with the bytes
 * of the buffers it binds. The previous writes of the input must be behind
 * a compute barrier. */
vf_result vf_fft_record(vf_fft *f, VkCommandBuffer cmd, bool inverse);

/** Dispatches (and VkFFT barriers) one transform records. */
uint32_t vf_fft_dispatches(const vf_fft *f, bool inverse);

#endif
