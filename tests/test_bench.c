/* vkfluid bench: a tiny sweep of every solver this build has (two sizes
 * each, --frames 3) writes its files; the JSON follows the documented
 * schema (vkfluid-bench/1, docs/benchmarks.md); the SVG is well-formed XML with one
 * polyline per mode and panel; the three SPH methods at one size give the
 * real-time factors (consistent with the frame rates and frame_dt) and the
 * work per simulated second within the bounds their passes allow (no timing
 * is asserted); bad input exits 2 with one line. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"
#include "scenes.h"

static char out[1 << 17];

static const cJSON *need(const cJSON *obj, const char *key, int type_mask, const char *where)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    CHECK_MSG(v != NULL, "%s: key '%s' present", where, key);
    if (v)
        CHECK_MSG((v->type & 0xff) & type_mask, "%s: key '%s' has the documented type", where, key);
    return v;
}

static void positive(const cJSON *obj, const char *key, const char *where)
{
    const cJSON *v = need(obj, key, cJSON_Number, where);
    if (v)
        CHECK_MSG(v->valuedouble > 0, "%s: %s = %g must be positive", where, key, v->valuedouble);
}

/* positive of each key of a NULL-ended list. */
static void positives(const cJSON *obj, const char *where, const char *const *keys)
{
    for (; *keys; keys++)
        positive(obj, *keys, where);
}

static double num(const cJSON *obj, const char *key, const char *where)
{
    const cJSON *v = need(obj, key, cJSON_Number, where);
    return v ? v->valuedouble : 0.0;
}

/* The three SPH methods at one small size with --model: the real-time
 * factors follow from the frame rates and frame_dt; the work that ran per
 * simulated second is within what the passes allow; the frame recorded at
 * the model's size is in the JSON and the table. */
static void test_methods(void)
{
    vf_test_section("wcsph, pbf and dfsph: real-time factor and work per simulated second");
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' bench --solver wcsph,pbf,dfsph --sizes 1000 --frames 2 --warmup 1 --repeat 1 "
                                 "--render 96x64 --out '%s' --quiet --model '%s/bench/models'",
                                 vf_t.vkfluid, vf_test_path("m"), vf_t.source);
    printf("%s", out);
    CHECK_MSG(rc == 0, "bench exit %d", rc);
    CHECK_STR_CONTAINS(out, "rtf30");
    CHECK_STR_CONTAINS(out, "per sim s");
    CHECK_STR_CONTAINS(out, "neighbour passes run per simulated second at 1000: wcsph");
    CHECK_STR_CONTAINS(out, "neighbour passes run per simulated second at 1048576*");
    CHECK_STR_CONTAINS(out, "(PREDICTED)");
    char *table = vf_test_read_file(vf_test_path("m/table.md"), NULL);
    CHECK_MSG(table != NULL, "table.md exists");
    if (table) {
        CHECK_STR_CONTAINS(table, "| solver | scene | size |");
        CHECK_STR_CONTAINS(table, "| dfsph | dam-break | 1000 |");
    }
    free(table);
    char *json = vf_test_read_file(vf_test_path("m/bench.json"), NULL);
    cJSON *doc = json ? cJSON_Parse(json) : NULL;
    CHECK_MSG(doc != NULL, "bench.json parses");
    const cJSON *arr = doc ? need(doc, "solvers", cJSON_Array, "top") : NULL;
    CHECK_EQ_INT(cJSON_GetArraySize(arr), 3);
    const cJSON *s;
    double wc_sub = 0, wc_big = 0;
    cJSON_ArrayForEach(s, arr)
    {
        const cJSON *name = need(s, "solver", cJSON_String, "solver");
        const char *m = name ? name->valuestring : "?";
        need(s, "realtime30_largest", cJSON_Object, m);
        const cJSON *z = cJSON_GetArrayItem(need(s, "sizes", cJSON_Array, m), 0);
        if (!CHECK_MSG(z && cJSON_IsTrue(cJSON_GetObjectItem(z, "fits")), "%s: the size ran", m))
            continue;
        double dt = num(z, "frame_dt", m);
        const cJSON *rt = need(z, "realtime", cJSON_Object, m);
        double fps = num(need(z, "sim", cJSON_Object, m), "fps_median", m);
        double rfps = num(need(z, "render", cJSON_Object, m), "fps_median", m);
        if (rt) {
            double sim = num(rt, "sim", m), ren = num(rt, "render", m), rs = num(rt, "render_s_per_frame", m);
            CHECK_MSG(sim > 0 && fabs(sim - fps * dt) <= 1e-6 * sim, "%s: rtf %g = sim fps %g x frame_dt %g", m, sim,
                      fps, dt);
            CHECK_MSG(ren > 0 && fabs(ren - rfps * dt) <= 1e-6 * ren, "%s: rtf with render %g = %g x %g", m, ren, rfps,
                      dt);
            double want = (1.0 / 30) / ((1.0 / 30) / sim + rs);
            CHECK_MSG(fabs(num(rt, "display30", m) - want) <= 1e-5 * want, "%s: rtf30 %g, from the rates %g", m,
                      num(rt, "display30", m), want);
        }
        const cJSON *work = need(z, "work", cJSON_Object, m);
        const cJSON *fr = work ? need(work, "per_frame", cJSON_Object, m) : NULL;
        const cJSON *sec = work ? need(work, "per_simulated_second", cJSON_Object, m) : NULL;
        if (!fr || !sec)
            continue;
        double n = num(fr, "substeps_run", m), it = num(fr, "iterations", m), nb = num(fr, "neighbour_passes_run", m);
        CHECK_MSG(n > 0 && n <= num(fr, "substeps", m), "%s: substeps run %g, recorded %g", m, n, num(fr, "substeps", m));
        CHECK_MSG(nb > 0 && nb <= num(fr, "neighbour_passes", m), "%s: neighbour passes run %g, recorded %g", m, nb,
                  num(fr, "neighbour_passes", m));
        CHECK_MSG(fabs(num(sec, "neighbour_passes_run", m) - nb / dt) <= 1e-4 * nb / dt,
                  "%s: per simulated second = per frame / frame_dt", m);
        positive(sec, "dispatches_run", m);
        positive(sec, "bytes_run", m);
        if (!strcmp(m, "wcsph")) { /* density and forces a substep, the foam's 3 a frame */
            CHECK_NEAR(it, 0.0, 0.0);
            CHECK_MSG(nb >= 2 * n && nb <= 2 * n + 3, "wcsph: %g neighbour passes for %g substeps", nb, n);
            wc_sub = n;
        } else if (!strcmp(m, "pbf")) { /* fixed: 6 iterations of 2 passes, xsph and confinement */
            CHECK_NEAR(it, 6 * n, 1e-6 * n);
            CHECK_MSG(nb >= 2 * it && nb <= 2 * it + 2 * n + 3, "pbf: %g neighbour passes, %g iterations", nb, it);
        } else { /* dfsph: density, predict, 2 per correction and a closing error pass of each solve */
            CHECK_MSG(it >= 3 * n, "dfsph: %g iterations for %g substeps (at least 1 + 2 a substep)", it, n);
            CHECK_MSG(nb >= 2 * n + 2 * it && nb <= 4 * n + 2 * it + 3, "dfsph: %g neighbour passes, %g substeps, "
                      "%g iterations", nb, n, it);
        }
        const cJSON *rec = need(s, "recorded_frame", cJSON_Object, m);
        const cJSON *rw = rec ? need(rec, "work", cJSON_Object, m) : NULL;
        const cJSON *rf = rw ? need(rw, "per_frame", cJSON_Object, m) : NULL;
        if (rec)
            CHECK_NEAR(num(rec, "elements", m), 1048576.0, 0.0);
        if (rf && !strcmp(m, "wcsph"))
            wc_big = num(rf, "substeps", m);
        if (rf && !strcmp(m, "pbf"))
            CHECK_NEAR(num(rf, "substeps", m), n, 0.0);
    }
    /* the weakly compressible step shrinks with the spacing */
    CHECK_MSG(wc_big > 4 * wc_sub, "wcsph substeps a frame at 1048576 (%g) against 1000 (%g)", wc_big, wc_sub);
    cJSON_Delete(doc);
    free(json);
}

/* Minimal XML well-formedness: balanced, properly nested tags, quoted
 * attributes; counts <polyline elements. */
/* Writes a device file to path: latency 5 us, 100 GB/s, neighbour_ns
 * 100, and the given neighbour_pass_scale members (NULL: none) with a
 * source when source. False (the failure checked) when it cannot. */
static bool device_file(const char *path, const char *name, const char *scale, bool source)
{
    FILE *f = fopen(path, "w");
    if (!CHECK(f != NULL))
        return false;
    fprintf(f,
            "{\"name\": \"%s\", \"bandwidth_gbps\": 100, \"bandwidth_source\": \"spec\", \"dispatch_latency_us\": 5, "
            "\"latency_source\": \"assumed\", \"neighbour_ns\": 100, \"neighbour_source\": \"assumed\"",
            name);
    if (scale)
        fprintf(f, ", \"neighbour_pass_scale\": %s", scale);
    if (source)
        fprintf(f, ", \"neighbour_pass_scale_source\": \"assumed\"");
    fprintf(f, "}\n");
    fclose(f);
    return true;
}

/* The predicted ms a substep of the pbf row at 16384 under device name in
 * the bench output text (0 when missing). */
static double pbf_prediction(const char *text, const char *name)
{
    char head[64];
    snprintf(head, sizeof head, "\n  %s: ", name);
    const char *at = strstr(text, head), *row = at ? strstr(at, "\n    pbf          16384 ") : NULL;
    double ms = 0;
    if (row && sscanf(row + strlen("\n    pbf          16384 "), "%lf", &ms) != 1)
        ms = 0;
    return ms;
}

/* neighbour_pass_scale: the named kernels' neighbour passes cost neighbour_ns
 * times their scale (pbf's and the foam's at 2: the substep about twice as
 * long, where the neighbour term is all but the whole substep), and a
 * malformed scale or one without its source is one line, exit 2. */
static void test_pass_scale(void)
{
    vf_test_section("device files: neighbour_pass_scale");
    char dir[1024], a[1100], b[1100];
    snprintf(dir, sizeof dir, "%s", vf_test_path("scale_models"));
    snprintf(a, sizeof a, "%s/a.json", dir);
    snprintf(b, sizeof b, "%s/b.json", dir);
    if (!CHECK(vf_test_run("mkdir -p '%s'", dir) == 0) || !device_file(a, "a", NULL, false) ||
        !device_file(b, "b",
                     "{\"pbf_lambda.comp\": 2, \"pbf_delta.comp\": 2, \"pbf_xsph.comp\": 2, \"foam_normals.comp\": 2, "
                     "\"foam_potential.comp\": 2, \"foam_update.comp\": 2}",
                     true))
        return;
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' bench --solver pbf --sizes 16384 --frames 1 --warmup 0 --repeat 1 --render none "
                                 "--model '%s' --out '%s' --force",
                                 vf_t.vkfluid, dir, vf_test_path("scale_out"));
    CHECK_MSG(rc == 0, "bench with scaled passes: exit %d: %s", rc, out);
    /* model arithmetic on the counted work and the files' constants, no clock */
    double pred_a = pbf_prediction(out, "a"), pred_b = pbf_prediction(out, "b");
    printf("  predicted pbf substep at 16384: %.4g ms, with its passes scaled by 2: %.4g ms\n", pred_a, pred_b);
    CHECK(pred_a > 0);
    CHECK_REL(pred_b, 2 * pred_a, 0.02, 0);
    CHECK_STR_CONTAINS(out, "2 for pbf_lambda.comp");

    static const char *const bad[][2] = {
        {"[2]", "key neighbour_pass_scale"},
        {"{\"pbf_lambda.comp\": 0}", "key neighbour_pass_scale.pbf_lambda.comp"},
        {"{\"pbf_delta.comp\": \"2\"}", "key neighbour_pass_scale.pbf_delta.comp"},
        {"{\"pbf_xsph.comp\": 101}", "key neighbour_pass_scale.pbf_xsph.comp"},
        {"{\"pbf_lambda.comp\": 2}", "key neighbour_pass_scale_source"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        if (!device_file(b, "b", bad[k][0], k + 1 < sizeof bad / sizeof bad[0]))
            break;
        rc = vf_test_run_capture(out, sizeof out, "'%s' bench --model '%s' --out '%s'", vf_t.vkfluid, dir,
                                 vf_test_path("bad"));
        CHECK_MSG(rc == 2, "neighbour_pass_scale %s: exit %d, want 2: %s", bad[k][0], rc, out);
        CHECK_MSG(strchr(out, '\n') == strrchr(out, '\n'), "neighbour_pass_scale %s: one line: %s", bad[k][0], out);
        CHECK_STR_CONTAINS(out, bad[k][1]);
    }
}

static bool xml_well_formed(const char *s, int *polylines)
{
    char stack[64][32];
    int depth = 0, roots = 0;
    *polylines = 0;
    for (const char *p = s; *p; p++) {
        if (*p != '<')
            continue;
        if (p[1] == '?') {
            p = strstr(p, "?>");
            if (!p)
                return false;
            continue;
        }
        const char *end = p + 1;
        char quote = 0;
        for (; *end && (quote || *end != '>'); end++)
            if (*end == '"' || *end == '\'')
                quote = quote == *end ? 0 : (quote ? quote : *end);
        if (*end != '>')
            return false;
        bool closing = p[1] == '/', self = end[-1] == '/';
        char name[32];
        int n = 0;
        for (const char *q = p + 1 + closing; *q && *q != ' ' && *q != '>' && *q != '/' && *q != '\n' && n < 31; q++)
            name[n++] = *q;
        name[n] = 0;
        if (!n)
            return false;
        if (!strcmp(name, "polyline") && !closing)
            (*polylines)++;
        if (closing) {
            if (!depth || strcmp(stack[depth - 1], name))
                return false;
            depth--;
        } else if (!self) {
            if (depth == 0)
                roots++;
            if (depth >= 64)
                return false;
            snprintf(stack[depth++], 32, "%s", name);
        } else if (depth == 0) {
            roots++;
        }
        p = end;
    }
    return depth == 0 && roots == 1;
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    /* two small sizes for every benchmarked solver this build has */
    struct {
        const char *solver, *scene, *sizes;
    } sweep[] = {{"sph", "dam-break", "sph=1000,2000"},
                 {"grid", "smoke", "grid=24,48"},
                 {"height", "pool", "height=24,48"},
                 {"grid3d", "smoke3d", "grid3d=8,16"},
                 {"terrain", "terrain", "terrain=24,48"}};
    char args[1024] = "";
    int solvers = 0;
    for (size_t i = 0; i < sizeof sweep / sizeof sweep[0]; i++)
        if (vf_scene_find(sweep[i].scene)) {
            size_t n = strlen(args);
            snprintf(args + n, sizeof args - n, " --sizes %s", sweep[i].sizes);
            solvers++;
        }
    CHECK_MSG(solvers >= 1, "at least one solver to benchmark");
    char device_name[256] = "";
    vf_test_section("tiny sweep");
    int rc = vf_test_run_capture(out, sizeof out,
                                 "'%s' bench%s --frames 3 --warmup 1 --repeat 2 --render 96x64 --out '%s' --quiet --model '%s/bench/models'",
                                 vf_t.vkfluid, args, vf_test_path("b"), vf_t.source);
    printf("%s", out);
    CHECK_MSG(rc == 0, "bench exit %d", rc);
    CHECK_STR_CONTAINS(out, "device:");
    CHECK_STR_CONTAINS(out, "work per substep");
    CHECK_STR_CONTAINS(out, "PREDICTIONS");
    CHECK_STR_CONTAINS(out, "NVIDIA H100");
    char *csv = vf_test_read_file(vf_test_path("b/bench.csv"), NULL), *json = vf_test_read_file(vf_test_path("b/bench.json"), NULL),
         *svg = vf_test_read_file(vf_test_path("b/bench.svg"), NULL);
    CHECK_MSG(csv && json && svg, "bench.csv, bench.json and bench.svg exist");
    if (csv)
        CHECK_STR_CONTAINS(csv, "device,solver,scene,size,elements");
    char *work_csv = vf_test_read_file(vf_test_path("b/work.csv"), NULL);
    CHECK_MSG(work_csv != NULL, "work.csv exists");
    if (work_csv)
        CHECK_STR_CONTAINS(work_csv, "device,solver,size,scope,name,dispatches");
    free(work_csv);

    vf_test_section("bench.json against the schema");
    cJSON *doc = json ? cJSON_Parse(json) : NULL;
    CHECK_MSG(doc != NULL, "bench.json parses");
    if (doc) {
        const cJSON *schema = need(doc, "schema", cJSON_String, "top");
        if (schema)
            CHECK(!strcmp(schema->valuestring, "vkfluid-bench/1"));
        need(doc, "date", cJSON_String, "top");
        const cJSON *dev = need(doc, "device", cJSON_Object, "top");
        if (dev) {
            const cJSON *dn = need(dev, "name", cJSON_String, "device");
            if (dn)
                snprintf(device_name, sizeof device_name, "%s", dn->valuestring);
            need(dev, "type", cJSON_String, "device");
            need(dev, "driver", cJSON_String, "device");
            need(dev, "vulkan", cJSON_String, "device");
            positives(dev, "device",
                      (const char *const[]){"memory_bytes", "peak_copy_gbps", "copy_transfer_gbps", "copy_shader_gbps",
                                            NULL});
        }
        const cJSON *set = need(doc, "settings", cJSON_Object, "top");
        if (set) {
            positive(set, "frames", "settings");
            positive(set, "repeat", "settings");
            need(set, "render", cJSON_String | cJSON_NULL, "settings");
            need(set, "render_path", cJSON_String, "settings");
        }
        const cJSON *arr = need(doc, "solvers", cJSON_Array, "top");
        CHECK_EQ_INT(cJSON_GetArraySize(arr), solvers);
        const cJSON *s;
        cJSON_ArrayForEach(s, arr)
        {
            need(s, "solver", cJSON_String, "solver");
            need(s, "scene", cJSON_String, "solver");
            need(s, "size_key", cJSON_String, "solver");
            need(s, "scaling_exponent", cJSON_Number, "solver");
            const cJSON *sizes = need(s, "sizes", cJSON_Array, "solver");
            CHECK_EQ_INT(cJSON_GetArraySize(sizes), 2);
            const cJSON *z;
            cJSON_ArrayForEach(z, sizes)
            {
                positive(z, "size", "size");
                positive(z, "elements", "size");
                const cJSON *fits = need(z, "fits", cJSON_True | cJSON_False, "size");
                if (!cJSON_IsTrue(fits))
                    continue;
                positive(z, "substeps_per_frame", "size");
                const cJSON *sim = need(z, "sim", cJSON_Object, "size");
                if (sim) {
                    positives(sim, "sim",
                              (const char *const[]){"gpu_ms_median", "gpu_ms_min", "gpu_ms_max", "fps_median",
                                                    "steps_per_second", NULL});
                }
                const cJSON *ren = need(z, "render", cJSON_Object | cJSON_NULL, "size");
                if (ren && cJSON_IsObject(ren)) {
                    positive(ren, "fps_median", "render");
                    positive(ren, "gpu_ms_median", "render");
                    const cJSON *rp = need(ren, "path", cJSON_String, "render");
                    CHECK_MSG(rp && (!strcmp(rp->valuestring, "compute") || !strcmp(rp->valuestring, "raster")),
                              "the render path taken: compute or raster");
                }
                const cJSON *work = need(z, "work", cJSON_Object, "size");
                if (work) {
                    const cJSON *ps = need(work, "per_substep", cJSON_Object, "work");
                    if (ps) {
                        positives(ps, "work",
                                  (const char *const[]){"dispatches", "barriers", "bytes", "min_bytes", NULL});
                    }
                    const cJSON *ks = need(work, "kernels", cJSON_Array, "work");
                    CHECK_MSG(cJSON_GetArraySize(ks) >= 2, "several kernels counted");
                }
                const cJSON *passes = need(z, "passes", cJSON_Array, "size");
                CHECK_MSG(cJSON_GetArraySize(passes) >= 2, "several passes timed");
                const cJSON *p;
                cJSON_ArrayForEach(p, passes)
                {
                    need(p, "name", cJSON_String, "pass");
                    need(p, "kind", cJSON_String, "pass");
                    positive(p, "ms_median", "pass");
                    need(p, "gbps", cJSON_Number, "pass");
                }
            }
        }
        cJSON_Delete(doc);
    }

    vf_test_section("bench.svg");
    int polylines = 0;
    CHECK_MSG(svg && xml_well_formed(svg, &polylines), "bench.svg is well-formed XML");
    CHECK_MSG(polylines == 5 * solvers, "one polyline per mode (2 fps, 3 real-time factors) and solver (%d): %d",
              solvers, polylines);
    if (svg) {
        CHECK_STR_CONTAINS(svg, "30 fps");
        CHECK_STR_CONTAINS(svg, "60 fps");
    }
    free(csv);
    free(json);
    free(svg);
    if (vf_scene_find("dam-break")) {
        test_methods();
        test_pass_scale();
    }

    vf_test_section("bad input");
    const char *bad[] = {"--frames 0", "--solver nosuch", "--sizes grid=0", "--sizes grid=abc", "--render 0x5", "--bogus",
                         "--model /nonexistent-model-folder", "--render-path fast", "--solver wcsph,nosuch",
                         "--solver pbf,", "--sizes dfsph=0", "--sizes nosuch=100"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = vf_test_run_capture(out, sizeof out, "'%s' bench %s --out '%s'", vf_t.vkfluid, bad[i], vf_test_path("bad"));
        CHECK_MSG(rc == 2, "bench %s: exit %d, want 2: %s", bad[i], rc, out);
        CHECK_MSG(strchr(out, '\n') == strrchr(out, '\n'), "bench %s: one line: %s", bad[i], out);
    }
    {
        /* a device file without the source of its latency */
        char dir[1024], path[1100];
        snprintf(dir, sizeof dir, "%s", vf_test_path("models"));
        snprintf(path, sizeof path, "%s/x.json", dir);
        char cmd[1200];
        snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
        CHECK(system(cmd) == 0);
        FILE *f = fopen(path, "w");
        if (CHECK(f != NULL)) {
            fputs("{\"name\": \"x\", \"bandwidth_gbps\": 100, \"bandwidth_source\": \"spec\", \"dispatch_latency_us\": 5}\n", f);
            fclose(f);
        }
        rc = vf_test_run_capture(out, sizeof out, "'%s' bench --model '%s' --out '%s'", vf_t.vkfluid, dir, vf_test_path("bad"));
        CHECK_MSG(rc == 2, "a device file without latency_source: exit %d, want 2: %s", rc, out);
        CHECK_STR_CONTAINS(out, "latency_source");

        /* the device key: measured times beside the predictions only for a
         * file that names the benchmarked device; a key that is no name fails */
        static const char *const devs[3] = {"\"%s\"", "\"no such device 0x1f\"", "5"};
        for (int k = 0; k < 3; k++) {
            char key[300];
            snprintf(key, sizeof key, devs[k], device_name);
            f = fopen(path, "w");
            if (!CHECK(f != NULL))
                break;
            fprintf(f,
                    "{\"name\": \"x\", \"device\": %s, \"bandwidth_gbps\": 100, \"bandwidth_source\": \"spec\", "
                    "\"dispatch_latency_us\": 5, \"latency_source\": \"assumed\"}\n",
                    key);
            fclose(f);
            rc = vf_test_run_capture(out, sizeof out,
                                     "'%s' bench --solver height --sizes 128 --frames 1 --warmup 0 --repeat 1 --render none "
                                     "--model '%s' --out '%s' --force",
                                     vf_t.vkfluid, dir, vf_test_path("dev"));
            if (k < 2) {
                CHECK_MSG(rc == 0, "device key %s: exit %d: %s", key, rc, out);
                CHECK_MSG((strstr(out, "meas/pred") != NULL) == (k == 0), "device key %s: measured column %s", key,
                          k == 0 ? "missing" : "for another device");
            } else {
                CHECK_MSG(rc == 2, "device key %s: exit %d, want 2: %s", key, rc, out);
                CHECK_STR_CONTAINS(out, "key device");
            }
        }
    }
    if (vf_scene_find("smoke")) {
        rc = vf_test_run_capture(out, sizeof out, "'%s' bench --solver grid --sizes 100000 --frames 1 --out '%s' --quiet",
                                 vf_t.vkfluid, vf_test_path("toolarge"));
        CHECK_MSG(rc == 2, "a grid size that does not fit: exit %d, want 2: %s", rc, out);
        CHECK_STR_CONTAINS(out, "does not fit");
    }
    return vf_test_finish();
}
