/* cmd_session: apply, record, replay and lockstep for view, run and capture
 * (see cmd_session.h and docs/replay.md). */
#include "cmd_session.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "scene_file.h"
#include "scenes.h"
#include "text.h"

/* ---------------------------------------------------------------- apply */

/* Refuses event i of a frame: one line naming the source, the frame and the
 * event, and the source's exit code. */
static int refuse(const vf_session_source *src, uint64_t frame, uint32_t i, const vf_event *ev, const char *why)
{
    char what[200];
    vf_event_describe(ev, what, sizeof what);
    vf_app_error("%s: frame %llu, event %u (%s): %s", src->label, (unsigned long long)frame, i + 1, what, why);
    return src->exit_code;
}

/* One event on sim; 0, or an exit code after printing. */
static int apply_event(vf_session_sim *sim, const vf_session_source *src, uint64_t frame, uint32_t i,
                       const vf_event *ev, bool *once)
{
    char err[1600], ctx[400], what[120];
    int rc;
    if (!vf_event_check(ev, err, sizeof err))
        return refuse(src, frame, i, ev, err);
    switch (ev->type) {
    case VF_EVENT_POINTER: sim->pointer = ev->pointer; return 0;
    case VF_EVENT_PAUSE: sim->paused = ev->on; return 0;
    case VF_EVENT_STEP:
        sim->paused = true;
        *once = true;
        return 0;
    case VF_EVENT_SET:
        /* the checks of --set: key, value, range (a RESET checks the whole scene) */
        if (vf_scene_set(*sim->info, *sim->desc, ev->text, err, sizeof err) != VF_OK)
            return refuse(src, frame, i, ev, err);
        return 0;
    case VF_EVENT_SCENE: {
        const vf_scene_info *info = vf_scene_find(ev->text);
        vf_scene_loaded loaded;
        if (!info) {
            char names[1024] = "", near[64];
            for (size_t k = 0; vf_scenes[k]; k++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", vf_scenes[k]->name);
            if (vf_suggest_in_list(ev->text, names, ", ", near, sizeof near))
                snprintf(err, sizeof err, "no built-in scene of that name: did you mean %s? the scenes are %s", near,
                         names);
            else
                snprintf(err, sizeof err, "no built-in scene of that name: the scenes are %s", names);
            return refuse(src, frame, i, ev, err);
        }
        if (vf_scene_load_builtin(info, &loaded, err, sizeof err) != VF_OK) {
            vf_app_error("%s", err);
            return VF_EXIT_RUNTIME;
        }
        free(*sim->desc);
        *sim->desc = loaded.desc; /* taken over */
        *sim->info = info;
        /* a new scene is checked and built as a reset is */
        __attribute__((fallthrough));
    }
    case VF_EVENT_RESET:
        if (vf_cmd_scene_check(*sim->info, *sim->desc, NULL, err, sizeof err) != VF_OK)
            return refuse(src, frame, i, ev, err);
        if (!sim->rebuild)
            return 0;
        vf_event_describe(ev, what, sizeof what);
        snprintf(ctx, sizeof ctx, "%.180s: frame %llu, event %u (%.100s)", src->label, (unsigned long long)frame, i + 1,
                 what);
        rc = sim->rebuild(sim->user, ev->type == VF_EVENT_SCENE, ctx);
        /* a size the device refuses, asked for by a peer, ends the session as its fault */
        return rc == VF_EXIT_USAGE ? src->exit_code : rc;
    default: return refuse(src, frame, i, ev, "unknown event type");
    }
}

int vf_session_apply(vf_session_sim *sim, const vf_frame_inputs *const *ins, const vf_session_source *src, uint32_t n,
                     uint64_t frame, bool *step)
{
    bool once = false;
    for (uint32_t k = 0; k < n; k++) {
        const vf_frame_inputs *in = ins[k];
        for (uint32_t i = 0; in && i < in->count; i++) {
            int rc = apply_event(sim, &src[k], frame, i, &in->ev[i], &once);
            if (rc)
                return rc;
        }
    }
    vf_solver *s = sim->solver ? *sim->solver : NULL;
    if (s && s->vt->interact) {
        const vf_event_pointer *p = &sim->pointer;
        vf_interaction in = {.active = p->active, .button = p->button};
        memcpy(in.pos, p->pos, sizeof in.pos);
        memcpy(in.vel, p->vel, sizeof in.vel);
        memcpy(in.ray_origin, p->ray_origin, sizeof in.ray_origin);
        memcpy(in.ray_dir, p->ray_dir, sizeof in.ray_dir);
        s->vt->interact(s, &in);
    }
    *step = !sim->paused || once;
    return 0;
}

bool vf_session_reset_ok(const vf_scene_info *info, const void *desc, const vf_frame_inputs *pending, char *why,
                         size_t cap)
{
    void *copy = malloc(info->desc_size);
    if (!copy) {
        snprintf(why, cap, "out of memory");
        return false;
    }
    memcpy(copy, desc, info->desc_size);
    bool ok = true;
    for (uint32_t i = 0; ok && pending && i < pending->count; i++)
        if (pending->ev[i].type == VF_EVENT_SET)
            ok = vf_scene_set(info, copy, pending->ev[i].text, why, cap) == VF_OK;
    if (ok)
        ok = vf_cmd_scene_check(info, copy, NULL, why, cap) == VF_OK;
    free(copy);
    return ok;
}

bool vf_session_rate_check(vf_session_rate *r, uint64_t frame, const vf_frame_inputs *in, char *why, size_t cap)
{
    uint32_t resets = 0;
    for (uint32_t i = 0; i < in->count; i++)
        resets += in->ev[i].type == VF_EVENT_RESET || in->ev[i].type == VF_EVENT_SCENE;
    if (in->count > VF_SESSION_PEER_EVENTS) {
        snprintf(why, cap, "%u events in one frame (a peer sends at most %u)", in->count, VF_SESSION_PEER_EVENTS);
        return false;
    }
    if (resets > 1) {
        snprintf(why, cap, "%u resets in one frame (a peer sends at most 1 RESET or SCENE a frame)", resets);
        return false;
    }
    if (!resets)
        return true;
    const uint32_t W = VF_SESSION_RESETS_PER_WINDOW;
    uint64_t oldest = r->resets[r->count % W]; /* the W-th latest reset, once there are W */
    if (r->count >= W && frame - oldest < VF_SESSION_RESET_WINDOW) {
        snprintf(why, cap, "a reset at frame %llu, the %u-th within %u frames (a peer sends at most %u RESET or SCENE "
                 "events in any %u frames)",
                 (unsigned long long)frame, W + 1, VF_SESSION_RESET_WINDOW, W, VF_SESSION_RESET_WINDOW);
        return false;
    }
    r->resets[r->count % W] = frame;
    r->count++;
    return true;
}

int vf_session_check_record(const vf_record *rec, const vf_cmd_scene *sc, const char *label, bool peer_bounds)
{
    const vf_scene_info *info = sc->info;
    void *desc = malloc(info->desc_size);
    vf_frame_inputs *in = malloc(sizeof *in);
    int rc = 0;
    if (!desc || !in) {
        free(desc);
        free(in);
        vf_app_error("out of memory");
        return VF_EXIT_RUNTIME;
    }
    memcpy(desc, sc->desc, info->desc_size);
    vf_session_sim sim = {.info = &info, .desc = &desc};
    vf_session_source src = {label, VF_EXIT_USAGE};
    vf_session_rate rate = {0};
    for (uint32_t f = 0; rc == 0 && f < rec->frame_count; f++) {
        const vf_frame_inputs *one = in;
        bool step;
        char why[300];
        vf_record_frame(rec, f, in);
        if (peer_bounds && !vf_session_rate_check(&rate, f, in, why, sizeof why)) {
            vf_app_error("%s: frame %u: %s: a session served to a peer keeps to these bounds", label, f, why);
            rc = VF_EXIT_USAGE;
            break;
        }
        rc = vf_session_apply(&sim, &one, &src, 1, f, &step);
    }
    free(desc);
    free(in);
    return rc;
}

/* ---------------------------------------------------------------- headers */

int vf_session_header_from_args(const vf_cmd_scene *sc, int argc, char **argv, const char *what, uint32_t frames,
                                vf_session_header *h)
{
    memset(h, 0, sizeof *h);
    if (sc->file) {
        vf_app_error("%s: sessions start from a built-in scene (with --set), not a scene file (%s)", what, sc->file);
        return VF_EXIT_USAGE;
    }
    snprintf(h->scene, sizeof h->scene, "%s", sc->info->name);
    h->frames = frames;
    size_t len = 0;
    for (int i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--set"))
            continue;
        const char *a = argv[++i];
        size_t n = strlen(a);
        bool ok = n > 0 && n < VF_SESSION_TEXT_MAX && len + n + 1 < sizeof h->params;
        for (size_t k = 0; ok && k < n; k++)
            ok = a[k] >= 0x20 && a[k] < 0x7f;
        if (!ok) {
            vf_app_error("%s: --set %.60s: a session holds printable --set values of at most %u bytes, %u in all", what,
                         a, VF_SESSION_TEXT_MAX - 1, VF_SESSION_HEADER_MAX - 1);
            return VF_EXIT_USAGE;
        }
        memcpy(h->params + len, a, n);
        h->params[len + n] = '\n';
        len += n + 1;
    }
    return 0;
}

int vf_session_header_scene(const vf_session_header *h, const char *label, vf_cmd_scene *sc)
{
    char err[1600];
    const vf_scene_info *info = vf_scene_find(h->scene);
    if (!info) {
        vf_app_error("%s: no built-in scene '%.60s' (the session comes from another vkfluid?)", label, h->scene);
        return VF_EXIT_USAGE;
    }
    vf_scene_loaded loaded;
    if (vf_scene_load_builtin(info, &loaded, err, sizeof err) != VF_OK) {
        vf_app_error("%s: %s", label, err);
        return VF_EXIT_USAGE;
    }
    memset(sc, 0, sizeof *sc);
    sc->info = info;
    sc->desc = loaded.desc;
    snprintf(sc->description, sizeof sc->description, "%s", loaded.description);
    const char *p = h->params;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[VF_SESSION_TEXT_MAX];
        if (n >= sizeof line) {
            vf_app_error("%s: a --set line of %zu bytes (at most %zu)", label, n, sizeof line - 1);
            goto fail;
        }
        memcpy(line, p, n);
        line[n] = 0;
        if (n && vf_cmd_scene_set(sc, line, err, sizeof err) != VF_OK) {
            vf_app_error("%s: --set %s", label, err); /* err begins with the assignment */
            goto fail;
        }
        p += n + (nl ? 1 : 0);
    }
    return 0;
fail:
    free(sc->desc);
    memset(sc, 0, sizeof *sc);
    return VF_EXIT_USAGE;
}

/* ---------------------------------------------------------------- record files */

int vf_session_load_record(const char *path, vf_record *out)
{
    memset(out, 0, sizeof *out);
    int why = 0;
    FILE *f = vf_open_regular(path, &why); /* a FIFO is refused before it could block */
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0) {
        vf_app_error("--replay %s: cannot read the file: %s", path,
                     why == EINVAL ? "not a regular file (a FIFO, socket or device): give a record file"
                     : why        ? strerror(why)
                                  : "fstat failed");
        if (f)
            fclose(f);
        return VF_EXIT_USAGE;
    }
    if ((uint64_t)st.st_size > VF_RECORD_MAX_BYTES) {
        vf_app_error("--replay %s: %lld bytes, more than a record file may hold (%u)", path, (long long)st.st_size,
                     VF_RECORD_MAX_BYTES);
        fclose(f);
        return VF_EXIT_USAGE;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *data = malloc(size ? size : 1);
    if (!data || fread(data, 1, size, f) != size) {
        vf_app_error("--replay %s: cannot read the file", path);
        free(data);
        fclose(f);
        return VF_EXIT_USAGE;
    }
    fclose(f);
    char err[512];
    vf_result res = vf_record_parse(data, size, out, err, sizeof err);
    free(data);
    if (res != VF_OK) {
        vf_app_error("--replay %s: %s", path, res == VF_ERR_PARSE ? err : vf_result_message(res));
        return VF_EXIT_USAGE;
    }
    return 0;
}

int vf_session_record_begin(vf_session_recorder *r, const char *path, const vf_session_header *h)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    if (vf_file_begin(&r->file, path) != VF_OK) {
        vf_app_error("--record %s: cannot create the file (does its folder exist?)", path);
        return VF_EXIT_RUNTIME; /* an output that cannot be written: 3 in every command */
    }
    r->open = true;
    if (vf_record_write_header(r->file.f, h) != VF_OK) {
        vf_app_error("--record %s: cannot write the file", path);
        vf_session_record_abort(r);
        return VF_EXIT_RUNTIME;
    }
    return 0;
}

int vf_session_record_frame(vf_session_recorder *r, const vf_frame_inputs *in)
{
    if (!r->open)
        return 0;
    if (r->frames >= VF_SESSION_MAX_FRAMES || vf_record_write_frame(r->file.f, in) != VF_OK) {
        vf_app_error("--record %s: cannot write frame %u (a record holds at most %u frames)", r->path, r->frames,
                     VF_SESSION_MAX_FRAMES);
        vf_session_record_abort(r);
        return VF_EXIT_RUNTIME;
    }
    r->frames++;
    return 0;
}

int vf_session_record_end(vf_session_recorder *r)
{
    if (!r->open)
        return 0;
    if (vf_record_write_end(r->file.f, r->frames) != VF_OK || vf_file_commit(&r->file) != VF_OK) {
        vf_app_error("--record %s: cannot finish the file", r->path);
        vf_session_record_abort(r);
        return VF_EXIT_RUNTIME;
    }
    r->open = false;
    return 0;
}

void vf_session_record_abort(vf_session_recorder *r)
{
    if (r->open)
        vf_file_abort(&r->file);
    r->open = false;
}

/* ---------------------------------------------------------------- lockstep */

/* Waits for the first frame's message generously: the peer may still be
 * compiling its pipelines. */
#define LOCKSTEP_TIMEOUT_MS 120000
/* How long a joining peer retries while nobody listens yet. */
#define JOIN_TIMEOUT_MS 15000

static int net_error(const vf_lockstep *ls, vf_result res, const char *why)
{
    if (res == VF_ERR_INTERRUPTED)
        return VF_EXIT_INTERRUPTED; /* the command says so, with its summary */
    vf_app_error("lockstep %s, frame %u: %s", ls->server ? "server" : "client", ls->frame, why);
    return res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
}

/* The most refused connections shown one line each; more are only counted. */
#define REFUSALS_SHOWN 20

static void on_refused(void *user, const char *from, const char *why, uint32_t refused)
{
    (void)user;
    if (refused <= REFUSALS_SHOWN)
        vf_app_note("lockstep server: refused the connection from %s: %s (%u refused; still waiting)%s", from,
                why, refused, refused == REFUSALS_SHOWN ? "; further ones are counted, not shown" : "");
}

/* What the server's first line names: its address, token and command. */
typedef struct serving_note {
    const char *serve, *token, *cmd;
} serving_note;

/* Printed once the server listens, so that a peer that reads it can join. */
static void on_listening(void *user)
{
    const serving_note *n = user;
    vf_app_note("lockstep server: waiting for a peer on %s with session token %s (vkfluid %s --join HOST:PORT "
                "--token %s)",
                n->serve, n->token, n->cmd, n->token);
}

static int lockstep_serve(vf_lockstep *ls, const char *serve, const char *cmd, vf_msg *msg, vf_session_header *h)
{
    char err[512];
    serving_note note = {serve, ls->token, cmd};
    vf_net_serve_desc d = {.where = serve,
                           .token = ls->token,
                           .timeout_ms = ls->timeout_ms,
                           .refused = on_refused,
                           .listening = on_listening,
                           .user = &note};
    uint32_t refused = 0;
    vf_result res = vf_net_serve(&d, &ls->peer, &refused, err, sizeof err);
    if (res != VF_OK) {
        if (res == VF_ERR_INTERRUPTED)
            return VF_EXIT_INTERRUPTED;
        vf_app_error("--serve: %s", err);
        return res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
    }
    snprintf(ls->peer_label, sizeof ls->peer_label, "lockstep server: the peer (client %s)", vf_net_peer_name(ls->peer));
    if (refused)
        vf_app_note("lockstep server: the peer %s joined (%u other connection%s refused)",
                vf_net_peer_name(ls->peer), refused, refused == 1 ? "" : "s");
    msg->type = VF_MSG_HELLO;
    msg->header = *h;
    if ((res = vf_net_send(ls->peer, msg, ls->timeout_ms, err, sizeof err)) != VF_OK)
        return net_error(ls, res, err);
    return 0;
}

static int lockstep_join(vf_lockstep *ls, const char *join, vf_msg *msg, vf_session_header *h)
{
    char err[512];
    vf_result res;
    if ((res = vf_net_join(join, JOIN_TIMEOUT_MS, &ls->peer, err, sizeof err)) != VF_OK) {
        if (res == VF_ERR_INTERRUPTED)
            return VF_EXIT_INTERRUPTED;
        vf_app_error("--join: %s", err);
        return res == VF_ERR_INVALID_ARG ? VF_EXIT_USAGE : VF_EXIT_RUNTIME;
    }
    snprintf(ls->peer_label, sizeof ls->peer_label, "lockstep client: the peer (server %s)", vf_net_peer_name(ls->peer));
    msg->type = VF_MSG_JOIN;
    snprintf(msg->token, sizeof msg->token, "%s", ls->token);
    if ((res = vf_net_send(ls->peer, msg, ls->timeout_ms, err, sizeof err)) != VF_OK ||
        (res = vf_net_recv(ls->peer, msg, ls->timeout_ms, err, sizeof err)) != VF_OK) {
        if (res == VF_ERR_IO && vf_net_peer_gone(ls->peer))
            strncat(err, " (is --token the one the server printed?)", sizeof err - strlen(err) - 1);
        return net_error(ls, res, err);
    }
    if (msg->type == VF_MSG_BYE)
        return net_error(ls, VF_ERR_IO, "the server refused this session token: give the token it printed (--token)");
    if (msg->type != VF_MSG_HELLO)
        return net_error(ls, VF_ERR_PARSE, "the peer sent a malformed message (not a hello)");
    *h = msg->header;
    return 0;
}

int vf_lockstep_open(vf_lockstep *ls, const char *serve, const char *join, const char *token, const char *cmd,
                     vf_session_header *h)
{
    memset(ls, 0, sizeof *ls);
    ls->server = serve != NULL;
    ls->timeout_ms = LOCKSTEP_TIMEOUT_MS;
    if (token && !vf_session_token_valid(token)) {
        char shown[100];
        vf_text_safe(token, shown, sizeof shown, 40);
        vf_app_error("--token %s: must be %u to %u characters of 0-9, A-Z, a-z, _ and -", shown, VF_SESSION_TOKEN_MIN,
                     VF_SESSION_TOKEN_MAX);
        return VF_EXIT_USAGE;
    }
    if (!ls->server && !token) {
        vf_app_error("--join %s needs --token TOKEN: the session token the server printed", join);
        return VF_EXIT_USAGE;
    }
    if (token)
        snprintf(ls->token, sizeof ls->token, "%s", token);
    else if (vf_net_new_token(ls->token, sizeof ls->token) != VF_OK) {
        vf_app_error("--serve: no randomness for a session token (getrandom failed): give one with --token");
        return VF_EXIT_RUNTIME;
    }
    vf_msg *msg = calloc(1, sizeof *msg);
    if (!msg) {
        vf_app_error("out of memory");
        return VF_EXIT_RUNTIME;
    }
    int rc = ls->server ? lockstep_serve(ls, serve, cmd, msg, h) : lockstep_join(ls, join, msg, h);
    free(msg);
    if (rc)
        vf_net_close(&ls->peer);
    return rc;
}

int vf_lockstep_exchange(vf_lockstep *ls, uint64_t hash, const vf_frame_inputs *local, vf_frame_inputs *remote,
                         const vf_frame_inputs *ordered[2], const vf_session_source *local_src,
                         vf_session_source src[2])
{
    char err[512];
    vf_msg *msg = calloc(1, sizeof *msg);
    int rc = 0;
    vf_result res;
    memset(remote, 0, sizeof *remote);
    ordered[0] = ls->server ? local : remote;
    ordered[1] = ls->server ? remote : local;
    vf_session_source peer = {ls->peer_label, VF_EXIT_RUNTIME};
    src[0] = ls->server ? *local_src : peer;
    src[1] = ls->server ? peer : *local_src;
    if (!msg) {
        vf_app_error("out of memory");
        return VF_EXIT_RUNTIME;
    }
    msg->type = VF_MSG_FRAME;
    msg->frame = ls->frame;
    msg->state_hash = hash;
    msg->in = *local;
    if (ls->peer_ended) {
        rc = 0;
    } else if ((res = vf_net_send(ls->peer, msg, ls->timeout_ms, err, sizeof err)) != VF_OK ||
               (res = vf_net_recv(ls->peer, msg, ls->timeout_ms, err, sizeof err)) != VF_OK) {
        rc = net_error(ls, res, err);
    } else if (msg->type == VF_MSG_BYE) {
        ls->peer_ended = true;
    } else if (msg->type != VF_MSG_FRAME || msg->frame != ls->frame) {
        char why[160];
        snprintf(why, sizeof why, "the peer sent a malformed message (%s %u where frame %u was due)",
                 msg->type == VF_MSG_FRAME ? "frame" : "a message of type", msg->type == VF_MSG_FRAME ? msg->frame : msg->type,
                 ls->frame);
        rc = net_error(ls, VF_ERR_PARSE, why);
    } else if (hash && msg->state_hash && hash != msg->state_hash) {
        vf_app_error("lockstep: the peers' states differ after frame %u (hash %016llx here, %016llx there)",
                     ls->frame ? ls->frame - 1 : 0, (unsigned long long)hash, (unsigned long long)msg->state_hash);
        rc = VF_EXIT_FAIL;
    } else if (!vf_session_rate_check(&ls->rate, ls->frame, &msg->in, err, sizeof err)) {
        vf_app_error("%s: frame %u: %s: refused", ls->peer_label, ls->frame, err);
        rc = VF_EXIT_RUNTIME;
    } else {
        *remote = msg->in;
    }
    free(msg);
    ls->frame++;
    return rc;
}

int vf_lockstep_close(vf_lockstep *ls)
{
    if (!ls->peer)
        return 0;
    char err[512];
    vf_msg *msg = calloc(1, sizeof *msg);
    int rc = 0;
    vf_result res;
    if (!msg) {
        vf_net_close(&ls->peer);
        return VF_EXIT_RUNTIME;
    }
    msg->type = VF_MSG_BYE;
    if (!ls->peer_ended) {
        if ((res = vf_net_send(ls->peer, msg, ls->timeout_ms, err, sizeof err)) != VF_OK)
            rc = net_error(ls, res, err);
        /* the peer's own frame (it has not seen our BYE yet) or its BYE */
        for (int k = 0; rc == 0 && k < 2; k++) {
            if ((res = vf_net_recv(ls->peer, msg, ls->timeout_ms, err, sizeof err)) != VF_OK)
                rc = net_error(ls, res, err);
            else if (msg->type == VF_MSG_BYE)
                break;
            else if (msg->type != VF_MSG_FRAME || k == 1)
                rc = net_error(ls, VF_ERR_PARSE, "the peer sent a malformed message (not a bye)");
        }
    } else {
        vf_net_send(ls->peer, msg, 2000, err, sizeof err); /* the peer may be gone already */
    }
    free(msg);
    vf_net_close(&ls->peer);
    return rc;
}

void vf_lockstep_abort(vf_lockstep *ls)
{
    if (!ls->peer)
        return;
    if (!ls->peer_ended)
        vf_net_say_bye(ls->peer);
    vf_net_close(&ls->peer);
}

/* ---------------------------------------------------------------- state hash */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int vf_session_state_hash(vf_solver *s, uint64_t *out)
{
    *out = 0;
    if (!s->vt->export_frame)
        return 0;
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/vkfluid-hash-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        vf_app_error("lockstep: cannot create a temporary folder for the state hash in %s", tmp && *tmp ? tmp : "/tmp");
        return VF_EXIT_RUNTIME;
    }
    int rc = 0;
    /* the raw form: the hash must not depend on a peer's --export-compress */
    vf_vti_compression keep = s->vti_compression;
    s->vti_compression = VF_VTI_RAW;
    vf_result res = s->vt->export_frame(s, dir, 0);
    s->vti_compression = keep;
    char *names[64];
    int count = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && count < 64)
            names[count++] = strdup(e->d_name);
    if (d)
        closedir(d);
    qsort(names, (size_t)count, sizeof *names, cmp_names);
    uint64_t h = VF_HASH_SEED;
    for (int i = 0; i < count; i++) {
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, names[i] ? names[i] : "");
        FILE *f = names[i] ? fopen(path, "rb") : NULL;
        if (f) {
            char buf[65536];
            size_t n;
            h = vf_hash_bytes(h, names[i], strlen(names[i]) + 1);
            while ((n = fread(buf, 1, sizeof buf, f)) > 0)
                h = vf_hash_bytes(h, buf, n);
            fclose(f);
        } else {
            res = VF_ERR_IO;
        }
        remove(path);
        free(names[i]);
    }
    rmdir(dir);
    if (res != VF_OK) {
        vf_app_error("lockstep: reading the state back for its hash failed: %s", vf_result_message(res));
        rc = VF_EXIT_RUNTIME;
    }
    *out = h ? h : 1;
    return rc;
}

/* ---------------------------------------------------------------- headless sessions (run) */

bool vf_session_run_active(const vf_session_run *r)
{
    return r->replay || r->serve || r->join;
}

/* The options together, before anything is read or connected. */
static int run_usage_checks(const vf_session_run *r, const vf_cmd_scene *sc, long long steps, bool length_given)
{
    char err[512];
    if (r->serve && r->join) {
        vf_app_error("--serve and --join: a peer either serves or joins");
        return VF_EXIT_USAGE;
    }
    if (r->join && (sc->info || r->replay)) {
        vf_app_error("--join %s: the server chooses the scene and the inputs: drop %s", r->join,
                     sc->info ? "the scene" : "--replay");
        return VF_EXIT_USAGE;
    }
    if (r->join && length_given) {
        vf_app_error("--join %s: the server sets the session's length: drop --steps and --time", r->join);
        return VF_EXIT_USAGE;
    }
    if (r->replay && sc->info) {
        vf_app_error("--replay %s: the record names its scene: give either SCENE or --replay", r->replay);
        return VF_EXIT_USAGE;
    }
    if (r->token && !r->serve && !r->join) {
        vf_app_error("--token: only a lockstep session (--serve or --join) has a session token");
        return VF_EXIT_USAGE;
    }
    if (r->join && !r->token) {
        vf_app_error("--join %s needs --token TOKEN: the session token the server printed", r->join);
        return VF_EXIT_USAGE;
    }
    if (r->token && !vf_session_token_valid(r->token)) {
        vf_app_error("--token %s: must be %u to %u characters of 0-9, A-Z, a-z, _ and -", r->token,
                     VF_SESSION_TOKEN_MIN, VF_SESSION_TOKEN_MAX);
        return VF_EXIT_USAGE;
    }
    if (r->serve && steps > (long long)VF_SESSION_MAX_FRAMES) {
        vf_app_error("--serve %s: --steps %lld: a session holds at most %u frames", r->serve, steps,
                     VF_SESSION_MAX_FRAMES);
        return VF_EXIT_USAGE;
    }
    const char *where = r->serve ? r->serve : r->join;
    vf_result res;
    if (where && (res = vf_net_check_address(where, err, sizeof err)) != VF_OK) {
        vf_app_error("%s %s", r->serve ? "--serve" : "--join", err);
        return VF_EXIT_USAGE;
    }
    return 0;
}

int vf_session_run_check(vf_session_run *r, vf_cmd_scene *sc, int argc, char **argv, long long *steps,
                         bool length_given)
{
    int rc = run_usage_checks(r, sc, *steps, length_given);
    if (rc)
        return rc;
    r->sc = sc;
    if (r->replay) {
        snprintf(r->replay_label, sizeof r->replay_label, "--replay %s", r->replay);
        if ((rc = vf_session_load_record(r->replay, &r->rec)) != 0)
            return rc;
        r->h = r->rec.header;
        vf_cmd_scene_end(sc);
        if ((rc = vf_session_header_scene(&r->h, r->replay, sc)) != 0)
            return rc;
        if (*steps < 0 && !length_given)
            *steps = r->rec.frame_count ? r->rec.frame_count : 1;
        /* every event of the record, as vf_session_apply will take it, before any gpu work */
        if ((rc = vf_session_check_record(&r->rec, sc, r->replay_label, r->serve != NULL)) != 0)
            return rc;
    } else if (r->serve && sc->info &&
               (rc = vf_session_header_from_args(sc, argc, argv, "--serve", 0, &r->h)) != 0) {
        return rc;
    }
    if (r->serve && *steps < 0) {
        vf_app_error("--serve %s: give the session's length with --steps N", r->serve);
        return VF_EXIT_USAGE;
    }
    if (r->serve && *steps > (long long)VF_SESSION_MAX_FRAMES) {
        vf_app_error("--serve %s: %lld frames: a session holds at most %u frames", r->serve, *steps,
                     VF_SESSION_MAX_FRAMES);
        return VF_EXIT_USAGE;
    }
    return 0;
}

int vf_session_run_connect(vf_session_run *r, vf_cmd_scene *sc, long long *steps)
{
    int rc;
    if (!r->serve && !r->join)
        return 0;
    if (r->serve)
        r->h.frames = (uint32_t)*steps;
    if ((rc = vf_lockstep_open(&r->ls, r->serve, r->join, r->token, "run", &r->h)) != 0)
        return rc;
    if (r->join) {
        *steps = r->h.frames ? r->h.frames : 1;
        vf_cmd_scene_end(sc);
        if ((rc = vf_session_header_scene(&r->h, r->ls.peer_label, sc)) != 0) {
            vf_lockstep_abort(&r->ls);
            return VF_EXIT_RUNTIME; /* the peer's session, not this command line */
        }
    }
    return 0;
}

typedef struct run_rebuild {
    vf_session_run *r;
    vf_solver **solver;
} run_rebuild;

static int run_rebuild_solver(void *user, bool new_scene, const char *context)
{
    run_rebuild *rb = user;
    (void)new_scene;
    uint32_t parts = *rb->solver ? (*rb->solver)->part_substeps : 0;
    vkDeviceWaitIdle(rb->r->gpu->device);
    vf_solver_destroy(rb->solver);
    int rc = vf_cmd_scene_create_in(rb->r->sc, rb->r->gpu, context, rb->solver);
    if (rc == 0)
        (*rb->solver)->part_substeps = parts;
    return rc;
}

static int push_hash(vf_session_run *r, vf_solver *solver, uint64_t *out)
{
    vkDeviceWaitIdle(r->gpu->device);
    int rc = vf_session_state_hash(solver, out);
    if (rc)
        return rc;
    if (r->hash_count == r->hash_cap) {
        uint32_t cap = r->hash_cap ? r->hash_cap * 2 : 256;
        uint64_t *h = realloc(r->hashes, cap * sizeof *h);
        if (!h) {
            vf_app_error("out of memory");
            return VF_EXIT_RUNTIME;
        }
        r->hashes = h;
        r->hash_cap = cap;
    }
    r->hashes[r->hash_count++] = *out;
    return 0;
}

int vf_session_run_frame(vf_session_run *r, vf_gpu *gpu, vf_solver **solver, uint64_t fr, bool *step)
{
    int rc;
    run_rebuild rb = {r, solver};
    r->gpu = gpu;
    r->sim.info = &r->sc->info;
    r->sim.desc = &r->sc->desc;
    r->sim.solver = solver;
    r->sim.rebuild = run_rebuild_solver;
    r->sim.user = &rb;
    vf_frame_inputs local, remote;
    vf_record_frame(&r->rec, fr < UINT32_MAX ? (uint32_t)fr : UINT32_MAX, &local);
    const vf_frame_inputs *ordered[2] = {&local, NULL};
    vf_session_source src[2], local_src = {r->replay ? r->replay_label : "lockstep: this peer's inputs",
                                           r->replay ? VF_EXIT_USAGE : VF_EXIT_RUNTIME};
    src[0] = local_src;
    uint32_t n = 1;
    if (r->ls.peer) {
        uint64_t hash = 0;
        if (fr > 0 && (rc = push_hash(r, *solver, &hash)) != 0)
            return rc;
        if ((rc = vf_lockstep_exchange(&r->ls, hash, &local, &remote, ordered, &local_src, src)) != 0)
            return rc;
        if (r->ls.peer_ended) {
            vf_app_error("lockstep: the peer ended the session at frame %llu, before its end", (unsigned long long)fr);
            return VF_EXIT_RUNTIME;
        }
        n = 2;
    }
    rc = vf_session_apply(&r->sim, ordered, src, n, fr, step);
    r->sim.user = NULL;
    return rc;
}

int vf_session_run_finish(vf_session_run *r, vf_solver *solver, const char *export_dir)
{
    int rc = 0;
    if (!r->ls.peer)
        return 0;
    uint64_t hash;
    if ((rc = push_hash(r, solver, &hash)) != 0)
        return rc;
    /* the final state's hash goes in one last frame message: both check it */
    vf_frame_inputs none = {0}, remote;
    const vf_frame_inputs *ordered[2];
    vf_session_source local_src = {"lockstep", VF_EXIT_RUNTIME}, src[2];
    if ((rc = vf_lockstep_exchange(&r->ls, hash, &none, &remote, ordered, &local_src, src)) != 0)
        return rc;
    if ((rc = vf_lockstep_close(&r->ls)) != 0)
        return rc;
    if (!export_dir)
        return 0;
    char path[4200];
    snprintf(path, sizeof path, "%s/lockstep.txt", export_dir);
    vf_file file;
    if (vf_file_begin(&file, path) != VF_OK) {
        vf_app_error("--export %s: cannot write lockstep.txt", export_dir);
        return VF_EXIT_RUNTIME;
    }
    fprintf(file.f, "# frame state_hash (FNV-1a 64 of the exported state after the frame)\n");
    for (uint32_t i = 0; i < r->hash_count; i++)
        fprintf(file.f, "%u %016llx\n", i + 1, (unsigned long long)r->hashes[i]);
    if (vf_file_commit(&file) != VF_OK) {
        vf_app_error("--export %s: cannot write lockstep.txt", export_dir);
        return VF_EXIT_RUNTIME;
    }
    return 0;
}

void vf_session_run_end(vf_session_run *r)
{
    vf_record_free(&r->rec);
    vf_lockstep_abort(&r->ls);
    free(r->hashes);
    r->hashes = NULL;
    r->hash_count = r->hash_cap = 0;
}
