/* The textbook next permutation (see permutations_reference.h). */
#include "permutations_reference.h"

static void swap(int *a, int *b) {
    int t = *a;
    *a = *b;
    *b = t;
}

bool reference_next_permutation(int *p, int n) {
    int i = n - 2;
    while (i >= 0 && p[i] > p[i + 1]) i--;
    if (i < 0) return false;
    int j = n - 1;
    while (p[j] < p[i]) j--;
    swap(&p[i], &p[j]);
    for (int a = i + 1, b = n - 1; a < b; a++, b--) swap(&p[a], &p[b]);
    return true;
}
