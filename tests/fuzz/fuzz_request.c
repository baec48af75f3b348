/* The request runner and answer checks every fuzz target shares (see fuzz_request.h). It mimics
 * server/request_endpoint.c's endpoint_read_fields() and endpoint_run() without HTTP, and server/stream.c's draining of
 * a generator, with tiny limits so that no input makes a target slow or hang. */
#include "fuzz_request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/endpoints.h"
#include "api/fields.h"

/* Small limits: each run ends within a few milliseconds, so the fuzzer stays fast and never hangs. */
enum { FUZZ_TIME_LIMIT_MS = 10 };
/* A stream is drained at most this far; past it, only the prefix is checked (as a cut stream). Checking
 * megabytes under the coverage instrumentation took seconds an input (a libFuzzer timeout). */
enum { FUZZ_MAX_STREAM_BYTES = 256 << 10 };
/* cJSON refuses documents nested deeper than 1000 levels (its CJSON_NESTING_LIMIT); an answer that
 * echoes items nested almost that deep is left to the UTF-8 check alone. */
enum { FUZZ_CJSON_DEPTH = 990 };

static const api_limits fuzz_limits = {
    .time_limit_ms = FUZZ_TIME_LIMIT_MS,
    .max_shuffle_items = 100000,
    .max_queens_n = 100000,
    .max_board_squares = 250000,
    .max_rank_items = 100000,
    .default_page = 1000,
};

const fuzz_endpoint fuzz_endpoints[] = {
    {"/shuffle", &shuffle_endpoint, false},
    {"/permutations", &permutations_endpoint, false},
    {"/permutation/rank", &permutation_rank_endpoint, false},
    {"/permutation/unrank", &permutation_unrank_endpoint, false},
    {"/queens", &queens_endpoint, false},
    {"/knight-tour", &knight_tour_endpoint, false},
    {"/word-ladder", &word_ladder_endpoint, false},
    {"/queens/verify", &queens_verify_endpoint, false},
    {"/knight-tour/verify", &knight_tour_verify_endpoint, false},
    {"/word-ladder/verify", &word_ladder_verify_endpoint, false},
    {"/word-ladder/neighbours", &word_ladder_neighbours_endpoint, false},
    {"/word-ladder/puzzle", &word_ladder_puzzle_endpoint, false},
    {"/combinations", &combinations_endpoint, false},
    {"/combination/rank", &combination_rank_endpoint, false},
    {"/combination/unrank", &combination_unrank_endpoint, false},
    {"/sudoku/generate", &sudoku_generate_endpoint, false},
    {"/sudoku/solve", &sudoku_solve_endpoint, true},
    {"/sudoku/check", &sudoku_check_endpoint, false},
    {"/sudoku/hint", &sudoku_hint_endpoint, false},
    {"/sudoku/explain", &sudoku_explain_endpoint, false},
    {"/healthz", &health_endpoint, false},
    {"/readyz", &readiness_endpoint, false},
    {"/openapi.yaml", &openapi_endpoint, false},
};
const size_t fuzz_endpoint_count = sizeof fuzz_endpoints / sizeof fuzz_endpoints[0];

void fuzz_require(bool ok, const char *what) {
    if (ok) return;
    fprintf(stderr, "fuzz check failed: %s\n", what);
    abort();
}

const fuzz_endpoint *fuzz_endpoint_at(const char *path) {
    for (size_t i = 0; i < fuzz_endpoint_count; i++) {
        if (strcmp(fuzz_endpoints[i].path, path) == 0) return &fuzz_endpoints[i];
    }
    fuzz_require(false, "a target names an endpoint that tests/fuzz/fuzz_request.c does not list");
    return NULL;
}

void fuzz_setup(void) {
    static bool done;
    if (done) return;
    done = true;
    /* As the server does at start-up; without the files, word-ladder requests fail with 503
     * no_dictionary unless they bring their own list, which is still worth fuzzing. */
    if (access("/usr/share/dict/words", R_OK) == 0) word_ladder_load_dictionary("/usr/share/dict/words");
    if (access("/usr/share/dict/scowl/english-words.10", R_OK) == 0)
        word_ladder_load_common_dictionary("/usr/share/dict/scowl/english-words.10");
}

/* libFuzzer calls this once before the first input, outside the per-input timeout: the dictionaries
 * take about a second to load under the sanitizers. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fuzz_setup();
    return 0;
}

/* The length of the UTF-8 sequence at s[0..len) when it is valid and complete, else 0. */
static size_t utf8_sequence(const unsigned char *s, size_t len) {
    unsigned char c = s[0];
    if (c < 0x80) return 1;
    size_t count;
    uint32_t code, min;
    if (c >= 0xc2 && c <= 0xdf) count = 2, code = c & 0x1f, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) count = 3, code = c & 0x0f, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) count = 4, code = c & 0x07, min = 0x10000;
    else return 0;
    if (count > len) return 0;
    for (size_t i = 1; i < count; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        code = code << 6 | (s[i] & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
    return count;
}

void fuzz_check_utf8(const char *text, size_t len) {
    const unsigned char *s = (const unsigned char *)text;
    for (size_t at = 0; at < len;) {
        size_t step = utf8_sequence(s + at, len - at);
        fuzz_require(step != 0, "an answer holds invalid UTF-8");
        at += step;
    }
}

/* The deepest nesting of arrays and objects in JSON-like text (brackets inside strings skipped). */
static size_t nesting_depth(const char *text, size_t len) {
    size_t depth = 0, deepest = 0;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest) deepest = depth;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return deepest;
}

/* Aborts unless text[0..len) is exactly one JSON value (surrounding whitespace allowed). */
static void check_one_value(const char *text, size_t len) {
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (doc == NULL) {
        fuzz_require(nesting_depth(text, len) >= FUZZ_CJSON_DEPTH, "an answer is not valid JSON");
        return;
    }
    cJSON_Delete(doc);
    size_t rest = (size_t)(end - text);
    while (rest < len && strchr(" \t\r\n", text[rest]) != NULL) rest++;
    fuzz_require(rest == len, "an answer has text after its JSON value");
}

void fuzz_check_json(const char *text, size_t len, bool lines) {
    fuzz_check_utf8(text, len);
    if (!lines) {
        check_one_value(text, len);
        return;
    }
    size_t start = 0;
    while (start < len) {
        const char *newline = memchr(text + start, '\n', len - start);
        fuzz_require(newline != NULL, "an NDJSON answer does not end its last line");
        size_t end = (size_t)(newline - text);
        check_one_value(text + start, end - start);
        start = end + 1;
    }
}

/* The error answer as server/request_answer.c's answer_error() writes it (api_error_write). */
static void check_error(const api_request *req) {
    const api_error *error = &req->error;
    fuzz_require(error->status != 0, "a handler failed without saying why (the server's 500 internal_error)");
    fuzz_require(error->kind != API_INTERNAL_ERROR, "a handler answered 500 internal_error");
    fuzz_require(error->code[0] != '\0' && error->message[0] != '\0', "an error without a code or message");
    json_writer text;
    bb_init(&text);
    api_error_write(error, &text);
    fuzz_require(!text.out_of_memory, "out of memory writing an error");
    fuzz_check_json(text.data, text.len, false);
    bb_free(&text);
}

static bool is_media_type(const char *content_type, const char *type) {
    return strncmp(content_type, type, strlen(type)) == 0;
}

/* Checks a body (complete when `complete`, else a cut stream's prefix) of `content_type`. */
static void check_body(const char *content_type, const char *data, size_t len, bool complete) {
    bool ndjson = is_media_type(content_type, "application/x-ndjson");
    bool json = is_media_type(content_type, "application/json");
    if (complete && (json || ndjson)) {
        fuzz_check_json(data, len, ndjson);
        return;
    }
    fuzz_check_utf8(data, len);
    if (ndjson) {
        const char *last = len > 0 ? memrchr(data, '\n', len) : NULL;
        if (last != NULL) fuzz_check_json(data, (size_t)(last - data) + 1, true);
    }
}

/* Calls the generator with the given `want` sizes (1..256 from each byte, 255 meaning 64 KiB) until
 * it is done, fails, or has produced FUZZ_MAX_STREAM_BYTES, as server/stream.c does. */
static void drain_stream(api_response *res, const uint8_t *wants, size_t want_count) {
    json_writer out;
    bb_init(&out);
    stream_status status = STREAM_MORE;
    for (size_t call = 0; status == STREAM_MORE && !out.out_of_memory && out.len < FUZZ_MAX_STREAM_BYTES; call++) {
        size_t want = 4096;
        if (want_count > 0) {
            uint8_t byte = wants[call % want_count];
            want = byte == 255 ? 65536 : (size_t)byte + 1;
        }
        status = res->stream_next(res->stream_state, &out, want);
    }
    res->stream_free(res->stream_state);
    res->stream_state = NULL;
    fuzz_require(!out.out_of_memory, "out of memory draining a stream");
    check_body(res->content_type, out.data, out.len, status == STREAM_DONE);
    bb_free(&out);
}

static void run_checked(const fuzz_endpoint *ep, api_request *req, const uint8_t *wants, size_t want_count) {
    api_response res = {.status = 200, .content_type = "application/json"};
    bb_init(&res.body);
    bool ok = fields_check(req, ep->endpoint->fields);
    if (ok) {
        if (ep->endpoint->varies != NULL) ep->endpoint->varies(req);
        ok = ep->endpoint->handler(req, &res);
        if (ok && res.body.out_of_memory) ok = api_fail_out_of_memory(req);
    }
    if (!ok) {
        if (res.stream_state != NULL) res.stream_free(res.stream_state);
        check_error(req);
    } else if (res.stream_state != NULL) {
        fuzz_require(res.body.len == 0, "a streamed answer also has a body");
        drain_stream(&res, wants, want_count);
    } else {
        check_body(res.content_type, res.body.data ? res.body.data : "", res.body.len, true);
    }
    bb_free(&res.body);
    cJSON_Delete(req->params);
}

static api_request new_request(bool ndjson) {
    api_request req = {.ndjson = ndjson, .limits = &fuzz_limits, .ready = true};
    req.time_limit = deadline_after_ms(FUZZ_TIME_LIMIT_MS);
    req.deadline = req.time_limit;
    return req;
}

void fuzz_run_params(const fuzz_endpoint *ep, cJSON *params, bool ndjson, const uint8_t *wants, size_t want_count) {
    fuzz_setup();
    api_request req = new_request(ndjson);
    req.params = params;
    if (params == NULL) return; /* out of memory building it */
    run_checked(ep, &req, wants, want_count);
}

/* Adds the query string's "k=v" pairs (a pair without '=' has no value, as libmicrohttpd reports
 * it) the way server/request_endpoint.c's add_query_argument() does. */
static bool add_query(api_request *req, const api_field *fields, const char *query, size_t len) {
    char *copy = strndup(query, len); /* cut at a NUL: libmicrohttpd's values are C strings */
    fuzz_require(copy != NULL, "out of memory");
    bool ok = true;
    char *save = NULL;
    for (char *pair = strtok_r(copy, "&", &save); ok && pair != NULL; pair = strtok_r(NULL, "&", &save)) {
        char *equals = strchr(pair, '=');
        if (equals != NULL) *equals = '\0';
        ok = fields_add_query(req, fields, pair, equals != NULL ? equals + 1 : NULL);
    }
    free(copy);
    return ok;
}

void fuzz_run(const fuzz_endpoint *ep, const fuzz_call *call) {
    fuzz_setup();
    api_request req = new_request(call->ndjson);
    /* The body as the server holds it: the bytes received, NUL-terminated by the byte buffer. */
    byte_buffer body;
    bb_init(&body);
    bool post = call->body != NULL;
    if (ep->text_body && call->text_body != NULL) {
        bb_append(&body, call->text_body, call->text_body_len);
        req.text_body = body.data ? body.data : "";
        req.text_body_len = body.len;
        post = false;
    } else if (post) {
        bb_append(&body, call->body, call->body_len);
    }
    bool ok = fields_parse_body(&req, post && body.data ? body.data : "", post ? body.len : 0);
    if (ok && call->query != NULL) ok = add_query(&req, ep->endpoint->fields, call->query, call->query_len);
    if (ok) {
        run_checked(ep, &req, call->wants, call->want_count);
    } else {
        check_error(&req);
        cJSON_Delete(req.params);
    }
    bb_free(&body);
}
