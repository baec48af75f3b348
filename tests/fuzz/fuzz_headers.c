/* Fuzz target: the server's own parsers of request headers and flags, the text that reaches server/
 * before any endpoint runs: Accept-Encoding q-values (compression_preference), Accept's media ranges
 * against a route's types (accept_ranking: no q above 1, the choice one of the highest q),
 * If-None-Match lists (etag_matches), X-Request-Id (request_id_choose), the path made printable for
 * logs and errors (printable_ascii), and the --trusted-proxy list of addresses and CIDR ranges
 * (clients_create).
 * Input: byte 0 picks the parser; the rest is the header value or flag, NUL-terminated here as
 * libmicrohttpd hands values over. Each answer is checked against what its header promises. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_request.h"
#include "server/accept.h"
#include "server/clients.h"
#include "server/compression.h"
#include "server/etag.h"
#include "server/printable.h"
#include "server/request_id.h"

enum { ACCEPT_ENCODING, IF_NONE_MATCH, REQUEST_ID, PRINTABLE, TRUSTED_PROXIES, ACCEPT, PARSER_COUNT };

/* A route's list (server/routes.c's /sudoku/solve), and types with parameters. */
static const char *const media[] = {
    "application/json", "application/x-ndjson",     "text/plain",        "text/event-stream",
    "image/svg+xml",    "text/plain;format=flowed", "text/html;level=1", NULL};

static void check_accept(const char *text) {
    accept_ranking ranking;
    accept_ranking_start(&ranking, media);
    accept_ranking_read(&ranking, text);
    int chosen = accept_ranking_choice(&ranking, ACCEPT_AMONG_ALL);
    unsigned highest = 0;
    for (size_t i = 0; i < ranking.count; i++) {
        unsigned quality = accept_ranking_quality(&ranking, i);
        fuzz_require(quality <= ACCEPT_Q_ONE, "a q above 1");
        if (quality > highest) highest = quality;
    }
    fuzz_require(chosen < (int)ranking.count, "a choice outside the list");
    fuzz_require(chosen >= 0 ? accept_ranking_quality(&ranking, (size_t)chosen) == highest : highest == 0,
                 "the choice is not a type of the highest q");
    int among_two = accept_ranking_choice(&ranking, 0x3);
    fuzz_require(among_two < 2, "a choice outside the types it was among");
}

static const char tag[] = "\"0123456789abcdef0123456789abcdef\"";

static void check_printable(const char *text, size_t size) {
    size_t length = strnlen(text, size);
    fuzz_require(length < size, "printable text is not NUL-terminated within its buffer");
    for (size_t i = 0; i < length; i++)
        fuzz_require(text[i] >= 0x20 && text[i] < 0x7f, "a byte outside printable ASCII was kept");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    char *text = malloc(size);
    if (text == NULL) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    switch (data[0] % PARSER_COUNT) {
    case ACCEPT_ENCODING: {
        coding_preference preference = compression_preference(text);
        fuzz_require(preference.gzip <= 1000 && preference.identity <= 1000, "a q-value above 1");
        break;
    }
    case IF_NONE_MATCH: {
        bool matches = etag_matches(text, tag);
        if (strcmp(text, tag) == 0 || strcmp(text, "*") == 0) fuzz_require(matches, "the tag itself did not match");
        if (strstr(text, "0123456789abcdef0123456789abcdef") == NULL && strchr(text, '*') == NULL)
            fuzz_require(!matches, "a list without the tag matched it");
        break;
    }
    case REQUEST_ID: {
        static bool started;
        if (!started) request_id_start();
        started = true;
        char id[REQUEST_ID_MAX_LENGTH + 1];
        request_id_choose(id, text);
        check_printable(id, sizeof id);
        fuzz_require(id[0] != '\0', "an empty request id");
        for (const char *c = id; *c != '\0'; c++)
            fuzz_require(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-", *c) != NULL,
                         "a request id character that is not safe to echo");
        break;
    }
    case PRINTABLE: {
        char out[80];
        printable_ascii(out, sizeof out, text);
        check_printable(out, sizeof out);
        break;
    }
    case ACCEPT: check_accept(text); break;
    case TRUSTED_PROXIES: {
        clients_config config = {.trusted_proxies = text, .rate_per_second = 1, .burst = 1};
        clients *table = clients_create(&config); /* a malformed list is NULL, with a message */
        if (table != NULL) clients_destroy(table);
        break;
    }
    }
    free(text);
    return 0;
}
