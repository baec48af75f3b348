/* The option table (server/options.h says how it is used). Order is --help's and the docs' order. */
#include "server/options.h"

#include "server/config.h"

/* Mozilla's "intermediate" TLS profile (wiki.mozilla.org/Security/Server_Side_TLS) in GnuTLS's terms,
 * without its finite-field DHE suites: TLS 1.3 with its three suites, TLS 1.2 only with ECDHE and an
 * AEAD cipher (AES-GCM, ChaCha20-Poly1305), the curves X25519, P-256 and P-384; no CBC, no RSA key
 * exchange, no SHA-1 MAC. The client's order is followed, as the profile says: every suite is strong. */
#define TLS_INTERMEDIATE                                                                                   \
    "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305:" \
    "-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:"            \
    "+GROUP-SECP384R1"

/* Debian's scowl package; sizes 10, 20 and 35 hold the common words (docs/word-ladder.md says why 35). */
#define SCOWL_DIRECTORY "/usr/share/dict/scowl"
#define SCOWL_COMMON_WORDS                                                                     \
    SCOWL_DIRECTORY "/english-words.10:" SCOWL_DIRECTORY "/english-words.20:" SCOWL_DIRECTORY  \
                    "/english-words.35:" SCOWL_DIRECTORY "/american-words.10:" SCOWL_DIRECTORY \
                    "/american-words.20:" SCOWL_DIRECTORY "/american-words.35"

static const char *const log_formats[] = {"text", "json", NULL};

#define MEMBER(name) .offset = offsetof(puzzled_config, name), .size = sizeof(((puzzled_config *)0)->name)
#define TEXT(flag_, env_, member, default_, help_)                                                      \
    {                                                                                                   \
        .flag = flag_, .env = env_, .kind = OPTION_TEXT, MEMBER(member), .default_rule = DEFAULT_VALUE, \
        .default_text = default_, .help = help_                                                         \
    }
/* A text option that is off unless given. */
#define TEXT_OFF(flag_, env_, member, help_) \
    { .flag = flag_, .env = env_, .kind = OPTION_TEXT, MEMBER(member), .default_rule = DEFAULT_NONE, .help = help_ }
/* A number whose default is worked out at start-up (`rule`, with `factor` for DEFAULT_PER_WORKER). */
#define NUMBER_DERIVED(flag_, env_, member, min_, max_, rule, factor, help_)                         \
    {                                                                                                \
        .flag = flag_, .env = env_, .kind = OPTION_NUMBER, MEMBER(member), .min = min_, .max = max_, \
        .default_rule = rule, .default_number = factor, .help = help_                                \
    }
#define NUMBER(flag_, env_, member, min_, max_, default_, help_) \
    NUMBER_DERIVED(flag_, env_, member, min_, max_, DEFAULT_VALUE, default_, help_)
#define CHOICE(flag_, env_, member, choices_, default_, help_)                                  \
    {                                                                                           \
        .flag = flag_, .env = env_, .kind = OPTION_CHOICE, MEMBER(member), .choices = choices_, \
        .default_rule = DEFAULT_VALUE, .default_text = default_, .help = help_                  \
    }
#define SWITCH(flag_, member, help_) \
    { .flag = flag_, .kind = OPTION_SWITCH, MEMBER(member), .default_rule = DEFAULT_VALUE, .help = help_ }

const option options[] = {
    TEXT("--host", "PUZZLED_HOST", host, "127.0.0.1", "address to listen on; 0.0.0.0 or :: for all"),
    NUMBER("--port", "PUZZLED_PORT", port, 0, 65535, 8080, "TCP port; 0 picks a free port"),
    NUMBER_DERIVED("--threads", "PUZZLED_THREADS", threads, 1, 1024, DEFAULT_CORES, 0,
                   "I/O threads: read, validate, write"),
    NUMBER_DERIVED("--workers", "PUZZLED_WORKERS", workers, 1, 1024, DEFAULT_CORES, 0,
                   "compute threads: every request that computes runs on one"),
    NUMBER_DERIVED("--queue", "PUZZLED_QUEUE", queue, 0, 1000000, DEFAULT_PER_WORKER, 1024,
                   "requests that may wait for a thread in each lane, a memory guard (admission is by waiting "
                   "time); beyond, 503 overloaded"),
    NUMBER("--max-connections", "PUZZLED_MAX_CONNECTIONS", max_connections, 1, 1000000, 4096,
           "open connections in all"),
    NUMBER("--max-connections-per-ip", "PUZZLED_MAX_CONNECTIONS_PER_IP", max_connections_per_ip, 0, 1000000, 64,
           "open connections from one client address; 0: no per-address limit"),
    TEXT_OFF("--trusted-proxy", "PUZZLED_TRUSTED_PROXY", trusted_proxies,
             "proxies whose X-Forwarded-For names the client: addresses or CIDR ranges, comma-separated"),
    NUMBER("--client-rate", "PUZZLED_CLIENT_RATE", client_rate, 0, 1000000, 20,
           "computing requests per second one client may make; beyond, 429; 0 turns per-client limits off"),
    NUMBER("--client-burst", "PUZZLED_CLIENT_BURST", client_burst, 1, 1000000, 40,
           "how many computing requests one client may make at once before --client-rate applies"),
    NUMBER("--request-timeout-ms", "PUZZLED_REQUEST_TIMEOUT_MS", request_timeout_ms, 1000, 3600000, 10000,
           "longest time to receive a request's headers and body"),
    NUMBER("--idle-timeout-ms", "PUZZLED_IDLE_TIMEOUT_MS", idle_timeout_ms, 1000, 3600000, 60000,
           "how long an idle keep-alive connection stays open"),
    NUMBER("--max-body", "PUZZLED_MAX_BODY", max_body, 1, (uint64_t)1 << 34, 1 << 20,
           "largest request body in bytes; larger is a 413"),
    NUMBER("--time-limit-ms", "PUZZLED_TIME_LIMIT_MS", limits.time_limit_ms, 1, 86400000, 10000,
           "longest computation in ms; requests may ask for less with time_limit_ms"),
    TEXT("--dict", "PUZZLED_DICT", dict_path, "/usr/share/dict/words", "word list for /word-ladder"),
    TEXT("--common-dict", "PUZZLED_COMMON_DICT", common_dict_paths, SCOWL_COMMON_WORDS,
         "word lists, separated by ':', whose union is the word-ladder dictionary \"common\""),
    TEXT("--cors-origin", "PUZZLED_CORS_ORIGIN", cors_origin, "*",
         "page origins that may read the answers: \"*\" for any, or a comma-separated list of origins "
         "(https://example.org,http://localhost:5173), the request's Origin echoed when listed"),
    NUMBER("--drain-ms", "PUZZLED_DRAIN_MS", drain_ms, 0, 3600000, 10000,
           "on SIGTERM/SIGINT, how long in-flight requests may finish"),
    NUMBER("--max-shuffle-items", "PUZZLED_MAX_SHUFFLE_ITEMS", limits.max_shuffle_items, 1, (uint64_t)1 << 32, 10000000,
           "largest n (or item count) for /shuffle"),
    NUMBER("--max-queens-n", "PUZZLED_MAX_QUEENS_N", limits.max_queens_n, 1, (uint64_t)1 << 31, 1000000,
           "largest n for /queens mode \"first\""),
    NUMBER("--max-board-squares", "PUZZLED_MAX_BOARD_SQUARES", limits.max_board_squares, 1, (uint64_t)1 << 31, 4000000,
           "largest rows*cols for /knight-tour"),
    NUMBER("--max-rank-items", "PUZZLED_MAX_RANK_ITEMS", limits.max_rank_items, 1, (uint64_t)1 << 31, 1000000,
           "most items for /permutations, /combinations and their /rank and /unrank"),
    NUMBER("--default-page", "PUZZLED_DEFAULT_PAGE", limits.default_page, 1, (uint64_t)1 << 31, 10000,
           "most entries a JSON list (/permutations, /combinations, /queens solutions) holds when the request "
           "names no limit; its next_offset says where the next page starts. NDJSON lists are not paged"),
    TEXT_OFF("--tls-cert", "PUZZLED_TLS_CERT", tls_cert, "PEM certificate (chain) file; with --tls-key, serve HTTPS"),
    TEXT_OFF("--tls-key", "PUZZLED_TLS_KEY", tls_key, "PEM private key file of --tls-cert"),
    TEXT("--tls-priorities", "PUZZLED_TLS_PRIORITIES", tls_priorities, TLS_INTERMEDIATE,
         "the TLS versions and cipher suites offered, as a GnuTLS priority string; the default is Mozilla's "
         "\"intermediate\" profile"),
    NUMBER("--admin-port", "PUZZLED_ADMIN_PORT", admin_port, 0, 65535, 0,
           "serve /metrics on this port alone, the public port then answering 404 for it; 0: no admin listener"),
    TEXT("--admin-host", "PUZZLED_ADMIN_HOST", admin_host, "127.0.0.1", "address of the admin listener"),
    CHOICE("--log-format", "PUZZLED_LOG_FORMAT", log_format, log_formats, "text",
           "access log lines; json writes one object per line"),
    NUMBER("--cache-max-age", "PUZZLED_CACHE_MAX_AGE", cache_max_age, 0, 31536000, 3600,
           "seconds caches may keep an answer that is a pure function of its request"),
    NUMBER("--max-url", "PUZZLED_MAX_URL", max_url, 256, 262144, 65536,
           "longest request target (path and query) in bytes; longer is a 414"),
    NUMBER("--stream-budget-mb", "PUZZLED_STREAM_BUDGET_MB", stream_budget_mb, 1, (uint64_t)1 << 20, 64,
           "MiB of buffers all open streams may hold; a stream beyond gets 503 overloaded"),
    SWITCH("--health-check", health_check, "GET /healthz on the configured port; exit 0 if ok, 1 if not"),
    NUMBER("--count-queens", "PUZZLED_COUNT_QUEENS", count_queens, 0, 32, 0,
           "count the n-queens solutions of this n once, print the answer and exit; 0: serve"),
    NUMBER("--parts", "PUZZLED_PARTS", parts, 1, 65536, 1, "with --count-queens: split the count into this many parts"),
    NUMBER("--part", "JOB_COMPLETION_INDEX", part, 0, 65535, 0,
           "with --count-queens: the part counted, from 0 (a Kubernetes Indexed Job sets its variable)"),
};
const size_t option_count = sizeof options / sizeof options[0];
