/* session_net: bounded TCP for lockstep peers (see session_net.h). */
#include "session_net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct vf_net_peer {
    int fd;
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
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

static vf_result make_peer(int fd, vf_net_peer **out)
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
    *out = p;
    return VF_OK;
}

vf_result vf_net_serve(const char *where, int timeout_ms, vf_net_peer **out, char *err, size_t cap)
{
    *out = NULL;
    struct sockaddr_storage sa;
    socklen_t len;
    vf_result res = resolve(where, &sa, &len, err, cap);
    if (res != VF_OK)
        return res;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    if (fd < 0) {
        snprintf(err, cap, "cannot create a socket: %s", strerror(errno));
        return VF_ERR_IO;
    }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&sa, len) != 0 || listen(fd, 1) != 0) {
        snprintf(err, cap, "cannot listen on %.60s: %s", where, strerror(errno));
        close(fd);
        return VF_ERR_IO;
    }
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    int r;
    do
        r = poll(&pfd, 1, timeout_ms);
    while (r < 0 && errno == EINTR);
    if (r <= 0) {
        snprintf(err, cap, "no peer joined %.60s within %d s", where, timeout_ms / 1000);
        close(fd);
        return VF_ERR_IO;
    }
    int c = accept(fd, NULL, NULL);
    close(fd);
    if (c < 0) {
        snprintf(err, cap, "accepting a peer on %.60s failed: %s", where, strerror(errno));
        return VF_ERR_IO;
    }
    return make_peer(c, out);
}

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
            double left = end - now_ms();
            struct pollfd pfd = {.fd = fd, .events = POLLOUT};
            r = poll(&pfd, 1, left > 0 ? (int)left : 0);
            socklen_t el = sizeof e;
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
            return make_peer(fd, out);
        }
        close(fd);
        if (now_ms() >= end || (e != ECONNREFUSED && e != EINPROGRESS && e != ETIMEDOUT && e != EAGAIN)) {
            snprintf(err, cap, "cannot connect to %.60s within %d s: %s", where, timeout_ms / 1000,
                     strerror(e ? e : ETIMEDOUT));
            return VF_ERR_IO;
        }
        struct timespec ts = {0, 100 * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* Moves n bytes through the socket, waiting at most until end (ms). */
static vf_result io_all(vf_net_peer *p, void *buf, size_t n, bool sending, double end, char *err, size_t cap)
{
    size_t done = 0;
    while (done < n) {
        double left = end - now_ms();
        struct pollfd pfd = {.fd = p->fd, .events = sending ? POLLOUT : POLLIN};
        int r = left > 0 ? poll(&pfd, 1, (int)left + 1) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            snprintf(err, cap, "the peer did not %s in time", sending ? "take the next message" : "send the next message");
            return VF_ERR_IO;
        }
        ssize_t k = sending ? send(p->fd, (char *)buf + done, n - done, MSG_NOSIGNAL)
                            : recv(p->fd, (char *)buf + done, n - done, 0);
        if (k < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK))
            continue;
        if (k <= 0) {
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

void vf_net_close(vf_net_peer **p)
{
    if (!p || !*p)
        return;
    close((*p)->fd);
    free(*p);
    *p = NULL;
}
