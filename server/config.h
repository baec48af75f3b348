/* Run-time configuration: defaults, environment variables (PUZZLED_*) and command-line flags
 * (a flag wins over the environment). */
#ifndef PUZZLED_SERVER_CONFIG_H
#define PUZZLED_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/limits.h"

typedef struct puzzled_config {
    char host[256];             /* --host, PUZZLED_HOST (default 127.0.0.1) */
    unsigned port;              /* --port, PUZZLED_PORT (default 8080; 0 picks a free port) */
    unsigned threads;           /* --threads, PUZZLED_THREADS (default: number of cores) */
    size_t max_body;            /* --max-body, PUZZLED_MAX_BODY bytes (default 1 MiB) */
    char dict_path[4096];       /* --dict, PUZZLED_DICT (default /usr/share/dict/words) */
    char common_dict_paths[4096]; /* --common-dict, PUZZLED_COMMON_DICT: ':'-separated word lists */
    char cors_origin[256];      /* --cors-origin, PUZZLED_CORS_ORIGIN (default "*") */
    unsigned drain_ms;          /* --drain-ms, PUZZLED_DRAIN_MS: wait for in-flight requests on stop */
    api_limits limits;          /* --time-limit-ms and the --max-* sizes, handed to every request */
} puzzled_config;

/* Fills `config` from defaults, the environment, then argv. Returns 0 to run, 1 when it printed
 * --help (exit 0), 2 after printing a usage error (exit 2). `health_check` is set by --health-check. */
int config_load(puzzled_config *config, int argc, char **argv, bool *health_check);

#endif
