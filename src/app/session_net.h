/* session_net: one TCP connection between two lockstep peers, carrying the
 * messages of session_events.h. Every wait is bounded (connect, accept,
 * send, receive); failures return a vf_result with a one-line reason. */
#ifndef VF_SESSION_NET_H
#define VF_SESSION_NET_H

#include "session_events.h"

typedef struct vf_net_peer vf_net_peer;

/** Listens on ADDR:PORT or PORT (then 127.0.0.1), waits at most timeout_ms
 * for one peer, accepts it and closes the listener. VF_ERR_INVALID_ARG for a
 * bad address, VF_ERR_IO (bind, timeout) with a reason in err. */
vf_result vf_net_serve(const char *where, int timeout_ms, vf_net_peer **out, char *err, size_t cap);

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

/** Closes the connection; accepts NULL and *p == NULL. */
void vf_net_close(vf_net_peer **p);

/** Parses "PORT" or "HOST:PORT" (PORT 1..65535) into host (default
 * 127.0.0.1) and port; false on anything else. */
bool vf_net_parse_address(const char *where, char *host, size_t cap, int *port);

#endif
