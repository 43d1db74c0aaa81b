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
     * *desc; new_scene: after a SCENE event. Returns 0 or an exit code after
     * printing. */
    int (*rebuild)(void *user, bool new_scene);
    void *user;
    bool paused;
    vf_event_pointer pointer; /* the last pointer state, applied every frame */
    char status[256];         /* the last refused SET (for an overlay), else empty */
} vf_session_sim;

/** Applies n frames' inputs in order (a lockstep frame: the server's, then
 * the client's) and the pointer to the solver; *step: whether this frame
 * advances the simulation. Returns 0 or the rebuild's exit code. */
int vf_session_apply(vf_session_sim *sim, const vf_frame_inputs *const *ins, uint32_t n, bool *step);

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
    bool peer_ended; /* the peer said BYE */
} vf_lockstep;

/** Connects: with serve, waits for one peer and sends it *h; with join,
 * connects and fills *h from the server. Returns 0 or an exit code. */
int vf_lockstep_open(vf_lockstep *ls, const char *serve, const char *join, vf_session_header *h);

/** Exchanges one frame: sends local and hash (the state after the previous
 * frame, 0 when not hashed), receives the peer's, checks the frame numbers
 * and, when both are non-zero, the hashes. ordered[0..1] get the server's
 * and the client's inputs (the order both peers apply them in). When the
 * peer ended the session, ls->peer_ended is set and 0 returned with
 * *remote empty. Returns 0, 1 (the states differ) or 3. */
int vf_lockstep_exchange(vf_lockstep *ls, uint64_t hash, const vf_frame_inputs *local, vf_frame_inputs *remote,
                         const vf_frame_inputs *ordered[2]);

/** Ends the session: says BYE and, unless the peer already did, waits
 * (bounded) for its BYE; then closes. Returns 0 or 3. */
int vf_lockstep_close(vf_lockstep *ls);

/** Hashes the solver's state (FNV-1a 64 of its export files: the state
 * read back from the gpu). The gpu must be idle. Returns 0 or 3. */
int vf_session_state_hash(vf_solver *s, uint64_t *out);

#endif

/* ---------------------------------------------------------------- headless sessions (run) */

/** `vkfluid run --replay FILE`, `--serve [ADDR:]PORT`, `--join HOST:PORT`:
 * the recorded inputs (or none) of each frame, exchanged with a peer in
 * lockstep, applied through vf_session_apply. */
typedef struct vf_session_run {
    const char *replay, *serve, *join; /* the options (NULL: not given) */
    vf_record rec;
    vf_lockstep ls;
    vf_session_sim sim;
    vf_gpu *gpu;
    vf_cmd_scene *sc;
    uint64_t *hashes; /* per frame in lockstep: the state after frame i (hashes[frames] the final) */
    uint32_t hash_count, hash_cap;
} vf_session_run;

/** True when any session option was given. */
bool vf_session_run_active(const vf_session_run *r);

/** Before the gpu opens: loads the record, connects the peer, and fills
 * sc (from the record or the server; a zeroed sc is needed for those) and
 * *steps (when not given: the record's or the server's frames). Returns 0
 * or an exit code after printing. */
int vf_session_run_prepare(vf_session_run *r, vf_cmd_scene *sc, int argc, char **argv, long long *steps);

/** Before frame fr (0-based): in lockstep, the hash of the state so far and
 * the exchange; then the frame's inputs applied to *solver (which a reset
 * replaces). *step: whether the frame advances. Returns 0 or an exit code. */
int vf_session_run_frame(vf_session_run *r, vf_gpu *gpu, vf_solver **solver, uint64_t fr, bool *step);

/** After the last frame: the final state's hash, BYE to the peer, and (with
 * export_dir) DIR/lockstep.txt with one hash per frame. Returns 0 or an
 * exit code. */
int vf_session_run_finish(vf_session_run *r, vf_solver *solver, const char *export_dir);

/** Frees what the session holds and closes the connection; safe on a zeroed struct. */
void vf_session_run_end(vf_session_run *r);
