/* Integration tests of content negotiation (server/accept.h) against the real server: the form of an
 * answer follows Accept's q-values, not the names it mentions, and agrees with the 406. The reference
 * for each form is the same request with an Accept that names that form alone (or none, for JSON):
 * the negotiated answer must have its media type, its bytes and its ETag. Several Accept lines are
 * one list. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "harness.h"

#define JSON "application/json"
#define NDJSON "application/x-ndjson"
#define EVENTS "text/event-stream"

/* `method` `path` with the header lines `lines` (NULL-terminated, at most three) and, for a POST,
 * `body` (sent as text/plain when `text_body`). */
static http_result ask(const char *method, const char *path, const char *body, bool text_body,
                       const char *const *lines) {
    const char *headers[5] = {NULL};
    size_t n = 0;
    if (text_body) headers[n++] = "Content-Type: text/plain";
    for (const char *const *line = lines; line != NULL && *line != NULL; line++) {
        cr_assert_lt(n, 4);
        headers[n++] = *line;
    }
    return http_request(server_url(), method, path, body, headers);
}

/* The media type of an answer, without its parameters (malloc'd). */
static char *media_type(const http_result *r) {
    char *type = http_header(r, "Content-Type");
    cr_assert_not_null(type);
    type[strcspn(type, "; ")] = '\0';
    return type;
}

/* Asserts that `got` is a 200 of media type `type` with the bytes and the ETag of `reference`. */
static void expect_form(const http_result *got, const http_result *reference, const char *type, const char *what) {
    cr_assert_eq(got->status, 200, "%s: status %ld: %s", what, got->status, got->body);
    cr_assert_eq(reference->status, 200, "%s: the reference's status %ld", what, reference->status);
    char *got_type = media_type(got), *reference_type = media_type(reference);
    cr_assert_str_eq(got_type, type, "%s", what);
    cr_assert_str_eq(reference_type, type, "%s: the reference", what);
    cr_assert_eq(got->body_len, reference->body_len, "%s: %zu bytes, the reference %zu", what, got->body_len,
                 reference->body_len);
    cr_assert_eq(memcmp(got->body, reference->body, got->body_len), 0, "%s: %s", what, got->body);
    char *got_tag = http_header(got, "ETag"), *reference_tag = http_header(reference, "ETag");
    if (got_tag != NULL || reference_tag != NULL) {
        cr_assert(got_tag != NULL && reference_tag != NULL && strcmp(got_tag, reference_tag) == 0,
                  "%s: ETag %s, the reference's %s", what, got_tag, reference_tag);
    }
    free(got_type);
    free(reference_type);
    free(got_tag);
    free(reference_tag);
}

/* GET `path` with `lines` must be the form of GET `path` with `reference_lines`. */
static void expect_get_form(const char *path, const char *const *lines, const char *const *reference_lines,
                            const char *type) {
    http_result got = ask("GET", path, NULL, false, lines);
    http_result reference = ask("GET", path, NULL, false, reference_lines);
    expect_form(&got, &reference, type, lines[0]);
    http_result_free(&got);
    http_result_free(&reference);
}

#define LINES(...) ((const char *const[]){__VA_ARGS__, NULL})
static const char *const *const no_accept = (const char *const[]){NULL};

Test(content_negotiation, a_list_takes_the_form_of_highest_q) {
    const char *path = "/permutations?text=abc";
    const char *const *ndjson_alone = LINES("Accept: " NDJSON);
    expect_get_form(path, LINES("Accept: application/json;q=0, application/*"), ndjson_alone, NDJSON);
    expect_get_form(path, LINES("Accept: application/x-ndjson;q=0, application/json"), no_accept, JSON);
    expect_get_form(path, LINES("Accept: application/json;q=0.4, application/x-ndjson;q=0.5"), ndjson_alone, NDJSON);
    expect_get_form(path, LINES("Accept: application/json;q=0.9, application/x-ndjson;q=0.5"), no_accept, JSON);
    expect_get_form(path, LINES("Accept: application/*, application/x-ndjson"), ndjson_alone, NDJSON);
    expect_get_form(path, LINES("Accept: application/x-ndjson, application/json"), no_accept, JSON);
    expect_get_form(path, LINES("Accept: */*"), no_accept, JSON);
}

Test(content_negotiation, several_accept_lines_are_one_list) {
    const char *path = "/permutations?text=abcd";
    expect_get_form(path, LINES("Accept: application/json;q=0", "Accept: */*"), LINES("Accept: " NDJSON), NDJSON);
    expect_get_form(path, LINES("Accept: application/x-ndjson;q=0", "Accept: application/*"), no_accept, JSON);
    http_result refused = ask("GET", "/healthz", NULL, false, LINES("Accept: */*", "Accept: application/json;q=0"));
    expect_error_details(refused, 406, "not_acceptable", "{\"available\":[\"application/json\"]}");
}

/* The data of an event stream's result event (one line here), malloc'd. */
static char *result_event_data(const http_result *r) {
    const char *head = "event: result\ndata: ";
    const char *at = strstr(r->body, head);
    cr_assert_not_null(at, "no result event in %s", r->body);
    at += strlen(head);
    size_t len = strcspn(at, "\n");
    char *data = malloc(len + 1);
    cr_assert_not_null(data);
    memcpy(data, at, len);
    data[len] = '\0';
    return data;
}

Test(content_negotiation, events_only_where_accept_prefers_them) {
    const char *path = "/permutation/rank?permutation=3,1,2,5,4";
    expect_get_form(path, LINES("Accept: text/event-stream;q=0, */*"), no_accept, JSON);
    expect_get_form(path, LINES("Accept: text/event-stream;q=0.5, application/json"), no_accept, JSON);
    http_result plain = ask("GET", path, NULL, false, no_accept);
    cr_assert_eq(plain.status, 200);
    const char *const *preferring_events[] = {LINES("Accept: text/event-stream, */*;q=0.1"),
                                              LINES("Accept: */*, text/event-stream"), LINES("Accept: text/*")};
    for (size_t i = 0; i < sizeof preferring_events / sizeof preferring_events[0]; i++) {
        http_result events = ask("GET", path, NULL, false, preferring_events[i]);
        cr_assert_eq(events.status, 200, "%s: %ld", preferring_events[i][0], events.status);
        char *type = media_type(&events), *data = result_event_data(&events);
        cr_assert_str_eq(type, EVENTS, "%s", preferring_events[i][0]);
        cr_assert_str_eq(data, plain.body, "%s: the result event holds the plain answer", preferring_events[i][0]);
        free(type);
        free(data);
        http_result_free(&events);
    }
    http_result_free(&plain);
}

Test(content_negotiation, bulk_sudoku_text_lines_by_q) {
    const char *path = "/sudoku/solve", *body = "................\n1234341221434321\n";
    const char *const cases[][2] = {
        {"Accept: text/plain;q=0, */*", NULL},    /* the bulk answer's default: NDJSON */
        {"Accept: text/*", "Accept: text/plain"}, /* text lines before events, as the route lists them */
        {"Accept: application/x-ndjson;q=0.5, text/plain;q=0.6", "Accept: text/plain"},
        {"Accept: application/x-ndjson;q=0.6, text/plain;q=0.5", "Accept: " NDJSON},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        http_result got = ask("POST", path, body, true, LINES(cases[i][0]));
        http_result reference = ask("POST", path, body, true, cases[i][1] != NULL ? LINES(cases[i][1]) : no_accept);
        char *type = media_type(&reference);
        expect_form(&got, &reference, type, cases[i][0]);
        free(type);
        http_result_free(&got);
        http_result_free(&reference);
    }
}

Test(content_negotiation, parameters_do_not_refuse_what_they_do_not_choose_by) {
    http_result charset = ask("GET", "/healthz", NULL, false, LINES("Accept: application/json; charset=utf-8"));
    cr_assert_eq(charset.status, 200, "%s", charset.body);
    http_result_free(&charset);
    http_result excluded =
        ask("GET", "/healthz", NULL, false, LINES("Accept: application/json;charset=utf-8, application/json;q=0"));
    expect_error_details(excluded, 406, "not_acceptable", "{\"available\":[\"application/json\"]}");
}
