/* Integration-test harness: starts the real puzzled binary on a free port and talks to it over HTTP
 * with libcurl.
 *
 * server_url() is the shared server of this test binary: tests/integration/with_server.sh starts one
 * puzzled per binary and passes its address in PUZZLED_URL (when run directly, without the script,
 * a server is started for this process). Tests that need their own configuration (a small
 * --max-body, a short time limit, no dictionary, signals) start one with test_server_start(). */
#ifndef PUZZLED_TESTS_HARNESS_H
#define PUZZLED_TESTS_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

typedef struct test_server {
    pid_t pid;
    unsigned port;
    char url[128]; /* "http://127.0.0.1:PORT" */
    int stderr_fd; /* the server's stderr (access log), readable by the test */
} test_server;

/* Starts PUZZLED_BIN --host 127.0.0.1 --port 0 plus `args` (NULL-terminated, may be NULL) and waits
 * for its "listening on" line. */
bool test_server_start(test_server *server, const char *const *args);
/* Sends `signal_number`, waits up to 15 s, returns the exit status (-1 if it had to be killed). */
int test_server_stop(test_server *server, int signal_number);

/* Reads the server's stderr until `needle` shows up or 5 s pass (what was read is kept across calls,
 * so a test watches one server's stderr). */
bool test_server_stderr_shows(const test_server *server, const char *needle);

/* The shared server's base URL. */
const char *server_url(void);

typedef struct http_result {
    long status;   /* 0 when the transfer failed */
    int curl_code; /* CURLE_OK, or why the transfer failed */
    char *body;    /* NUL-terminated */
    size_t body_len;
    char *headers; /* the raw response header block */
} http_result;

/* `headers`: NULL-terminated "Name: value" strings, or NULL. `body` NULL sends none. */
http_result http_request(const char *base_url, const char *method, const char *path, const char *body,
                         const char *const *headers);
/* Shorthands against server_url(): POST sends `json` as the body with curl's default form type. */
http_result http_get(const char *path_and_query);
http_result http_post(const char *path, const char *json);
void http_result_free(http_result *result);

/* A response header's value (case-insensitive name), malloc'd, or NULL. */
char *http_header(const http_result *result, const char *name);
/* The body parsed as JSON (cJSON_Delete it), or NULL. */
cJSON *http_json(const http_result *result);
/* The body as NDJSON: an array of the parsed lines, or NULL if a line is not JSON. */
cJSON *http_ndjson(const http_result *result);

/* Asserts (Criterion) that `result` is a JSON error with this status and code, and returns the parsed
 * document for further checks (cJSON_Delete it). */
cJSON *expect_error(const http_result *result, long status, const char *code);

/* Asserts a 200 with a JSON body for GET `path_and_query` / POST `json` to `path`, and returns the
 * parsed body (cJSON_Delete it). */
cJSON *get_ok(const char *path_and_query);
cJSON *post_ok(const char *path, const char *json);

/* POSTs `body` with one more field, `field`: `value`, and returns the parsed 200 answer. */
cJSON *post_ok_with(const char *path, const cJSON *body, const char *field, const cJSON *value);

/* A listing endpoint (/permutations, /combinations) checked against its Python reference on random
 * requests: `rounds` bodies for each option set 0 .. option_sets - 1 (the set's bits choose the
 * options), all given to the reference at once, then each POSTed, as NDJSON when the set has
 * `ndjson_bit`, and its answer compared with the reference's line: with NDJSON, the `list_key` array
 * one item a line (count_only stays one JSON object); without, the whole document, "kind" then "total" first. */
typedef struct listing_check {
    const char *path;
    const char *reference; /* the Python script, relative to the source tree */
    const char *list_key;
    cJSON *(*random_body)(unsigned option_set, unsigned *seed);
    unsigned option_sets;
    unsigned ndjson_bit;
    int rounds;
    unsigned seed; /* rand_r's */
} listing_check;
void expect_listings_match_reference(const listing_check *check);

/* The next line of a reference's output, parsed (cJSON_Delete it); *cursor moves past it. */
cJSON *reference_next(char **cursor);

/* Asserts a JSON error with this status and code, blaming `field` (NULL: no field), with a message
 * that says something; frees `result`. The one error check of the integration tests, written on one
 * line: expect_error_field(http_post("/queens/verify", body), 400, "invalid_field", "queens"). */
void expect_error_field(http_result result, long status, const char *code, const char *field);

/* Asserts a JSON error with this status and code whose machine-readable `details` equal the JSON text
 * `details` (as values: key order and spacing aside); frees `result`. */
void expect_error_details(http_result result, long status, const char *code, const char *details);

/* Runs `command` with /bin/sh and returns its standard output (malloc'd), for references computed
 * by Python at test time (e.g. itertools). NULL on failure. */
char *run_command_output(const char *command);

/* Runs the Python reference `script` (a path relative to the source tree) on `input`, passed as a
 * temporary JSON file named on its command line, and returns its standard output (malloc'd). Asserts
 * that it succeeded. */
char *run_python_reference(const char *script, const cJSON *input);

/* n picks from 0..choices-1 (choices at most 32) for random multisets: a random number of distinct
 * values, repeats random, order random; from rand_r(seed). */
void test_random_picks(int *picks, size_t n, size_t choices, unsigned *seed);

#endif
