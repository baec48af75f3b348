/* Core arrangement iterators against Python's itertools (run at test time): every order, distinct
 * or not, every k, random multisets, and every starting offset. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/permutations/perm_iter.h"

static const char *const order_names[] = {"lexicographic", "input", "any"};

/* Python reference: one line per case, arrangements joined by ';', items by ' '. */
static const char *const reference_script =
    "import itertools, sys\n"
    "for line in open(sys.argv[1]):\n"
    "    f = line.split(); order = f[0]; distinct = f[1] == '1'; k = int(f[2])\n"
    "    items = [int(x) for x in f[3:]]\n"
    "    if order == 'input':\n"
    "        perms = itertools.permutations(items, k)\n"
    "        if distinct: perms = list(dict.fromkeys(perms))\n"
    "    elif distinct: perms = sorted(set(itertools.permutations(items, k)))\n"
    "    else: perms = itertools.permutations(sorted(items), k)\n"
    "    print(';'.join(' '.join(map(str, p)) for p in perms))\n";

typedef struct test_case {
    uint32_t classes[8];
    size_t n, m, k;
    bool distinct;
    perm_order order;
} test_case;

/* Random multiset of n items over m classes, every class present, in random input order. */
static void random_case(test_case *t, unsigned *seed) {
    t->n = (size_t)(rand_r(seed) % 7);
    t->m = t->n ? 1 + (size_t)(rand_r(seed) % t->n) : 0;
    for (size_t i = 0; i < t->n; i++) t->classes[i] = i < t->m ? (uint32_t)i : (uint32_t)(rand_r(seed) % t->m);
    for (size_t i = t->n; i > 1; i--) {
        size_t j = (size_t)(rand_r(seed) % i);
        uint32_t x = t->classes[i - 1];
        t->classes[i - 1] = t->classes[j];
        t->classes[j] = x;
    }
    t->k = (size_t)(rand_r(seed) % (t->n + 1));
    t->distinct = rand_r(seed) % 2;
    t->order = (perm_order)(rand_r(seed) % 3);
}

/* Our arrangements from `offset` on, in the reference's text form, appended to out. */
static void ours(const test_case *t, unsigned long offset, char *out, size_t cap) {
    perm_spec spec = {t->classes, t->n, t->m, t->k, t->distinct, t->order};
    mpz_t off;
    mpz_init_set_ui(off, offset);
    perm_iter it;
    cr_assert_eq(perm_iter_init(&it, &spec, off, NULL), CORE_OK);
    mpz_clear(off);
    const uint32_t *a;
    size_t changed, len = strlen(out);
    uint32_t previous[8];
    bool first = true;
    while ((a = perm_iter_next(&it, &changed)) != NULL) {
        if (!first) {
            for (size_t i = 0; i < changed; i++) cr_assert_eq(a[i], previous[i], "changed index too late");
            len += (size_t)snprintf(out + len, cap - len, ";");
        }
        for (size_t i = 0; i < t->k; i++) len += (size_t)snprintf(out + len, cap - len, i ? " %u" : "%u", a[i]);
        memcpy(previous, a, t->k * sizeof *a);
        first = false;
        cr_assert_lt(len, cap - 64);
    }
    perm_iter_free(&it);
}

static char *python_reference(const test_case *cases, size_t count) {
    char cases_path[] = "/tmp/perm_iter_cases_XXXXXX", script_path[] = "/tmp/perm_iter_ref_XXXXXX";
    int fd = mkstemp(cases_path);
    FILE *f = fdopen(fd, "w");
    for (size_t c = 0; c < count; c++) {
        const test_case *t = &cases[c];
        fprintf(f, "%s %d %zu", t->order == PERM_ORDER_INPUT ? "input" : "lexicographic", t->distinct, t->k);
        for (size_t i = 0; i < t->n; i++) fprintf(f, " %u", t->classes[i]);
        fprintf(f, "\n");
    }
    fclose(f);
    fd = mkstemp(script_path);
    f = fdopen(fd, "w");
    fputs(reference_script, f);
    fclose(f);
    char command[256];
    snprintf(command, sizeof command, "python3 %s %s", script_path, cases_path);
    FILE *p = popen(command, "r");
    cr_assert_not_null(p);
    size_t cap = 1 << 26, len = 0;
    char *text = malloc(cap);
    size_t got;
    while ((got = fread(text + len, 1, cap - 1 - len, p)) > 0) len += got;
    text[len] = '\0';
    cr_assert_eq(pclose(p), 0, "python3 reference failed");
    unlink(cases_path);
    unlink(script_path);
    return text;
}

Test(perm_iter, matches_itertools_on_random_multisets_from_every_offset) {
    enum { CASES = 300 };
    test_case cases[CASES];
    unsigned seed = 12345;
    for (size_t c = 0; c < CASES; c++) random_case(&cases[c], &seed);
    char *reference = python_reference(cases, CASES);
    char *line = reference;
    size_t cap = 1 << 20;
    char *mine = malloc(cap);
    for (size_t c = 0; c < CASES; c++) {
        char *end = strchr(line, '\n');
        cr_assert_not_null(end);
        *end = '\0';
        mine[0] = '\0';
        ours(&cases[c], 0, mine, cap);
        cr_assert_str_eq(mine, line, "case %zu (%s, distinct %d, k %zu, n %zu)", c, order_names[cases[c].order],
                         cases[c].distinct, cases[c].k, cases[c].n);
        /* Every offset: the reference from its offset-th arrangement on. */
        size_t skip = 0;
        for (const char *s = line; *s && skip < 40; s++) {
            if (*s != ';') continue;
            skip++;
            mine[0] = '\0';
            ours(&cases[c], skip, mine, cap);
            cr_assert_str_eq(mine, s + 1, "case %zu offset %zu", c, skip);
        }
        line = end + 1;
    }
    free(mine);
    free(reference);
}

Test(perm_iter, covers_all_option_combinations) {
    /* The random cases above include each order x distinct with repeats and k < n; check it. */
    unsigned seed = 12345;
    bool seen[3][2] = {{false}};
    for (size_t c = 0; c < 300; c++) {
        test_case t;
        random_case(&t, &seed);
        if (t.m < t.n && t.k > 0 && t.k < t.n) seen[t.order][t.distinct] = true;
    }
    for (int o = 0; o < 3; o++)
        for (int d = 0; d < 2; d++) cr_assert(seen[o][d], "order %d distinct %d not covered", o, d);
}

Test(perm_iter, streams_twelve_factorial_prefix_and_ends) {
    /* 12 distinct items: the last arrangement is the reverse, reached from offset 12! - 1. */
    uint32_t classes[12];
    for (uint32_t i = 0; i < 12; i++) classes[i] = i;
    perm_spec spec = {classes, 12, 12, 12, false, PERM_ORDER_LEXICOGRAPHIC};
    mpz_t offset;
    mpz_init_set_ui(offset, 479001599);
    perm_iter it;
    cr_assert_eq(perm_iter_init(&it, &spec, offset, NULL), CORE_OK);
    size_t changed;
    const uint32_t *a = perm_iter_next(&it, &changed);
    for (uint32_t i = 0; i < 12; i++) cr_assert_eq(a[i], 11 - i);
    cr_assert_null(perm_iter_next(&it, &changed));
    perm_iter_free(&it);
    mpz_clear(offset);
}

Test(perm_iter, empty_and_zero_length) {
    perm_spec spec = {NULL, 0, 0, 0, true, PERM_ORDER_INPUT};
    mpz_t zero;
    mpz_init(zero);
    perm_iter it;
    cr_assert_eq(perm_iter_init(&it, &spec, zero, NULL), CORE_OK);
    size_t changed;
    cr_assert_not_null(perm_iter_next(&it, &changed));
    cr_assert_null(perm_iter_next(&it, &changed));
    perm_iter_free(&it);
    mpz_clear(zero);
}

/* A seek that runs out of time leaves no arrangement and must not read the positions it did not
 * write (tests/fuzz/regressions/fuzz_fields/unrank-distinct-seek-deadline, found by fuzzing). */
Test(perm_iter, distinct_seek_out_of_time_fails_cleanly) {
    static const uint32_t classes[] = {0, 0, 1, 2, 2, 3};
    perm_spec spec = {classes, 6, 4, 3, true, PERM_ORDER_LEXICOGRAPHIC};
    mpz_t offset;
    mpz_init_set_ui(offset, 5);
    deadline expired = {.at_ns = 1};
    perm_iter it;
    cr_assert_eq(perm_iter_init(&it, &spec, offset, &expired), CORE_DEADLINE);
    cr_assert_eq(perm_iter_init(&it, &spec, offset, NULL), CORE_OK);
    perm_iter_free(&it);
    mpz_clear(offset);
}
