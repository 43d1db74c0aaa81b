/* session_net: bounded TCP for lockstep peers (see session_net.h). */
#include "session_net.h"

#include "app.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <math.h>
#include <sys/random.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct vf_net_peer {
    int fd;
    char name[64]; /* address:port */
    bool gone;     /* the peer closed the connection (vf_net_peer_gone) */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The longest single poll: a caught signal ends any wait within this. */
#define SLICE_MS 250

/* Polls fds until one is ready or end (ms) passes, in slices so that a
 * caught SIGINT or SIGTERM ends the wait: > 0 ready, 0 timed out, -2
 * interrupted, -1 a poll error. */
static int wait_fds(struct pollfd *pfd, nfds_t n, double end)
{
    for (;;) {
        if (vf_app_interrupted())
            return -2;
        double left = end - now_ms();
        if (left <= 0)
            return 0;
        int r = poll(pfd, n, left < SLICE_MS ? (int)left + 1 : SLICE_MS);
        if (r > 0)
            return r;
        if (r < 0 && errno != EINTR)
            return -1;
    }
}

static void addr_name(const struct sockaddr_storage *sa, char *buf, size_t cap)
{
    const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
    char ip[INET_ADDRSTRLEN] = "?";
    if (sa->ss_family == AF_INET)
        inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
    snprintf(buf, cap, "%s:%u", ip, sa->ss_family == AF_INET ? (unsigned)ntohs(in->sin_port) : 0u);
}

bool vf_net_parse_address(const char *where, char *host, size_t cap, int *port)
{
    const char *colon = strrchr(where, ':');
    const char *p = colon ? colon + 1 : where;
    if (colon) {
        size_t n = (size_t)(colon - where);
        if (n == 0 || n >= cap)
            return false;
        memcpy(host, where, n);
        host[n] = 0;
    } else {
        snprintf(host, cap, "127.0.0.1");
    }
    if (!*p || strlen(p) > 5)
        return false;
    long v = 0;
    for (const char *c = p; *c; c++) {
        if (*c < '0' || *c > '9')
            return false;
        v = v * 10 + (*c - '0');
    }
    if (v < 1 || v > 65535)
        return false;
    *port = (int)v;
    return true;
}

static vf_result resolve(const char *where, struct sockaddr_storage *sa, socklen_t *len, char *err, size_t cap)
{
    char host[256];
    int port;
    if (!vf_net_parse_address(where, host, sizeof host, &port)) {
        snprintf(err, cap, "'%.60s' is not PORT or HOST:PORT (port 1..65535)", where);
        return VF_ERR_INVALID_ARG;
    }
    struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM}, *ai = NULL;
    char ps[8];
    snprintf(ps, sizeof ps, "%d", port);
    if (getaddrinfo(host, ps, &hints, &ai) != 0 || !ai) {
        snprintf(err, cap, "cannot resolve host '%.60s'", host);
        return VF_ERR_INVALID_ARG;
    }
    memcpy(sa, ai->ai_addr, ai->ai_addrlen);
    *len = ai->ai_addrlen;
    freeaddrinfo(ai);
    return VF_OK;
}

vf_result vf_net_check_address(const char *where, char *err, size_t cap)
{
    struct sockaddr_storage sa;
    socklen_t len;
    return resolve(where, &sa, &len, err, cap);
}

static vf_result make_peer(int fd, const struct sockaddr_storage *sa, vf_net_peer **out)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    int fl = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    vf_net_peer *p = calloc(1, sizeof *p);
    if (!p) {
        close(fd);
        return VF_ERR_NO_MEMORY;
    }
    p->fd = fd;
    addr_name(sa, p->name, sizeof p->name);
    *out = p;
    return VF_OK;
}

/* ---------------------------------------------------------------- serving */

/* Connections read at once while waiting for the peer's JOIN. */
#define MAX_CANDIDATES 16
/* A JOIN is the head, a length byte and the token. */
#define JOIN_BYTES (VF_MSG_HEAD_BYTES + 1u + VF_SESSION_TOKEN_MAX)

typedef struct candidate {
    int fd; /* -1: free */
    struct sockaddr_storage sa;
    char name[64];
    double deadline;
    uint8_t buf[JOIN_BYTES];
    uint32_t have, need;
} candidate;

typedef struct serving {
    const vf_net_serve_desc *d;
    candidate c[MAX_CANDIDATES];
    uint32_t refused;
} serving;

static void refuse(serving *s, candidate *c, const char *why, bool say_bye)
{
    if (say_bye) { /* tells a peer with another token why it is turned away */
        static const uint8_t bye[VF_MSG_HEAD_BYTES] = {VF_MSG_BYE, VF_WIRE_VERSION, 0, 0, 0, 0, 0, 0};
        (void)!send(c->fd, bye, sizeof bye, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    close(c->fd);
    c->fd = -1;
    s->refused++;
    if (s->d->refused)
        s->d->refused(s->d->user, c->name, why, s->refused);
}

/* Reads what candidate c sent; true when it is the peer (a JOIN with the token). */
static bool read_candidate(serving *s, candidate *c)
{
    ssize_t k = recv(c->fd, c->buf + c->have, c->need - c->have, MSG_DONTWAIT);
    if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return false;
    if (k <= 0) {
        refuse(s, c, c->have ? "it closed the connection within its join" : "it closed the connection without a join",
               false);
        return false;
    }
    c->have += (uint32_t)k;
    if (c->have < c->need)
        return false;
    char why[200];
    uint8_t type;
    uint32_t len;
    if (c->need == VF_MSG_HEAD_BYTES) {
        if (vf_msg_check_head(c->buf, &type, &len, why, sizeof why) != VF_OK || type != VF_MSG_JOIN ||
            len > JOIN_BYTES - VF_MSG_HEAD_BYTES) {
            refuse(s, c, "its first message is not a join", false);
            return false;
        }
        c->need = VF_MSG_HEAD_BYTES + len;
        if (len > 0)
            return false;
    }
    vf_msg *m = calloc(1, sizeof *m);
    bool ok = false;
    if (!m) {
        refuse(s, c, "out of memory", false);
    } else if (vf_msg_decode_payload(VF_MSG_JOIN, c->buf + VF_MSG_HEAD_BYTES, c->need - VF_MSG_HEAD_BYTES, m, why,
                                     sizeof why) != VF_OK) {
        refuse(s, c, "its join holds no valid session token", true);
    } else if (!vf_net_token_equal(m->token, s->d->token)) {
        refuse(s, c, "its join holds another session token", true);
    } else {
        ok = true;
    }
    free(m);
    return ok;
}

/* Accepts one waiting connection into a free slot (the oldest is refused
 * when all are taken). */
static void accept_candidate(serving *s, int lfd, double now, double join_ms)
{
    struct sockaddr_storage sa;
    socklen_t sl = sizeof sa;
    int fd = accept(lfd, (struct sockaddr *)&sa, &sl);
    if (fd < 0)
        return;
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
    candidate *slot = NULL, *oldest = NULL;
    for (int i = 0; i < MAX_CANDIDATES; i++) {
        if (s->c[i].fd < 0 && !slot)
            slot = &s->c[i];
        if (s->c[i].fd >= 0 && (!oldest || s->c[i].deadline < oldest->deadline))
            oldest = &s->c[i];
    }
    if (!slot) {
        refuse(s, oldest, "too many connections at once: the oldest is closed", false);
        slot = oldest;
    }
    memset(slot, 0, sizeof *slot);
    slot->fd = fd;
    slot->sa = sa;
    addr_name(&sa, slot->name, sizeof slot->name);
    slot->deadline = now + join_ms;
    slot->need = VF_MSG_HEAD_BYTES;
}

vf_result vf_net_serve(const vf_net_serve_desc *d, vf_net_peer **out, uint32_t *refused, char *err, size_t cap)
{
    *out = NULL;
    *refused = 0;
    struct sockaddr_storage sa;
    socklen_t len;
    vf_result res = resolve(d->where, &sa, &len, err, cap);
    if (res != VF_OK)
        return res;
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;
    if (lfd < 0) {
        snprintf(err, cap, "cannot create a socket: %s", strerror(errno));
        return VF_ERR_IO;
    }
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(lfd, (struct sockaddr *)&sa, len) != 0 || listen(lfd, MAX_CANDIDATES) != 0) {
        snprintf(err, cap, "cannot listen on %.60s: %s", d->where, strerror(errno));
        close(lfd);
        return VF_ERR_IO;
    }
    serving *s = calloc(1, sizeof *s);
    if (!s) {
        close(lfd);
        return VF_ERR_NO_MEMORY;
    }
    if (d->listening)
        d->listening(d->user);
    s->d = d;
    for (int i = 0; i < MAX_CANDIDATES; i++)
        s->c[i].fd = -1;
    double end = now_ms() + d->timeout_ms, join_ms = d->join_timeout_ms > 0 ? d->join_timeout_ms : 5000;
    candidate *peer = NULL;
    res = VF_ERR_IO;
    while (!peer) {
        struct pollfd pfd[MAX_CANDIDATES + 1] = {{.fd = lfd, .events = POLLIN}};
        double next = end;
        for (int i = 0; i < MAX_CANDIDATES; i++) {
            pfd[i + 1] = (struct pollfd){.fd = s->c[i].fd, .events = POLLIN}; /* fd -1 is passed over */
            if (s->c[i].fd >= 0 && s->c[i].deadline < next)
                next = s->c[i].deadline;
        }
        int r = wait_fds(pfd, MAX_CANDIDATES + 1, next);
        double now = now_ms();
        if (r == -2) {
            snprintf(err, cap, "interrupted while waiting for a peer on %.60s", d->where);
            res = VF_ERR_INTERRUPTED;
            break;
        }
        if (r < 0 || now >= end) {
            snprintf(err, cap, "no peer joined %.60s within %d s (%u connection%s refused)", d->where,
                     d->timeout_ms / 1000, s->refused, s->refused == 1 ? "" : "s");
            break;
        }
        for (int i = 0; i < MAX_CANDIDATES && !peer; i++) {
            candidate *c = &s->c[i];
            if (c->fd >= 0 && (pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR)) && read_candidate(s, c))
                peer = c;
            else if (c->fd >= 0 && now >= c->deadline)
                refuse(s, c, "it sent no join in time", false);
        }
        if (!peer && (pfd[0].revents & POLLIN))
            accept_candidate(s, lfd, now, join_ms);
    }
    for (int i = 0; i < MAX_CANDIDATES; i++)
        if (s->c[i].fd >= 0 && &s->c[i] != peer)
            close(s->c[i].fd);
    close(lfd);
    *refused = s->refused;
    if (peer) {
        int fl = fcntl(peer->fd, F_GETFL, 0);
        fcntl(peer->fd, F_SETFL, fl & ~O_NONBLOCK);
        res = make_peer(peer->fd, &peer->sa, out);
    }
    free(s);
    return res;
}

/* ---------------------------------------------------------------- joining */

vf_result vf_net_join(const char *where, int timeout_ms, vf_net_peer **out, char *err, size_t cap)
{
    *out = NULL;
    struct sockaddr_storage sa;
    socklen_t len;
    vf_result res = resolve(where, &sa, &len, err, cap);
    if (res != VF_OK)
        return res;
    double end = now_ms() + timeout_ms;
    for (;;) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            snprintf(err, cap, "cannot create a socket: %s", strerror(errno));
            return VF_ERR_IO;
        }
        int fl = fcntl(fd, F_GETFL, 0);
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
        int r = connect(fd, (struct sockaddr *)&sa, len), e = errno;
        if (r != 0 && e == EINPROGRESS) {
            struct pollfd pfd = {.fd = fd, .events = POLLOUT};
            r = wait_fds(&pfd, 1, end);
            socklen_t el = sizeof e;
            if (r == -2) {
                close(fd);
                snprintf(err, cap, "interrupted while connecting to %.60s", where);
                return VF_ERR_INTERRUPTED;
            }
            if (r > 0 && getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) == 0 && e == 0)
                r = 0;
            else {
                if (r == 0)
                    e = ETIMEDOUT;
                r = -1;
            }
        }
        if (r == 0) {
            fcntl(fd, F_SETFL, fl);
            return make_peer(fd, &sa, out);
        }
        close(fd);
        if (now_ms() >= end || (e != ECONNREFUSED && e != EINPROGRESS && e != ETIMEDOUT && e != EAGAIN)) {
            snprintf(err, cap, "cannot connect to %.60s within %d s: %s", where, timeout_ms / 1000,
                     strerror(e ? e : ETIMEDOUT));
            return VF_ERR_IO;
        }
        /* nobody listens yet: try again in 100 ms (a signal ends the wait) */
        struct pollfd none = {.fd = -1};
        if (wait_fds(&none, 1, fmin(now_ms() + 100, end)) == -2) {
            snprintf(err, cap, "interrupted while connecting to %.60s", where);
            return VF_ERR_INTERRUPTED;
        }
    }
}

/* ---------------------------------------------------------------- messages */

/* Moves n bytes through the socket, waiting at most until end (ms). */
static vf_result io_all(vf_net_peer *p, void *buf, size_t n, bool sending, double end, char *err, size_t cap)
{
    size_t done = 0;
    while (done < n) {
        struct pollfd pfd = {.fd = p->fd, .events = sending ? POLLOUT : POLLIN};
        int r = wait_fds(&pfd, 1, end);
        if (r == -2) {
            snprintf(err, cap, "interrupted while waiting for the peer");
            return VF_ERR_INTERRUPTED;
        }
        if (r <= 0) {
            snprintf(err, cap, "the peer did not %s in time", sending ? "take the next message" : "send the next message");
            return VF_ERR_IO;
        }
        ssize_t k = sending ? send(p->fd, (char *)buf + done, n - done, MSG_NOSIGNAL)
                            : recv(p->fd, (char *)buf + done, n - done, 0);
        if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (k <= 0) {
            p->gone = true;
            snprintf(err, cap, "the peer disconnected%s%s", k < 0 ? ": " : "", k < 0 ? strerror(errno) : "");
            return VF_ERR_IO;
        }
        done += (size_t)k;
    }
    return VF_OK;
}

vf_result vf_net_send(vf_net_peer *p, const vf_msg *msg, int timeout_ms, char *err, size_t cap)
{
    uint8_t buf[VF_MSG_HEAD_BYTES + VF_MSG_MAX_PAYLOAD];
    size_t n = vf_msg_encode(msg, buf, sizeof buf);
    if (!n) {
        snprintf(err, cap, "a message does not fit the protocol's bounds");
        return VF_ERR_INVALID_ARG;
    }
    return io_all(p, buf, n, true, now_ms() + timeout_ms, err, cap);
}

vf_result vf_net_send_bytes(vf_net_peer *p, const void *data, size_t n, int timeout_ms, char *err, size_t cap)
{
    return io_all(p, (void *)(uintptr_t)data, n, true, now_ms() + timeout_ms, err, cap);
}

vf_result vf_net_recv(vf_net_peer *p, vf_msg *out, int timeout_ms, char *err, size_t cap)
{
    uint8_t head[VF_MSG_HEAD_BYTES], type;
    uint32_t len;
    double end = now_ms() + timeout_ms;
    vf_result res = io_all(p, head, sizeof head, false, end, err, cap);
    if (res != VF_OK)
        return res;
    char why[200];
    if (vf_msg_check_head(head, &type, &len, why, sizeof why) != VF_OK) {
        snprintf(err, cap, "the peer sent a malformed message (%s)", why);
        return VF_ERR_PARSE;
    }
    uint8_t *payload = malloc(len ? len : 1);
    if (!payload)
        return VF_ERR_NO_MEMORY;
    if ((res = io_all(p, payload, len, false, end, err, cap)) == VF_OK &&
        vf_msg_decode_payload(type, payload, len, out, why, sizeof why) != VF_OK) {
        snprintf(err, cap, "the peer sent a malformed message (%s)", why);
        res = VF_ERR_PARSE;
    }
    free(payload);
    return res;
}

void vf_net_say_bye(vf_net_peer *p)
{
    static const uint8_t bye[VF_MSG_HEAD_BYTES] = {VF_MSG_BYE, VF_WIRE_VERSION, 0, 0, 0, 0, 0, 0};
    if (p)
        (void)!send(p->fd, bye, sizeof bye, MSG_NOSIGNAL | MSG_DONTWAIT);
}

bool vf_net_peer_gone(const vf_net_peer *p)
{
    return p && p->gone;
}

const char *vf_net_peer_name(const vf_net_peer *p)
{
    return p && p->name[0] ? p->name : "?";
}

vf_result vf_net_new_token(char *buf, size_t cap)
{
    uint8_t r[16];
    if (cap < 2 * sizeof r + 1 || getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
        return VF_ERR_IO;
    for (size_t i = 0; i < sizeof r; i++)
        snprintf(buf + 2 * i, 3, "%02x", r[i]);
    return VF_OK;
}

bool vf_net_token_equal(const char *a, const char *b)
{
    size_t na = strnlen(a, VF_SESSION_TOKEN_MAX + 1), nb = strnlen(b, VF_SESSION_TOKEN_MAX + 1);
    unsigned diff = na != nb;
    for (size_t i = 0; i <= VF_SESSION_TOKEN_MAX; i++)
        diff |= (unsigned)((i < na ? (uint8_t)a[i] : 0) ^ (i < nb ? (uint8_t)b[i] : 0));
    return diff == 0;
}

void vf_net_close(vf_net_peer **p)
{
    if (!p || !*p)
        return;
    close((*p)->fd);
    free(*p);
    *p = NULL;
}
