/* Run-time configuration from defaults, PUZZLED_* environment variables and flags (flag wins). */
#include "server/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/stream.h"

typedef enum { OPTION_TEXT, OPTION_NUMBER } option_kind;

/* --queue's default follows --workers, so it is settled after every option is read. */
#define UNSET_QUEUE UINT32_MAX

/* Mozilla's "intermediate" TLS profile (wiki.mozilla.org/Security/Server_Side_TLS) in GnuTLS's terms,
 * without its finite-field DHE suites: TLS 1.3 with its three suites, TLS 1.2 only with ECDHE and an
 * AEAD cipher (AES-GCM, ChaCha20-Poly1305), the curves X25519, P-256 and P-384; no CBC, no RSA key
 * exchange, no SHA-1 MAC. The client's order is followed, as the profile says: every suite is strong. */
#define TLS_INTERMEDIATE                                                                                   \
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:" \
    "-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:"            \
    "+GROUP-SECP384R1"
_Static_assert(sizeof TLS_INTERMEDIATE <= sizeof((puzzled_config *)0)->tls_priorities, "the default fits its buffer");

/* Debian's scowl package; sizes 10, 20 and 35 hold the common words (docs/word-ladder.md says why 35). */
#define SCOWL_DIRECTORY "/usr/share/dict/scowl"
#define SCOWL_COMMON_WORDS                                                                     \
    SCOWL_DIRECTORY "/english-words.10:" SCOWL_DIRECTORY "/english-words.20:" SCOWL_DIRECTORY  \
                    "/english-words.35:" SCOWL_DIRECTORY "/american-words.10:" SCOWL_DIRECTORY \
                    "/american-words.20:" SCOWL_DIRECTORY "/american-words.35"

typedef struct option {
    const char *flag;
    const char *env;
    option_kind kind;
    size_t offset;     /* into puzzled_config */
    size_t size;       /* of the text buffer or of the number */
    uint64_t min, max; /* numbers only */
    const char *help;
} option;

#define TEXT(flag, env, member, help) \
    { flag, env, OPTION_TEXT, offsetof(puzzled_config, member), sizeof(((puzzled_config *)0)->member), 0, 0, help }
#define NUMBER(flag, env, member, min, max, help)                                                                    \
    {                                                                                                                \
        flag, env, OPTION_NUMBER, offsetof(puzzled_config, member), sizeof(((puzzled_config *)0)->member), min, max, \
            help                                                                                                     \
    }

static const option options[] = {
    TEXT("--host", "PUZZLED_HOST", host, "address to listen on (default 127.0.0.1; 0.0.0.0 or :: for all)"),
    NUMBER("--port", "PUZZLED_PORT", port, 0, 65535, "TCP port (default 8080; 0 picks a free port)"),
    NUMBER("--threads", "PUZZLED_THREADS", threads, 1, 1024,
           "I/O threads: read, validate, write (default: number of cores)"),
    NUMBER("--workers", "PUZZLED_WORKERS", workers, 1, 1024,
           "compute threads: every request that computes runs on one (default: number of cores)"),
    NUMBER("--queue", "PUZZLED_QUEUE", queue, 0, 1000000,
           "requests that may wait for a worker (default 4 x workers); beyond, 503 overloaded"),
    NUMBER("--max-connections", "PUZZLED_MAX_CONNECTIONS", max_connections, 1, 1000000,
           "open connections in all (default 4096)"),
    NUMBER("--max-connections-per-ip", "PUZZLED_MAX_CONNECTIONS_PER_IP", max_connections_per_ip, 0, 1000000,
           "open connections from one client address (default 64; 0: no per-address limit)"),
    TEXT("--trusted-proxy", "PUZZLED_TRUSTED_PROXY", trusted_proxies,
         "proxies whose X-Forwarded-For names the client: addresses or CIDR ranges, comma-separated"),
    NUMBER(
        "--client-rate", "PUZZLED_CLIENT_RATE", client_rate, 0, 1000000,
        "computing requests per second one client may make (default 20); beyond, 429; 0 turns per-client limits off"),
    NUMBER("--client-burst", "PUZZLED_CLIENT_BURST", client_burst, 1, 1000000,
           "how many computing requests one client may make at once before --client-rate applies (default 40)"),
    NUMBER("--request-timeout-ms", "PUZZLED_REQUEST_TIMEOUT_MS", request_timeout_ms, 1000, 3600000,
           "longest time to receive a request's headers and body (default 10000)"),
    NUMBER("--idle-timeout-ms", "PUZZLED_IDLE_TIMEOUT_MS", idle_timeout_ms, 1000, 3600000,
           "how long an idle keep-alive connection stays open (default 60000)"),
    NUMBER("--max-body", "PUZZLED_MAX_BODY", max_body, 1, (uint64_t)1 << 34,
           "largest request body in bytes (default 1048576); larger is a 413"),
    NUMBER("--time-limit-ms", "PUZZLED_TIME_LIMIT_MS", limits.time_limit_ms, 1, 86400000,
           "longest computation in ms (default 10000); requests may ask for less with time_limit_ms"),
    TEXT("--dict", "PUZZLED_DICT", dict_path, "word list for /word-ladder (default /usr/share/dict/words)"),
    TEXT("--tls-cert", "PUZZLED_TLS_CERT", tls_cert, "PEM certificate (chain) file; with --tls-key, serve HTTPS"),
    TEXT("--tls-key", "PUZZLED_TLS_KEY", tls_key, "PEM private key file of --tls-cert"),
    TEXT("--tls-priorities", "PUZZLED_TLS_PRIORITIES", tls_priorities,
         "the TLS versions and cipher suites offered, as a GnuTLS priority string (default Mozilla's \"intermediate\" "
         "profile: " TLS_INTERMEDIATE ")"),
    TEXT("--admin-host", "PUZZLED_ADMIN_HOST", admin_host, "address of the admin listener (default 127.0.0.1)"),
    NUMBER("--admin-port", "PUZZLED_ADMIN_PORT", admin_port, 0, 65535,
           "serve /metrics on this port alone, the public port then answering 404 for it (default 0: off)"),
    TEXT("--common-dict", "PUZZLED_COMMON_DICT", common_dict_paths,
         "word lists, separated by ':', whose union is the word-ladder dictionary \"common\" (default SCOWL's "
         "English and American words of sizes 10, 20 and 35 in " SCOWL_DIRECTORY ")"),
    TEXT("--cors-origin", "PUZZLED_CORS_ORIGIN", cors_origin,
         "value of Access-Control-Allow-Origin on every response (default *)"),
    NUMBER("--drain-ms", "PUZZLED_DRAIN_MS", drain_ms, 0, 3600000,
           "on SIGTERM/SIGINT, how long in-flight requests may finish (default 10000)"),
    TEXT("--log-format", "PUZZLED_LOG_FORMAT", log_format,
         "access log lines: text, or json with one object per line (default text)"),
    NUMBER("--cache-max-age", "PUZZLED_CACHE_MAX_AGE", cache_max_age, 0, 31536000,
           "seconds caches may keep an answer that is a pure function of its request (default 3600)"),
    NUMBER("--max-url", "PUZZLED_MAX_URL", max_url, 256, 262144,
           "longest request target (path and query) in bytes (default 65536); longer is a 414"),
    NUMBER("--stream-budget-mb", "PUZZLED_STREAM_BUDGET_MB", stream_budget_mb, 1, (uint64_t)1 << 20,
           "MiB of buffers all open streams may hold (default 64); a stream beyond gets 503 overloaded"),
    NUMBER("--max-shuffle-items", "PUZZLED_MAX_SHUFFLE_ITEMS", limits.max_shuffle_items, 1, (uint64_t)1 << 32,
           "largest n (or item count) for /shuffle (default 10000000)"),
    NUMBER("--max-queens-n", "PUZZLED_MAX_QUEENS_N", limits.max_queens_n, 1, (uint64_t)1 << 31,
           "largest n for /queens mode \"first\" (default 1000000)"),
    NUMBER("--max-board-squares", "PUZZLED_MAX_BOARD_SQUARES", limits.max_board_squares, 1, (uint64_t)1 << 31,
           "largest rows*cols for /knight-tour (default 4000000)"),
    NUMBER("--max-rank-items", "PUZZLED_MAX_RANK_ITEMS", limits.max_rank_items, 1, (uint64_t)1 << 31,
           "most items for /permutations, /combinations and their /rank and /unrank (default 1000000)"),
};
enum { OPTION_COUNT = sizeof options / sizeof options[0] };

static void set_defaults(puzzled_config *config) {
    *config = (puzzled_config){0};
    snprintf(config->host, sizeof config->host, "127.0.0.1");
    config->port = 8080;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    config->threads = cores > 0 ? (unsigned)cores : 1;
    config->workers = config->threads;
    config->queue = UNSET_QUEUE;
    config->max_connections = 4096;
    config->max_connections_per_ip = 64;
    config->client_rate = 20;
    config->client_burst = 40;
    config->request_timeout_ms = 10000;
    config->idle_timeout_ms = 60000;
    config->max_body = 1 << 20;
    config->limits.time_limit_ms = 10000;
    snprintf(config->dict_path, sizeof config->dict_path, "/usr/share/dict/words");
    snprintf(config->common_dict_paths, sizeof config->common_dict_paths, "%s", SCOWL_COMMON_WORDS);
    snprintf(config->cors_origin, sizeof config->cors_origin, "*");
    memcpy(config->tls_priorities, TLS_INTERMEDIATE, sizeof TLS_INTERMEDIATE);
    snprintf(config->admin_host, sizeof config->admin_host, "127.0.0.1");
    config->drain_ms = 10000;
    snprintf(config->log_format, sizeof config->log_format, "text");
    config->cache_max_age = 3600;
    config->max_url = 65536;
    config->stream_budget_mb = STREAM_DEFAULT_BUDGET_BYTES >> 20;
    config->limits.max_shuffle_items = 10000000;
    config->limits.max_queens_n = 1000000;
    config->limits.max_board_squares = 4000000;
    config->limits.max_rank_items = 1000000;
}

/* Stores `text` into the option's member; false (after printing why) when it is not acceptable. */
static bool apply(puzzled_config *config, const option *opt, const char *text, const char *source) {
    char *member = (char *)config + opt->offset;
    if (opt->kind == OPTION_TEXT) {
        if (strlen(text) >= opt->size || text[0] == '\0') {
            fprintf(stderr, "puzzled: %s must be 1 to %zu characters\n", source, opt->size - 1);
            return false;
        }
        memcpy(member, text, strlen(text) + 1);
        return true;
    }
    char *end;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || value < opt->min || value > opt->max) {
        fprintf(stderr, "puzzled: %s must be a whole number from %llu to %llu, got '%s'\n", source,
                (unsigned long long)opt->min, (unsigned long long)opt->max, text);
        return false;
    }
    if (opt->size == sizeof(unsigned)) {
        unsigned narrow = (unsigned)value;
        memcpy(member, &narrow, sizeof narrow);
    } else {
        uint64_t wide = value;
        memcpy(member, &wide, sizeof wide);
    }
    return true;
}

static void print_help(void) {
    printf("Usage: puzzled [options]\n"
           "HTTP service for shuffles, permutations and combinations (list, count, rank, unrank), N-Queens,\n"
           "knight's tours, word ladders and Sudoku; each endpoint is described at /openapi.yaml and /docs.\n\n"
           "Each option can also be set by the environment variable shown; a flag wins.\n");
    for (int i = 0; i < OPTION_COUNT; i++) {
        printf("  %-22s %-26s %s\n", options[i].flag, options[i].env, options[i].help);
    }
    printf("  %-22s %-26s %s\n", "--health-check", "", "GET /healthz on the configured port; exit 0 if ok, 1 if not");
    printf("  %-22s %-26s %s\n", "--help", "", "show this help");
}

int config_load(puzzled_config *config, int argc, char **argv, bool *health_check) {
    set_defaults(config);
    *health_check = false;
    for (int i = 0; i < OPTION_COUNT; i++) {
        const char *value = getenv(options[i].env);
        if (value != NULL && value[0] != '\0' && !apply(config, &options[i], value, options[i].env)) return 2;
    }
    for (int arg = 1; arg < argc; arg++) {
        if (strcmp(argv[arg], "--help") == 0 || strcmp(argv[arg], "-h") == 0) {
            print_help();
            return 1;
        }
        if (strcmp(argv[arg], "--health-check") == 0) {
            *health_check = true;
            continue;
        }
        const option *opt = NULL;
        const char *value = NULL;
        for (int i = 0; i < OPTION_COUNT && opt == NULL; i++) {
            size_t flag_len = strlen(options[i].flag);
            if (strncmp(argv[arg], options[i].flag, flag_len) != 0) continue;
            if (argv[arg][flag_len] == '=') {
                opt = &options[i];
                value = argv[arg] + flag_len + 1;
            } else if (argv[arg][flag_len] == '\0') {
                opt = &options[i];
                value = arg + 1 < argc ? argv[++arg] : NULL;
            }
        }
        if (opt == NULL) {
            fprintf(stderr, "puzzled: unknown option '%s' (see --help)\n", argv[arg]);
            return 2;
        }
        if (value == NULL) {
            fprintf(stderr, "puzzled: %s needs a value (see --help)\n", opt->flag);
            return 2;
        }
        if (!apply(config, opt, value, opt->flag)) return 2;
    }
    if (config->queue == UNSET_QUEUE) config->queue = 4 * config->workers;
    if (strcmp(config->log_format, "text") != 0 && strcmp(config->log_format, "json") != 0) {
        fprintf(stderr, "puzzled: --log-format must be text or json, got '%s'\n", config->log_format);
        return 2;
    }
    return 0;
}
