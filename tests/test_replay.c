/* Sessions that replay and peers in lockstep (docs/replay.md): the event
 * codec, record files and wire messages against malformed bytes; a scripted
 * viewer session under Xvfb (lavapipe) against its headless replay, byte for
 * byte; two headless peers on loopback over 200 frames; a peer that
 * disconnects or sends garbage; SIGINT and SIGTERM in every wait, headless
 * and in the viewer (an Xvfb of the test's own, so that the signal reaches
 * the viewer itself). */
#include <arpa/inet.h>
#include <cjson/cJSON.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd_session.h"
#include "session_events.h"
#include "session_net.h"
#define VF_TESTLIB_NO_GPU
#include "testlib.h"

static char out[65536];

/* Sleeps us microseconds (usleep is not POSIX 2008). */
static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* Monotonic seconds (printed, never asserted on). */
static double vf_test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The session token of every lockstep pair in this test. */
#define TOKEN "test-token-0123"

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
    head[1] = 1; /* version 1 had no session token */
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

    vf_test_section("JOIN carries the session token; pointer values are bounded");
    vf_msg join = {.type = VF_MSG_JOIN, .token = "abc-DEF_0123"};
    wn = vf_msg_encode(&join, wire, sizeof wire);
    CHECK(wn == VF_MSG_HEAD_BYTES + 1 + 12 && vf_msg_check_head(wire, &type, &len, err, sizeof err) == VF_OK);
    CHECK(vf_msg_decode_payload(type, wire + VF_MSG_HEAD_BYTES, len, &back_m, err, sizeof err) == VF_OK &&
          !strcmp(back_m.token, "abc-DEF_0123"));
    wire[VF_MSG_HEAD_BYTES + 3] = ' '; /* a space in the token */
    CHECK(vf_msg_decode_payload(type, wire + VF_MSG_HEAD_BYTES, len, &back_m, err, sizeof err) == VF_ERR_PARSE);
    CHECK(vf_msg_decode_payload(VF_MSG_JOIN, wire + VF_MSG_HEAD_BYTES, 0, &back_m, err, sizeof err) == VF_ERR_PARSE &&
          strstr(err, "token"));
    CHECK(!vf_session_token_valid("short") && !vf_session_token_valid("tok en123") && vf_session_token_valid("abcdefgh"));
    join.token[0] = 0;
    CHECK(vf_msg_encode(&join, wire, sizeof wire) == 0);
    CHECK(vf_net_token_equal("abcdefgh", "abcdefgh") && !vf_net_token_equal("abcdefgh", "abcdefgi") &&
          !vf_net_token_equal("abcdefgh", "abcdefgh1"));
    char tok[64];
    CHECK(vf_net_new_token(tok, sizeof tok) == VF_OK && vf_session_token_valid(tok) && strlen(tok) == 32);
    vf_event big = {.type = VF_EVENT_POINTER, .pointer = {.pos = {0.5f, 0.5f}, .ray_dir = {0, 0, 1}}};
    CHECK(vf_event_check(&big, err, sizeof err));
    big.pointer.vel[1] = 1e20f;
    CHECK(!vf_event_check(&big, err, sizeof err) && strstr(err, "velocity[1]") && one_line(err));
    vf_event_pointer_clamp(&big.pointer);
    CHECK(vf_event_check(&big, err, sizeof err) && big.pointer.vel[1] == VF_POINTER_VEL_MAX);
    big.pointer.ray_origin[2] = -1e30f;
    CHECK(!vf_event_check(&big, err, sizeof err) && strstr(err, "ray origin[2]"));
    vf_session_rate rate = {0};
    vf_frame_inputs two = {.count = 2, .ev = {{.type = VF_EVENT_RESET}, {.type = VF_EVENT_SCENE, .text = "smoke"}}};
    vf_frame_inputs one_reset = {.count = 1, .ev = {{.type = VF_EVENT_RESET}}};
    CHECK(!vf_session_rate_check(&rate, 0, &two, err, sizeof err) && strstr(err, "resets in one frame"));
    for (uint32_t f = 0; f < VF_SESSION_RESETS_PER_WINDOW; f++)
        CHECK(vf_session_rate_check(&rate, f * 2, &one_reset, err, sizeof err));
    CHECK(!vf_session_rate_check(&rate, VF_SESSION_RESETS_PER_WINDOW * 2, &one_reset, err, sizeof err));
    CHECK(vf_session_rate_check(&rate, VF_SESSION_RESET_WINDOW, &one_reset, err, sizeof err)); /* the window moved on */

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
                             "%s '%s' view pool --set nx=48 --set ny=48 --size 160x120 --frames 24 "
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

/* 127.0.0.1:port. */
static struct sockaddr_in loopback(int port)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return sa;
}

/* A socket bound to the loopback port as a server binds it (SO_REUSEADDR),
 * or -1 when the port is in use. */
static int bound_socket(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in sa = loopback(port);
    if (fd >= 0 && (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
                    bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Whether a server could listen on the loopback port now. */
static bool port_free(int port)
{
    int fd = bound_socket(port);
    if (fd >= 0)
        close(fd);
    return fd >= 0;
}

/* A loopback port for section k of this test run: from 20000 up to the
 * kernel's ephemeral range (ip_local_port_range), which outgoing
 * connections take their ports from (a server there can find its port in
 * use: "Address already in use"), different per process and per k, and
 * free when picked. */
static int test_port(int k)
{
    int lo = 32768, a, b;
    FILE *f = fopen("/proc/sys/net/ipv4/ip_local_port_range", "r");
    if (f) {
        if (fscanf(f, "%d %d", &a, &b) == 2 && a >= 21024 && a <= 65535)
            lo = a;
        fclose(f);
    }
    int span = lo - 20000, start = (int)(((unsigned)getpid() * 7u + (unsigned)k * 131u) % (unsigned)span);
    for (int t = 0; t < 64; t++) {
        int port = 20000 + (start + 37 * t) % span;
        if (port_free(port))
            return port;
    }
    return 20000 + start;
}

static bool one_output_line(const char *s)
{
    const char *nl = strchr(s, '\n');
    return s[0] && (!nl || nl[1] == 0);
}


/* ---------------------------------------------------------------- hostile inputs */

/* One event of a hostile record: frame, type, text or pointer velocity. */
typedef struct rec_event {
    uint32_t frame;
    uint8_t type;
    const char *text;
    float vel;
} rec_event;

/* Writes name: scene with params, frames frames, the events (bytes as given:
 * the writer's own checks are passed over, as a hostile file would). */
static void write_record(const char *name, const char *scene, const char *params, uint32_t frames, const rec_event *ev,
                         size_t n)
{
    FILE *f = fopen(vf_test_path(name), "wb");
    if (!CHECK(f))
        return;
    vf_session_header h = {.frames = frames};
    snprintf(h.scene, sizeof h.scene, "%s", scene);
    snprintf(h.params, sizeof h.params, "%s", params);
    CHECK(vf_record_write_header(f, &h) == VF_OK);
    for (uint32_t fr = 0; fr < frames; fr++) {
        uint8_t buf[VF_SESSION_FRAME_MAX];
        size_t len = 2, count = 0;
        for (size_t k = 0; k < n; k++) {
            if (ev[k].frame != fr)
                continue;
            count++;
            buf[len++] = ev[k].type;
            if (ev[k].type == VF_EVENT_POINTER) {
                float v[10] = {0.5f, 0.5f, ev[k].vel, 0, 0, 0, 0, 0, 0, 1};
                buf[len++] = 42;
                buf[len++] = 1;
                buf[len++] = 0;
                memcpy(buf + len, v, sizeof v);
                len += sizeof v;
            } else if (ev[k].text && !strcmp(ev[k].text, "NUL")) { /* "n=", a NUL byte, "3" */
                buf[len++] = 4;
                memcpy(buf + len, "n=\0" "3", 4);
                len += 4;
            } else {
                size_t t = ev[k].text ? strlen(ev[k].text) : 0;
                buf[len++] = (uint8_t)t;
                memcpy(buf + len, ev[k].text ? ev[k].text : "", t);
                len += t;
            }
        }
        buf[0] = (uint8_t)count;
        buf[1] = 0;
        fwrite(buf, 1, len, f);
    }
    CHECK(vf_record_write_end(f, frames) == VF_OK);
    fclose(f);
}

static void hostile_replays(void)
{
    vf_test_section("every event is input: hostile records are refused before any gpu work, one line, exit 2");
    const struct {
        const char *what, *scene, *params;
        rec_event ev[3];
        size_t n;
        const char *want;
    } cases[] = {
        /* 1.1e9 nozzle points counted by the solver before: now the scene's own check */
        {"a nozzle wider than the tank",
         "fountain",
         "",
         {{0, VF_EVENT_SET, "nozzle_radius=1000", 0}, {0, VF_EVENT_SET, "spacing=0.005", 0}, {0, VF_EVENT_RESET, NULL, 0}},
         3,
         "frame 0, event 3 (RESET): scene fountain: nozzle_height"},
        {"a column taller than its tank",
         "dam-break",
         "spacing=0.04\n",
         {{1, VF_EVENT_SET, "tank_height=1", 0}, {1, VF_EVENT_SET, "ratio=50", 0}, {1, VF_EVENT_RESET, NULL, 0}},
         3,
         "frame 1, event 3 (RESET): scene dam-break: ratio"},
        {"a pool deeper than its tank",
         "drop",
         "spacing=0.04\n",
         {{2, VF_EVENT_SET, "pool_depth=5", 0}, {2, VF_EVENT_RESET, NULL, 0}},
         2,
         "frame 2, event 2 (RESET): scene drop: pool_depth"},
        {"a value out of range", "smoke", "n=16\n", {{1, VF_EVENT_SET, "n=1", 0}}, 1, "frame 1, event 1 (SET n=1): n=1: out of range"},
        {"an unknown scene", "smoke", "n=16\n", {{0, VF_EVENT_SCENE, "nope", 0}}, 1, "frame 0, event 1 (SCENE nope): no built-in scene"},
        {"a NUL inside a SET", "smoke", "n=16\n", {{0, VF_EVENT_SET, "NUL", 0}}, 1, "event 1 (SET): its text holds a NUL byte"},
        {"a pointer velocity of 1e38", "smoke", "n=16\n", {{1, VF_EVENT_POINTER, NULL, 1e38f}}, 1, "pointer velocity[0] = 1e+38"},
        {"a pointer velocity of 1e20", "smoke", "n=16\n", {{0, VF_EVENT_POINTER, NULL, 1e20f}}, 1, "pointer velocity[0] = 1e+20"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char name[32];
        snprintf(name, sizeof name, "hostile%zu.rec", c);
        write_record(name, cases[c].scene, cases[c].params, 4, cases[c].ev, cases[c].n);
        /* --device nosuch: the refusal must come before the device is opened */
        int rc = vf_test_run_capture(out, sizeof out, "timeout 120 '%s' run --replay '%s' --device nosuch --quiet",
                                     vf_t.vkfluid, vf_test_path(name));
        CHECK_MSG(rc == 2 && strstr(out, cases[c].want) && strstr(out, name) && one_output_line(out),
                  "%s: exit %d (want 2), one line naming the frame and event ('%s'): %s", cases[c].what, rc,
                  cases[c].want, out);
    }
    /* capture takes the same path */
    int rc = vf_test_run_capture(out, sizeof out, "timeout 120 '%s' capture --replay '%s' --device nosuch --quiet",
                                 vf_t.vkfluid, vf_test_path("hostile0.rec"));
    CHECK_MSG(rc == 2 && strstr(out, cases[0].want) && one_output_line(out), "capture --replay: exit %d: %s", rc, out);

    vf_test_section("a valid reset still runs; a record served to a peer keeps to the lockstep bounds");
    rec_event ok[] = {{1, VF_EVENT_SET, "n=20", 0}, {1, VF_EVENT_RESET, NULL, 0}};
    write_record("reset_ok.rec", "smoke", "n=16\n", 3, ok, 2);
    rc = vf_test_run_capture(out, sizeof out, "timeout 200 '%s' run --replay '%s' --quiet --export '%s'", vf_t.vkfluid,
                             vf_test_path("reset_ok.rec"), vf_test_path("reset_ok"));
    char *json = vf_test_read_file(vf_test_path("reset_ok/summary.json"), NULL);
    CHECK_MSG(rc == 0 && json && strstr(json, "\"n\": 20"), "a valid SET and RESET: exit %d: %s", rc, out);
    free(json);
    rec_event flood[VF_SESSION_RESETS_PER_WINDOW + 1];
    for (uint32_t k = 0; k <= VF_SESSION_RESETS_PER_WINDOW; k++)
        flood[k] = (rec_event){k, VF_EVENT_RESET, NULL, 0};
    write_record("flood.rec", "smoke", "n=16\n", 8, flood, VF_SESSION_RESETS_PER_WINDOW + 1);
    rc = vf_test_run_capture(out, sizeof out, "timeout 60 '%s' run --replay '%s' --serve 127.0.0.1:%d --token %s --quiet",
                             vf_t.vkfluid, vf_test_path("flood.rec"), test_port(11), TOKEN);
    CHECK_MSG(rc == 2 && strstr(out, "frame 4") && strstr(out, "in any 60 frames") && one_output_line(out),
              "a record with 5 resets in 5 frames is not served: exit %d: %s", rc, out);

    vf_test_section("a FIFO is refused before it is opened");
    char fifo[4200];
    snprintf(fifo, sizeof fifo, "%s", vf_test_path("fifo.rec"));
    if (CHECK(mkfifo(fifo, 0600) == 0)) {
        rc = vf_test_run_capture(out, sizeof out, "timeout 20 '%s' run --replay '%s' --quiet", vf_t.vkfluid, fifo);
        CHECK_MSG(rc == 2 && strstr(out, "not a regular file") && one_output_line(out), "--replay FIFO: exit %d: %s", rc,
                  out);
        rc = vf_test_run_capture(out, sizeof out, "timeout 20 '%s' run --scene '%s' --steps 1 --quiet", vf_t.vkfluid,
                                 fifo);
        CHECK_MSG(rc == 2 && strstr(out, "not a regular file") && one_output_line(out), "--scene FIFO: exit %d: %s", rc,
                  out);
        rc = vf_test_run_capture(out, sizeof out, "timeout 20 '%s' compare '%s' '%s'", vf_t.vkfluid, fifo, fifo);
        CHECK_MSG(rc == 2 && strstr(out, "not a regular file") && one_output_line(out), "compare FIFO: exit %d: %s", rc,
                  out);
    }
}

/* Forks a fake server on 127.0.0.1:port (TOKEN): it accepts one client,
 * runs script(peer, a message buffer, mode) and exits. Returns the child. */
static pid_t fake_server(int port, void (*script)(vf_net_peer *, vf_msg *, int), int mode)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    vf_net_peer *p = NULL;
    vf_msg *m = calloc(1, sizeof *m);
    char err[256], where[32];
    uint32_t refused = 0;
    snprintf(where, sizeof where, "127.0.0.1:%d", port);
    vf_net_serve_desc sd = {.where = where, .token = TOKEN, .timeout_ms = 60000};
    if (m && vf_net_serve(&sd, &p, &refused, err, sizeof err) == VF_OK)
        script(p, m, mode);
    vf_net_close(&p);
    free(m);
    _exit(0);
}

/* The fake server of the fault cases, after its hello: the client's frame
 * answered with junk (mode 1), a frame from the wrong time (2) or another
 * state (3); mode 0 disconnects. */
static void faulty_server(vf_net_peer *p, vf_msg *m, int mode)
{
    char err[256];
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

/* The hostile server: a hello, then a frame whose events reset the scene
 * with an invalid ratio. */
static void hostile_server(vf_net_peer *p, vf_msg *m, int mode)
{
    (void)mode;
    char err[256];
    *m = (vf_msg){.type = VF_MSG_HELLO, .header = {.scene = "dam-break", .params = "spacing=0.04\n", .frames = 5}};
    vf_net_send(p, m, 60000, err, sizeof err);
    *m = (vf_msg){.type = VF_MSG_FRAME, .frame = 0};
    m->in.ev[0] = (vf_event){.type = VF_EVENT_SET, .text = "tank_height=1"};
    m->in.ev[1] = (vf_event){.type = VF_EVENT_SET, .text = "ratio=50"};
    m->in.ev[2] = (vf_event){.type = VF_EVENT_RESET};
    m->in.count = 3;
    vf_net_send(p, m, 60000, err, sizeof err);
    vf_net_recv(p, m, 120000, err, sizeof err);
    vf_net_recv(p, m, 20000, err, sizeof err);
}

static void lockstep_tests(void)
{
    int rc, port = test_port(1);
    /* the sanitizer run (VKFLUID_DRIVER_LIGHT=1): 40 frames, past the
     * recorded session's last event (frame 29) */
    const int frames = vf_test_light() ? 40 : 200;
    char title[96];
    snprintf(title, sizeof title, "two headless peers in lockstep over loopback, %d frames", frames);
    vf_test_section(title);
    /* the server replays the viewer session's inputs (a drag, a pause, a
     * reset to n = 60), the client none: both must step the same frames */
    rc = vf_test_run_capture(out, sizeof out,
                             "timeout 380 '%s' run --replay '%s' --steps %d --serve 127.0.0.1:%d --token %s --export '%s' "
                             "--quiet > '%s' 2>&1 & "
                             "timeout 380 '%s' run --join 127.0.0.1:%d --token %s --export '%s' --quiet; b=$?; wait $!; a=$?; "
                             "cat '%s'; echo \"exit $a $b\"",
                             vf_t.vkfluid, vf_test_path("s.rec"), frames, port, TOKEN, vf_test_path("peer_a"), vf_test_path("a.log"),
                             vf_t.vkfluid, port, TOKEN, vf_test_path("peer_b"), vf_test_path("a.log"));
    CHECK_MSG(rc == 0 && strstr(out, "exit 0 0"), "lockstep peers: %s", out);
    CHECK_MSG(strstr(out, "validation:") == NULL, "validation messages: %s", out);
    size_t na = 0, nb = 0;
    char *ha = vf_test_read_file(vf_test_path("peer_a/lockstep.txt"), &na);
    char *hb = vf_test_read_file(vf_test_path("peer_b/lockstep.txt"), &nb);
    if (CHECK(ha && hb)) {
        int lines = 0;
        for (const char *c = ha; *c; c++)
            lines += *c == '\n';
        CHECK_MSG(lines == frames + 1, "a comment and one hash per frame: %d lines", lines);
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
    rc = vf_test_run_capture(out, sizeof out, "'%s' run smoke --set n=48 --steps %d --export '%s' --quiet",
                             vf_t.vkfluid, frames, vf_test_path("plain_run"));
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
                             "--serve 127.0.0.1:%d --token %s --test-script 40 --record '%s' --screenshot '%s' > '%s' 2>&1 & "
                             "timeout 380 %s '%s' view --join 127.0.0.1:%d --token %s --size 160x120 --vsync off "
                             "--test-script 30 --record '%s' --screenshot '%s'; b=$?; wait $!; a=$?; cat '%s'; "
                             "echo \"exit $a $b\"",
                             xvfb, vf_t.vkfluid, port, TOKEN, vf_test_path("va.rec"), vf_test_path("va.png"),
                             vf_test_path("va.log"), xvfb, vf_t.vkfluid, port, TOKEN, vf_test_path("vb.rec"),
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
        pid_t pid = fake_server(port, faulty_server, mode);
        rc = vf_test_run_capture(out, sizeof out, "timeout 200 '%s' run --join 127.0.0.1:%d --token %s --quiet",
                                 vf_t.vkfluid, port, TOKEN);
        int status = 0;
        waitpid(pid, &status, 0);
        const char *want = mode == 0 ? "disconnected" : mode == 3 ? "states differ" : "malformed";
        CHECK_MSG(rc != 0 && rc != 124 && (mode != 3 || rc == 1) && strstr(out, want) && one_output_line(out),
                  "fault %d: exit %d, one line naming '%s': %s", mode, rc, want, out);
    }
    vf_test_section("nobody to join, a bad address");
    rc = vf_test_run_capture(out, sizeof out, "timeout 100 '%s' run --join 127.0.0.1:%d --token %s --quiet", vf_t.vkfluid,
                             test_port(9), TOKEN);
    CHECK_MSG(rc == 3 && strstr(out, "cannot connect") && one_output_line(out), "nobody listens: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' run smoke --steps 3 --serve 99999 --quiet", vf_t.vkfluid);
    CHECK_MSG(rc == 2 && strstr(out, "PORT") && one_output_line(out), "a bad port: exit %d: %s", rc, out);
    rc = vf_test_run_capture(out, sizeof out, "'%s' run smoke --serve 7000 --quiet", vf_t.vkfluid);
    CHECK_MSG(rc == 2 && strstr(out, "--steps") && one_output_line(out), "--serve without --steps: exit %d: %s", rc, out);
    /* a port another program listens on: one line, and no "waiting for a
     * peer" (that line comes once the server listens) */
    port = test_port(23);
    int busy = bound_socket(port);
    if (CHECK(busy >= 0 && listen(busy, 1) == 0)) {
        rc = vf_test_run_capture(out, sizeof out, "timeout 100 '%s' run smoke --steps 3 --serve 127.0.0.1:%d --token %s",
                                 vf_t.vkfluid, port, TOKEN);
        CHECK_MSG(rc == 3 && strstr(out, "cannot listen") && strstr(out, "in use") && !strstr(out, "waiting") &&
                      one_output_line(out),
                  "a port in use: exit %d: %s", rc, out);
    }
    if (busy >= 0)
        close(busy);
}


/* ---------------------------------------------------------------- hostile peers and signals */

/* Starts sh -c cmd with stdout and stderr to log; the pid. */
static pid_t spawn(const char *log, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static pid_t spawn(const char *log, const char *fmt, ...)
{
    static char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *f = freopen(log, "w", stdout);
        if (f)
            dup2(fileno(stdout), 2);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* The exit status of pid (waited for), 128 + N for a signal. */
static int reap(pid_t pid)
{
    int st = 0;
    if (waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Waits (at most tenths x 0.1 s) until path holds text. */
static bool wait_for_text(const char *path, const char *text, int tenths)
{
    for (int i = 0; i < tenths; i++) {
        char *t = vf_test_read_file(path, NULL);
        bool found = t && strstr(t, text);
        free(t);
        if (found)
            return true;
        sleep_us(100000);
    }
    return false;
}

/* Waits (at most 30 s) until process pid, exec'd into a program whose name
 * holds name, catches SIGINT (the SigCgt mask of /proc/PID/status, read
 * line by line: /proc files have no size). */
static bool wait_for_handler_of(pid_t pid, const char *name)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    for (int i = 0; i < 3000; i++) {
        FILE *f = fopen(path, "r");
        bool named = false;
        unsigned long long mask = 0;
        while (f && fgets(line, sizeof line, f)) {
            if (!strncmp(line, "Name:", 5))
                named = strstr(line, name) != NULL; /* after the exec */
            if (!strncmp(line, "SigCgt:", 7))
                mask = strtoull(line + 7, NULL, 16);
        }
        if (f)
            fclose(f);
        if (named && (mask & (1ull << (SIGINT - 1))))
            return true;
        sleep_us(10000);
    }
    return false;
}

static bool wait_for_handler(pid_t pid)
{
    return wait_for_handler_of(pid, "vkfluid");
}

/* A loopback connection to port, or -1. */
static int connect_to(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = loopback(port);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Joins the server at port as a peer would (JOIN with token, HELLO back). */
static vf_net_peer *fake_client(int port, vf_msg *m)
{
    char where[32], err[256];
    vf_net_peer *p = NULL;
    snprintf(where, sizeof where, "127.0.0.1:%d", port);
    *m = (vf_msg){.type = VF_MSG_JOIN, .token = TOKEN};
    if (vf_net_join(where, 60000, &p, err, sizeof err) != VF_OK || vf_net_send(p, m, 60000, err, sizeof err) != VF_OK ||
        vf_net_recv(p, m, 60000, err, sizeof err) != VF_OK || m->type != VF_MSG_HELLO) {
        CHECK_MSG(false, "the fake client joins port %d: %s", port, err);
        vf_net_close(&p);
    }
    return p;
}

static void check_interrupted_summary(const char *dir, const char *what)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/summary.json", dir);
    char *text = vf_test_read_file(path, NULL);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    const cJSON *it = j ? cJSON_GetObjectItemCaseSensitive(j, "interrupted") : NULL;
    CHECK_MSG(j && cJSON_IsTrue(it), "%s: %s parses as JSON and says interrupted: %s", what, path, text ? text : "(none)");
    cJSON_Delete(j);
    free(text);
}

static void hostile_peers(void)
{
    vf_test_section("a port scan, a wrong token and a flood against a server that then completes with its peer");
    int port = test_port(12);
    const char *log = vf_test_path("scan_server.log");
    pid_t server = spawn(log, "timeout 300 '%s' run smoke --set n=16 --steps 3 --serve 127.0.0.1:%d --token %s --export '%s'",
                         vf_t.vkfluid, port, TOKEN, vf_test_path("scan_a"));
    CHECK_MSG(wait_for_text(log, "waiting for a peer", 600), "the server waits");
    static const uint8_t wrong[] = {VF_MSG_JOIN, VF_WIRE_VERSION, 0, 0, 11, 0, 0, 0, 10, 'w', 'r', 'o', 'n', 'g',
                                    't', 'o', 'k', 'e', 'n'};
    int fd = connect_to(port), made = fd >= 0;
    uint8_t reply[8] = {0};
    if (CHECK(fd >= 0)) {
        CHECK(write(fd, wrong, sizeof wrong) == (ssize_t)sizeof wrong);
        CHECK_MSG(read(fd, reply, sizeof reply) == 8 && reply[0] == VF_MSG_BYE, "a wrong token gets BYE");
        close(fd);
    }
    if ((fd = connect_to(port)) >= 0) { /* bytes that are no message */
        (void)!write(fd, "GET / HTTP/1.0\r\n\r\n", 18);
        close(fd);
        made++;
    }
    for (int k = 0; k < 30; k++) { /* a port scan: connect and close */
        if ((fd = connect_to(port)) >= 0) {
            close(fd);
            made++;
        }
    }
    int silent = connect_to(port); /* holds a slot while the peer joins */
    for (int k = 0; k < 40; k++) { /* a flood: garbage, then closed */
        char junk[512];
        memset(junk, 'A' + k % 26, sizeof junk);
        if ((fd = connect_to(port)) >= 0) {
            (void)!write(fd, junk, sizeof junk);
            close(fd);
            made++;
        }
    }
    int rc = vf_test_run_capture(out, sizeof out, "timeout 300 '%s' run --join 127.0.0.1:%d --token %s --export '%s' --quiet",
                                 vf_t.vkfluid, port, TOKEN, vf_test_path("scan_b"));
    int src = reap(server);
    if (silent >= 0)
        close(silent);
    char *slog = vf_test_read_file(log, NULL);
    CHECK_MSG(rc == 0 && src == 0, "the real peer completes: client exit %d, server exit %d: %s / %s", rc, src, out,
              slog ? slog : "");
    char counted[64];
    snprintf(counted, sizeof counted, "(%d other connections refused)", made);
    CHECK_MSG(slog && strstr(slog, "another session token") && strstr(slog, "without a join") &&
                  strstr(slog, "is not a join") && strstr(slog, counted) &&
                  strstr(slog, "further ones are counted, not shown"),
              "every refusal is counted, the first 20 are one line each: %s", slog ? slog : "");
    free(slog);
    CHECK(vf_test_same_file(vf_test_path("scan_a/grid_0000.vti"), vf_test_path("scan_b/grid_0000.vti")));

    vf_test_section("a peer's events are input: a reset flood and an invalid SET end the session, exit 3 naming it");
    const char *events[2] = {"flood", "bad set"};
    for (int k = 0; k < 2; k++) {
        port = test_port(13 + k);
        char lk[32];
        snprintf(lk, sizeof lk, "peer%d.log", k);
        log = vf_test_path(lk);
        server = spawn(log, "timeout 300 '%s' run smoke --set n=16 --steps 20 --serve 127.0.0.1:%d --token %s --quiet",
                       vf_t.vkfluid, port, TOKEN);
        vf_msg *m = calloc(1, sizeof *m);
        vf_net_peer *p = m && wait_for_text(log, "waiting for a peer", 600) ? fake_client(port, m) : NULL;
        char err[256];
        if (p) {
            *m = (vf_msg){.type = VF_MSG_FRAME, .frame = 0};
            for (uint32_t i = 0; i < (k ? 1u : VF_SESSION_PEER_EVENTS); i++)
                m->in.ev[m->in.count++] = k ? (vf_event){.type = VF_EVENT_SET, .text = "n=1"} : (vf_event){.type = VF_EVENT_RESET};
            vf_net_send(p, m, 60000, err, sizeof err);
            vf_net_recv(p, m, 60000, err, sizeof err); /* the server's frame 0 */
        }
        src = reap(server);
        slog = vf_test_read_file(log, NULL);
        const char *want = k ? "frame 0, event 1 (SET n=1): n=1: out of range" : "resets in one frame";
        CHECK_MSG(src == 3 && slog && strstr(slog, "the peer (client 127.0.0.1:") && strstr(slog, want),
                  "%s: server exit %d (want 3), naming the peer and '%s': %s", events[k], src, want, slog ? slog : "");
        free(slog);
        vf_net_close(&p);
        free(m);
    }

    vf_test_section("a hostile server: its invalid reset ends the client, exit 3 naming the peer");
    port = test_port(15);
    pid_t fake = fake_server(port, hostile_server, 0);
    rc = vf_test_run_capture(out, sizeof out, "timeout 300 '%s' run --join 127.0.0.1:%d --token %s --quiet", vf_t.vkfluid,
                             port, TOKEN);
    reap(fake);
    CHECK_MSG(rc == 3 && strstr(out, "the peer (server 127.0.0.1:") && strstr(out, "event 3 (RESET)") &&
                  strstr(out, "ratio") && one_output_line(out),
              "client exit %d (want 3), one line naming the server and the event: %s", rc, out);
}

static void signals(void)
{
    vf_test_section("SIGINT and SIGTERM end every wait: exit 130, one line, summary.json written");
    /* a server waiting for its peer */
    int port = test_port(16);
    const char *log = vf_test_path("sig_server.log");
    pid_t pid = spawn(log, "exec '%s' run smoke --set n=16 --steps 3 --serve 127.0.0.1:%d --export '%s' --quiet",
                      vf_t.vkfluid, port, vf_test_path("sig_server"));
    CHECK(wait_for_text(log, "waiting for a peer", 600));
    double t0 = vf_test_now();
    kill(pid, SIGINT);
    int rc = reap(pid);
    printf("  the waiting server ended %.2f s after SIGINT\n", vf_test_now() - t0);
    char *text = vf_test_read_file(log, NULL);
    CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGINT) while waiting for a peer"),
              "a waiting server: exit %d (want 130): %s", rc, text ? text : "");
    free(text);
    check_interrupted_summary(vf_test_path("sig_server"), "a waiting server");

    /* a server replaying a record, waiting for its peer */
    write_record("sig.rec", "smoke", "n=16\n", 20, NULL, 0);
    log = vf_test_path("sig_replay.log");
    pid = spawn(log, "exec '%s' run --replay '%s' --serve 127.0.0.1:%d --token %s --export '%s' --quiet", vf_t.vkfluid,
                vf_test_path("sig.rec"), test_port(22), TOKEN, vf_test_path("sig_replay"));
    CHECK(wait_for_text(log, "waiting for a peer", 600));
    t0 = vf_test_now();
    kill(pid, SIGTERM);
    rc = reap(pid);
    printf("  the server replaying a record ended %.2f s after SIGTERM\n", vf_test_now() - t0);
    text = vf_test_read_file(log, NULL);
    CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGTERM) while waiting for a peer"),
              "a server replaying a record: exit %d (want 130): %s", rc, text ? text : "");
    free(text);
    check_interrupted_summary(vf_test_path("sig_replay"), "a server replaying a record");

    /* a client joining where nobody listens yet */
    log = vf_test_path("sig_client.log");
    pid = spawn(log, "exec '%s' run --join 127.0.0.1:%d --token %s --export '%s' --quiet", vf_t.vkfluid, test_port(17),
                TOKEN, vf_test_path("sig_client"));
    sleep_us(1500000); /* connecting: retried every 100 ms for 15 s */
    t0 = vf_test_now();
    kill(pid, SIGTERM);
    rc = reap(pid);
    printf("  the joining client ended %.2f s after SIGTERM\n", vf_test_now() - t0);
    text = vf_test_read_file(log, NULL);
    CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGTERM) while joining"), "a joining client: exit %d: %s",
              rc, text ? text : "");
    free(text);
    check_interrupted_summary(vf_test_path("sig_client"), "a joining client");

    /* a server in lockstep, waiting for a silent peer's frame */
    port = test_port(18);
    log = vf_test_path("sig_lockstep.log");
    pid = spawn(log, "exec '%s' run smoke --set n=16 --steps 50 --serve 127.0.0.1:%d --token %s --export '%s' --quiet",
                vf_t.vkfluid, port, TOKEN, vf_test_path("sig_lockstep"));
    vf_msg *m = calloc(1, sizeof *m);
    vf_net_peer *p = m && wait_for_text(log, "waiting for a peer", 600) ? fake_client(port, m) : NULL;
    char err[256];
    if (p) {
        vf_net_recv(p, m, 120000, err, sizeof err); /* the server's frame 0: it now waits for ours */
        t0 = vf_test_now();
        kill(pid, SIGINT);
        rc = reap(pid);
        printf("  the server in lockstep ended %.2f s after SIGINT\n", vf_test_now() - t0);
        bool bye = vf_net_recv(p, m, 10000, err, sizeof err) == VF_OK && m->type == VF_MSG_BYE;
        text = vf_test_read_file(log, NULL);
        CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGINT) after frame 0"), "lockstep: exit %d: %s", rc,
                  text ? text : "");
        CHECK_MSG(bye, "the peer is told BYE");
        free(text);
        check_interrupted_summary(vf_test_path("sig_lockstep"), "a server in lockstep");
    } else {
        kill(pid, SIGKILL);
        reap(pid);
    }
    vf_net_close(&p);
    free(m);

    /* a signal at once: before or after the command catches it, one line and 130 */
    log = vf_test_path("sig_early.log");
    pid = spawn(log, "exec '%s' run smoke --set n=16 --steps 100000 --quiet", vf_t.vkfluid);
    CHECK_MSG(wait_for_handler(pid), "the handler is installed first thing");
    kill(pid, SIGINT);
    rc = reap(pid);
    text = vf_test_read_file(log, NULL);
    CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGINT)") && vf_test_lines(text) == 1,
              "a signal at once: exit %d (want 130), one line: %s", rc, text ? text : "");
    free(text);
}

/* An Xvfb server of its own for the viewers whose pid a test signals (under
 * xvfb-run the signalled process would be a grandchild and the exit status
 * xvfb-run's); its pid, *display the display number it chose (-displayfd),
 * -1 if it did not start. */
static pid_t start_xvfb(int *display)
{
    const char *num = vf_test_path("xvfb.display");
    unlink(num);
    pid_t pid = spawn(vf_test_path("xvfb.log"), "exec Xvfb -displayfd 3 -screen 0 1024x768x24 -nolisten tcp 3> '%s'", num);
    *display = -1;
    for (int i = 0; i < 300 && *display < 0; i++) {
        char *t = vf_test_read_file(num, NULL);
        if (t && strchr(t, '\n'))
            *display = atoi(t);
        free(t);
        if (*display < 0)
            sleep_us(100000);
    }
    if (*display < 0) {
        kill(pid, SIGTERM);
        reap(pid);
        return -1;
    }
    return pid;
}

/* Sends sig to pid (a viewer), reaps it and prints how long it took to
 * end; its exit status, or -1 when it had not ended 60 s later (a hang:
 * killed then). */
static int signal_viewer(pid_t pid, int sig, const char *what)
{
    double t0 = vf_test_now();
    kill(pid, sig);
    int st = 0;
    pid_t got = 0;
    for (int i = 0; i < 60000 && (got = waitpid(pid, &st, WNOHANG)) == 0; i++)
        sleep_us(1000);
    if (got != pid) {
        printf("  %s had not ended 60 s after %s: killed\n", what, sig == SIGINT ? "SIGINT" : "SIGTERM");
        kill(pid, SIGKILL);
        reap(pid);
        return -1;
    }
    printf("  %s ended %.2f s after %s\n", what, vf_test_now() - t0, sig == SIGINT ? "SIGINT" : "SIGTERM");
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The lines of text that are not the lockstep server's own notes (its
 * waiting line). */
static int lines_besides_server_notes(const char *text)
{
    int n = 0;
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        if (strncmp(l, "lockstep server: ", 17))
            n++;
        l = nl ? nl + 1 : l + strlen(l);
    }
    return n;
}

static void viewer_signals(void)
{
    vf_test_section("the viewer's waits under Xvfb: SIGINT and SIGTERM end each, exit 130, one line");
    int display = -1;
    pid_t xvfb = start_xvfb(&display);
    if (!CHECK_MSG(xvfb > 0, "Xvfb starts (install xvfb; tools/quickstart.sh does)"))
        return;
    /* view --serve waiting for a viewer to join */
    char log_path[4200];
    snprintf(log_path, sizeof log_path, "%s", vf_test_path("vsig_server.log"));
    pid_t pid = spawn(log_path,
                      "exec env DISPLAY=:%d VKFLUID_SLOW_FRAME_S=1e9 '%s' view smoke --set n=16 --size 160x120 --vsync off --frames 20 "
                      "--serve 127.0.0.1:%d --token %s",
                      display, vf_t.vkfluid, test_port(19), TOKEN);
    CHECK_MSG(wait_for_text(log_path, "waiting for a peer", 600), "the serving viewer waits");
    int rc = signal_viewer(pid, SIGINT, "the viewer waiting for a peer");
    char *text = vf_test_read_file(log_path, NULL);
    CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGINT) while waiting for a viewer to join") &&
                  lines_besides_server_notes(text) == 1,
              "a waiting viewer: exit %d (want 130), one line: %s", rc, text ? text : "");
    free(text);

    /* view --join where nobody listens yet (connecting is retried for 15 s) */
    snprintf(log_path, sizeof log_path, "%s", vf_test_path("vsig_client.log"));
    pid = spawn(log_path, "exec env DISPLAY=:%d VKFLUID_SLOW_FRAME_S=1e9 '%s' view --size 160x120 --vsync off --join 127.0.0.1:%d --token %s",
                display, vf_t.vkfluid, test_port(20), TOKEN);
    CHECK_MSG(wait_for_handler_of(pid, "vkfluid-view"), "the joining viewer catches signals");
    sleep_us(1500000); /* joining */
    rc = signal_viewer(pid, SIGTERM, "the joining viewer");
    text = vf_test_read_file(log_path, NULL);
    CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGTERM) while joining") && vf_test_lines(text) == 1,
              "a joining viewer: exit %d (want 130), one line: %s", rc, text ? text : "");
    free(text);

    /* a viewer in lockstep whose frame waits for a silent peer */
    int port = test_port(21);
    char rec[4200];
    snprintf(log_path, sizeof log_path, "%s", vf_test_path("vsig_lockstep.log"));
    snprintf(rec, sizeof rec, "%s", vf_test_path("vsig_lockstep.rec"));
    pid = spawn(log_path,
                "exec env DISPLAY=:%d VKFLUID_SLOW_FRAME_S=1e9 '%s' view smoke --set n=16 --size 160x120 --vsync off --frames 50 "
                "--serve 127.0.0.1:%d --token %s --record '%s'",
                display, vf_t.vkfluid, port, TOKEN, rec);
    vf_msg *m = calloc(1, sizeof *m);
    vf_net_peer *p = m && wait_for_text(log_path, "waiting for a peer", 600) ? fake_client(port, m) : NULL;
    char err[256];
    if (p && vf_net_recv(p, m, 120000, err, sizeof err) == VF_OK) { /* the viewer's frame 0: it now waits for ours */
        rc = signal_viewer(pid, SIGINT, "the viewer in lockstep");
        bool bye = vf_net_recv(p, m, 10000, err, sizeof err) == VF_OK && m->type == VF_MSG_BYE;
        text = vf_test_read_file(log_path, NULL);
        CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGINT) after 0 frames: the session so far recorded to") &&
                      lines_besides_server_notes(text) == 1,
                  "a viewer in lockstep: exit %d (want 130), one line: %s", rc, text ? text : "");
        CHECK_MSG(bye, "the peer is told BYE");
        free(text);
        size_t n = 0;
        uint8_t *bytes = (uint8_t *)vf_test_read_file(rec, &n);
        vf_record r;
        CHECK_MSG(bytes && vf_record_parse(bytes, n, &r, err, sizeof err) == VF_OK && !strcmp(r.header.scene, "smoke"),
                  "the interrupted session's record is whole: %s", bytes ? err : "missing");
        if (bytes)
            vf_record_free(&r);
        free(bytes);
    } else {
        CHECK_MSG(false, "the fake peer joined the viewer and got its frame 0");
        kill(pid, SIGKILL);
        reap(pid);
    }
    vf_net_close(&p);
    free(m);

    /* a viewer showing a scene, no session: the frame loop ends */
    snprintf(log_path, sizeof log_path, "%s", vf_test_path("vsig_plain.log"));
    pid = spawn(log_path, "exec env DISPLAY=:%d VKFLUID_SLOW_FRAME_S=1e9 '%s' view smoke --set n=16 --size 160x120 --vsync off",
                display, vf_t.vkfluid);
    CHECK_MSG(wait_for_handler_of(pid, "vkfluid-view"), "the viewer catches signals");
    sleep_us(2000000); /* its window open, frames running */
    rc = signal_viewer(pid, SIGTERM, "a viewer showing a scene");
    text = vf_test_read_file(log_path, NULL);
    CHECK_MSG(rc == 130 && text && strstr(text, "interrupted (SIGTERM) after ") && vf_test_lines(text) == 1,
              "a viewer showing a scene: exit %d (want 130), one line: %s", rc, text ? text : "");
    free(text);
    kill(xvfb, SIGTERM);
    reap(xvfb);
}

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    codec_tests();
    replay_tests();
    hostile_replays();
    lockstep_tests();
    hostile_peers();
    signals();
    viewer_signals();
    return vf_test_finish();
}
