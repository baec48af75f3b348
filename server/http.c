/* The libmicrohttpd glue (see http.h): the public daemon (a thread pool on epoll, with the accept
 * policy and connection notices that count connections per client), the admin daemon (--admin-port,
 * /metrics alone), TLS, and the stop. What happens to each request is in server/request.c and the
 * server/request_*.c files beside it. */
#include "server/http.h"

#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include <microhttpd.h>

#include "api/service/web_pages.h"
#include "server/access_log.h"
#include "server/http_internal.h"
#include "server/metrics.h"
#include "server/request_id.h"
#include "server/stream.h"
#include "server/suspension.h"

/* Connection memory holds the request's headers as read and the write buffer of a streamed answer.
 * libmicrohttpd zeroes all of it between two requests of a keep-alive connection, so it is sized to
 * what a request may need: a target up to --max-url (one just over it still reaches the handler, for
 * its JSON 414) and CONNECTION_HEADROOM_BYTES for the other headers and the answer's buffer. */
#define CONNECTION_HEADROOM_BYTES ((size_t)32 * 1024)
/* After the drain time, cancelled computations end at their next deadline poll: this bounds the wait,
 * and the wait for the connections they resume to be taken back and answered. */
#define CANCEL_GRACE_MS 2000
/* How long a stop waits for answers already written to leave the machine (open_sockets.h). */
#define FLUSH_WAIT_MS 5000
/* Room for the text describe_content() hashes: its paths are cut to what fits. */
#define FINGERPRINT_SIZE 4200
/* Connections the admin listener (a scraper, an operator) takes at once. */
#define ADMIN_CONNECTIONS 16

/* The endings of libmicrohttpd 0.9.75's messages (connection.c, with str_conn_error_'s reasons) that
 * say the client closed or reset its connection: every client that leaves a stream early makes one.
 * Only the ending is compared: a message may quote the request's URL, which the client chose. */
static const char *const peer_left_endings[] = {
    "The connection was forcibly closed by remote peer",
    "The socket is no longer available for sending",
    "The socket is not connected",
    "Socket has been disconnected when reading request.",
    "Connection was closed by remote side with incomplete request.",
    "detected connection closure",
};

static log_level library_message_level(const char *text) {
    size_t length = strlen(text);
    while (length > 0 && text[length - 1] == '\n') length--;
    for (size_t i = 0; i < sizeof peer_left_endings / sizeof peer_left_endings[0]; i++) {
        size_t ending = strlen(peer_left_endings[i]);
        if (length >= ending && memcmp(text + length - ending, peer_left_endings[i], ending) == 0)
            return LOG_LEVEL_DEBUG;
    }
    return LOG_LEVEL_WARN;
}

/* libmicrohttpd's own messages (MHD_OPTION_EXTERNAL_LOGGER, MHD_USE_ERROR_LOG), into the service's
 * log in its format, at the level library_message_level gives; never onto stderr directly. */
static void log_library_message(void *cls, const char *format, va_list arguments) {
    (void)cls;
    va_list again;
    va_copy(again, arguments);
    char text[LOG_MESSAGE_BYTES + 1]; /* one more, so that access_log_message sees the cut */
    int length = vsnprintf(text, sizeof text, format, arguments);
    log_level level = library_message_level(text);
    char *whole = length >= (int)sizeof text ? malloc((size_t)length + 1) : NULL;
    if (whole != NULL) { /* cut (a long URL quoted): its ending, which says the level, is in the whole */
        vsnprintf(whole, (size_t)length + 1, format, again);
        level = library_message_level(whole);
        free(whole);
    }
    va_end(again);
    access_log_message(level, "libmicrohttpd", text);
}

static bool resolve(const char *host, unsigned port, struct sockaddr_storage *address, socklen_t *length) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    char service[8];
    snprintf(service, sizeof service, "%u", port);
    struct addrinfo *found = NULL;
    int status = getaddrinfo(host, service, &hints, &found);
    if (status != 0) {
        fprintf(stderr, "puzzled: cannot resolve host '%s': %s\n", host, gai_strerror(status));
        return false;
    }
    memcpy(address, found->ai_addr, found->ai_addrlen);
    *length = found->ai_addrlen;
    freeaddrinfo(found);
    return true;
}

/* The server's part of every ETag, hashed once: the build, the embedded files' digest, the word
 * list's identity (path, size, mtime) and the common-words lists' paths. */
static void describe_content(http_server *server) {
    struct stat words;
    bool readable = stat(server->config->dict_path, &words) == 0;
    char files[WEB_PAGES_DIGEST_SIZE], fingerprint[FINGERPRINT_SIZE];
    web_pages_digest(files);
    snprintf(fingerprint, sizeof fingerprint, "%s %s %s %.1000s %lld %lld %.3000s", PUZZLED_VERSION, PUZZLED_COMMIT,
             files, server->config->dict_path, readable ? (long long)words.st_size : -1LL,
             readable ? (long long)words.st_mtime : -1LL, server->config->common_dict_paths);
    server->etag_seed = etag_seed_of(fingerprint);
}

/* Once the stop has begun, a new connection is closed as soon as it is accepted (see http_server_stop
 * for why not MHD_quiesce_daemon); before, the client's share of connections decides. */
static enum MHD_Result accept_client(void *cls, const struct sockaddr *peer, socklen_t length) {
    (void)length;
    http_server *server = cls;
    if (atomic_load(&server->draining)) return MHD_NO;
    return clients_accept(server->clients, peer) ? MHD_YES : MHD_NO;
}

static void notice_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                              enum MHD_ConnectionNotificationCode code) {
    (void)socket_context;
    http_server *server = cls;
    bool opened = code == MHD_CONNECTION_NOTIFY_STARTED;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info != NULL && info->client_addr != NULL) clients_connected(server->clients, info->client_addr, opened);
    info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info != NULL && opened) open_sockets_add(server->sockets, info->connect_fd);
    if (info != NULL && !opened) open_sockets_remove(server->sockets, info->connect_fd);
}

/* The whole of a PEM file, NUL-terminated; NULL after printing why. */
static char *read_pem(const char *path, const char *flag) {
    FILE *file = fopen(path, "rb");
    char *text = NULL;
    long size = -1;
    if (file != NULL && fseek(file, 0, SEEK_END) == 0) size = ftell(file);
    if (size > 0 && size < (1 << 20) && fseek(file, 0, SEEK_SET) == 0) text = calloc(1, (size_t)size + 1);
    if (text != NULL && fread(text, 1, (size_t)size, file) != (size_t)size) {
        free(text);
        text = NULL;
    }
    if (file != NULL) fclose(file);
    if (text == NULL)
        fprintf(stderr, "puzzled: %s %s: cannot read it (missing, unreadable, empty or over 1 MiB)\n", flag, path);
    return text;
}

static bool load_tls(http_server *server) {
    const puzzled_config *config = server->config;
    if (config->tls_cert[0] == '\0' && config->tls_key[0] == '\0') return true;
    if (config->tls_cert[0] == '\0' || config->tls_key[0] == '\0') {
        fprintf(stderr, "puzzled: --tls-cert and --tls-key go together\n");
        return false;
    }
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
        fprintf(stderr, "puzzled: this libmicrohttpd has no TLS support\n");
        return false;
    }
    server->tls_cert = read_pem(config->tls_cert, "--tls-cert");
    server->tls_key = read_pem(config->tls_key, "--tls-key");
    return server->tls_cert != NULL && server->tls_key != NULL;
}

/* The admin listener: one thread, a few connections, /metrics only. */
static bool start_admin(http_server *server) {
    const puzzled_config *config = server->config;
    if (config->admin_port == 0) return true;
    struct sockaddr_storage address;
    socklen_t address_length;
    if (!resolve(config->admin_host, config->admin_port, &address, &address_length)) return false;
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG;
    if (address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    server->admin_daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, http_request_handle, &server->admin_side, MHD_OPTION_EXTERNAL_LOGGER, log_library_message,
        NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned int)ADMIN_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
        (unsigned int)http_whole_seconds(config->idle_timeout_ms), MHD_OPTION_URI_LOG_CALLBACK, http_request_begin,
        &server->admin_side, MHD_OPTION_NOTIFY_COMPLETED, http_request_end, &server->admin_side, MHD_OPTION_END);
    if (server->admin_daemon == NULL)
        fprintf(stderr, "puzzled: cannot listen on %s admin port %u\n", config->admin_host, config->admin_port);
    return server->admin_daemon != NULL;
}

static void free_server(http_server *server) {
    if (server->admin_daemon != NULL) MHD_stop_daemon(server->admin_daemon);
    access_log_stop(); /* no daemon is left to write a line */
    if (server->pool != NULL) {
        fork_join_install(NULL); /* nothing computes any more */
        compute_pool_destroy(server->pool);
    }
    timer_stop(server->timer);
    if (server->clients != NULL) clients_destroy(server->clients);
    if (server->sockets != NULL) open_sockets_destroy(server->sockets);
    static_gzip_destroy(server->pages_gzip);
    free(server->tls_cert);
    free(server->tls_key);
    free(server);
}

http_server *http_server_start(const puzzled_config *config) {
    struct sockaddr_storage address;
    socklen_t address_length;
    if (!resolve(config->host, config->port, &address, &address_length)) return NULL;
    http_server *server = calloc(1, sizeof *server);
    if (server == NULL) return NULL;
    server->config = config;
    server->public_side = (listener){server, false};
    server->admin_side = (listener){server, true};
    atomic_init(&server->draining, false);
    atomic_init(&server->cancelled, false);
    server->requests_open = (gauge)GAUGE_INITIALIZER;
    clients_config shares = {
        .trusted_proxies = config->trusted_proxies,
        .max_connections_per_ip = config->max_connections_per_ip,
        .rate_per_second = config->client_rate,
        .burst = config->client_burst,
        .max_in_progress = config->client_rate != 0 ? config->workers * CLIENTS_SHARE_PER_WORKER : 0,
    };
    server->clients = clients_create(&shares);
    server->sockets = open_sockets_create();
    server->timer = timer_start();
    if (server->timer != NULL) server->pool = compute_pool_create(config->workers, config->queue, server->timer);
    if (server->clients == NULL || server->sockets == NULL || server->pool == NULL || !load_tls(server)) {
        if (server->pool == NULL) fprintf(stderr, "puzzled: cannot start %u compute workers\n", config->workers);
        free_server(server);
        return NULL;
    }
    describe_content(server);
    snprintf(server->cache_control, sizeof server->cache_control, "public, max-age=%u", config->cache_max_age);
    server->pages_gzip = static_gzip_create();
    request_id_start();
    if (!access_log_start(strcmp(config->log_format, "json") == 0)) {
        free_server(server);
        return NULL;
    }
    metrics_start(server->pool);
    fork_join_install(compute_pool_executor(server->pool)); /* before any request can compute */
    stream_configure(config->stream_budget_mb << 20);
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;
    if (address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    if (server->tls_cert != NULL) flags |= MHD_USE_TLS;
    struct MHD_OptionItem tls[] = {
        {MHD_OPTION_HTTPS_MEM_CERT, 0, server->tls_cert},
        {MHD_OPTION_HTTPS_MEM_KEY, 0, server->tls_key},
        {MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)config->tls_priorities},
        {MHD_OPTION_END, 0, NULL},
    };
    server->daemon = MHD_start_daemon(
        flags, 0, accept_client, server, http_request_handle, &server->public_side, MHD_OPTION_EXTERNAL_LOGGER,
        log_library_message, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_THREAD_POOL_SIZE,
        (unsigned int)(config->threads > 1 ? config->threads : 0), MHD_OPTION_CONNECTION_LIMIT,
        (unsigned int)config->max_connections, MHD_OPTION_NOTIFY_CONNECTION, notice_connection, server,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)http_whole_seconds(config->idle_timeout_ms),
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, config->max_url + CONNECTION_HEADROOM_BYTES, MHD_OPTION_URI_LOG_CALLBACK,
        http_request_begin, &server->public_side, MHD_OPTION_NOTIFY_COMPLETED, http_request_end, &server->public_side,
        MHD_OPTION_ARRAY, server->tls_cert != NULL ? tls : &tls[3], MHD_OPTION_END);
    if (server->daemon == NULL) {
        fprintf(stderr,
                "puzzled: cannot listen on %s port %u (in use, not an address of this machine, more "
                "--max-connections than open files allow, a TLS certificate and key that do not match, or "
                "--tls-priorities that GnuTLS refuses)\n",
                config->host, config->port);
    }
    if (server->daemon == NULL || !start_admin(server)) {
        if (server->daemon != NULL) MHD_stop_daemon(server->daemon);
        metrics_stop();
        free_server(server);
        return NULL;
    }
    return server;
}

bool http_server_uses_tls(const http_server *server) { return server->tls_cert != NULL; }

unsigned http_server_port(const http_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info != NULL ? info->port : 0;
}

/* The stop: new connections closed at once, waiting requests refused (503 overloaded), running ones
 * given the drain time; then the rest cancelled (their computations end at the next deadline poll and answer
 * 503 deadline_exceeded) and given a short grace to send that answer. Then the pool is halted and
 * found idle: every suspended connection waits on a job, which resumes it when it ends or is
 * refused, so none is left suspended (server/suspension.h counts them: MHD_stop_daemon would abort
 * the process on one, so the stop waits for the count to reach zero, and leaves the daemon running
 * rather than crash if it does not). The requests resumed last are given the grace to finish. Idle
 * keep-alive connections (a proxy keeps some open to every replica) do not hold the stop up;
 * MHD_stop_daemon closes them, once what was written to them has left the machine (bounded:
 * FLUSH_WAIT_MS).
 *
 * New connections are closed by accept_client rather than left unaccepted with MHD_quiesce_daemon:
 * with a pool of I/O threads, libmicrohttpd 0.9.75's quiesce takes the listening socket out of each
 * thread's epoll set while that thread may be taking it out itself, and aborts the process when it
 * finds it gone (daemon.c:5531, ENOENT not tolerated there as it is on the thread's side): one stop in
 * twenty in tests/stop under load. The listening socket stays open until MHD_stop_daemon closes it. */
bool http_server_stop(http_server *server, unsigned drain_ms) {
    atomic_store(&server->draining, true);
    compute_pool_stop_admitting(server->pool);
    deadline drained = deadline_after_ms(drain_ms);
    gauge_wait_zero(&server->requests_open, &drained);
    atomic_store(&server->cancelled, true);
    deadline grace = deadline_after_ms(CANCEL_GRACE_MS);
    if (!compute_pool_wait_idle(server->pool, &grace)) {
        fprintf(stderr, "puzzled: a computation ignored its cancellation; waiting for it\n");
        compute_pool_wait_idle(server->pool, NULL);
    }
    gauge_wait_zero(&server->requests_open, &grace);
    compute_pool_halt(server->pool);
    compute_pool_wait_idle(server->pool, NULL);
    deadline resumed = deadline_after_ms(CANCEL_GRACE_MS);
    if (!suspension_wait_none(&resumed)) {
        fprintf(stderr, "puzzled: %u connections are still suspended after the drain; exiting without closing them\n",
                suspension_count());
        return false;
    }
    gauge_wait_zero(&server->requests_open, &resumed);
    deadline flushed = deadline_after_ms(FLUSH_WAIT_MS);
    open_sockets_wait_flushed(server->sockets, &flushed);
    MHD_stop_daemon(server->daemon);
    if (server->admin_daemon != NULL) MHD_stop_daemon(server->admin_daemon);
    server->admin_daemon = NULL;
    /* the requests the daemons ended let go of their last references (an event stream's tick and a
     * plain job's client watch let go of theirs at their next tick, 20 ms later) before the timer stops */
    deadline released = deadline_after_ms(CANCEL_GRACE_MS);
    gauge_wait_zero(&server->requests_open, &released);
    metrics_stop();
    free_server(server);
    return true;
}
