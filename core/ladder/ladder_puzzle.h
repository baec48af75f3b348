/* Word-ladder puzzles for games: a pair of words whose shortest ladder has exactly the number of
 * steps asked for, drawn at random from a seeded generator (so a seed replays the puzzle), or the
 * proof that no such pair exists. With `unknown_ends`, the two ends are strings of the group's letters
 * outside the dictionary (as Knuth's `ladders` accepts) and every inner word is in it.
 *
 * Known ends: the start words are tried in a random order; a breadth-first search from each, stopped
 * at depth `steps`, gives the words at exactly that distance, and one of them is drawn. Unknown ends:
 * the same search for `steps - 2` gives an inner pair (a, b); each end is a or b with one letter
 * changed to a letter of the group so that it is not a word, and the pair is kept only if its
 * shortest ladder, searched in the group plus the two ends, has exactly `steps` steps (the ends may
 * have shorter ways in; a few such draws are tried per start). Either way, when every start has been
 * tried there is no puzzle (for unknown ends: none was found in those draws). */
#ifndef PUZZLED_CORE_LADDER_PUZZLE_H
#define PUZZLED_CORE_LADDER_PUZZLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/common/deadline.h"
#include "core/common/status.h"
#include "core/ladder/dictionary.h"
#include "core/ladder/word_ladder.h"
#include "core/random/rng.h"

typedef struct ladder_puzzle {
    bool found;
    dictionary *with_ends;         /* unknown ends: the group's words plus the two ends; else NULL */
    const dictionary_group *group; /* where from, to and the ladders' words are */
    uint32_t from, to;
    word_ladders *ladders; /* every shortest ladder from `from` to `to` */
} ladder_puzzle;

/* Draws a puzzle of `steps` >= 1 steps (>= 2 with `unknown_ends`) from `group`. On CORE_OK `*out`
 * is set (ladder_puzzle_free it), with found false when there is none. */
core_status ladder_puzzle_draw(const dictionary_group *group, size_t steps, bool unknown_ends, rng *generator,
                               const deadline *deadline, ladder_puzzle *out);
void ladder_puzzle_free(ladder_puzzle *puzzle);

#endif
