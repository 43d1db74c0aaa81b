/* Height-field water through `vkfluid run`: bad input is one line and exit 2
 * (explicit dt above the limit, g <= 0, no water anywhere, unknown keys);
 * --export writes height_NNNN.csv with the header x,y,h,bed and one row per
 * cell, a .vti, and summary.json with the total volume; the river scene
 * (height field over the grid's channel flow) runs and exports the same way,
 * with the pillar in the bed column and the flow's summary inside; the
 * river's flow_pressure=penalty (Chen & Lobo) under coupling=pressure gives
 * multigrid's surface within 5 % of its disturbance, and a flow_epsilon
 * beyond the sub-step bound is one line naming the key. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testlib.h"

static int run(char *out, size_t cap, const char *args)
{
    int rc = vf_test_run_capture(out, cap, "'%s' run %s", vf_t.vkfluid, args);
    printf("$ vkfluid run %s -> %d\n%s", args, rc, out);
    return rc;
}

/* A run of args exits 2 with one line that contains needle. */
static void one_line_error(const char *args, const char *needle)
{
    char out[4096];
    CHECK_EQ_INT(run(out, sizeof out, args), 2);
    CHECK_STR_CONTAINS(out, needle);
    CHECK_EQ_INT(vf_test_lines(out), 1);
}

static void bad_input(void)
{
    vf_test_section("bad input: one line, exit 2");
    char out[4096];
    one_line_error("pool --set integrator=explicit --set dt=0.05 --steps 1", "lower dt or use integrator=adi");
    CHECK_EQ_INT(run(out, sizeof out, "pool --set integrator=adi --set dt=0.05 --steps 1 --quiet"), 0);
    one_line_error("pool --set g=0 --steps 1", "g=0");
    CHECK_EQ_INT(run(out, sizeof out, "pool --set g=-9.81 --steps 1"), 2);
    one_line_error("pool --set surface=-0.5 --steps 1", "negative everywhere");
    CHECK_EQ_INT(run(out, sizeof out, "boat --set surface=-5 --set bed=0 --steps 1"), 2);
    one_line_error("pool --set depth=2 --steps 1", "unknown key 'depth'");
    CHECK_EQ_INT(run(out, sizeof out, "pool --set integrator=rk4 --steps 1"), 2);
    CHECK_STR_CONTAINS(out, "explicit|adi");
    CHECK_EQ_INT(run(out, sizeof out, "pool --set coupling=vorticity --steps 1"), 2);
    CHECK_STR_CONTAINS(out, "none|pressure|divergence");
}

/* The largest size the issue names: 4096^2 cells run both integrators (a
 * step each, checked: finite, volume kept). */
static void large(void)
{
    vf_test_section("4096 x 4096 cells: explicit and adi steps, checked");
    char out[8192];
    for (int adi = 0; adi < 2; adi++) {
        char args[256];
        snprintf(args, sizeof args,
                 "pool --set nx=4096 --set ny=4096 --set dx=0.01 --set leaves=0 --set ducks=0 --set integrator=%s "
                 "--steps 1 --check-every 1 --quiet",
                 adi ? "adi" : "explicit");
        int rc = run(out, sizeof out, args);
        CHECK_MSG(rc == 0, "%s: exit %d: %s", args, rc, out);
    }
}

/* Opens dir/height_0000.csv (NULL, a failed check, when missing) and checks
 * its header line; the rows follow. */
static FILE *open_height_csv(const char *dir)
{
    char path[4200], line[256];
    snprintf(path, sizeof path, "%s/height_0000.csv", dir);
    FILE *f = fopen(path, "r");
    if (!CHECK_MSG(f != NULL, "%s exists", path))
        return NULL;
    CHECK(fgets(line, sizeof line, f) != NULL);
    CHECK(!strcmp(line, "x,y,h,bed\n"));
    return f;
}

/* Runs `vkfluid run ARGS --export DIR --quiet` (a check that it exits 0) and
 * opens DIR's height csv as open_height_csv does. */
static FILE *export_and_open(char *out, size_t cap, const char *args, const char *dir)
{
    char all[4400];
    snprintf(all, sizeof all, "%s --export '%s' --quiet", args, dir);
    CHECK_EQ_INT(run(out, cap, all), 0);
    return open_height_csv(dir);
}

/* Reads dir/summary.json (free() it; NULL, a failed check, when missing)
 * and checks that its total volume kept the initial one (relative 1e-5);
 * *v0 gets the initial volume, NAN when the summary lacks the volumes (a
 * failed check). */
static char *read_summary(const char *dir, double *v0)
{
    char *js = vf_test_read_checked(dir, "summary.json", NULL);
    *v0 = NAN;
    if (!js)
        return NULL;
    const char *tv = strstr(js, "\"total_volume\": "), *iv = strstr(js, "\"initial_volume\": ");
    if (CHECK(tv && iv)) {
        double v = atof(tv + 16);
        *v0 = atof(iv + 18);
        printf("  summary: initial volume %.9g m^3, total volume %.9g m^3\n", *v0, v);
        CHECK_REL(v, *v0, 1e-5, 0);
    }
    return js;
}

static void export_files(void)
{
    vf_test_section("--export: csv, vti, summary.json");
    char out[8192], path[4200];
    const char *dir = vf_test_path("pool");
    FILE *f = export_and_open(out, sizeof out,
                              "pool --set nx=32 --set ny=24 --set leaves=2 --set ducks=1 --steps 12 --export-every 0.1 "
                              "--check-every 4",
                              dir);
    if (f) {
        char line[256];
        int rows = 0;
        double x, y, h, b;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "%lf,%lf,%lf,%lf", &x, &y, &h, &b) == 4)
                rows++;
        }
        CHECK_EQ_INT(rows, 32 * 24);
        CHECK_NEAR(x, 31.5 * 0.04, 1e-6); /* the last row: cell (31, 23) */
        CHECK_NEAR(b, 0.0, 1e-6);
        CHECK_NEAR(h, 1.2, 0.05);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/height_0001.csv", dir);
    f = fopen(path, "r");
    CHECK_MSG(f != NULL, "--export-every wrote a second frame (%s)", path);
    if (f)
        fclose(f);
    snprintf(path, sizeof path, "%s/height_0000.vti", dir);
    f = fopen(path, "rb");
    if (CHECK_MSG(f != NULL, "%s exists", path)) {
        char head[512] = {0};
        CHECK(fread(head, 1, sizeof head - 1, f) > 0);
        CHECK_STR_CONTAINS(head, "<VTKFile type=\"ImageData\"");
        CHECK_STR_CONTAINS(head, "WholeExtent=\"0 31 0 23 0 0\"");
        CHECK_STR_CONTAINS(head, "Name=\"h\"");
        fclose(f);
    }
    double v0;
    char *js = read_summary(dir, &v0);
    if (js) {
        CHECK_STR_CONTAINS(js, "\"family\": \"height\"");
        CHECK_STR_CONTAINS(js, "\"height_explicit\"");
        if (!isnan(v0))
            CHECK_NEAR(v0, 32 * 24 * 0.04 * 0.04 * 1.2, 1e-6);
        free(js);
    }
}

static void river_export(void)
{
    vf_test_section("river: run --steps with validation, --export csv and summary.json");
    char out[8192];
    const char *dir = vf_test_path("river");
    FILE *f = export_and_open(out, sizeof out,
                              "river --set nx=128 --set ny=32 --set dx=0.0625 --set flow_cells=24 --set leaves=8 "
                              "--steps 30 --check-every 10",
                              dir);
    if (f) {
        char line[256];
        int rows = 0, pillar = 0, moved = 0;
        double x, y, h, b;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "%lf,%lf,%lf,%lf", &x, &y, &h, &b) != 4)
                continue;
            rows++;
            pillar += b > 0.4; /* the pillar stands above the water (surface 0.4 m) */
            moved += fabs(h - 0.4) > 1e-4;
        }
        printf("  %d rows, %d pillar cells, %d cells off the rest level by more than 0.1 mm\n", rows, pillar, moved);
        CHECK_EQ_INT(rows, 128 * 32);
        /* pi r^2 / dx^2 = 18 cells for r = 0.15 m, dx = 0.0625 m */
        CHECK(pillar >= 12 && pillar <= 24);
        CHECK(moved > 100);
        fclose(f);
    }
    double v0;
    char *js = read_summary(dir, &v0);
    if (js) {
        CHECK_STR_CONTAINS(js, "\"scene\": \"river\"");
        CHECK_STR_CONTAINS(js, "\"coupling\": \"divergence\"");
        CHECK_STR_CONTAINS(js, "\"grid_pressure\"");
        if (!isnan(v0))
            CHECK(v0 > 0);
        free(js);
    }
    /* advect=true: the extra pass runs and is timed, still without validation messages */
    f = export_and_open(out, sizeof out,
                        "river --set nx=128 --set ny=32 --set dx=0.0625 --set flow_cells=24 --set advect=true --steps 10",
                        vf_test_path("river_advect"));
    if (f)
        fclose(f);
    CHECK_STR_CONTAINS(out, "height_advect");
}

/* Reads dir/height_0000.csv's h column into h (n values); false (a failed
 * check) when the file is missing or holds another count. */
static bool read_heights(const char *dir, double *h, int n)
{
    FILE *f = open_height_csv(dir);
    if (!f)
        return false;
    char line[256];
    int rows = 0;
    double x, y, hh, b;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%lf,%lf,%lf,%lf", &x, &y, &hh, &b) == 4 && rows < n)
            h[rows++] = hh;
    fclose(f);
    return CHECK_MSG(rows == n, "%s: %d rows, want %d", dir, rows, n);
}

/* The river's flow pressure solver: penalty against multigrid under
 * coupling=pressure (eta = p / (rho g)): the same surface within 5 % of the
 * disturbance's rms, but not the same bits; the summary names the solver. */
static void river_penalty(void)
{
    vf_test_section("river: flow_pressure=penalty under coupling=pressure, against multigrid");
    char out[8192], args[4400];
    one_line_error("river --set flow_pressure=penalty --set flow_epsilon=1e-9 --steps 1", "use flow_epsilon=");
    one_line_error("river --set flow_pressure=fft --steps 1", "multigrid|jacobi|ssor|penalty");
    enum { N = 128 * 32 };
    static double h[2][N];
    const char *names[2] = {"multigrid", "penalty"};
    for (int m = 0; m < 2; m++) {
        const char *dir = vf_test_path(m ? "river_penalty" : "river_multigrid");
        snprintf(args, sizeof args,
                 "river --set nx=128 --set ny=32 --set dx=0.0625 --set flow_cells=24 --set leaves=0 "
                 "--set coupling=pressure --set flow_pressure=%s --set flow_epsilon=0.05 --steps 30 --export '%s' "
                 "--quiet",
                 names[m], dir);
        CHECK_EQ_INT(run(out, sizeof out, args), 0);
        if (!read_heights(dir, h[m], N))
            return;
        char *js = vf_test_read_checked(dir, "summary.json", NULL);
        if (js) {
            char want[64];
            snprintf(want, sizeof want, "\"pressure_solver\": \"%s\"", names[m]);
            CHECK_STR_CONTAINS(js, want);
            free(js);
        }
    }
    double mean[2] = {0, 0}, rms = 0, diff = 0, most = 0;
    for (int m = 0; m < 2; m++)
        for (int k = 0; k < N; k++)
            mean[m] += h[m][k] / N;
    for (int k = 0; k < N; k++) {
        rms += (h[0][k] - mean[0]) * (h[0][k] - mean[0]) / N;
        double d = (h[1][k] - mean[1]) - (h[0][k] - mean[0]);
        diff += d * d / N;
        most = fmax(most, fabs(h[1][k] - h[0][k]));
    }
    rms = sqrt(rms);
    diff = sqrt(diff);
    printf("  RESULT river after 0.5 s: multigrid's surface disturbance %.3g m rms; penalty's differs by %.3g m rms "
           "(%.3g of it), at most %.3g m\n",
           rms, diff, diff / rms, most);
    CHECK_MSG(rms > 1e-3, "the pillar disturbs the surface (%.3g m rms)", rms);
    CHECK_MSG(diff <= 0.05 * rms, "the penalty's surface is multigrid's within 5 %% of its rms");
    CHECK_MSG(most > 0, "the penalty's surface is its own (not multigrid's bits)");
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    bad_input();
    export_files();
    river_export();
    river_penalty();
    large();
    return vf_test_finish();
}
