/* Integration-test harness: the real puzzled binary, started on a free port, spoken to with libcurl. */
#include "harness.h"

#include <criterion/criterion.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool test_server_start(test_server *server, const char *const *args) {
    const char *binary = getenv("PUZZLED_BIN");
    if (binary == NULL) return false;
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0) return false;
    /* One test process is one client making requests as fast as it can: no per-client limits. */
    const char *argv[64] = {binary, "--host", "127.0.0.1", "--port", "0", "--client-rate", "0"};
    int argc = 7;
    for (int i = 0; args != NULL && args[i] != NULL && argc < 63; i++) argv[argc++] = args[i];
    argv[argc] = NULL;
    pid_t pid = fork();
    if (pid < 0) return false;
    if (pid == 0) {
        dup2(out[1], STDOUT_FILENO);
        dup2(err[1], STDERR_FILENO);
        close(out[0]);
        close(err[0]);
        execv(binary, (char *const *)argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    *server = (test_server){.pid = pid, .stderr_fd = err[0]};
    FILE *lines = fdopen(out[0], "r");
    char line[256];
    bool started = false;
    while (!started && fgets(line, sizeof line, lines) != NULL) {
        started = sscanf(line, "listening on %127s", server->url) == 1;
    }
    /* stdout stays open (read end kept) so the server never sees SIGPIPE on a late write. */
    const char *port = strrchr(server->url, ':');
    if (started && port != NULL) server->port = (unsigned)atoi(port + 1);
    if (!started) test_server_stop(server, SIGKILL);
    return started;
}

int test_server_stop(test_server *server, int signal_number) {
    if (server->pid <= 0) return -1;
    kill(server->pid, signal_number);
    int status = 0;
    /* 15 s: guards a stop that hangs; the server's own bounds end it sooner (drain, graces, flush). */
    for (int waited_ms = 0; waited_ms < 15000; waited_ms += 10) {
        if (waitpid(server->pid, &status, WNOHANG) == server->pid) {
            server->pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        }
        struct timespec step = {0, 10 * 1000000};
        nanosleep(&step, NULL);
    }
    kill(server->pid, SIGKILL);
    waitpid(server->pid, &status, 0);
    server->pid = 0;
    return -1;
}

static test_server own_server;

static void stop_own_server(void) { test_server_stop(&own_server, SIGTERM); }

const char *server_url(void) {
    const char *shared = getenv("PUZZLED_URL");
    if (shared != NULL) return shared;
    if (own_server.pid == 0) {
        cr_assert(test_server_start(&own_server, NULL), "could not start puzzled (is PUZZLED_BIN set?)");
        atexit(stop_own_server);
    }
    return own_server.url;
}

typedef struct growing {
    char *data;
    size_t len;
    size_t cap;
} growing;

/* Appends with geometric growth, so large bodies cost linear time. */
static size_t collect(char *bytes, size_t size, size_t count, void *userdata) {
    growing *g = userdata;
    size_t n = size * count;
    if (g->len + n + 1 > g->cap) {
        size_t cap = g->cap ? g->cap : 4096;
        while (cap < g->len + n + 1) cap *= 2;
        char *grown = realloc(g->data, cap);
        if (grown == NULL) return 0;
        g->data = grown;
        g->cap = cap;
    }
    memcpy(g->data + g->len, bytes, n);
    g->len += n;
    g->data[g->len] = '\0';
    return n;
}

http_result http_request(const char *base_url, const char *method, const char *path, const char *body,
                         const char *const *headers) {
    http_result result = {0};
    growing body_in = {calloc(1, 1), 0, 1}, headers_in = {calloc(1, 1), 0, 1};
    CURL *curl = curl_easy_init();
    size_t url_size = strlen(base_url) + strlen(path) + 1;
    char *url = malloc(url_size);
    snprintf(url, url_size, "%s%s", base_url, path);
    struct curl_slist *list = NULL;
    for (int i = 0; headers != NULL && headers[i] != NULL; i++) list = curl_slist_append(list, headers[i]);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "HEAD") == 0) curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    if (body != NULL) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body_in);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &headers_in);
    /* 120 s: guards a request never answered; the longest takes a few seconds under ASan on a busy machine. */
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 120L);
    result.curl_code = curl_easy_perform(curl);
    if (result.curl_code == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    free(url);
    result.body = body_in.data;
    result.body_len = body_in.len;
    result.headers = headers_in.data;
    return result;
}

http_result http_get(const char *path_and_query) {
    return http_request(server_url(), "GET", path_and_query, NULL, NULL);
}

http_result http_post(const char *path, const char *json) {
    return http_request(server_url(), "POST", path, json, NULL);
}

void http_result_free(http_result *result) {
    free(result->body);
    free(result->headers);
    *result = (http_result){0};
}

char *http_header(const http_result *result, const char *name) {
    size_t name_len = strlen(name);
    for (const char *line = result->headers; line != NULL && *line != '\0';) {
        const char *end = strstr(line, "\r\n");
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > name_len && strncasecmp(line, name, name_len) == 0 && line[name_len] == ':') {
            const char *value = line + name_len + 1;
            while (*value == ' ') value++;
            return strndup(value, len - (size_t)(value - line));
        }
        line = end ? end + 2 : NULL;
    }
    return NULL;
}

cJSON *http_json(const http_result *result) {
    return result->body != NULL ? cJSON_ParseWithLength(result->body, result->body_len) : NULL;
}

cJSON *http_ndjson(const http_result *result) {
    cJSON *lines = cJSON_CreateArray();
    for (const char *line = result->body; line != NULL && *line != '\0';) {
        const char *end = strchr(line, '\n');
        if (end == NULL) break; /* every line ends with a newline */
        cJSON *value = cJSON_ParseWithLength(line, (size_t)(end - line));
        if (value == NULL) {
            cJSON_Delete(lines);
            return NULL;
        }
        cJSON_AddItemToArray(lines, value);
        line = end + 1;
    }
    return lines;
}

cJSON *expect_error(const http_result *result, long status, const char *code) {
    cr_assert_eq(result->status, status, "expected status %ld, got %ld: %s", status, result->status,
                 result->body ? result->body : "");
    cJSON *doc = http_json(result);
    cr_assert_not_null(doc, "error body is not JSON: %s", result->body);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(doc, "error");
    cr_assert(cJSON_IsObject(error), "no error object in %s", result->body);
    const cJSON *got = cJSON_GetObjectItemCaseSensitive(error, "code");
    cr_assert(cJSON_IsString(got) && strcmp(got->valuestring, code) == 0, "expected code %s in %s", code, result->body);
    const cJSON *message = cJSON_GetObjectItemCaseSensitive(error, "message");
    cr_assert(cJSON_IsString(message) && strlen(message->valuestring) > 10, "no useful message in %s", result->body);
    return doc;
}

char *run_command_output(const char *command) {
    FILE *pipe_in = popen(command, "r");
    if (pipe_in == NULL) return NULL;
    growing out = {calloc(1, 1), 0, 1};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, pipe_in)) > 0) collect(chunk, 1, n, &out);
    if (pclose(pipe_in) != 0) {
        free(out.data);
        return NULL;
    }
    return out.data;
}

char *run_python_reference(const char *script, const cJSON *input) {
    char path[] = "/tmp/puzzled_reference_input_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0, "cannot create a temporary file");
    char *printed = cJSON_PrintUnformatted(input);
    size_t len = strlen(printed);
    cr_assert_eq(write(fd, printed, len), (ssize_t)len);
    close(fd);
    cJSON_free(printed);
    const char *source = getenv("PUZZLED_SOURCE_DIR");
    char command[4096];
    snprintf(command, sizeof command, "python3 '%s/%s' '%s'", source ? source : ".", script, path);
    char *output = run_command_output(command);
    unlink(path);
    cr_assert_not_null(output, "the Python reference %s failed", script);
    return output;
}

static cJSON *expect_ok(http_result *r, const char *what) {
    cr_assert_eq(r->status, 200, "%s: status %ld body %s", what, r->status, r->body);
    cJSON *doc = http_json(r);
    cr_assert_not_null(doc, "%s: not JSON: %s", what, r->body);
    http_result_free(r);
    return doc;
}

cJSON *get_ok(const char *path_and_query) {
    http_result r = http_get(path_and_query);
    return expect_ok(&r, path_and_query);
}

cJSON *post_ok(const char *path, const char *json) {
    http_result r = http_post(path, json);
    return expect_ok(&r, json);
}

void expect_error_field(http_result result, long status, const char *code, const char *field) {
    cJSON *doc = expect_error(&result, status, code);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(doc, "error");
    const cJSON *blamed = cJSON_GetObjectItemCaseSensitive(error, "field");
    if (field == NULL) {
        cr_assert_null(blamed, "no field is to blame: %s", result.body);
    } else {
        cr_assert(cJSON_IsString(blamed) && strcmp(blamed->valuestring, field) == 0, "field %s expected: %s", field,
                  result.body);
    }
    cr_assert_gt(strlen(cJSON_GetObjectItemCaseSensitive(error, "message")->valuestring), 10);
    cJSON_Delete(doc);
    http_result_free(&result);
}

void expect_error_details(http_result result, long status, const char *code, const char *details) {
    cJSON *doc = expect_error(&result, status, code);
    cJSON *want = cJSON_Parse(details);
    cr_assert_not_null(want, "the expected details are not JSON: %s", details);
    const cJSON *got = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "error"), "details");
    cr_assert(got != NULL && cJSON_Compare(got, want, true), "expected details %s in %s", details, result.body);
    cJSON_Delete(want);
    cJSON_Delete(doc);
    http_result_free(&result);
}

bool test_server_stderr_shows(const test_server *server, const char *needle) {
    static char seen[65536];
    static size_t len = 0;
    for (int tries = 0; tries < 500; tries++) {
        if (strstr(seen, needle) != NULL) return true;
        struct pollfd p = {server->stderr_fd, POLLIN, 0};
        if (poll(&p, 1, 10) > 0) {
            ssize_t n = read(server->stderr_fd, seen + len, sizeof seen - 1 - len);
            if (n > 0) len += (size_t)n;
            seen[len] = '\0';
        }
    }
    return strstr(seen, needle) != NULL;
}

static void shuffle_ints(int *a, size_t n, unsigned *seed) {
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(rand_r(seed) % i);
        int t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

void test_random_picks(int *picks, size_t n, size_t choices, unsigned *seed) {
    int values[32];
    for (size_t i = 0; i < choices; i++) values[i] = (int)i;
    shuffle_ints(values, choices, seed);
    size_t m = n ? 1 + (size_t)(rand_r(seed) % n) : 0;
    for (size_t i = 0; i < n; i++) picks[i] = values[i < m ? i : (size_t)(rand_r(seed) % m)];
    shuffle_ints(picks, n, seed);
}

cJSON *post_ok_with(const char *path, const cJSON *body, const char *field, const cJSON *value) {
    cJSON *copy = cJSON_Duplicate(body, true);
    cJSON_AddItemToObject(copy, field, cJSON_Duplicate(value, true));
    char *request = cJSON_PrintUnformatted(copy);
    cJSON *doc = post_ok(path, request);
    cJSON_free(request);
    cJSON_Delete(copy);
    return doc;
}

static void expect_listing(const char *path, const cJSON *body, bool ndjson, const cJSON *expected,
                           const char *list_key) {
    static const char *const ndjson_accept[] = {"Accept: application/x-ndjson", "Content-Type: application/json", NULL};
    char *request = cJSON_PrintUnformatted(body);
    http_result r =
        ndjson ? http_request(server_url(), "POST", path, request, ndjson_accept) : http_post(path, request);
    cr_assert_eq(r.status, 200, "%s -> %ld %s", request, r.status, r.body);
    bool lines = ndjson && !cJSON_IsTrue(cJSON_GetObjectItem(body, "count_only"));
    char *type = http_header(&r, "Content-Type");
    cr_assert_str_eq(type, lines ? "application/x-ndjson" : "application/json", "%s", request);
    free(type);
    cJSON *got = lines ? http_ndjson(&r) : http_json(&r);
    cr_assert_not_null(got, "%s: not %s: %s", request, lines ? "NDJSON" : "JSON", r.body);
    const cJSON *want = lines ? cJSON_GetObjectItem(expected, list_key) : expected;
    cr_assert(cJSON_Compare(got, want, true), "%s\n got %s\n want %s", request, r.body, cJSON_PrintUnformatted(want));
    static const char total_first[] = "\"total\":";
    const char *after_kind = strchr(r.body, ',');
    if (!ndjson)
        cr_assert(strncmp(r.body, "{\"kind\":", 8) == 0 && after_kind != NULL &&
                      strncmp(after_kind + 1, total_first, sizeof total_first - 1) == 0,
                  "kind comes first, then total: %s", r.body);
    cJSON_Delete(got);
    http_result_free(&r);
    cJSON_free(request);
}

void expect_listings_match_reference(const listing_check *check) {
    cJSON *bodies = cJSON_CreateArray();
    unsigned seed = check->seed;
    for (int round = 0; round < check->rounds; round++)
        for (unsigned set = 0; set < check->option_sets; set++)
            cJSON_AddItemToArray(bodies, check->random_body(set, &seed));
    char *expected_lines = run_python_reference(check->reference, bodies);
    char *line = expected_lines;
    unsigned index = 0;
    for (cJSON *body = bodies->child; body != NULL; body = body->next, index++) {
        cJSON *expected = reference_next(&line);
        bool ndjson = (index % check->option_sets) & check->ndjson_bit;
        expect_listing(check->path, body, ndjson, expected, check->list_key);
        cJSON_Delete(expected);
    }
    free(expected_lines);
    cJSON_Delete(bodies);
}

cJSON *reference_next(char **cursor) {
    char *end = strchr(*cursor, '\n');
    cr_assert_not_null(end, "the reference gave fewer lines than there were cases");
    *end = '\0';
    cJSON *doc = cJSON_Parse(*cursor);
    cr_assert_not_null(doc, "the reference's line is not JSON: %s", *cursor);
    *cursor = end + 1;
    return doc;
}
