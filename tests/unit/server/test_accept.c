/* Content negotiation by Accept (server/accept.h): each type's q against RFC 9110 section 12.5.1's
 * own examples (its table as erratum 7138 corrects it), q=0, wildcards, precedence, case and
 * parameters; and the choice of an answer's form on the header values browsers, curl, Prometheus,
 * EventSource and the TypeScript client send, and on the cases where an Accept read by substring
 * chose another form than its q-values say. */
#include <criterion/criterion.h>

#include "server/accept.h"

/* The q, in thousandths, that the Accept lines (NULL-terminated) give `type`, ranked alone. */
static unsigned quality_of_lines(const char *const *lines, const char *type) {
    const char *const types[] = {type, NULL};
    accept_ranking ranking;
    accept_ranking_start(&ranking, types);
    for (const char *const *line = lines; *line != NULL; line++) accept_ranking_read(&ranking, *line);
    return accept_ranking_quality(&ranking, 0);
}

/* The q that one Accept line (or none: NULL) gives `type`. */
static unsigned quality(const char *accept, const char *type) {
    const char *const lines[] = {accept, NULL};
    return quality_of_lines(lines, type);
}

/* The type chosen of `types` (among those whose bit is set in `among`) under one Accept line (or
 * none: NULL), or NULL when it refuses them all. */
static const char *choice_among(const char *accept, const char *const *types, unsigned among) {
    accept_ranking ranking;
    accept_ranking_start(&ranking, types);
    if (accept != NULL) accept_ranking_read(&ranking, accept);
    int chosen = accept_ranking_choice(&ranking, among);
    return chosen < 0 ? NULL : types[chosen];
}

static const char *choice(const char *accept, const char *const *types) {
    return choice_among(accept, types, ACCEPT_AMONG_ALL);
}

#define JSON "application/json"
#define NDJSON "application/x-ndjson"
#define EVENTS "text/event-stream"
#define SVG "image/svg+xml"
#define TEXT "text/plain"

/* server/routes.c's lists. */
static const char *const json_only[] = {JSON, NULL};
static const char *const json_lines[] = {JSON, NDJSON, NULL};
static const char *const json_events[] = {JSON, EVENTS, NULL};
static const char *const boards[] = {JSON, NDJSON, EVENTS, SVG, NULL};
static const char *const sudoku_solve[] = {JSON, NDJSON, TEXT, EVENTS, SVG, NULL};

#define RFC_TABLE_ACCEPT \
    "text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5"

Test(accept, rfc_9110_quality_table) {
    /* section 12.5.1's table, text/html;level=3 as erratum 7138 has it: text/star decides it, 0.3 */
    cr_assert_eq(quality(RFC_TABLE_ACCEPT, "text/plain;format=flowed"), 1000);
    cr_assert_eq(quality(RFC_TABLE_ACCEPT, "text/plain"), 700);
    cr_assert_eq(quality(RFC_TABLE_ACCEPT, "text/html"), 300);
    cr_assert_eq(quality(RFC_TABLE_ACCEPT, "image/jpeg"), 500);
    cr_assert_eq(quality(RFC_TABLE_ACCEPT, "text/plain;format=fixed"), 400);
    cr_assert_eq(quality(RFC_TABLE_ACCEPT, "text/html;level=3"), 300);
    /* precedence, not order, decides: the same ranges the other way round */
    const char *reversed = "*/*;q=0.5, text/plain;format=fixed;q=0.4, text/plain;format=flowed, text/plain;q=0.7, "
                           "text/*;q=0.3";
    cr_assert_eq(quality(reversed, "text/plain;format=flowed"), 1000);
    cr_assert_eq(quality(reversed, "text/plain"), 700);
    cr_assert_eq(quality(reversed, "text/html"), 300);
    cr_assert_eq(quality(reversed, "text/plain;format=fixed"), 400);
    /* the example folded over two lines, as the RFC prints it: one list */
    const char *const folded[] = {"text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed",
                                  "text/plain;format=fixed;q=0.4, */*;q=0.5", NULL};
    cr_assert_eq(quality_of_lines(folded, "text/plain"), 700);
    cr_assert_eq(quality_of_lines(folded, "image/jpeg"), 500);
}

Test(accept, rfc_9110_precedence_and_examples) {
    /* "text/star, text/plain, text/plain;format=flowed, star/star" in precedence order, told apart by q */
    const char *graded = "text/*;q=0.1, text/plain;q=0.2, text/plain;format=flowed;q=0.3, */*;q=0.4";
    cr_assert_eq(quality(graded, "text/plain;format=flowed"), 300);
    cr_assert_eq(quality(graded, "text/plain"), 200);
    cr_assert_eq(quality(graded, "text/html"), 100);
    cr_assert_eq(quality(graded, "image/png"), 400);
    /* "audio/star; q=0.2, audio/basic": audio/basic preferred, any other audio type at 0.2 */
    cr_assert_eq(quality("audio/*; q=0.2, audio/basic", "audio/basic"), 1000);
    cr_assert_eq(quality("audio/*; q=0.2, audio/basic", "audio/ogg"), 200);
    cr_assert_eq(quality("audio/*; q=0.2, audio/basic", "video/mp4"), 0);
    /* "text/plain; q=0.5, text/html, text/x-dvi; q=0.8, text/x-c": text/html and text/x-c equally
     * preferred, then text/x-dvi, then text/plain */
    const char *example = "text/plain; q=0.5, text/html,\ttext/x-dvi; q=0.8, text/x-c";
    const char *const offered[] = {"text/plain", "text/x-dvi", "text/x-c", "text/html", NULL};
    cr_assert_str_eq(choice(example, offered), "text/x-c", "a tie goes to the first offered");
    cr_assert_str_eq(choice(example, offered + 3), "text/html");
    const char *const no_best[] = {"text/plain", "text/x-dvi", NULL};
    cr_assert_str_eq(choice(example, no_best), "text/x-dvi");
}

Test(accept, q_zero_excludes) {
    cr_assert_eq(quality("application/json;q=0", JSON), 0);
    cr_assert_eq(quality("application/json; q=0.0", JSON), 0);
    cr_assert_eq(quality("application/json;Q=0.000", JSON), 0);
    cr_assert_eq(quality("application/json;q=0.", JSON), 0);
    cr_assert_eq(quality("*/*;q=0", JSON), 0);
    cr_assert_eq(quality("text/*;q=0, */*", "text/html"), 0, "a wildcard's q=0 over star/star");
    cr_assert_eq(quality("text/*;q=0, */*", "image/png"), 1000);
    cr_assert_eq(quality("*/*, application/json;q=0", JSON), 0, "the most specific range decides");
    cr_assert_eq(quality("*/*;q=0, application/json", JSON), 1000);
    cr_assert_eq(quality("application/*;q=0, application/json;q=0.1", JSON), 100);
    cr_assert_null(choice("application/json;q=0", json_only));
    cr_assert_null(choice("*/*;q=0", boards));
}

Test(accept, qvalues) {
    cr_assert_eq(quality("application/json;q=0.001", JSON), 1, "a small q is not zero");
    cr_assert_eq(quality("application/json;q=0.5", JSON), 500);
    cr_assert_eq(quality("application/json;q=0.25", JSON), 250);
    cr_assert_eq(quality("application/json;q=1", JSON), 1000);
    cr_assert_eq(quality("application/json;q=1.000", JSON), 1000);
    /* what is not a qvalue counts as 1 */
    cr_assert_eq(quality("application/json;q=", JSON), 1000);
    cr_assert_eq(quality("application/json;q=2", JSON), 1000);
    cr_assert_eq(quality("application/json;q=0.0001", JSON), 1000);
    cr_assert_eq(quality("application/json;q=zero", JSON), 1000);
    cr_assert_eq(quality("application/json;q=-1", JSON), 1000);
}

Test(accept, wildcards_and_names) {
    cr_assert_eq(quality(NULL, JSON), 1000, "no Accept");
    cr_assert_eq(quality("", JSON), 1000, "an empty one");
    cr_assert_eq(quality(" , ,\t", JSON), 1000, "no media range at all");
    cr_assert_eq(quality("*/*", JSON), 1000, "curl's");
    cr_assert_eq(quality("application/*", JSON), 1000);
    cr_assert_eq(quality("text/*", JSON), 0);
    cr_assert_eq(quality("application/xml", JSON), 0);
    cr_assert_eq(quality("application/jsonx", JSON), 0, "no prefix match");
    cr_assert_eq(quality("application/json-seq", JSON), 0, "no prefix match");
    cr_assert_eq(quality("application", JSON), 0, "a main type alone names nothing");
    cr_assert_eq(quality("*/json", JSON), 0, "no wildcard main type under a subtype");
    cr_assert_eq(quality("application/json garbage, text/x", JSON), 1000, "what does not parse ends the range");
    cr_assert_eq(quality("\tapplication/json ; q=0.5 ", JSON), 500, "spaces and tabs around");
}

Test(accept, without_case) {
    cr_assert_eq(quality("Application/JSON", JSON), 1000);
    cr_assert_eq(quality("APPLICATION/*;Q=0.5", JSON), 500);
    cr_assert_eq(quality("TEXT/Plain;FORMAT=Flowed;q=0.5, text/plain;q=0.1", "text/plain;format=flowed"), 500);
}

Test(accept, parameters) {
    cr_assert_eq(quality("text/plain;format=fixed", "text/plain;format=flowed"), 0, "another value");
    cr_assert_eq(quality("text/plain;format=\"flowed\";q=0.5", "text/plain;format=flowed"), 500, "quoted");
    cr_assert_eq(quality("text/plain;q=0.5;format=fixed", "text/plain;format=flowed"), 500,
                 "after the weight: not the media type's");
    cr_assert_eq(quality("text/plain;x=\"a,b;q=0\";q=0.3, image/png", "text/plain"), 300, "a comma quoted");
    cr_assert_eq(quality("text/plain;x=\"a\\\"b,c\";q=0.3, image/png", "image/png"), 1000, "a quote escaped");
    cr_assert_eq(quality("text/plain;format=flowed;q=0, text/plain", "text/plain"), 1000,
                 "a range with a parameter the type lacks does not apply while another does");
    cr_assert_eq(quality("*/*;q=0.2, text/plain;format=flowed", "text/plain"), 200);
    /* where no other applies, it still counts: a client's charset does not refuse JSON */
    cr_assert_eq(quality("application/json;charset=utf-8", JSON), 1000);
    cr_assert_eq(quality("application/json;charset=utf-8;q=0", JSON), 0);
    cr_assert_eq(quality("application/json;q=0, application/json;charset=utf-8", JSON), 0);
    /* Prometheus's scrape, against the type its exposition carries */
    const char *scrape = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    cr_assert_eq(quality(scrape, "text/plain;version=0.0.4"), 500);
    cr_assert_eq(quality(scrape, "text/plain"), 100);
    cr_assert_eq(quality("text/plain;a=1;q=0.2, text/plain;a=1;b=2;q=0.7", "text/plain;a=1;b=2"), 700,
                 "the more parameters met, the higher");
}

Test(accept, several_lines_are_one_list) {
    const char *const split[] = {"application/json;q=0", "*/*", NULL};
    cr_assert_eq(quality_of_lines(split, JSON), 0);
    cr_assert_eq(quality_of_lines(split, NDJSON), 1000);
    const char *const twice[] = {"application/json;q=0.5", "application/json;q=0.9", NULL};
    cr_assert_eq(quality_of_lines(twice, JSON), 500, "of equal ranges the first decides");
}

Test(accept, the_usual_values_keep_their_forms) {
    cr_assert_str_eq(choice(NULL, json_lines), JSON, "no Accept (curl)");
    cr_assert_str_eq(choice("*/*", boards), JSON, "fetch's and curl's -H 'Accept: */*'");
    cr_assert_str_eq(choice("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", sudoku_solve), JSON,
                     "a browser's navigation");
    cr_assert_str_eq(choice("application/x-ndjson", json_lines), NDJSON);
    cr_assert_str_eq(choice("text/event-stream", json_events), EVENTS, "EventSource");
    cr_assert_str_eq(choice("text/event-stream, */*;q=0.1", boards), EVENTS, "the TypeScript client's progress()");
    cr_assert_str_eq(choice("text/event-stream, */*;q=0.1", json_lines), JSON, "... on a path without progress");
    cr_assert_str_eq(choice("text/plain", sudoku_solve), TEXT);
    cr_assert_str_eq(choice("text/*", sudoku_solve), TEXT, "text lines before events, as listed");
    cr_assert_null(choice("application/xml", json_lines));
    cr_assert_null(choice("text/event-stream", json_lines), "events where none are made");
}

Test(accept, the_form_follows_q_not_names) {
    cr_assert_str_eq(choice("application/json;q=0, application/*", json_lines), NDJSON);
    cr_assert_str_eq(choice("application/x-ndjson;q=0, application/json", json_lines), JSON);
    cr_assert_str_eq(choice("application/x-ndjson;q=0.5, application/json;q=0.4", json_lines), NDJSON);
    cr_assert_str_eq(choice("application/json;q=0.9, application/x-ndjson;q=0.5", json_lines), JSON);
    cr_assert_str_eq(choice("text/event-stream;q=0, */*", json_events), JSON);
    cr_assert_str_eq(choice("text/event-stream;q=0.5, application/json", json_events), JSON);
    cr_assert_str_eq(choice("text/plain;q=0, */*", sudoku_solve), JSON);
    /* of equal q: the more specific range, then the route's order */
    cr_assert_str_eq(choice("application/*, application/x-ndjson", json_lines), NDJSON);
    cr_assert_str_eq(choice("application/x-ndjson, application/json", json_lines), JSON);
    cr_assert_str_eq(choice("*/*, text/event-stream", boards), EVENTS);
}

Test(accept, a_choice_among_some_types) {
    unsigned by_accept = 0x7; /* JSON, NDJSON and events of `boards`: SVG comes with `format` */
    cr_assert_str_eq(choice("image/svg+xml, application/x-ndjson;q=0.5", boards), SVG);
    cr_assert_str_eq(choice_among("image/svg+xml, application/x-ndjson;q=0.5", boards, by_accept), NDJSON);
    cr_assert_str_eq(choice("image/svg+xml", boards), SVG);
    cr_assert_null(choice_among("image/svg+xml", boards, by_accept));
    cr_assert_str_eq(choice_among(NULL, boards, by_accept), JSON);
    cr_assert_str_eq(choice_among("*/*", boards, 0x2), NDJSON);
}
