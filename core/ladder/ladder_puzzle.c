/* Word-ladder puzzles (see ladder_puzzle.h). */
#include "core/ladder/ladder_puzzle.h"

#include <stdlib.h>
#include <string.h>

#include "core/random/bounded_random.h"

enum {
    END_DRAWS_PER_START = 4, /* unknown ends: pairs of ends tried around one inner pair */
    POLL_EVERY = 1024,       /* words visited between two looks at the deadline */
};

/* Scratch for the depth-limited searches, reused from start to start. */
typedef struct search {
    const dictionary_group *group;
    uint32_t *depth; /* UINT32_MAX: not reached (reset after each search) */
    uint32_t *queue;
    uint32_t *order; /* the start words, shuffled as they are drawn */
    uint32_t starts_left;
} search;

static void search_free(search *s) {
    free(s->depth);
    free(s->queue);
    free(s->order);
}

static bool search_init(search *s, const dictionary_group *group) {
    *s = (search){.group = group, .starts_left = group->count};
    s->depth = malloc(group->count * sizeof *s->depth);
    s->queue = malloc(group->count * sizeof *s->queue);
    s->order = malloc(group->count * sizeof *s->order);
    if (s->depth == NULL || s->queue == NULL || s->order == NULL) return false;
    for (uint32_t w = 0; w < group->count; w++) s->depth[w] = UINT32_MAX, s->order[w] = w;
    return true;
}

/* The next start in a uniformly random order (Fisher-Yates, one step per start); false when all were
 * drawn. */
static bool next_start(search *s, rng *generator, uint32_t *start) {
    if (s->starts_left == 0) return false;
    uint32_t pick = (uint32_t)bounded_random(generator, s->starts_left--);
    *start = s->order[pick];
    s->order[pick] = s->order[s->starts_left];
    s->order[s->starts_left] = *start;
    return true;
}

/* Breadth-first search from `start` down to depth `target`: the words at exactly that depth are
 * s->queue[*first .. *end). CORE_DEADLINE when the time runs out. */
static core_status reach(search *s, uint32_t start, size_t target, const deadline *deadline, uint32_t *first,
                         uint32_t *end) {
    const dictionary_group *g = s->group;
    uint32_t head = 0, tail = 0, visited = 0;
    s->depth[start] = 0;
    s->queue[tail++] = start;
    *first = 0;
    while (head < tail && s->depth[s->queue[head]] < target) {
        uint32_t word = s->queue[head++];
        if (++visited % POLL_EVERY == 0 && deadline != NULL && deadline_expired(deadline)) {
            for (uint32_t i = 0; i < tail; i++) s->depth[s->queue[i]] = UINT32_MAX;
            return CORE_DEADLINE;
        }
        DICTIONARY_FOR_EACH_NEIGHBOUR(g, word, next, {
            if (s->depth[next] != UINT32_MAX) continue;
            s->depth[next] = s->depth[word] + 1;
            s->queue[tail++] = next;
        });
    }
    *first = head; /* the queue from here on holds depth `target` only */
    *end = tail;
    while (*first < tail && s->depth[s->queue[*first]] != target) (*first)++;
    for (uint32_t i = 0; i < tail; i++) s->depth[s->queue[i]] = UINT32_MAX;
    return CORE_OK;
}

/* The group's letters, sorted and distinct, for making words that are not in it. */
static uint32_t *letters_of(const dictionary_group *g, size_t *count) {
    size_t total = (size_t)g->count * g->length;
    uint32_t *letters = malloc((total ? total : 1) * sizeof *letters);
    if (letters == NULL) return NULL;
    memcpy(letters, g->letters, total * sizeof *letters);
    /* insertion into a sorted distinct prefix: the alphabet is small */
    size_t distinct = 0;
    for (size_t i = 0; i < total; i++) {
        uint32_t letter = letters[i];
        size_t at = 0;
        while (at < distinct && letters[at] < letter) at++;
        if (at < distinct && letters[at] == letter) continue;
        memmove(&letters[at + 1], &letters[at], (distinct - at) * sizeof *letters);
        letters[at] = letter;
        distinct++;
    }
    *count = distinct;
    return letters;
}

/* `word` with one letter changed so that it is not in the group, into `out`; false when the draw
 * landed on a word (the caller draws again). */
static bool draw_outside(const dictionary_group *g, uint32_t word, const uint32_t *alphabet, size_t letters,
                         rng *generator, uint32_t *out) {
    uint64_t position, letter;
    bounded_random_pair(generator, g->length, letters, &position, &letter);
    memcpy(out, dictionary_group_word(g, word), g->length * sizeof *out);
    out[position] = alphabet[letter];
    uint32_t index;
    return !dictionary_group_find(g, out, &index);
}

/* The puzzle from `from_letters` to `to_letters` in the group plus those two words, kept in `out`
 * when its shortest ladder has exactly `steps` steps. */
static core_status try_ends(const dictionary_group *g, const uint32_t *from_letters, const uint32_t *to_letters,
                            size_t steps, const deadline *deadline, ladder_puzzle *out) {
    dictionary *with_ends = NULL;
    word_ladders *ladders = NULL;
    core_status status = CORE_NO_MEMORY;
    dictionary_builder *builder = dictionary_builder_new(
        g->length, g->bucket_of != NULL ? DICTIONARY_NEIGHBOUR_BUCKETS : DICTIONARY_NEIGHBOUR_SUBSTITUTION);
    if (builder == NULL) goto out;
    for (uint32_t w = 0; w < g->count; w++)
        if (!dictionary_builder_add(builder, dictionary_group_word(g, w), g->length)) goto out;
    if (!dictionary_builder_add(builder, from_letters, g->length) ||
        !dictionary_builder_add(builder, to_letters, g->length))
        goto out;
    status = dictionary_builder_finish(builder, deadline, &with_ends);
    builder = NULL;                                       /* freed by finishing */
    if (status != CORE_OK || with_ends == NULL) goto out; /* NULL: too many letters to index, so no puzzle */
    const dictionary_group *group = dictionary_group_of_length(with_ends, g->length);
    uint32_t from, to;
    dictionary_group_find(group, from_letters, &from);
    dictionary_group_find(group, to_letters, &to);
    if (from == to) goto out;
    status = word_ladders_find(group, from, to, deadline, &ladders);
    if (status != CORE_OK || !word_ladders_found(ladders) || word_ladders_steps(ladders) != steps) goto out;
    *out = (ladder_puzzle){
        .found = true, .with_ends = with_ends, .group = group, .from = from, .to = to, .ladders = ladders};
    with_ends = NULL;
    ladders = NULL;
out:
    dictionary_builder_free(builder);
    word_ladders_free(ladders);
    dictionary_free(with_ends);
    return status;
}

/* Unknown ends around the inner pairs at distance steps - 2 from `start`. */
static core_status draw_unknown_ends(search *s, uint32_t start, size_t steps, const uint32_t *alphabet, size_t letters,
                                     rng *generator, const deadline *deadline, uint32_t *scratch, ladder_puzzle *out) {
    const dictionary_group *g = s->group;
    uint32_t first, end;
    core_status status = reach(s, start, steps - 2, deadline, &first, &end);
    if (status != CORE_OK) return status;
    for (int draw = 0; first < end && draw < END_DRAWS_PER_START && !out->found; draw++) {
        uint32_t inner_end = s->queue[first + bounded_random(generator, end - first)];
        uint32_t *from_letters = scratch, *to_letters = scratch + g->length;
        if (!draw_outside(g, start, alphabet, letters, generator, from_letters) ||
            !draw_outside(g, inner_end, alphabet, letters, generator, to_letters))
            continue;
        status = try_ends(g, from_letters, to_letters, steps, deadline, out);
        if (status != CORE_OK) return status;
    }
    return CORE_OK;
}

core_status ladder_puzzle_draw(const dictionary_group *group, size_t steps, bool unknown_ends, rng *generator,
                               const deadline *deadline, ladder_puzzle *out) {
    *out = (ladder_puzzle){.group = group};
    search s;
    size_t letters = 0;
    uint32_t *alphabet = unknown_ends ? letters_of(group, &letters) : NULL;
    uint32_t *scratch = malloc(2 * group->length * sizeof *scratch);
    core_status status = CORE_OK;
    if (!search_init(&s, group) || scratch == NULL || (unknown_ends && alphabet == NULL)) {
        status = CORE_NO_MEMORY;
        goto out;
    }
    uint32_t start;
    while (!out->found && next_start(&s, generator, &start)) {
        if (unknown_ends) {
            status = draw_unknown_ends(&s, start, steps, alphabet, letters, generator, deadline, scratch, out);
            if (status != CORE_OK) goto out;
            continue;
        }
        uint32_t first, end;
        status = reach(&s, start, steps, deadline, &first, &end);
        if (status != CORE_OK) goto out;
        if (first == end) continue;
        uint32_t to = s.queue[first + bounded_random(generator, end - first)];
        status = word_ladders_find(group, start, to, deadline, &out->ladders);
        if (status != CORE_OK) goto out;
        out->found = true, out->from = start, out->to = to;
    }
out:
    search_free(&s);
    free(alphabet);
    free(scratch);
    return status;
}

void ladder_puzzle_free(ladder_puzzle *puzzle) {
    word_ladders_free(puzzle->ladders);
    dictionary_free(puzzle->with_ends);
    *puzzle = (ladder_puzzle){0};
}
