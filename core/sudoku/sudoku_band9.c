/* The 9 x 9 search, built for speed: the same answers as the general search of sudoku_solver.c,
 * from a state of about 370 bytes that propagates with table look-ups and bit operations.
 *
 * What it learnt from the fastest published solvers (their designs read, no code taken):
 *  - JCZSolve (by "zhouyundong", refined by J. C. Zeiss) and fsss2 (M. Dobrichev), as surveyed and
 *    benchmarked in tdoku's docs/sudoku.md (t-dillon/tdoku): keep, for each digit, its candidate
 *    cells as three 27-bit words, one per band of three rows. A band holds each digit once in each
 *    of its rows and once in each of its boxes, so the (row, box) pairs where a digit may go must
 *    contain a one-to-one match of the band's three rows with its three boxes (6 exist). A 9-bit
 *    summary of the open pairs indexes a table of the pairs lying on such a match: one look-up does
 *    pointing and claiming (locked candidates) inside the band, finds the hidden singles of its rows
 *    and boxes, and reports a contradiction when no match is left.
 *  - A box whose candidates for a digit lie in one column fixes that column to the band (the other
 *    bands lose it); a column that only this band still has claims its box (the box's other columns
 *    lose the digit); a column no band has is a contradiction. That gives the columns' hidden
 *    singles and locked candidates too.
 *  - Naked singles come from bit-sliced counting over the nine digit words of a band (the cells
 *    seen once, twice), as JCZSolve does, rather than from a loop over cells.
 *  - tdoku's "triads" (docs/sudoku.md, "Cardinality Constraints"): the three cells where a row meets
 *    a box hold exactly three digits, and so do the three where a column meets a box. Counted
 *    bit-sliced over the digits' 9-bit pair summaries, a triad only three digits can reach takes all
 *    three, and a triad three digits must use is closed to the others. The column side reads a
 *    stack (three columns of boxes) as a band on its side: its (band, column) pairs hold a match of
 *    its bands with its columns, and the same tables count them. On the forum's hardest puzzles the
 *    row side cut the search nodes by a sixth, the column side by another eighth (156 to 136 a
 *    puzzle).
 *  - tdoku's guess: among the three bands and the three stacks, the one with the fewest matches
 *    left over all its digits, and in it the digit with the fewest (usually two): a branch fixes
 *    that digit's pairs there at once. Measured here against guessing a cell with two candidates
 *    (JCZSolve's way): a fifth fewer nodes; the stacks took another twelfth off (170 to 156). Once
 *    all six have one match per digit, every cell is fixed, so no cell is ever guessed. Each
 *    branch of a guess but the last works on a copy of the whole state (no undo log); the last, as
 *    in tdoku, takes the state itself.
 *  - tdoku gets its last factor from SIMD over triads (SSE4.1/AVX2) and profile-guided builds. This
 *    file is C11 on 32-bit words, with one generic vector (GCC/Clang `vector_size`, no intrinsics)
 *    to find the changed words: the service's binary is built for a generic x86-64 or arm64 target,
 *    and a band word already fills a scalar register, so there is no instruction-set path to pick at
 *    run time. Figures and ratios: docs/sudoku.md.
 *
 * Layout: word [digit * 3 + band] has bit 9 * row + column set while the digit may go in that
 * cell (row 0..2 of the band). A digit's cell in a row of a band is "fixed" once that row holds a
 * single candidate: the cell is then taken from the other digits and from the band's open cells.
 * Key invariant: after propagate() returns true, no word changed since its last band step (so the
 * pairs and columns that step kept are the word's own), every open cell has two candidates or
 * more, and a state where every band and stack has one match per digit has no open cell and is a
 * solution. */
#include "core/sudoku/sudoku_band9.h"
#include "core/common/progress.h"

#include <limits.h>
#include <pthread.h>
#include <string.h>

enum {
    DIGITS = 9,
    BANDS = 3,
    WORDS = DIGITS * BANDS,
    LANES = 4,         /* 32-bit words in a 16-byte vector */
    PADDED_WORDS = 28, /* WORDS rounded up to whole vectors; the extra word stays 0 */
    BAND_CELLS = 27,
    ROW_BITS = 9,
    ROW_MASK = 0x1ff,
    ROW_ONES = 01001001, /* the first cell of each row of a band */
    ALL_BAND_CELLS = 0x7ffffff,
    ALL_PAIRS = 0x7ffffff, /* the 27 pairs of three bands or three stacks */
    ALL_ROWS = 7,
    MATCHES = 6,                  /* one-to-one matches of a band's 3 rows with its 3 boxes */
    DIAGONAL_GROUPS = 0700070007, /* 3-bit groups (band b, stack t) with t = b */
    ONE_ABOVE_GROUPS = 0700070,   /* t = b + 1 */
    TWO_ABOVE_GROUP = 0700,       /* t = b + 2 */
    DEADLINE_POLL_NODES = 1024,
};

/* Every table is indexed by 9 bits: a row of a band (column c at bit c), a band's open columns
 * (the same), or a set of (row, box) pairs (pair 3 * row + box at that bit; a word's "pattern":
 * the pairs where it has candidates). */
typedef struct band_tables {
    uint8_t boxes_of_row[1 << ROW_BITS];   /* row -> the boxes (bit j) where it has candidates */
    uint32_t lone_columns[1 << ROW_BITS];  /* open columns -> those alone in their box, in all 3 rows */
    uint32_t claimed_keep[1 << ROW_BITS];  /* columns only this band has -> the cells their boxes keep */
    uint32_t matched_cells[1 << ROW_BITS]; /* pattern -> the cells of its pairs that lie on a match */
    uint16_t matched_pairs[1 << ROW_BITS]; /* pattern -> its pairs that lie on a match */
    uint8_t match_count[1 << ROW_BITS];    /* pattern -> how many matches it contains */
    uint8_t open_matches[1 << ROW_BITS];   /* pattern -> the matches it contains (bit m: match_pairs[m]) */
    uint16_t must_pairs[1 << ROW_BITS];    /* pattern -> the pairs on every match it contains */
    uint16_t pairs_beside[1 << ROW_BITS];  /* pairs -> the other pairs of their rows and boxes */
    uint32_t pair_cells[1 << ROW_BITS];    /* pairs -> their cells */
    uint32_t match_pairs[MATCHES];         /* each match, as a pattern */
    uint32_t rows_cells[1 << BANDS];       /* a set of rows -> their 27 cells */
    uint32_t column_cells[ROW_BITS];       /* column -> its 3 cells of a band */
    uint32_t band_peers[BAND_CELLS];       /* the other cells of a cell's row, box and column in its band */
    uint8_t other_bands[WORDS][2];         /* word -> the words of its digit in the two other bands */
} band_tables;

static band_tables tables;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static uint32_t spread_to_rows(uint32_t row) { return row | row << ROW_BITS | row << 2 * ROW_BITS; }

/* The 3 cells of (row, box) pair number 3 * row + box. */
static uint32_t cells_of_pair(int pair) { return 7u << (ROW_BITS * (pair / 3) + 3 * (pair % 3)); }

/* The other pairs of a pair's row and box. */
static uint32_t pairs_beside(int pair) {
    uint32_t row = 7u << 3 * (pair / 3), box = 0111u << pair % 3;
    return (row | box) & ~(1u << pair);
}

static void build_column_tables(uint32_t bits) {
    for (int box = 0; box < 3; box++) {
        uint32_t box_bits = (bits >> 3 * box) & 7;
        bool single = box_bits != 0 && (box_bits & (box_bits - 1)) == 0;
        if (box_bits != 0) tables.boxes_of_row[bits] |= (uint8_t)(1u << box);
        if (single) tables.lone_columns[bits] |= spread_to_rows(box_bits << 3 * box);
        uint32_t kept = box_bits == 0 ? 7 : single ? box_bits : 0; /* two claimed columns: none */
        tables.claimed_keep[bits] |= spread_to_rows(kept << 3 * box);
    }
}

static uint32_t cells_of_pairs(uint32_t pairs) {
    uint32_t cells = 0;
    for (int pair = 0; pair < ROW_BITS; pair++)
        if (pairs & (1u << pair)) cells |= cells_of_pair(pair);
    return cells;
}

static void build_pair_tables(uint32_t pairs) {
    tables.pair_cells[pairs] = cells_of_pairs(pairs);
    for (int pair = 0; pair < ROW_BITS; pair++)
        if (pairs & (1u << pair)) tables.pairs_beside[pairs] |= (uint16_t)pairs_beside(pair);
    uint32_t matched = 0, on_every_match = ROW_MASK;
    for (int m = 0; m < MATCHES; m++) {
        if ((pairs & tables.match_pairs[m]) != tables.match_pairs[m]) continue;
        tables.match_count[pairs]++;
        tables.open_matches[pairs] |= (uint8_t)(1u << m);
        matched |= tables.match_pairs[m];
        on_every_match &= tables.match_pairs[m];
    }
    tables.matched_cells[pairs] = cells_of_pairs(matched);
    tables.matched_pairs[pairs] = (uint16_t)matched;
    tables.must_pairs[pairs] = (uint16_t)(matched != 0 ? on_every_match : 0);
}

static void build_tables(void) {
    static const int box_of_row[MATCHES][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int m = 0; m < MATCHES; m++) {
        for (int row = 0; row < 3; row++) tables.match_pairs[m] |= 1u << (3 * row + box_of_row[m][row]);
    }
    for (uint32_t bits = 0; bits < (1u << ROW_BITS); bits++) {
        build_column_tables(bits);
        build_pair_tables(bits);
    }
    for (uint32_t rows = 0; rows <= ALL_ROWS; rows++) {
        for (int row = 0; row < 3; row++)
            if (rows & (1u << row)) tables.rows_cells[rows] |= (uint32_t)ROW_MASK << ROW_BITS * row;
    }
    for (int word = 0; word < WORDS; word++) {
        int digit = word / BANDS, band = word % BANDS;
        tables.other_bands[word][0] = (uint8_t)(digit * BANDS + (band + 1) % BANDS);
        tables.other_bands[word][1] = (uint8_t)(digit * BANDS + (band + 2) % BANDS);
    }
    for (int column = 0; column < ROW_BITS; column++) tables.column_cells[column] = spread_to_rows(1u << column);
    for (int cell = 0; cell < BAND_CELLS; cell++) {
        int row = cell / ROW_BITS, column = cell % ROW_BITS, box = column / 3;
        uint32_t peers =
            (uint32_t)ROW_MASK << ROW_BITS * row | tables.column_cells[column] | spread_to_rows(7u << 3 * box);
        tables.band_peers[cell] = peers & ~(1u << cell);
    }
}

typedef struct board {
    uint32_t candidates[PADDED_WORDS]; /* [digit * 3 + band] */
    uint32_t settled[PADDED_WORDS];    /* candidates[] as its last band step left it */
    uint32_t open[BANDS];              /* cells not yet fixed */
    uint8_t fixed_rows[WORDS];         /* rows of the band where the digit's cell is fixed */
    uint16_t pattern[WORDS];           /* settled[]'s pairs (its pattern), for the triads and the guess */
    uint16_t columns[WORDS];           /* settled[]'s columns, for the same */
} board;

typedef struct search_run {
    const sudoku_search *search;
    sudoku_result *result;
    bool stop;
    core_status status;
} search_run;

/* Band step of one word: locked candidates and hidden singles inside the band, the band's lone
 * columns taken from the other bands, newly fixed cells taken from the other digits. */
static uint32_t pattern_of(uint32_t cells) {
    return (uint32_t)tables.boxes_of_row[cells & ROW_MASK] |
           (uint32_t)tables.boxes_of_row[(cells >> ROW_BITS) & ROW_MASK] << 3 |
           (uint32_t)tables.boxes_of_row[cells >> 2 * ROW_BITS] << 6;
}

static uint32_t columns_of(uint32_t cells) { return (cells | cells >> ROW_BITS | cells >> 2 * ROW_BITS) & ROW_MASK; }

static bool band_step(board *s, int word) {
    uint32_t cells = s->candidates[word];
    uint32_t *next_band = &s->candidates[tables.other_bands[word][0]];
    uint32_t *last_band = &s->candidates[tables.other_bands[word][1]];
    uint32_t here = columns_of(cells);
    uint32_t elsewhere = columns_of(*next_band | *last_band);
    if ((here | elsewhere) != ROW_MASK) return false;
    cells &= tables.claimed_keep[here & ~elsewhere];
    uint32_t pattern = pattern_of(cells);
    cells &= tables.matched_cells[pattern];
    if (cells == 0) return false;
    s->candidates[word] = s->settled[word] = cells;
    s->pattern[word] = tables.matched_pairs[pattern];
    uint32_t columns = columns_of(cells);
    s->columns[word] = (uint16_t)columns;
    uint32_t lone = tables.lone_columns[columns];
    *next_band &= ~lone;
    *last_band &= ~lone;
    /* every row kept a cell (a match has one in each), so taking one from each row borrows across none */
    uint32_t beyond_lowest = cells & (cells - ROW_ONES);
    uint32_t single_rows = (uint32_t)((beyond_lowest & ROW_MASK) == 0) |
                           (uint32_t)((beyond_lowest & ROW_MASK << ROW_BITS) == 0) << 1 |
                           (uint32_t)((beyond_lowest & ROW_MASK << 2 * ROW_BITS) == 0) << 2;
    uint32_t fresh = single_rows & ~(uint32_t)s->fixed_rows[word];
    if (fresh == 0) return true;
    s->fixed_rows[word] |= (uint8_t)fresh;
    uint32_t fixed = cells & tables.rows_cells[fresh];
    int band = word % BANDS;
    s->open[band] &= ~fixed;
    for (int digit = 0; digit < DIGITS; digit++) s->candidates[digit * BANDS + band] &= ~fixed;
    s->candidates[word] = cells; /* the word itself keeps them */
    return true;
}

/* Puts `digit` in cell `cell` of `band`: its peers lose the digit. False when it may not go there. */
static bool place(board *s, int digit, int band, int cell) {
    uint32_t *word = &s->candidates[digit * BANDS + band];
    if ((*word & (1u << cell)) == 0) return false;
    *word &= ~tables.band_peers[cell];
    uint32_t column = tables.column_cells[cell % ROW_BITS];
    s->candidates[digit * BANDS + (band + 1) % BANDS] &= ~column;
    s->candidates[digit * BANDS + (band + 2) % BANDS] &= ~column;
    return true;
}

/* The open cells of `band` seen in at least one digit word (once) and in two or more (twice). */
static void count_candidates(const board *s, int band, uint32_t *once, uint32_t *twice) {
    uint32_t seen_once = 0, seen_twice = 0;
    for (int word = band; word < WORDS; word += BANDS) {
        seen_twice |= seen_once & s->candidates[word];
        seen_once |= s->candidates[word];
    }
    *once = seen_once & s->open[band];
    *twice = seen_twice & s->open[band];
}

typedef enum singles_outcome { SINGLES_NONE, SINGLES_PLACED, SINGLES_CONTRADICTION } singles_outcome;

/* Places every open cell with one candidate left. */
static singles_outcome naked_singles(board *s) {
    singles_outcome outcome = SINGLES_NONE;
    for (int band = 0; band < BANDS; band++) {
        if (s->open[band] == 0) continue;
        uint32_t once, twice;
        count_candidates(s, band, &once, &twice);
        if (once != s->open[band]) return SINGLES_CONTRADICTION;
        for (uint32_t singles = once & ~twice; singles != 0; singles &= singles - 1) {
            int cell = __builtin_ctz(singles), digit = 0;
            while (digit < DIGITS && (s->candidates[digit * BANDS + band] & (1u << cell)) == 0) digit++;
            /* an earlier single of this pass may have taken the only candidate */
            if (digit == DIGITS || !place(s, digit, band, cell)) return SINGLES_CONTRADICTION;
            outcome = SINGLES_PLACED;
        }
    }
    return outcome;
}

/* A digit's pairs in all three bands at once (pair p of band b at bit 9 * b + p), and in all three
 * stacks: a stack is a band turned on its side, its (band, column) pairs where a digit may go must
 * hold a one-to-one match of its three bands with its three columns too; pair 3 * band + column
 * of stack t at bit 9 * t + 3 * band + column. The tables of a band's patterns serve both. */
typedef struct digit_pairs {
    uint32_t band_pairs[DIGITS];
    uint32_t stack_pairs[DIGITS];
} digit_pairs;

/* The three bands' columns (column c of stack t in band b at bit 9 * b + 3 * t + c) as stack pairs
 * (at bit 9 * t + 3 * b + c), and back: a transposition of 3 x 3 groups of 3 bits, each group
 * moving 6 bits a step off the diagonal. */
static uint32_t transpose_groups(uint32_t bits) {
    return (bits & DIAGONAL_GROUPS) | (bits & ONE_ABOVE_GROUPS) << 6 | (bits >> 6 & ONE_ABOVE_GROUPS) |
           (bits & TWO_ABOVE_GROUP) << 12 | (bits >> 12 & TWO_ABOVE_GROUP);
}

/* Read from what the band steps kept, so only at their fixed point (no word changed since). */
static void find_pairs(const board *s, digit_pairs *out) {
    for (int digit = 0; digit < DIGITS; digit++) {
        const uint16_t *pattern = &s->pattern[digit * BANDS], *columns = &s->columns[digit * BANDS];
        out->band_pairs[digit] = pattern[0] | (uint32_t)pattern[1] << ROW_BITS | (uint32_t)pattern[2] << 2 * ROW_BITS;
        out->stack_pairs[digit] =
            transpose_groups(columns[0] | (uint32_t)columns[1] << ROW_BITS | (uint32_t)columns[2] << 2 * ROW_BITS);
    }
}

/* The pairs on every match, for the three bands or stacks of `pairs`. */
static uint32_t musts_of(uint32_t pairs) {
    return tables.must_pairs[pairs & ROW_MASK] |
           (uint32_t)tables.must_pairs[(pairs >> ROW_BITS) & ROW_MASK] << ROW_BITS |
           (uint32_t)tables.must_pairs[pairs >> 2 * ROW_BITS] << 2 * ROW_BITS;
}

/* The other pairs of the rows and boxes of `pairs`, for three bands or stacks. */
static uint32_t beside_of(uint32_t pairs) {
    return tables.pairs_beside[pairs & ROW_MASK] |
           (uint32_t)tables.pairs_beside[(pairs >> ROW_BITS) & ROW_MASK] << ROW_BITS |
           (uint32_t)tables.pairs_beside[pairs >> 2 * ROW_BITS] << 2 * ROW_BITS;
}

/* Takes `digit` out of the band pairs and stack pairs given. */
static void drop_pairs(board *s, int digit, uint32_t band_pairs, uint32_t stack_pairs) {
    uint32_t band_columns = transpose_groups(stack_pairs);
    for (int band = 0; band < BANDS; band++) {
        uint32_t columns = (band_columns >> ROW_BITS * band) & ROW_MASK;
        s->candidates[digit * BANDS + band] &=
            ~(tables.pair_cells[(band_pairs >> ROW_BITS * band) & ROW_MASK] | spread_to_rows(columns));
    }
}

/* Triads: the three cells where a row meets a box hold three different digits, and so do the three
 * where a column meets a box. A triad that only three digits can reach takes all three (each then
 * keeps, in that line and box, only this triad); a triad that three digits must use is closed to
 * the others. Counted bit-sliced over the digits' pairs, the 27 triads of each side at once. */
typedef struct triad_counts {
    uint32_t reached_by_three, used_by_three;
} triad_counts;

static bool count_triads(const uint32_t pairs[DIGITS], const uint32_t musts[DIGITS], triad_counts *out) {
    uint32_t reach1 = 0, reach2 = 0, reach3 = 0, reach4 = 0, must1 = 0, must2 = 0, must3 = 0, must4 = 0;
    for (int digit = 0; digit < DIGITS; digit++) {
        uint32_t p = pairs[digit], m = musts[digit];
        reach4 |= reach3 & p;
        reach3 |= reach2 & p;
        reach2 |= reach1 & p;
        reach1 |= p;
        must4 |= must3 & m;
        must3 |= must2 & m;
        must2 |= must1 & m;
        must1 |= m;
    }
    out->reached_by_three = reach3 & ~reach4;
    out->used_by_three = must3;
    return reach3 == ALL_PAIRS && must4 == 0;
}

/* `pairs` is left with the pairs of `s` as they were before any change this pass made. */
static singles_outcome triads(board *s, digit_pairs *pairs_out) {
    digit_pairs pairs;
    find_pairs(s, &pairs);
    *pairs_out = pairs;
    uint32_t band_musts[DIGITS], stack_musts[DIGITS];
    for (int digit = 0; digit < DIGITS; digit++) {
        band_musts[digit] = musts_of(pairs.band_pairs[digit]);
        stack_musts[digit] = musts_of(pairs.stack_pairs[digit]);
    }
    triad_counts rows, columns;
    if (!count_triads(pairs.band_pairs, band_musts, &rows) || !count_triads(pairs.stack_pairs, stack_musts, &columns))
        return SINGLES_CONTRADICTION;
    singles_outcome outcome = SINGLES_NONE;
    for (int digit = 0; digit < DIGITS; digit++) {
        uint32_t band_open = pairs.band_pairs[digit] & ~band_musts[digit];
        uint32_t stack_open = pairs.stack_pairs[digit] & ~stack_musts[digit];
        uint32_t band_forced = band_open & rows.reached_by_three, band_closed = band_open & rows.used_by_three;
        uint32_t stack_forced = stack_open & columns.reached_by_three;
        uint32_t stack_closed = stack_open & columns.used_by_three;
        if ((band_forced | band_closed | stack_forced | stack_closed) == 0) continue;
        drop_pairs(s, digit, beside_of(band_forced) | band_closed, beside_of(stack_forced) | stack_closed);
        outcome = SINGLES_PLACED;
    }
    return outcome;
}

/* Four words side by side: GCC's and Clang's generic vectors, which compile to SSE2 on any x86-64
 * and to NEON on arm64 with no target flag. */
typedef uint32_t word_lanes __attribute__((vector_size(LANES * sizeof(uint32_t))));

/* The words changed since their last band step, as a bit mask (bit `word`): seven vector compares
 * instead of a branch per word. */
static uint32_t changed_words(const board *s) {
    word_lanes acc = {0, 0, 0, 0};
    for (int at = 0; at < PADDED_WORDS; at += LANES) {
        word_lanes now, then;
        memcpy(&now, &s->candidates[at], sizeof now);
        memcpy(&then, &s->settled[at], sizeof then);
        word_lanes bits = {1u << at, 2u << at, 4u << at, 8u << at};
        acc |= (word_lanes)(now != then) & bits;
    }
    return acc[0] | acc[1] | acc[2] | acc[3];
}

/* Propagates to a fixed point; then `pairs` holds the pairs of `s`. */
static bool propagate(board *s, digit_pairs *pairs) {
    for (;;) {
        uint32_t changed = changed_words(s);
        if (changed != 0) {
            for (; changed != 0; changed &= changed - 1)
                if (!band_step(s, __builtin_ctz(changed))) return false;
            continue;
        }
        singles_outcome singles = naked_singles(s);
        if (singles == SINGLES_NONE) singles = triads(s, pairs);
        if (singles != SINGLES_PLACED) return singles == SINGLES_NONE;
    }
}

/* What to branch on: a digit in a band (side 0) or in a stack (side 1). */
typedef struct guess {
    int side, index, digit;
} guess;

/* tdoku's choice: among the three bands and three stacks, the one with the fewest matches over all
 * its digits but not yet settled (a settled one has one match per digit), and in it the digit with
 * the fewest matches. False when all six are settled: every digit then has one row and one column
 * in each box, so every cell is fixed and `s` is a solution. */
static bool choose_guess(const digit_pairs *pairs, guess *out) {
    int best_total = INT_MAX;
    for (int side = 0; side < 2; side++) {
        const uint32_t *of_side = side == 0 ? pairs->band_pairs : pairs->stack_pairs;
        for (int index = 0; index < BANDS; index++) {
            int total = 0;
            for (int digit = 0; digit < DIGITS; digit++)
                total += tables.match_count[(of_side[digit] >> ROW_BITS * index) & ROW_MASK];
            if (total > DIGITS && total < best_total) {
                best_total = total;
                *out = (guess){side, index, 0};
            }
        }
    }
    if (best_total == INT_MAX) return false;
    const uint32_t *of_side = out->side == 0 ? pairs->band_pairs : pairs->stack_pairs;
    int fewest = MATCHES + 1;
    for (int digit = 0; digit < DIGITS && fewest > 2; digit++) {
        int count = tables.match_count[(of_side[digit] >> ROW_BITS * out->index) & ROW_MASK];
        if (count >= 2 && count < fewest) {
            fewest = count;
            out->digit = digit;
        }
    }
    return true;
}

static void record_solution(search_run *run, const board *s) {
    sudoku_result *result = run->result;
    if (result->solutions == 0) {
        sudoku_grid_clear(&result->first, 3);
        for (int word = 0; word < WORDS; word++) {
            int band = word % BANDS;
            for (uint32_t cells = s->candidates[word]; cells != 0; cells &= cells - 1)
                result->first.cells[band * BAND_CELLS + __builtin_ctz(cells)] = (uint8_t)(word / BANDS + 1);
        }
    }
    progress_add(run->search->found, 1);
    if (++result->solutions >= run->search->solution_limit) run->stop = true;
}

/* Counts one node; false when the search must stop (deadline or node limit). */
static bool count_node(search_run *run) {
    uint64_t nodes = ++run->result->nodes;
    const sudoku_search *search = run->search;
    if (search->node_limit != 0 && nodes > search->node_limit) {
        run->result->node_limit_hit = true;
        run->stop = true;
    } else if (nodes % DEADLINE_POLL_NODES == 0 && search->limit != NULL && deadline_expired(search->limit)) {
        run->status = CORE_DEADLINE;
        run->stop = true;
    }
    return !run->stop;
}

/* Searches from `s`, changed but not yet propagated. */
static void search_from(search_run *run, board *s);

/* Branches on each match still open for the guessed digit in its band or stack. */
static void branch_on(search_run *run, board *s, const digit_pairs *pairs, guess g) {
    const uint32_t *of_side = g.side == 0 ? pairs->band_pairs : pairs->stack_pairs;
    uint32_t pattern = (of_side[g.digit] >> ROW_BITS * g.index) & ROW_MASK;
    for (uint32_t open = tables.open_matches[pattern]; open != 0 && !run->stop; open &= open - 1) {
        uint32_t others = (pattern & ~tables.match_pairs[__builtin_ctz(open)]) << ROW_BITS * g.index;
        board copy, *branch = s; /* the last branch takes `s` itself, which is not needed after it */
        if ((open & (open - 1)) != 0) {
            copy = *s;
            branch = &copy;
        }
        drop_pairs(branch, g.digit, g.side == 0 ? others : 0, g.side == 1 ? others : 0);
        search_from(run, branch);
    }
}

static void search_from(search_run *run, board *s) {
    digit_pairs pairs;
    if (!count_node(run) || !propagate(s, &pairs)) return;
    guess g;
    if (choose_guess(&pairs, &g)) {
        branch_on(run, s, &pairs, g);
    } else {
        record_solution(run, s);
    }
}

/* The givens placed; false when two of them conflict. */
static bool start(board *s, const sudoku_grid *puzzle) {
    s->candidates[WORDS] = s->settled[WORDS] = 0;
    for (int word = 0; word < WORDS; word++) {
        s->candidates[word] = ALL_BAND_CELLS;
        s->settled[word] = 0;
        s->fixed_rows[word] = 0;
    }
    for (int band = 0; band < BANDS; band++) s->open[band] = ALL_BAND_CELLS;
    for (int at = 0; at < BANDS * BAND_CELLS; at++) {
        int value = puzzle->cells[at];
        if (value != 0 && !place(s, value - 1, at / BAND_CELLS, at % BAND_CELLS)) return false;
    }
    return true;
}

core_status sudoku_band9_solve(const sudoku_grid *puzzle, const sudoku_search *search, sudoku_result *result) {
    pthread_once(&tables_once, build_tables);
    memset(result, 0, sizeof *result);
    search_run run = {.search = search, .result = result, .status = CORE_OK};
    board s;
    if (start(&s, puzzle)) search_from(&run, &s);
    result->exhausted = !run.stop;
    return run.status;
}
