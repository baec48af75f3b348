/* Accept matching for the 406 (server/accept.h), on the header values browsers, curl, Prometheus,
 * EventSource and the client send, and on RFC 9110 section 12.5.1's precedence of media ranges. */
#include <criterion/criterion.h>

#include "server/accept.h"

Test(accept, no_header_or_any_range_accepts_everything) {
    cr_assert(accept_allows(NULL, "application/json"));
    cr_assert(accept_allows("", "application/json"));
    cr_assert(accept_allows("*/*", "application/json"), "curl's default");
    cr_assert(accept_allows(" , ", "application/json"), "no media range at all");
    cr_assert(accept_allows("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "application/json"),
              "a browser's navigation");
    cr_assert(accept_allows("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
                            "text/plain"),
              "Prometheus's scrape");
    cr_assert(accept_allows("text/event-stream", "text/event-stream"), "EventSource");
    cr_assert(accept_allows("image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", "image/svg+xml"),
              "an <img>");
}

Test(accept, a_type_named_or_under_its_wildcard_is_accepted) {
    cr_assert(accept_allows("application/x-ndjson", "application/x-ndjson"));
    cr_assert(accept_allows("Application/JSON", "application/json"), "types compare without case");
    cr_assert(accept_allows("application/*", "application/json"));
    cr_assert(accept_allows("text/plain, application/json;q=0.5", "application/json"));
    cr_assert(accept_allows("application/json;charset=utf-8", "application/json"), "a parameter other than q");
    cr_assert(accept_allows("application/json;q=0.001", "application/json"), "a small q is not zero");
    cr_assert(accept_allows("application/json;q=", "application/json"), "a q with no value is ignored");
    cr_assert(accept_allows("\tapplication/json ; q=1 ", "application/json"), "spaces and tabs around");
}

Test(accept, a_type_excluded_or_not_named_is_refused) {
    cr_assert_not(accept_allows("application/xml", "application/json"));
    cr_assert_not(accept_allows("application/json;q=0", "application/json"));
    cr_assert_not(accept_allows("application/json; q=0.0", "application/json"));
    cr_assert_not(accept_allows("application/json;Q=0.000", "application/json"));
    cr_assert_not(accept_allows("text/*", "application/json"));
    cr_assert_not(accept_allows("application/jsonx", "application/json"), "no prefix match");
    cr_assert_not(accept_allows("application/json-seq", "application/json"), "no prefix match");
    cr_assert_not(accept_allows("application", "application/json"), "a main type alone names nothing");
    cr_assert_not(accept_allows("*/*;q=0", "application/json"));
}

Test(accept, the_most_specific_range_decides) {
    cr_assert_not(accept_allows("*/*, application/json;q=0", "application/json"));
    cr_assert(accept_allows("*/*;q=0, application/json", "application/json"));
    cr_assert_not(accept_allows("application/*;q=0, text/plain", "application/json"));
    cr_assert(accept_allows("application/*;q=0, application/json;q=0.1", "application/json"));
    cr_assert(accept_allows("application/*;q=0, */*", "text/html"), "text/html matches only */*");
}

Test(accept, any_of_a_routes_types) {
    const char *const list[] = {"application/json", "application/x-ndjson", NULL};
    cr_assert(accept_allows_any("application/x-ndjson", list));
    cr_assert(accept_allows_any(NULL, list));
    cr_assert_not(accept_allows_any("application/json;q=0", list), "JSON excluded, NDJSON not named");
    cr_assert(accept_allows_any("application/json;q=0, application/*", list), "NDJSON under its wildcard");
    cr_assert_not(accept_allows_any("text/event-stream", list));
}
