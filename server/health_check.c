/* The --health-check client: one GET /healthz over a socket to the configured port (see
 * health_check.h). With --tls-cert set, the port speaks HTTPS, so the question goes through a GnuTLS
 * session (the same GnuTLS libmicrohttpd serves with). The check asks whether this service answers, not
 * who it is: it connects to its own port on loopback and does not verify the certificate. */
#include "server/health_check.h"

#include <gnutls/gnutls.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static const char request[] = "GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n";

/* A wildcard listen address is reached through loopback. */
static const char *connect_host(const char *host) {
    if (strcmp(host, "0.0.0.0") == 0) return "127.0.0.1";
    if (strcmp(host, "::") == 0) return "::1";
    return host;
}

static bool reply_is_ok(const char *reply, ssize_t length) {
    return length > 12 && strncmp(reply, "HTTP/1.", 7) == 0 && strncmp(reply + 9, "200", 3) == 0;
}

static bool ask_plain(int fd) {
    char reply[64] = "";
    if (write(fd, request, sizeof request - 1) != (ssize_t)(sizeof request - 1)) return false;
    return reply_is_ok(reply, read(fd, reply, sizeof reply - 1));
}

static bool ask_over_tls(int fd) {
    gnutls_certificate_credentials_t credentials = NULL;
    gnutls_session_t session = NULL;
    bool healthy = false;
    if (gnutls_certificate_allocate_credentials(&credentials) == GNUTLS_E_SUCCESS &&
        gnutls_init(&session, GNUTLS_CLIENT) == GNUTLS_E_SUCCESS &&
        gnutls_set_default_priority(session) == GNUTLS_E_SUCCESS &&
        gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, credentials) == GNUTLS_E_SUCCESS) {
        gnutls_transport_set_int(session, fd);
        gnutls_handshake_set_timeout(session, GNUTLS_DEFAULT_HANDSHAKE_TIMEOUT);
        int status;
        do status = gnutls_handshake(session);
        while (status < 0 && gnutls_error_is_fatal(status) == 0);
        char reply[64] = "";
        if (status == GNUTLS_E_SUCCESS &&
            gnutls_record_send(session, request, sizeof request - 1) == (ssize_t)(sizeof request - 1))
            healthy = reply_is_ok(reply, gnutls_record_recv(session, reply, sizeof reply - 1));
        gnutls_bye(session, GNUTLS_SHUT_WR);
    }
    if (session != NULL) gnutls_deinit(session);
    if (credentials != NULL) gnutls_certificate_free_credentials(credentials);
    return healthy;
}

int health_check_run(const puzzled_config *config) {
    char service[8];
    snprintf(service, sizeof service, "%u", config->port);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    struct addrinfo *found = NULL;
    if (getaddrinfo(connect_host(config->host), service, &hints, &found) != 0) return 1;
    int fd = socket(found->ai_family, found->ai_socktype, found->ai_protocol);
    struct timeval timeout = {.tv_sec = 3};
    bool healthy = false;
    if (fd >= 0) {
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
        if (connect(fd, found->ai_addr, found->ai_addrlen) == 0)
            healthy = config->tls_cert[0] != '\0' ? ask_over_tls(fd) : ask_plain(fd);
        close(fd);
    }
    freeaddrinfo(found);
    printf("%s\n", healthy ? "healthy" : "unhealthy");
    return healthy ? 0 : 1;
}
