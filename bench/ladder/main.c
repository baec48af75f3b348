/* Benchmark of the word-ladder core (in process, i.e. server-side compute time), each against a
 * simple peer in the same run:
 *   - start-up: loading and indexing /usr/share/dict/words, against building the same neighbour
 *     lists by comparing every pair of words of equal length;
 *   - a typical 5-letter query (random pairs of words that have neighbours, about half of them not
 *     connected): bidirectional search + layered graph + count + first ladder, against a plain
 *     single-direction BFS on the same index that stops when it reaches the target and returns one
 *     ladder (so the peer does less work);
 *   - a request carrying its own 40,000-word dictionary (random 6-letter words over 7 letters, so
 *     most pairs are connected): index build + search of one pair (every shortest ladder counted, the
 *     first listed), against a hash set of the words, single-letter substitutions a-z looked up in it
 *     and a single-direction BFS that stops at the target (one ladder).
 * Prints TSV rows: measure, ours, peer, peer value, unit, which is better. With `curve`: the cost of
 * a 5-letter query by the length of its shortest ladder, against the plain single-direction BFS
 * (bench/lib/curve.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../lib/curve.h"
#include "core/ladder/dictionary.h"
#include "core/ladder/dictionary_file.h"
#include "core/ladder/word_ladder.h"

#define WORD_LIST "/usr/share/dict/words"
#define QUERIES 2000
#define CUSTOM_WORDS 40000
#define CUSTOM_LENGTH 6
#define CUSTOM_LETTERS 7
#define CUSTOM_QUERIES 20
#define CUSTOM_ROUNDS 7

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void row(const char *measure, double ours, const char *peer, double peer_value, const char *unit) {
    printf("%s\t%.3f\t%s\t%.3f\t%s\tlower\n", measure, ours, peer, peer_value, unit);
}

/* ---- peer 1: neighbour lists by comparing all pairs of equal length ---- */

static double pairwise_adjacency_ms(const dictionary *dict) {
    double start = now_ms();
    size_t links = 0;
    for (size_t g = 0; g < dict->group_count; g++) {
        const dictionary_group *group = &dict->groups[g];
        uint32_t **lists = calloc(group->count, sizeof *lists);
        uint32_t *sizes = calloc(group->count, sizeof *sizes);
        for (uint32_t a = 0; a < group->count; a++) {
            for (uint32_t b = a + 1; b < group->count; b++) {
                const uint32_t *x = dictionary_group_word(group, a), *y = dictionary_group_word(group, b);
                size_t differences = 0;
                for (size_t p = 0; p < group->length && differences < 2; p++) differences += x[p] != y[p];
                if (differences != 1) continue;
                uint32_t ends[2] = {a, b};
                for (int e = 0; e < 2; e++) {
                    uint32_t w = ends[e];
                    lists[w] = realloc(lists[w], (sizes[w] + 1) * sizeof **lists);
                    lists[w][sizes[w]++] = ends[1 - e];
                }
                links++;
            }
        }
        for (uint32_t w = 0; w < group->count; w++) free(lists[w]);
        free(lists);
        free(sizes);
    }
    double elapsed = now_ms() - start;
    fprintf(stderr, "pairwise peer found %zu links\n", links);
    return elapsed;
}

/* ---- peer 2: plain single-direction BFS on the same index, one ladder ---- */

static size_t plain_bfs_ladder(const dictionary_group *group, uint32_t from, uint32_t to, uint32_t *ladder) {
    int32_t *parent = malloc(group->count * sizeof *parent);
    uint32_t *queue = malloc(group->count * sizeof *queue);
    memset(parent, 0xFF, group->count * sizeof *parent);
    size_t head = 0, tail = 0;
    parent[from] = (int32_t)from;
    queue[tail++] = from;
    bool reached = from == to;
    while (head < tail && !reached) {
        uint32_t word = queue[head++];
        for (size_t p = 0; p < group->length && !reached; p++) {
            uint32_t bucket = group->bucket_of[(size_t)word * group->length + p];
            for (uint32_t at = group->bucket_start[bucket]; at < group->bucket_start[bucket + 1]; at++) {
                uint32_t next = group->members[at];
                if (parent[next] >= 0) continue;
                parent[next] = (int32_t)word;
                queue[tail++] = next;
                if (next == to) {
                    reached = true;
                    break;
                }
            }
        }
    }
    size_t length = 0;
    if (reached) {
        for (uint32_t w = to; w != from; w = (uint32_t)parent[w]) ladder[length++] = w;
        ladder[length++] = from;
    }
    free(parent);
    free(queue);
    return length;
}

static size_t ours_ladder(const dictionary_group *group, uint32_t from, uint32_t to) {
    word_ladders *ladders = NULL;
    if (word_ladders_find(group, from, to, NULL, &ladders) != CORE_OK) abort();
    word_ladder_iter iter;
    word_ladder_iter_init(&iter, ladders);
    size_t length = word_ladder_iter_next(&iter) != NULL ? word_ladders_steps(ladders) + 1 : 0;
    word_ladder_iter_free(&iter);
    word_ladders_free(ladders);
    return length;
}

static void bench_queries(const dictionary *dict) {
    const dictionary_group *group = dictionary_group_of_length(dict, 5);
    uint32_t *linked = malloc(group->count * sizeof *linked);
    size_t linked_count = 0;
    for (uint32_t w = 0; w < group->count; w++) {
        bool has_neighbour = false;
        for (size_t p = 0; p < group->length; p++) has_neighbour |= group->bucket_of[(size_t)w * 5 + p] != 0;
        if (has_neighbour) linked[linked_count++] = w;
    }
    uint32_t(*pairs)[2] = malloc(QUERIES * sizeof *pairs);
    srand(12345);
    for (int q = 0; q < QUERIES; q++) {
        pairs[q][0] = linked[(size_t)rand() % linked_count];
        pairs[q][1] = linked[(size_t)rand() % linked_count];
    }
    uint32_t *ladder = malloc(group->count * sizeof *ladder);
    size_t found = 0;
    double start = now_ms();
    for (int q = 0; q < QUERIES; q++) found += ours_ladder(group, pairs[q][0], pairs[q][1]) > 0;
    double ours = (now_ms() - start) * 1e3 / QUERIES;
    size_t peer_found = 0;
    start = now_ms();
    for (int q = 0; q < QUERIES; q++) peer_found += plain_bfs_ladder(group, pairs[q][0], pairs[q][1], ladder) > 0;
    double peer = (now_ms() - start) * 1e3 / QUERIES;
    if (found != peer_found) abort();
    fprintf(stderr, "5-letter queries: %d pairs among %zu linked words, %zu connected\n", QUERIES, linked_count, found);
    row("word-ladder 5-letter query, in process (mean of 2000 random pairs)", ours, "single-direction BFS, one ladder",
        peer, "us");
    free(linked);
    free(pairs);
    free(ladder);
}

/* ---- a request dictionary of 40,000 words ---- */

static void random_words(char *words) {
    srand(777);
    for (size_t i = 0; i < (size_t)CUSTOM_WORDS * CUSTOM_LENGTH; i++) words[i] = (char)('a' + rand() % CUSTOM_LETTERS);
}

/* One request: index the words, then search one pair. Returns whether a ladder was found. */
static bool ours_custom_request(const char *words, const uint32_t pair[2]) {
    dictionary_builder *builder = dictionary_builder_new(CUSTOM_LENGTH, DICTIONARY_NEIGHBOUR_SUBSTITUTION);
    for (size_t i = 0; i < CUSTOM_WORDS; i++) {
        uint32_t letters[CUSTOM_LENGTH];
        for (size_t p = 0; p < CUSTOM_LENGTH; p++) letters[p] = (unsigned char)words[i * CUSTOM_LENGTH + p];
        dictionary_builder_add(builder, letters, CUSTOM_LENGTH);
    }
    dictionary *dict = NULL;
    if (dictionary_builder_finish(builder, NULL, &dict) != CORE_OK || dict == NULL) abort();
    const dictionary_group *group = dictionary_group_of_length(dict, CUSTOM_LENGTH);
    uint32_t ends[2];
    for (int e = 0; e < 2; e++) {
        uint32_t letters[CUSTOM_LENGTH];
        for (size_t p = 0; p < CUSTOM_LENGTH; p++) letters[p] = (unsigned char)words[pair[e] * CUSTOM_LENGTH + p];
        if (!dictionary_group_find(group, letters, &ends[e])) abort();
    }
    bool found = ours_ladder(group, ends[0], ends[1]) > 0;
    dictionary_free(dict);
    return found;
}

static uint64_t hash_word(const char *word) {
    uint64_t h = 1469598103934665603ull;
    for (size_t p = 0; p < CUSTOM_LENGTH; p++) h = (h ^ (unsigned char)word[p]) * 1099511628211ull;
    return h;
}

static size_t find_slot(const int32_t *slots, size_t mask, const char *words, const char *word) {
    size_t s = hash_word(word) & mask;
    while (slots[s] >= 0 && memcmp(words + (size_t)slots[s] * CUSTOM_LENGTH, word, CUSTOM_LENGTH) != 0)
        s = (s + 1) & mask;
    return s;
}

/* The textbook way: a hash set of the words; neighbours are found by trying every letter a-z at every
 * position; a BFS from one end stops when it reaches the other. */
static bool peer_custom_request(const char *words, const uint32_t pair[2]) {
    size_t size = 1u << 17, mask = size - 1;
    int32_t *slots = malloc(size * sizeof *slots);
    memset(slots, 0xFF, size * sizeof *slots);
    for (int32_t i = 0; i < CUSTOM_WORDS; i++) {
        size_t s = find_slot(slots, mask, words, words + (size_t)i * CUSTOM_LENGTH);
        if (slots[s] < 0) slots[s] = i;
    }
    int32_t *parent = malloc(CUSTOM_WORDS * sizeof *parent);
    int32_t *queue = malloc(CUSTOM_WORDS * sizeof *queue);
    memset(parent, 0xFF, CUSTOM_WORDS * sizeof *parent);
    int32_t ends[2]; /* duplicates map to their first copy */
    for (int e = 0; e < 2; e++) ends[e] = slots[find_slot(slots, mask, words, words + (size_t)pair[e] * CUSTOM_LENGTH)];
    size_t head = 0, tail = 0;
    parent[ends[0]] = ends[0];
    queue[tail++] = ends[0];
    bool reached = ends[0] == ends[1];
    while (head < tail && !reached) {
        int32_t current = queue[head++];
        char candidate[CUSTOM_LENGTH];
        memcpy(candidate, words + (size_t)current * CUSTOM_LENGTH, CUSTOM_LENGTH);
        for (size_t p = 0; p < CUSTOM_LENGTH && !reached; p++) {
            char original = candidate[p];
            for (char c = 'a'; c <= 'z' && !reached; c++) {
                if (c == original) continue;
                candidate[p] = c;
                int32_t next = slots[find_slot(slots, mask, words, candidate)];
                if (next >= 0 && parent[next] < 0) {
                    parent[next] = current;
                    queue[tail++] = next;
                    reached = next == ends[1];
                }
            }
            candidate[p] = original;
        }
    }
    free(slots);
    free(parent);
    free(queue);
    return reached;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *values, size_t count) {
    qsort(values, count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/* Rounds of CUSTOM_QUERIES requests, ours then the peer's in each round (so both see the same
 * machine load); the figures are the medians of the rounds' means. */
static void bench_custom_dictionary(void) {
    char *words = malloc((size_t)CUSTOM_WORDS * CUSTOM_LENGTH);
    random_words(words);
    uint32_t(*pairs)[2] = malloc(CUSTOM_QUERIES * sizeof *pairs);
    for (int q = 0; q < CUSTOM_QUERIES; q++) {
        pairs[q][0] = (uint32_t)rand() % CUSTOM_WORDS;
        pairs[q][1] = (uint32_t)rand() % CUSTOM_WORDS;
    }
    double ours[CUSTOM_ROUNDS], peer[CUSTOM_ROUNDS];
    size_t found = 0, peer_found = 0;
    for (int round = 0; round < CUSTOM_ROUNDS; round++) {
        double start = now_ms();
        for (int q = 0; q < CUSTOM_QUERIES; q++) found += ours_custom_request(words, pairs[q]);
        ours[round] = (now_ms() - start) / CUSTOM_QUERIES;
        start = now_ms();
        for (int q = 0; q < CUSTOM_QUERIES; q++) peer_found += peer_custom_request(words, pairs[q]);
        peer[round] = (now_ms() - start) / CUSTOM_QUERIES;
    }
    if (found != peer_found) abort();
    fprintf(stderr, "40,000-word request dictionary: %zu of %d pairs connected\n", found / CUSTOM_ROUNDS,
            CUSTOM_QUERIES);
    row("word-ladder request with its own 40,000-word dictionary, in process (median of 7 rounds of 20)",
        median(ours, CUSTOM_ROUNDS), "hash set + letter substitution + single-direction BFS",
        median(peer, CUSTOM_ROUNDS), "ms");
    free(words);
    free(pairs);
}

/* ---- the curve: query cost by ladder length ---- */

enum { CURVE_SOURCES = 100, CURVE_MAX_STEPS = 64 };

/* Breadth-first distances from `from` (-1: not reached). */
static void distances_from(const dictionary_group *group, uint32_t from, int32_t *distance, uint32_t *queue) {
    memset(distance, 0xFF, group->count * sizeof *distance);
    size_t head = 0, tail = 0;
    distance[from] = 0;
    queue[tail++] = from;
    while (head < tail) {
        uint32_t word = queue[head++];
        DICTIONARY_FOR_EACH_NEIGHBOUR(group, word, next, {
            if (distance[next] < 0) {
                distance[next] = distance[word] + 1;
                queue[tail++] = next;
            }
        });
    }
}

typedef struct curve_pairs {
    uint32_t (*pairs)[2];
    size_t count;
} curve_pairs;

/* Seconds per query over the pairs of one ladder length: median of 5 timings of enough passes over
 * them for the clock to resolve; `peer` picks the plain BFS. */
static double curve_query_seconds(const dictionary_group *group, const curve_pairs *pairs, bool peer,
                                  uint32_t *ladder) {
    double times[5];
    int passes = 1;
    for (int r = 0; r < 5; r++) {
        double start = curve_now_seconds();
        for (int pass = 0; pass < passes; pass++) {
            for (size_t q = 0; q < pairs->count; q++) {
                size_t length = peer ? plain_bfs_ladder(group, pairs->pairs[q][0], pairs->pairs[q][1], ladder)
                                     : ours_ladder(group, pairs->pairs[q][0], pairs->pairs[q][1]);
                if (length == 0) abort();
            }
        }
        double elapsed = curve_now_seconds() - start;
        if (r == 0 && elapsed < 2e-3) passes = (int)(2e-3 / (elapsed + 1e-9)) + 1;
        times[r] = elapsed / (double)(passes * pairs->count);
    }
    return curve_median(times, 5);
}

/* Pairs of 5-letter words grouped by the length of their shortest ladder: from each of CURVE_SOURCES
 * random words, one word at every distance it reaches. */
static void curve(const dictionary *dict) {
    const dictionary_group *group = dictionary_group_of_length(dict, 5);
    int32_t *distance = malloc(group->count * sizeof *distance);
    uint32_t *queue = malloc(group->count * sizeof *queue);
    uint32_t *ladder = malloc(group->count * sizeof *ladder);
    curve_pairs by_steps[CURVE_MAX_STEPS] = {{0}};
    srand(4242);
    for (int source = 0; source < CURVE_SOURCES; source++) {
        uint32_t from = (uint32_t)rand() % group->count;
        distances_from(group, from, distance, queue);
        for (uint32_t w = 0; w < group->count; w++) {
            int32_t d = distance[w];
            if (d <= 0 || d >= CURVE_MAX_STEPS) continue;
            curve_pairs *pairs = &by_steps[d];
            if (pairs->count > 0 && pairs->pairs[pairs->count - 1][0] == from) continue; /* one per source */
            pairs->pairs = realloc(pairs->pairs, (pairs->count + 1) * sizeof *pairs->pairs);
            pairs->pairs[pairs->count][0] = from;
            pairs->pairs[pairs->count][1] = w;
            pairs->count++;
        }
    }
    for (int steps = 1; steps < CURVE_MAX_STEPS; steps++) {
        if (by_steps[steps].count >= 3) { /* a point needs a few pairs */
            curve_point("ladder", steps, curve_query_seconds(group, &by_steps[steps], false, ladder),
                        curve_query_seconds(group, &by_steps[steps], true, ladder), "single-direction BFS, one ladder");
        }
        free(by_steps[steps].pairs);
    }
    free(distance);
    free(queue);
    free(ladder);
}

int main(int argc, char **argv) {
    if (curve_mode(argc, argv)) {
        dictionary *dict = NULL;
        if (dictionary_load_file(WORD_LIST, &dict, NULL) != CORE_OK || dict == NULL) return 1;
        curve(dict);
        dictionary_free(dict);
        return 0;
    }
    double best = 1e18;
    dictionary *dict = NULL;
    for (int run = 0; run < 5; run++) {
        dictionary_free(dict);
        double start = now_ms();
        if (dictionary_load_file(WORD_LIST, &dict, NULL) != CORE_OK || dict == NULL) {
            fprintf(stderr, "cannot load %s\n", WORD_LIST);
            return 1;
        }
        double elapsed = now_ms() - start;
        best = elapsed < best ? elapsed : best;
    }
    double peer = pairwise_adjacency_ms(dict);
    row("word-ladder start-up: load and index /usr/share/dict/words (best of 5)", best,
        "pairwise comparison of equal-length words (neighbour lists only)", peer, "ms");
    bench_queries(dict);
    bench_custom_dictionary();
    dictionary_free(dict);
    return 0;
}
