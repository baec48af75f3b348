/* Integration tests of the behaviour every endpoint relies on: routing, errors, CORS, body limits,
 * GET queries, keep-alive, configuration, access log, health check and graceful stop. */
#include <criterion/criterion.h>
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"

static void expect_cors(const http_result *r) {
    char *origin = http_header(r, "Access-Control-Allow-Origin");
    cr_assert_not_null(origin, "no CORS header on status %ld", r->status);
    cr_assert_str_eq(origin, "*");
    free(origin);
}

Test(server, health_answers_ok_with_cors) {
    http_result r = http_get("/healthz");
    cr_assert_eq(r.status, 200);
    cr_assert_str_eq(r.body, "{\"status\":\"ok\"}");
    expect_cors(&r);
    char *type = http_header(&r, "Content-Type");
    cr_assert_str_eq(type, "application/json");
    free(type);
    http_result_free(&r);
}

Test(server, unknown_path_is_404_listing_the_endpoints) {
    http_result r = http_get("/nope?x=1");
    cJSON *doc = expect_error(&r, 404, "not_found");
    cr_assert(strstr(r.body, "/queens") != NULL && strstr(r.body, "/word-ladder") != NULL);
    expect_cors(&r);
    cJSON_Delete(doc);
    http_result_free(&r);
}

Test(server, wrong_method_is_405_with_allow) {
    const char *cases[][3] = {{"DELETE", "/queens", "GET, HEAD, POST, OPTIONS"},
                              {"PUT", "/shuffle", "GET, HEAD, POST, OPTIONS"},
                              {"POST", "/healthz", "GET, HEAD, OPTIONS"},
                              {"HEAD", "/queens/verify", "POST, OPTIONS"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        http_result r = http_request(server_url(), cases[i][0], cases[i][1], NULL, NULL);
        cr_assert_eq(r.status, 405, "%s %s gave %ld", cases[i][0], cases[i][1], r.status);
        char *allow = http_header(&r, "Allow");
        cr_assert_not_null(allow);
        cr_assert_str_eq(allow, cases[i][2]);
        free(allow);
        if (strcmp(cases[i][0], "HEAD") != 0) cJSON_Delete(expect_error(&r, 405, "method_not_allowed"));
        expect_cors(&r);
        http_result_free(&r);
    }
}

/* The header block without the lines that differ between two answers (Date, X-Request-Id) and a
 * stream's framing, which HEAD's headers go out without (Transfer-Encoding, Connection). */
static void stable_headers(const http_result *r, char *out, size_t size) {
    size_t used = 0;
    out[0] = '\0';
    for (const char *line = r->headers; *line != '\0';) {
        const char *end = strchr(line, '\n');
        size_t len = end != NULL ? (size_t)(end - line + 1) : strlen(line);
        bool volatile_line = strncasecmp(line, "Date:", 5) == 0 || strncasecmp(line, "X-Request-Id:", 13) == 0 ||
                             strncasecmp(line, "Transfer-Encoding:", 18) == 0 ||
                             strncasecmp(line, "Connection:", 11) == 0;
        if (!volatile_line && used + len < size) {
            memcpy(out + used, line, len);
            used += len;
            out[used] = '\0';
        }
        line += len;
    }
}

Test(server, head_answers_as_get_without_a_body) {
    const char *paths[] = {"/",
                           "/healthz",
                           "/docs",
                           "/openapi.yaml",
                           "/queens?n=8&mode=count",
                           "/queens?n=6",
                           "/permutations?text=abcdefgh",
                           "/sudoku/check?puzzle=" /* an error: the same 400 */,
                           "/knight-tour?n=6&format=svg"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        http_result get = http_request(server_url(), "GET", paths[i], NULL, NULL);
        http_result head = http_request(server_url(), "HEAD", paths[i], NULL, NULL);
        cr_assert_eq(head.status, get.status, "HEAD %s: %ld, GET %ld", paths[i], head.status, get.status);
        cr_assert_eq(head.body_len, 0, "HEAD %s sent a body of %zu bytes", paths[i], head.body_len);
        char get_headers[4096], head_headers[4096];
        stable_headers(&get, get_headers, sizeof get_headers);
        stable_headers(&head, head_headers, sizeof head_headers);
        cr_assert_str_eq(head_headers, get_headers, "HEAD %s", paths[i]);
        http_result_free(&get);
        http_result_free(&head);
    }
}

Test(server, conditional_head_that_matches_is_304) {
    http_result get = http_get("/queens?n=8&mode=count");
    char *tag = http_header(&get, "ETag");
    cr_assert_not_null(tag);
    char if_none_match[128];
    snprintf(if_none_match, sizeof if_none_match, "If-None-Match: %s", tag);
    const char *headers[] = {if_none_match, NULL};
    http_result head = http_request(server_url(), "HEAD", "/queens?n=8&mode=count", NULL, headers);
    cr_assert_eq(head.status, 304);
    free(tag);
    http_result_free(&get);
    http_result_free(&head);
}

Test(server, cors_preflight_is_204_from_the_route_table) {
    const char *headers[] = {"Origin: https://example.org", "Access-Control-Request-Method: POST",
                             "Access-Control-Request-Headers: content-type", NULL};
    http_result r = http_request(server_url(), "OPTIONS", "/permutations", NULL, headers);
    cr_assert_eq(r.status, 204);
    expect_cors(&r);
    char *methods = http_header(&r, "Access-Control-Allow-Methods");
    char *allowed_headers = http_header(&r, "Access-Control-Allow-Headers");
    cr_assert_str_eq(methods, "GET, HEAD, POST, OPTIONS");
    cr_assert_str_eq(allowed_headers, "content-type");
    free(methods);
    free(allowed_headers);
    http_result_free(&r);
    r = http_request(server_url(), "OPTIONS", "/missing", NULL, headers);
    cr_assert_eq(r.status, 404);
    http_result_free(&r);
}

Test(server, malformed_json_and_non_objects_are_400) {
    const char *bodies[] = {"{\"time_limit_ms\":", "[1,2]", "\"text\"", "{} trailing"};
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        http_result r = http_post("/healthz", NULL);
        http_result_free(&r);
        r = http_request(server_url(), "POST", "/queens", bodies[i], NULL);
        cr_assert_eq(r.status, 400, "%s gave %ld", bodies[i], r.status);
        expect_cors(&r);
        http_result_free(&r);
    }
}

Test(server, unknown_fields_are_rejected_in_body_and_query) {
    http_result r = http_post("/queens", "{\"nn\": 8}");
    cJSON *doc = expect_error(&r, 400, "unknown_field");
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "field")->valuestring, "nn");
    cJSON_Delete(doc);
    http_result_free(&r);
    r = http_get("/healthz?verbose=true");
    cJSON_Delete(expect_error(&r, 400, "unknown_field"));
    http_result_free(&r);
}

/* Found by the garbage campaign (tests/garbage/run.py): /shuffle used to echo these bytes raw in its JSON. */
Test(server, text_that_is_not_utf8_is_400_in_body_and_query) {
    http_result r = http_post("/shuffle", "{\"items\": [\"ann\", \"\xff\xfe\"], \"seed\": 7}");
    expect_error_field(r, 400, "invalid_field", "items");
    r = http_get("/shuffle?items=ann,%ff%fe&seed=7");
    expect_error_field(r, 400, "invalid_field", "items");
    r = http_get("/permutations?text=%ed%a0%80");
    expect_error_field(r, 400, "invalid_field", "text");
    r = http_get("/queens?%c0%af=1");
    expect_error_field(r, 400, "unknown_field", NULL);
}

Test(server, get_query_values_are_typed_like_the_body) {
    http_result r = http_get("/healthz?time_limit_ms=50");
    cr_assert_eq(r.status, 200);
    http_result_free(&r);
    const char *bad[] = {"/healthz?time_limit_ms=abc", "/healthz?time_limit_ms=1.5", "/healthz?time_limit_ms=99999999",
                         "/healthz?time_limit_ms=1&time_limit_ms=2"};
    const char *codes[] = {"invalid_field", "invalid_field", "invalid_field", "duplicate_field"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        r = http_get(bad[i]);
        cJSON *doc = expect_error(&r, 400, codes[i]);
        cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "error"), "field")->valuestring, "time_limit_ms");
        cJSON_Delete(doc);
        http_result_free(&r);
    }
}

Test(server, openapi_document_is_served) {
    http_result r = http_get("/openapi.yaml");
    cr_assert_eq(r.status, 200);
    cr_assert(strncmp(r.body, "openapi: 3.1", 12) == 0, "%.40s", r.body);
    char *type = http_header(&r, "Content-Type");
    cr_assert_str_eq(type, "application/yaml");
    free(type);
    http_result_free(&r);
}

/* Two requests through one curl handle must reuse the connection (the keep-alive trap of MHD). */
Test(server, keep_alive_reuses_the_connection) {
    CURL *curl = curl_easy_init();
    char url[256];
    snprintf(url, sizeof url, "%s/healthz", server_url());
    curl_easy_setopt(curl, CURLOPT_URL, url);
    FILE *sink = fopen("/dev/null", "w");
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, sink);
    cr_assert_eq(curl_easy_perform(curl), CURLE_OK);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "{}");
    curl_easy_setopt(curl, CURLOPT_URL, url);
    cr_assert_eq(curl_easy_perform(curl), CURLE_OK);
    long connects = -1;
    curl_easy_getinfo(curl, CURLINFO_NUM_CONNECTS, &connects);
    cr_assert_eq(connects, 0, "the second request opened a new connection");
    curl_easy_cleanup(curl);
    fclose(sink);
}

static test_server small_server;

static void start_small_server(void) {
    const char *args[] = {"--max-body", "100", NULL};
    cr_assert(test_server_start(&small_server, args));
}

static void stop_small_server(void) { test_server_stop(&small_server, SIGTERM); }

Test(limits, body_over_max_body_is_413_with_content_length, .init = start_small_server, .fini = stop_small_server) {
    char body[200];
    memset(body, ' ', sizeof body - 1);
    body[0] = '{';
    body[sizeof body - 2] = '}';
    body[sizeof body - 1] = '\0';
    http_result r = http_request(small_server.url, "POST", "/queens", body, NULL);
    cJSON_Delete(expect_error(&r, 413, "payload_too_large"));
    cr_assert(strstr(r.body, "100 bytes") != NULL);
    http_result_free(&r);
    r = http_request(small_server.url, "POST", "/healthz", "{}", NULL);
    cr_assert_eq(r.status, 405);
    http_result_free(&r);
}

Test(limits, chunked_body_over_max_body_is_413, .init = start_small_server, .fini = stop_small_server) {
    char body[300];
    memset(body, ' ', sizeof body - 1);
    body[0] = '{';
    body[sizeof body - 2] = '}';
    body[sizeof body - 1] = '\0';
    const char *headers[] = {"Transfer-Encoding: chunked", NULL};
    http_result r = http_request(small_server.url, "POST", "/queens", body, headers);
    cJSON_Delete(expect_error(&r, 413, "payload_too_large"));
    http_result_free(&r);
    http_result ok = http_request(small_server.url, "GET", "/healthz", NULL, NULL);
    cr_assert_eq(ok.status, 200, "server unhealthy after a refused upload");
    http_result_free(&ok);
}

Test(config, environment_sets_and_flags_win) {
    setenv("PUZZLED_MAX_BODY", "10", 1);
    setenv("PUZZLED_CORS_ORIGIN", "https://app.example", 1);
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    const char *from_the_app[] = {"Origin: https://app.example", NULL}; /* a listed origin is echoed */
    http_result r = http_request(server.url, "POST", "/queens", "{\"time_limit_ms\": 100}", from_the_app);
    cr_assert_eq(r.status, 413);
    char *origin = http_header(&r, "Access-Control-Allow-Origin");
    cr_assert_str_eq(origin, "https://app.example");
    free(origin);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
    const char *args[] = {"--max-body=1000", NULL};
    cr_assert(test_server_start(&server, args));
    r = http_request(server.url, "POST", "/queens", "{\"time_limit_ms\": 100}", NULL);
    cr_assert_neq(r.status, 413);
    http_result_free(&r);
    cr_assert_eq(test_server_stop(&server, SIGINT), 0);
    unsetenv("PUZZLED_MAX_BODY");
    unsetenv("PUZZLED_CORS_ORIGIN");
}

static int run_binary(const char *arguments) {
    char command[1024];
    snprintf(command, sizeof command, "'%s' %s > /dev/null 2>&1", getenv("PUZZLED_BIN"), arguments);
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(config, help_and_bad_flags) {
    cr_assert_eq(run_binary("--help"), 0);
    cr_assert_eq(run_binary("--port 70000"), 2);
    cr_assert_eq(run_binary("--threads abc"), 2);
    cr_assert_eq(run_binary("--no-such-flag"), 2);
    cr_assert_eq(run_binary("--port"), 2);
}

Test(config, health_check_flag_reports_the_server_state) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    char arguments[64];
    snprintf(arguments, sizeof arguments, "--health-check --port %u", server.port);
    cr_assert_eq(run_binary(arguments), 0);
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
    cr_assert_eq(run_binary(arguments), 1);
}

Test(logging, one_access_log_line_per_request) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    http_result r = http_request(server.url, "GET", "/healthz", NULL, NULL);
    http_result_free(&r);
    r = http_request(server.url, "GET", "/nowhere%0Aforged", NULL, NULL);
    http_result_free(&r);
    cr_assert(test_server_stderr_shows(&server, " GET /healthz 200 15 "), "no access-log line for /healthz");
    cr_assert(test_server_stderr_shows(&server, " GET /nowhere?forged 404 "), "control characters reached the log");
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

Test(shutdown, sigterm_with_an_open_idle_connection_exits_cleanly) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    CURL *curl = curl_easy_init();
    char url[256];
    snprintf(url, sizeof url, "%s/healthz", server.url);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    FILE *sink = fopen("/dev/null", "w");
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, sink);
    cr_assert_eq(curl_easy_perform(curl), CURLE_OK); /* leaves a keep-alive connection open */
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
    curl_easy_cleanup(curl);
    fclose(sink);
}

/* A raw TCP connection to the server, for requests curl cannot pause in the middle of. */
static int connect_raw(const test_server *server) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)server->port)};
    inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    cr_assert_eq(connect(fd, (struct sockaddr *)&address, sizeof address), 0);
    return fd;
}

Test(shutdown, sigterm_lets_an_in_flight_request_finish) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    int fd = connect_raw(&server);
    const char *head = "GET /healthz HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\n\r\n{";
    cr_assert_eq(write(fd, head, strlen(head)), (ssize_t)strlen(head));
    usleep(100 * 1000);
    kill(server.pid, SIGTERM); /* the request is half read: it must still be answered */
    usleep(200 * 1000);
    cr_assert_eq(write(fd, "}", 1), 1);
    char reply[1024] = "";
    size_t got = 0;
    ssize_t n;
    while (got < sizeof reply - 1 && (n = read(fd, reply + got, sizeof reply - 1 - got)) > 0) got += (size_t)n;
    close(fd);
    cr_assert(strncmp(reply, "HTTP/1.1 200", 12) == 0, "in-flight request was not answered: %s", reply);
    cr_assert(strstr(reply, "Connection: close") != NULL, "draining answers must close the connection");
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}

static size_t hang_up_after_first_megabyte(char *data, size_t size, size_t count, void *user) {
    (void)data;
    size_t *received = user;
    *received += size * count;
    return *received >= (1u << 20) ? 0 : size * count;
}

/* A client that leaves mid-stream ends the request at once: the access log records it as aborted
 * (the stream's state is freed then, so no more arrangements are generated). */
Test(streaming, a_client_leaving_mid_stream_ends_generation) {
    test_server server;
    cr_assert(test_server_start(&server, NULL));
    CURL *curl = curl_easy_init();
    char url[256];
    snprintf(url, sizeof url, "%s/permutations", server.url);
    size_t received = 0;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, /* 12! arrangements, limited by the largest limit alone */
                     "{\"items\":[1,2,3,4,5,6,7,8,9,10,11,12],\"limit\":9007199254740991}");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, hang_up_after_first_megabyte);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received);
    cr_assert_eq(curl_easy_perform(curl), CURLE_WRITE_ERROR);
    curl_easy_cleanup(curl);
    cr_assert(test_server_stderr_shows(&server, " POST /permutations 200 "),
              "no access-log line for the abandoned stream");
    cr_assert(test_server_stderr_shows(&server, "ms aborted "), "the abandoned stream was not ended as aborted");
    cr_assert_eq(test_server_stop(&server, SIGTERM), 0);
}
