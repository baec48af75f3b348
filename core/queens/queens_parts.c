/* Splitting a count of n-queens solutions into parts: every class of border constellations with its
 * estimated cost, handed out largest first to the part with the least cost so far (queens_parts.h). */
#include "core/queens/queens_parts.h"

#include <stdlib.h>

typedef struct weighted_class {
    uint64_t first; /* the class's smallest constellation number */
    uint64_t weight;
} weighted_class;

/* Largest weight first, then smallest number: a total order, so the split is the same everywhere. */
static int heaviest_first(const void *a, const void *b) {
    const weighted_class *x = a, *y = b;
    if (x->weight != y->weight) return x->weight < y->weight ? 1 : -1;
    return x->first < y->first ? -1 : x->first > y->first;
}

static int ascending(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* A part's cost so far; the heap keeps the least (then the lowest-numbered) part on top. */
typedef struct part_load {
    uint64_t load;
    uint32_t part;
} part_load;

static bool lighter(part_load a, part_load b) { return a.load < b.load || (a.load == b.load && a.part < b.part); }

/* Restores the heap below `at` after heap[at] grew. */
static void sift_down(part_load *heap, size_t size, size_t at) {
    for (;;) {
        size_t least = at, left = 2 * at + 1, right = left + 1;
        if (left < size && lighter(heap[left], heap[least])) least = left;
        if (right < size && lighter(heap[right], heap[least])) least = right;
        if (least == at) return;
        part_load swap = heap[at];
        heap[at] = heap[least];
        heap[least] = swap;
        at = least;
    }
}

/* Every class of n's constellations (each one's first member) with its weight, in *classes; their
 * number in *count. Weights count one more than the width: every search has a fixed cost too. */
static core_status weigh_classes(int n, weighted_class **classes, size_t *count) {
    uint64_t range = queens_constellation_range(n);
    size_t capacity = 1024;
    *count = 0;
    *classes = malloc(capacity * sizeof **classes);
    if (*classes == NULL) return CORE_NO_MEMORY;
    for (uint64_t index = 0; index < range; index++) {
        queens_constellation c = queens_constellation_at(n, index);
        if (queens_constellation_class_size(n, c) == 0) continue;
        if (*count == capacity) {
            capacity *= 2;
            weighted_class *grown = realloc(*classes, capacity * sizeof *grown);
            if (grown == NULL) return CORE_NO_MEMORY;
            *classes = grown;
        }
        (*classes)[(*count)++] = (weighted_class){index, queens_constellation_weight(n, c) + 1};
    }
    return CORE_OK;
}

/* Hands the classes (heaviest first) out to the parts: class i to part owner[i]. */
static void hand_out(const weighted_class *classes, size_t count, uint32_t parts, part_load *heap, uint32_t *owner) {
    for (uint32_t p = 0; p < parts; p++) heap[p] = (part_load){0, p};
    for (size_t i = 0; i < count; i++) {
        owner[i] = heap[0].part;
        heap[0].load += classes[i].weight;
        sift_down(heap, parts, 0);
    }
}

core_status queens_part_split(int n, uint32_t parts, queens_part *all) {
    for (uint32_t p = 0; p < parts; p++) all[p] = (queens_part){.n = n, .whole = n < QUEENS_PART_MIN_N && p == 0};
    if (n < QUEENS_PART_MIN_N) return CORE_OK;
    weighted_class *classes = NULL;
    part_load *heap = NULL;
    uint32_t *owner = NULL;
    size_t count = 0;
    core_status status = weigh_classes(n, &classes, &count);
    if (status != CORE_OK) goto out;
    status = CORE_NO_MEMORY;
    heap = malloc(parts * sizeof *heap);
    owner = malloc((count > 0 ? count : 1) * sizeof *owner);
    if (heap == NULL || owner == NULL) goto out;
    qsort(classes, count, sizeof *classes, heaviest_first);
    hand_out(classes, count, parts, heap, owner);
    uint64_t total_weight = 0;
    for (size_t i = 0; i < count; i++) {
        total_weight += classes[i].weight;
        all[owner[i]].class_count++;
        all[owner[i]].weight += classes[i].weight;
    }
    for (uint32_t p = 0; p < parts; p++) {
        all[p].total_weight = total_weight;
        all[p].classes = malloc((all[p].class_count > 0 ? all[p].class_count : 1) * sizeof *all[p].classes);
        if (all[p].classes == NULL) goto out;
        all[p].class_count = 0;
    }
    for (size_t i = 0; i < count; i++) {
        queens_part *p = &all[owner[i]];
        p->classes[p->class_count++] = classes[i].first;
    }
    for (uint32_t p = 0; p < parts; p++) qsort(all[p].classes, all[p].class_count, sizeof *all[p].classes, ascending);
    status = CORE_OK;
out:
    free(classes);
    free(heap);
    free(owner);
    if (status != CORE_OK) {
        for (uint32_t p = 0; p < parts; p++) queens_part_free(&all[p]);
    }
    return status;
}

core_status queens_part_select(int n, uint32_t part, uint32_t parts, queens_part *out) {
    *out = (queens_part){.n = n};
    queens_part *all = calloc(parts, sizeof *all);
    if (all == NULL) return CORE_NO_MEMORY;
    core_status status = queens_part_split(n, parts, all);
    if (status == CORE_OK) {
        *out = all[part];
        all[part] = (queens_part){.n = n};
        for (uint32_t p = 0; p < parts; p++) queens_part_free(&all[p]);
    }
    free(all);
    return status;
}

void queens_part_free(queens_part *p) {
    free(p->classes);
    *p = (queens_part){.n = p->n};
}

bool queens_part_holds(const queens_part *p, queens_constellation c) {
    uint64_t first = queens_constellation_class_first(p->n, c);
    return bsearch(&first, p->classes, p->class_count, sizeof first, ascending) != NULL;
}
