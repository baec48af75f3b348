/* /sudoku/generate: a random puzzle with exactly one solution, of box size 2..5, at a difficulty
 * (its rating is the hardest technique /sudoku/explain needs), with symmetric givens, replayable from
 * `seed`; or with mode "grid" a random finished grid alone. */
#include "api/endpoints.h"
#include "api/params.h"
#include "api/seed.h"
#include "api/sudoku/sudoku_io.h"
#include "api/sudoku/sudoku_svg.h"
#include "api/boards/svg_writer.h"
#include "core/sudoku/sudoku_generate.h"

static const api_field fields[] = {
    {"box", FIELD_INTEGER},
    {"seed", FIELD_BIG_INTEGER},
    {"difficulty", FIELD_STRING},
    {"symmetry", FIELD_STRING},
    {"mode", FIELD_STRING},
    SVG_FORMAT_FIELD,
    {NULL, 0},
};

static const char *const difficulty_choices[] = {"simple", "easy", "intermediate", "expert", "any", NULL};
static const char *const symmetry_choices[] = {"none", "rotate90", "rotate180", "mirror", "flip", "random", NULL};
static const char *const mode_choices[] = {"puzzle", "grid", NULL};
enum { MODE_PUZZLE, MODE_GRID };

static void write_head(json_writer *out, const char *kind, int box, const char *seed_text) {
    api_open_answer(out, kind);
    jw_str(out, "\"box\":");
    jw_int(out, box);
    jw_str(out, ",\"seed\":");
    jw_cstring(out, seed_text);
}

static bool answer_sudoku_generate(api_request *req, api_response *res) {
    int64_t box;
    int difficulty, symmetry, mode;
    bool svg;
    rng generator;
    char seed_text[SEED_TEXT_SIZE];
    if (!param_int(req, "box", SUDOKU_MIN_BOX, SUDOKU_MAX_BOX, 3, &box) ||
        !param_choice(req, "difficulty", difficulty_choices, SUDOKU_ANY_DIFFICULTY, &difficulty) ||
        !param_choice(req, "symmetry", symmetry_choices, SUDOKU_SYMMETRY_NONE, &symmetry) ||
        !param_choice(req, "mode", mode_choices, MODE_PUZZLE, &mode) || !svg_param_format(req, &svg) ||
        !param_seed(req, "seed", &generator, seed_text))
        return false;
    json_writer *out = &res->body;
    if (mode == MODE_GRID) {
        if (param_present(req, "difficulty") || param_present(req, "symmetry"))
            return api_fail(req, API_CONFLICTING_FIELDS, param_present(req, "difficulty") ? "difficulty" : "symmetry",
                            "mode \"grid\" gives a finished grid, which has no difficulty or symmetry; leave "
                            "them out or ask for mode \"puzzle\"");
        sudoku_grid grid;
        if (!api_fail_status(req, sudoku_random_grid((int)box, &generator, &req->deadline, &grid))) return false;
        if (svg) {
            sudoku_respond_svg(res, &grid, &grid);
            return true;
        }
        write_head(out, "sudoku_grid", (int)box, seed_text);
        jw_str(out, ",\"mode\":\"grid\",\"solution\":");
        sudoku_write_grid(out, &grid, false);
        jw_char(out, '}');
        return true;
    }
    sudoku_generated generated;
    if (!api_fail_status(req, sudoku_generate((int)box, difficulty, (sudoku_symmetry)symmetry, &generator,
                                              &req->deadline, &generated)))
        return false;
    if (svg) {
        sudoku_respond_svg(res, &generated.puzzle, &generated.puzzle);
        return true;
    }
    write_head(out, "sudoku_puzzle", (int)box, seed_text);
    jw_str(out, ",\"mode\":\"puzzle\",\"puzzle\":");
    sudoku_write_grid(out, &generated.puzzle, false);
    jw_str(out, ",\"solution\":");
    sudoku_write_grid(out, &generated.solution, false);
    jw_str(out, ",\"givens\":");
    jw_int(out, sudoku_grid_givens(&generated.puzzle));
    jw_str(out, ",\"rating\":");
    jw_cstring(out, sudoku_difficulty_name(generated.rating));
    jw_str(out, ",\"symmetry\":");
    jw_cstring(out, sudoku_symmetry_name(generated.symmetry));
    jw_char(out, '}');
    return true;
}

/* Without a seed a fresh one is drawn, so the answer differs every time. */
static bool generate_varies(const api_request *req) { return !param_present(req, "seed"); }

const api_endpoint sudoku_generate_endpoint = {
    .fields = fields, .handler = answer_sudoku_generate, .varies = generate_varies};
