/* Unit tests for shortest word ladders: every shortest ladder, in order, against a brute-force
 * single-direction search over an adjacency matrix, on many random dictionaries; exact totals on
 * hypercube dictionaries (n! ladders); the deadline. Both neighbour indexes (dictionary.h) are run
 * through the searches that compare against a reference. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/ladder/word_ladder.h"

static dictionary *random_dictionary(size_t length, size_t words, size_t alphabet_size, unsigned seed,
                                     dictionary_neighbour_index index) {
    static const uint32_t alphabet[] = {'a', 'b', 'c', 'd', 0xE9, 0x3C9};
    srand(seed);
    dictionary_builder *builder = dictionary_builder_new(0, index);
    for (size_t i = 0; i < words; i++) {
        uint32_t letters[8];
        for (size_t p = 0; p < length; p++) {
            letters[p] = alphabet[(size_t)rand() % alphabet_size];
        }
        cr_assert(dictionary_builder_add(builder, letters, length));
    }
    dictionary *dict = NULL;
    cr_assert_eq(dictionary_builder_finish(builder, NULL, &dict), CORE_OK);
    cr_assert_not_null(dict);
    return dict;
}

/* --- the reference: a plain BFS from each end over an explicit adjacency matrix --- */

typedef struct reference {
    size_t count;
    char *adjacent; /* count * count */
    int *from_distance;
    int *to_distance;
    int steps;         /* -1 when unreachable */
    uint32_t *by_word; /* word indices in code-point order of the words */
    uint32_t *path;    /* the ladder being built */
    uint32_t *all;     /* every ladder, in lexicographic order of the words */
    size_t ladders;
    size_t capacity;
} reference;

static void distances(const reference *ref, uint32_t root, int *out) {
    uint32_t *queue = malloc(ref->count * sizeof *queue);
    for (size_t w = 0; w < ref->count; w++) {
        out[w] = -1;
    }
    size_t head = 0, tail = 0;
    out[root] = 0;
    queue[tail++] = root;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t v = 0; v < ref->count; v++) {
            if (ref->adjacent[u * ref->count + v] && out[v] < 0) {
                out[v] = out[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

static void extend(reference *ref, int position) {
    if (position == ref->steps) {
        if (ref->ladders == ref->capacity) {
            ref->capacity = ref->capacity ? 2 * ref->capacity : 16;
            ref->all = realloc(ref->all, ref->capacity * (size_t)(ref->steps + 1) * sizeof *ref->all);
        }
        memcpy(ref->all + ref->ladders * (size_t)(ref->steps + 1), ref->path,
               (size_t)(ref->steps + 1) * sizeof *ref->path);
        ref->ladders++;
        return;
    }
    uint32_t u = ref->path[position];
    for (uint32_t i = 0; i < ref->count; i++) {
        uint32_t v = ref->by_word[i];
        if (ref->adjacent[u * ref->count + v] && ref->from_distance[v] == position + 1 &&
            ref->to_distance[v] == ref->steps - position - 1) {
            ref->path[position + 1] = v;
            extend(ref, position + 1);
        }
    }
}

/* Negative, zero or positive as word a comes before, equals or follows word b in code-point order. */
static int word_order(const dictionary_group *group, uint32_t a, uint32_t b) {
    for (size_t p = 0; p < group->length; p++) {
        uint32_t x = dictionary_group_word(group, a)[p], y = dictionary_group_word(group, b)[p];
        if (x != y) {
            return x < y ? -1 : 1;
        }
    }
    return 0;
}

static reference reference_ladders(const dictionary_group *group, uint32_t from, uint32_t to) {
    reference ref = {.count = group->count};
    ref.by_word = malloc(ref.count * sizeof *ref.by_word);
    for (uint32_t w = 0; w < ref.count; w++) { /* insertion sort */
        uint32_t at = w;
        while (at > 0 && word_order(group, ref.by_word[at - 1], w) > 0) {
            ref.by_word[at] = ref.by_word[at - 1];
            at--;
        }
        ref.by_word[at] = w;
    }
    ref.adjacent = calloc(ref.count * ref.count, 1);
    for (uint32_t u = 0; u < ref.count; u++) {
        for (uint32_t v = 0; v < ref.count; v++) {
            size_t differences = 0;
            for (size_t p = 0; p < group->length; p++) {
                differences += dictionary_group_word(group, u)[p] != dictionary_group_word(group, v)[p];
            }
            ref.adjacent[u * ref.count + v] = differences == 1;
        }
    }
    ref.from_distance = malloc(ref.count * sizeof(int));
    ref.to_distance = malloc(ref.count * sizeof(int));
    distances(&ref, from, ref.from_distance);
    distances(&ref, to, ref.to_distance);
    ref.steps = ref.from_distance[to];
    if (ref.steps >= 0) {
        ref.path = malloc((size_t)(ref.steps + 1) * sizeof *ref.path);
        ref.path[0] = from;
        extend(&ref, 0);
    }
    return ref;
}

static void reference_free(reference *ref) {
    free(ref->by_word);
    free(ref->adjacent);
    free(ref->from_distance);
    free(ref->to_distance);
    free(ref->path);
    free(ref->all);
}

/* Returns the number of ladders the reference found (0 when unreachable). */
static size_t check_against_reference(const dictionary_group *group, uint32_t from, uint32_t to) {
    reference ref = reference_ladders(group, from, to);
    word_ladders *ladders = NULL;
    cr_assert_eq(word_ladders_find(group, from, to, NULL, &ladders), CORE_OK);
    cr_assert_eq(word_ladders_found(ladders), ref.steps >= 0, "%u -> %u", from, to);
    word_ladder_iter iter;
    cr_assert(word_ladder_iter_init(&iter, ladders));
    if (ref.steps < 0) {
        cr_assert_eq(mpz_sgn(word_ladders_total(ladders)), 0);
        cr_assert_null(word_ladder_iter_next(&iter));
    } else {
        cr_assert_eq(word_ladders_steps(ladders), (size_t)ref.steps, "%u -> %u", from, to);
        cr_assert_eq(mpz_cmp_ui(word_ladders_total(ladders), ref.ladders), 0, "%u -> %u", from, to);
        for (size_t l = 0; l < ref.ladders; l++) {
            const uint32_t *ladder = word_ladder_iter_next(&iter);
            cr_assert_not_null(ladder);
            cr_assert_arr_eq(ladder, ref.all + l * (size_t)(ref.steps + 1), (size_t)(ref.steps + 1) * sizeof *ladder,
                             "ladder %zu of %u -> %u", l, from, to);
        }
        cr_assert_null(word_ladder_iter_next(&iter), "no extra ladder");
        cr_assert_null(word_ladder_iter_next(&iter), "still finished");
    }
    word_ladder_iter_free(&iter);
    word_ladders_free(ladders);
    size_t found = ref.ladders;
    reference_free(&ref);
    return found;
}

static void every_shortest_ladder_matches_brute_force(dictionary_neighbour_index index) {
    /* Small alphabets give dense graphs with many ladders; larger ones sparse graphs with
     * unreachable pairs. */
    const struct {
        size_t length, words, alphabet;
    } shapes[] = {
        {1, 4, 6}, {2, 20, 6}, {3, 60, 4}, {3, 60, 6}, {4, 120, 3}, {4, 150, 5}, {5, 200, 4}, {6, 250, 3}, {6, 200, 6},
    };
    size_t unreachable = 0, single = 0, several = 0;
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        dictionary *dict =
            random_dictionary(shapes[s].length, shapes[s].words, shapes[s].alphabet, 100 + (unsigned)s, index);
        const dictionary_group *group = dictionary_group_of_length(dict, shapes[s].length);
        for (int pair = 0; pair < 40; pair++) {
            size_t found =
                check_against_reference(group, (uint32_t)rand() % group->count, (uint32_t)rand() % group->count);
            unreachable += found == 0;
            single += found == 1;
            several += found > 1;
        }
        dictionary_free(dict);
    }
    cr_assert(unreachable >= 10 && single >= 10 && several >= 10, "the pairs cover every case: %zu %zu %zu",
              unreachable, single, several);
}

Test(word_ladder, every_shortest_ladder_matches_brute_force_with_the_bucket_index) {
    every_shortest_ladder_matches_brute_force(DICTIONARY_NEIGHBOUR_BUCKETS);
}

Test(word_ladder, every_shortest_ladder_matches_brute_force_with_the_substitution_index) {
    every_shortest_ladder_matches_brute_force(DICTIONARY_NEIGHBOUR_SUBSTITUTION);
}

/* All 2^n words over {a, b}: the ladders from aa..a to bb..b flip the n letters in any order. */
static dictionary *hypercube(size_t n, dictionary_neighbour_index index) {
    dictionary_builder *builder = dictionary_builder_new(0, index);
    for (uint32_t bits = 0; bits < (1u << n); bits++) {
        uint32_t letters[32];
        for (size_t p = 0; p < n; p++) {
            letters[p] = (bits >> p) & 1 ? 'b' : 'a';
        }
        cr_assert(dictionary_builder_add(builder, letters, n));
    }
    dictionary *dict = NULL;
    cr_assert_eq(dictionary_builder_finish(builder, NULL, &dict), CORE_OK);
    cr_assert_not_null(dict);
    return dict;
}

static void counts_factorially_many_ladders(dictionary_neighbour_index index) {
    dictionary *dict = hypercube(14, index);
    const dictionary_group *group = dictionary_group_of_length(dict, 14);
    uint32_t last = group->count - 1; /* bb..b */
    word_ladders *ladders = NULL;
    cr_assert_eq(word_ladders_find(group, 0, last, NULL, &ladders), CORE_OK);
    cr_assert_eq(word_ladders_steps(ladders), 14);
    mpz_t factorial;
    mpz_init(factorial);
    mpz_fac_ui(factorial, 14);
    cr_assert_eq(mpz_cmp(word_ladders_total(ladders), factorial), 0, "14! = 87178291200 ladders");
    mpz_clear(factorial);
    word_ladder_iter iter;
    cr_assert(word_ladder_iter_init(&iter, ladders));
    uint32_t previous[15] = {0};
    for (int l = 0; l < 20000; l++) {
        const uint32_t *ladder = word_ladder_iter_next(&iter);
        cr_assert_not_null(ladder);
        cr_assert_eq(ladder[0], 0);
        cr_assert_eq(ladder[14], last);
        for (size_t i = 0; i < 14; i++) {
            size_t differences = 0;
            for (size_t p = 0; p < 14; p++) {
                differences +=
                    dictionary_group_word(group, ladder[i])[p] != dictionary_group_word(group, ladder[i + 1])[p];
            }
            cr_assert_eq(differences, 1);
        }
        if (l > 0) {
            size_t i = 0;
            while (ladder[i] == previous[i]) {
                i++;
            }
            cr_assert_gt(word_order(group, ladder[i], previous[i]), 0, "strictly increasing order");
        }
        memcpy(previous, ladder, sizeof previous);
    }
    word_ladder_iter_free(&iter);
    word_ladders_free(ladders);
    dictionary_free(dict);
}

Test(word_ladder, counts_factorially_many_ladders_exactly_and_lists_them_in_order_with_buckets) {
    counts_factorially_many_ladders(DICTIONARY_NEIGHBOUR_BUCKETS);
}

Test(word_ladder, counts_factorially_many_ladders_exactly_and_lists_them_in_order_by_substitution) {
    counts_factorially_many_ladders(DICTIONARY_NEIGHBOUR_SUBSTITUTION);
}

Test(word_ladder, same_word_is_a_ladder_of_zero_steps) {
    dictionary *dict = random_dictionary(3, 50, 4, 3, DICTIONARY_NEIGHBOUR_SUBSTITUTION);
    const dictionary_group *group = dictionary_group_of_length(dict, 3);
    word_ladders *ladders = NULL;
    cr_assert_eq(word_ladders_find(group, 5, 5, NULL, &ladders), CORE_OK);
    cr_assert(word_ladders_found(ladders));
    cr_assert_eq(word_ladders_steps(ladders), 0);
    cr_assert_eq(mpz_cmp_ui(word_ladders_total(ladders), 1), 0);
    word_ladder_iter iter;
    cr_assert(word_ladder_iter_init(&iter, ladders));
    const uint32_t *ladder = word_ladder_iter_next(&iter);
    cr_assert_not_null(ladder);
    cr_assert_eq(ladder[0], 5);
    cr_assert_null(word_ladder_iter_next(&iter));
    word_ladder_iter_free(&iter);
    word_ladders_free(ladders);
    dictionary_free(dict);
}

Test(word_ladder, isolated_word_has_no_ladder) {
    const uint32_t words[3][3] = {{'c', 'a', 't'}, {'c', 'o', 't'}, {'d', 'o', 'g'}};
    dictionary_builder *builder = dictionary_builder_new(0, DICTIONARY_NEIGHBOUR_SUBSTITUTION);
    for (int i = 0; i < 3; i++) {
        cr_assert(dictionary_builder_add(builder, words[i], 3));
    }
    dictionary *dict = NULL;
    cr_assert_eq(dictionary_builder_finish(builder, NULL, &dict), CORE_OK);
    cr_assert_not_null(dict);
    const dictionary_group *group = dictionary_group_of_length(dict, 3);
    word_ladders *ladders = NULL;
    cr_assert_eq(word_ladders_find(group, 0, 2, NULL, &ladders), CORE_OK);
    cr_assert_not(word_ladders_found(ladders));
    cr_assert_eq(mpz_sgn(word_ladders_total(ladders)), 0);
    word_ladders_free(ladders);
    dictionary_free(dict);
}

Test(word_ladder, expired_deadline_stops_the_search) {
    dictionary *dict = hypercube(16, DICTIONARY_NEIGHBOUR_BUCKETS);
    const dictionary_group *group = dictionary_group_of_length(dict, 16);
    deadline expired = deadline_after_ms(0);
    word_ladders *ladders = NULL;
    cr_assert_eq(word_ladders_find(group, 0, group->count - 1, &expired, &ladders), CORE_DEADLINE);
    dictionary_free(dict);
}
