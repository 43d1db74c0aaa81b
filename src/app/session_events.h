/* session_events: the inputs that change a simulation (pointer forces and
 * drops, pauses, single steps, resets, parameter changes, scene switches),
 * grouped per frame, and their two byte formats: the record file written by
 * `view --record` and read by `capture --replay` / `run --replay`, and the
 * messages two peers exchange in lockstep (session_net.h). Both are
 * described in docs/replay.md. Pure codec: no GPU, no window system, no
 * sockets; every parser is bounded and rejects malformed bytes with a
 * one-line reason. */
#ifndef VF_SESSION_EVENTS_H
#define VF_SESSION_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vf_error.h"

/** Format version of the record file. */
#define VF_SESSION_VERSION 1u
/** Version of the wire protocol (2: JOIN carries the session token). */
#define VF_WIRE_VERSION 2u
/** Most events in one frame (more are refused when recording or parsing). */
#define VF_SESSION_MAX_EVENTS 32u
/** Most events one lockstep peer adds to a frame (the merged frame holds both). */
#define VF_SESSION_PEER_EVENTS (VF_SESSION_MAX_EVENTS / 2u)
/** Resets (RESET and SCENE events) one peer may send: at most
 * VF_SESSION_RESETS_PER_WINDOW in any VF_SESSION_RESET_WINDOW consecutive
 * frames (4 a second at 60 frames a second), and at most one a frame. */
#define VF_SESSION_RESETS_PER_WINDOW 4u
#define VF_SESSION_RESET_WINDOW 60u
/** Session tokens: 8 to 64 characters of [0-9A-Za-z_-]. */
#define VF_SESSION_TOKEN_MIN 8u
#define VF_SESSION_TOKEN_MAX 64u
/** Bounds of a pointer event's values (refused beyond them): the position in
 * the unit square (a drag may leave the window), its velocity in unit
 * squares a second, the pick ray's origin (scene units) and direction (a
 * unit vector). */
#define VF_POINTER_POS_MIN (-1.0f)
#define VF_POINTER_POS_MAX 2.0f
#define VF_POINTER_VEL_MAX 1000.0f
#define VF_POINTER_ORIGIN_MAX 10000.0f
#define VF_POINTER_DIR_MAX 1.01f
/** Longest text of a SET or SCENE event, terminator included. */
#define VF_SESSION_TEXT_MAX 128u
/** Largest session header (scene name and every key=value line). */
#define VF_SESSION_HEADER_MAX 16384u
/** Most frames a record file or a lockstep session may hold. */
#define VF_SESSION_MAX_FRAMES 10000000u
/** Largest encoded frame: count + events of the largest kind. */
#define VF_SESSION_FRAME_MAX (8u + VF_SESSION_MAX_EVENTS * (2u + VF_SESSION_TEXT_MAX))

typedef enum vf_event_type {
    VF_EVENT_POINTER = 1, /* the pointer's new state (kept until the next one) */
    VF_EVENT_PAUSE = 2,   /* on: pause, off: run */
    VF_EVENT_STEP = 3,    /* advance one frame while paused */
    VF_EVENT_RESET = 4,   /* recreate the solver from the (changed) parameters */
    VF_EVENT_SET = 5,     /* "key=value": a parameter for the next reset */
    VF_EVENT_SCENE = 6,   /* switch to the built-in scene of that name (a reset) */
    VF_EVENT_TYPE_END
} vf_event_type;

/** The pointer as the solvers see it (solver.h's vf_interaction, without
 * depending on it): 2D position and velocity in the unit square, 3D pick ray. */
typedef struct vf_event_pointer {
    bool active;
    uint8_t button; /* 0 push / drop, 1 pull */
    float pos[2], vel[2], ray_origin[3], ray_dir[3];
} vf_event_pointer;

typedef struct vf_event {
    uint8_t type;                  /* vf_event_type */
    bool on;                       /* PAUSE */
    vf_event_pointer pointer;      /* POINTER */
    char text[VF_SESSION_TEXT_MAX];/* SET, SCENE: NUL-terminated, printable */
} vf_event;

/** One frame's inputs, in the order they happened. */
typedef struct vf_frame_inputs {
    uint32_t count;
    vf_event ev[VF_SESSION_MAX_EVENTS];
} vf_frame_inputs;

/** What a session starts from: a built-in scene and every parameter. */
typedef struct vf_session_header {
    char scene[64];                   /* built-in scene name */
    char params[VF_SESSION_HEADER_MAX]; /* "key=value\n" lines, every key of the scene */
    uint32_t frames;                  /* frames in the file / of the session; 0: open-ended */
} vf_session_header;

/** Checks one event: a known type, text printable and within bounds (a SET
 * holds KEY=VALUE), pointer values finite and within the VF_POINTER_*
 * bounds. false with a one-line reason in why (may be NULL). */
bool vf_event_check(const vf_event *ev, char *why, size_t cap);

/** Clamps a pointer's values into the VF_POINTER_* bounds (non-finite
 * values become 0), so what the viewer records and sends is valid. */
void vf_event_pointer_clamp(vf_event_pointer *p);

/** Describes an event for messages: "SET n=60", "RESET", "POINTER
 * (0.25, 0.5)"; text made printable. */
void vf_event_describe(const vf_event *ev, char *buf, size_t cap);

/** Appends an event to in; false (nothing added) when the frame is full or
 * the event is invalid (vf_event_check). */
bool vf_frame_add(vf_frame_inputs *in, const vf_event *ev);

/** Encodes a frame's inputs into buf (cap bytes, at least
 * VF_SESSION_FRAME_MAX is always enough); returns the bytes written, 0 when
 * it does not fit or an event is invalid. */
size_t vf_frame_encode(const vf_frame_inputs *in, uint8_t *buf, size_t cap);

/** Decodes one frame from data (size bytes): fills out and *used (bytes
 * taken). VF_ERR_PARSE with a one-line reason in err on malformed bytes. */
vf_result vf_frame_decode(const uint8_t *data, size_t size, vf_frame_inputs *out, size_t *used, char *err,
                          size_t cap);

/** Encodes a header (magic-less: name, params, frames) into buf; returns
 * bytes written or 0 when it does not fit. */
size_t vf_header_encode(const vf_session_header *h, uint8_t *buf, size_t cap);

/** Decodes a header; VF_ERR_PARSE with a reason on malformed bytes (lengths
 * beyond the bounds, text that is not printable, a scene name missing). */
vf_result vf_header_decode(const uint8_t *data, size_t size, vf_session_header *out, size_t *used, char *err,
                           size_t cap);

/* ---------------------------------------------------------------- record files */

/** Record file magic: 8 bytes, then u32 version. */
#define VF_RECORD_MAGIC "VFREPLAY"

/** A record file read whole into memory: its header, and its frames kept
 * encoded (memory stays within the file's size plus 4 bytes a frame). */
typedef struct vf_record {
    vf_session_header header;
    uint32_t frame_count;
    uint8_t *data;     /* the file's bytes, owned */
    size_t size;
    uint32_t *offsets; /* frame_count offsets into data, owned */
} vf_record;

/** Largest record file read (bytes). */
#define VF_RECORD_MAX_BYTES (256u << 20)

/** Parses and validates a whole record file's bytes into out (a copy of
 * the bytes and the frame offsets allocated). Errors:
 * VF_ERR_PARSE with "offset N: reason" in err; VF_ERR_NO_MEMORY. */
vf_result vf_record_parse(const uint8_t *data, size_t size, vf_record *out, char *err, size_t cap);

/** Decodes frame i (< frame_count; already validated by vf_record_parse)
 * into out; an empty frame for i beyond the record. */
void vf_record_frame(const vf_record *rec, uint32_t i, vf_frame_inputs *out);

/** Frees what vf_record_parse allocated and zeroes rec; accepts NULL. */
void vf_record_free(vf_record *rec);

/** Writes the file's magic, version and header to f (an open, binary file). */
vf_result vf_record_write_header(FILE *f, const vf_session_header *h);

/** Appends one frame to f. */
vf_result vf_record_write_frame(FILE *f, const vf_frame_inputs *in);

/** Appends the end mark after the last frame (frames: how many were written);
 * a file without it is refused as truncated. */
vf_result vf_record_write_end(FILE *f, uint32_t frames);

/* ---------------------------------------------------------------- wire messages */

typedef enum vf_msg_type {
    VF_MSG_HELLO = 1, /* server -> client: version, session header */
    VF_MSG_JOIN = 2,  /* client -> server: version */
    VF_MSG_FRAME = 3, /* both ways: frame number, hash of the state before it, inputs */
    VF_MSG_BYE = 4,   /* both ways: the session ends after the last frame */
    VF_MSG_TYPE_END
} vf_msg_type;

/** Message framing: u8 type, u8 version, u16 reserved 0, u32 payload length. */
#define VF_MSG_HEAD_BYTES 8u
/** Largest payload accepted. */
#define VF_MSG_MAX_PAYLOAD (VF_SESSION_HEADER_MAX + 256u)

/** A decoded message. */
typedef struct vf_msg {
    uint8_t type;
    char token[VF_SESSION_TOKEN_MAX + 1]; /* JOIN: the session token */
    uint32_t frame;       /* FRAME */
    uint64_t state_hash;  /* FRAME: hash of the state after the previous frame; 0: not hashed */
    vf_frame_inputs in;   /* FRAME */
    vf_session_header header; /* HELLO */
} vf_msg;

/** True when token is a valid session token (length and characters). */
bool vf_session_token_valid(const char *token);

/** Checks a message head (8 bytes): type and version known, reserved zero,
 * length within VF_MSG_MAX_PAYLOAD; *type and *length out. */
vf_result vf_msg_check_head(const uint8_t head[VF_MSG_HEAD_BYTES], uint8_t *type, uint32_t *length, char *err,
                            size_t cap);

/** Encodes msg (head and payload) into buf; returns bytes or 0. */
size_t vf_msg_encode(const vf_msg *msg, uint8_t *buf, size_t cap);

/** Decodes a payload of the given type (the head already checked); the
 * payload must be used exactly. */
vf_result vf_msg_decode_payload(uint8_t type, const uint8_t *payload, size_t size, vf_msg *out, char *err,
                                size_t cap);

/** For the fuzz target and tests: parses data as a record file and as a
 * stream of wire messages; VF_OK when either parses, otherwise the record
 * parser's result; err one line. */
vf_result vf_session_check_bytes(const uint8_t *data, size_t size, char *err, size_t cap);

/** FNV-1a 64 over size bytes, continuing from h (start with
 * VF_HASH_SEED). */
#define VF_HASH_SEED 14695981039346656037ull
uint64_t vf_hash_bytes(uint64_t h, const void *data, size_t size);

#endif
