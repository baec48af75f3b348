/* Run-time configuration: defaults, environment variables (PUZZLED_*) and command-line flags
 * (a flag wins over the environment). */
#ifndef PUZZLED_SERVER_CONFIG_H
#define PUZZLED_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/limits.h"

typedef struct puzzled_config {
    char host[256];                  /* --host, PUZZLED_HOST (default 127.0.0.1) */
    unsigned port;                   /* --port, PUZZLED_PORT (default 8080; 0 picks a free port) */
    unsigned threads;                /* --threads, PUZZLED_THREADS: I/O threads (default: number of cores) */
    unsigned workers;                /* --workers, PUZZLED_WORKERS: compute threads (default: number of cores) */
    unsigned queue;                  /* --queue, PUZZLED_QUEUE: requests waiting for a worker (default 4 x workers) */
    unsigned max_connections;        /* --max-connections, PUZZLED_MAX_CONNECTIONS (default 4096) */
    unsigned max_connections_per_ip; /* --max-connections-per-ip, PUZZLED_MAX_CONNECTIONS_PER_IP (default 64) */
    char trusted_proxies[1024];      /* --trusted-proxy: addresses or CIDR ranges, comma-separated (default none) */
    unsigned client_rate;            /* --client-rate: computing requests per second per client (default 20) */
    unsigned client_burst;           /* --client-burst: the bucket's size (default 40) */
    unsigned request_timeout_ms;     /* --request-timeout-ms: to receive a request's headers and body (10000) */
    unsigned idle_timeout_ms;        /* --idle-timeout-ms: a keep-alive connection with nothing to do (60000) */
    size_t max_body;                 /* --max-body, PUZZLED_MAX_BODY bytes (default 1 MiB) */
    char dict_path[4096];            /* --dict, PUZZLED_DICT (default /usr/share/dict/words) */
    char tls_cert[4096];             /* --tls-cert: PEM certificate chain; with --tls-key, HTTPS (default none) */
    char tls_key[4096];              /* --tls-key: PEM private key */
    char tls_priorities[1024];       /* --tls-priorities: GnuTLS priority string (default Mozilla intermediate) */
    char admin_host[256];            /* --admin-host (default 127.0.0.1) */
    unsigned admin_port;             /* --admin-port: /metrics there alone (default 0: no admin listener) */
    char common_dict_paths[4096];    /* --common-dict, PUZZLED_COMMON_DICT: ':'-separated word lists */
    char cors_origin[256];           /* --cors-origin, PUZZLED_CORS_ORIGIN (default "*") */
    unsigned drain_ms;               /* --drain-ms, PUZZLED_DRAIN_MS: wait for in-flight requests on stop */
    char log_format[8];              /* --log-format, PUZZLED_LOG_FORMAT: "text" (default) or "json" */
    unsigned cache_max_age;          /* --cache-max-age, PUZZLED_CACHE_MAX_AGE: seconds in Cache-Control (3600) */
    size_t max_url;                  /* --max-url, PUZZLED_MAX_URL: longest request target in bytes (65536) */
    size_t stream_budget_mb;         /* --stream-budget-mb, PUZZLED_STREAM_BUDGET_MB: all streams' buffers (64) */
    api_limits limits;               /* --time-limit-ms and the --max-* sizes, handed to every request */
} puzzled_config;

/* Fills `config` from defaults, the environment, then argv. Returns 0 to run, 1 when it printed
 * --help (exit 0), 2 after printing a usage error (exit 2). `health_check` is set by --health-check. */
int config_load(puzzled_config *config, int argc, char **argv, bool *health_check);

#endif
