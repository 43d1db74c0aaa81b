/* cmd_session: sessions that replay and peers in lockstep, the app-layer
 * side shared by view, run and capture (docs/replay.md). One function,
 * vf_session_apply, applies a frame's inputs to the simulation for all
 * three, so a replay or a peer does exactly what the recording viewer did.
 * Errors are printed here as one line; functions return 0 or an exit code. */
#ifndef VF_CMD_SESSION_H
#define VF_CMD_SESSION_H

#include "cmd_common.h"
#include "fileio.h"
#include "session_events.h"
#include "session_net.h"

/** The simulation a session drives: the caller's scene, desc and solver
 * (updated in place by SCENE, SET and RESET events). */
typedef struct vf_session_sim {
    const vf_scene_info **info;
    void **desc;
    vf_solver **solver;
    /** Destroys and recreates *solver (and whatever draws it) from *info and
     * *desc, which have passed the scene's checks; new_scene: after a SCENE
     * event; context names the frame and event for error messages ("--replay
     * FILE: frame 3, event 1 (RESET)"). Returns 0 or an exit code after
     * printing. NULL: events are only checked (vf_session_check_record). */
    int (*rebuild)(void *user, bool new_scene, const char *context);
    void *user;
    bool paused;
    vf_event_pointer pointer; /* the last pointer state, applied every frame */
} vf_session_sim;

/** Where one frame's inputs came from, for the line that refuses one. */
typedef struct vf_session_source {
    const char *label; /* "--replay FILE", "lockstep server: the peer (client 127.0.0.1:40312)" */
    int exit_code;     /* what a refused event exits with: 2 for a record file, 3 for a peer */
} vf_session_source;

/** Applies n frames' inputs in order (a lockstep frame: the server's, then
 * the client's) and the pointer to the solver; frame: the 0-based frame
 * number for messages; *step: whether this frame advances the simulation.
 * Every event is input: a SET goes through the checks of --set, a RESET
 * through the scene's validate() (and the solver's size and work bounds when
 * it is created), a SCENE must name a built-in scene; an event that fails
 * is refused with one line naming src[k].label, the frame and the event,
 * and src[k].exit_code is returned. Returns 0, that code, or the rebuild's
 * exit code. */
int vf_session_apply(vf_session_sim *sim, const vf_frame_inputs *const *ins, const vf_session_source *src, uint32_t n,
                     uint64_t frame, bool *step);

/** Whether a RESET queued now would pass: desc with the SET events of
 * pending applied (on a copy) must pass the scene's checks. false with the
 * reason in why. For the viewer, which refuses a reset it could not replay. */
bool vf_session_reset_ok(const vf_scene_info *info, const void *desc, const vf_frame_inputs *pending, char *why,
                         size_t cap);

/** Counts one peer's events against the lockstep bounds: at most
 * VF_SESSION_PEER_EVENTS a frame, one RESET or SCENE a frame and
 * VF_SESSION_RESETS_PER_WINDOW in any VF_SESSION_RESET_WINDOW frames. */
typedef struct vf_session_rate {
    uint64_t resets[VF_SESSION_RESETS_PER_WINDOW]; /* frames of the latest resets, a ring */
    uint32_t count;                                /* resets so far */
} vf_session_rate;

/** Checks frame's inputs against the bounds and counts them; false with the
 * reason in why (nothing counted). */
bool vf_session_rate_check(vf_session_rate *r, uint64_t frame, const vf_frame_inputs *in, char *why, size_t cap);

/** Checks every frame of a record before any gpu work, as vf_session_apply
 * will (on a copy of sc's desc; no solver is built): the first invalid
 * event is refused with one line naming label, the frame and the event;
 * with peer_bounds the record is also held to the lockstep bounds
 * (vf_session_rate_check: its events go to a peer). Returns 0 or 2. */
int vf_session_check_record(const vf_record *rec, const vf_cmd_scene *sc, const char *label, bool peer_bounds);

/** The session header of a built-in scene as given on the command line:
 * the scene's name and every --set KEY=VALUE of argv, in order. A scene
 * file is refused (what: the option, for the message). Returns 0 or 2. */
int vf_session_header_from_args(const vf_cmd_scene *sc, int argc, char **argv, const char *what, uint32_t frames,
                                vf_session_header *h);

/** Fills sc (zeroed) with the header's scene and its --set lines, as
 * vf_cmd_scene_begin would; label names the source in errors. Returns 0 or 2. */
int vf_session_header_scene(const vf_session_header *h, const char *label, vf_cmd_scene *sc);

/** Reads a record file whole (at most VF_RECORD_MAX_BYTES). Returns 0 or 2. */
int vf_session_load_record(const char *path, vf_record *out);

/** A record file being written (whole or not at all: temp name + rename). */
typedef struct vf_session_recorder {
    vf_file file;
    const char *path;
    uint32_t frames;
    bool open;
} vf_session_recorder;

/** Starts path with the header. Returns 0 or an exit code. */
int vf_session_record_begin(vf_session_recorder *r, const char *path, const vf_session_header *h);
/** Appends one frame's inputs (no-op when not open). Returns 0 or 3. */
int vf_session_record_frame(vf_session_recorder *r, const vf_frame_inputs *in);
/** Writes the end mark and renames the file into place. Returns 0 or 3. */
int vf_session_record_end(vf_session_recorder *r);
/** Drops an unfinished file; safe when not open. */
void vf_session_record_abort(vf_session_recorder *r);

/** A lockstep connection (Chen et al. 1997: fixed time slices, inputs
 * exchanged before each slice is stepped). */
typedef struct vf_lockstep {
    vf_net_peer *peer;
    bool server;
    int timeout_ms;
    uint32_t frame;
    bool peer_ended;                       /* the peer said BYE */
    char token[VF_SESSION_TOKEN_MAX + 1];  /* the session token */
    vf_session_rate rate;                  /* the peer's resets against the bounds */
    char peer_label[160];                  /* "lockstep server: the peer (client 127.0.0.1:40312)" */
} vf_lockstep;

/** Connects: with serve, prints the session token (token, or a new random
 * one when NULL) and waits for the one peer that presents it (every other
 * connection is refused with one line and the wait goes on), then sends it
 * *h; with join, connects, presents token (required) and fills *h from the
 * server. cmd ("run", "view") names the command in the line that tells how
 * to join. Returns 0 or an exit code (130 when interrupted, with nothing
 * printed: the caller says so). */
int vf_lockstep_open(vf_lockstep *ls, const char *serve, const char *join, const char *token, const char *cmd,
                     vf_session_header *h);

/** Exchanges one frame: sends local and hash (the state after the previous
 * frame, 0 when not hashed), receives the peer's, checks the frame numbers,
 * the peer's inputs against the lockstep bounds (vf_session_rate_check) and,
 * when both are non-zero, the hashes. ordered[0..1] get the server's and the
 * client's inputs (the order both peers apply them in), src[0..1] their
 * sources for vf_session_apply (local: this side's). When the peer ended the
 * session, ls->peer_ended is set and 0 returned with *remote empty.
 * Returns 0, 1 (the states differ), 3, or 130 (interrupted; nothing
 * printed). */
int vf_lockstep_exchange(vf_lockstep *ls, uint64_t hash, const vf_frame_inputs *local, vf_frame_inputs *remote,
                         const vf_frame_inputs *ordered[2], const vf_session_source *local_src,
                         vf_session_source src[2]);

/** Ends the session: says BYE and, unless the peer already did, waits
 * (bounded) for its BYE; then closes. Returns 0 or 3. */
int vf_lockstep_close(vf_lockstep *ls);

/** Ends the session early (an interrupt, a refused event): says BYE
 * without waiting long, then closes; safe when not connected. */
void vf_lockstep_abort(vf_lockstep *ls);

/** Hashes the solver's state (FNV-1a 64 of its export files: the state
 * read back from the gpu). The gpu must be idle. Returns 0 or 3. */
int vf_session_state_hash(vf_solver *s, uint64_t *out);


/* ---------------------------------------------------------------- headless sessions (run) */

/** `vkfluid run --replay FILE`, `--serve [ADDR:]PORT`, `--join HOST:PORT`:
 * the recorded inputs (or none) of each frame, exchanged with a peer in
 * lockstep, applied through vf_session_apply. */
typedef struct vf_session_run {
    const char *replay, *serve, *join, *token; /* the options (NULL: not given) */
    vf_record rec;
    vf_session_header h; /* what a server sends its peer */
    vf_lockstep ls;
    vf_session_sim sim;
    vf_gpu *gpu;
    vf_cmd_scene *sc;
    char replay_label[300]; /* "--replay FILE" */
    uint64_t *hashes; /* per frame in lockstep: the state after frame i (hashes[frames] the final) */
    uint32_t hash_count, hash_cap;
} vf_session_run;

/** True when any session option was given. */
bool vf_session_run_active(const vf_session_run *r);

/** Every check that needs no device and no peer, before either: the
 * options together (serve or join, a scene or a record, --steps for a
 * server and not for a client, --token), the addresses, the record (a
 * regular file, its scene into sc, a zeroed sc needed, and every event
 * checked: vf_session_check_record) and *steps when not given (the
 * record's frames). length_given: --steps or --time was given. Returns 0
 * or an exit code after printing. */
int vf_session_run_check(vf_session_run *r, vf_cmd_scene *sc, int argc, char **argv, long long *steps,
                         bool length_given);

/** Connects the peer (a server waits for it; a client fills sc and *steps
 * from the server). Returns 0, 130 when interrupted (nothing printed), or
 * an exit code after printing. */
int vf_session_run_connect(vf_session_run *r, vf_cmd_scene *sc, long long *steps);

/** Before frame fr (0-based): in lockstep, the hash of the state so far and
 * the exchange; then the frame's inputs applied to *solver (which a reset
 * replaces). *step: whether the frame advances. Returns 0, 130 when
 * interrupted (nothing printed), or an exit code after printing. */
int vf_session_run_frame(vf_session_run *r, vf_gpu *gpu, vf_solver **solver, uint64_t fr, bool *step);

/** After the last frame: the final state's hash, BYE to the peer, and (with
 * export_dir) DIR/lockstep.txt with one hash per frame. Returns 0 or an
 * exit code. */
int vf_session_run_finish(vf_session_run *r, vf_solver *solver, const char *export_dir);

/** Frees what the session holds and closes the connection (a peer still
 * connected is told BYE); safe on a zeroed struct. */
void vf_session_run_end(vf_session_run *r);

#endif
