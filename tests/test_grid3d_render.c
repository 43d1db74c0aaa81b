/* The 3D grid's volume view: the light-transmittance volume computed on the
 * GPU against its CPU reference (render_volume.c) on a plume with a sphere
 * and a box (tolerance 1e-4 absolute: fp32 exponentials and trilinear
 * sampling; transmittance is in [0, 1]); every slice view renders; and a
 * golden capture of smoke3d compared with the same thresholds as the other
 * golden captures (SSIM 0.95, PSNR 30 dB), which a plume without buoyancy
 * fails; the fire's black-body colours (shared_volume.h's table) against
 * Planck's law integrated with the CIE 1931 colour matching functions
 * (1e-3), and that integration against published chromaticities of the
 * Planckian locus. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "gpu_cmd.h"
#include "render_registry.h"
#include "render_volume.h"
#include "solver_grid3d.h"
#include "testlib.h"
#include "render_volume_ref.h"

static char out[16384];

static void test_light(vf_gpu *gpu)
{
    vf_test_section("light transmittance volume: GPU vs CPU");
    vf_grid3d_desc d = {.nx = 16, .ny = 24, .nz = 16, .alpha = 4, .dt = 0.02, .source_on = true,
                        .source = {0.5f, 0.2f, 0.5f, 0.12f}, .source_density = 6, .source_temperature = 3,
                        .obstacles = {{.shape = VF_GRID3D_SHAPE_SPHERE, .centre = {0.5f, 0.9f, 0.5f}, .size = {0.15f}},
                                      {.shape = VF_GRID3D_SHAPE_BOX, .centre = {0.2f, 0.5f, 0.7f}, .size = {0.1f, 0.1f, 0.1f}}}};
    for (int s = 0; s < 6; s++)
        d.sides[s] = VF_G3_BC_FREESLIP;
    vf_grid3d *g = vf_test_grid3d(gpu, &d);
    if (!g)
        return;
    CHECK(vf_test_grid3d_steps(gpu, g, 10) == VF_OK);
    vf_renderer *r = NULL;
    vf_render_options opt = {.width = 64, .height = 48};
    char err[256] = "";
    if (!CHECK_MSG(vf_render_create_for(gpu, vf_grid3d_solver(g), &opt, &r, err, sizeof err) == VF_OK, "%s", err)) {
        vf_grid3d_destroy(&g);
        return;
    }
    VkCommandBuffer cmd;
    CHECK(vf_cmd_oneshot_begin(gpu, &cmd) == VF_OK);
    vf_cmd_barrier_compute(cmd);
    vf_render_volume_record_light(r, cmd);
    vf_cmd_barrier_compute_to_transfer(cmd);
    CHECK(vf_cmd_oneshot_submit(gpu, cmd) == VF_OK);
    size_t nc = 16 * 24 * 16;
    float *scal = malloc(2 * nc * 4), *gpu_t = malloc(nc * 4), *cpu_t = malloc(nc * 4);
    uint32_t *mask = malloc(nc * 4);
    float dir[3], step, ext;
    vf_buffer *lb = vf_render_volume_light(r, dir, &step, &ext);
    CHECK(lb != NULL && vf_buffer_read(lb, 0, gpu_t, nc * 4) == VF_OK);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_SCALARS, scal) == VF_OK);
    CHECK(vf_grid3d_read(g, VF_GRID3D_FIELD_MASK, mask) == VF_OK);
    vf_render_volume_light_ref(16, 24, 16, 1.0f / 16, scal, mask, dir, step, ext, cpu_t);
    double err_max = 0, tmin = 1, tmax = 0;
    size_t shadowed = 0;
    for (size_t k = 0; k < nc; k++) {
        err_max = fmax(err_max, fabs((double)gpu_t[k] - cpu_t[k]));
        tmin = fmin(tmin, cpu_t[k]);
        tmax = fmax(tmax, cpu_t[k]);
        shadowed += cpu_t[k] == 0.0f;
    }
    printf("  transmittance in [%.3g, %.3g], %zu cells in an obstacle's shadow; max |gpu - cpu| = %.3g (tol 1e-4)\n", tmin,
           tmax, shadowed, err_max);
    CHECK_LE(err_max, 1e-4);
    CHECK(tmin < 0.5 && tmax > 0.99 && shadowed > 0); /* the test sees smoke, clear air and a shadow */
    free(scal);
    free(gpu_t);
    free(cpu_t);
    free(mask);
    vf_renderer_destroy(&r);
    vf_grid3d_destroy(&g);
}

/* The fire's colours: the table the shader interpolates (shared_volume.h)
 * against Planck's law integrated on the CPU, and that integration against
 * published chromaticities of the Planckian locus. */
static void test_blackbody(void)
{
    vf_test_section("black-body colours: the shader's table vs Planck x CIE 1931 on the CPU");
#define ROW(k, r, g, b) {k, r, g, b},
    static const double table[][4] = {VF_BLACKBODY_LIST(ROW)};
#undef ROW
    size_t n = sizeof table / sizeof table[0];
    CHECK_EQ_INT((int)n, VF_BLACKBODY_COUNT);
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double rgb[3];
        CHECK(table[i][0] == VF_BLACKBODY_K0 + VF_BLACKBODY_DK * (double)i); /* evenly spaced, as the shader assumes */
        vf_blackbody_rgb_ref(table[i][0], rgb);
        for (int c = 0; c < 3; c++)
            worst = fmax(worst, fabs(rgb[c] - table[i][1 + c]));
    }
    printf("  %zu rows from %.0f K to %.0f K: max |table - reference| = %.2g (tol 1e-3)\n", n, table[0][0],
           table[n - 1][0], worst);
    CHECK_LE(worst, 1e-3);
    /* chromaticity x, y: CIE illuminant A (a black body at 2856 K) exactly
     * (0.44757, 0.40745); the CIE 1931 Planckian locus at 6500 K (0.3135,
     * 0.3237), 2000 K (0.5267, 0.4133) and 1000 K (0.6528, 0.3444), where
     * the fit's red lobe is weakest */
    static const double locus[][4] = {
        {2856, 0.44757, 0.40745, 0.002}, {6500, 0.3135, 0.3237, 0.002},
        {2000, 0.5267, 0.4133, 0.004},   {1000, 0.6528, 0.3444, 0.02},
    };
    for (size_t i = 0; i < sizeof locus / sizeof locus[0]; i++) {
        double xyz[3];
        vf_blackbody_xyz_ref(locus[i][0], xyz);
        double sum = xyz[0] + xyz[1] + xyz[2], x = xyz[0] / sum, y = xyz[1] / sum;
        double d = hypot(x - locus[i][1], y - locus[i][2]);
        printf("  %4.0f K: x %.4f y %.4f, published %.4f %.4f: off by %.4f (tol %.3f)\n", locus[i][0], x, y,
               locus[i][1], locus[i][2], d, locus[i][3]);
        CHECK_LE(d, locus[i][3]);
    }
}

static void test_views(void)
{
    vf_test_section("every view of the 3D grid renders");
    const char *modes[] = {"volume", "density", "speed", "pressure", "vorticity"};
    for (int m = 0; m < 5; m++) {
        int rc = vf_test_run_capture(out, sizeof out,
                                     "'%s' capture wind3d --set n=8 --frames 2 --size 64x48 --render %s --out '%s' --quiet 2>&1",
                                     vf_t.vkfluid, modes[m], vf_test_path(modes[m]));
        CHECK_MSG(rc == 0, "--render %s: exit %d: %s", modes[m], rc, out);
    }
    int rc = vf_test_run_capture(out, sizeof out, "'%s' capture wind3d --set n=8 --frames 1 --render dye --out '%s' 2>&1",
                                 vf_t.vkfluid, vf_test_path("bad"));
    CHECK_EQ_INT(rc, 2);
    CHECK_STR_CONTAINS(out, "volume|density|speed|pressure|vorticity");
}

#define SMOKE3D "smoke3d --set n=16 --frames 60 --every 20 --size 160x120"

static void test_golden(void)
{
    vf_test_section("golden capture of smoke3d");
    vf_test_golden("capture_smoke3d", SMOKE3D, "--set buoyancy=0", "a plume without buoyancy");
}

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    test_light(gpu);
    vf_test_gpu_done(&gpu);
    test_blackbody();
    test_views();
    test_golden();
    return vf_test_finish();
}
