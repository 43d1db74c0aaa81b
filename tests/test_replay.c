/* Sessions that replay and peers in lockstep (docs/replay.md): the event
 * codec, record files and wire messages against malformed bytes; a scripted
 * viewer session under Xvfb (lavapipe) against its headless replay, byte for
 * byte; two headless peers on loopback over 200 frames; a peer that
 * disconnects or sends garbage. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "session_events.h"
#include "session_net.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

static char out[65536];

static vf_frame_inputs sample_frame(void)
{
    vf_frame_inputs in = {0};
    vf_event ev = {.type = VF_EVENT_POINTER};
    ev.pointer = (vf_event_pointer){.active = true, .button = 1, .pos = {0.25f, 0.5f}, .vel = {-3.0f, 1e-7f},
                                    .ray_origin = {1, 2, 3}, .ray_dir = {0, -1, 0}};
    CHECK(vf_frame_add(&in, &ev));
    CHECK(vf_frame_add(&in, &(vf_event){.type = VF_EVENT_PAUSE, .on = true}));
    CHECK(vf_frame_add(&in, &(vf_event){.type = VF_EVENT_STEP}));
    CHECK(vf_frame_add(&in, &(vf_event){.type = VF_EVENT_SET, .text = "n=60"}));
    CHECK(vf_frame_add(&in, &(vf_event){.type = VF_EVENT_RESET}));
    CHECK(vf_frame_add(&in, &(vf_event){.type = VF_EVENT_SCENE, .text = "cavity"}));
    return in;
}

static bool one_line(const char *s)
{
    return s[0] && !strchr(s, '\n') && !strchr(s, '\r');
}

/* A record file in memory: header, frames, end mark. */
static size_t make_record(uint8_t *buf, size_t cap, uint32_t frames)
{
    char tmpl[] = "/tmp/vkfluid-test-rec-XXXXXX";
    int fd = mkstemp(tmpl);
    FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    if (!CHECK(f))
        return 0;
    vf_session_header h = {.scene = "smoke", .params = "n=32\nre=100\n", .frames = frames};
    vf_frame_inputs in = sample_frame();
    CHECK(vf_record_write_header(f, &h) == VF_OK);
    for (uint32_t i = 0; i < frames; i++)
        CHECK(vf_record_write_frame(f, &in) == VF_OK);
    CHECK(vf_record_write_end(f, frames) == VF_OK);
    rewind(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    remove(tmpl);
    return n;
}

static void codec_tests(void)
{
    vf_test_section("frame codec round trip");
    vf_frame_inputs in = sample_frame(), back;
    uint8_t buf[VF_SESSION_FRAME_MAX];
    char err[512];
    size_t n = vf_frame_encode(&in, buf, sizeof buf), used = 0;
    CHECK(n > 0);
    CHECK(vf_frame_decode(buf, n, &back, &used, err, sizeof err) == VF_OK);
    CHECK_EQ_U64(used, n);
    CHECK_EQ_U64(back.count, in.count);
    CHECK(memcmp(&back.ev[0].pointer, &in.ev[0].pointer, sizeof in.ev[0].pointer) == 0);
    CHECK(back.ev[1].on && !strcmp(back.ev[3].text, "n=60") && !strcmp(back.ev[5].text, "cavity"));

    vf_test_section("invalid events are refused when added");
    vf_frame_inputs t = {0};
    CHECK(!vf_frame_add(&t, &(vf_event){.type = 0}));
    CHECK(!vf_frame_add(&t, &(vf_event){.type = VF_EVENT_TYPE_END}));
    CHECK(!vf_frame_add(&t, &(vf_event){.type = VF_EVENT_SET, .text = "no-equals"}));
    CHECK(!vf_frame_add(&t, &(vf_event){.type = VF_EVENT_SET, .text = "a=\n"}));
    CHECK(!vf_frame_add(&t, &(vf_event){.type = VF_EVENT_SCENE, .text = ""}));
    vf_event nan = {.type = VF_EVENT_POINTER};
    nan.pointer.pos[0] = 0.0f / 0.0f;
    CHECK(!vf_frame_add(&t, &nan));
    for (uint32_t i = 0; i < VF_SESSION_MAX_EVENTS; i++)
        CHECK(vf_frame_add(&t, &(vf_event){.type = VF_EVENT_STEP}));
    CHECK(!vf_frame_add(&t, &(vf_event){.type = VF_EVENT_STEP}));

    vf_test_section("malformed frames");
    /* every truncation of a valid frame fails with one line */
    for (size_t k = 0; k < n; k++) {
        err[0] = 0;
        CHECK_MSG(vf_frame_decode(buf, k, &back, &used, err, sizeof err) == VF_ERR_PARSE && one_line(err),
                  "truncated to %zu bytes: %s", k, err);
    }
    uint8_t bad[64];
    const struct {
        const char *what;
        uint8_t bytes[16];
        size_t n;
    } cases[] = {
        {"too many events", {0xff, 0x00}, 2},
        {"unknown type", {1, 0, 9, 0}, 4},
        {"type zero", {1, 0, 0, 0}, 4},
        {"pause of 2 bytes", {1, 0, 2, 2, 1, 0}, 6},
        {"pause value 7", {1, 0, 2, 1, 7}, 5},
        {"step with bytes", {1, 0, 3, 1, 0}, 5},
        {"pointer of 3 bytes", {1, 0, 1, 3, 0, 0, 0}, 7},
        {"text of 0 bytes", {1, 0, 5, 0}, 4},
        {"text of 200 bytes", {1, 0, 5, 200, 'a'}, 5},
        {"control byte in text", {1, 0, 6, 2, 'a', 0x07}, 6},
        {"set without =", {1, 0, 5, 2, 'a', 'b'}, 6},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        memcpy(bad, cases[c].bytes, cases[c].n);
        err[0] = 0;
        vf_result r = vf_frame_decode(bad, cases[c].n, &back, &used, err, sizeof err);
        CHECK_MSG(r == VF_ERR_PARSE && one_line(err), "%s: result %d, '%s'", cases[c].what, (int)r, err);
    }
    /* a pointer with a NaN coordinate */
    vf_frame_inputs p = {0};
    CHECK(vf_frame_add(&p, &in.ev[0]));
    size_t pn = vf_frame_encode(&p, buf, sizeof buf);
    memset(buf + 6, 0xff, 4); /* pos[0] = NaN */
    CHECK(vf_frame_decode(buf, pn, &back, &used, err, sizeof err) == VF_ERR_PARSE && one_line(err));

    vf_test_section("record files");
    static uint8_t rec[1 << 16];
    size_t rn = make_record(rec, sizeof rec, 3);
    vf_record r;
    CHECK(rn > 20);
    CHECK(vf_record_parse(rec, rn, &r, err, sizeof err) == VF_OK);
    CHECK_EQ_U64(r.frame_count, 3);
    CHECK(!strcmp(r.header.scene, "smoke") && !strcmp(r.header.params, "n=32\nre=100\n"));
    vf_frame_inputs third;
    vf_record_frame(&r, 2, &third);
    CHECK(r.frame_count == 3 && third.count == in.count && !strcmp(third.ev[5].text, "cavity"));
    vf_record_frame(&r, 3, &third);
    CHECK_EQ_U64(third.count, 0);
    vf_record_free(&r);
    for (size_t k = 0; k < rn; k++) {
        err[0] = 0;
        CHECK_MSG(vf_record_parse(rec, k, &r, err, sizeof err) == VF_ERR_PARSE && one_line(err) && !r.data && !r.offsets,
                  "record truncated to %zu bytes: '%s'", k, err);
    }
    uint8_t *copy = malloc(rn + 1);
    memcpy(copy, rec, rn);
    copy[0] = 'X';
    CHECK(vf_record_parse(copy, rn, &r, err, sizeof err) == VF_ERR_PARSE && strstr(err, "magic"));
    memcpy(copy, rec, rn);
    copy[8] = 99;
    CHECK(vf_record_parse(copy, rn, &r, err, sizeof err) == VF_ERR_PARSE && strstr(err, "version"));
    memcpy(copy, rec, rn);
    copy[rn - 4] = 7; /* the end mark's frame count */
    CHECK(vf_record_parse(copy, rn, &r, err, sizeof err) == VF_ERR_PARSE && strstr(err, "end mark"));
    copy[rn - 4] = rec[rn - 4];
    copy[rn] = 0;
    CHECK(vf_record_parse(copy, rn + 1, &r, err, sizeof err) == VF_ERR_PARSE && strstr(err, "after the end"));
    memcpy(copy, rec, rn);
    copy[12] = 0; /* scene name length 0 */
    CHECK(vf_record_parse(copy, rn, &r, err, sizeof err) == VF_ERR_PARSE && one_line(err));
    free(copy);

    vf_test_section("wire messages");
    vf_msg m = {.type = VF_MSG_FRAME, .frame = 41, .state_hash = 0x0123456789abcdefull, .in = in}, back_m;
    static uint8_t wire[VF_MSG_HEAD_BYTES + VF_MSG_MAX_PAYLOAD];
    size_t wn = vf_msg_encode(&m, wire, sizeof wire);
    uint8_t type;
    uint32_t len;
    CHECK(wn > VF_MSG_HEAD_BYTES);
    CHECK(vf_msg_check_head(wire, &type, &len, err, sizeof err) == VF_OK && type == VF_MSG_FRAME &&
          len == wn - VF_MSG_HEAD_BYTES);
    CHECK(vf_msg_decode_payload(type, wire + VF_MSG_HEAD_BYTES, len, &back_m, err, sizeof err) == VF_OK);
    CHECK(back_m.frame == 41 && back_m.state_hash == m.state_hash && back_m.in.count == in.count);
    CHECK(vf_msg_decode_payload(type, wire + VF_MSG_HEAD_BYTES, len - 1, &back_m, err, sizeof err) == VF_ERR_PARSE);
    wire[wn] = 0;
    CHECK(vf_msg_decode_payload(type, wire + VF_MSG_HEAD_BYTES, len + 1, &back_m, err, sizeof err) == VF_ERR_PARSE &&
          strstr(err, "unexpected bytes"));
    uint8_t head[VF_MSG_HEAD_BYTES];
    memcpy(head, wire, sizeof head);
    head[0] = 77;
    CHECK(vf_msg_check_head(head, &type, &len, err, sizeof err) == VF_ERR_PARSE && one_line(err));
    memcpy(head, wire, sizeof head);
    head[1] = 2;
    CHECK(vf_msg_check_head(head, &type, &len, err, sizeof err) == VF_ERR_PARSE && strstr(err, "version"));
    memcpy(head, wire, sizeof head);
    head[7] = 0x7f; /* a 2 GB payload */
    CHECK(vf_msg_check_head(head, &type, &len, err, sizeof err) == VF_ERR_PARSE && strstr(err, "at most"));
    memcpy(head, wire, sizeof head);
    head[2] = 1;
    CHECK(vf_msg_check_head(head, &type, &len, err, sizeof err) == VF_ERR_PARSE && strstr(err, "reserved"));
    vf_msg hello = {.type = VF_MSG_HELLO, .header = {.scene = "smoke", .params = "n=32\n", .frames = 200}};
    wn = vf_msg_encode(&hello, wire, sizeof wire);
    CHECK(wn > 0 && vf_msg_check_head(wire, &type, &len, err, sizeof err) == VF_OK);
    CHECK(vf_msg_decode_payload(type, wire + VF_MSG_HEAD_BYTES, len, &back_m, err, sizeof err) == VF_OK &&
          back_m.header.frames == 200 && !strcmp(back_m.header.params, "n=32\n"));
    CHECK(vf_session_check_bytes(wire, wn, err, sizeof err) == VF_OK);
    CHECK(vf_session_check_bytes((const uint8_t *)"garbage", 7, err, sizeof err) == VF_ERR_PARSE && one_line(err));

    vf_test_section("addresses");
    char host[64];
    int port = 0;
    CHECK(vf_net_parse_address("7000", host, sizeof host, &port) && port == 7000 && !strcmp(host, "127.0.0.1"));
    CHECK(vf_net_parse_address("10.0.0.2:65535", host, sizeof host, &port) && port == 65535 && !strcmp(host, "10.0.0.2"));
    CHECK(!vf_net_parse_address("0", host, sizeof host, &port));
    CHECK(!vf_net_parse_address("65536", host, sizeof host, &port));
    CHECK(!vf_net_parse_address("host:", host, sizeof host, &port));
    CHECK(!vf_net_parse_address(":80", host, sizeof host, &port));
    CHECK(!vf_net_parse_address("12ab", host, sizeof host, &port));
}

static void replay_tests(void)
{
    const char *xvfb = "xvfb-run -a -s '-screen 0 1024x768x24'";
    int rc;
    if (vf_test_run("command -v xvfb-run >/dev/null") != 0) {
        CHECK_MSG(false, "xvfb-run is missing: install xvfb and xauth (tools/quickstart.sh does)");
        return;
    }
    vf_test_section("a scripted viewer session against its headless replay");
    /* 30 frames: a left drag, a pause, a single step, a parameter change
     * (n 48 -> 60) with a reset, and a right drag (--test-script) */
    rc = vf_test_run_capture(out, sizeof out,
                             "%s '%s' view smoke --set n=48 --size 160x120 --frames 30 --test-script 30 --vsync off "
                             "--record '%s' --screenshot '%s'",
                             xvfb, vf_t.vkfluid, vf_test_path("s.rec"), vf_test_path("view.png"));
    CHECK_MSG(rc == 0, "view --record: exit %d: %s", rc, out);
    CHECK_MSG(strstr(out, "validation:") == NULL, "validation messages: %s", out);
    size_t size = 0;
    char *data = vf_test_read_file(vf_test_path("s.rec"), &size);
    vf_record rec = {0};
    char err[512];
    if (CHECK(data) && CHECK(vf_record_parse((const uint8_t *)data, size, &rec, err, sizeof err) == VF_OK)) {
        CHECK_EQ_U64(rec.frame_count, 30);
        CHECK(!strcmp(rec.header.scene, "smoke") && !strcmp(rec.header.params, "n=48\n"));
        int kinds[VF_EVENT_TYPE_END] = {0};
        for (uint32_t f = 0; f < rec.frame_count; f++) {
            vf_frame_inputs fi;
            vf_record_frame(&rec, f, &fi);
            for (uint32_t i = 0; i < fi.count; i++)
                kinds[fi.ev[i].type]++;
        }
        CHECK_MSG(kinds[VF_EVENT_POINTER] >= 10 && kinds[VF_EVENT_PAUSE] == 2 && kinds[VF_EVENT_STEP] == 1 &&
                      kinds[VF_EVENT_SET] == 1 && kinds[VF_EVENT_RESET] == 1,
                  "the record holds the script's events: pointer %d pause %d step %d set %d reset %d",
                  kinds[VF_EVENT_POINTER], kinds[VF_EVENT_PAUSE], kinds[VF_EVENT_STEP], kinds[VF_EVENT_SET],
                  kinds[VF_EVENT_RESET]);
    }
    vf_record_free(&rec);
    free(data);
    for (int run = 0; run < 2; run++) {
        rc = vf_test_run_capture(out, sizeof out, "'%s' capture --replay '%s' --size 160x120 --out '%s' --quiet",
                                 vf_t.vkfluid, vf_test_path("s.rec"), vf_test_path(run ? "replay2" : "replay1"));
        CHECK_MSG(rc == 0, "capture --replay: exit %d: %s", rc, out);
    }
    CHECK_MSG(vf_test_same_file(vf_test_path("view.png"), vf_test_path("replay1/frame_00029.png")),
              "the replay's last frame is byte-identical to the viewer's");
    int same = 0, paused = 0;
    for (int f = 0; f < 30; f++) {
        char a[64], b[64], c[64];
        snprintf(a, sizeof a, "replay1/frame_%05d.png", f);
        snprintf(b, sizeof b, "replay2/frame_%05d.png", f);
        same += vf_test_same_file(vf_test_path(a), vf_test_path(b));
        if (f > 0) {
            snprintf(c, sizeof c, "replay1/frame_%05d.png", f - 1);
            paused += vf_test_same_file(vf_test_path(a), vf_test_path(c));
        }
    }
    CHECK_MSG(same == 30, "two replays are byte-identical in every frame (%d of 30)", same);
    CHECK_MSG(paused == 2, "frames 10 and 11 (paused) repeat their predecessor; %d frames did", paused);
    /* the inputs matter: the same scene without them ends elsewhere */
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --set n=48 --size 160x120 --frames 30 --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("plain"));
    CHECK_MSG(rc == 0, "plain capture: exit %d: %s", rc, out);
    CHECK_MSG(!vf_test_same_file(vf_test_path("view.png"), vf_test_path("plain/frame_00029.png")),
              "the session's inputs changed the simulation");

    vf_test_section("a 3D view: pool's surface, a drop through the pick ray, a reset to a larger grid");
    rc = vf_test_run_capture(out, sizeof out,
                             "VKFLUID_VALIDATION=1 %s '%s' view pool --set nx=48 --set ny=48 --size 160x120 --frames 24 "
                             "--test-script 24 --vsync off --record '%s' --screenshot '%s'",
                             xvfb, vf_t.vkfluid, vf_test_path("pool.rec"), vf_test_path("pool.png"));
    CHECK_MSG(rc == 0 && !strstr(out, "validation:"), "view pool --record: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture --replay '%s' --size 160x120 --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("pool.rec"), vf_test_path("pool_replay"));
    CHECK_MSG(rc == 0 && vf_test_same_file(vf_test_path("pool.png"), vf_test_path("pool_replay/frame_00023.png")),
              "pool: the replay's last frame is byte-identical to the viewer's: exit %d: %s", rc, out);

    vf_test_section("bad record files");
    FILE *f = fopen(vf_test_path("bad.rec"), "wb");
    if (CHECK(f)) {
        fputs("VFREPLAY\x01\x00\x00\x00\x05smo", f);
        fclose(f);
    }
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture --replay '%s' --out '%s' --quiet", vf_t.vkfluid,
                             vf_test_path("bad.rec"), vf_test_path("bad_out"));
    CHECK_MSG(rc == 2 && strstr(out, "bad.rec") && strchr(out, '\n') == strrchr(out, '\n'),
              "a truncated record: exit %d, one line: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture --replay '%s' --quiet", vf_t.vkfluid,
                             vf_test_path("missing.rec"));
    CHECK_MSG(rc == 2 && strchr(out, '\n') == strrchr(out, '\n'), "a missing record: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture smoke --replay '%s' --quiet", vf_t.vkfluid,
                             vf_test_path("s.rec"));
    CHECK_MSG(rc == 2 && strstr(out, "either"), "a scene and --replay: exit %d: %s", rc, out);
}

/* A port for this test run (loopback only). */
static int test_port(int k)
{
    return 20000 + (int)((getpid() * 7 + k * 131) % 20000);
}

static bool one_output_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return s[0] && (!nl || nl[1] == 0);
}

static void lockstep_tests(void)
{
    int rc, port = test_port(1);
    vf_test_section("two headless peers in lockstep over loopback, 200 frames");
    /* the server replays the viewer session's inputs (a drag, a pause, a
     * reset to n = 60), the client none: both must step the same frames */
    rc = vf_test_run_capture(out, sizeof out,
                             "timeout 380 '%s' run --replay '%s' --steps 200 --serve 127.0.0.1:%d --export '%s' --quiet "
                             "> '%s' 2>&1 & "
                             "timeout 380 '%s' run --join 127.0.0.1:%d --export '%s' --quiet; b=$?; wait $!; a=$?; "
                             "cat '%s'; echo \"exit $a $b\"",
                             vf_t.vkfluid, vf_test_path("s.rec"), port, vf_test_path("peer_a"), vf_test_path("a.log"),
                             vf_t.vkfluid, port, vf_test_path("peer_b"), vf_test_path("a.log"));
    CHECK_MSG(rc == 0 && strstr(out, "exit 0 0"), "lockstep peers: %s", out);
    CHECK_MSG(strstr(out, "validation:") == NULL, "validation messages: %s", out);
    size_t na = 0, nb = 0;
    char *ha = vf_test_read_file(vf_test_path("peer_a/lockstep.txt"), &na);
    char *hb = vf_test_read_file(vf_test_path("peer_b/lockstep.txt"), &nb);
    if (CHECK(ha && hb)) {
        int lines = 0;
        for (const char *c = ha; *c; c++)
            lines += *c == '\n';
        CHECK_MSG(lines == 200 + 1, "a comment and one hash per frame: %d lines", lines);
        CHECK_MSG(na == nb && !memcmp(ha, hb, na), "the per-frame state hashes are equal");
        const char *first = strchr(ha, '\n'), *last = strrchr(ha, ' ');
        CHECK_MSG(first && last && strncmp(first + 3, last + 1, 16), "the hashes change as the state evolves");
    }
    free(ha);
    free(hb);
    const char *exports[] = {"grid_0000.csv", "grid_0000.vti"};
    for (int k = 0; k < 2; k++) {
        char a[128], b[128];
        snprintf(a, sizeof a, "peer_a/%s", exports[k]);
        snprintf(b, sizeof b, "peer_b/%s", exports[k]);
        CHECK_MSG(vf_test_same_file(vf_test_path(a), vf_test_path(b)), "the final exports %s are equal", exports[k]);
    }
    /* and the replay's inputs reached the simulation (n = 60 after the reset) */
    char *csv = vf_test_read_file(vf_test_path("peer_a/grid_0000.csv"), &na);
    char *plain = NULL;
    rc = vf_test_run_capture(out, sizeof out, "'%s' run smoke --set n=48 --steps 200 --export '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("plain_run"));
    CHECK_MSG(rc == 0, "plain run: %s", out);
    plain = vf_test_read_file(vf_test_path("plain_run/grid_0000.csv"), &nb);
    CHECK_MSG(csv && plain && (na != nb || memcmp(csv, plain, na)), "the lockstep session differs from a plain run");
    free(csv);
    free(plain);

    vf_test_section("two viewers in lockstep under Xvfb, both scripted");
    port = test_port(7);
    const char *xvfb = "xvfb-run -a -s '-screen 0 1024x768x24'";
    rc = vf_test_run_capture(out, sizeof out,
                             "timeout 380 %s '%s' view smoke --set n=40 --size 160x120 --frames 40 --vsync off "
                             "--serve 127.0.0.1:%d --test-script 40 --record '%s' --screenshot '%s' > '%s' 2>&1 & "
                             "timeout 380 %s '%s' view --join 127.0.0.1:%d --size 160x120 --vsync off --test-script 30 "
                             "--record '%s' --screenshot '%s'; b=$?; wait $!; a=$?; cat '%s'; echo \"exit $a $b\"",
                             xvfb, vf_t.vkfluid, port, vf_test_path("va.rec"), vf_test_path("va.png"),
                             vf_test_path("va.log"), xvfb, vf_t.vkfluid, port, vf_test_path("vb.rec"),
                             vf_test_path("vb.png"), vf_test_path("va.log"));
    CHECK_MSG(strstr(out, "exit 0 0"), "lockstep viewers: %s", out);
    CHECK_MSG(strstr(out, "validation:") == NULL, "validation messages: %s", out);
    CHECK_MSG(vf_test_same_file(vf_test_path("va.png"), vf_test_path("vb.png")),
              "both viewers show the same last frame");
    CHECK_MSG(vf_test_same_file(vf_test_path("va.rec"), vf_test_path("vb.rec")), "both record the same merged inputs");
    rc = vf_test_run_capture(out, sizeof out, "'%s' capture --replay '%s' --size 160x120 --out '%s' --quiet",
                             vf_t.vkfluid, vf_test_path("va.rec"), vf_test_path("va_replay"));
    CHECK_MSG(rc == 0 && vf_test_same_file(vf_test_path("va.png"), vf_test_path("va_replay/frame_00039.png")),
              "the lockstep session's record replays to the same frame: exit %d: %s", rc, out);

    vf_test_section("a peer that disconnects, sends garbage, or whose state differs");
    for (int mode = 0; mode < 4; mode++) {
        port = test_port(2 + mode);
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            /* the fake server: a valid join and hello, then the fault */
            vf_net_peer *p = NULL;
            vf_msg *m = calloc(1, sizeof *m);
            char err[256], where[32];
            snprintf(where, sizeof where, "127.0.0.1:%d", port);
            if (vf_net_serve(where, 60000, &p, err, sizeof err) == VF_OK &&
                vf_net_recv(p, m, 60000, err, sizeof err) == VF_OK) {
                *m = (vf_msg){.type = VF_MSG_HELLO, .header = {.scene = "smoke", .params = "n=16\n", .frames = 50}};
                vf_net_send(p, m, 60000, err, sizeof err);
                if (mode == 1) {
                    /* a frame message whose event count is out of bounds */
                    static const uint8_t junk[] = {3, 1, 0, 0, 14, 0, 0, 0, 0, 0, 0, 0,
                                                   0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
                    vf_net_recv(p, m, 60000, err, sizeof err); /* the client's frame 0 */
                    vf_net_send_bytes(p, junk, sizeof junk, 60000, err, sizeof err);
                    vf_net_recv(p, m, 10000, err, sizeof err);
                } else if (mode == 3) {
                    /* a peer whose state differs: its hash after frame 0 is not ours */
                    for (uint32_t f = 0; f < 2; f++) {
                        vf_net_recv(p, m, 60000, err, sizeof err);
                        *m = (vf_msg){.type = VF_MSG_FRAME, .frame = f, .state_hash = f ? 0xdeadbeefull : 0};
                        vf_net_send(p, m, 60000, err, sizeof err);
                    }
                    vf_net_recv(p, m, 10000, err, sizeof err);
                } else if (mode == 2) {
                    /* a frame from the wrong point in time */
                    vf_net_recv(p, m, 60000, err, sizeof err);
                    *m = (vf_msg){.type = VF_MSG_FRAME, .frame = 7};
                    vf_net_send(p, m, 60000, err, sizeof err);
                    vf_net_recv(p, m, 10000, err, sizeof err);
                }
            }
            vf_net_close(&p);
            free(m);
            _exit(0);
        }
        rc = vf_test_run_capture(out, sizeof out, "timeout 200 '%s' run --join 127.0.0.1:%d --quiet", vf_t.vkfluid, port);
        int status = 0;
        waitpid(pid, &status, 0);
        const char *want = mode == 0 ? "disconnected" : mode == 3 ? "states differ" : "malformed";
        CHECK_MSG(rc != 0 && rc != 124 && (mode != 3 || rc == 1) && strstr(out, want) && one_output_line(out),
                  "fault %d: exit %d, one line naming '%s': %s", mode, rc, want, out);
    }
    vf_test_section("nobody to join, a bad address");
    rc = vf_test_run_capture(out, sizeof out, "timeout 100 '%s' run --join 127.0.0.1:%d --quiet", vf_t.vkfluid,
                             test_port(9));
    CHECK_MSG(rc == 3 && strstr(out, "cannot connect") && one_output_line(out), "nobody listens: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' run smoke --steps 3 --serve 99999 --quiet", vf_t.vkfluid);
    CHECK_MSG(rc == 2 && strstr(out, "PORT") && one_output_line(out), "a bad port: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' run smoke --serve 7000 --quiet", vf_t.vkfluid);
    CHECK_MSG(rc == 2 && strstr(out, "--steps") && one_output_line(out), "--serve without --steps: exit %d: %s", rc, out);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    codec_tests();
    replay_tests();
    lockstep_tests();
    return vf_test_finish();
}
