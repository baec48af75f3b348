/* The --count-queens mode (count_once.h): the real server on a free loopback port for one request,
 * asked over a plain socket, so the count runs exactly as a served one does (the compute pool's
 * threads, the estimate, the time limit), and stopped after it. */
#include "server/count_once.h"

#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "api/cost_estimates.h"
#include "api/json_allocation.h"
#include "server/http.h"

/* The answer's most bytes: a count is about 120, an error a few hundred. */
#define REPLY_MAX_BYTES 16384

/* Sends `request` to 127.0.0.1:port and reads the reply to its end (HTTP/1.0: the server closes) into
 * `reply` (REPLY_MAX_BYTES + 1 bytes); its length, or -1. */
static ssize_t ask(unsigned port, const char *request, char *reply) {
    struct sockaddr_in address = {
        .sin_family = AF_INET, .sin_port = htons((uint16_t)port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    ssize_t length = -1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) goto out;
    if (connect(fd, (const struct sockaddr *)&address, sizeof address) != 0) goto out;
    size_t size = strlen(request);
    if (write(fd, request, size) != (ssize_t)size) goto out;
    length = 0;
    ssize_t got;
    while (length < REPLY_MAX_BYTES && (got = read(fd, reply + length, (size_t)(REPLY_MAX_BYTES - length))) > 0) {
        length += got;
    }
    reply[length] = '\0';
out:
    if (fd >= 0) close(fd);
    return length;
}

/* Prints the reply's body, on stdout for a 200, else on stderr; the exit code it calls for. */
static int report(const char *reply, ssize_t length) {
    const char *body = length > 0 ? strstr(reply, "\r\n\r\n") : NULL;
    int status = length > 12 && strncmp(reply, "HTTP/1.", 7) == 0 ? atoi(reply + 9) : 0;
    if (body == NULL || status == 0) {
        fprintf(stderr, "puzzled: --count-queens got no answer from its own server\n");
        return COUNT_ONCE_RETRY;
    }
    fprintf(status == 200 ? stdout : stderr, "%s\n", body + 4);
    fflush(stdout);
    return status == 200 ? COUNT_ONCE_OK : status >= 400 && status < 500 ? COUNT_ONCE_REFUSED : COUNT_ONCE_RETRY;
}

int count_once_run(const puzzled_config *config) {
    static puzzled_config local;
    static char reply[REPLY_MAX_BYTES + 1];
    local = *config;
    snprintf(local.host, sizeof local.host, "127.0.0.1");
    local.port = 0;
    local.admin_port = 0;
    local.tls_cert[0] = '\0';
    local.tls_key[0] = '\0';
    json_allocation_install();
    api_calibrate_costs();
    http_server *server = http_server_start(&local);
    if (server == NULL) return COUNT_ONCE_RETRY;
    char request[256];
    snprintf(request, sizeof request,
             "GET /queens?mode=count&unique=true&n=%u&part=%u&parts=%u HTTP/1.0\r\nHost: localhost\r\n\r\n",
             config->count_queens, config->part, config->parts);
    int exit_code = report(reply, ask(http_server_port(server), request, reply));
    if (!http_server_stop(server, local.drain_ms) && exit_code == COUNT_ONCE_OK) exit_code = COUNT_ONCE_RETRY;
    return exit_code;
}
