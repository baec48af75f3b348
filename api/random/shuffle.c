/* /shuffle: uniformly random orderings of `items` (any JSON values) or of the integers start..start+n-1,
 * replayable from a seed or drawn from the OS CSPRNG (`secure`), `count` independent shuffles from one
 * generator stream; or, instead of whole orderings, a `sample` of k drawn without replacement, a
 * `derangement` (no item left in place) or a single `cycle`. Small answers are built whole; large
 * ones stream, one shuffle computed at a time. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"
#include "api/params.h"
#include "api/random/shuffle.h"
#include "api/seed.h"
#include "core/random/rng.h"
#include "core/random/sample.h"
#include "core/random/shuffle.h"

enum { SMALL_OUTPUT_VALUES = 4096 }; /* count * n at or below which the body is built whole */

static const api_field fields[] = {
    {"items", FIELD_ARRAY},
    {"n", FIELD_INTEGER},
    {"start", FIELD_INTEGER},
    {"seed", FIELD_BIG_INTEGER},
    {"secure", FIELD_BOOLEAN},
    {"count", FIELD_INTEGER},
    {"algorithm", FIELD_STRING},
    {"sample", FIELD_INTEGER},
    {"derangement", FIELD_BOOLEAN},
    {"cycle", FIELD_BOOLEAN},
    {NULL, 0},
};

static const char *const algorithm_names[] = {"fisher-yates", "inside-out", "naive", NULL};
static const shuffle_algorithm algorithms[] = {SHUFFLE_FISHER_YATES, SHUFFLE_INSIDE_OUT, SHUFFLE_NAIVE};

typedef enum output_phase { PHASE_OPEN, PHASE_NEXT_SHUFFLE, PHASE_VALUES } output_phase;

/* Everything a response needs, owned by the stream (or freed after building a small body). */
typedef struct shuffle_output {
    shuffle_algorithm algorithm;
    bool sampling; /* draw `length` of the n values without replacement instead */
    rng generator;
    deadline limit;
    size_t n;
    size_t length;          /* values per shuffle: n, or the sample size */
    int64_t start;          /* n mode: the first value */
    json_writer item_texts; /* items mode: the compact JSON of every item, back to back */
    size_t *item_offsets;   /* items mode: item k is item_texts[offsets[k], offsets[k+1]); else NULL */
    uint32_t *perm;         /* the current shuffle */
    uint64_t count, computed, written;
    size_t position; /* next value of the current shuffle to write */
    output_phase phase;
    /* The JSON around the values: the answer opened with its kind (none in NDJSON), open, then per
     * shuffle [separator] shuffle_open values shuffle_close, then close. */
    const char *kind;
    char open[128], shuffle_open[128];
    const char *separator, *shuffle_close, *close;
} shuffle_output;

static void free_output(void *state) {
    shuffle_output *s = state;
    explicit_bzero(&s->generator, sizeof s->generator); /* a secure generator's key */
    bb_free(&s->item_texts);
    free(s->item_offsets);
    free(s->perm);
    free(s);
}

static bool compute_next_shuffle(shuffle_output *s) {
    core_status status = s->sampling ? shuffle_sample(&s->generator, s->perm, s->n, s->length, &s->limit)
                                     : shuffle_permutation(s->algorithm, &s->generator, s->perm, s->n, &s->limit);
    if (status != CORE_OK) return false;
    s->computed++;
    return true;
}

/* n mode: the values start + perm[k], formatted straight into `out` in runs reserved at once. */
static void write_numbers(shuffle_output *s, json_writer *out, size_t begin, size_t want) {
    enum {
        MOST_BYTES = 2 + JW_UINT_MAX_DIGITS,
        RUN = API_STREAM_RUN_BYTES / MOST_BYTES
    }; /* a value: a comma,
                                                                                       a minus sign, the digits */
    while (s->position < s->length && out->len - begin < want) {
        if (!bb_reserve(out, RUN * MOST_BYTES)) return;
        size_t end = s->length - s->position < RUN ? s->length : s->position + RUN;
        char *to = out->data + out->len;
        for (size_t k = s->position; k < end; k++) {
            if (k > 0) *to++ = ',';
            int64_t value = s->start + (int64_t)s->perm[k];
            if (value < 0) *to++ = '-';
            to = jw_put_uint(to, value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value);
        }
        *to = '\0';
        out->len = (size_t)(to - out->data);
        s->position = end;
    }
}

static void write_values(shuffle_output *s, json_writer *out, size_t begin, size_t want) {
    if (s->item_offsets == NULL) {
        write_numbers(s, out, begin, want);
        return;
    }
    for (; s->position < s->length && out->len - begin < want; s->position++) {
        if (s->position > 0) jw_char(out, ',');
        uint32_t k = s->perm[s->position];
        bb_append(out, s->item_texts.data + s->item_offsets[k], s->item_offsets[k + 1] - s->item_offsets[k]);
    }
}

/* The stream generator (stream_next_fn); also run to the end for small bodies. */
static stream_status write_output(void *state, json_writer *out, size_t want) {
    shuffle_output *s = state;
    size_t begin = out->len;
    while (out->len - begin < want) {
        if (out->out_of_memory) return STREAM_FAILED;
        switch (s->phase) {
        case PHASE_OPEN:
            if (s->kind != NULL) api_open_answer(out, s->kind);
            jw_str(out, s->open);
            s->phase = PHASE_NEXT_SHUFFLE;
            break;
        case PHASE_NEXT_SHUFFLE:
            if (s->written == s->count) {
                jw_str(out, s->close);
                return STREAM_DONE;
            }
            if (s->computed == s->written && !compute_next_shuffle(s)) return STREAM_FAILED;
            if (s->written > 0) jw_str(out, s->separator);
            jw_str(out, s->shuffle_open);
            s->position = 0;
            s->phase = PHASE_VALUES;
            break;
        case PHASE_VALUES:
            write_values(s, out, begin, want);
            if (s->position == s->length) {
                jw_str(out, s->shuffle_close);
                s->written++;
                s->phase = PHASE_NEXT_SHUFFLE;
            }
            break;
        }
    }
    return STREAM_MORE;
}

/* JSON: {"kind":"shuffle","seed":"S","items":[...]} or {"kind":"shuffles","seed":"S","shuffles":[[...],...]};
 * NDJSON: one {"seed":"S","items":[...]} line per shuffle. Secure shuffles have no seed. */
static void frame_output(shuffle_output *s, const char *seed_text, bool ndjson) {
    char seed_member[96] = "";
    if (seed_text[0] != '\0') snprintf(seed_member, sizeof seed_member, "\"seed\":\"%s\",", seed_text);
    s->separator = "";
    s->close = "";
    s->kind = NULL;
    if (ndjson) {
        snprintf(s->shuffle_open, sizeof s->shuffle_open, "{%s\"items\":[", seed_member);
        s->shuffle_close = "]}\n";
    } else if (s->count == 1) {
        s->kind = "shuffle";
        snprintf(s->open, sizeof s->open, "%s\"items\":", seed_member);
        snprintf(s->shuffle_open, sizeof s->shuffle_open, "[");
        s->shuffle_close = "]";
        s->close = "}";
    } else {
        s->kind = "shuffles";
        snprintf(s->open, sizeof s->open, "%s\"shuffles\":[", seed_member);
        snprintf(s->shuffle_open, sizeof s->shuffle_open, "[");
        s->shuffle_close = "]";
        s->separator = ",";
        s->close = "]}";
    }
}

/* Sets up the generator from `seed` / `secure`, or a fresh seed; `seed_text` is what the answer
 * reports ("" for secure). */
static bool read_generator(api_request *req, rng *generator, char seed_text[SEED_TEXT_SIZE]) {
    const cJSON *seed_value = cJSON_GetObjectItemCaseSensitive(req->params, "seed");
    bool secure = param_flag(req, "secure", false);
    seed_text[0] = '\0';
    if (secure) {
        if (seed_value != NULL)
            return api_fail(req, API_CONFLICTING_FIELDS, "seed",
                            "give either 'seed' (a replayable shuffle) or 'secure': true (fresh OS randomness, "
                            "no seed), not both");
        if (!rng_seed_secure(generator)) return seed_fail_no_randomness(req);
        return true;
    }
    return param_seed(req, "seed", generator, seed_text);
}

static uint64_t shuffle_limit(const api_request *req) {
    uint64_t limit = req->limits->max_shuffle_items;
    return limit < SHUFFLE_MAX_N ? limit : SHUFFLE_MAX_N;
}

/* The compact JSON text of every item, prepared once for all shuffles. */
static bool prepare_items(api_request *req, shuffle_output *s, const cJSON *items) {
    s->item_offsets = malloc((s->n + 1) * sizeof *s->item_offsets);
    if (s->item_offsets == NULL) return api_fail_out_of_memory(req);
    size_t k = 0;
    for (const cJSON *item = items->child; item != NULL; item = item->next) {
        s->item_offsets[k++] = s->item_texts.len;
        jw_cjson(&s->item_texts, item);
    }
    s->item_offsets[k] = s->item_texts.len;
    if (s->item_texts.out_of_memory) return api_fail_out_of_memory(req);
    return true;
}

/* Reads the mode: a whole shuffle by `algorithm`, or one of `sample`, `derangement`, `cycle`. */
static bool read_mode(api_request *req, shuffle_output *s) {
    static const char *const modes[] = {"sample", "derangement", "cycle"};
    const bool on[] = {param_present(req, "sample"), param_flag(req, "derangement", false),
                       param_flag(req, "cycle", false)};
    const char *chosen = NULL;
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        if (!on[m]) continue;
        if (chosen != NULL)
            return api_fail(req, API_CONFLICTING_FIELDS, modes[m],
                            "'%s' and '%s' are different draws; give at most one of sample, derangement and cycle",
                            chosen, modes[m]);
        chosen = modes[m];
    }
    if (chosen != NULL && param_present(req, "algorithm"))
        return api_fail(req, API_CONFLICTING_FIELDS, "algorithm",
                        "'algorithm' chooses how a whole shuffle is drawn; '%s' has its own method, so leave "
                        "'algorithm' out",
                        chosen);
    int algorithm;
    if (!param_choice(req, "algorithm", algorithm_names, 0, &algorithm)) return false;
    s->algorithm = algorithms[algorithm];
    s->sampling = chosen == modes[0];
    if (chosen == modes[1]) s->algorithm = SHUFFLE_DERANGEMENT;
    if (chosen == modes[2]) s->algorithm = SHUFFLE_CYCLE;
    return true;
}

/* Reads and checks the sizes: n or items, start, the sample size, count. A sample draws from up to
 * 2^32 values (O(k) work), so only its size is held to --max-shuffle-items. */
static bool read_sizes(api_request *req, shuffle_output *s, const cJSON **items) {
    if (!param_exactly_one(req, "items", "n", true)) return false;
    uint64_t limit = shuffle_limit(req);
    uint64_t population_limit = s->sampling ? SHUFFLE_MAX_N : limit;
    *items = param_array(req, "items");
    if (*items != NULL) {
        if (param_present(req, "start"))
            return api_fail(req, API_CONFLICTING_FIELDS, "start",
                            "'start' numbers the values of 'n'; it cannot be used with 'items'");
        s->n = (size_t)cJSON_GetArraySize(*items);
        if (s->n > limit) {
            api_fail(req, API_TOO_LARGE, "items",
                     "'items' has %zu items; at most %" PRIu64 " can be shuffled (the server's --max-shuffle-items)",
                     s->n, limit);
            return api_fail_range(req, 0, (long long)limit, (long long)s->n);
        }
    } else {
        int64_t n;
        if (!param_int(req, "n", 0, API_MAX_EXACT_INTEGER, 0, &n)) return false;
        if ((uint64_t)n > population_limit) {
            api_fail(req, API_TOO_LARGE, "n", "'n' is %" PRId64 "; at most %" PRIu64 " values can be %s", n,
                     population_limit, s->sampling ? "sampled from" : "shuffled (the server's --max-shuffle-items)");
            return api_fail_range(req, 0, (long long)population_limit, n);
        }
        s->n = (size_t)n;
        if (!param_int(req, "start", -API_MAX_EXACT_INTEGER, API_MAX_EXACT_INTEGER, 0, &s->start)) return false;
        if (s->n > 0 && s->start > API_MAX_EXACT_INTEGER - (int64_t)(s->n - 1))
            return api_fail(req, API_INVALID_FIELD, "start",
                            "'start' + 'n' - 1 must be at most 9007199254740991 (2^53-1) so that every value "
                            "is an exact JSON integer; got start %" PRId64 " with n %zu",
                            s->start, s->n);
    }
    s->length = s->n;
    if (s->sampling) {
        int64_t k;
        if (!param_int(req, "sample", 0, (int64_t)s->n, 0, &k))
            return api_fail(req, API_INVALID_FIELD, "sample",
                            "'sample' must be an integer from 0 to the number of values drawn from (%zu)", s->n);
        if ((uint64_t)k > limit) {
            api_fail(req, API_TOO_LARGE, "sample",
                     "'sample' is %" PRId64 "; at most %" PRIu64 " values can be drawn (the server's "
                     "--max-shuffle-items)",
                     k, limit);
            return api_fail_range(req, 0, (long long)limit, k);
        }
        s->length = (size_t)k;
    }
    if (s->algorithm == SHUFFLE_DERANGEMENT && s->n == 1)
        return api_fail(req, API_INVALID_FIELD, "derangement",
                        "there is no derangement of a single item (its only arrangement leaves it in place): "
                        "give 0 or at least 2 items");
    int64_t count;
    if (!param_int(req, "count", 1, API_MAX_EXACT_INTEGER, 1, &count)) return false;
    s->count = (uint64_t)count;
    uint64_t per_shuffle = s->length > 0 ? s->length : 1;
    if (s->count > limit / per_shuffle)
        return api_fail(req, API_TOO_LARGE, "count",
                        "'count' %" PRIu64 " times %" PRIu64 " values per shuffle is more than %" PRIu64
                        " values in one answer (the server's --max-shuffle-items; an empty shuffle counts "
                        "as one)",
                        s->count, per_shuffle, limit);
    return true;
}

/* Reads the request into `s` and computes the first shuffle now, so running out of time is a proper 503. */
static bool start_output(api_request *req, shuffle_output *s, char seed_text[SEED_TEXT_SIZE]) {
    const cJSON *items;
    if (!read_mode(req, s) || !read_sizes(req, s, &items) || !read_generator(req, &s->generator, seed_text))
        return false;
    if (items != NULL && !prepare_items(req, s, items)) return false;
    s->perm = malloc((s->length + 1) * sizeof *s->perm);
    if (s->perm == NULL) return api_fail_out_of_memory(req);
    shuffle_advise_memory(s->perm, s->length);
    if (!compute_next_shuffle(s)) return api_fail_deadline(req);
    return true;
}

static bool answer_shuffle(api_request *req, api_response *res) {
    shuffle_output *s = calloc(1, sizeof *s);
    if (s == NULL) return api_fail_out_of_memory(req);
    bb_init(&s->item_texts);
    s->limit = req->deadline;
    char seed_text[SEED_TEXT_SIZE];
    if (!start_output(req, s, seed_text)) {
        free_output(s);
        return false;
    }
    s->limit = req->time_limit; /* the rest is produced after this handler returns */
    frame_output(s, seed_text, req->ndjson);
    /* Small answers are built whole: a Content-Length response, and a clean 503 if a later shuffle
     * runs out of time. */
    if (s->count * (s->length > 0 ? s->length : 1) <= SMALL_OUTPUT_VALUES)
        return api_respond_whole(req, res, s, write_output, free_output, req->ndjson);
    /* Once shuffled, numbers are only formatted, which costs about what sending them does: the pool
     * formats them ahead of the socket (overlapped). Items are texts made once and only copied: the
     * I/O thread copies them straight into the socket's buffer (bounded). A next shuffle is O(n)
     * work, so more than one stays on the compute pool in the ring of searches. */
    if (s->count > 1) api_respond_stream(req, res, s, write_output, free_output, req->ndjson);
    else if (s->item_offsets == NULL)
        api_respond_overlapped_stream(req, res, s, write_output, free_output, req->ndjson);
    else api_respond_bounded_stream(req, res, s, write_output, free_output, req->ndjson);
    return true;
}

/* A shuffle replays only from a given seed; without one (a fresh seed) or when secure, every answer
 * differs. */
static bool shuffle_varies(const api_request *req) {
    bool secure = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(req->params, "secure"));
    return secure || !param_present(req, "seed");
}

/* One whole shuffle of SHUFFLE_LONG_VALUES or more (`n`, or that many `items`); a sample is O(k) with
 * small constants and is left to the slice. */
static bool shuffle_long_running(const api_request *req) {
    if (param_present(req, "sample")) return false;
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(req->params, "n");
    if (cJSON_IsNumber(n)) return n->valuedouble >= SHUFFLE_LONG_VALUES;
    const cJSON *items = param_array(req, "items");
    size_t values = 0;
    for (const cJSON *item = items != NULL ? items->child : NULL; item != NULL && values < SHUFFLE_LONG_VALUES;
         item = item->next)
        values++;
    return values >= SHUFFLE_LONG_VALUES;
}

const api_endpoint shuffle_endpoint = {
    .fields = fields, .handler = answer_shuffle, .varies = shuffle_varies, .long_running = shuffle_long_running};
