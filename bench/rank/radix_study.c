/* Would a scaled remainder tree (D. J. Bernstein, "Scaled remainder trees", 2004; R. Brent and
 * P. Zimmermann, "Modern Computer Arithmetic", 1.7, radix conversion) beat GMP's own decimal
 * conversion of a rank of 10^6 items? `bench_rank radix BITS` times, on one thread (CPU time, best
 * of 3), GMP's mpz_get_str of a random number of BITS bits, and a lower bound of what the tree would
 * spend on the same number: the one division at its root (the number as a fraction of 10^digits, to
 * its full precision plus a limb) and, at every node of the tree of powers of ten, the product of the
 * node's fraction by its high half's power (the low half's fraction is the fractional part of it),
 * counted only where it is cheaper than GMP's division at that node (a tree could hand smaller nodes
 * to GMP); powers, corrections and digit extraction are left out, in the tree's favour. Per level:
 * the nodes' sizes, GMP's divisions and the tree's products. docs/performance.md cites the figures. */
#include "radix_study.h"

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum {
    STUDY_ROUNDS = 3,    /* best of */
    STUDY_MIN_LIMBS = 16 /* nodes below this size are left to GMP's basecase on both sides */
};

#define STUDY_MAX_LEVELS 64

static double thread_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct level_costs {
    size_t nodes, limbs;      /* how many nodes, and the limbs of the largest */
    double division, product; /* seconds, all the level's nodes */
} level_costs;

/* Times both kinds of work at every node of d digits (level `depth`) and below. */
static void visit(level_costs *levels, size_t depth, size_t d, gmp_randstate_t random) {
    mpz_t node, low_power, high_power, fraction, product, quotient, remainder;
    mpz_inits(node, low_power, high_power, fraction, product, quotient, remainder, NULL);
    size_t low_digits = d / 2;
    mpz_ui_pow_ui(low_power, 10, low_digits);
    mpz_ui_pow_ui(high_power, 10, d - low_digits);
    mpz_mul(node, low_power, high_power);
    size_t limbs = mpz_size(node);
    if (limbs < STUDY_MIN_LIMBS || depth >= STUDY_MAX_LEVELS) goto out;
    mpz_urandomm(node, random, node);                              /* the node's value: below 10^d */
    mpz_urandomb(fraction, random, 64 * (mp_bitcnt_t)(limbs + 1)); /* its fraction, a limb more */
    double start = thread_seconds();
    mpz_tdiv_qr(quotient, remainder, node, low_power); /* GMP: high and low halves by one division */
    double middle = thread_seconds();
    mpz_mul(product, fraction, high_power); /* the tree: the low half's fraction from one product */
    double end = thread_seconds();
    level_costs *l = &levels[depth];
    l->nodes++;
    l->limbs = limbs > l->limbs ? limbs : l->limbs;
    l->division += middle - start;
    l->product += end - middle;
    visit(levels, depth + 1, d - low_digits, random);
    visit(levels, depth + 1, low_digits, random);
out:
    mpz_clears(node, low_power, high_power, fraction, product, quotient, remainder, NULL);
}

int radix_study(size_t bits) {
    gmp_randstate_t random;
    gmp_randinit_default(random);
    gmp_randseed_ui(random, 32);
    mpz_t x, power, scaled, fraction;
    mpz_inits(x, power, scaled, fraction, NULL);
    mpz_urandomb(x, random, bits);
    mpz_setbit(x, bits - 1);
    size_t digits = mpz_sizeinbase(x, 10);
    char *text = malloc(digits + 2);
    mpz_ui_pow_ui(power, 10, digits);
    double best_gmp = 1e9, best_root = 1e9;
    level_costs best[STUDY_MAX_LEVELS] = {{0}};
    for (int round = 0; round < STUDY_ROUNDS; round++) {
        double start = thread_seconds();
        mpz_get_str(text, 10, x);
        double middle = thread_seconds();
        mpz_mul_2exp(scaled, x, 64 * (mp_bitcnt_t)(mpz_size(power) + 1));
        mpz_tdiv_q(fraction, scaled, power);
        double end = thread_seconds();
        best_gmp = middle - start < best_gmp ? middle - start : best_gmp;
        best_root = end - middle < best_root ? end - middle : best_root;
        level_costs levels[STUDY_MAX_LEVELS] = {{0}};
        visit(levels, 0, digits, random);
        for (size_t i = 0; i < STUDY_MAX_LEVELS; i++) {
            if (round == 0 || levels[i].division < best[i].division) best[i].division = levels[i].division;
            if (round == 0 || levels[i].product < best[i].product) best[i].product = levels[i].product;
            best[i].nodes = levels[i].nodes;
            best[i].limbs = levels[i].limbs;
        }
    }
    printf("level\tnodes\tlimbs\tGMP division s\ttree product s\n");
    double divisions = 0, tree = best_root;
    for (size_t i = 0; i < STUDY_MAX_LEVELS && best[i].nodes > 0; i++) {
        printf("%zu\t%zu\t%zu\t%.4f\t%.4f\n", i, best[i].nodes, best[i].limbs, best[i].division, best[i].product);
        divisions += best[i].division;
        tree += best[i].product < best[i].division ? best[i].product : best[i].division;
    }
    printf("%zu bits, %zu digits: mpz_get_str %.3f s; GMP's divisions above %d limbs %.3f s; tree at least "
           "%.3f s (root division %.3f s)\n",
           bits, digits, best_gmp, STUDY_MIN_LIMBS, divisions, tree, best_root);
    free(text);
    mpz_clears(x, power, scaled, fraction, NULL);
    gmp_randclear(random);
    return 0;
}
