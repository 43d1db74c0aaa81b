/* Scene files: every built-in scene is its scenes/NAME.json (embedded and on
 * disk give exactly the preset's desc), files round-trip, errors are one line
 * naming the file and key path, hostile inputs (tests/hostile) exit 2 before
 * any GPU work, a user file runs, --set takes SOLVER.KEY, docs/scenes.md's key
 * tables match `vkfluid scenes --markdown`, every choice key lists its
 * values in `scenes NAME`, `run NAME --help` and those tables, and outputs
 * are never mixed. */
#define _GNU_SOURCE /* open_memstream is POSIX 2008 too; keep glibc happy */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#define VF_TESTLIB_NO_GPU
#include "render_registry.h"
#include "scene_file.h"
#include "testlib.h"
#include "scenes.h"

static char out[1 << 20];

static void *preset(const vf_scene_info *info)
{
    void *d = calloc(1, info->desc_size);
    vf_scene_defaults(info, d);
    return d;
}

static void builtin_files(void)
{
    vf_test_section("every scene is its file: embedded and scenes/NAME.json give the preset's desc");
    size_t scenes = 0;
    for (size_t i = 0; vf_scenes[i]; i++, scenes++) {
        const vf_scene_info *info = vf_scenes[i];
        const vf_embedded_file *file = vf_scene_file_find(info->name);
        if (!CHECK_MSG(file != NULL, "scene %s has an embedded scenes/%s.json", info->name, info->name))
            continue;
        void *want = preset(info);
        char err[2048] = "";
        vf_scene_loaded sc;
        vf_result r = vf_scene_load_builtin(info, &sc, err, sizeof err);
        if (CHECK_MSG(r == VF_OK, "%s: %s", info->name, err)) {
            CHECK_MSG(sc.info == info, "%s: the file names its own preset", info->name);
            CHECK_MSG(!memcmp(sc.desc, want, info->desc_size), "%s: embedded file == the preset desc", info->name);
            CHECK_MSG(!strcmp(sc.description, info->description), "%s: description '%s' == '%s'", info->name, sc.description,
                      info->description);
            vf_scene_loaded_free(&sc);
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/scenes/%s.json", vf_t.source, info->name);
        size_t size = 0;
        char *disk = vf_test_read_file(path, &size);
        if (CHECK_MSG(disk != NULL, "%s exists", path)) {
            CHECK_MSG(size == file->size && !memcmp(disk, file->data, size), "%s is embedded as is (rebuild?)", path);
            r = vf_scene_load_file(path, &sc, err, sizeof err);
            if (CHECK_MSG(r == VF_OK, "%s: %s", path, err)) {
                CHECK_MSG(!memcmp(sc.desc, want, info->desc_size), "%s == the preset desc", path);
                vf_scene_loaded_free(&sc);
            }
        }
        free(disk);

        /* Key by key (clearer messages than the whole desc), and the file
         * sets every key (what is not a key comes from the preset's code). */
        if (CHECK(vf_scene_load_builtin(info, &sc, err, sizeof err) == VF_OK)) {
            for (size_t p = 0; p < info->param_count; p++) {
                const vf_param_def *d = &info->params[p];
                char v[64], w[64];
                vf_params_format(d, sc.desc, v, sizeof v);
                vf_params_format(d, want, w, sizeof w);
                CHECK_MSG(!strcmp(v, w), "%s: key %s: file %s, preset %s", info->name, d->key, v, w);
            }
            vf_scene_loaded_free(&sc);
        }
        {
            char key[80];
            cJSON *root = cJSON_ParseWithLength(file->data, file->size);
            const cJSON *keys = cJSON_GetObjectItemCaseSensitive(root, info->family);
            for (size_t p = 0; p < info->param_count; p++) {
                snprintf(key, sizeof key, "%s", info->params[p].key);
                CHECK_MSG(cJSON_GetObjectItemCaseSensitive(keys, key) != NULL, "scenes/%s: sets %s.%s", file->name,
                          info->family, key);
            }
            cJSON_Delete(root);
        }

        /* The file is canonical: what `vkfluid scenes --export NAME` writes. */
        char *canon = NULL;
        size_t canon_len = 0;
        FILE *cf = open_memstream(&canon, &canon_len);
        vf_scene_write_json(info, want, info->description, cf);
        fclose(cf);
        CHECK_MSG(canon_len == file->size && !memcmp(canon, file->data, canon_len),
                  "scenes/%s.json is what vkfluid scenes --export %s writes", info->name, info->name);
        free(canon);

        /* Round trip: the preset with changed values, written and read back. */
        for (size_t p = 0; p < info->param_count; p++) {
            const vf_param_def *d = &info->params[p];
            if (d->type == VF_PARAM_DOUBLE && d->max >= 1 && d->min <= 0.123456789012345)
                *(double *)((char *)want + d->offset) = d->min < 0.1234567890123 ? 0.123456789012345 : d->max;
        }
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        vf_scene_write_json(info, want, "round trip", f);
        fclose(f);
        r = vf_scene_parse("roundtrip.json", text, len, &sc, err, sizeof err);
        if (CHECK_MSG(r == VF_OK, "%s round trip: %s", info->name, err)) {
            CHECK_MSG(!memcmp(sc.desc, want, info->desc_size), "%s: written then parsed gives the same desc", info->name);
            CHECK_MSG(!strcmp(sc.description, "round trip"), "description read back");
            vf_scene_loaded_free(&sc);
        }
        free(text);
        free(want);
    }
    size_t embedded = 0;
    for (size_t i = 0; vf_scene_files[i].name; i++, embedded++) {
        char name[128];
        snprintf(name, sizeof name, "%s", vf_scene_files[i].name);
        char *dot = strrchr(name, '.');
        if (dot)
            *dot = 0;
        CHECK_MSG(vf_scene_find(name) != NULL, "scenes/%s belongs to a built-in scene", vf_scene_files[i].name);
    }
    CHECK_EQ_INT(embedded, scenes);
    printf("%zu scenes, %zu embedded files\n", scenes, embedded);
}

/* Parses text and expects exactly the message want (after "t.json: "). */
static void expect_error(const char *text, const char *want)
{
    char err[2048] = "";
    vf_scene_loaded sc;
    vf_result r = vf_scene_parse("t.json", text, strlen(text), &sc, err, sizeof err);
    if (CHECK_MSG(r != VF_OK, "%s: must fail", text)) {
        char full[2100];
        snprintf(full, sizeof full, "t.json: %s", want);
        CHECK_MSG(!strcmp(err, full), "%s:\n  got  %s\n  want %s", text, err, full);
    } else {
        vf_scene_loaded_free(&sc);
    }
}

static void messages(void)
{
    vf_test_section("errors name the file, the key path and what is allowed");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"re\": -5}}",
                 "grid.re: -5 is out of range: must be a number in (0, 1e+07]");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"n\": 1e300}}",
                 "grid.n: 1e+300 is out of range: must be an integer in [16, 65536]");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"re\": 1e400}}",
                 "grid.re: inf is not a finite number: must be a number in (0, 1e+07]");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"pressure\": 1}}",
                 "grid.pressure: a number is not allowed: must be one of multigrid|jacobi|ssor|penalty|fft");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"re\": [1]}}",
                 "grid.re: an array is not allowed: must be a number in (0, 1e+07]");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"re\": true}}",
                 "grid.re: true (a boolean) is not allowed: must be a number in (0, 1e+07]");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\", \"grid\": {\"r\\ne\": 1}}",
                 "grid.r\\x0ae: unknown key: did you mean re? the grid keys are n, pressure, pressure_iters, epsilon, "
                 "ssor_omega, advect, donor_gamma, cfl, frame_dt, diffuse_iters, report_every, re, lid");
    expect_error("{\"solver\": \"grid\", \"scene\": \"cavity\"", "line 1, column 37: the JSON ends too early: close "
                                                                "every string, array and object");
    expect_error("", "empty file: expected a JSON object such as {\"solver\": \"grid\", \"scene\": \"smoke\"}");

    vf_test_section("a user file starts from its preset; --set takes KEY and SOLVER.KEY");
    const vf_scene_info *boat = vf_scene_find("boat"), *cavity = vf_scene_find("cavity");
    if (!CHECK(boat && cavity))
        return;
    const char *text = "{\"solver\": \"height\", \"scene\": \"boat\", \"description\": \"mine\", \"height\": {\"nx\": 64, "
                       "\"boat\": false, \"integrator\": \"adi\", \"dx\": 0.1}}";
    void *want = preset(boat);
    char err[2048] = "";
    CHECK(vf_params_set(boat->params, boat->param_count, want, "nx=64", err, sizeof err) == VF_OK);
    CHECK(vf_scene_set(boat, want, "height.boat=false", err, sizeof err) == VF_OK);
    CHECK(vf_scene_set(boat, want, "integrator=adi", err, sizeof err) == VF_OK);
    CHECK(vf_scene_set(boat, want, "height.dx=0.1", err, sizeof err) == VF_OK);
    vf_scene_loaded sc;
    if (CHECK_MSG(vf_scene_parse("mine.json", text, strlen(text), &sc, err, sizeof err) == VF_OK, "%s", err)) {
        CHECK(sc.info == boat);
        CHECK(!memcmp(sc.desc, want, boat->desc_size));
        CHECK(!strcmp(sc.description, "mine"));
        vf_scene_loaded_free(&sc);
    }
    free(want);
    void *d = preset(cavity);
    CHECK(vf_scene_set(cavity, d, "grid.re=50", err, sizeof err) == VF_OK);
    CHECK(vf_scene_set(cavity, d, "sph.re=50", err, sizeof err) != VF_OK);
    CHECK_STR_CONTAINS(err, "sph: not this scene's solver: the keys are grid.KEY or KEY");
    CHECK(vf_scene_set(cavity, d, "re=1\n2", err, sizeof err) != VF_OK);
    CHECK_MSG(!strchr(err, '\n'), "control characters in --set are not echoed: %s", err);
    CHECK(vf_scene_set(cavity, d, "r\re=1", err, sizeof err) != VF_OK);
    CHECK_MSG(!strchr(err, '\r'), "control characters in --set keys are not echoed: %s", err);
    CHECK(vf_scene_set(cavity, d, "grid.nope=1", err, sizeof err) != VF_OK);
    CHECK_STR_CONTAINS(err, "unknown key 'nope'");
    free(d);
}

/* Runs vkfluid with args; returns the exit code, stderr alone in out. */
static int run_stderr(const char *args)
{
    return vf_test_run_capture(out, sizeof out, "( '%s' %s 2>&1 >/dev/null )", vf_t.vkfluid, args);
}

static void expect_cli_error(const char *args, const char *needle)
{
    int rc = run_stderr(args);
    CHECK_MSG(rc == 2, "vkfluid %s: exit %d, want 2: %s", args, rc, out);
    CHECK_MSG(vf_test_lines(out) == 1, "vkfluid %s: %d lines on stderr, want one: %s", args, vf_test_lines(out), out);
    CHECK_MSG(!strncmp(out, "error: ", 7), "vkfluid %s: must start with 'error: ': %s", args, out);
    if (needle)
        CHECK_STR_CONTAINS(out, needle);
    printf("  %s", out);
}

static void hostile(void)
{
    vf_test_section("hostile scene files: exit 2, one line, before any GPU work");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/hostile", vf_t.source);
    DIR *d = opendir(dir);
    if (!CHECK_MSG(d != NULL, "%s exists", dir))
        return;
    char *names[128];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 128;)
        if (strstr(e->d_name, ".json"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    CHECK_MSG(n >= 20, "%zu hostile files", n);
    for (size_t i = 0; i < n; i++) {
        char args[8400], path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(args, sizeof args, "run --scene '%s' --steps 1", path);
        expect_cli_error(args, path);
        free(names[i]);
    }
    char args[8400];
    snprintf(args, sizeof args, "run --scene '%s' --steps 1", dir);
    expect_cli_error(args, "is a directory");
    snprintf(args, sizeof args, "run --scene '%s/missing.json' --steps 1", vf_t.scratch);
    expect_cli_error(args, "No such file or directory");
    snprintf(args, sizeof args, "capture '%s/nan.json' --frames 1 --out '%s/c'", dir, vf_t.scratch);
    expect_cli_error(args, "nan.json: line 1, column 54: invalid JSON");
    snprintf(args, sizeof args, "view --scene '%s/negative_size.json'", dir);
    expect_cli_error(args, "negative_size.json: grid.n: -64 is out of range");
    snprintf(args, sizeof args, "run cavity --scene '%s/nan.json' --steps 1", dir);
    expect_cli_error(args, "a scene was already given");
    expect_cli_error("run cavity --set height.nx=64 --steps 1", "height: not this scene's solver");
    expect_cli_error("run --scene", "--scene needs a scene");
    /* --scene takes a built-in name too, as the first argument does */
    expect_cli_error("run --scene smok --steps 1", "unknown scene 'smok' for 'vkfluid run': did you mean smoke?");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run --scene smoke --set n=32 --steps 1 --quiet", vf_t.vkfluid);
    CHECK_MSG(rc == 0, "run --scene smoke: exit %d: %s", rc, out);
    snprintf(args, sizeof args, "run '%s/too_large_grid.json' --steps 1", dir);
    expect_cli_error(args, "too_large_grid.json: grid.n: 65536 x 65536 cells need");
    /* the river's flow grid is sized by the river's key: the grid's size line names flow_cells and its
     * fix (not the grid scenes' n), and the key the check hands back (apart from the text) is qualified */
    char river[4096]; /* vf_test_path's buffers are reused */
    snprintf(river, sizeof river, "%s", vf_test_path("river_long.json"));
    FILE *rf = fopen(river, "w");
    if (CHECK(rf != NULL)) {
        fprintf(rf, "{\"solver\": \"height\", \"scene\": \"river\", \"height\": {\"nx\": 8192, \"ny\": 16, "
                    "\"flow_cells\": 4096}}\n");
        fclose(rf);
        snprintf(args, sizeof args, "run '%s' --steps 1", river);
        expect_cli_error(args, "river_long.json: height.flow_cells: 2097152 x 4096 cells need");
        CHECK_STR_CONTAINS(out, "use a smaller flow_cells");
    }
    /* in range, but more than any device holds (4e9 x 164 bytes): the check
     * against the device's limits names the file and key too (frame_dt
     * short enough for the substeps 4e9 particles take, which validation
     * bounds before the device) */
    snprintf(args, sizeof args, "capture '%s/particles_beyond_device.json' --frames 1 --out '%s/big'", dir, vf_t.scratch);
    expect_cli_error(args, "particles_beyond_device.json: sph.particles: 3999999999 particles do not fit on");
    CHECK_MSG(access(vf_test_path("big"), F_OK) != 0, "a size that does not fit writes no output folder");
    expect_cli_error("run dam-break --set sph.particles=4e9 --set sph.frame_dt=0.005 --steps 1",
                     "scene dam-break: sph.particles: 3999999999");
    expect_cli_error("run dam-break --set sph.particles=4e9 --steps 1 --device nosuch",
                     "scene dam-break: particles: 4e+09 particles (spacing 0.000198425 m) with frame_dt: 0.0166667 s needs 4804 substeps");
}

static void user_file_runs(void)
{
    vf_test_section("a user scene file runs (with --set on top) and is named in summary.json");
    char path[4096]; /* vf_test_path's buffers are reused */
    snprintf(path, sizeof path, "%s", vf_test_path("small.json"));
    FILE *f = fopen(path, "w");
    if (!CHECK(f != NULL))
        return;
    fprintf(f, "{\"solver\": \"grid\", \"scene\": \"cavity\", \"description\": \"small cavity\",\n"
               " \"grid\": {\"n\": 16, \"re\": 10, \"pressure\": \"jacobi\"}}\n");
    fclose(f);
    int rc = vf_test_run_capture(out, sizeof out, "'%s' run '%s' --set grid.lid=2 --steps 2 --export '%s' --quiet",
                                 vf_t.vkfluid, path, vf_test_path("run"));
    if (rc == 77)
        return;
    CHECK_MSG(rc == 0, "run small.json: exit %d: %s", rc, out);
    size_t size = 0;
    char *summary = vf_test_read_file(vf_test_path("run/summary.json"), &size);
    if (CHECK(summary != NULL)) {
        CHECK_STR_CONTAINS(summary, "\"scene_file\": ");
        CHECK_STR_CONTAINS(summary, "\"n\": 16");
        CHECK_STR_CONTAINS(summary, "\"pressure\": \"jacobi\"");
        CHECK_STR_CONTAINS(summary, "\"lid\": 2");
        CHECK_STR_CONTAINS(summary, "\"re\": 10");
        free(summary);
    }

    rc = vf_test_run_capture(out, sizeof out, "'%s' capture --scene '%s' --frames 1 --size 64x64 --out '%s' --quiet",
                             vf_t.vkfluid, path, vf_test_path("capture"));
    CHECK_MSG(rc == 0, "capture --scene small.json: exit %d: %s", rc, out);
    char *capture = vf_test_read_file(vf_test_path("capture/capture.json"), NULL);
    if (CHECK(capture != NULL)) {
        CHECK_STR_CONTAINS(capture, "\"scene_file\": ");
        CHECK_STR_CONTAINS(capture, "\"n\": 16");
        free(capture);
    }

    vf_test_section("output safety: run and bench refuse a non-empty folder without --force");
    char args[8400];
    snprintf(args, sizeof args, "run '%s' --steps 1 --export '%s' --quiet", path, vf_test_path("run"));
    expect_cli_error(args, "the folder is not empty");
    snprintf(args, sizeof args, "bench --solver grid --sizes 16 --frames 1 --out '%s' --quiet", vf_test_path("run"));
    expect_cli_error(args, "the folder is not empty");
    rc = vf_test_run_capture(out, sizeof out, "'%s' run '%s' --steps 1 --export '%s' --force --quiet", vf_t.vkfluid, path,
                             vf_test_path("run"));
    CHECK_MSG(rc == 0, "run --force into the used folder: exit %d: %s", rc, out);

    vf_test_section("bench --scene FILE sweeps the file's scene");
    rc = vf_test_run_capture(out, sizeof out,
                             "'%s' bench --scene '%s' --sizes 16,32 --frames 1 --warmup 0 --repeat 1 --render none --out '%s' --quiet",
                             vf_t.vkfluid, path, vf_test_path("bench"));
    CHECK_MSG(rc == 0, "bench --scene small.json: exit %d: %s", rc, out);
    char *bench = vf_test_read_file(vf_test_path("bench/bench.json"), NULL);
    if (CHECK(bench != NULL)) {
        CHECK_STR_CONTAINS(bench, "small.json");
        CHECK_MSG(!strstr(bench, "\"height\"") && !strstr(bench, "\"pool\""), "only the file's solver is swept");
        free(bench);
    }
    snprintf(args, sizeof args, "bench --scene '%s/tests/hostile/negative_size.json' --out '%s'", vf_t.source,
             vf_test_path("bench2"));
    expect_cli_error(args, "negative_size.json: grid.n: -64 is out of range");
    snprintf(args, sizeof args, "bench --scene '%s' --solver height --out '%s'", path, vf_test_path("bench2"));
    expect_cli_error(args, "is a grid scene");

    vf_test_section("bench --scene NAME sweeps a built-in scene");
    rc = vf_test_run_capture(out, sizeof out,
                             "'%s' bench --scene cavity --sizes 16 --frames 1 --warmup 0 --repeat 1 --render none --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("bench3"));
    CHECK_MSG(rc == 0, "bench --scene cavity: exit %d: %s", rc, out);
    bench = vf_test_read_file(vf_test_path("bench3/bench.json"), NULL);
    if (CHECK(bench != NULL)) {
        CHECK_STR_CONTAINS(bench, "cavity");
        CHECK_MSG(!strstr(bench, "\"height\"") && !strstr(bench, "\"sph\""), "only the scene's solver is swept");
        free(bench);
    }
    snprintf(args, sizeof args, "bench --scene cavity --solver sph --out '%s'", vf_test_path("bench4"));
    expect_cli_error(args, "is a grid scene");
    snprintf(args, sizeof args, "bench --scene cavty --out '%s'", vf_test_path("bench4"));
    expect_cli_error(args, "give the path of a scene file (.json) or a built-in scene name");
}

static void listing_and_readme(void)
{
    vf_test_section("vkfluid scenes lists every scene (text and JSON)");
    int rc = vf_test_run_capture(out, sizeof out, "'%s' scenes", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    for (size_t i = 0; vf_scenes[i]; i++)
        CHECK_STR_CONTAINS(out, vf_scenes[i]->description);
    rc = vf_test_run_capture(out, sizeof out, "'%s' scenes --json", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    cJSON *root = cJSON_Parse(out);
    size_t count = 0;
    while (vf_scenes[count])
        count++;
    if (CHECK_MSG(cJSON_IsArray(root), "scenes --json is a JSON array"))
        CHECK_EQ_INT(cJSON_GetArraySize(root), count);
    cJSON_Delete(root);

    vf_test_section("docs/scenes.md's key tables are the output of vkfluid scenes --markdown");
    rc = vf_test_run_capture(out, sizeof out, "'%s' scenes --markdown", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/docs/scenes.md", vf_t.source);
    char *readme = vf_test_read_file(path, NULL);
    if (!CHECK(readme != NULL))
        return;
    const char *begin_mark = "<!-- vkfluid scenes --markdown: begin -->\n", *end_mark = "<!-- vkfluid scenes --markdown: end -->";
    char *begin = strstr(readme, begin_mark), *end = begin ? strstr(begin, end_mark) : NULL;
    if (CHECK_MSG(begin && end, "docs/scenes.md has the markers %s and %s", begin_mark, end_mark)) {
        begin += strlen(begin_mark);
        *end = 0;
        bool same = !strcmp(begin, out);
        CHECK_MSG(same, "docs/scenes.md's key tables differ from `vkfluid scenes --markdown`: paste its output between the markers");
        if (!same) {
            size_t k = 0;
            while (begin[k] && begin[k] == out[k])
                k++;
            printf("first difference at byte %zu: docs/scenes.md '%.60s' vs command '%.60s'\n", k, begin + k, out + k);
        }
    }
    free(readme);
}

/* The line of `key` in a key listing ("  key  value ..."), copied into line;
 * false when absent. */
static bool key_line(const char *text, const char *key, char *line, size_t cap)
{
    char pat[96];
    snprintf(pat, sizeof pat, "\n  %s ", key);
    const char *p = strstr(text, pat);
    if (!p)
        return false;
    p++;
    size_t n = strcspn(p, "\n");
    snprintf(line, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
    return true;
}

/* The choices a|b|c as the markdown table writes them, "a, b, c", into
 * cell (cap bytes, cut short to fit). */
static void markdown_choices(const char *choices, char *cell, size_t cap)
{
    size_t n = 0;
    for (const char *c = choices; *c && n + 3 < cap; c++) {
        if (*c == '|') {
            cell[n++] = ',';
            cell[n++] = ' ';
        } else {
            cell[n++] = *c;
        }
    }
    cell[n] = 0;
}

/* Every choice key lists its values, from its table, in `scenes NAME`,
 * `run NAME --help` and docs/scenes.md (`scenes --markdown`, where a '|'
 * would end the cell: ", "). The renderer's choice keys too: in `scenes NAME`,
 * as KEY=a|b in `run NAME --help` and in the family's renderer table. */
static void choices_listed(void)
{
    vf_test_section("every choice key lists its values: scenes NAME, run NAME --help, scenes --markdown");
    static char listing[1 << 16], help[1 << 16];
    char *md = NULL;
    int rc = vf_test_run_capture(out, sizeof out, "'%s' scenes --markdown", vf_t.vkfluid);
    CHECK_EQ_INT(rc, 0);
    md = strdup(out);
    size_t keys = 0;
    for (size_t i = 0; vf_scenes[i]; i++) {
        const vf_scene_info *info = vf_scenes[i];
        rc = vf_test_run_capture(listing, sizeof listing, "'%s' scenes %s", vf_t.vkfluid, info->name);
        CHECK_EQ_INT(rc, 0);
        rc = vf_test_run_capture(help, sizeof help, "'%s' run %s --help", vf_t.vkfluid, info->name);
        CHECK_EQ_INT(rc, 0);
        for (size_t k = 0; k < info->param_count; k++) {
            const vf_param_def *d = &info->params[k];
            if (d->type != VF_PARAM_ENUM)
                continue;
            char line[1024], cell[256];
            keys++;
            CHECK_MSG(key_line(listing, d->key, line, sizeof line) && strstr(line, d->choices),
                      "scenes %s: %s lists %s", info->name, d->key, d->choices);
            CHECK_MSG(key_line(help, d->key, line, sizeof line) && strstr(line, d->choices),
                      "run %s --help: %s lists %s", info->name, d->key, d->choices);
            markdown_choices(d->choices, cell, sizeof cell);
            /* the table of this scene: after the header "### FAMILY keys: scene(s) A, B" naming it */
            char row[128], head[64];
            snprintf(head, sizeof head, "### %s keys: scene", info->family);
            const char *sec = NULL;
            for (const char *h = strstr(md, head); h && !sec; h = strstr(h + 1, head)) {
                size_t hl = strcspn(h, "\n"), nl = strlen(info->name);
                for (const char *q = strstr(h, info->name); q && (size_t)(q - h) < hl; q = strstr(q + 1, info->name))
                    if ((q[-1] == ' ') && (q[nl] == ',' || q[nl] == '\n'))
                        sec = h;
            }
            snprintf(row, sizeof row, "| `%s.%s` |", info->family, d->key);
            const char *r = sec ? strstr(sec, row) : NULL;
            CHECK_MSG(r && (size_t)(strstr(r, cell) - r) < strcspn(r, "\n"), "scenes --markdown: %s.%s lists %s",
                      info->family, d->key, cell);
        }
        size_t rn = 0;
        const vf_param_def *rt = vf_render_params(info->family, &rn);
        const char *view_key = vf_render_view_key(info->family);
        for (size_t k = 0; k < rn; k++) {
            char line[1024];
            if (rt[k].type != VF_PARAM_ENUM || (view_key && !strcmp(rt[k].key, view_key)))
                continue;
            keys++;
            CHECK_MSG(key_line(listing, rt[k].key, line, sizeof line) && strstr(line, rt[k].choices),
                      "scenes %s: %s lists %s", info->name, rt[k].key, rt[k].choices);
            /* --help: KEY=a|b; the markdown: the row of the family's renderer table */
            char with[256], row[128], head[96], cell[256];
            snprintf(with, sizeof with, " %s=%s", rt[k].key, rt[k].choices);
            CHECK_MSG(strstr(help, with) != NULL, "run %s --help: %s lists %s", info->name, rt[k].key, rt[k].choices);
            markdown_choices(rt[k].choices, cell, sizeof cell);
            snprintf(head, sizeof head, "### %s renderer keys:", info->family);
            snprintf(row, sizeof row, "| `%s` |", rt[k].key);
            const char *sec = strstr(md, head), *r = sec ? strstr(sec, row) : NULL;
            CHECK_MSG(r && strstr(r, cell) && (size_t)(strstr(r, cell) - r) < strcspn(r, "\n"),
                      "scenes --markdown: %s renderer %s lists %s", info->family, rt[k].key, cell);
        }
    }
    printf("  %zu choice keys checked in every scene\n", keys);
    CHECK(keys > 20);
    free(md);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    builtin_files();
    messages();
    hostile();
    user_file_runs();
    listing_and_readme();
    choices_listed();
    return vf_test_finish();
}
