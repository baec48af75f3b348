/* Unit tests for the word-ladder dictionary: grouping, order, duplicates, lookup, the neighbour
 * index against a brute-force comparison of all word pairs, and loading word-list files. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/ladder/dictionary.h"
#include "core/ladder/dictionary_file.h"
#include "core/ladder/dictionary_letters.h"

static void add_text(dictionary_builder *builder, const char *text) {
    uint32_t letters[64];
    size_t length;
    cr_assert(dictionary_word_decode(text, strlen(text), false, letters, &length), "%s", text);
    cr_assert(dictionary_builder_add(builder, letters, length));
}

static dictionary *build_from(const char *const *words, size_t only_length) {
    dictionary_builder *builder = dictionary_builder_new(only_length, DICTIONARY_NEIGHBOUR_BUCKETS);
    cr_assert_not_null(builder);
    for (size_t i = 0; words[i] != NULL; i++) {
        add_text(builder, words[i]);
    }
    dictionary *dict = NULL;
    cr_assert_eq(dictionary_builder_finish(builder, NULL, &dict), CORE_OK);
    cr_assert_not_null(dict);
    return dict;
}

static bool find_text(const dictionary *dict, const char *text, uint32_t *index) {
    uint32_t letters[64];
    size_t length;
    cr_assert(dictionary_word_decode(text, strlen(text), false, letters, &length));
    const dictionary_group *group = dictionary_group_of_length(dict, length);
    return group != NULL && dictionary_group_find(group, letters, index);
}

Test(dictionary, groups_by_length_in_arrival_order_without_duplicates) {
    const char *words[] = {"cold", "a", "warm", "cold", "\xC3\xA9t\xC3\xA9", "card", "ab", "a", "zz", NULL};
    dictionary *dict = build_from(words, 0);
    cr_assert_eq(dict->group_count, 4);
    cr_assert_eq(dict->word_count, 7);
    const size_t lengths[] = {1, 2, 3, 4};
    const uint32_t counts[] = {1, 2, 1, 3};
    for (size_t g = 0; g < 4; g++) {
        cr_assert_eq(dict->groups[g].length, lengths[g]);
        cr_assert_eq(dict->groups[g].count, counts[g]);
    }
    uint32_t index;
    cr_assert(find_text(dict, "cold", &index));
    cr_assert_eq(index, 0);
    cr_assert(find_text(dict, "warm", &index));
    cr_assert_eq(index, 1);
    cr_assert(find_text(dict, "card", &index));
    cr_assert_eq(index, 2);
    cr_assert(find_text(dict, "\xC3\xA9t\xC3\xA9", &index), "été is 3 letters, not 5 bytes");
    cr_assert_not(find_text(dict, "word", &index));
    cr_assert_not(find_text(dict, "abcdefg", &index));
    cr_assert_null(dictionary_group_of_length(dict, 5));
    dictionary_free(dict);
}

Test(dictionary, keeps_only_the_requested_length) {
    const char *words[] = {"cold", "a", "warm", "ab", NULL};
    dictionary *dict = build_from(words, 4);
    cr_assert_eq(dict->group_count, 1);
    cr_assert_eq(dict->word_count, 2);
    dictionary_free(dict);
}

Test(dictionary, empty_builder_gives_empty_dictionary) {
    const char *words[] = {NULL};
    dictionary *dict = build_from(words, 0);
    cr_assert_eq(dict->group_count, 0);
    cr_assert_null(dictionary_group_of_length(dict, 3));
    dictionary_free(dict);
}

static bool one_letter_apart(const uint32_t *x, const uint32_t *y, size_t length) {
    size_t differences = 0;
    for (size_t i = 0; i < length; i++) {
        differences += x[i] != y[i];
    }
    return differences == 1;
}

/* A group of 400 random words of `length` letters over a small alphabet (so neighbours are
 * plentiful), including non-ASCII letters. */
static dictionary *random_group(size_t length, dictionary_neighbour_index index) {
    static const uint32_t alphabet[] = {'a', 'b', 'c', 0xE9, 0x3B1};
    srand(7 + (unsigned)length);
    dictionary_builder *builder = dictionary_builder_new(0, index);
    for (int i = 0; i < 400; i++) {
        uint32_t letters[6];
        for (size_t p = 0; p < length; p++) {
            letters[p] = alphabet[rand() % 5];
        }
        cr_assert(dictionary_builder_add(builder, letters, length));
    }
    dictionary *dict = NULL;
    cr_assert_eq(dictionary_builder_finish(builder, NULL, &dict), CORE_OK);
    cr_assert_not_null(dict);
    return dict;
}

/* Every word's neighbours, listed by DICTIONARY_FOR_EACH_NEIGHBOUR, are each other word exactly one
 * letter away, once. */
static void neighbours_match_brute_force(dictionary_neighbour_index index) {
    for (size_t length = 1; length <= 6; length++) {
        dictionary *dict = random_group(length, index);
        const dictionary_group *group = dictionary_group_of_length(dict, length);
        cr_assert_not_null(group);
        for (uint32_t w = 0; w < group->count; w++) {
            char *seen = calloc(group->count, 1);
            DICTIONARY_FOR_EACH_NEIGHBOUR(group, w, other, {
                cr_assert_neq(other, w);
                cr_assert_not(seen[other], "a neighbour appears once");
                seen[other] = 1;
            });
            for (uint32_t other = 0; other < group->count; other++) {
                bool expected =
                    one_letter_apart(dictionary_group_word(group, w), dictionary_group_word(group, other), length);
                cr_assert_eq(seen[other] == 1, expected, "length %zu words %u and %u", length, w, other);
            }
            free(seen);
            uint32_t found; /* finding each word at its own index also shows the words are distinct */
            cr_assert(dictionary_group_find(group, dictionary_group_word(group, w), &found));
            cr_assert_eq(found, w);
        }
        dictionary_free(dict);
    }
}

Test(dictionary, bucket_index_matches_brute_force_neighbours) {
    neighbours_match_brute_force(DICTIONARY_NEIGHBOUR_BUCKETS);
}

Test(dictionary, substitution_index_matches_brute_force_neighbours) {
    neighbours_match_brute_force(DICTIONARY_NEIGHBOUR_SUBSTITUTION);
}

Test(dictionary, buckets_are_ascending_and_never_hold_one_word) {
    for (size_t length = 1; length <= 6; length++) {
        dictionary *dict = random_group(length, DICTIONARY_NEIGHBOUR_BUCKETS);
        const dictionary_group *group = dictionary_group_of_length(dict, length);
        for (size_t k = 0; k < (size_t)group->count * length; k++) {
            uint32_t bucket = group->bucket_of[k];
            uint32_t first = group->bucket_start[bucket];
            uint32_t end = group->bucket_start[bucket + 1];
            cr_assert(bucket == 0 || end - first >= 2, "no single-word buckets are stored");
            for (uint32_t at = first + 1; at < end; at++) {
                cr_assert_lt(group->members[at - 1], group->members[at], "ascending");
            }
        }
        dictionary_free(dict);
    }
}

/* The substitution index keeps, per position, exactly the letters that occur there, ascending. */
Test(dictionary, substitution_alphabet_is_the_letters_seen_at_each_position) {
    const uint32_t words[3][3] = {{'c', 'a', 't'}, {0x3C9, 'a', 'r'}, {'b', 'o', 't'}};
    dictionary_builder *builder = dictionary_builder_new(0, DICTIONARY_NEIGHBOUR_SUBSTITUTION);
    for (int i = 0; i < 3; i++) {
        cr_assert(dictionary_builder_add(builder, words[i], 3));
    }
    dictionary *dict = NULL;
    cr_assert_eq(dictionary_builder_finish(builder, NULL, &dict), CORE_OK);
    cr_assert_not_null(dict);
    const dictionary_group *group = dictionary_group_of_length(dict, 3);
    cr_assert_null(group->bucket_of);
    const uint32_t expected[] = {'b', 'c', 0x3C9, 'a', 'o', 'r', 't'};
    const uint32_t starts[] = {0, 3, 5, 7};
    cr_assert_arr_eq(group->alphabet_start, starts, sizeof starts);
    cr_assert_arr_eq(group->alphabet, expected, sizeof expected);
    dictionary_free(dict);
}

static void deadline_stops_the_build(dictionary_neighbour_index index) {
    dictionary_builder *builder = dictionary_builder_new(0, index);
    uint32_t letters[4] = {'a', 'a', 'a', 'a'};
    for (int i = 0; i < 5000; i++) {
        for (int p = 0; p < 4; p++) {
            letters[p] = 'a' + (uint32_t)((i >> (2 * p)) % 26);
        }
        cr_assert(dictionary_builder_add(builder, letters, 4));
    }
    deadline expired = deadline_after_ms(0);
    dictionary *dict = NULL;
    cr_assert_eq(dictionary_builder_finish(builder, &expired, &dict), CORE_DEADLINE);
    cr_assert_null(dict);
}

Test(dictionary, deadline_stops_the_bucket_build) { deadline_stops_the_build(DICTIONARY_NEIGHBOUR_BUCKETS); }

Test(dictionary, deadline_stops_the_substitution_build) { deadline_stops_the_build(DICTIONARY_NEIGHBOUR_SUBSTITUTION); }

Test(dictionary, file_loader_skips_entries_that_are_not_lowercase_words) {
    char path[] = "/tmp/puzzled-dict-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    const char content[] = "cold\nCold\nBoston\ncold's\nNASA\nwarm\r\n\n\xC3\xA9t\xC3\xA9\n\xC3\xA9t\xC3\xA0\n"
                           "bad\xC3\n\xC3\x89t\xC3\xA9\ncord\nx-ray\nco ld\nward";
    cr_assert_eq(write(fd, content, sizeof content - 1), (ssize_t)(sizeof content - 1));
    close(fd);
    dictionary *dict = NULL;
    dictionary_file_stats stats;
    cr_assert_eq(dictionary_load_file(path, &dict, &stats), CORE_OK);
    cr_assert_not_null(dict);
    unlink(path);
    cr_assert_eq(stats.lines, 15);
    cr_assert_eq(stats.skipped, 9);
    cr_assert_eq(dict->word_count, 6);
    uint32_t index;
    const char *kept[] = {"cold", "warm", "cord", "ward", "\xC3\xA9t\xC3\xA9", "\xC3\xA9t\xC3\xA0"};
    for (size_t i = 0; i < 6; i++) {
        cr_assert(find_text(dict, kept[i], &index), "%s", kept[i]);
    }
    dictionary_free(dict);
}

Test(dictionary, missing_file_is_unreadable) {
    dictionary *dict = NULL;
    dictionary_file_stats stats;
    cr_assert_eq(dictionary_load_file("/nonexistent/words", &dict, &stats), CORE_OK);
    cr_assert_null(dict);
    cr_assert_str_eq(stats.unreadable, "/nonexistent/words");
}

Test(dictionary, loads_the_system_word_list) {
    dictionary *dict = NULL;
    dictionary_file_stats stats;
    cr_assert_eq(dictionary_load_file("/usr/share/dict/words", &dict, &stats), CORE_OK);
    cr_assert_not_null(dict);
    /* Count the entries of the same rule independently: Python's notion of lowercase letters. */
    FILE *python = popen("python3 -c \"import unicodedata as u; print(len({w for w in "
                         "open('/usr/share/dict/words', encoding='utf-8').read().split('\\n') "
                         "if w and all(u.category(c) == 'Ll' for c in w)}))\"",
                         "r");
    size_t expected = 0;
    cr_assert_eq(fscanf(python, "%zu", &expected), 1);
    pclose(python);
    cr_assert_eq(dict->word_count, expected);
    cr_assert_gt(expected, 60000);
    dictionary_free(dict);
}
