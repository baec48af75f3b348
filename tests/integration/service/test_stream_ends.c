/* Integration tests of how a stream that stops early ends: an NDJSON stream stopped by its time limit
 * ends with one last line {"error": {...}}, after whole lines only, so a reader tells a stop from a
 * dropped connection; a JSON array stopped the same way stays a cut chunked transfer (a closing text
 * would make a partial array read as a complete, shorter answer). The stop is made certain: the
 * client stops reading at its first bytes until the request's time limit has passed, so the server,
 * which generates only as the socket takes more, must call the generator again after the limit, and
 * the 8-queens-like listing asked for (all 39,029,188,884 solutions of n = 20) cannot have ended. */
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

enum {
    TIME_LIMIT_MS = 8000, /* for the stream to start on a busy machine (2 s was short under ASan at load 20) */
    PAUSE_MS = 10000,     /* the reader's pause at its first bytes: past the time limit for sure */
    TAIL_BYTES = 16384    /* the end of the body kept: the error line and the lines before it */
};

typedef struct paused_reader {
    bool paused;
    char tail[TAIL_BYTES + 1];
    size_t len;
} paused_reader;

/* Keeps the last TAIL_BYTES of the body; sleeps through PAUSE_MS at the first bytes. */
static size_t read_after_a_pause(char *data, size_t size, size_t count, void *user) {
    paused_reader *reader = user;
    size_t n = size * count;
    if (!reader->paused) {
        reader->paused = true;
        usleep(PAUSE_MS * 1000);
    }
    const char *from = n > TAIL_BYTES ? data + n - TAIL_BYTES : data;
    size_t take = n > TAIL_BYTES ? TAIL_BYTES : n;
    if (reader->len + take > TAIL_BYTES) {
        size_t drop = reader->len + take - TAIL_BYTES;
        memmove(reader->tail, reader->tail + drop, reader->len - drop);
        reader->len -= drop;
    }
    memcpy(reader->tail + reader->len, from, take);
    reader->len += take;
    reader->tail[reader->len] = '\0';
    return n;
}

/* POSTs the all-solutions listing of n = 20 (for JSON, with the largest limit: past a default page)
 * with TIME_LIMIT_MS and reads it after a pause; returns curl's result, with the status in *status. */
static CURLcode list_after_a_pause(const char *accept, paused_reader *reader, long *status) {
    char url[256], body[128];
    snprintf(url, sizeof url, "%s/queens", server_url());
    snprintf(body, sizeof body, "{\"n\": 20, \"limit\": 9007199254740991, \"time_limit_ms\": %d}", TIME_LIMIT_MS);
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(NULL, accept);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, read_after_a_pause);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, reader);
    CURLcode result = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return result;
}

Test(stream_ends, an_ndjson_stream_stopped_by_its_time_limit_ends_with_an_error_line, .timeout = 60) {
    paused_reader reader = {0};
    long status = 0;
    CURLcode result = list_after_a_pause("Accept: application/x-ndjson", &reader, &status);
    cr_assert_eq(result, CURLE_OK, "the stream did not end cleanly: %s", curl_easy_strerror(result));
    cr_assert_eq(status, 200);
    cr_assert(reader.len > 0 && reader.tail[reader.len - 1] == '\n', "the body does not end with a whole line");
    reader.tail[reader.len - 1] = '\0';
    char *last = strrchr(reader.tail, '\n');
    cr_assert_not_null(last, "no line before the last one in the body's end: %s", reader.tail);
    *last = '\0';
    cJSON *error_line = cJSON_Parse(last + 1);
    cr_assert_not_null(error_line, "the last line is not JSON: %s", last + 1);
    const cJSON *error = cJSON_GetObjectItemCaseSensitive(error_line, "error");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(error, "code");
    cr_assert(cJSON_IsString(code) && strcmp(code->valuestring, "deadline_exceeded") == 0,
              "the last line is not a deadline_exceeded error: %s", last + 1);
    cJSON_Delete(error_line);
    /* the line before it is a whole solution: the failing call's partial output was dropped */
    char *before = strrchr(reader.tail, '\n');
    cJSON *solution = cJSON_Parse(before != NULL ? before + 1 : reader.tail);
    cr_assert(cJSON_IsArray(solution) && cJSON_GetArraySize(solution) == 20,
              "the line before the error line is not a solution of 20 queens: %s", before ? before + 1 : "");
    cJSON_Delete(solution);
}

Test(stream_ends, a_json_array_stopped_by_its_time_limit_is_a_cut_transfer, .timeout = 60) {
    paused_reader reader = {0};
    long status = 0;
    CURLcode result = list_after_a_pause("Accept: application/json", &reader, &status);
    cr_assert_eq(status, 200);
    cr_assert_neq(result, CURLE_OK, "a JSON array stopped by its time limit ended as a complete transfer");
    cr_assert_null(strstr(reader.tail, "\"error\""), "a JSON array must not end with an error text");
}
