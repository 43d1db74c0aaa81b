/* testlib: a small assert library for vkfluid's tests.
 *
 * Every check prints both values and file:line when it fails, counts the
 * failure and carries on; vf_test_finish() prints "N passed, N failed" and
 * returns the exit code. GPU tests call vf_test_gpu() which creates a context
 * with validation (and synchronization validation) on, unless the environment
 * sets VKFLUID_VALIDATION=0 (the sanitizer build's run, tests/tests.cmake),
 * and exits 77 (skip) only when no Vulkan device exists at all. */
#ifndef VF_TESTLIB_H
#define VF_TESTLIB_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct vf_test_state {
    int passed, failed;
    const char *vkfluid; /* argv[1]: path of the vkfluid binary */
    const char *source;  /* argv[2]: the source directory */
    const char *scratch; /* argv[3]: an empty scratch directory for this test */
} vf_test_state;

extern vf_test_state vf_t;

/** Parses argv (see tests.cmake), creates an empty scratch dir. */
void vf_test_init(int argc, char **argv);
/** Prints the summary line; returns 0 when nothing failed, else 1. */
int vf_test_finish(void);
/** Records one check. Returns cond. */
bool vf_test_check(bool cond, const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/** Runs a shell command; returns its exit status (0..255), or -1. Output to stdout/stderr of the test. */
int vf_test_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** Runs a shell command capturing stdout+stderr into out (NUL-terminated, truncated to cap); returns the exit status. */
int vf_test_run_capture(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** Returns a path inside the scratch dir (static ring of buffers, valid for 8 calls). */
const char *vf_test_path(const char *name);
/** Reads a whole file into a new NUL-terminated buffer (free() it); *size
 * (may be NULL) gets its length. NULL when it cannot be read. */
char *vf_test_read_file(const char *path, size_t *size);
/** vf_test_read_file of dir/name with a check that it can be read (its
 * failure names the path). */
char *vf_test_read_checked(const char *dir, const char *name, size_t *size);
/** True when both files can be read and hold the same bytes. */
bool vf_test_same_file(const char *a, const char *b);
/** True when path exists. */
bool vf_test_exists(const char *path);
/** The number of entries of folder dir (other than . and ..) whose name
 * contains needle ("" counts them all); 0 when dir cannot be read. */
size_t vf_test_count_files(const char *dir, const char *needle);
/** The number of newlines in s. */
int vf_test_lines(const char *s);

/* The shape of every command's gpu-failure line (src/app/frame_runner.c), a
 * POSIX extended regular expression over the line without its newline:
 * group 2 is the frame, group 5 the folder of the last good state (unset
 * when none was kept). */
#define VF_TEST_GPU_FAILURE_SHAPE                                                                                      \
    "^error: scene [a-z0-9-]+( at [a-z]+ [0-9]+)?: the gpu device was lost at frame ([0-9]+)(, submit [0-9]+ of the "  \
    "frame)? \\(passes [^()]+\\) while [a-z ]+: try [^;]+, another gpu \\(--device\\) or a newer driver; "          \
    "(last good state \\(frame [0-9]+, t = [0-9.e+-]+ s\\) written to ([^ ]+)|no good state was kept \\([^()]+\\))$"

/** The largest |a[k]| of n floats (0 when n is 0). */
double vf_test_max_abs(const float *a, size_t n);
/** The largest |got[k] - ref[k]| of n floats into *err (a NaN difference
 * counts as the largest); returns its index (0 when n is 0). */
size_t vf_test_max_diff(const float *got, const float *ref, size_t n, double *err);
/** The golden frames of a capture: with VKFLUID_UPDATE_GOLDEN set, first
 * rewrites tests/golden/<golden> from `vkfluid capture <args>`. Then checks
 * that a capture of args matches the golden frames (`vkfluid compare`, SSIM
 * 0.95, PSNR 30) and that a capture of args plus broken (options that break a
 * pass, described by what) fails that comparison. */
void vf_test_golden(const char *golden, const char *args, const char *broken, const char *what);
/** The next number of a 64-bit LCG state in [0, 1) with 53 bits (the
 * tests' seeded random numbers; each test keeps its own state). */
double vf_test_rand(uint64_t *state);
/** The next number of a 64-bit LCG state in [0, 1) with 24 bits, as a float. */
float vf_test_randf(uint64_t *state);
/** The length of a 3-vector. */
double vf_test_norm3(const double *v);
/** Checks max |got - ref| <= tol * max(floor_, max |ref|) over n floats and
 * prints it, named by what; a failure names the worst element, as (x, y)
 * when width is not 0, else by its index. */
void vf_test_compare(const char *what, const float *got, const float *ref, size_t n, uint32_t width, double tol,
                     double floor_);
/** A bad input: the arguments after `vkfluid run` and a text its one error
 * line must contain. */
typedef struct vf_test_bad {
    const char *args, *want;
} vf_test_bad;
/** Runs `vkfluid run ARGS --export DIR` for each case and checks: exit 2,
 * one line that starts "error: " and contains the case's text, and nothing
 * written (no_folder: DIR not even made; else no file in it). */
void vf_test_bad_runs(const vf_test_bad *cases, size_t n, bool no_folder);
/** Starts a named section (printed). */
void vf_test_section(const char *name);
/** True when VKFLUID_DRIVER_LIGHT=1 (the SwiftShader and lavapipe matrix
 * rows and the sanitizer run, tests/tests.cmake): a test then runs fewer
 * frames or steps of the same paths. */
bool vf_test_light(void);

#define CHECK(c) vf_test_check((c), __FILE__, __LINE__, "CHECK(%s)", #c)
#define CHECK_MSG(c, ...) vf_test_check((c), __FILE__, __LINE__, __VA_ARGS__)
#define CHECK_EQ_INT(a, b)                                                                          \
    do {                                                                                            \
        long long vf_a_ = (long long)(a), vf_b_ = (long long)(b);                                   \
        vf_test_check(vf_a_ == vf_b_, __FILE__, __LINE__, "%s == %s: %lld vs %lld", #a, #b, vf_a_, vf_b_); \
    } while (0)
#define CHECK_EQ_U64(a, b)                                                                          \
    do {                                                                                            \
        unsigned long long vf_a_ = (unsigned long long)(a), vf_b_ = (unsigned long long)(b);        \
        vf_test_check(vf_a_ == vf_b_, __FILE__, __LINE__, "%s == %s: %llu vs %llu", #a, #b, vf_a_, vf_b_); \
    } while (0)
/* |a - b| <= tol (absolute) */
#define CHECK_NEAR(a, b, tol)                                                                       \
    do {                                                                                            \
        double vf_a_ = (double)(a), vf_b_ = (double)(b), vf_t_ = (double)(tol);                     \
        vf_test_check(fabs(vf_a_ - vf_b_) <= vf_t_, __FILE__, __LINE__,                             \
                      "%s ~ %s: %.9g vs %.9g (diff %.3g > tol %.3g)", #a, #b, vf_a_, vf_b_,        \
                      fabs(vf_a_ - vf_b_), vf_t_);                                                  \
    } while (0)
/* |a - b| <= tol * max(|b|, floor) (relative) */
#define CHECK_REL(a, b, tol, floor_)                                                                \
    do {                                                                                            \
        double vf_a_ = (double)(a), vf_b_ = (double)(b), vf_t_ = (double)(tol);                     \
        double vf_s_ = fmax(fabs(vf_b_), (double)(floor_));                                         \
        vf_test_check(fabs(vf_a_ - vf_b_) <= vf_t_ * vf_s_, __FILE__, __LINE__,                     \
                      "%s ~ %s: %.9g vs %.9g (rel diff %.3g > tol %.3g)", #a, #b, vf_a_, vf_b_,    \
                      fabs(vf_a_ - vf_b_) / vf_s_, vf_t_);                                          \
    } while (0)
#define CHECK_LE(a, b)                                                                              \
    do {                                                                                            \
        double vf_a_ = (double)(a), vf_b_ = (double)(b);                                            \
        vf_test_check(vf_a_ <= vf_b_, __FILE__, __LINE__, "%s <= %s: %.9g vs %.9g", #a, #b, vf_a_, vf_b_); \
    } while (0)
#define CHECK_STR_CONTAINS(hay, needle)                                                             \
    vf_test_check(strstr((hay), (needle)) != NULL, __FILE__, __LINE__,                              \
                  "'%s' contains '%s'", (hay), (needle))

#ifndef VF_TESTLIB_NO_GPU
#include "gpu_context.h"
/** Creates the test GPU context (validation on unless VKFLUID_VALIDATION=0;
 * vf_test_init makes 1 the default for the test and the commands it runs). On no device at all,
 * prints why and exits 77 (skip). Any other failure fails the test (exit 1). */
vf_gpu *vf_test_gpu(void);
/** vf_test_init, then vf_test_gpu: how a GPU test starts. */
vf_gpu *vf_test_start(int argc, char **argv);
/** Checks that the context saw zero validation messages, then destroys it. */
void vf_test_gpu_done(vf_gpu **gpu);

struct vf_grid_desc;
struct vf_grid;
/** Creates a 2D grid solver of d, with a check that names the error; NULL
 * when it cannot be created. */
struct vf_grid *vf_test_grid(vf_gpu *gpu, const struct vf_grid_desc *d);

struct vf_grid3d_desc;
struct vf_grid3d;
/** Creates a 3D grid solver of d, with a check that names the error; NULL
 * when it cannot be created. */
struct vf_grid3d *vf_test_grid3d(vf_gpu *gpu, const struct vf_grid3d_desc *d);

struct vf_sph_desc;
struct vf_sph;
/** Creates an SPH solver of d, with a check that names the error; NULL when
 * it cannot be created. */
struct vf_sph *vf_test_sph(vf_gpu *gpu, const struct vf_sph_desc *d);

struct vf_solver;
struct vf_renderer;
struct vf_capture;
/** Records `frames` frames of s and one render by r into cap's target in one
 * command buffer, submits it and waits, with a check on each step; returns
 * cap's pixels (owned by cap), NULL when the command buffer could not begin. */
const uint8_t *vf_test_render_frames(vf_gpu *gpu, struct vf_solver *s, struct vf_renderer *r, struct vf_capture *cap,
                                     int frames);

/** How vf_test_run_steps records: record(user, cmd, last) records one step
 * (last: the final step of its command buffer); chunk steps a one-shot
 * command buffer (0: all in one); to_compute and to_transfer add a
 * transfer-to-compute barrier before and a compute-to-transfer barrier after
 * each command buffer's steps. */
typedef struct vf_test_steps {
    vf_result (*record)(void *user, VkCommandBuffer cmd, bool last);
    void *user;
    uint32_t chunk;
    bool to_compute, to_transfer;
} vf_test_steps;
/** Records count steps as how says in one-shot command buffers, submits
 * each and waits; the first error stops it (the unsubmitted buffer is freed). */
vf_result vf_test_run_steps(vf_gpu *gpu, const vf_test_steps *how, uint32_t count);
/** count steps of a 2D grid in one command buffer: a transfer-to-compute
 * barrier first, the last step with the grid's last-step flag. */
vf_result vf_test_grid_steps(vf_gpu *gpu, struct vf_grid *g, uint32_t count);
/** count substeps of a 3D grid in one command buffer between a
 * transfer-to-compute and a compute-to-transfer barrier. */
vf_result vf_test_grid3d_steps(vf_gpu *gpu, struct vf_grid3d *g, uint32_t count);
/** count substeps of the SPH solver's dt, 64 a command buffer. */
vf_result vf_test_sph_steps(vf_gpu *gpu, struct vf_sph *s, uint32_t count);

/** Creates a solver of a registered scene after its defaults and the
 * key=value sets (each set, the scene's validate and create checked, the
 * failure named); NULL when any fails. */
struct vf_solver *vf_test_scene(vf_gpu *gpu, const char *scene, const char *const *sets, int nsets);
/** Records, submits and waits for `frames` frames of s, one one-shot
 * command buffer each (as the viewer does), with a check on each step;
 * false at the first failure. */
bool vf_test_frames(vf_gpu *gpu, struct vf_solver *s, uint32_t frames);
/** A 2D grid's field (vf_grid_field) read back into a new array of *n
 * 4-byte values, *width of them a row (free() it); NULL (the failure
 * checked) when it cannot be read. */
void *vf_test_read_grid(struct vf_grid *g, int field, size_t *n, uint32_t *width);
/** vf_test_compare of a 2D grid's field (read back) against ref. */
void vf_test_compare_grid(const char *what, struct vf_grid *g, int field, const float *ref, double tol, double floor_);
/** One pass of a 2D grid in a one-shot command buffer after a
 * transfer-to-compute barrier; submits and waits. */
bool vf_test_grid_pass(struct vf_grid *g, int pass);
/** One pass of a 3D grid in a one-shot command buffer between a
 * transfer-to-compute and a compute-to-transfer barrier; submits and waits. */
bool vf_test_grid3d_pass(struct vf_grid3d *g, int pass);
/** iters iterations of a 2D grid's pressure method (vf_grid_pressure;
 * vf_grid_record_pressure_iterations) as vf_test_grid_pass records a pass. */
bool vf_test_grid_pressure(struct vf_grid *g, int method, uint32_t iters);
/** A 3D grid's pressure solve of iters (vf_grid3d_record_pressure) as
 * vf_test_grid3d_pass records a pass. */
bool vf_test_grid3d_pressure(struct vf_grid3d *g, int method, uint32_t iters);

struct vf_sph_snapshot;
struct vf_sph_params;
/** The settling column of the SPH hydrostatic tests: 14 x 18 x 14 particles
 * of spacing 0.01 m at rest in a 0.14 m x 0.27 m x 0.14 m tank, h = 2.41
 * spacings, water (rho0 1000), g = 9.81, c = 10 sqrt(2 g D), restitution
 * 0.2, cfl 0.25, 60 frames a second. Sets *d (the rest zero: the caller sets
 * viscosity, damping and its method) and returns the positions d points to
 * (free() them after the solver is made), NULL when out of memory. */
float (*vf_test_sph_column(struct vf_sph_desc *d))[4];
/** What the column holds after settling, measured over the particles more
 * than 2h from the surface and the walls: the pressure (Shepard-smoothed)
 * against rho0 g depth, worst and mean relative error, the worst of the raw
 * per-particle pressure, the mean density error, and the mean vertical
 * acceleration of the pressures, -(m / rho0^2) sum_j (p_i + p_j) dW/dy
 * (dW: the gradient the method's shaders take, dfsph's kernel or the
 * lattice-normalised spiky one; means 0 when no particle counts). */
typedef struct vf_test_hydrostatic {
    double surface; /* m: the level of the water volume over the tank floor */
    int used;       /* particles measured */
    double worst, mean, worst_raw, density, accel;
} vf_test_hydrostatic;
vf_test_hydrostatic vf_test_sph_hydrostatic(const struct vf_sph_snapshot *snap, const struct vf_sph_params *prm,
                                            const struct vf_sph_desc *d);
/** The mean kinetic energy per unit mass of a snapshot's particles (0 for none). */
double vf_test_sph_kinetic(const struct vf_sph_snapshot *snap);

/** The obstacles of the SPH kernel tests, one each: a sphere at (0.1, 0.1,
 * 0.1) of radius 0.03 and the box (0.15, 0.02, 0.02)-(0.2, 0.12, 0.07). */
void vf_test_sph_obstacles(struct vf_sph_desc *d);
/** A jittered lattice of m^3 particles: coordinate offset + s (c + jitter
 * (r - 0.5)), velocity speed (r - 0.5), r from vf_test_rand(rng), less those
 * inside vf_test_sph_obstacles' shapes. pos and vel share one allocation
 * (free(pos) frees both); n is how many were kept (0 and NULLs when out of
 * memory). */
typedef struct vf_test_cluster {
    float (*pos)[4], (*vel)[4];
    uint32_t n;
} vf_test_cluster;
vf_test_cluster vf_test_sph_cluster(uint64_t *rng, int m, double s, double offset, double jitter, double speed);

/** The slot of each particle id in a snapshot of n particles: where[id] = k
 * for snap->id[k] = id < n (0 for ids it does not hold); a new array to
 * free(), NULL when out of memory. */
uint32_t *vf_test_sph_where(const struct vf_sph_snapshot *snap, uint32_t n);

struct vf_gpu_counters;
/** Checks the work counted over one FFT pressure solve (printed): VkFFT's
 * forward and inverse kernels, at least 2 dispatches each with bytes moved,
 * and one scaling dispatch besides. */
void vf_test_check_fft_counts(const struct vf_gpu_counters *c);

struct vf_height_desc;
/** Creates a height-field solver of d, with a check that names the error;
 * NULL when it cannot be created. */
struct vf_solver *vf_test_height_solver(vf_gpu *gpu, const struct vf_height_desc *d);

struct vf_terrain_desc;
/** Creates a terrain solver of d, with a check that names the error; NULL
 * when it cannot be created. */
struct vf_solver *vf_test_terrain(vf_gpu *gpu, const struct vf_terrain_desc *d);
#endif

#endif
