/* The knight's tour ground truth of knight_tour_reference.h: a plain recursive exhaustive search on
 * boards of at most REFERENCE_MAX_SQUARES squares, and Schwenk's theorem. */
#include "knight_tour_reference.h"

#include <stdlib.h>

typedef struct reference {
    int rows, cols;
    unsigned char visited[REFERENCE_MAX_SQUARES];
} reference;

static const int DR[8] = {1, 2, 2, 1, -1, -2, -2, -1};
static const int DC[8] = {2, 1, -1, -2, -2, -1, 1, 2};

static bool on_board(const reference *b, int r, int c) { return r >= 0 && r < b->rows && c >= 0 && c < b->cols; }

static int free_neighbours(const reference *b, int r, int c) {
    int count = 0;
    for (int m = 0; m < 8; m++)
        if (on_board(b, r + DR[m], c + DC[m]) && !b->visited[(r + DR[m]) * b->cols + c + DC[m]]) count++;
    return count;
}

/* Among the unvisited squares other than the neighbours of (r, c), one with no unvisited neighbour
 * cannot be reached, and one with a single unvisited neighbour can only be the last square: so there
 * is no way on if there is one of the first kind or two of the second. */
static bool stranded(const reference *b, int r, int c, int left) {
    int dead_ends = 0;
    for (int s = 0; s < b->rows * b->cols && left > 1; s++) {
        int sr = s / b->cols, sc = s % b->cols;
        int dr = abs(sr - r), dc = abs(sc - c);
        if (b->visited[s] || (dr == 1 && dc == 2) || (dr == 2 && dc == 1)) continue;
        int ways_in = free_neighbours(b, sr, sc);
        if (ways_in == 0 || (ways_in == 1 && ++dead_ends > 1)) return true;
    }
    return false;
}

/* The rest of the path alternates colours starting with the other colour than (r, c)'s: the unvisited
 * squares of that colour must number ceil(left / 2). */
static bool colours_balance(const reference *b, int r, int c, int left) {
    int other = 0;
    for (int s = 0; s < b->rows * b->cols; s++)
        if (!b->visited[s] && (s / b->cols + s % b->cols) % 2 != (r + c) % 2) other++;
    return other == (left + 1) / 2;
}

/* The unvisited squares are all reachable from (r, c) through unvisited squares. */
static bool connected(const reference *b, int r, int c, int left) {
    unsigned char seen[REFERENCE_MAX_SQUARES] = {0};
    int queue[REFERENCE_MAX_SQUARES], head = 0, tail = 0, reached = 0;
    queue[tail++] = r * b->cols + c;
    while (head < tail) {
        int s = queue[head++];
        for (int m = 0; m < 8; m++) {
            int nr = s / b->cols + DR[m], nc = s % b->cols + DC[m];
            if (!on_board(b, nr, nc) || b->visited[nr * b->cols + nc] || seen[nr * b->cols + nc]) continue;
            seen[nr * b->cols + nc] = 1;
            queue[tail++] = nr * b->cols + nc;
            reached++;
        }
    }
    return reached == left;
}

static bool extend(reference *b, int r, int c, int left) {
    if (left == 0) return true;
    if (!colours_balance(b, r, c, left) || stranded(b, r, c, left) || !connected(b, r, c, left)) return false;
    int order[8], degree[8], count = 0;
    for (int m = 0; m < 8; m++) { /* fewest onward moves first: finds tours fast, still exhaustive */
        int nr = r + DR[m], nc = c + DC[m];
        if (!on_board(b, nr, nc) || b->visited[nr * b->cols + nc]) continue;
        int d = free_neighbours(b, nr, nc), i = count++;
        while (i > 0 && degree[i - 1] > d) {
            order[i] = order[i - 1];
            degree[i] = degree[i - 1];
            i--;
        }
        order[i] = m;
        degree[i] = d;
    }
    for (int i = 0; i < count; i++) {
        int nr = r + DR[order[i]], nc = c + DC[order[i]];
        b->visited[nr * b->cols + nc] = 1;
        if (extend(b, nr, nc, left - 1)) return true;
        b->visited[nr * b->cols + nc] = 0;
    }
    return false;
}

static bool search_reference(int rows, int cols, int r, int c) {
    reference b = {.rows = rows, .cols = cols};
    b.visited[r * cols + c] = 1;
    return extend(&b, r, c, rows * cols - 1);
}

/* The answer is the same for squares related by a symmetry of the board, so each class is searched
 * once: boards as rows <= cols (so rows <= 11), starts in the upper-left quarter. */
enum { CACHE_ROWS = 12, CACHE_COLS = REFERENCE_MAX_SQUARES + 1 };
/* 0 unknown, 1 a tour exists, -1 none */
static signed char reference_cache[CACHE_ROWS][CACHE_COLS][CACHE_ROWS / 2][CACHE_COLS / 2 + 1];

bool reference_open_tour_exists(int rows, int cols, int r, int c) {
    if (rows > cols) {
        int t = rows;
        rows = cols, cols = t, t = r, r = c, c = t;
    }
    if (r > rows - 1 - r) r = rows - 1 - r;
    if (c > cols - 1 - c) c = cols - 1 - c;
    if (rows == cols && r > c) {
        int t = r;
        r = c, c = t;
    }
    if (rows * cols > REFERENCE_MAX_SQUARES) abort(); /* a test asked beyond what this search can do */
    signed char *cached = &reference_cache[rows][cols][r][c];
    if (*cached == 0) *cached = search_reference(rows, cols, r, c) ? 1 : -1;
    return *cached == 1;
}

bool reference_closed_tour_exists(int rows, int cols) {
    int m = rows < cols ? rows : cols, n = rows < cols ? cols : rows;
    if (m % 2 == 1 && n % 2 == 1) return false;
    if (m == 1 || m == 2 || m == 4) return false;
    if (m == 3 && (n == 4 || n == 6 || n == 8)) return false;
    return true;
}
