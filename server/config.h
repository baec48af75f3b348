/* Run-time configuration: the options' defaults, environment variables (PUZZLED_*) and command-line
 * flags (a flag wins over the environment), all from the option table (server/options.h). */
#ifndef PUZZLED_SERVER_CONFIG_H
#define PUZZLED_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/limits.h"
#include "server/cors.h"

/* Each member (each of `limits`' too) is set by one option of server/options.c, where its flag,
 * environment variable, default and limits are; the comments here say only what a member means. */
typedef struct puzzled_config {
    char host[256];                     /* address to listen on */
    unsigned port;                      /* 0 picks a free port */
    unsigned threads;                   /* I/O threads */
    unsigned workers;                   /* compute threads */
    unsigned queue;                     /* requests that may wait for a worker, per lane */
    unsigned max_connections;           /* open connections in all */
    unsigned max_connections_per_ip;    /* 0: no per-address limit */
    char trusted_proxies[1024];         /* addresses or CIDR ranges, comma-separated; "": none */
    unsigned client_rate;               /* computing requests per second per client; 0: no per-client limit */
    unsigned client_burst;              /* the client's token bucket's size */
    unsigned request_timeout_ms;        /* to receive a request's headers and body */
    unsigned idle_timeout_ms;           /* a keep-alive connection with nothing to do */
    size_t max_body;                    /* bytes */
    char dict_path[4096];               /* the word-ladder word list */
    char common_dict_paths[4096];       /* ':'-separated word lists: the dictionary "common" */
    char cors_origin[CORS_ORIGINS_MAX]; /* "*" or a comma-separated list of origins (server/cors.h) */
    unsigned drain_ms;                  /* wait for in-flight requests on stop */
    char tls_cert[4096];                /* PEM certificate chain; with tls_key, HTTPS; "": plain HTTP */
    char tls_key[4096];                 /* PEM private key */
    char tls_priorities[1024];          /* GnuTLS priority string */
    unsigned admin_port;                /* /metrics there alone; 0: no admin listener */
    char admin_host[256];               /* address of the admin listener */
    char log_format[8];                 /* "text" or "json" */
    unsigned cache_max_age;             /* seconds in Cache-Control */
    size_t max_url;                     /* longest request target in bytes */
    size_t stream_budget_mb;            /* all streams' buffers */
    api_limits limits;                  /* the time limit and the --max-* sizes, handed to every request */
    bool health_check;                  /* --health-check: probe a running server instead of serving */
    unsigned count_queens;              /* --count-queens: count this board once instead of serving; 0: serve */
    unsigned parts;                     /* ... split into this many parts */
    unsigned part;                      /* ... of which this one is counted */
} puzzled_config;

/* Fills `config` from the defaults, the environment, then argv. Returns 0 to run, 1 when it printed
 * --help (exit 0), 2 after printing a usage error (exit 2). */
int config_load(puzzled_config *config, int argc, char **argv);

#endif
