/* Scene-file shape lists (obstacles, fluid regions, emitters, sinks, inflow
 * and outflow sides) and camera/render settings:
 *  - one-line errors that name the file and the key path: wrong types,
 *    unknown keys, missing fields, shapes outside the domain, fluid
 *    overlapping obstacles or other fluid, what a solver does not take, an
 *    unreadable mask, a bad camera or view (library and CLI, exit 2);
 *  - --set reaches shape fields (LIST[i].FIELD[k]), camera and view, with
 *    the same checks afterwards;
 *  - the example files under tests/shapes run on every solver and do what
 *    they say: the height pool's obstacles (box, cylinder, PNG mask) are
 *    solid cells and its fluid block starts at its level; the SPH tank's
 *    fluid regions hold about volume / spacing^3 particles and none start
 *    inside an obstacle; the grid's dye region is painted and its inflow
 *    side blows it downstream; the file's camera changes the picture. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdlib.h>
#include <string.h>

#include "scene_file.h"
#include "testlib.h"

static char out[1 << 16];

/* Parses and validates text as "t.json"; expects an error containing want. */
static void expect_error(const char *text, const char *want)
{
    char err[2048] = "";
    vf_scene_loaded sc;
    vf_result r = vf_scene_parse("t.json", text, strlen(text), &sc, err, sizeof err);
    if (r == VF_OK) {
        r = vf_scene_validate(sc.info, sc.desc, "t.json", err, sizeof err);
        vf_scene_loaded_free(&sc);
    }
    if (CHECK_MSG(r != VF_OK, "%s: must fail", text)) {
        printf("  %s\n", err);
        CHECK_MSG(!strncmp(err, "t.json: ", 8), "names the file: %s", err);
        CHECK_MSG(!strchr(err, '\n'), "one line: %s", err);
        CHECK_STR_CONTAINS(err, want);
    }
}

static void expect_ok(const char *text)
{
    char err[2048] = "";
    vf_scene_loaded sc;
    vf_result r = vf_scene_parse("t.json", text, strlen(text), &sc, err, sizeof err);
    if (r == VF_OK) {
        r = vf_scene_validate(sc.info, sc.desc, "t.json", err, sizeof err);
        vf_scene_loaded_free(&sc);
    }
    CHECK_MSG(r == VF_OK, "%s: %s", text, err);
}

#define POOL "{\"solver\": \"height\", \"scene\": \"pool\", \"height\": {\"nx\": 64, \"ny\": 64, \"dx\": 0.05}, "
#define DAM "{\"solver\": \"sph\", \"scene\": \"dam-break\", \"sph\": {\"spacing\": 0.02}, "
#define SMOKE "{\"solver\": \"grid\", \"scene\": \"smoke\", \"grid\": {\"n\": 32}, "

static void errors(void)
{
    vf_test_section("shape lists: one-line errors with the file and key path");
    expect_ok(POOL "\"obstacles\": [{\"shape\": \"box\", \"center\": [1, 1], \"size\": [0.4, 0.2]}]}");
    expect_error(POOL "\"obstacles\": {\"shape\": \"box\"}}", "obstacles: an object is not allowed: must be an array");
    expect_error(POOL "\"obstacles\": [{\"shape\": \"cube\", \"center\": [1, 1]}]}",
                 "obstacles[0].shape: unknown shape: must be one of box|sphere|cylinder|mask");
    expect_error(POOL "\"obstacles\": [{\"shape\": \"box\", \"center\": [1, 1], \"size\": [0.4, 0.2], \"radius\": 1}]}",
                 "obstacles[0].radius: unknown key for a box in obstacles: the keys are shape, center, size");
    expect_error(POOL "\"obstacles\": [{\"shape\": \"sphere\", \"center\": [1, 1]}]}",
                 "obstacles[0].radius: missing: must be a positive number");
    expect_error(POOL "\"obstacles\": [{\"shape\": \"box\", \"center\": [1, \"a\"], \"size\": [1, 1]}]}",
                 "obstacles[0].center[1]: a string is not allowed: must be a number");
    expect_error(POOL "\"obstacles\": [{\"shape\": \"box\", \"center\": [3.1, 1], \"size\": [0.4, 0.2]}]}",
                 "obstacles[0]: reaches outside the domain along x ([2.9, 3.3] against [0, 3.2]): move or shrink it");
    expect_error(POOL "\"obstacles\": [{\"shape\": \"cylinder\", \"center\": [1, 1], \"radius\": 0.3}], "
                      "\"fluid\": [{\"shape\": \"box\", \"center\": [1.4, 1], \"size\": [0.4, 0.4], \"level\": 1.3}]}",
                 "fluid[0]: overlaps obstacles[0]: fluid cannot start inside a solid: move or shrink one of them");
    expect_ok(POOL "\"obstacles\": [{\"shape\": \"cylinder\", \"center\": [1, 1], \"radius\": 0.3}], "
                   "\"fluid\": [{\"shape\": \"box\", \"center\": [1.6, 1], \"size\": [0.4, 0.4], \"level\": 1.3}]}");
    expect_error(POOL "\"fluid\": [{\"shape\": \"box\", \"center\": [1, 1], \"size\": [0.4, 0.4], \"level\": 1.3}, "
                      "{\"shape\": \"sphere\", \"center\": [1.2, 1.2], \"radius\": 0.1, \"level\": 1.3}]}",
                 "fluid[1]: overlaps fluid[0]");
    expect_error(POOL "\"fluid\": [{\"shape\": \"box\", \"center\": [1, 1], \"size\": [0.4, 0.4]}]}",
                 "fluid[0].level: missing: a height fluid region needs the surface level there (m)");
    expect_error(POOL "\"obstacles\": [{\"shape\": \"mask\", \"file\": \"no-such-mask.png\"}]}",
                 "obstacles[0].file: no-such-mask.png:");
    expect_error(POOL "\"inflows\": [{\"side\": \"left\", \"speed\": 1}]}",
                 "inflows: the height solver takes no inflow or outflow sides");
    expect_error(POOL "\"camera\": {\"eye\": [1, 1, 1], \"target\": [1, 1, 1]}}",
                 "camera.target: equals camera.eye: the camera must look somewhere");
    expect_error(POOL "\"camera\": {\"eye\": [1, 1, 1]}}", "camera.target: missing: give both eye and target");
    expect_error(POOL "\"render\": {\"mode\": \"surface\", \"exposure\": 2}}", "render.exposure: unknown key: the keys are mode");
    expect_error(POOL "\"obstacles\": [], \"obstacles\": []}", "obstacles: given twice");
    expect_error("{\"solver\": \"height\", \"scene\": \"pool\", \"walls\": []}",
                 "walls: unknown key: the top-level keys are solver, scene, description, the solver's name");

    expect_ok(DAM "\"obstacles\": [{\"shape\": \"sphere\", \"center\": [0.3, 0.05, 0.05], \"radius\": 0.04}]}");
    expect_error(DAM "\"obstacles\": [{\"shape\": \"cylinder\", \"center\": [0.3, 0.1, 0.1], \"radius\": 0.04}]}",
                 "obstacles[0].shape: cylinder: the sph solver's obstacles are boxes and spheres");
    expect_error(DAM "\"obstacles\": [{\"shape\": \"box\", \"center\": [0.3, 0.1], \"size\": [0.1, 0.1]}]}",
                 "obstacles[0].size: a 3D box needs three positive extents [sx, sy, sz]");
    expect_error(DAM "\"obstacles\": [{\"shape\": \"mask\", \"file\": \"m.png\"}]}",
                 "obstacles[0].shape: mask: the solver takes no png masks: use box, sphere or cylinder");
    expect_error(DAM "\"emitters\": [{\"shape\": \"cylinder\", \"center\": [0.5, 0.1, 0.1], \"radius\": 0.02, "
                     "\"velocity\": [0, 1, 0]}]}",
                 "emitters: the sph solver takes no emitters");
    expect_error(DAM "\"obstacles\": [{\"shape\": \"sphere\", \"center\": [0.1, 0.1, 0.1], \"radius\": 0.05}], "
                     "\"fluid\": [{\"shape\": \"box\", \"center\": [0.1, 0.1, 0.1], \"size\": [0.1, 0.1, 0.1]}]}",
                 "fluid[0]: overlaps obstacles[0]");
    expect_error(DAM "\"fluid\": [{\"shape\": \"sphere\", \"center\": [0.1, 0.1, 0.1], \"radius\": 0.5}]}",
                 "fluid[0]: reaches outside the domain along x");
    expect_error("{\"solver\": \"sph\", \"scene\": \"fountain\", \"emitters\": [{\"shape\": \"cylinder\", "
                 "\"center\": [0.25, 0.1, 0.25], \"radius\": 0.02}]}",
                 "emitters[0].velocity: missing or zero: an emitter needs a jet velocity [vx, vy, vz]");
    expect_ok("{\"solver\": \"sph\", \"scene\": \"fountain\", \"emitters\": [{\"shape\": \"cylinder\", "
              "\"center\": [0.25, 0.1, 0.25], \"radius\": 0.02, \"velocity\": [0.5, 2, 0]}], "
              "\"sinks\": [{\"shape\": \"box\", \"center\": [0.45, 0.02, 0.45], \"size\": [0.1, 0.04, 0.1]}]}");

    expect_ok(SMOKE "\"obstacles\": [{\"shape\": \"box\", \"center\": [0.7, 0.6], \"size\": [0.1, 0.1]}], "
                    "\"inflows\": [{\"side\": \"left\", \"speed\": 0.5}], \"outflows\": [{\"side\": \"right\"}]}");
    expect_error(SMOKE "\"obstacles\": [{\"shape\": \"box\", \"center\": [0.7, 0.6], \"size\": [0.2, 0.1]}]}",
                 "obstacles[0].size: the grid solver's boxes are squares: give equal sx and sy");
    expect_error(SMOKE "\"inflows\": [{\"side\": \"left\"}]}",
                 "inflows[0].speed: missing: an inflow needs a positive speed");
    expect_error(SMOKE "\"inflows\": [{\"side\": \"left\", \"speed\": 1}], \"outflows\": [{\"side\": \"left\"}]}",
                 "outflows[0].side: the left side is already an inflow or outflow: give each side once");
    expect_error("{\"solver\": \"grid\", \"scene\": \"smoke\", \"grid\": {\"periodic\": true}, "
                 "\"outflows\": [{\"side\": \"right\"}]}",
                 "outflows: the right side is periodic in this scene: set periodic=false and walls=freeslip first");
    expect_error(SMOKE "\"obstacles\": [{\"shape\": \"sphere\", \"center\": [0.2, 0.2], \"radius\": 0.05}, "
                       "{\"shape\": \"sphere\", \"center\": [0.4, 0.2], \"radius\": 0.05}, "
                       "{\"shape\": \"sphere\", \"center\": [0.6, 0.2], \"radius\": 0.05}, "
                       "{\"shape\": \"sphere\", \"center\": [0.8, 0.2], \"radius\": 0.05}, "
                       "{\"shape\": \"sphere\", \"center\": [0.2, 0.8], \"radius\": 0.05}]}",
                 "obstacles: 5 shapes: the grid solver takes at most 4 here");
}

/* Parses text, applies --set assignment, validates; returns the result, err the message. */
static vf_result set_and_validate(const char *text, const char *assignment, char *err, size_t cap)
{
    vf_scene_loaded sc;
    vf_result r = vf_scene_parse("t.json", text, strlen(text), &sc, err, cap);
    if (r != VF_OK)
        return r;
    r = vf_scene_set(sc.info, sc.desc, assignment, err, cap);
    if (r == VF_OK)
        r = vf_scene_validate(sc.info, sc.desc, "t.json", err, cap);
    vf_scene_loaded_free(&sc);
    return r;
}

static void set_fields(void)
{
    vf_test_section("--set reaches shape fields: LIST[i].FIELD[k]=NUMBER, camera.*, render.mode");
    const char *pool = POOL "\"obstacles\": [{\"shape\": \"cylinder\", \"center\": [1, 1], \"radius\": 0.3}], "
                            "\"camera\": {\"eye\": [1, 1, 1], \"target\": [0, 0, 0]}}";
    char err[1024] = "";
    CHECK_MSG(set_and_validate(pool, "obstacles[0].radius=0.5", err, sizeof err) == VF_OK, "%s", err);
    CHECK_MSG(set_and_validate(pool, "obstacles[0].center[1]=2.5", err, sizeof err) == VF_OK, "%s", err);
    CHECK_MSG(set_and_validate(pool, "camera.fov=30", err, sizeof err) == VF_OK, "%s", err);
    CHECK_MSG(set_and_validate(pool, "camera.eye[2]=3", err, sizeof err) == VF_OK, "%s", err);
    CHECK_MSG(set_and_validate(pool, "render.mode=height", err, sizeof err) == VF_OK, "%s", err);
    static const vf_test_bad bad[] = { /* --set values, not `vkfluid run` arguments */
        {"obstacles[0].radius=5", "obstacles[0]: reaches outside the domain"},
        {"obstacles[0].center[0]=3.1", "obstacles[0]: reaches outside the domain along x"},
        {"obstacles[1].radius=0.1", "obstacles[1].radius: the scene has 1 obstacles: add the shape in the scene file first"},
        {"obstacles[0].radius=abc", "obstacles[0].radius: \"abc\" is not a finite number"},
        {"obstacles[0].radius=nan", "is not a finite number"},
        {"obstacles[0].center=1", "obstacles[0].center: a vector: set one component"},
        {"obstacles[0].center[3]=1", "the component must be [0], [1] or [2]"},
        {"obstacles[0].colour=1", "obstacles[0].colour: unknown field"},
        {"walls[0].radius=1", "walls[0].radius: unknown key: the keys are height.KEY, KEY or a shape field"},
        {"camera.fov=500", "camera.fov: 500 is out of range"},
        {"camera.up[0]=1", "camera.up[0]: unknown key: the camera keys are"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        vf_result r = set_and_validate(pool, bad[i].args, err, sizeof err);
        printf("  --set %s: %s\n", bad[i].args, err);
        CHECK_MSG(r != VF_OK, "--set %s must fail", bad[i].args);
        CHECK_STR_CONTAINS(err, bad[i].want);
    }
}

/* Reads a CSV with a header into rows of `cols` doubles; returns the row count. */
static size_t read_csv(const char *path, int cols, double **rows)
{
    char *s = vf_test_read_file(path, NULL);
    *rows = NULL;
    if (!s)
        return 0;
    size_t cap = 1024, n = 0;
    double *r = malloc(cap * cols * sizeof(double));
    char *line = strchr(s, '\n');
    while (line && line[1] && r) {
        line++;
        if (n == cap) {
            cap *= 2;
            double *t = realloc(r, cap * cols * sizeof(double));
            if (!t)
                break;
            r = t;
        }
        char *p = line;
        for (int c = 0; c < cols; c++) {
            r[n * cols + c] = strtod(p, &p);
            if (*p == ',')
                p++;
        }
        n++;
        line = strchr(line, '\n');
    }
    free(s);
    *rows = r;
    return n;
}

static int run(const char *args)
{
    int rc = vf_test_run_capture(out, sizeof out, "'%s' %s 2>&1", vf_t.vkfluid, args);
    return rc;
}

/* Starts the section "tests/shapes/<file>: <what>", runs the file one step
 * with an export into the scratch folder
 * <dir> (a check that it exits 0; exit 77, skip, without a Vulkan device)
 * and reads the export's <csv> of cols columns: *n rows into *rows (free()
 * it). False when the run failed. */
static bool shapes_export(const char *what, const char *file, const char *dir, const char *csv, int cols, double **rows,
                          size_t *n)
{
    char section[256];
    snprintf(section, sizeof section, "tests/shapes/%s: %s", file, what);
    vf_test_section(section);
    char args[8400], path[4200];
    snprintf(args, sizeof args, "run '%s/tests/shapes/%s' --steps 1 --export '%s' --quiet", vf_t.source, file,
             vf_test_path(dir));
    int rc = run(args);
    if (rc == 77)
        exit(77);
    if (!CHECK_MSG(rc == 0, "exit %d: %s", rc, out))
        return false;
    snprintf(path, sizeof path, "%s/%s", dir, csv);
    *n = read_csv(vf_test_path(path), cols, rows);
    return true;
}

static void height_file(void)
{
    double *r;
    size_t n;
    if (!shapes_export("box, cylinder and mask obstacles, a fluid block at its level",
                       "pool_shapes.json", "pool", "height_0000.csv", 4, &r, &n))
        return;
    char *summary = vf_test_read_file(vf_test_path("pool/summary.json"), NULL);
    if (CHECK(summary != NULL)) {
        /* the run records the file's lists as given */
        CHECK_STR_CONTAINS(summary, "\"shapes\": {");
        CHECK_STR_CONTAINS(summary, "{\"shape\": \"cylinder\", \"center\": [2.2, 2.2, 0], \"radius\": 0.2");
        CHECK_STR_CONTAINS(summary, "mask.png\"}");
        free(summary);
    }
    if (!CHECK_MSG(n == 64 * 64, "%zu rows", n)) {
        free(r);
        return;
    }
    /* the pool: 64 x 64 cells of 0.05 m, rest level 1.2 m; solid cells sit
     * on a raised bed (> 1.2 m) */
    int solid_box = 0, solid_cyl = 0, solid_mask = 0, solid_other = 0, block = 0;
    double block_h = 0;
    for (size_t k = 0; k < n; k++) {
        double x = r[4 * k], y = r[4 * k + 1], h = r[4 * k + 2], bed = r[4 * k + 3];
        bool solid = bed > 1.2;
        bool in_box = fabs(x - 1.0) < 0.2 && fabs(y - 1.0) < 0.1;
        bool in_cyl = hypot(x - 2.2, y - 2.2) < 0.2;
        /* mask.png: 64 x 32 pixels, a disc of 5 pixels around pixel (40, 8):
         * x = 40.5 / 64 * 3.2 = 2.025 m, y = (1 - 8.5 / 32) * 3.2 = 2.35 m */
        bool in_mask = hypot((x - 2.025) / 0.05, (y - 2.35) / 0.1) < 4.0;
        bool near_any = fabs(x - 1.0) < 0.3 && fabs(y - 1.0) < 0.2;
        near_any = near_any || hypot(x - 2.2, y - 2.2) < 0.3 || hypot((x - 2.025) / 0.05, (y - 2.35) / 0.1) < 6.5;
        solid_box += solid && in_box;
        solid_cyl += solid && in_cyl;
        solid_mask += solid && in_mask;
        solid_other += solid && !near_any;
        if (fabs(x - 0.5) < 0.25 && fabs(y - 2.6) < 0.25) {
            block++;
            block_h += h;
        }
    }
    block_h /= block ? block : 1;
    printf("  solid cells: box %d (of 32), cylinder %d (of ~50), mask %d, elsewhere %d; fluid block mean h %.3f m (level 1.3)\n",
           solid_box, solid_cyl, solid_mask, solid_other, block_h);
    CHECK(solid_box == 32);
    CHECK(solid_cyl >= 44);
    CHECK(solid_mask >= 20);
    CHECK(solid_other == 0);
    /* one frame of waves: the block's inside is still near its level */
    CHECK_MSG(fabs(block_h - 1.3) < 0.03, "fluid block at %.4f m", block_h);
    free(r);

    /* the file's camera and view: the same scene without the camera looks
     * different, and capture.json names the file's view */
    char path[4400], src[4096], args[8400];
    snprintf(path, sizeof path, "%s", vf_test_path("nocam.json"));
    if (!CHECK(realpath(vf_t.source, src) != NULL))
        return;
    FILE *f = fopen(path, "w");
    if (!CHECK(f != NULL))
        return;
    fprintf(f,
            "{\"solver\": \"height\", \"scene\": \"pool\", \"height\": {\"nx\": 64, \"ny\": 64, \"dx\": 0.05, \"rain\": 0},\n"
            " \"obstacles\": [{\"shape\": \"box\", \"center\": [1.0, 1.0], \"size\": [0.4, 0.2]},\n"
            "  {\"shape\": \"cylinder\", \"center\": [2.2, 2.2], \"radius\": 0.2},\n"
            "  {\"shape\": \"mask\", \"file\": \"%s/tests/shapes/mask.png\"}],\n"
            " \"fluid\": [{\"shape\": \"box\", \"center\": [0.5, 2.6], \"size\": [0.6, 0.6], \"level\": 1.3}]}\n",
            src);
    fclose(f);
    snprintf(args, sizeof args, "capture '%s/tests/shapes/pool_shapes.json' --frames 1 --size 96x64 --out '%s' --quiet",
             vf_t.source, vf_test_path("cam"));
    CHECK_MSG(run(args) == 0, "capture: %s", out);
    snprintf(args, sizeof args, "capture '%s' --frames 1 --size 96x64 --out '%s' --quiet", path, vf_test_path("nocam"));
    CHECK_MSG(run(args) == 0, "capture without the camera: %s", out);
    size_t na = 0, nb = 0;
    char *a = vf_test_read_file(vf_test_path("cam/frame_00000.png"), &na), *b = vf_test_read_file(vf_test_path("nocam/frame_00000.png"), &nb);
    if (CHECK_MSG(a && b, "both captures wrote a frame"))
        CHECK_MSG(na != nb || memcmp(a, b, na) != 0, "the file's camera changes the picture");
    free(a);
    free(b);
    char *js = vf_test_read_file(vf_test_path("cam/capture.json"), NULL);
    if (CHECK(js != NULL)) {
        CHECK_STR_CONTAINS(js, "surface");
        free(js);
    }
}

static void sph_file(void)
{
    double *r;
    size_t n;
    if (!shapes_export("fluid regions replace the column, obstacles stay empty",
                       "sph_shapes.json", "sph", "particles_0000.csv", 8, &r, &n))
        return;
    /* box 0.2 x 0.2 x 0.1 m and a sphere of 0.05 m at spacing 0.02 m */
    double expect = (0.2 * 0.2 * 0.1 + 4.0 / 3.0 * 3.14159265 * 0.05 * 0.05 * 0.05) / (0.02 * 0.02 * 0.02);
    int inside = 0, right = 0;
    for (size_t k = 0; k < n; k++) {
        const double *p = r + 8 * k;
        inside += fabs(p[0] - 0.7) < 0.05 && fabs(p[1] - 0.05) < 0.05 && fabs(p[2] - 0.05) < 0.05;
        inside += hypot(hypot(p[0] - 0.3, p[1] - 0.05), p[2] - 0.05) < 0.04;
        right += p[0] > 0.4;
    }
    printf("  %zu particles (volume / spacing^3 = %.0f), %d inside obstacles, %d in the sphere region\n", n, expect,
           inside, right);
    CHECK_REL((double)n, expect, 0.1, 0);
    CHECK(inside == 0);
    CHECK(right > 40);
    free(r);
}

static void grid_file(void)
{
    double *r;
    size_t n;
    if (!shapes_export("dye region painted, inflow side, obstacles",
                       "grid_shapes.json", "grid", "grid_0000.csv", 8, &r, &n))
        return;
    if (!CHECK_MSG(n == 64 * 64, "%zu rows", n)) {
        free(r);
        return;
    }
    int painted = 0, region = 0;
    double u_left = 0;
    int left = 0;
    for (size_t k = 0; k < n; k++) {
        const double *p = r + 8 * k;
        if (fabs(p[0] - 0.5) < 0.13 && fabs(p[1] - 0.85) < 0.03) {
            region++;
            painted += p[5] > 0.5 && p[7] < 0.5; /* orange: red on, blue off */
        }
        if (p[0] < 0.05 && p[1] > 0.3 && p[1] < 0.5) {
            u_left += p[2];
            left++;
        }
    }
    u_left /= left ? left : 1;
    printf("  %d of %d cells orange inside the dye region; mean u at the inflow side %.3f (inflow 0.5)\n", painted, region, u_left);
    CHECK(region > 50);
    CHECK(painted >= 0.9 * region);
    CHECK_REL(u_left, 0.5, 0.1, 0);
    free(r);
    char args[8400];
    snprintf(args, sizeof args, "capture '%s/tests/shapes/bad_view.json' --frames 1 --out '%s'", vf_t.source,
             vf_test_path("bad"));
    int rc = vf_test_run_capture(out, sizeof out, "'%s' %s", vf_t.vkfluid, args);
    printf("  %s", out);
    CHECK(rc == 2);
    CHECK_STR_CONTAINS(out, "bad_view.json: render.mode: \"ssf\" is not a view of the grid solver: use one of");
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    errors();
    set_fields();
    height_file();
    sph_file();
    grid_file();
    return vf_test_finish();
}
