/* Who the client is, and its fair share.
 *
 * Identity: the peer address, unless the peer is a trusted proxy (--trusted-proxy: addresses or
 * CIDR ranges); then the right-most address of X-Forwarded-For (or of Forwarded: for=) that is not
 * itself a trusted proxy. An untrusted peer's forwarding headers change nothing.
 *
 * Shares, per client address (a small table, one lock; idle entries are reused when it is full):
 *  - open connections, counted per peer at accept (trusted proxies are exempt: they carry everyone);
 *  - a token bucket on computing requests (--client-rate per second, --client-burst at most), so
 *    one client cannot take every worker; cheap answers (health, readiness, 4xx but 429) cost none;
 *  - computing requests in progress: at most CLIENTS_SHARE_PER_WORKER per worker, so one client cannot
 *    fill the queues' waiting time and leave the others only 503s. */
#ifndef PUZZLED_SERVER_CLIENTS_H
#define PUZZLED_SERVER_CLIENTS_H

#include <stdbool.h>
#include <sys/socket.h>

#include <microhttpd.h>

#define CLIENT_ADDRESS_SIZE 64
/* A client's computing requests in progress, per --workers: one running on each worker and two waiting. */
#define CLIENTS_SHARE_PER_WORKER 3

typedef struct clients clients;

typedef struct clients_config {
    const char *trusted_proxies;     /* comma-separated addresses or CIDR ranges, or "" */
    unsigned max_connections_per_ip; /* 0: no limit */
    unsigned rate_per_second;        /* 0: no rate limit */
    unsigned burst;
    unsigned max_in_progress; /* computing requests per client; 0: no limit */
} clients_config;

/* NULL after printing why on stderr (a malformed --trusted-proxy). */
clients *clients_create(const clients_config *config);
void clients_destroy(clients *table);

/* For libmicrohttpd's accept policy and connection notices: count open connections per peer. */
bool clients_accept(clients *table, const struct sockaddr *peer);
void clients_connected(clients *table, const struct sockaddr *peer, bool opened);

/* The client's address for a request on `connection` (see above). */
void clients_identify(clients *table, struct MHD_Connection *connection, char out[CLIENT_ADDRESS_SIZE]);

typedef enum client_verdict {
    CLIENT_ADMITTED,     /* call clients_release() when the request ends */
    CLIENT_RATE_LIMITED, /* out of tokens: *retry_after_s says when one comes */
    CLIENT_BUSY,         /* already at its number of computing requests in progress */
} client_verdict;

/* What a client may start after an admission decision, for the RateLimit headers: the fewer of the
 * whole tokens left in its bucket and the room left in its share of requests in progress, so that
 * r=0 is announced before either refuses. */
typedef struct client_quota {
    bool limited;           /* --client-rate is on: the fields below mean something */
    bool spent;             /* a token was taken for this request (clients_refund gives it back) */
    unsigned remaining;     /* requests the client may start now: tokens, and room in its share */
    unsigned full_after_s;  /* seconds until the bucket is full again */
    unsigned retry_after_s; /* when refused: seconds until the next request would be admitted */
} client_quota;

client_verdict clients_admit(clients *table, const char *address, client_quota *quota);

/* The RateLimit-Policy and RateLimit header values (IETF httpapi draft, revision 10: one policy
 * named "client", q = the bucket's size, w = the seconds it takes to refill from empty; r = whole
 * requests left, t = seconds until it is full). False when --client-rate is off. */
enum { CLIENT_RATE_HEADER_SIZE = 64 };
bool clients_rate_headers(const clients *table, const client_quota *quota, char policy[CLIENT_RATE_HEADER_SIZE],
                          char state[CLIENT_RATE_HEADER_SIZE]);
void clients_release(clients *table, const char *address);

/* A request answered with a 4xx of its own (its fields, not its share) costs no token: the one it took
 * goes back, and its answer carries no RateLimit headers (quota->limited becomes false). */
void clients_refund(clients *table, const char *address, client_quota *quota);

#endif
