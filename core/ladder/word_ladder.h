/* Word ladders (Lewis Carroll's doublets): every shortest chain of words from one word to another of
 * the same length, changing one letter per step, within one group of a dictionary.
 *
 * The search is a bidirectional breadth-first search that expands the smaller frontier one whole
 * level at a time and stops after the first level in which the two searches meet: at that point
 * every meeting word lies on a shortest ladder and the length is exact (stopping at the first
 * meeting *word* could overshoot). The BFS levels are kept, and the layered graph of shortest
 * ladders is recovered by walking back from the meeting words towards both ends. Ladders are then
 * counted along the layers with GMP (the total may be astronomically large) and listed by an
 * iterator in lexicographic order (comparing words by code points, position by position) that holds
 * one ladder at a time, so no whole paths are ever queued or stored. Time and memory are O(letters of the
 * words reached + their neighbour links); the deadline is polled throughout. */
#ifndef PUZZLED_CORE_WORD_LADDER_H
#define PUZZLED_CORE_WORD_LADDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gmp.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/ladder/dictionary.h"

/* The shortest ladders between two words: their count and the layered graph that lists them. */
typedef struct word_ladders word_ladders;

/* Searches `group` from word index `from` to word index `to`. On CORE_OK `*out` holds the
 * result (word_ladders_free it), also when no ladder exists. `deadline` may be NULL. */
core_status word_ladders_find(const dictionary_group *group, uint32_t from, uint32_t to, const deadline *deadline,
                              word_ladders **out);

bool word_ladders_found(const word_ladders *ladders);
/* Steps of every shortest ladder (0 when from == to); meaningless when not found. */
size_t word_ladders_steps(const word_ladders *ladders);
/* The number of shortest ladders (0 when not found). */
const __mpz_struct *word_ladders_total(const word_ladders *ladders);
void word_ladders_free(word_ladders *ladders);

/* Lists the shortest ladders one at a time. */
typedef struct word_ladder_iter {
    const word_ladders *ladders;
    uint32_t *vertex; /* the current ladder as layer-graph vertices, steps + 1 of them */
    uint32_t *choice; /* choice[i]: which successor of vertex[i-1] vertex[i] is */
    uint32_t *words;  /* the current ladder as word indices */
    bool started;
    bool finished;
} word_ladder_iter;

/* False when out of memory (nothing to free then). */
bool word_ladder_iter_init(word_ladder_iter *iter, const word_ladders *ladders);
/* The next ladder as steps + 1 word indices (valid until the next call), or NULL after the last. */
const uint32_t *word_ladder_iter_next(word_ladder_iter *iter);
void word_ladder_iter_free(word_ladder_iter *iter);

#endif
