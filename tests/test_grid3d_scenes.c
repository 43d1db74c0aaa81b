/* The 3D grid scenes through the command line: bad input (n that multigrid
 * cannot coarsen, sizes beyond any device, obstacles outside the domain, a
 * bad scene-file value, pressure=fft outside a periodic box without solids or
 * at a size VkFFT cannot take) gives one line naming the key and exit 2 before any
 * GPU work (checked with a --device that matches nothing: the input error
 * wins); a tiny run of each scene exports a VTK ImageData file with density,
 * temperature, velocity and pressure and a finite summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VF_TESTLIB_NO_GPU
#include "testlib.h"

static void bad(const char *args, const char *key)
{
    char out[4096];
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run %s --steps 1 --device 99 2>&1", vf_t.vkfluid, args);
    printf("  %s -> %d: %s", args, rc, out);
    CHECK_EQ_INT(rc, 2);
    CHECK_STR_CONTAINS(out, key);
    CHECK_EQ_INT(vf_test_lines(out), 1);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);

    vf_test_section("bad input: one line naming the key, exit 2, before the GPU");
    bad("smoke3d --set n=40", "n=40: multigrid needs");
    bad("fire3d --set n=20", "n=20: multigrid needs");
    bad("smoke3d --set n=4096", "n: 4096 x 8192 x 4096");
    bad("smoke3d --set obstacle_y=1.9", "obstacle_y=1.9");
    bad("wind3d --set obstacle_x=-0.2", "obstacle_x=-0.2");
    bad("wind3d --set obstacle_z=0.95 --set obstacle_size=0.2", "obstacle_z=0.95");
    bad("fire3d --set source_radius=0", "source_radius");
    bad("wind3d --set re=-1", "re");
    /* the FFT pressure: a triply periodic box without solids, sides VkFFT takes */
    bad("smoke3d --set pressure=fft", "add walls=periodic");
    bad("smoke3d --set walls=periodic --set pressure=fft", "obstacle: pressure=fft solves a box without solids");
    bad("smoke3d --set walls=periodic --set pressure=fft --set obstacle=none --set n=34", "use n=32");
    bad("smoke3d --set walls=periodic --set n=24", "use n=32 (a power of 2), or pressure=fft");
    bad("wind3d --set walls=periodic", "walls=periodic: wind3d has an inflow");
    FILE *f = fopen(vf_test_path("bad.json"), "w");
    if (CHECK(f != NULL)) {
        fputs("{\"solver\": \"grid3d\", \"scene\": \"smoke3d\", \"grid3d\": {\"n\": 20}}\n", f);
        fclose(f);
        char args[1024];
        snprintf(args, sizeof args, "--scene '%s'", vf_test_path("bad.json"));
        bad(args, "n=20: multigrid needs");
    }

    vf_test_section("tiny runs export VTK ImageData");
    const char *scenes[] = {"smoke3d", "fire3d", "wind3d"};
    for (int s = 0; s < 3; s++) {
        char dir[512], out[8192];
        snprintf(dir, sizeof dir, "%s", vf_test_path(scenes[s]));
        int rc = vf_test_run_capture(out, sizeof out, "'%s' run %s --set n=8 --steps 3 --export '%s' --quiet 2>&1",
                                     vf_t.vkfluid, scenes[s], dir);
        if (!CHECK_MSG(rc == 0, "%s: rc %d: %s", scenes[s], rc, out))
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/grid3d_0000.vti", dir);
        size_t size = 0;
        char *vti = vf_test_read_file(path, &size);
        if (!CHECK_MSG(vti != NULL, "%s missing", path))
            continue;
        CHECK_STR_CONTAINS(vti, "<VTKFile type=\"ImageData\"");
        CHECK_STR_CONTAINS(vti, "Name=\"density\"");
        CHECK_STR_CONTAINS(vti, "Name=\"temperature\"");
        CHECK_STR_CONTAINS(vti, "Name=\"velocity\" NumberOfComponents=\"3\"");
        CHECK_STR_CONTAINS(vti, "Name=\"pressure\"");
        CHECK_STR_CONTAINS(vti, "format=\"appended\"");
        char extent[64];
        int nx = s == 2 ? 16 : 8, ny = s == 2 ? 8 : 16;
        snprintf(extent, sizeof extent, "WholeExtent=\"0 %d 0 %d 0 7\"", nx - 1, ny - 1);
        CHECK_STR_CONTAINS(vti, extent);
        /* header + 5 arrays of (8-byte length + data) */
        size_t points = (size_t)nx * ny * 8, data = 5 * 8 + points * 4 * (1 + 1 + 3 + 1 + 1);
        CHECK_LE(data, size);
        free(vti);
        snprintf(path, sizeof path, "%s/summary.json", dir);
        char *sum = vf_test_read_file(path, NULL);
        if (CHECK(sum != NULL)) {
            CHECK_STR_CONTAINS(sum, "\"family\": \"grid3d\"");
            CHECK_STR_CONTAINS(sum, "\"final_divergence_l2\"");
            CHECK(strstr(sum, "nan") == NULL && strstr(sum, ": inf") == NULL && strstr(sum, ": -inf") == NULL);
        }
        free(sum);
    }
    return vf_test_finish();
}
