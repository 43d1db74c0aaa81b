/* session_net: one TCP connection between two lockstep peers, carrying the
 * messages of session_events.h. Every wait is bounded (connect, accept,
 * send, receive) and ends within a quarter of a second of SIGINT or SIGTERM
 * once the command catches them (vf_app_catch_interrupts:
 * VF_ERR_INTERRUPTED). A server takes only the peer that presents the
 * session token in its JOIN; failures return a vf_result with a one-line
 * reason. */
#ifndef VF_SESSION_NET_H
#define VF_SESSION_NET_H

#include "session_events.h"

typedef struct vf_net_peer vf_net_peer;

/** Called for every connection a server refuses (no JOIN in time, a
 * malformed message, a wrong token): from names the connection
 * ("127.0.0.1:40312"), why says what it sent; refused counts them so far. */
typedef void (*vf_net_refused_fn)(void *user, const char *from, const char *why, uint32_t refused);
/** Called once the server listens on d->where (before that a peer is refused). */
typedef void (*vf_net_listening_fn)(void *user);

/** What a server waits for. */
typedef struct vf_net_serve_desc {
    const char *where;      /* ADDR:PORT or PORT (then 127.0.0.1) */
    const char *token;      /* the session token a JOIN must hold */
    int timeout_ms;         /* how long to wait for the peer in all */
    int join_timeout_ms;    /* how long one connection may take to send its JOIN (0: 5000) */
    vf_net_refused_fn refused; /* may be NULL */
    vf_net_listening_fn listening; /* may be NULL */
    void *user;
} vf_net_serve_desc;

/** Parses and resolves d->where without listening (the checks before any
 * gpu work): VF_ERR_INVALID_ARG with a reason for a bad address or a host
 * that does not resolve. */
vf_result vf_net_check_address(const char *where, char *err, size_t cap);

/** Listens on d->where and waits at most d->timeout_ms for a connection
 * whose first message is a JOIN holding d->token; every other connection
 * (silent for d->join_timeout_ms, closed, malformed, another token) is
 * closed, counted in *refused and reported to d->refused, and the wait goes
 * on. Up to 16 connections are read at once, so silent ones do not hold up
 * the peer. Closes the listener; *out gets the peer. VF_ERR_INVALID_ARG for
 * a bad address, VF_ERR_IO (bind, timeout), VF_ERR_INTERRUPTED. */
vf_result vf_net_serve(const vf_net_serve_desc *d, vf_net_peer **out, uint32_t *refused, char *err, size_t cap);

/** Connects to HOST:PORT (a numeric IPv4 address or a name), retrying for
 * at most timeout_ms while nobody listens yet. */
vf_result vf_net_join(const char *where, int timeout_ms, vf_net_peer **out, char *err, size_t cap);

/** Sends msg whole, waiting at most timeout_ms. */
vf_result vf_net_send(vf_net_peer *p, const vf_msg *msg, int timeout_ms, char *err, size_t cap);

/** Sends n raw bytes (tests: malformed messages), waiting at most timeout_ms. */
vf_result vf_net_send_bytes(vf_net_peer *p, const void *data, size_t n, int timeout_ms, char *err, size_t cap);

/** Receives one message, waiting at most timeout_ms: VF_ERR_IO when the
 * peer disconnected or went silent, VF_ERR_PARSE when it sent a malformed
 * message (the reason in err). */
vf_result vf_net_recv(vf_net_peer *p, vf_msg *out, int timeout_ms, char *err, size_t cap);

/** Sends BYE without waiting (an early end: the peer stops at once
 * instead of timing out); accepts NULL. */
void vf_net_say_bye(vf_net_peer *p);

/** True once a send or receive found that the peer closed the connection
 * (their VF_ERR_IO then; not a silent peer that timed out). p may be NULL. */
bool vf_net_peer_gone(const vf_net_peer *p);

/** The peer's address and port ("127.0.0.1:40312"); never NULL. */
const char *vf_net_peer_name(const vf_net_peer *p);

/** Closes the connection; accepts NULL and *p == NULL. */
void vf_net_close(vf_net_peer **p);

/** Parses "PORT" or "HOST:PORT" (PORT 1..65535) into host (default
 * 127.0.0.1) and port; false on anything else. */
bool vf_net_parse_address(const char *where, char *host, size_t cap, int *port);

/** A new random session token (32 hex digits from getrandom) into buf
 * (at least 33 bytes). VF_ERR_IO when no randomness is available. */
vf_result vf_net_new_token(char *buf, size_t cap);

/** True when a and b are equal; the time taken does not depend on where
 * they differ. */
bool vf_net_token_equal(const char *a, const char *b);

#endif
