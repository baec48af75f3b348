/* Bulk /sudoku/solve (see sudoku_bulk.h). Each line is answered with {"line", "box", "solution",
 * "unique"} (and "total", "total_exact" when count_limit was given) or {"line", "error": {"code",
 * "message"}}; blank lines are skipped but counted. With Accept: text/plain, each with one text line
 * instead, as bulk solvers (tdoku, qqwing) print them: the solution and what sudoku_write_solve_text
 * adds, or the error's code alone (no solution string holds a '_', every code does). The time limit
 * covers the whole body: past it, the puzzle at hand gets a deadline_exceeded line and the stream
 * ends there.
 *
 * On every core: the lines are answered in batches, about as many bytes of puzzles as the stream
 * asks for but at least BULK_MIN_BATCH_BYTES; a big batch is cut into BULK_RUNS runs of whole lines
 * and the runs are answered at once. This thread takes the first run and offers the
 * others to idle compute workers (core/common/fork_join.h: the pool gives them none while demoted
 * jobs wait, so a bulk body never holds back other requests); the runs nobody took are answered
 * here after the first. The first run writes straight into the batch's answers; each other run
 * writes into its own writer with its own solvers, appended after it in run order, so the answers
 * keep line order. The stream takes the batch's answers `want` bytes at a time, so its pieces hold
 * what they would with small batches. A run that reached the deadline ends the stream at its
 * deadline line and the runs after it are dropped, as if the lines had been answered one after
 * another. */
#include "api/sudoku/sudoku_bulk.h"

#include <stdlib.h>
#include <string.h>

#include "api/params.h"
#include "api/sudoku/sudoku_io.h"
#include "core/common/fork_join.h"
#include "core/common/progress.h"

enum {
    BULK_RUNS = 4,                  /* runs of a big batch: this thread's and three offered */
    BULK_MIN_PARALLEL_BYTES = 8192, /* a smaller batch (about 100 9 x 9 puzzles) is answered here alone */
    /* The stream asks for 16 KiB at a time; offering and joining runs that small (about 50 lines
     * each) cost 7% of the server's CPU on 17-clue lines (futex calls, 490 a 1 MiB body). A batch's
     * answers wait in the state until the stream has taken them: at most a batch's, whatever the
     * body's size. */
    BULK_MIN_BATCH_BYTES = 128 * 1024,
    LINE_MESSAGE_BYTES = 400,
};

typedef struct bulk_state bulk_state;

/* One run of a batch, and what it needs to answer it. */
typedef struct bulk_run {
    bulk_state *bulk;
    sudoku_solver *solvers[SUDOKU_MAX_BOX + 1]; /* made on first use, kept for the whole body */
    sudoku_conflict *conflicts;
    json_writer own;  /* the answers of an offered run, until they are appended */
    json_writer *out; /* where the answers go: the batch's for the first run, else `own` */
    const char *from; /* whole lines */
    size_t bytes;
    uint64_t first_line;  /* lines before the run */
    stream_status status; /* STREAM_MORE: every line answered; STREAM_DONE: ended at a deadline line */
} bulk_run;

struct bulk_state {
    char *text; /* a copy of the body */
    size_t len, position;
    uint64_t line;       /* lines before `position` */
    int64_t count_limit; /* 0: not asked for */
    bool text_lines;     /* Accept: text/plain: a text line a puzzle, not NDJSON */
    deadline limit;
    bulk_run runs[BULK_RUNS];
    json_writer answers; /* the batch's, in line order */
    size_t handed;       /* the bytes of `answers` the stream has taken */
    bool done;
};

static void free_bulk(void *state) {
    bulk_state *b = state;
    for (int k = 0; k < BULK_RUNS; k++) {
        bulk_run *run = &b->runs[k];
        for (int box = SUDOKU_MIN_BOX; box <= SUDOKU_MAX_BOX; box++) sudoku_solver_free(run->solvers[box]);
        free(run->conflicts);
        bb_free(&run->own);
    }
    bb_free(&b->answers);
    free(b->text);
    free(b);
}

static void write_line_error(const bulk_state *b, json_writer *out, const char *code, const char *message) {
    if (b->text_lines) {
        jw_str(out, code);
        return;
    }
    jw_str(out, ",\"error\":{\"code\":");
    jw_cstring(out, code);
    jw_str(out, ",\"message\":");
    jw_cstring(out, message);
    jw_char(out, '}');
}

static const char deadline_message[] = "the time limit of the request ran out here; send the remaining lines again, or "
                                       "raise time_limit_ms (at most the server's --time-limit-ms)";

/* Answers line number `line`: STREAM_MORE to go on, STREAM_DONE after the line that says time ran
 * out, STREAM_FAILED out of memory (the stream is cut: a line must not end half-written). */
static stream_status answer_line(bulk_run *run, const char *text, size_t len, uint64_t line) {
    const bulk_state *b = run->bulk;
    json_writer *out = run->out;
    if (!b->text_lines) {
        jw_str(out, "{\"line\":");
        jw_uint(out, line);
    }
    sudoku_grid puzzle;
    char message[LINE_MESSAGE_BYTES];
    stream_status status = STREAM_MORE;
    if (deadline_expired(&b->limit)) {
        write_line_error(b, out, "deadline_exceeded", deadline_message);
        status = STREAM_DONE;
    } else if (sudoku_text_problem(text, len, &puzzle, message, sizeof message) != NULL) {
        write_line_error(b, out, "invalid_field", message);
    } else {
        if (run->solvers[puzzle.box] == NULL) run->solvers[puzzle.box] = sudoku_solver_new(puzzle.box);
        if (run->solvers[puzzle.box] == NULL) return STREAM_FAILED;
        sudoku_search search = sudoku_solve_search(b->count_limit, &b->limit);
        sudoku_result result;
        core_status solved = sudoku_solve(run->solvers[puzzle.box], &puzzle, &search, &result);
        if (solved == CORE_NO_MEMORY) return STREAM_FAILED;
        if (solved != CORE_OK) {
            write_line_error(b, out, "deadline_exceeded", deadline_message);
            status = STREAM_DONE;
        } else if (result.solutions == 0) {
            /* Conflicting givens are looked for only here: given them, either search finds no
             * solution at its start, before it counts a node or reads the clock, so the line is the
             * one a look before the search gave, and a puzzle that has a solution skips the look. */
            if (run->conflicts == NULL) run->conflicts = malloc(SUDOKU_MAX_CONFLICTS * sizeof *run->conflicts);
            if (run->conflicts == NULL) return STREAM_FAILED;
            if (sudoku_conflict_problem(&puzzle, run->conflicts, message, sizeof message) != NULL)
                write_line_error(b, out, "conflicting_givens", message);
            else write_line_error(b, out, "no_solution", sudoku_no_solution_message);
        } else if (b->text_lines) {
            sudoku_write_solve_text(out, &result, b->count_limit);
        } else {
            jw_char(out, ',');
            sudoku_write_solve_answer(out, &result, false, b->count_limit);
        }
    }
    jw_str(out, b->text_lines ? "\n" : "}\n");
    return out->out_of_memory ? STREAM_FAILED : status;
}

static void answer_run(void *arg) {
    bulk_run *run = arg;
    const char *at = run->from, *end = run->from + run->bytes;
    uint64_t line = run->first_line;
    run->status = STREAM_MORE;
    while (at < end && run->status == STREAM_MORE) {
        const char *text = at, *newline = memchr(at, '\n', (size_t)(end - at));
        size_t len = newline != NULL ? (size_t)(newline - at) : (size_t)(end - at);
        at = text + len + (newline != NULL);
        line++;
        if (len > 0 && text[len - 1] == '\r') len--;
        if (len == 0) continue; /* blank lines: skipped, counted */
        run->status = answer_line(run, text, len, line);
        progress_add(run->bulk->limit.progress, 1);
    }
}

/* The position just after the line that holds `at` (the end of the text at most). */
static size_t line_end(const bulk_state *b, size_t at) {
    if (at >= b->len) return b->len;
    const char *newline = memchr(b->text + at, '\n', b->len - at);
    return newline != NULL ? (size_t)(newline - b->text) + 1 : b->len;
}

/* The puzzles of a body: its lines that are not blank (as answer_run reads them). */
static uint64_t count_puzzles(const char *text, size_t len) {
    uint64_t puzzles = 0;
    for (size_t position = 0; position < len;) {
        const char *start = text + position;
        const char *newline = memchr(start, '\n', len - position);
        size_t line = newline != NULL ? (size_t)(newline - start) : len - position;
        position += line + 1;
        if (line > 0 && start[line - 1] == '\r') line--;
        puzzles += line > 0;
    }
    return puzzles;
}

static uint64_t lines_in(const char *from, size_t bytes) {
    uint64_t lines = 0;
    for (const char *at = from, *end = from + bytes; at < end; lines++) {
        const char *newline = memchr(at, '\n', (size_t)(end - at));
        at = newline != NULL ? newline + 1 : end;
    }
    return lines;
}

/* Cuts the lines [position, batch_end) into `count` runs of about equal bytes, the first answered
 * into `out`; returns how many lines they hold. */
static uint64_t cut_runs(bulk_state *b, size_t batch_end, unsigned count, json_writer *out) {
    size_t at = b->position, batch = batch_end - b->position;
    uint64_t line = b->line;
    for (unsigned k = 0; k < count; k++) {
        size_t to = k + 1 == count ? batch_end : line_end(b, b->position + batch * (k + 1) / count);
        bulk_run *run = &b->runs[k];
        run->bulk = b;
        run->from = b->text + at;
        run->bytes = to - at;
        run->first_line = line;
        run->out = k == 0 ? out : &run->own;
        bb_clear(&run->own);
        line += lines_in(run->from, run->bytes);
        at = to;
    }
    return line - b->line;
}

/* Answers the runs: the first here, the others offered to idle workers (here too, after the first,
 * when nobody took them). */
static void answer_runs(bulk_state *b, unsigned count) {
    parallel_task offered[BULK_RUNS];
    for (unsigned k = 1; k < count; k++) fork_join_offer(&offered[k], answer_run, &b->runs[k]);
    answer_run(&b->runs[0]);
    fork_join_join_all(&offered[1], count - 1);
}

/* Appends the offered runs' answers after the first run's, in order, up to the first run that
 * ended at the deadline. */
static stream_status append_runs(bulk_state *b, unsigned count, json_writer *out) {
    for (unsigned k = 0; k < count; k++) {
        const bulk_run *run = &b->runs[k];
        if (run->status == STREAM_FAILED) return STREAM_FAILED;
        if (run->out != out) bb_append(out, run->own.data, run->own.len);
        if (run->status == STREAM_DONE) {
            b->done = true;
            break;
        }
    }
    return out->out_of_memory ? STREAM_FAILED : STREAM_MORE;
}

/* Answers the next batch into b->answers. */
static stream_status answer_batch(bulk_state *b, size_t want) {
    bb_clear(&b->answers);
    b->handed = 0;
    size_t batch_end = line_end(b, b->position + (want > BULK_MIN_BATCH_BYTES ? want : BULK_MIN_BATCH_BYTES));
    unsigned runs = batch_end - b->position >= BULK_MIN_PARALLEL_BYTES ? BULK_RUNS : 1;
    uint64_t lines = cut_runs(b, batch_end, runs, &b->answers);
    answer_runs(b, runs);
    b->position = batch_end;
    b->line += lines;
    return append_runs(b, runs, &b->answers);
}

static stream_status write_bulk(void *state, json_writer *out, size_t want) {
    bulk_state *b = state;
    size_t begin = out->len;
    while (out->len - begin < want) {
        if (b->handed == b->answers.len) {
            if (b->done || b->position >= b->len) return STREAM_DONE;
            if (answer_batch(b, want) == STREAM_FAILED) return STREAM_FAILED;
            continue; /* a batch of blank lines answers nothing: look again */
        }
        size_t left = b->answers.len - b->handed, room = want - (out->len - begin);
        size_t n = left < room ? left : room;
        bb_append(out, b->answers.data + b->handed, n);
        if (out->out_of_memory) return STREAM_FAILED;
        b->handed += n;
    }
    return STREAM_MORE;
}

bool sudoku_solve_bulk(api_request *req, api_response *res, int64_t count_limit) {
    if (param_present(req, "puzzle") || param_present(req, "rows"))
        return api_fail(req, API_CONFLICTING_FIELDS, param_present(req, "puzzle") ? "puzzle" : "rows",
                        "a text/plain body is the list of puzzles, one per line; give no 'puzzle' or 'rows' with it");
    bulk_state *b = calloc(1, sizeof *b);
    if (b == NULL) return api_fail_out_of_memory(req);
    for (int k = 0; k < BULK_RUNS; k++) bb_init(&b->runs[k].own);
    bb_init(&b->answers);
    b->text = malloc(req->text_body_len + 1);
    if (b->text == NULL) {
        free_bulk(b);
        return api_fail_out_of_memory(req);
    }
    memcpy(b->text, req->text_body, req->text_body_len);
    b->len = req->text_body_len;
    b->count_limit = count_limit;
    b->text_lines = req->plain_text;
    b->limit = req->time_limit; /* the lines are answered after this handler returns */
    progress_begin(b->limit.progress, "puzzles", count_puzzles(b->text, b->len));
    api_respond_stream(req, res, b, write_bulk, free_bulk, true);
    if (b->text_lines) res->content_type = "text/plain; charset=utf-8";
    return true;
}
