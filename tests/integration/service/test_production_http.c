/* What operators and frontends expect beyond the answers (server/metrics.c, server/request_id.c,
 * server/etag.c, server/access_log.c and the edges of server/http.c): /metrics that a real
 * Prometheus parser accepts and whose counters move, request ids echoed and logged (hostile ones
 * replaced), JSON access logs, ETags with 304s and no-store where an answer is not replayable,
 * CORS-readable headers, and JSON answers (with CORS) for an over-long target and an oversized body. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static const char *const QUEENS_COUNT_SAMPLE =
    "puzzled_requests_total{route=\"/queens\",method=\"GET\",status=\"200\"} ";

/* The value of the sample line starting with `prefix` in a scrape, or -1 when absent. */
static double sample_value(const char *scrape, const char *prefix) {
    size_t length = strlen(prefix);
    for (const char *line = scrape; line != NULL; line = strchr(line, '\n')) {
        if (*line == '\n') line++;
        if (strncmp(line, prefix, length) == 0) return strtod(line + length, NULL);
    }
    return -1;
}

static char *scrape(const char *base_url) {
    http_result r = http_request(base_url, "GET", "/metrics", NULL, NULL);
    cr_assert_eq(r.status, 200);
    char *type = http_header(&r, "Content-Type");
    cr_assert(type != NULL && strncmp(type, "text/plain; version=0.0.4", 25) == 0, "content type %s", type);
    free(type);
    char *body = r.body;
    r.body = NULL;
    http_result_free(&r);
    return body;
}

static void get_from(const char *base_url, const char *path, long status) {
    http_result r = http_request(base_url, "GET", path, NULL, NULL);
    cr_assert_eq(r.status, status, "%s: %ld", path, r.status);
    http_result_free(&r);
}

/* A request is counted when libmicrohttpd reports it complete, just after its last byte went out:
 * scrape until `prefix` reaches at least `value` (bounded: 5 s). */
static double scraped_at_least(const char *base_url, const char *prefix, double value) {
    double seen = -1;
    for (int tries = 0; tries < 500 && seen < value; tries++) {
        char *text = scrape(base_url);
        seen = sample_value(text, prefix);
        free(text);
        if (seen < value) usleep(10000);
    }
    return seen;
}

/* The families a scrape must hold; promtool's judgement of the whole scrape is the public stage's
 * (tests/public/run.sh), which the whole suite installs Prometheus for. */
Test(metrics, the_scrape_holds_every_family) {
    http_result r = http_get("/queens?n=6&mode=count");
    http_result_free(&r);
    char *text = scrape(server_url());
    for (const char *family = "puzzled_requests_total puzzled_request_duration_seconds_bucket "
                              "puzzled_requests_in_flight puzzled_queue_waiting puzzled_queue_rejections_total "
                              "puzzled_queue_wait_seconds_bucket "
                              "puzzled_streamed_bytes_total puzzled_streams_aborted_total "
                              "puzzled_deadline_exceeded_total puzzled_build_info process_resident_memory_bytes "
                              "process_open_fds process_start_time_seconds";
         *family != '\0';) {
        size_t length = strcspn(family, " ");
        char name[64];
        snprintf(name, sizeof name, "\n%.*s", (int)length, family);
        cr_assert(strstr(text, name) != NULL, "no %s in the scrape", name + 1);
        family += length + (family[length] == ' ');
    }
    free(text);
}

/* On a server of its own, so that no other test's requests are counted. */
Test(metrics, counters_move_as_requests_are_answered) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    get_from(server.url, "/queens?n=5&mode=count", 200);
    cr_assert_eq(scraped_at_least(server.url, QUEENS_COUNT_SAMPLE, 1), 1);
    for (int i = 0; i < 3; i++) get_from(server.url, "/queens?n=5&mode=count", 200);
    get_from(server.url, "/permutations?text=abcdef", 200); /* a stream of 720 arrangements */
    get_from(server.url, "/queens?n=24&offset=1000000000000&limit=1&time_limit_ms=50", 503); /* runs out of time */
    cr_assert_eq(scraped_at_least(server.url, QUEENS_COUNT_SAMPLE, 4), 4);
    cr_assert_geq(scraped_at_least(server.url, "puzzled_streamed_bytes_total ", 720 * 9), 720 * 9);
    cr_assert_eq(scraped_at_least(server.url, "puzzled_deadline_exceeded_total ", 1), 1);
    cr_assert_eq(scraped_at_least(server.url, "puzzled_request_duration_seconds_count{route=\"/queens\"} ", 5), 5);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(request_ids, a_safe_id_is_echoed_and_logged_and_a_hostile_one_replaced) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    const char *safe[] = {"X-Request-Id: trace-42.a:b_c", NULL};
    http_result r = http_request(server.url, "GET", "/healthz", NULL, safe);
    char *echoed = http_header(&r, "X-Request-Id");
    cr_assert_str_eq(echoed, "trace-42.a:b_c");
    free(echoed);
    http_result_free(&r);
    cr_assert(test_server_stderr_shows(&server, " GET /healthz 200 15 "), "no log line");
    cr_assert(test_server_stderr_shows(&server, " ok trace-42.a:b_c 127.0.0.1\n"),
              "the id and client are not in the log line");

    const char *hostile[] = {"X-Request-Id: <script>alert(1)</script>", NULL};
    r = http_request(server.url, "GET", "/healthz", NULL, hostile);
    echoed = http_header(&r, "X-Request-Id");
    cr_assert(echoed != NULL && strchr(echoed, '<') == NULL && strlen(echoed) > 8, "replaced: %s", echoed);
    free(echoed);
    http_result_free(&r);

    r = http_request(server.url, "GET", "/healthz", NULL, NULL);
    echoed = http_header(&r, "X-Request-Id");
    cr_assert(echoed != NULL && strlen(echoed) > 8, "an id is made when none is sent");
    free(echoed);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(request_ids, json_log_lines_are_json_objects) {
    test_server server;
    const char *args[] = {"--log-format", "json", NULL};
    cr_assert(test_server_start(&server, args));
    const char *id[] = {"X-Request-Id: json-line-1", NULL};
    http_result r = http_request(server.url, "GET", "/nowhere%0A", NULL, id);
    http_result_free(&r);
    cr_assert(test_server_stderr_shows(
                  &server, "\"id\":\"json-line-1\",\"client\":\"127.0.0.1\",\"method\":\"GET\",\"path\":\"/nowhere?\","
                           "\"status\":404,"),
              "no JSON log line for the request");
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(caching, a_pure_answer_has_an_etag_and_if_none_match_gets_304) {
    http_result r = http_get("/queens?n=8&mode=count");
    char *etag = http_header(&r, "ETag");
    char *cache = http_header(&r, "Cache-Control");
    cr_assert(etag != NULL && etag[0] == '"', "a strong ETag: %s", etag);
    cr_assert(cache != NULL && strncmp(cache, "public, max-age=", 16) == 0, "cache control %s", cache);
    http_result_free(&r);

    char condition[128];
    snprintf(condition, sizeof condition, "If-None-Match: W/\"other\", %s", etag);
    const char *headers[] = {condition, NULL};
    r = http_request(server_url(), "GET", "/queens?n=8&mode=count", NULL, headers);
    cr_assert_eq(r.status, 304);
    cr_assert_eq(r.body_len, 0);
    char *again = http_header(&r, "ETag");
    cr_assert_str_eq(again, etag);
    free(again);
    http_result_free(&r);

    r = http_get("/queens?n=8&mode=count&time_limit_ms=900");
    again = http_header(&r, "ETag");
    cr_assert_str_eq(again, etag, "time_limit_ms never changes a 200 answer, so not its tag");
    free(again);
    http_result_free(&r);

    r = http_get("/queens?n=9&mode=count");
    again = http_header(&r, "ETag");
    cr_assert(again != NULL && strcmp(again, etag) != 0, "another request, another tag");
    free(again);
    http_result_free(&r);
    free(etag);
    free(cache);
}

/* A bulk Sudoku question is its text/plain body: two bodies, two tags; the same body, the same tag. */
Test(caching, a_text_body_is_part_of_the_tag) {
    const char *headers[] = {"Content-Type: text/plain", "Accept: text/plain", NULL};
    const char *bodies[] = {"000000010400000000020000000000050407008000300001090000300400200050100000000806000\n",
                            "000000012000035000000600070700000300000400800100000000000120000080000040050000600\n",
                            "000000010400000000020000000000050407008000300001090000300400200050100000000806000\n"};
    char *tags[3];
    for (size_t i = 0; i < 3; i++) {
        http_result r = http_request(server_url(), "POST", "/sudoku/solve", bodies[i], headers);
        cr_assert_eq(r.status, 200, "%s", r.body);
        tags[i] = http_header(&r, "ETag");
        cr_assert_not_null(tags[i]);
        http_result_free(&r);
    }
    cr_assert_str_neq(tags[0], tags[1], "two puzzles, two tags");
    cr_assert_str_eq(tags[0], tags[2], "the same puzzle, the same tag");
    for (size_t i = 0; i < 3; i++) free(tags[i]);
}

Test(caching, answers_that_do_not_replay_say_no_store) {
    const char *const paths[] = {"/shuffle?n=5", "/shuffle?n=5&secure=true", "/healthz", "/readyz", "/metrics"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        http_result r = http_get(paths[i]);
        char *etag = http_header(&r, "ETag");
        char *cache = http_header(&r, "Cache-Control");
        cr_assert_null(etag, "%s has no ETag", paths[i]);
        cr_assert(cache != NULL && strcmp(cache, "no-store") == 0, "%s: %s", paths[i], cache);
        free(cache);
        http_result_free(&r);
    }
    http_result r = http_get("/shuffle?n=5&seed=42");
    char *etag = http_header(&r, "ETag");
    cr_assert_not_null(etag, "a seeded shuffle replays, so it is tagged");
    free(etag);
    http_result_free(&r);
}

Test(cors, pages_may_read_the_headers_they_need) {
    http_result r = http_get("/queens?n=4&mode=count");
    char *exposed = http_header(&r, "Access-Control-Expose-Headers");
    cr_assert(exposed != NULL && strstr(exposed, "X-Request-Id") && strstr(exposed, "Retry-After") &&
                  strstr(exposed, "ETag"),
              "exposed: %s", exposed);
    free(exposed);
    char *nosniff = http_header(&r, "X-Content-Type-Options");
    cr_assert_str_eq(nosniff, "nosniff");
    free(nosniff);
    http_result_free(&r);
}

/* Just over the default --max-url (64 KiB): within what libmicrohttpd buffers, so the handler answers. */
Test(edges, a_query_over_max_url_gets_a_json_414_with_cors) {
    size_t size = 80 * 1024;
    char *path = malloc(size + 32);
    int used = snprintf(path, size + 32, "/queens?n=8&pad=");
    memset(path + used, 'x', size);
    path[used + size] = '\0';
    http_result r = http_get(path);
    cJSON *doc = expect_error(&r, 414, "uri_too_long");
    char *origin = http_header(&r, "Access-Control-Allow-Origin");
    cr_assert_not_null(origin);
    free(origin);
    cJSON_Delete(doc);
    http_result_free(&r);
    free(path);
}


/* Without Expect: 100-continue the client sends all 2 MB before it reads: the server reads and drops
 * the body and then answers, so the 413 arrives whole instead of a broken pipe. */
Test(edges, a_2_mb_post_gets_a_readable_413) {
    size_t size = 2u << 20;
    char *body = malloc(size + 1);
    memset(body, ' ', size);
    body[0] = '{';
    body[size - 1] = '}';
    body[size] = '\0';
    const char *headers[] = {"Expect:", NULL};
    http_result r = http_request(server_url(), "POST", "/queens", body, headers);
    cr_assert_eq(r.curl_code, CURLE_OK, "the transfer failed: %s", curl_easy_strerror(r.curl_code));
    cJSON *doc = expect_error(&r, 413, "payload_too_large");
    cJSON_Delete(doc);
    http_result_free(&r);
    free(body);
}
