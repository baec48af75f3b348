/* puzzled's entry point: configuration, start-up, and a graceful stop on SIGTERM or SIGINT. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "api/endpoints.h"
#include "api/json_allocation.h"
#include "server/config.h"
#include "server/count_once.h"
#include "server/health_check.h"
#include "server/http.h"

/* Descriptors beyond the connections: the listening socket, the pool's and MHD's own, logs, files. */
#define SPARE_DESCRIPTORS 64

/* Raises the soft limit on open files so --max-connections can be reached (the default soft limit,
 * often 1024, would refuse connections long before). Says so when the hard limit is too low. */
static void allow_open_files(unsigned max_connections) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    rlim_t wanted = (rlim_t)max_connections + SPARE_DESCRIPTORS;
    if (limit.rlim_cur >= wanted) return;
    limit.rlim_cur = limit.rlim_max == RLIM_INFINITY || limit.rlim_max >= wanted ? wanted : limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
    if (limit.rlim_cur < wanted)
        fprintf(stderr, "puzzled: open files are limited to %llu; fewer than --max-connections=%u can connect\n",
                (unsigned long long)limit.rlim_cur, max_connections);
}

/* Serves until SIGTERM or SIGINT, then drains: the exit code, 0 after a clean stop. */
static int serve(const puzzled_config *config) {
    int exit_code = 1;
    bool server_running = false;
    /* Block the stop signals in every thread (the server's inherit this mask) and wait for them here. */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    json_allocation_install();

    if (!word_ladder_load_dictionary(config->dict_path))
        fprintf(stderr, "puzzled: starting without a word-ladder dictionary; /word-ladder needs one per request\n");
    if (!word_ladder_load_common_dictionary(config->common_dict_paths))
        fprintf(stderr, "puzzled: starting without the common-words dictionary; dictionary \"common\" answers 503\n");

    api_calibrate_costs();
    allow_open_files(config->max_connections);
    http_server *server = http_server_start(config);
    if (server == NULL) goto out;
    server_running = true;
    bool ipv6 = strchr(config->host, ':') != NULL;
    printf("listening on %s://%s%s%s:%u\n", http_server_uses_tls(server) ? "https" : "http", ipv6 ? "[" : "",
           config->host, ipv6 ? "]" : "", http_server_port(server));
    fflush(stdout);

    int received;
    sigwait(&stop_signals, &received);
    fprintf(stderr, "puzzled: %s received, finishing in-flight requests (up to %u ms)\n", strsignal(received),
            config->drain_ms);
    server_running = !http_server_stop(server, config->drain_ms);
    if (server_running) goto out;
    exit_code = 0;
out:
    /* A server that could not stop may still have requests reading the dictionaries: they stay. */
    if (!server_running) word_ladder_unload_dictionary();
    if (exit_code == 0) fprintf(stderr, "puzzled: stopped\n");
    return exit_code;
}

int main(int argc, char **argv) {
    static puzzled_config config;
    int exit_code;
    switch (config_load(&config, argc, argv)) {
    case 0:
        exit_code = config.health_check   ? health_check_run(&config)
                    : config.count_queens ? count_once_run(&config)
                                          : serve(&config);
        break;
    case 1: exit_code = 0; break; /* --help */
    default: exit_code = 2; break;
    }
    return exit_code;
}
