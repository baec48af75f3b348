/* Shortest word ladders: bidirectional level-synchronous BFS, the layered graph of shortest ladders
 * recovered from the kept BFS levels, GMP counting and a lexicographic iterator (see word_ladder.h). */
#include "core/ladder/word_ladder.h"
#include "core/common/progress.h"

#include <stdlib.h>
#include <string.h>

enum { POLL_EVERY = 16384 };

struct word_ladders {
    bool found;
    size_t steps;
    mpz_t total;
    /* Layer i of the graph of shortest ladders (words at distance i from `from` on some shortest
     * ladder) holds vertices layer_start[i] .. layer_start[i+1]-1. Vertex 0 is `from`, the last
     * vertex is `to`. */
    size_t *layer_start;
    uint32_t *vertex_word;
    size_t vertex_count;
    /* Successors of vertex a (in the next layer, in code-point order of their words):
     * successor[successor_start[a] .. successor_start[a+1]). */
    size_t *successor_start;
    uint32_t *successor;
};

/* One direction of the search: distances and the visited words in BFS order, level by level. */
typedef struct bfs_side {
    int32_t *distance;   /* per word of the group, -1 when not reached */
    uint32_t *order;     /* reached words, level after level */
    size_t *level_start; /* level k is order[level_start[k] .. level_start[k+1]) */
    size_t levels;       /* completed levels; the newest is levels - 1 */
} bfs_side;

/* A work counter that polls the deadline once at least POLL_EVERY units of work were done since the
 * last poll (a unit: about one letter or one link looked at). */
typedef struct work_clock {
    const deadline *deadline;
    size_t since_poll;
} work_clock;

static bool out_of_time(work_clock *clock, size_t units) {
    clock->since_poll += units;
    if (clock->since_poll < POLL_EVERY) {
        return false;
    }
    progress_add(progress_of(clock->deadline), clock->since_poll);
    clock->since_poll = 0;
    return deadline_expired(clock->deadline);
}

static bool side_init(bfs_side *side, size_t word_count, uint32_t root) {
    side->distance = malloc(word_count * sizeof *side->distance);
    side->order = malloc(word_count * sizeof *side->order);
    side->level_start = malloc((word_count + 2) * sizeof *side->level_start);
    if (side->distance == NULL || side->order == NULL || side->level_start == NULL) {
        return false;
    }
    memset(side->distance, 0xFF, word_count * sizeof *side->distance);
    side->distance[root] = 0;
    side->order[0] = root;
    side->level_start[0] = 0;
    side->level_start[1] = 1;
    side->levels = 1;
    return true;
}

static void side_free(bfs_side *side) {
    free(side->distance);
    free(side->order);
    free(side->level_start);
}

static size_t frontier_size(const bfs_side *side) {
    return side->level_start[side->levels] - side->level_start[side->levels - 1];
}

/* Expands the newest level of `side` completely; *met tells whether a new word was already reached
 * by `other`. False when the deadline passed. */
static bool expand_level(const dictionary_group *group, bfs_side *side, const bfs_side *other, work_clock *clock,
                         bool *met) {
    size_t level = side->levels - 1;
    size_t end = side->level_start[side->levels];
    size_t reached = end;
    int32_t next_distance = (int32_t)level + 1;
    for (size_t at = side->level_start[level]; at < end; at++) {
        if (out_of_time(clock, dictionary_group_neighbour_work(group))) {
            return false;
        }
        uint32_t word = side->order[at];
        DICTIONARY_FOR_EACH_NEIGHBOUR(group, word, next, {
            if (side->distance[next] < 0) {
                side->distance[next] = next_distance;
                side->order[reached++] = next;
                *met = *met || other->distance[next] >= 0;
            }
        });
    }
    side->levels++;
    side->level_start[side->levels] = reached;
    return true;
}

/* Orders vertices by their words in code-point order (the order ladders are listed in). */
typedef struct vertex_order {
    const dictionary_group *group;
    const uint32_t *vertex_word;
} vertex_order;

static int compare_vertex_words(const void *a, const void *b, void *context) {
    const vertex_order *order = context;
    const uint32_t *x = dictionary_group_word(order->group, order->vertex_word[*(const uint32_t *)a]);
    const uint32_t *y = dictionary_group_word(order->group, order->vertex_word[*(const uint32_t *)b]);
    for (size_t i = 0; i < order->group->length; i++) {
        if (x[i] != y[i]) {
            return x[i] < y[i] ? -1 : 1;
        }
    }
    return 0;
}

static bool has_neighbour_in_layer(const dictionary_group *group, uint32_t word, const int32_t *layer_of,
                                   int32_t layer) {
    DICTIONARY_FOR_EACH_NEIGHBOUR(group, word, next, {
        if (layer_of[next] == layer) {
            return true;
        }
    });
    return false;
}

/* Appends to `out` the words of `candidates` having a neighbour in layer `neighbour_layer`
 * (per `layer_of`), marks them as layer `layer`, and returns how many there are. */
static size_t collect_layer(const dictionary_group *group, const uint32_t *candidates, size_t candidate_count,
                            int32_t *layer_of, int32_t layer, int32_t neighbour_layer, uint32_t *out, work_clock *clock,
                            bool *expired) {
    size_t count = 0;
    for (size_t c = 0; c < candidate_count; c++) {
        if (out_of_time(clock, dictionary_group_neighbour_work(group))) {
            *expired = true;
            return 0;
        }
        if (has_neighbour_in_layer(group, candidates[c], layer_of, neighbour_layer)) {
            out[count++] = candidates[c];
        }
    }
    for (size_t c = 0; c < count; c++) {
        layer_of[out[c]] = layer;
    }
    return count;
}

/* Recovers the layers of the graph of shortest ladders from the BFS levels. `meeting_layer` is the
 * distance from `from` of the words where the searches met: they are the newest level of `met_side`
 * that `waiting_side` has reached. Layers before it come from the `from` search, layers after it from
 * the `to` search, each word kept when it links to the layer already recovered next to it. */
static core_status build_layers(word_ladders *result, const dictionary_group *group, const bfs_side *from,
                                const bfs_side *to, const bfs_side *met_side, const bfs_side *waiting_side,
                                size_t meeting_layer, int32_t *layer_of, work_clock *clock) {
    size_t steps = result->steps;
    size_t capacity = from->level_start[from->levels] + to->level_start[to->levels];
    uint32_t *scratch = malloc(capacity * sizeof *scratch);
    size_t *scratch_start = malloc((steps + 1) * sizeof *scratch_start);
    size_t *scratch_count = malloc((steps + 1) * sizeof *scratch_count);
    result->layer_start = malloc((steps + 2) * sizeof *result->layer_start);
    result->vertex_word = malloc(capacity * sizeof *result->vertex_word);
    core_status status = CORE_NO_MEMORY;
    bool expired = false;
    if (scratch == NULL || scratch_start == NULL || scratch_count == NULL || result->layer_start == NULL ||
        result->vertex_word == NULL) {
        goto out;
    }
    status = CORE_DEADLINE;
    size_t newest = met_side->levels - 1;
    size_t used = 0;
    for (size_t at = met_side->level_start[newest]; at < met_side->level_start[newest + 1]; at++) {
        uint32_t word = met_side->order[at];
        if (waiting_side->distance[word] >= 0) {
            scratch[used++] = word;
            layer_of[word] = (int32_t)meeting_layer;
        }
    }
    scratch_start[meeting_layer] = 0;
    scratch_count[meeting_layer] = used;
    for (size_t layer = meeting_layer; layer-- > 0;) {
        const uint32_t *candidates = from->order + from->level_start[layer];
        size_t candidate_count = from->level_start[layer + 1] - from->level_start[layer];
        scratch_start[layer] = used;
        scratch_count[layer] = collect_layer(group, candidates, candidate_count, layer_of, (int32_t)layer,
                                             (int32_t)layer + 1, scratch + used, clock, &expired);
        if (expired) {
            goto out;
        }
        used += scratch_count[layer];
    }
    for (size_t layer = meeting_layer + 1; layer <= steps; layer++) {
        size_t level = steps - layer;
        const uint32_t *candidates = to->order + to->level_start[level];
        size_t candidate_count = to->level_start[level + 1] - to->level_start[level];
        scratch_start[layer] = used;
        scratch_count[layer] = collect_layer(group, candidates, candidate_count, layer_of, (int32_t)layer,
                                             (int32_t)layer - 1, scratch + used, clock, &expired);
        if (expired) {
            goto out;
        }
        used += scratch_count[layer];
    }
    size_t vertex = 0;
    for (size_t layer = 0; layer <= steps; layer++) {
        result->layer_start[layer] = vertex;
        memcpy(result->vertex_word + vertex, scratch + scratch_start[layer], scratch_count[layer] * sizeof *scratch);
        vertex += scratch_count[layer];
    }
    result->layer_start[steps + 1] = vertex;
    result->vertex_count = vertex;
    status = CORE_OK;
out:
    free(scratch);
    free(scratch_start);
    free(scratch_count);
    return status;
}

/* Links every vertex to its neighbours in the next layer, in code-point order. `vertex_of` maps words to
 * vertices (-1 for words not on a shortest ladder). */
static core_status build_successors(word_ladders *result, const dictionary_group *group, const int32_t *vertex_of,
                                    work_clock *clock) {
    size_t capacity = 64;
    size_t used = 0;
    result->successor_start = malloc((result->vertex_count + 1) * sizeof *result->successor_start);
    result->successor = malloc(capacity * sizeof *result->successor);
    if (result->successor_start == NULL || result->successor == NULL) {
        return CORE_NO_MEMORY;
    }
    vertex_order order = {group, result->vertex_word};
    for (size_t layer = 0; layer < result->steps; layer++) {
        int64_t next_first = (int64_t)result->layer_start[layer + 1];
        int64_t next_end = (int64_t)result->layer_start[layer + 2];
        for (size_t vertex = result->layer_start[layer]; vertex < result->layer_start[layer + 1]; vertex++) {
            if (out_of_time(clock, dictionary_group_neighbour_work(group))) {
                return CORE_DEADLINE;
            }
            result->successor_start[vertex] = used;
            uint32_t word = result->vertex_word[vertex];
            DICTIONARY_FOR_EACH_NEIGHBOUR(group, word, next, {
                int64_t target = vertex_of[next];
                if (target >= next_first && target < next_end) {
                    if (used == capacity) {
                        uint32_t *grown = realloc(result->successor, 2 * capacity * sizeof *grown);
                        if (grown == NULL) {
                            return CORE_NO_MEMORY;
                        }
                        result->successor = grown;
                        capacity *= 2;
                    }
                    result->successor[used++] = (uint32_t)target;
                }
            });
            size_t first = result->successor_start[vertex];
            qsort_r(result->successor + first, used - first, sizeof *result->successor, compare_vertex_words, &order);
        }
    }
    for (size_t vertex = result->layer_start[result->steps]; vertex <= result->vertex_count; vertex++) {
        result->successor_start[vertex] = used;
    }
    return CORE_OK;
}

/* Counts the ladders: paths from vertex 0 to every vertex, layer by layer. */
static core_status count_ladders(word_ladders *result, work_clock *clock) {
    mpz_t *paths = malloc(result->vertex_count * sizeof *paths);
    if (paths == NULL) {
        return CORE_NO_MEMORY;
    }
    for (size_t vertex = 0; vertex < result->vertex_count; vertex++) {
        mpz_init(paths[vertex]);
    }
    mpz_set_ui(paths[0], 1);
    core_status status = CORE_DEADLINE;
    for (size_t vertex = 0; vertex < result->vertex_count; vertex++) {
        for (size_t at = result->successor_start[vertex]; at < result->successor_start[vertex + 1]; at++) {
            if (out_of_time(clock, 1)) {
                goto out;
            }
            mpz_add(paths[result->successor[at]], paths[result->successor[at]], paths[vertex]);
        }
    }
    mpz_set(result->total, paths[result->vertex_count - 1]);
    status = CORE_OK;
out:
    for (size_t vertex = 0; vertex < result->vertex_count; vertex++) {
        mpz_clear(paths[vertex]);
    }
    free(paths);
    return status;
}

/* Runs the bidirectional search and, when the ends meet, builds the layered graph and the count. */
static core_status search(word_ladders *result, const dictionary_group *group, uint32_t from_word, uint32_t to_word,
                          work_clock *clock) {
    bfs_side from = {0};
    bfs_side to = {0};
    int32_t *layer_of = NULL;
    core_status status = CORE_NO_MEMORY;
    bool met = from_word == to_word; /* a ladder of one word, 0 steps */
    bfs_side *met_side = &from;
    if (!side_init(&from, group->count, from_word) || !side_init(&to, group->count, to_word)) {
        goto out;
    }
    status = CORE_DEADLINE;
    while (!met && frontier_size(&from) > 0 && frontier_size(&to) > 0) {
        bool from_smaller = frontier_size(&from) <= frontier_size(&to);
        met_side = from_smaller ? &from : &to;
        if (!expand_level(group, met_side, from_smaller ? &to : &from, clock, &met)) {
            goto out;
        }
    }
    status = CORE_OK;
    if (!met) {
        goto out;
    }
    result->found = true;
    result->steps = (from.levels - 1) + (to.levels - 1);
    status = CORE_NO_MEMORY;
    layer_of = malloc(group->count * sizeof *layer_of);
    if (layer_of == NULL) {
        goto out;
    }
    memset(layer_of, 0xFF, group->count * sizeof *layer_of);
    status = build_layers(result, group, &from, &to, met_side, met_side == &from ? &to : &from, from.levels - 1,
                          layer_of, clock);
    if (status != CORE_OK) {
        goto out;
    }
    int32_t *vertex_of = layer_of; /* exactly the words with a layer get a vertex */
    for (size_t vertex = 0; vertex < result->vertex_count; vertex++) {
        vertex_of[result->vertex_word[vertex]] = (int32_t)vertex;
    }
    status = build_successors(result, group, vertex_of, clock);
    if (status != CORE_OK) {
        goto out;
    }
    status = count_ladders(result, clock);
out:
    free(layer_of);
    side_free(&from);
    side_free(&to);
    return status;
}

core_status word_ladders_find(const dictionary_group *group, uint32_t from, uint32_t to, const deadline *deadline,
                              word_ladders **out) {
    word_ladders *result = calloc(1, sizeof *result);
    if (result == NULL) {
        return CORE_NO_MEMORY;
    }
    mpz_init(result->total);
    work_clock clock = {.deadline = deadline};
    progress_begin(progress_of(deadline), "steps", PROGRESS_NO_TOTAL); /* the clock's units of work */
    core_status status = search(result, group, from, to, &clock);
    if (status == CORE_OK) {
        *out = result;
    } else {
        word_ladders_free(result);
    }
    return status;
}

bool word_ladders_found(const word_ladders *ladders) { return ladders->found; }

size_t word_ladders_steps(const word_ladders *ladders) { return ladders->steps; }

const __mpz_struct *word_ladders_total(const word_ladders *ladders) { return ladders->total; }

void word_ladders_free(word_ladders *ladders) {
    if (ladders == NULL) {
        return;
    }
    mpz_clear(ladders->total);
    free(ladders->layer_start);
    free(ladders->vertex_word);
    free(ladders->successor_start);
    free(ladders->successor);
    free(ladders);
}

bool word_ladder_iter_init(word_ladder_iter *iter, const word_ladders *ladders) {
    size_t length = ladders->steps + 1;
    *iter = (word_ladder_iter){.ladders = ladders, .finished = !ladders->found};
    iter->vertex = malloc(length * sizeof *iter->vertex);
    iter->choice = malloc(length * sizeof *iter->choice);
    iter->words = malloc(length * sizeof *iter->words);
    if (iter->vertex == NULL || iter->choice == NULL || iter->words == NULL) {
        word_ladder_iter_free(iter);
        return false;
    }
    return true;
}

/* Completes the ladder from position `first` on with the first successor at every step. Every vertex
 * but `to` has a successor, because each lies on a shortest ladder. */
static void descend(word_ladder_iter *iter, size_t first) {
    const word_ladders *ladders = iter->ladders;
    for (size_t i = first; i <= ladders->steps; i++) {
        iter->choice[i] = 0;
        iter->vertex[i] = ladders->successor[ladders->successor_start[iter->vertex[i - 1]]];
    }
}

const uint32_t *word_ladder_iter_next(word_ladder_iter *iter) {
    const word_ladders *ladders = iter->ladders;
    if (iter->finished) {
        return NULL;
    }
    if (!iter->started) {
        iter->started = true;
        iter->vertex[0] = 0;
        descend(iter, 1);
    } else {
        /* Advance the deepest position that has another successor left. */
        size_t i = ladders->steps;
        for (; i > 0; i--) {
            uint32_t previous = iter->vertex[i - 1];
            size_t options = ladders->successor_start[previous + 1] - ladders->successor_start[previous];
            if (iter->choice[i] + 1 < options) {
                iter->choice[i]++;
                iter->vertex[i] = ladders->successor[ladders->successor_start[previous] + iter->choice[i]];
                descend(iter, i + 1);
                break;
            }
        }
        if (i == 0) {
            iter->finished = true;
            return NULL;
        }
    }
    for (size_t i = 0; i <= ladders->steps; i++) {
        iter->words[i] = ladders->vertex_word[iter->vertex[i]];
    }
    return iter->words;
}

void word_ladder_iter_free(word_ladder_iter *iter) {
    free(iter->vertex);
    free(iter->choice);
    free(iter->words);
    iter->vertex = iter->choice = iter->words = NULL;
}
