/* The --health-check client: a minimal HTTP/1.0 GET over a plain socket (see health_check.h). */
#include "server/health_check.h"

#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

/* A wildcard listen address is reached through loopback. */
static const char *connect_host(const char *host) {
    if (strcmp(host, "0.0.0.0") == 0) return "127.0.0.1";
    if (strcmp(host, "::") == 0) return "::1";
    return host;
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
        static const char request[] = "GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n";
        char reply[64] = "";
        if (connect(fd, found->ai_addr, found->ai_addrlen) == 0 &&
            write(fd, request, sizeof request - 1) == (ssize_t)(sizeof request - 1)) {
            ssize_t n = read(fd, reply, sizeof reply - 1);
            healthy = n > 12 && strncmp(reply, "HTTP/1.", 7) == 0 && strncmp(reply + 9, "200", 3) == 0;
        }
        close(fd);
    }
    freeaddrinfo(found);
    printf("%s\n", healthy ? "healthy" : "unhealthy");
    return healthy ? 0 : 1;
}
